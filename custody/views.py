"""Chip custody through the API: thin views over ``custody.services`` and
``custody.selectors``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.core.errors import ErrorResponseSerializer, NotFound
from casino.core.idempotency import idempotent
from casino.core.roles import CAGE, COUNT_TEAM, DEALER, FLOOR_MANAGER
from payouts.figures import gaming_day
from tables.models import Table

from . import selectors, services
from .models import DropCount, Inventory, Slip
from .serializers import (
    ChipSetSerializer,
    CustodyStateSerializer,
    DayRowSerializer,
    DropCountSerializer,
    DropSerializer,
    InventoryCountSerializer,
    InventorySerializer,
    ReasonSerializer,
    SlipRequestSerializer,
    SlipSerializer,
    SlipSignSerializer,
)

ERRORS = {
    code: OpenApiResponse(ErrorResponseSerializer, description=words)
    for code, words in (
        (
            400,
            "bad counts (an unknown denomination, a total that does not match), a missing reason",
        ),
        (
            403,
            "a role or a person this step does not take (a second signature by the same "
            "person, a dealer at another table)",
        ),
        (404, "no such table, slip, count"),
        (409, "the record or the table is not in the state this needs"),
    )
}
TABLE_SIDE = (DEALER, FLOOR_MANAGER)


def _table(pk: int) -> Table:
    table = Table.objects.filter(pk=pk).first()
    if table is None:
        raise NotFound(f"table {pk} does not exist")
    return table


class ChipSetView(APIView):
    """The property's chip set: its denominations (chips with their colours, cash notes)
    and the variance lines it reports and notifies at."""

    @extend_schema(responses={200: ChipSetSerializer, 409: ERRORS[409]})
    def get(self, request: Request) -> Response:
        return Response(ChipSetSerializer(services.chip_set()).data)


class CustodyStateView(APIView):
    """A table's custody now: the current window (opener, fills and credits received, the
    hands' house net and collection, the expected tray), the proposal for the next opener
    (the last closer), a count waiting for its second signature, the open slips."""

    @extend_schema(responses={200: CustodyStateSerializer, 404: ERRORS[404]})
    def get(self, request: Request, pk: int) -> Response:
        table = _table(pk)
        return Response(CustodyStateSerializer({"table": table, **selectors.state(table)}).data)


class InventoryCountView(APIView):
    """Count the tray by denomination: an ``opener`` for a closed table, a ``closer`` for an
    open one (no hand open). The counter (the table's dealer or a floor manager) signs
    first; the other of the two signs with ``inventories/{id}/sign/``, which opens or
    closes the table. A closer beyond the report line needs ``reason``."""

    write_roles = TABLE_SIDE
    kind = Inventory.Kind.OPENER

    @extend_schema(request=InventoryCountSerializer, responses={201: InventorySerializer, **ERRORS})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = InventoryCountSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        inventory = services.inventory_count(
            user=request.user, table_id=pk, kind=self.kind, **data.validated_data
        )
        return Response(InventorySerializer(inventory).data, status=status.HTTP_201_CREATED)


class InventorySignView(APIView):
    """The second signature on an opener or a closer (the dealer's and a floor manager's,
    two people): an opener opens the table, a closer closes it."""

    write_roles = TABLE_SIDE

    @extend_schema(request=None, responses={200: InventorySerializer, **ERRORS})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        inventory = services.inventory_sign(user=request.user, inventory_id=pk)
        return Response(InventorySerializer(inventory).data)


@extend_schema(
    parameters=[
        OpenApiParameter("table", int, description="only this table's"),
        OpenApiParameter("kind", enum=Slip.Kind.values),
        OpenApiParameter("status", enum=Slip.Status.values),
        OpenApiParameter("year", int, description="only this calendar year's"),
    ]
)
class SlipListView(ListAPIView):
    """Fill and credit slips, newest first, void ones included (their numbers stay)."""

    serializer_class = SlipSerializer

    def get_queryset(self):  # type: ignore[no-untyped-def]
        filters = _SlipFilter(data=self.request.query_params)
        filters.is_valid(raise_exception=True)
        given = {k: v for k, v in filters.validated_data.items() if v is not None}
        if "table" in given:
            given["table_id"] = given.pop("table")
        return (
            Slip.objects.filter(**given)
            .select_related("table", "requested_by", "voided_by")
            .prefetch_related("signatures__signed_by")
            .order_by("-requested_at", "-pk")
        )


class _SlipFilter(serializers.Serializer):
    table = serializers.IntegerField(required=False)
    kind = serializers.ChoiceField(choices=Slip.Kind.values, required=False)
    status = serializers.ChoiceField(choices=Slip.Status.values, required=False)
    year = serializers.IntegerField(required=False)


class SlipRequestView(APIView):
    """A floor manager requests a fill or a credit for an open table; the slip takes the
    next number of its series (per property, kind and calendar year, no gaps)."""

    write_roles = (FLOOR_MANAGER,)
    kind = Slip.Kind.FILL

    @extend_schema(request=SlipRequestSerializer, responses={201: SlipSerializer, **ERRORS})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = SlipRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        slip = services.slip_request(
            user=request.user, table_id=pk, kind=self.kind, **data.validated_data
        )
        return Response(SlipSerializer(slip).data, status=status.HTTP_201_CREATED)


class SlipSignView(APIView):
    """The slip's next signature. A fill: the cage (what left it), then the dealer and a
    floor manager at the table; a credit: the dealer and a floor manager (what left the
    table), then the cage. ``counts``, when sent, must be the slip's."""

    write_roles = (DEALER, FLOOR_MANAGER, CAGE)

    @extend_schema(request=SlipSignSerializer, responses={200: SlipSerializer, **ERRORS})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = SlipSignSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        slip = services.slip_sign(user=request.user, slip_id=pk, **data.validated_data)
        return Response(SlipSerializer(slip).data)


class SlipVoidView(APIView):
    """A floor manager voids a slip not yet received, with a reason; it keeps its number."""

    write_roles = (FLOOR_MANAGER,)

    @extend_schema(request=ReasonSerializer, responses={200: SlipSerializer, **ERRORS})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = ReasonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        slip = services.slip_void(user=request.user, slip_id=pk, **data.validated_data)
        return Response(SlipSerializer(slip).data)


class SlipPrintView(APIView):
    """Record a print of the slip (audited); every print after the first is a reprint,
    marked REPRINT (``reprint``)."""

    write_roles = (DEALER, FLOOR_MANAGER, CAGE)

    @extend_schema(request=None, responses={200: SlipSerializer, **ERRORS})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        return Response(SlipSerializer(services.slip_print(user=request.user, slip_id=pk)).data)


@extend_schema(
    parameters=[
        OpenApiParameter("day", str, description="a gaming day (YYYY-MM-DD); default today"),
        OpenApiParameter("table", int, description="only this table's"),
    ]
)
class DropListView(ListAPIView):
    """Drop counts of a gaming day, corrections included (a corrected count stays, with
    ``corrected_by``)."""

    serializer_class = DropSerializer

    def get_queryset(self):  # type: ignore[no-untyped-def]
        filters = _DayFilter(data=self.request.query_params)
        filters.is_valid(raise_exception=True)
        rows = DropCount.objects.filter(
            gaming_day=filters.validated_data.get("day") or gaming_day()
        )
        if filters.validated_data.get("table"):
            rows = rows.filter(table_id=filters.validated_data["table"])
        return rows.select_related("table", "correction").prefetch_related("signatures__signed_by")


class _DayFilter(serializers.Serializer):
    day = serializers.DateField(required=False)
    table = serializers.IntegerField(required=False)


class DropCountView(APIView):
    """A counter of the count team enters a table's drop box count by denomination (cash
    and chips) and signs first; another counter signs with ``drops/{id}/sign/``. A
    correction names the count it corrects (``corrects``) with a reason; the original
    stays."""

    write_roles = (COUNT_TEAM,)

    @extend_schema(request=DropCountSerializer, responses={201: DropSerializer, **ERRORS})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = DropCountSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given: dict[str, Any] = dict(data.validated_data)
        given.setdefault("gaming_day", gaming_day())
        drop = services.drop_count(user=request.user, table_id=pk, **given)
        return Response(DropSerializer(drop).data, status=status.HTTP_201_CREATED)


class DropSignView(APIView):
    """The second counter's signature on a drop count."""

    write_roles = (COUNT_TEAM,)

    @extend_schema(request=None, responses={200: DropSerializer, **ERRORS})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        return Response(DropSerializer(services.drop_sign(user=request.user, drop_id=pk)).data)


class DayView(APIView):
    """A gaming day's custody per table, reconciled both ways: opener, closer, fills,
    credits, the counted drop, the statistical win (closer − opener + credits − fills +
    drop) beside the hands' win and their difference, the tray's variance, the collection
    recorded against the chips in the drop box."""

    @extend_schema(
        parameters=[OpenApiParameter("day", str, description="YYYY-MM-DD; default today")],
        responses={200: DayRowSerializer(many=True), 400: ERRORS[400]},
    )
    def get(self, request: Request) -> Response:
        filters = _DayFilter(data=request.query_params)
        filters.is_valid(raise_exception=True)
        report = selectors.day_report(filters.validated_data.get("day") or gaming_day())
        return Response(DayRowSerializer(report.rows, many=True).data)
