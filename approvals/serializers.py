from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from casino.core.roles import SIGNING_ROLES
from filings.models import Patron
from payouts.serializers import SettlementResultSerializer, id_filter
from payouts.signoff import MAX_COUNT, MAX_THRESHOLD, MAX_TIERS

from .models import Approval, Signature
from .selectors import SignoffStatus, signoff_status


class Strict(serializers.Serializer):
    """An input that refuses fields it does not know (a 400 naming each)."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {key: [f"unknown field {key!r}"] for key in unknown}
                )
        return super().to_internal_value(data)


# ---------------------------------------------------------------- a payout's sign-off


class SignoffTierSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="1 for the first tier")
    above = serializers.IntegerField(
        help_text="the tier applies to a win above this (minor units); 0 for the one floor "
        "manager a payout held only for a record needs"
    )
    role = serializers.ChoiceField(choices=list(SIGNING_ROLES))
    count = serializers.IntegerField(help_text="signatures the tier needs, each a different person")
    signed_by = serializers.ListField(
        child=serializers.CharField(), help_text="who signed for this tier"
    )
    missing = serializers.IntegerField(help_text="signatures the tier still needs")


class SignatureSerializer(serializers.ModelSerializer):
    signed_by = serializers.SlugRelatedField(slug_field="username", read_only=True)
    tier = serializers.SerializerMethodField(
        help_text="the tier it counted for when given (1, 2, ...)"
    )

    class Meta:
        model = Signature
        fields = ["signed_by", "roles", "tier", "note", "signed_at"]

    def get_tier(self, signature: Signature) -> int:
        return signature.tier + 1


class PatronShownSerializer(serializers.Serializer):
    """A patron as every page and export shows them: the numbers masked."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    id_kind = serializers.ChoiceField(choices=Patron.IdKind.choices)
    id_kind_label = serializers.CharField()
    id_number = serializers.CharField(help_text="masked: the last four characters only")
    tin = serializers.CharField(help_text="masked: the last four characters only; empty if none")
    has_address = serializers.ChoiceField(choices=["yes", "no"])


class W2GLineSerializer(serializers.Serializer):
    line = serializers.IntegerField(help_text="the line's place among the seat's lines")
    name = serializers.CharField(help_text="the wager")
    wager = serializers.IntegerField(help_text="what it won on (minor units)")
    amount = serializers.IntegerField(help_text="won (minor units)")


class SeatRecordsSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    win = serializers.IntegerField(
        help_text="the party's win: its biggest line or its net, the larger (minor units)"
    )
    w2g = W2GLineSerializer(many=True, help_text="lines that need a W-2G")
    mtl = serializers.BooleanField(help_text="the win needs an MTL entry")
    patron = PatronShownSerializer(allow_null=True, help_text="the patron named for the seat")
    day_total = serializers.IntegerField(
        allow_null=True,
        help_text="the patron's recorded wins this gaming day, this one included (minor units)",
    )
    ctr_needed = serializers.BooleanField(help_text="the day's total is above the CTR line")
    ctr = serializers.IntegerField(allow_null=True, help_text="the CTR on record, if any")
    missing = serializers.ListField(child=serializers.CharField())


class PromptsSerializer(serializers.Serializer):
    w2g_min = serializers.IntegerField()
    w2g_multiple = serializers.IntegerField()
    mtl_above = serializers.IntegerField()
    ctr_above = serializers.IntegerField()


class SignoffStatusSerializer(serializers.Serializer):
    """Where a payout sign-off stands."""

    win = serializers.IntegerField(help_text="the largest win of one party (minor units)")
    tiers = SignoffTierSerializer(many=True)
    tiers_reached = serializers.IntegerField(
        help_text="how many of the policy's tiers the win reaches (0: only a record holds it)"
    )
    signed = serializers.IntegerField()
    needed = serializers.IntegerField()
    signatures = SignatureSerializer(many=True)
    seats = SeatRecordsSerializer(many=True, help_text="each winning seat and its records")
    prompts = PromptsSerializer(help_text="the W-2G, MTL and CTR thresholds it was held under")
    regulator_notice = serializers.BooleanField(
        help_text="the win is at or above the regulator-notice line: the regulator is notified"
    )
    notice_line = serializers.IntegerField(allow_null=True)
    missing = serializers.ListField(
        child=serializers.CharField(), help_text="what it cannot be stored without, in words"
    )


def signoff_data(status: SignoffStatus) -> dict[str, Any]:
    return {
        "win": status.win,
        "tiers": [
            {
                "number": t.number,
                "above": t.tier.above,
                "role": t.tier.role,
                "count": t.tier.count,
                "signed_by": [s.signed_by.get_username() for s in t.signed_by],
                "missing": t.missing,
            }
            for t in status.tiers
        ],
        "tiers_reached": status.reached,
        "signed": status.signed,
        "needed": status.needed,
        "signatures": SignatureSerializer(status.signatures, many=True).data,
        "seats": [
            {
                "seat": row.seat.seat,
                "win": row.seat.win,
                "w2g": row.seat.w2g,
                "mtl": row.seat.mtl,
                "patron": row.payout.patron.shown() if row.payout else None,
                "day_total": row.day_total,
                "ctr_needed": row.ctr_needed,
                "ctr": row.ctr.pk if row.ctr else None,
                "missing": row.missing,
            }
            for row in status.records
        ],
        "prompts": status.prompts
        or {"w2g_min": 0, "w2g_multiple": 0, "mtl_above": 0, "ctr_above": 0},
        "regulator_notice": status.notice,
        "notice_line": status.notice_line,
        "missing": status.missing,
    }


