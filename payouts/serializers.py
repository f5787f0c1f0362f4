"""Shapes for the payouts API and, for the OpenAPI document, the settlement.

Each game's record, opening body and actions are documented from the game registry
(``casino.core.game_schema``); the game validates their content and names every problem.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from casino.core.i18n import with_explanation_text
from casino.rules.settlement import Outcome

from .models import AuditCheck, AuditEntry, PayoutLine, SeatSettlement, Settlement
from .services import verdict


class _LineSerializer(serializers.Serializer):
    wager = serializers.CharField()
    stake = serializers.IntegerField()
    outcome = serializers.ChoiceField(
        choices=[str(outcome) for outcome in Outcome],
        help_text="bonus: a payout with no stake of its own, paid on the wager the line names",
    )
    amount = serializers.IntegerField()
    odds = serializers.CharField(allow_null=True)
    against = serializers.IntegerField(required=False, help_text="a bank's opposing seat")
    capped_from = serializers.IntegerField(
        required=False, help_text="the amount before a per-hand cap"
    )


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
    """Chips are conserved: the seats' nets, the house's net (a house-banked game) and the
    rake sum to zero. A game adds its own figures (e.g. the next banker) beside these."""

    game = serializers.CharField()
    rules = serializers.DictField()
    seats = _SeatResultSerializer(many=True)
    house = _SeatResultSerializer(
        required=False, help_text="the house's result (seat 0) in a game the house banks"
    )
    rake = serializers.IntegerField()
    explanation = serializers.ListField(
        child=serializers.CharField(), help_text="the settlement in English sentences"
    )
    messages = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text='the same sentences as message ids and parameters, {"id", "params"} per line '
        '(a parameter in words is itself {"id", "params"}); absent from a result settled '
        "before they existed",
    )
    explanation_text = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="the explanation in the request's language (the django_language cookie, "
        "else Accept-Language); in English the same as explanation. Served, never stored",
    )


class GameSerializer(serializers.Serializer):
    code = serializers.CharField()
    name = serializers.CharField()
    min_players = serializers.IntegerField()
    max_seats = serializers.IntegerField()
    record_settled = serializers.BooleanField(
        help_text="the dealer posts the whole hand as a record when settling"
    )
    rules = serializers.DictField(help_text="the game's default rules")
    rules_doc = serializers.CharField(help_text="the rules as implemented, in the repository")
    schemas = serializers.DictField(
        help_text="JSON schemas: limits, rules, open, actions, table_actions, record"
    )


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
            "history",
            "result",
        ]

    def to_representation(self, instance: Settlement) -> dict[str, Any]:
        """The stored result as served: ``explanation_text`` added (nothing stored changes)."""
        data = super().to_representation(instance)
        if isinstance(data.get("result"), dict):
            data["result"] = with_explanation_text(data["result"])
        return data


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


#: A check's status as the API shows it: its sealed verdict, or ``unsealed`` when the check
#: is marked finished but no sealed audit entry states its verdict.
AUDIT_CHECK_STATUSES = [
    *AuditCheck.Status.choices,
    ("unsealed", "finished, but its verdict is not sealed in the audit log"),
]


class AuditCheckSealSerializer(serializers.Serializer):
    entry = serializers.IntegerField(help_text="the house chain's entry sealing the verdict")
    status = serializers.CharField()
    at = serializers.DateTimeField()


class AuditCheckSerializer(serializers.ModelSerializer):
    """A check as its sealed ``audit_check`` entry states it: ``status`` is the sealed
    verdict; when the stored row differs from it (changed after the check), ``problem`` says
    so and the stored ``report`` is withheld."""

    requested_by = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )
    status = serializers.SerializerMethodField()
    sealed = serializers.SerializerMethodField()
    problem = serializers.SerializerMethodField()
    report = serializers.SerializerMethodField()

    class Meta:
        model = AuditCheck
        fields = [
            "id",
            "status",
            "sealed",
            "problem",
            "requested_by",
            "requested_at",
            "finished_at",
            "full",
            "stage",
            "checked",
            "total",
            "report",
        ]

    def _verdict(self, check: AuditCheck) -> dict[str, Any]:
        cache = self.context.setdefault("verdicts", {})
        if check.pk not in cache:
            cache[check.pk] = verdict(check)
        return cache[check.pk]

    @extend_schema_field(serializers.ChoiceField(choices=AUDIT_CHECK_STATUSES))
    def get_status(self, check: AuditCheck) -> str:
        return str(self._verdict(check)["status"])

    @extend_schema_field(AuditCheckSealSerializer(allow_null=True))
    def get_sealed(self, check: AuditCheck) -> dict[str, Any] | None:
        sealed = self._verdict(check)["sealed"]
        return AuditCheckSealSerializer(sealed).data if sealed else None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_problem(self, check: AuditCheck) -> str | None:
        return self._verdict(check)["problem"]

    @extend_schema_field(serializers.JSONField(allow_null=True))
    def get_report(self, check: AuditCheck) -> Any:
        return None if self._verdict(check)["problem"] else check.report


class AuditCheckRequestSerializer(serializers.Serializer):
    full = serializers.BooleanField(
        default=False,
        help_text="verify everything from each chain's first entry, not only what is new "
        "since the last passed check",
    )


# --------------------------------------------------------------------------- list filters

#: Ids are PostgreSQL bigints: a filter beyond them matches nothing and is refused.
MAX_ID = 2**63 - 1


def id_filter(what: str) -> serializers.IntegerField:
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

    table = id_filter("a table")


class AuditEntryFilterSerializer(serializers.Serializer):
    """``GET /api/v1/audit/entries/`` query parameters; a bad one is a 400 naming it."""

    table = id_filter("a table")
    hand = id_filter("a hand")
    action = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=AuditEntry._meta.get_field("action").max_length,
        help_text="only entries of this action (e.g. hand_settle)",
    )
