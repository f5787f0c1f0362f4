"""Chip custody in the API: amounts as counts per denomination (keys are denominations in
minor units) with their totals, signatures with who signed in which step."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from .models import ChipSet, Denomination, DropCount, Inventory, Signature, Slip

COUNTS_HELP = (
    'chips (or notes) per denomination: {"500": 20, "2500": 4} is twenty of 5.00 and four '
    "of 25.00 (keys are denominations in minor units, counts whole numbers)"
)


@extend_schema_field({"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}})
class CountsField(serializers.DictField):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", COUNTS_HELP)
        whole = "a count is a whole number of chips or notes, 0 or more"
        child = serializers.IntegerField(
            min_value=0, error_messages={"min_value": whole, "invalid": whole}
        )
        super().__init__(child=child, **kwargs)


class DenominationSerializer(serializers.ModelSerializer):
    class Meta:
        model = Denomination
        fields = ["form", "value", "colour", "hex"]


class ChipSetSerializer(serializers.ModelSerializer):
    property = serializers.CharField(source="property_name")
    denominations = DenominationSerializer(many=True)

    class Meta:
        model = ChipSet
        fields = [
            "property",
            "currency",
            "report_variance_above",
            "notify_variance_above",
            "denominations",
        ]


class CustodySignatureSerializer(serializers.ModelSerializer):
    signed_by = serializers.CharField(source="signed_by.username")
    step = serializers.ChoiceField(choices=Signature.Step.choices)

    class Meta:
        model = Signature
        fields = ["step", "signed_by", "roles", "signed_at"]


class InventorySerializer(serializers.ModelSerializer):
    table = serializers.IntegerField(source="table_id")
    signatures = CustodySignatureSerializer(many=True, read_only=True)
    counts = CountsField()
    proposed = serializers.IntegerField(source="proposed_id", allow_null=True)
    opener = serializers.IntegerField(source="opener_id", allow_null=True)

    class Meta:
        model = Inventory
        fields = [
            "id",
            "table",
            "kind",
            "status",
            "gaming_day",
            "counts",
            "total",
            "proposed",
            "opener",
            "expected",
            "variance",
            "reason",
            "counted_at",
            "signed_at",
            "signatures",
        ]


class InventoryCountSerializer(serializers.Serializer):
    counts = CountsField()
    total = serializers.IntegerField(
        required=False, help_text="the counts' total (minor units), checked when sent"
    )
    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        help_text="a closer beyond the report line says why",
    )


class SlipSerializer(serializers.ModelSerializer):
    table = serializers.IntegerField(source="table_id")
    table_name = serializers.CharField(source="table.name")
    label = serializers.CharField(help_text="as printed: F-2026-000042 (C- for a credit)")
    counts = CountsField()
    requested_by = serializers.CharField(source="requested_by.username")
    voided_by = serializers.CharField(source="voided_by.username", allow_null=True)
    signatures = CustodySignatureSerializer(many=True, read_only=True)
    reprint = serializers.SerializerMethodField(help_text="printed before: a print says REPRINT")

    class Meta:
        model = Slip
        fields = [
            "id",
            "kind",
            "label",
            "year",
            "number",
            "table",
            "table_name",
            "gaming_day",
            "status",
            "counts",
            "total",
            "requested_by",
            "requested_at",
            "completed_at",
            "void_reason",
            "voided_by",
            "prints",
            "reprint",
            "signatures",
        ]

    def get_reprint(self, slip: Slip) -> bool:
        return slip.prints > 1


class SlipRequestSerializer(serializers.Serializer):
    counts = CountsField()
    total = serializers.IntegerField(required=False, help_text="checked when sent")


class SlipSignSerializer(serializers.Serializer):
    counts = CountsField(required=False, help_text="what the signer counted: must be the slip's")
    total = serializers.IntegerField(required=False)


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField()


class DropSerializer(serializers.ModelSerializer):
    table = serializers.IntegerField(source="table_id")
    table_name = serializers.CharField(source="table.name")
    cash = CountsField()
    chips = CountsField()
    corrects = serializers.IntegerField(source="corrects_id", allow_null=True)
    corrected_by = serializers.SerializerMethodField(
        help_text="the count that corrects this one (it stays, replaced)"
    )
    signatures = CustodySignatureSerializer(many=True, read_only=True)
    signed = serializers.SerializerMethodField(help_text="both counters signed")

    class Meta:
        model = DropCount
        fields = [
            "id",
            "table",
            "table_name",
            "gaming_day",
            "cash",
            "chips",
            "cash_total",
            "chips_total",
            "total",
            "corrects",
            "corrected_by",
            "reason",
            "counted_at",
            "signed",
            "signatures",
        ]

    def get_corrected_by(self, drop: DropCount) -> int | None:
        found = getattr(drop, "correction", None)
        return found.pk if found is not None else None

    def get_signed(self, drop: DropCount) -> bool:
        return len(drop.signatures.all()) >= 2


class DropCountSerializer(serializers.Serializer):
    gaming_day = serializers.DateField(
        required=False, help_text="the box's gaming day (default: the day being counted, today)"
    )
    cash = CountsField(help_text="notes per denomination, as chips are counted")
    chips = CountsField()
    cash_total = serializers.IntegerField(required=False)
    chips_total = serializers.IntegerField(required=False)
    corrects = serializers.IntegerField(
        required=False, help_text="a correction: the count it corrects (which stays)"
    )
    reason = serializers.CharField(required=False, allow_blank=True, default="")


class WindowSerializer(serializers.Serializer):
    opener = InventorySerializer(allow_null=True)
    closer = InventorySerializer(allow_null=True)
    start = serializers.DateTimeField(allow_null=True)
    end = serializers.DateTimeField(allow_null=True)
    fills = serializers.IntegerField()
    credits = serializers.IntegerField()
    hands = serializers.IntegerField(source="figures.hands")
    collection = serializers.IntegerField(source="figures.rake", help_text="rake recorded")
    house_net = serializers.IntegerField(help_text="the house's net where it banks")
    expected_tray = serializers.IntegerField()


class CustodyStateSerializer(serializers.Serializer):
    table = serializers.IntegerField(source="table.pk")
    status = serializers.CharField(source="table.status")
    window = WindowSerializer()
    proposal = InventorySerializer(
        allow_null=True, help_text="the last closer: the next opener's proposed counts"
    )
    pending = InventorySerializer(allow_null=True, help_text="a count waiting for its signature")
    slips = SlipSerializer(many=True, help_text="fills and credits not yet received")


class DayRowSerializer(serializers.Serializer):
    table = serializers.IntegerField(source="table.pk")
    table_name = serializers.CharField(source="table.name")
    opener = serializers.IntegerField(allow_null=True)
    closer = serializers.IntegerField(allow_null=True)
    fills = serializers.IntegerField()
    credits = serializers.IntegerField()
    drop = serializers.IntegerField(source="drop.total", allow_null=True, default=None)
    drop_cash = serializers.IntegerField(source="drop.cash_total", allow_null=True, default=None)
    drop_chips = serializers.IntegerField(source="drop.chips_total", allow_null=True, default=None)
    statistical_win = serializers.IntegerField(
        allow_null=True, help_text="closer − opener + credits − fills + drop"
    )
    hand_win = serializers.IntegerField(help_text="the hands' win: house net plus collection")
    win_difference = serializers.IntegerField(allow_null=True)
    tray_variance = serializers.IntegerField(allow_null=True)
    collection = serializers.IntegerField(source="figures.rake")
    collection_difference = serializers.IntegerField(
        allow_null=True, help_text="chips in the drop box less the collection recorded"
    )
    hands = serializers.IntegerField(source="figures.hands", help_text="hands settled")
