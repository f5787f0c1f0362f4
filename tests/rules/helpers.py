"""Builders for High Card Flush hand records, shared by the rules tests (no Django)."""

from __future__ import annotations

from typing import Any

import pytest

from casino.rules.errors import RuleError
from casino.rules.settlement import SeatResult, Settlement


def dp(cards: str, *, seat: int = 1, bank: int = 100_000) -> dict[str, Any]:
    """The designated player's part of a record; ``cards`` is space-separated."""
    return {"seat": seat, "bank": bank, "cards": cards.split()}


def player(
    seat: int,
    cards: str,
    *,
    ante: int = 10,
    raise_: int | None = None,
    flush_bonus: int = 0,
    straight_flush_bonus: int = 0,
) -> dict[str, Any]:
    """A player's part of a record; the raise defaults to 1x ante."""
    entry: dict[str, Any] = {
        "seat": seat,
        "cards": cards.split(),
        "ante": ante,
        "raise": ante if raise_ is None else raise_,
    }
    if flush_bonus:
        entry["flush_bonus"] = flush_bonus
    if straight_flush_bonus:
        entry["straight_flush_bonus"] = straight_flush_bonus
    return entry


def record(designated: dict[str, Any], *players: dict[str, Any]) -> dict[str, Any]:
    return {"designated_player": designated, "players": list(players)}


def lines(seat: SeatResult) -> dict[str, tuple[str, int]]:
    """A seat's lines as ``{wager: (outcome, amount)}``."""
    return {line.wager: (str(line.outcome), line.amount) for line in seat.lines}


def nets(settlement: Settlement) -> dict[int, int]:
    return {seat.seat: seat.net for seat in settlement.seats}


def problems(error: pytest.ExceptionInfo[RuleError]) -> list[tuple[str, str]]:
    """The ``(path, message)`` pairs of a raised RuleError."""
    return [(problem.path, problem.message) for problem in error.value.problems]
