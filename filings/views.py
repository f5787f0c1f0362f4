"""The tax and cash-reporting records through the API: W-2Gs, MTL entries, CTRs and
notices to the regulator, each with its settlement, patrons masked. Compliance and floor
managers read them; dealers do not."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.permissions import BasePermission

from approvals.serializers import PatronShownSerializer
from casino.core.errors import ErrorResponseSerializer
from casino.core.roles import COMPLIANCE, FLOOR_MANAGER, has_role

from . import selectors


class ReadsFilings(BasePermission):
    """Compliance and floor managers read the records (they name patrons); nobody writes
    here (records are entered on a payout sign-off)."""

    message = "The tax and cash-reporting records are read by compliance and floor managers."

    def has_permission(self, request: Any, view: Any) -> bool:
        return has_role(request.user, COMPLIANCE, FLOOR_MANAGER)


class FilingFilterSerializer(serializers.Serializer):
    start = serializers.DateField(required=False, help_text="from this gaming day")
    end = serializers.DateField(required=False, help_text="to this gaming day (included)")

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if data.get("start") and data.get("end") and data["end"] < data["start"]:
            raise serializers.ValidationError({"end": ["the last day is before the first"]})
        return data


class RecordSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=list(selectors.KINDS))
    id = serializers.IntegerField(source="pk")
    gaming_day = serializers.DateField()
    at = serializers.DateTimeField()
    table = serializers.CharField()
    hand = serializers.IntegerField(help_text="the hand's number at its table")
    seat = serializers.IntegerField(allow_null=True)
    settlement = serializers.IntegerField(help_text="the stored settlement it belongs to")
    amount = serializers.IntegerField(
        help_text="minor units: the line won (W-2G), the party's win (MTL), the gaming day's "
        "total (CTR), the win (notice)"
    )
    wager = serializers.IntegerField(allow_null=True, help_text="a W-2G's wager (minor units)")
    what = serializers.CharField(help_text="the wager, or what the amount is")
    patron = PatronShownSerializer(allow_null=True, help_text="the patron, numbers masked")
    by = serializers.CharField(help_text="who entered it")


class RecordListView(ListAPIView):
    """Stored records of one kind, newest first (``start``/``end``: gaming days)."""

    serializer_class = RecordSerializer
    permission_classes = [ReadsFilings]
    kind = "w2g"

    def get_queryset(self):  # type: ignore[no-untyped-def]
        filters = FilingFilterSerializer(data=self.request.query_params)
        filters.is_valid(raise_exception=True)
        return selectors.records(self.kind, **filters.validated_data)

    def paginate_queryset(self, queryset: Any) -> Any:
        page = super().paginate_queryset(queryset)
        rows = page if page is not None else list(queryset)
        return [selectors.as_record(self.kind, row) for row in rows]


def record_view(kind: str, words: str) -> Any:
    """The list view of one kind of record, described for the OpenAPI document."""
    described = extend_schema_view(
        get=extend_schema(
            summary=words,
            description=f"{words}, stored with their settlements, newest first; patrons "
            "masked (the last four characters of each number). Compliance and floor managers.",
            parameters=[
                OpenApiParameter("start", OpenApiTypes.DATE, description="from this gaming day"),
                OpenApiParameter("end", OpenApiTypes.DATE, description="to this gaming day"),
            ],
            responses={
                200: RecordSerializer(many=True),
                400: OpenApiResponse(ErrorResponseSerializer, description="a bad day"),
                403: OpenApiResponse(
                    ErrorResponseSerializer, description="not compliance or a floor manager"
                ),
            },
        )
    )
    view = type(f"{kind.capitalize()}RecordListView", (RecordListView,), {"kind": kind})
    return described(view).as_view()
