"""Shapes for the tables API. Serializers check shape; the services decide."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from rest_framework import serializers

from casino.core.roles import DEALER
from casino.rules.five_card_draw.blinds import Choice

from .models import Game, Hand, Seat, Table, TableChange
from .selectors import hand_state

User = get_user_model()


class SeatSerializer(serializers.ModelSerializer):
    markers = serializers.SerializerMethodField(help_text="7-A missed blinds: ML and/or MS")

    class Meta:
        model = Seat
        fields = ["number", "player", "sitting_out", "in_play", "new", "blind_choice", "markers"]

    def get_markers(self, seat: Seat) -> list[str]:
        markers = (seat.table.game_state or {}).get("markers") or {}
        return list(markers.get(str(seat.number), []))


class TableSerializer(serializers.ModelSerializer):
    dealer = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    seats = SeatSerializer(many=True, read_only=True)

    class Meta:
        model = Table
        fields = [
            "id",
            "name",
            "game",
            "status",
            "dealer",
            "seat_count",
            "limits",
            "smallest_chip",
            "rules",
            "rotation_policy",
            "game_state",
            "dp_seat",
            "dp_bank",
            "offer_seat",
            "stopped",
            "next_hand_number",
            "seats",
        ]


class TableCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    game = serializers.ChoiceField(choices=Game.choices)
    seat_count = serializers.IntegerField(min_value=2, max_value=10, default=7)
    dealer = serializers.SlugRelatedField(
        slug_field="username",
        queryset=User.objects.filter(groups__name=DEALER),
        required=False,
        allow_null=True,
    )
    limits = serializers.DictField(
        help_text="high-card-flush: ante_min, ante_max, bank_min, bank_max; "
        "five-card-draw-7a: structure, small_blind, big_blind, big_bet"
    )
    smallest_chip = serializers.IntegerField(min_value=1, default=1)
    rules = serializers.DictField(required=False, default=dict)
    rotation_policy = serializers.DictField(required=False, default=dict)


class TableStatusSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Table.Status.choices)


class DealerAssignSerializer(serializers.Serializer):
    dealer = serializers.SlugRelatedField(
        slug_field="username",
        queryset=User.objects.filter(groups__name=DEALER),
        allow_null=True,
    )


class SeatUpdateSerializer(serializers.Serializer):
    player = serializers.CharField(max_length=100, allow_blank=True)
    sitting_out = serializers.BooleanField(default=False)
    blind_choice = serializers.ChoiceField(
        choices=["", *(str(choice) for choice in Choice)],
        default="",
        help_text="7-A: a returning player posts what they owe (post_all; post_small_dead "
        "with MS only) or waits for the big blind",
    )


class TableChangeSerializer(serializers.ModelSerializer):
    requested_by = serializers.SlugRelatedField(slug_field="username", read_only=True)
    decided_by = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )

    class Meta:
        model = TableChange
        fields = [
            "id",
            "table",
            "changes",
            "before",
            "reason",
            "status",
            "requested_by",
            "requested_at",
            "decided_by",
            "decided_at",
            "decision_note",
            "applies_from_hand",
        ]


class ChangeRequestSerializer(serializers.Serializer):
    changes = serializers.DictField(
        help_text="new values for any of ante_min, ante_max, bank_min, bank_max, "
        "smallest_chip, rules (merged by key), rotation_policy (merged by key)"
    )
    reason = serializers.CharField(allow_blank=True, required=False, default="")


class DecisionSerializer(serializers.Serializer):
    note = serializers.CharField(allow_blank=True, required=False, default="")


class RotationDecisionSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=1)
    decision = serializers.ChoiceField(choices=["accept", "decline"])
    bank = serializers.IntegerField(min_value=0, required=False, allow_null=True)


class RotationEventSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["offer", "accept", "decline", "stop"])
    seat = serializers.IntegerField()
    bank = serializers.IntegerField(allow_null=True)
    at = serializers.DateTimeField()
    by = serializers.CharField(allow_null=True)


class RotationStateSerializer(serializers.Serializer):
    designated_player = serializers.IntegerField(allow_null=True)
    bank = serializers.IntegerField(allow_null=True)
    offer_seat = serializers.IntegerField(allow_null=True)
    offer_round_start = serializers.IntegerField(allow_null=True)
    stopped = serializers.BooleanField()
    policy = serializers.DictField()
    events = RotationEventSerializer(many=True)


class HandSerializer(serializers.ModelSerializer):
    table = serializers.PrimaryKeyRelatedField(read_only=True)
    opened_by = serializers.SlugRelatedField(slug_field="username", read_only=True)
    voided_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    settlement = serializers.SerializerMethodField()
    state = serializers.SerializerMethodField(help_text="a live hand's state (7-A)")

    class Meta:
        model = Hand
        fields = [
            "id",
            "table",
            "number",
            "game",
            "status",
            "rules",
            "dp_seat",
            "dp_bank",
            "button",
            "seats",
            "config",
            "state",
            "opened_by",
            "opened_at",
            "closed_at",
            "void_reason",
            "voided_by",
            "settlement",
        ]

    def get_state(self, hand: Hand) -> dict | None:
        return hand_state(hand=hand)

    def get_settlement(self, hand: Hand) -> int | None:
        settlement = getattr(hand, "settlement", None)
        return settlement.pk if settlement is not None else None


class VoidSerializer(serializers.Serializer):
    reason = serializers.CharField()


class HandOpenSerializer(serializers.Serializer):
    seats = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="7-A: each dealt-in seat's stack and five cards "
        '([{"seat": 1, "stack": 10000, "cards": [...]}]); High Card Flush: leave out',
    )


class BankAssignSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=1, help_text="the first banker (e.g. by the cut)")
