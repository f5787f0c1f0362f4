"""Shapes for the payouts API and, for the OpenAPI schema, the hand record and settlement.

The record serializers document the shape; the game's engine validates the content
and names every problem (``casino.rules``), so the views pass the body straight to it.
"""

from __future__ import annotations

from rest_framework import serializers

from .models import AuditCheck, AuditEntry, PayoutLine, SeatSettlement, Settlement


class _DPSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=1)
    bank = serializers.IntegerField(min_value=0, help_text="optional on settle: the hand's")
    cards = serializers.ListField(child=serializers.CharField(), min_length=7, max_length=7)


class _PlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=1)
    cards = serializers.ListField(child=serializers.CharField(), min_length=7, max_length=7)
    ante = serializers.IntegerField(min_value=1)
    raise_ = serializers.IntegerField(min_value=0, help_text="0 means the player folded")
    flush_bonus = serializers.IntegerField(min_value=0, required=False)
    straight_flush_bonus = serializers.IntegerField(min_value=0, required=False)

    def get_fields(self):  # type: ignore[no-untyped-def]
        fields = super().get_fields()
        fields["raise"] = fields.pop("raise_")
        return fields


class HighCardFlushRecordSerializer(serializers.Serializer):
    designated_player = _DPSerializer()
    players = _PlayerSerializer(many=True)


class HighCardFlushEvaluateSerializer(HighCardFlushRecordSerializer):
    rules = serializers.DictField(required=False, help_text="overrides of the game's defaults")


#: A whole High Card Flush hand, as the OpenAPI document's example of a record.
HCF_RECORD_EXAMPLE = {
    "designated_player": {
        "seat": 1,
        "bank": 50000,
        "cards": ["As", "Ks", "9s", "5s", "2d", "3c", "4h"],
    },
    "players": [
        {
            "seat": 2,
            "cards": ["Ah", "Kh", "7h", "2h", "Qd", "9c", "4c"],
            "ante": 1000,
            "raise": 1000,
            "flush_bonus": 500,
            "straight_flush_bonus": 0,
        },
        {
            "seat": 3,
            "cards": ["Jd", "9d", "6d", "5d", "3d", "2c", "5c"],
            "ante": 1000,
            "raise": 2000,
        },
    ],
}


POST_TYPES = ["small_blind", "big_blind", "live", "dead"]
ACTION_TYPES = ["fold", "check", "call", "bet", "raise", "draw"]


class _DrawSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=1)
    stack = serializers.IntegerField(min_value=0)
    cards = serializers.ListField(child=serializers.CharField(), min_length=5, max_length=5)


class _DrawPostSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=1)
    type = serializers.ChoiceField(choices=POST_TYPES)
    amount = serializers.IntegerField(min_value=0)


class DrawActionSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=1)
    type = serializers.ChoiceField(choices=ACTION_TYPES)
    to = serializers.IntegerField(required=False, help_text="the player's total for the round")
    discard = serializers.ListField(child=serializers.CharField(), required=False)
    receive = serializers.ListField(child=serializers.CharField(), required=False)


class DrawEvaluateSerializer(serializers.Serializer):
    """Five Card Draw 7-A: a whole hand, replayed action by action."""

    structure = serializers.ChoiceField(choices=["limit", "pot_limit", "no_limit"])
    small_blind = serializers.IntegerField(min_value=1)
    big_blind = serializers.IntegerField(min_value=1)
    big_bet = serializers.IntegerField(min_value=1, required=False)
    button = serializers.IntegerField(min_value=1)
    seats = _DrawSeatSerializer(many=True)
    posts = _DrawPostSerializer(many=True, required=False)
    actions = DrawActionSerializer(many=True)
    rules = serializers.DictField(required=False, help_text="overrides of the game's defaults")


class _LineSerializer(serializers.Serializer):
    wager = serializers.CharField()
    stake = serializers.IntegerField()
    outcome = serializers.ChoiceField(choices=["win", "lose", "push", "dead"])
    amount = serializers.IntegerField()
    odds = serializers.CharField(allow_null=True)


class _SeatResultSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    role = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField())
    hand = serializers.CharField(allow_null=True)
    status = serializers.CharField()
    lines = _LineSerializer(many=True)
    rake = serializers.IntegerField()
    net = serializers.IntegerField()


class SettlementResultSerializer(serializers.Serializer):
    game = serializers.CharField()
    rules = serializers.DictField()
    seats = _SeatResultSerializer(many=True)
    rake = serializers.IntegerField()
    order = serializers.ListField(child=serializers.IntegerField(), required=False)
    explanation = serializers.ListField(child=serializers.CharField())


class GameSerializer(serializers.Serializer):
    code = serializers.CharField()
    name = serializers.CharField()
    rules = serializers.DictField(help_text="the game's default rules")


class PayoutLineSerializer(serializers.ModelSerializer):
    class Meta:
        model = PayoutLine
        fields = ["wager", "stake", "outcome", "amount", "odds", "against", "capped_from"]


class SeatSettlementSerializer(serializers.ModelSerializer):
    lines = PayoutLineSerializer(many=True, read_only=True)

    class Meta:
        model = SeatSettlement
        fields = ["seat", "role", "status", "hand_description", "rake", "net", "lines"]


class SettlementSerializer(serializers.ModelSerializer):
    seats = SeatSettlementSerializer(many=True, read_only=True)
    settled_by = serializers.SlugRelatedField(slug_field="username", read_only=True)
    table = serializers.IntegerField(source="hand.table_id", read_only=True)
    hand_number = serializers.IntegerField(source="hand.number", read_only=True)

    class Meta:
        model = Settlement
        fields = [
            "id",
            "hand",
            "table",
            "hand_number",
            "rake",
            "settled_by",
            "settled_at",
            "seats",
            "record",
            "result",
        ]


class AuditEntrySerializer(serializers.ModelSerializer):
    class Meta:
        model = AuditEntry
        fields = [
            "id",
            "seq",
            "at",
            "actor_name",
            "action",
            "table",
            "hand",
            "subject",
            "before",
            "after",
            "prev_hash",
            "hash",
        ]


class AuditCheckSerializer(serializers.ModelSerializer):
    requested_by = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )

    class Meta:
        model = AuditCheck
        fields = ["id", "status", "requested_by", "requested_at", "finished_at", "report"]


# --------------------------------------------------------------------------- list filters

#: Ids are PostgreSQL bigints: a filter beyond them matches nothing and is refused.
MAX_ID = 2**63 - 1


def _id_filter(what: str) -> serializers.IntegerField:
    words = f"must be {what} id, a whole number from 1 to {MAX_ID}"
    return serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ID,
        help_text=f"only those of this {what.split()[-1]} (its id)",
        error_messages={
            "invalid": words,
            "min_value": words,
            "max_value": words,
            "max_string_length": words,
        },
    )


class SettlementFilterSerializer(serializers.Serializer):
    """``GET /api/v1/settlements/`` query parameters; a bad one is a 400 naming it."""

    table = _id_filter("a table")


class AuditEntryFilterSerializer(serializers.Serializer):
    """``GET /api/v1/audit/entries/`` query parameters; a bad one is a 400 naming it."""

    table = _id_filter("a table")
    hand = _id_filter("a hand")
    action = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=AuditEntry._meta.get_field("action").max_length,
        help_text="only entries of this action (e.g. hand_settle)",
    )
