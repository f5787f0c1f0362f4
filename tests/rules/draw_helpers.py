"""Builders for Five Card Draw 7-A hand records, shared by the rules tests (no Django)."""

from __future__ import annotations

from typing import Any

import pytest

from casino.rules.errors import RuleError
from casino.rules.settlement import Settlement


def seat(number: int, cards: str, stack: int = 10_000) -> dict[str, Any]:
    """One seat dealt in; ``cards`` is space-separated."""
    return {"seat": number, "stack": stack, "cards": cards.split()}


def record(
    *seats: dict[str, Any],
    structure: str = "limit",
    small_blind: int = 100,
    big_blind: int = 200,
    big_bet: int | None = 400,
    button: int = 1,
    posts: list[dict[str, Any]] | None = None,
    actions: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "structure": structure,
        "small_blind": small_blind,
        "big_blind": big_blind,
        "button": button,
        "seats": list(seats),
        "actions": list(actions or []),
    }
    if big_bet is not None:
        data["big_bet"] = big_bet
    if posts is not None:
        data["posts"] = posts
    return data


def post(number: int, kind: str, amount: int) -> dict[str, Any]:
    return {"seat": number, "type": kind, "amount": amount}


def fold(number: int) -> dict[str, Any]:
    return {"seat": number, "type": "fold"}


def check(number: int) -> dict[str, Any]:
    return {"seat": number, "type": "check"}


def call(number: int) -> dict[str, Any]:
    return {"seat": number, "type": "call"}


def bet(number: int, to: int) -> dict[str, Any]:
    return {"seat": number, "type": "bet", "to": to}


def raise_(number: int, to: int) -> dict[str, Any]:
    return {"seat": number, "type": "raise", "to": to}


def draw(number: int, discard: str = "", receive: str = "") -> dict[str, Any]:
    """A draw; both card lists are space-separated (empty strings to stand pat)."""
    return {"seat": number, "type": "draw", "discard": discard.split(), "receive": receive.split()}


def pat(*numbers: int) -> list[dict[str, Any]]:
    """Every listed seat stands pat, in the order given."""
    return [draw(number) for number in numbers]


def nets(settlement: Settlement) -> dict[int, int]:
    return {result.seat: result.net for result in settlement.seats}


def problems(error: pytest.ExceptionInfo[RuleError]) -> list[tuple[str, str]]:
    """The ``(path, message)`` pairs of a raised RuleError."""
    return [(problem.path, problem.message) for problem in error.value.problems]
