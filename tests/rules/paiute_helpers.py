"""Builders for Paiute hands, records and actions, shared by the rules tests (no Django)."""

from __future__ import annotations

from typing import Any

import pytest

from casino.rules.cards import Card, parse_card, parse_cards
from casino.rules.errors import RuleError
from casino.rules.paiute import PaiuteConfig, PaiuteHand, PaiuteRules
from casino.rules.settlement import Settlement


def cards(text: str) -> tuple[Card, ...]:
    """``cards("Ks Kh 3c")``: space-separated cards."""
    return parse_cards(text.split(), path="cards")


def card(text: str) -> Card:
    return parse_card(text)


def config(
    hands: dict[int, str],
    *,
    dealer: int | None = None,
    upcard: str = "3c",
    ante: int = 100,
    first_discard: str | None = None,
) -> PaiuteConfig:
    """A deal: ``hands`` maps each seat to its five cards; the dealer defaults to the highest
    seat, so play runs in ascending seat order with the dealer last."""
    seats = tuple(sorted(hands))
    return PaiuteConfig(
        dealer=dealer if dealer is not None else seats[-1],
        players=seats,
        ante=ante,
        hands={seat: cards(text) for seat, text in hands.items()},
        upcard=card(upcard),
        first_discard=card(first_discard) if first_discard is not None else None,
    )


def live(hands: dict[int, str], **options: Any) -> PaiuteHand:
    """A live hand; ``options`` go to :func:`config` (dealer, upcard, ante, first_discard)
    or, for anything else, to :class:`PaiuteRules`."""
    config_keys = ("dealer", "upcard", "ante", "first_discard")
    deal = {key: value for key, value in options.items() if key in config_keys}
    rules = {key: value for key, value in options.items() if key not in config_keys}
    return PaiuteHand(config(hands, **deal), PaiuteRules(**rules))


def act(hand: PaiuteHand, *actions: dict[str, Any]) -> None:
    """Apply live actions, numbering them from the hand's actions so paths read ``actions[i]``."""
    start = len(hand.actions())
    for offset, action in enumerate(actions):
        hand.apply(action, start + offset)


def draw(seat: int, text: str | None = None, source: str = "stock") -> dict[str, Any]:
    action: dict[str, Any] = {"seat": seat, "type": "draw", "source": source}
    if text is not None:
        action["card"] = text
    return action


def take(seat: int, text: str | None = None) -> dict[str, Any]:
    """Draw the top of the discard pile."""
    return draw(seat, text, source="discard")


def discard(seat: int, text: str) -> dict[str, Any]:
    return {"seat": seat, "type": "discard", "card": text}


def call(seat: int, text: str | None = None) -> dict[str, Any]:
    return {"seat": seat, "type": "call", "discard": text}


def turn(seat: int, drawn: str, thrown: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A stock draw then a discard."""
    return draw(seat, drawn), discard(seat, thrown)


def player(seat: int, text: str) -> dict[str, Any]:
    return {"seat": seat, "cards": text.split()}


def record(
    *players: dict[str, Any],
    dealer: int,
    caller: int,
    wild_card: str = "3c",
    ante: int = 100,
) -> dict[str, Any]:
    return {
        "dealer": dealer,
        "ante": ante,
        "wild_card": wild_card,
        "players": list(players),
        "caller": caller,
    }


def nets(settlement: Settlement) -> dict[int, int]:
    return {seat.seat: seat.net for seat in settlement.seats}


def problems(error: pytest.ExceptionInfo[RuleError]) -> list[tuple[str, str]]:
    """The ``(path, message)`` pairs of a raised RuleError."""
    return [(problem.path, problem.message) for problem in error.value.problems]


def pass_turns(hand: PaiuteHand, count: int) -> None:
    """``count`` turns in which the player to act draws the stock's next card (the lowest the
    stock may give) and discards it at once."""
    for _ in range(count):
        seat = hand.to_act
        assert seat is not None
        drawn = str(hand.stock_cards()[0])
        act(hand, draw(seat, drawn), discard(seat, drawn))
