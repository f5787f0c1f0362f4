"""Games (list, evaluate), settlements and the audit log."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
)
from rest_framework import status
from rest_framework.generics import ListAPIView, RetrieveAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.core.errors import NotFound
from casino.core.i18n import with_explanation_text
from casino.core.idempotency import idempotent
from casino.core.roles import COMPLIANCE, FLOOR_MANAGER, ROLES
from casino.rules.contract import Game, games, registry
from tables.serializers import GameBodySerializer

from . import selectors, services
from .serializers import (
    AuditCheckRequestSerializer,
    AuditCheckSerializer,
    AuditEntryFilterSerializer,
    AuditEntrySerializer,
    GameSerializer,
    SettlementFilterSerializer,
    SettlementResultSerializer,
    SettlementSerializer,
)


def query_filters(serializer_class: type[Any], request: Request) -> dict[str, Any]:
    """The list's query-parameter filters, checked: a bad one is a 400 naming it."""
    filters = serializer_class(data=request.query_params)
    filters.is_valid(raise_exception=True)
    return dict(filters.validated_data)


def game_summary(game: Game) -> dict[str, Any]:
    """A registered game as the API lists it: who plays, its defaults and its schemas."""
    return {
        "code": game.code,
        "name": gettext(game.name),  # in the request's language (a game's own name if none)
        "min_players": game.min_players,
        "max_seats": game.max_seats,
        "record_settled": game.record_settled,
        "rules": game.default_rules(),
        "rules_doc": game.rules_doc,
        "schemas": {
            "limits": game.limits_schema,
            "rules": game.rules_schema,
            "open": game.open_schema,
            "actions": game.action_schemas,
            "table_actions": game.table_action_schemas,
            "record": game.record_schema,
        },
    }


class GameListView(APIView):
    """Every registered game: its code, players, default rules, where its rules are written
    down, and the JSON schemas of its limits, rules, opening body, actions and record."""

    @extend_schema(responses={200: GameSerializer(many=True)})
    def get(self, request: Request) -> Response:
        return Response([game_summary(game) for game in games()])


class EvaluateView(APIView):
    """Settle a complete hand record without storing anything (any role): the game imports
    the record as a history and replays it. The body is the game's record with an optional
    ``rules`` object overriding the defaults."""

    write_roles = ROLES

    @extend_schema(
        request=GameBodySerializer,
        parameters=[OpenApiParameter("code", OpenApiTypes.STR, OpenApiParameter.PATH)],
        responses={200: SettlementResultSerializer},
    )
    def post(self, request: Request, code: str) -> Response:
        game = registry().get(code)
        if game is None:
            raise NotFound(f"unknown game {code!r}; games: {', '.join(registry())}")
        data = GameBodySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        body = dict(data.validated_data)
        rules = body.pop("rules", None)
        return Response(with_explanation_text(game.evaluate(body, rules).to_dict()))


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
    """Audit checks; POST queues one (compliance or floor manager): it verifies every table's
    audit chain and the house chain, and re-settles the hands they record through the engine,
    in chunks on the Celery workers. Incremental unless ``{"full": true}``."""

    serializer_class = AuditCheckSerializer
    write_roles = (COMPLIANCE, FLOOR_MANAGER)

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return selectors.audit_check_list()

    @extend_schema(request=AuditCheckRequestSerializer, responses={202: AuditCheckSerializer})
    @idempotent
    def post(self, request: Request) -> Response:
        body = AuditCheckRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        check = services.audit_check_request(user=request.user, full=body.validated_data["full"])
        return Response(AuditCheckSerializer(check).data, status=status.HTTP_202_ACCEPTED)


class AuditCheckDetailView(RetrieveAPIView):
    serializer_class = AuditCheckSerializer

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return selectors.audit_check_list()
