"""Reads for tables and hands."""

from __future__ import annotations

import copy
from typing import Any

from django.db.models import QuerySet

from casino.rules.errors import RuleError
from casino.rules.rotation import RotationPolicy

from .models import Hand, RotationEvent, Table, TableChange


def table_config(table: Table) -> dict[str, Any]:
    """What a change request may alter, as it stands now: limits, rules, policy."""
    return {
        **copy.deepcopy(table.limits),
        "smallest_chip": table.smallest_chip,
        "rules": copy.deepcopy(table.rules),
        "rotation_policy": copy.deepcopy(table.rotation_policy),
    }


def seats_in_play(table: Table) -> list[int]:
    """Seat numbers with a player who is not sitting out, ascending."""
    return [s.number for s in table.seats.all() if s.in_play]


def table_list() -> QuerySet[Table]:
    return Table.objects.select_related("dealer").prefetch_related("seats")


def hand_list(*, table_id: int | None = None) -> QuerySet[Hand]:
    queryset = Hand.objects.select_related("table")
    if table_id is not None:
        queryset = queryset.filter(table_id=table_id)
    return queryset.order_by("-opened_at", "-id")


def change_list(*, table_id: int | None = None) -> QuerySet[TableChange]:
    queryset = TableChange.objects.select_related("table", "requested_by", "decided_by")
    if table_id is not None:
        queryset = queryset.filter(table_id=table_id)
    return queryset


def dp_position(table: Table) -> dict[str, Any]:
    """Who holds or is offered the designated-player position (High Card Flush)."""
    return {
        "designated_player": table.dp_seat,
        "bank": table.dp_bank,
        "offer_seat": table.offer_seat,
        "offer_round_start": table.offer_round_start,
        "stopped": table.stopped,
    }


def rotation_state(*, table: Table, recent: int = 20) -> dict[str, Any]:
    events = RotationEvent.objects.filter(table=table).select_related("by").order_by("-at", "-id")
    return {
        **dp_position(table),
        "policy": RotationPolicy.from_dict(table.rotation_policy).to_dict(),
        "events": [
            {
                "kind": e.kind,
                "seat": e.seat,
                "bank": e.bank,
                "at": e.at.isoformat(),
                "by": e.by.get_username() if e.by else None,
            }
            for e in events[:recent]
        ],
    }


def hand_actions(hand: Hand) -> list[dict[str, Any]]:
    """A live hand's actions, in order."""
    return list(hand.actions.order_by("index").values_list("action", flat=True))


def hand_state(*, hand: Hand) -> dict[str, Any] | None:
    """An open live hand's state replayed from its log (None for a closed hand, which has
    its settlement, and for games settled from a record)."""
    from .games import adapter

    game = adapter(hand.game)
    if not game.live or hand.status != Hand.Status.OPEN:
        return None
    return dict(game.replay(hand, hand_actions(hand)).view())


def blinds_preview(*, table: Table) -> dict[str, Any] | None:
    """7-A: the next hand's button, blinds, posts owed, waiting seats and markers, as they
    stand now (None for games without blinds)."""
    from .games import FiveCardDraw, adapter

    game = adapter(table.game)
    if not isinstance(game, FiveCardDraw):
        return None
    try:
        return dict(game.next_blinds(table).to_dict())
    except RuleError as exc:
        return {"error": str(exc)}


def bank_view(*, table: Table, recent: int = 20) -> dict[str, Any]:
    """Pontoon: who holds the bank, the kitty carried over, and the recent changes of hands."""
    events = table.bank_events.select_related("by").order_by("-at", "-id")[:recent]
    return {
        "banker": table.game_state.get("banker"),
        "kitty": table.game_state.get("kitty"),
        "events": [
            {
                "kind": e.kind,
                "from_seat": e.from_seat,
                "to_seat": e.to_seat,
                "price": e.price,
                "kitty": e.kitty,
                "hand": e.hand_id,
                "at": e.at.isoformat(),
                "by": e.by.get_username(),
            }
            for e in events
        ],
    }
