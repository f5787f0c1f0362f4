"""Builders for Palace Poker hand records, shared by the rules tests (no Django)."""

from __future__ import annotations

from copy import deepcopy
from random import Random
from typing import Any

import pytest

from casino.rules.cards import standard_deck
from casino.rules.errors import RuleError
from casino.rules.palace_poker import deal_banners, replay
from casino.rules.pots import clockwise_from
from casino.rules.settlement import Settlement


def player(seat: int, banner: str, palace: str, stack: int = 20_000) -> dict[str, Any]:
    """One player dealt in; ``palace`` is space-separated."""
    return {"seat": seat, "stack": stack, "banner": banner, "palace": palace.split()}


def record(
    *players: dict[str, Any],
    structure: str = "limit",
    small_bet: int = 500,
    big_bet: int = 1000,
    dealer: int = 4,
    ante: int | None = None,
    actions: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "structure": structure,
        "small_bet": small_bet,
        "big_bet": big_bet,
        "dealer": dealer,
        "players": deepcopy(list(players)),
        "actions": list(actions or []),
    }
    if ante is not None:
        data["ante"] = ante
    return data


def buy(seat: int, card: str, discard: str = "") -> dict[str, Any]:
    return {"seat": seat, "type": "buy", "card": card, "discard": discard.split()}


def discard(seat: int, cards: str) -> dict[str, Any]:
    return {"seat": seat, "type": "discard", "cards": cards.split()}


def battle(seat: int, target: int, amount: int) -> dict[str, Any]:
    return {"seat": seat, "type": "battle", "target": target, "amount": amount}


def stay(seat: int) -> dict[str, Any]:
    return {"seat": seat, "type": "stay"}


def fold(seat: int) -> dict[str, Any]:
    return {"seat": seat, "type": "fold"}


def call(seat: int) -> dict[str, Any]:
    return {"seat": seat, "type": "call"}


def raise_(seat: int, amount: int) -> dict[str, Any]:
    return {"seat": seat, "type": "raise", "amount": amount}


# The usual table: four players, dealer 4 (seat 1 acts first), limit 500/1000, ante 250.
FOUR = (
    player(1, "7h", "As Ad Kc"),
    player(2, "Ks", "Qh Qc 2d"),
    player(3, "Qd", "Jh Jc 9s"),
    player(4, "2c", "Th 9h 8h"),
)


def four(actions: list[dict[str, Any]] | None = None, **options: Any) -> dict[str, Any]:
    return record(*FOUR, actions=actions, **options)


def dealt(
    count: int, *, dealer: int = 0, seed: int = 7, stack: int = 50_000, **options: Any
) -> dict[str, Any]:
    """A legal record for seats 1..count dealt from a shuffled deck (clauses 4-5)."""
    deck = list(standard_deck())
    Random(seed).shuffle(deck)
    seats = list(range(1, count + 1))
    order = clockwise_from(dealer or count, seats)
    banners, _ = deal_banners(deck, order)
    rest = [card for card in deck if card not in banners.values()]
    players = [
        player(
            seat,
            str(banners[seat]),
            " ".join(str(card) for card in rest[3 * i : 3 * i + 3]),
            stack,
        )
        for i, seat in enumerate(order)
    ]
    return record(*sorted(players, key=lambda p: p["seat"]), dealer=dealer or count, **options)


def unseen(data: dict[str, Any]) -> list[str]:
    """The stock of a fresh record: every card not dealt as a banner or palace, sorted."""
    dealt_cards = {p["banner"] for p in data["players"]} | {
        card for p in data["players"] for card in p["palace"]
    }
    return [str(card) for card in standard_deck() if str(card) not in dealt_cards]


def nets(settlement: Settlement) -> dict[int, int]:
    return {result.seat: result.net for result in settlement.seats}


def statuses(settlement: Settlement) -> dict[int, str]:
    return {result.seat: str(result.status) for result in settlement.seats}


def problems(error: pytest.ExceptionInfo[RuleError]) -> list[tuple[str, str]]:
    """The ``(path, message)`` pairs of a raised RuleError."""
    return [(problem.path, problem.message) for problem in error.value.problems]


def first_problem(data: dict[str, Any], rules: dict[str, Any] | None = None) -> tuple[str, str]:
    """Replay ``data`` expecting exactly one problem; return it."""
    with pytest.raises(RuleError) as error:
        replay(data, rules)
    found = problems(error)
    assert len(found) == 1, found
    return found[0]
