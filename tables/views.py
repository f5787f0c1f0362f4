"""Tables API: thin views that validate shape, call one service, serialize."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.generics import ListAPIView, RetrieveAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from approvals import services as approvals
from approvals.models import Approval
from approvals.serializers import ApprovalSerializer, DecisionSerializer, HeldSettlementSerializer
from casino.core.errors import ErrorResponseSerializer
from casino.core.game_schema import HAND_STATE
from casino.core.i18n import with_explanation_text
from casino.core.idempotency import idempotent
from casino.core.roles import DEALER, FLOOR_MANAGER
from casino.rules.contract import game
from payouts.serializers import SettlementResultSerializer

from . import live, selectors, services
from .models import Table
from .preview import change_preview, preview_data
from .serializers import (
    ActionBodySerializer,
    ChangeFilterSerializer,
    ChangePreviewSerializer,
    ChangeRequestSerializer,
    CorrectionSerializer,
    DealerAssignSerializer,
    GameBodySerializer,
    GameStateSerializer,
    HandSerializer,
    SeatSerializer,
    SeatUpdateSerializer,
    TableChangeSerializer,
    TableCreateSerializer,
    TableSerializer,
    TableStatusSerializer,
    VoidSerializer,
    opened_hand_data,
)

DEALERS_AND_FLOOR = (DEALER, FLOOR_MANAGER)
FLOOR_ONLY = (FLOOR_MANAGER,)


class TableListView(ListAPIView):
    """List tables (any role); a floor manager creates one."""

    serializer_class = TableSerializer
    write_roles = FLOOR_ONLY

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return selectors.table_list()

    @extend_schema(request=TableCreateSerializer, responses={201: TableSerializer})
    @idempotent
    def post(self, request: Request) -> Response:
        data = TableCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = services.table_create(user=request.user, **data.validated_data)
        return Response(TableSerializer(table).data, status=status.HTTP_201_CREATED)


class TableDetailView(RetrieveAPIView):
    serializer_class = TableSerializer

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return selectors.table_list()


class TableStatusView(APIView):
    """Open or close a table (floor manager)."""

    write_roles = FLOOR_ONLY

    @extend_schema(request=TableStatusSerializer, responses={200: TableSerializer})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = TableStatusSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = services.table_set_status(
            user=request.user, table_id=pk, status=data.validated_data["status"]
        )
        return Response(TableSerializer(table).data)


class TableDealerView(APIView):
    """Assign the table's dealer (floor manager)."""

    write_roles = FLOOR_ONLY

    @extend_schema(request=DealerAssignSerializer, responses={200: TableSerializer})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = DealerAssignSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = services.table_assign_dealer(
            user=request.user, table_id=pk, dealer=data.validated_data["dealer"]
        )
        return Response(TableSerializer(table).data)


class SeatView(APIView):
    """Seat a player, sit them out or empty the seat (assigned dealer or floor manager)."""

    write_roles = DEALERS_AND_FLOOR

    @extend_schema(request=SeatUpdateSerializer, responses={200: SeatSerializer})
    @idempotent
    def post(self, request: Request, pk: int, number: int) -> Response:
        data = SeatUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        seat = services.seat_update(
            user=request.user, table_id=pk, number=number, **data.validated_data
        )
        return Response(SeatSerializer(seat).data)


class TableChangeListView(ListAPIView):
    """Limit and rule change requests of a table; the assigned dealer or a floor manager
    requests one."""

    serializer_class = TableChangeSerializer
    write_roles = DEALERS_AND_FLOOR

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "status", enum=Approval.Status.values, description="only changes in this state"
            )
        ]
    )
    def get(self, request: Request, *args: object, **kwargs: object) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self):  # type: ignore[no-untyped-def]
        filters = ChangeFilterSerializer(data=self.request.query_params)
        filters.is_valid(raise_exception=True)
        return selectors.change_list(
            table_id=self.kwargs["pk"], status=filters.validated_data.get("status")
        )

    @extend_schema(request=ChangeRequestSerializer, responses={201: TableChangeSerializer})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = ChangeRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        change = services.change_request(user=request.user, table_id=pk, **data.validated_data)
        return Response(TableChangeSerializer(change).data, status=status.HTTP_201_CREATED)


