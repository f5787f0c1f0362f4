"""Seats round a table, shared by every game: clockwise order and a dealer button that
passes one seat clockwise each hand (a table-state hook for games that need no more)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .contract import JSON, Change, ClosedHand, Event, TableView
from .errors import Refusal, RuleError
from .messages import _, msg
from .options import is_int


def next_seat_clockwise(seats: Sequence[int], after: int | None) -> int | None:
    """The first seat in ``seats`` clockwise (ascending, wrapping) after ``after``."""
    ordered = sorted(set(seats))
    if not ordered:
        return None
    if after is None:
        return ordered[0]
    for seat in ordered:
        if seat > after:
            return seat
    return ordered[0]


def next_dealer(table: TableView, body: Mapping[str, Any], *, fewest: int = 2) -> int:
    """The deal moves one seat clockwise each hand (``state["dealer"]`` is the last dealer).
    The first hand's dealer may be named in the opening body (e.g. by the cut); otherwise it
    is the first seat in play."""
    in_play = table.in_play
    if len(in_play) < fewest:
        raise Refusal(msg(_("a hand needs at least %(fewest)s players in play"), fewest=fewest))
    last = table.state.get("dealer")
    if last is not None:
        seat = next_seat_clockwise(in_play, last)
        assert seat is not None
        return seat
    first = body.get("dealer")
    if first is None:
        return in_play[0]
    if not is_int(first) or first not in in_play:
        raise RuleError(
            msg(_("dealer: seat %(seat)s has no player in play"), seat=str(first)), path="dealer"
        )
    return int(first)


class DealerButton:
    """Table-state hooks of a game whose only state between hands is the dealer button."""

    def table_view(self, table: TableView) -> JSON:
        last = table.state.get("dealer")
        upcoming = next_seat_clockwise(table.in_play, last) if last is not None else None
        return {"last_dealer": last, "next_dealer": upcoming}

    def hand_closed(self, table: TableView, hand: ClosedHand) -> Change:
        return Change(table.state)

    @staticmethod
    def moved(table: TableView, dealer: int) -> tuple[JSON, tuple[Event, ...]]:
        """The state after ``dealer`` deals the next hand."""
        return {**table.state, "dealer": dealer}, ()