class ApprovalSerializer(serializers.ModelSerializer):
    kind_label = serializers.CharField(source="get_kind_display", read_only=True)
    table_name = serializers.CharField(source="table.name", read_only=True)
    hand_number = serializers.IntegerField(source="hand.number", read_only=True, allow_null=True)
    requested_by = serializers.SlugRelatedField(slug_field="username", read_only=True)
    decided_by = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )
    signoff = serializers.SerializerMethodField(
        help_text="a payout sign-off's tiers, signatures, records and what is still missing "
        "(null for the other kinds)"
    )

    class Meta:
        model = Approval
        fields = [
            "id",
            "kind",
            "kind_label",
            "status",
            "table",
            "table_name",
            "hand",
            "hand_number",
            "change",
            "reason",
            "detail",
            "requested_by",
            "requested_at",
            "decided_by",
            "decided_at",
            "note",
            "signoff",
        ]

    @extend_schema_field(SignoffStatusSerializer(allow_null=True))
    def get_signoff(self, approval: Approval) -> dict[str, Any] | None:
        status = signoff_status(approval)
        return signoff_data(status) if status is not None else None


class ApprovalFilterSerializer(serializers.Serializer):
    """The queue's query parameters; an unknown value is a 400 naming it, never ignored."""

    kind = serializers.ChoiceField(choices=Approval.Kind.choices, required=False)
    status = serializers.ChoiceField(choices=Approval.Status.choices, required=False)
    table = id_filter("a table")
    hand = id_filter("a hand")


class PatronInputSerializer(Strict):
    """The patron of a winning seat: an existing one by ``patron``, or an identity (matched
    by its ID to the patron on record)."""

    patron = serializers.IntegerField(
        required=False, min_value=1, help_text="a patron on record, by id"
    )
    name = serializers.CharField(required=False, allow_blank=True, max_length=200)
    id_kind = serializers.ChoiceField(choices=Patron.IdKind.choices, required=False)
    id_number = serializers.CharField(required=False, allow_blank=True, max_length=40)
    address = serializers.CharField(required=False, allow_blank=True, max_length=300)
    tin = serializers.CharField(
        required=False, allow_blank=True, max_length=20, help_text="taxpayer identification number"
    )


class RecordsSerializer(Strict):
    patrons = serializers.DictField(
        child=PatronInputSerializer(),
        required=False,
        default=dict,
        help_text='a winning seat\'s patron, by seat number: {"3": {"name", "id_kind", '
        '"id_number", "address", "tin"}} or {"3": {"patron": 12}}; a W-2G needs the address '
        "and taxpayer id too",
    )
    ctr = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=999),
        required=False,
        default=list,
        max_length=50,
        help_text="seats whose patron's gaming day goes above the CTR line: record the CTR",
    )


class DecisionSerializer(RecordsSerializer):
    note = serializers.CharField(allow_blank=True, required=False, default="", max_length=500)


class HeldSettlementSerializer(SettlementResultSerializer):
    """A settlement that needs sign-off, held: the request that waits for the floor and the
    settlement that signing it stores."""

    hand = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["pending_signoff"])
    approval = ApprovalSerializer()


# ---------------------------------------------------------------- sign-off policies


class TierSerializer(Strict):
    above = serializers.IntegerField(
        min_value=1,
        max_value=MAX_THRESHOLD - 1,
        help_text="the tier applies to a win above this amount (minor units)",
    )
    role = serializers.ChoiceField(
        choices=list(SIGNING_ROLES), help_text="the role each of its signers holds"
    )
    count = serializers.IntegerField(
        min_value=1, max_value=MAX_COUNT, default=1, help_text="signatures, each a different person"
    )


class PolicySerializer(serializers.Serializer):
    """A sign-off policy in force or set: its tiers (lowest first), its regulator-notice line
    and where it comes from."""

    scope = serializers.ChoiceField(choices=["table", "game", "house", "default"])
    table = serializers.IntegerField(allow_null=True)
    table_name = serializers.CharField(allow_null=True)
    game = serializers.CharField(allow_blank=True)
    tiers = TierSerializer(many=True)
    notice = serializers.IntegerField(
        allow_null=True,
        help_text="a win at or above this (minor units) is flagged for notifying the regulator",
    )
    set_by = serializers.CharField(allow_null=True)
    set_at = serializers.DateTimeField(allow_null=True)


class PolicySetSerializer(Strict):
    table = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=1, help_text="one table's own"
    )
    game = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=40,
        help_text="every table of a game",
    )
    preset = serializers.ChoiceField(
        choices=["mississippi", "nevada"],
        required=False,
        help_text="start from a regulator's tiers (tiers and notice may still be given)",
    )
    tiers = TierSerializer(many=True, required=False, max_length=MAX_TIERS)
    notice = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_THRESHOLD - 1
    )


class PolicyClearSerializer(Strict):
    table = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=1)
    game = serializers.CharField(required=False, allow_blank=True, default="", max_length=40)


class PolicyListSerializer(serializers.Serializer):
    house = PolicySerializer(help_text="the house's policy (set, or the built-in default)")
    set = PolicySerializer(many=True, help_text="every policy set for a game or a table")
    tables = PolicySerializer(many=True, help_text="the policy in force at each table")