class ChangePreviewView(APIView):
    """What a limit or rule change would do, asked before requesting it; nothing is stored
    (the assigned dealer or a floor manager, as for the request). Answers 200 whether or not
    the change would be accepted: ``valid``, the problems each at its option, each changed
    option before and after (values and words), the theoretical edge before and after (a
    figure still simulating says ``computing``: ask again) and the earliest hand it applies
    from. The body is the change request's."""

    write_roles = DEALERS_AND_FLOOR

    @extend_schema(request=ChangeRequestSerializer, responses={200: ChangePreviewSerializer})
    def post(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(selectors.table_list(), pk=pk)
        services.require_table_actor(request.user, table)
        data = ChangeRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        preview = change_preview(table=table, changes=data.validated_data["changes"])
        return Response(preview_data(preview))


class ChangeDecisionView(APIView):
    """Approve or reject a change request (a floor manager other than the requester)."""

    write_roles = FLOOR_ONLY
    approve = True

    @extend_schema(request=DecisionSerializer, responses={200: TableChangeSerializer})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = DecisionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        change = approvals.change_decide(
            user=request.user, change_id=pk, approve=self.approve, **data.validated_data
        )
        return Response(TableChangeSerializer(change).data)


def _body(serializer_class: type, request: Request) -> dict:
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return dict(data.validated_data)


def _game_state(table: Table) -> dict[str, Any]:
    """The game's table state (``selectors.game_view``) with the next hand's opening
    proposal (``Game.opening_proposal``: the stacks the tablet pre-fills)."""
    data = selectors.game_view(table=table)
    view = selectors.table_view(table, hand_open=data["hand_open"])
    data["proposal"] = game(table.game).opening_proposal(view)
    return data


class TableGameView(APIView):
    """The game's table state between hands (designated-player rotation, button and blinds
    with missed-blind markers, the bank and the kitty, ...), the between-hand actions legal
    now with their bounds, the next opening body as far as the table knows it (``proposal``:
    each player's stack carried forward from the last settled hand, in a game with stacks)
    and the table's recent events."""

    @extend_schema(responses={200: GameStateSerializer})
    def get(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(selectors.table_list(), pk=pk)
        return Response(_game_state(table))


class TableGameActionView(APIView):
    """Apply one of the game's between-hand actions (assigned dealer or floor manager);
    answers with the game's table state after it."""

    write_roles = DEALERS_AND_FLOOR

    @extend_schema(request=ActionBodySerializer, responses={200: GameStateSerializer})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        table = services.game_act(
            user=request.user, table_id=pk, action=_body(ActionBodySerializer, request)
        )
        return Response(_game_state(table))


class TableHandListView(ListAPIView):
    """The table's hands, newest first; POST opens the next hand."""

    serializer_class = HandSerializer
    write_roles = DEALERS_AND_FLOOR

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return selectors.hand_list(table_id=self.kwargs["pk"])

    @extend_schema(request=GameBodySerializer, responses={201: HandSerializer})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        hand = services.hand_open(
            user=request.user, table_id=pk, body=_body(GameBodySerializer, request)
        )
        return Response(opened_hand_data(hand), status=status.HTTP_201_CREATED)


class HandDetailView(RetrieveAPIView):
    serializer_class = HandSerializer

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return selectors.hand_list()


class HandActionView(APIView):
    """Append one action to an open hand; returns whose turn it is, the legal actions with
    their bounds, and the pots."""

    write_roles = DEALERS_AND_FLOOR

    @extend_schema(request=ActionBodySerializer, responses={200: HAND_STATE})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        action = _body(ActionBodySerializer, request)
        return Response(live.hand_act(user=request.user, hand_id=pk, action=action))


class HandPreviewView(APIView):
    """What settling the finished, open hand would give now, stored nowhere: the check a
    dealer sees before settling (409 while the hand is unfinished)."""

    @extend_schema(
        responses={
            200: SettlementResultSerializer,
            409: OpenApiResponse(
                ErrorResponseSerializer, description="the hand is unfinished or already closed"
            ),
        }
    )
    def get(self, request: Request, pk: int) -> Response:
        hand = get_object_or_404(selectors.hand_list(), pk=pk)
        return Response(with_explanation_text(selectors.hand_preview(hand=hand)))


class HandSettleView(APIView):
    """Settle an open hand once, from its own actions (send {}); a game whose dealers post a
    paper record (High Card Flush) takes the record here. Rules come from the hand, never the
    request."""

    write_roles = DEALERS_AND_FLOOR

    @extend_schema(
        request=GameBodySerializer,
        responses={
            201: SettlementResultSerializer,
            202: OpenApiResponse(
                HeldSettlementSerializer,
                description="above the table's sign-off limits: the settlement waits for a "
                "floor manager (the request, and the settlement it would store)",
            ),
        },
    )
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        settled = services.hand_settle(
            user=request.user, hand_id=pk, record=_body(GameBodySerializer, request)
        )
        if isinstance(settled, Approval):
            return Response(
                {
                    "hand": pk,
                    "status": "pending_signoff",
                    "approval": ApprovalSerializer(settled).data,
                    **with_explanation_text(settled.detail["result"]),
                },
                status=status.HTTP_202_ACCEPTED,
            )
        return Response(
            {"hand": pk, "settlement": settled.pk, **with_explanation_text(settled.result)},
            status=status.HTTP_201_CREATED,
        )


class HandCorrectionView(APIView):
    """Ask for a settled hand to be corrected, with a reason and the corrected hand (a record,
    or the whole list of actions). The corrected settlement is computed now and waits in the
    approvals queue; a floor manager other than the one asking approves it, which stores a
    reversal of the settlement in force and the corrected settlement."""

    write_roles = DEALERS_AND_FLOOR

    @extend_schema(request=CorrectionSerializer, responses={202: ApprovalSerializer})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = CorrectionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        approval = services.correction_request(user=request.user, hand_id=pk, **data.validated_data)
        return Response(ApprovalSerializer(approval).data, status=status.HTTP_202_ACCEPTED)


class HandVoidView(APIView):
    """Ask for an open hand to be voided, with a reason (the table's dealer or a floor
    manager). The request waits in the approvals queue for a floor manager other than the one
    asking; the hand records nothing meanwhile."""

    write_roles = DEALERS_AND_FLOOR

    @extend_schema(request=VoidSerializer, responses={202: ApprovalSerializer})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = VoidSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        approval = services.void_request(
            user=request.user, hand_id=pk, reason=data.validated_data["reason"]
        )
        return Response(ApprovalSerializer(approval).data, status=status.HTTP_202_ACCEPTED)
