"""Reads for tables and hands."""

from __future__ import annotations

import copy
from typing import Any

import orjson
from django.db.models import Prefetch, QuerySet, prefetch_related_objects
from django.utils import timezone

from approvals.models import Approval
from casino.core.errors import Conflict
from casino.rules.contract import History, SeatView, TableView, game, hand_view
from payouts.models import Settlement
from payouts.rows import Select, on_postgresql

from .models import Hand, Seat, Table, TableChange, TableEvent


def table_config(table: Table) -> dict[str, Any]:
    """What a change request may alter, as it stands now: limits, smallest chip, rules."""
    return {
        **copy.deepcopy(table.limits),
        "smallest_chip": table.smallest_chip,
        "rules": copy.deepcopy(table.rules),
    }


def seats_in_play(table: Table) -> list[int]:
    """Seat numbers with a player who is not sitting out, ascending."""
    return [s.number for s in table.seats.all() if s.in_play]


def json_copy(value: Any) -> Any:
    """A copy of a JSON value the game may change as it likes (several times faster than
    ``copy.deepcopy`` for the table's limits, rules and state)."""
    return orjson.loads(orjson.dumps(value))


_SEATS = Select(Seat, '"tables_seat"."table_id" = %b', order='"tables_seat"."number"')


def _seats(table: Table) -> Any:
    """The table's seats in order: prefetched, else read by one statement built once (on
    PostgreSQL; the ORM elsewhere)."""
    if "seats" in getattr(table, "_prefetched_objects_cache", ()) or not on_postgresql():
        return table.seats.all()
    return _SEATS.all(table.pk)


def table_view(table: Table, *, hand_open: bool | None = None) -> TableView:
    """What the table's game may read of it (``casino.rules.contract.TableView``)."""
    if hand_open is None:
        hand_open = table.hands.filter(status=Hand.Status.OPEN).exists()
    return TableView(
        seats=tuple(SeatView(seat.number, seat.player, seat.sitting_out) for seat in _seats(table)),
        limits=json_copy(table.limits),
        smallest_chip=table.smallest_chip,
        rules=json_copy(table.rules),
        state=json_copy(table.game_state),
        now=timezone.now(),
        is_open=table.status == Table.Status.OPEN,
        hand_open=hand_open,
        next_hand=table.next_hand_number,
    )


def game_view(*, table: Table, recent: int = 20) -> dict[str, Any]:
    """The game's table state as a display shows it, the between-hand actions legal now and
    the table's recent events."""
    found = game(table.game)
    view = table_view(table)
    events = TableEvent.objects.filter(table=table).select_related("by").order_by("-at", "-id")
    return {
        "table": table.pk,
        "game": table.game,
        "state": found.table_view(view),
        "actions": found.table_actions(view),
        "hand_open": view.hand_open,
        "deck": found.table_deck(view),
        "next_seats": found.next_seats(view),
        "events": [
            {
                "kind": event.kind,
                "data": event.data,
                "hand": event.hand_id,
                "at": event.at.isoformat(),
                "by": event.by.get_username(),
            }
            for event in events[:recent]
        ],
    }


def table_list() -> QuerySet[Table]:
    return Table.objects.select_related("dealer").prefetch_related("seats")


PENDING = "pending_approvals"


def _pending() -> Prefetch:
    return Prefetch(
        "approvals",
        queryset=Approval.objects.filter(status=Approval.Status.PENDING).select_related(
            "requested_by"
        ),
        to_attr=PENDING,
    )


def pending_approvals(hand: Hand) -> list[Approval]:
    """The hand's requests that wait for the floor (prefetched by ``hand_list``)."""
    if not hasattr(hand, PENDING):
        prefetch_related_objects([hand], _pending())
    return getattr(hand, PENDING)


def hand_list(*, table_id: int | None = None) -> QuerySet[Hand]:
    queryset = Hand.objects.select_related("table", "opened_by", "voided_by").prefetch_related(
        _pending(), "settlements"
    )
    if table_id is not None:
        queryset = queryset.filter(table_id=table_id)
    return queryset.order_by("-opened_at", "-id")


def change_list(*, table_id: int | None = None, status: str | None = None) -> QuerySet[TableChange]:
    queryset = TableChange.objects.select_related(
        "table", "approval__requested_by", "approval__decided_by"
    )
    if table_id is not None:
        queryset = queryset.filter(table_id=table_id)
    if status:
        queryset = queryset.filter(approval__status=status)
    return queryset


def hand_actions(hand: Hand) -> list[dict[str, Any]]:
    """A hand's actions, in order."""
    known = getattr(hand, KNOWN_ACTIONS, None)
    if known is not None:
        return list(known)
    return list(hand.actions.order_by("index").values_list("action", flat=True))


KNOWN_ACTIONS = "known_actions"


def just_opened(hand: Hand) -> Hand:
    """A hand its service has just opened: it has no actions, settlement or request yet, so
    showing it (``HandSerializer``) reads none of them from the database."""
    setattr(hand, KNOWN_ACTIONS, ())
    setattr(hand, PENDING, [])
    hand._prefetched_objects_cache = {"settlements": Settlement.objects.none()}  # type: ignore[attr-defined]
    return hand


def hand_history(hand: Hand) -> History:
    """Everything the hand is: ``{game, rules, config, actions}``."""
    return History(hand.game, hand.rules, hand.config, tuple(hand_actions(hand)))


def hand_state(*, hand: Hand) -> dict[str, Any] | None:
    """An open hand's state replayed from its history (None for a closed hand, which has its
    settlement)."""
    if hand.status != Hand.Status.OPEN:
        return None
    found = game(hand.game)
    return {
        **hand_view(found.replay(hand_history(hand)), hand.game),
        "deck": found.deck(len(hand.seats)),
    }


def hand_preview(*, hand: Hand) -> dict[str, Any]:
    """What settling the open hand now would give, stored nowhere (a finished hand only)."""
    if hand.status != Hand.Status.OPEN:
        raise Conflict(f"hand {hand.number} is already {hand.status}")
    state = game(hand.game).replay(hand_history(hand))
    if not state.complete:
        raise Conflict(f"hand {hand.number} is not finished: record its remaining actions first")
    return state.settle().to_dict()
