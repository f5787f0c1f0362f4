"""Games (list, evaluate), settlements and the audit log."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import status
from rest_framework.generics import ListAPIView, RetrieveAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.core.errors import ApplicationError, NotFound
from casino.core.idempotency import idempotent
from casino.core.roles import COMPLIANCE, FLOOR_MANAGER, ROLES
from casino.rules.games import GAMES

from . import selectors, services
from .serializers import (
    HCF_RECORD_EXAMPLE,
    AuditCheckSerializer,
    AuditEntryFilterSerializer,
    AuditEntrySerializer,
    DrawEvaluateSerializer,
    GameSerializer,
    HighCardFlushEvaluateSerializer,
    SettlementFilterSerializer,
    SettlementResultSerializer,
    SettlementSerializer,
)


def query_filters(serializer_class: type[Any], request: Request) -> dict[str, Any]:
    """The list's query-parameter filters, checked: a bad one is a 400 naming it."""
    filters = serializer_class(data=request.query_params)
    filters.is_valid(raise_exception=True)
    return dict(filters.validated_data)


class GameListView(APIView):
    """The game codes with their default rules."""

    @extend_schema(responses={200: GameSerializer(many=True)})
    def get(self, request: Request) -> Response:
        return Response(
            [
                {"code": game.code, "name": game.name, "rules": game.default_rules()}
                for game in GAMES.values()
            ]
        )


class EvaluateView(APIView):
    """Settle a complete hand record without storing anything (any role)."""

    write_roles = ROLES

    @extend_schema(
        request=PolymorphicProxySerializer(
            component_name="HandRecord",
            serializers=[HighCardFlushEvaluateSerializer, DrawEvaluateSerializer],
            resource_type_field_name=None,
        ),
        parameters=[
            OpenApiParameter("code", OpenApiTypes.STR, OpenApiParameter.PATH, enum=list(GAMES))
        ],
        responses={200: SettlementResultSerializer},
        examples=[OpenApiExample("High Card Flush", value=HCF_RECORD_EXAMPLE, request_only=True)],
        description="The body is the game's hand record (high-card-flush: designated_player "
        "and players; five-card-draw-7a: structure, blinds, button, seats, posts, actions) "
        'with an optional "rules" object overriding the defaults.',
    )
    def post(self, request: Request, code: str) -> Response:
        game = GAMES.get(code)
        if game is None:
            raise NotFound(f"unknown game {code!r}; games: {', '.join(GAMES)}")
        body: Any = request.data
        if not isinstance(body, dict):
            raise ApplicationError("the hand record must be a JSON object")
        record = {k: v for k, v in body.items() if k != "rules"}
        return Response(game.evaluate(record, body.get("rules")).to_dict())


class SettlementListView(ListAPIView):
    serializer_class = SettlementSerializer

    @extend_schema(
        parameters=[OpenApiParameter("table", OpenApiTypes.INT, description="a table's id")]
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self):  # type: ignore[no-untyped-def]
        filters = query_filters(SettlementFilterSerializer, self.request)
        return selectors.settlement_list(table_id=filters.get("table"))


class SettlementDetailView(RetrieveAPIView):
    serializer_class = SettlementSerializer

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return selectors.settlement_list()


class AuditEntryListView(ListAPIView):
    """The audit log in order, filterable by table, hand and action."""

    serializer_class = AuditEntrySerializer

    @extend_schema(
        parameters=[
            OpenApiParameter("table", OpenApiTypes.INT, description="a table's id"),
            OpenApiParameter("hand", OpenApiTypes.INT, description="a hand's id"),
            OpenApiParameter("action", OpenApiTypes.STR, description="e.g. hand_settle"),
        ]
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self):  # type: ignore[no-untyped-def]
        filters = query_filters(AuditEntryFilterSerializer, self.request)
        return selectors.audit_entry_list(
            table_id=filters.get("table"),
            hand_id=filters.get("hand"),
            action=filters.get("action"),
        )


class AuditCheckListView(ListAPIView):
    """Audit checks; POST queues one (compliance or floor manager): it verifies the hash
    chain and re-settles every stored hand through the engine."""

    serializer_class = AuditCheckSerializer
    write_roles = (COMPLIANCE, FLOOR_MANAGER)

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return selectors.audit_check_list()

    @extend_schema(request=None, responses={202: AuditCheckSerializer})
    @idempotent
    def post(self, request: Request) -> Response:
        check = services.audit_check_request(user=request.user)
        return Response(AuditCheckSerializer(check).data, status=status.HTTP_202_ACCEPTED)


class AuditCheckDetailView(RetrieveAPIView):
    serializer_class = AuditCheckSerializer

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return selectors.audit_check_list()
