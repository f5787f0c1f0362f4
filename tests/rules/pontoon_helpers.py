"""Builders for Pontoon hand records and live hands, shared by the rules tests (no Django)."""

from __future__ import annotations

from typing import Any

import pytest

from casino.rules.errors import RuleError
from casino.rules.pontoon import PontoonConfig, PontoonHand, PontoonRules
from casino.rules.settlement import Settlement


def banker(cards: str, seat: int = 9) -> dict[str, Any]:
    """The banker's part of a record; ``cards`` is space-separated, in the order dealt."""
    return {"seat": seat, "cards": cards.split()}


def hand(cards: str, *actions: dict[str, Any]) -> dict[str, Any]:
    return {"cards": cards.split(), "actions": list(actions)}


def player(seat: int, *hands: dict[str, Any], stake: int = 10) -> dict[str, Any]:
    return {"seat": seat, "stake": stake, "hands": list(hands)}


def buy(amount: int) -> dict[str, Any]:
    return {"type": "buy", "amount": amount}


def twist() -> dict[str, Any]:
    return {"type": "twist"}


def stick() -> dict[str, Any]:
    return {"type": "stick"}


def record(
    bank: dict[str, Any],
    *players: dict[str, Any],
    kitty: int | None = None,
    bets: list[dict[str, Any]] | None = None,
    carried: bool = False,
    bank_sale: dict[str, Any] | None = None,
) -> dict[str, Any]:
    data: dict[str, Any] = {"banker": bank, "players": list(players)}
    if kitty is not None:
        data["shoot"] = {"kitty": kitty, "bets": list(bets or [])}
        if carried:
            data["shoot"]["kitty_carried"] = True
    if bank_sale is not None:
        data["bank_sale"] = bank_sale
    return data


def bet(seat: int, card: int, amount: int, hand: int = 0) -> dict[str, Any]:
    return {"seat": seat, "card": card, "amount": amount, "hand": hand}


def nets(settlement: Settlement) -> dict[int, int]:
    return {result.seat: result.net for result in settlement.seats}


def problems(error: pytest.ExceptionInfo[RuleError]) -> list[tuple[str, str]]:
    """The ``(path, message)`` pairs of a raised RuleError."""
    return [(problem.path, problem.message) for problem in error.value.problems]


# --------------------------------------------------------------------------- live hands


def live(
    banker_seat: int = 9,
    players: tuple[int, ...] = (1, 2),
    *,
    kitty: int | None = None,
    **rules: Any,
) -> PontoonHand:
    return PontoonHand(PontoonConfig(banker_seat, players, kitty), PontoonRules(**rules))


def act(hand_: PontoonHand, *actions: dict[str, Any]) -> None:
    """Apply live actions, numbering them from the hand's log so paths read ``actions[i]``."""
    start = len(hand_.actions())
    for offset, action in enumerate(actions):
        hand_.apply(action, start + offset)


def deal(seat: int, card: str, hand_: int | None = None) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "deal", "seat": seat, "card": card}
    if hand_ is not None:
        action["hand"] = hand_
    return action


def stake(seat: int, amount: int = 10) -> dict[str, Any]:
    return {"type": "stake", "seat": seat, "amount": amount}


def shoot(seat: int, amount: int, hand_: int | None = None) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "shoot", "seat": seat, "amount": amount}
    if hand_ is not None:
        action["hand"] = hand_
    return action


def no_shoot(seat: int) -> dict[str, Any]:
    return {"type": "no_shoot", "seat": seat}


def live_buy(seat: int, amount: int, card: str, hand_: int = 0) -> dict[str, Any]:
    return {"type": "buy", "seat": seat, "hand": hand_, "amount": amount, "card": card}


def live_twist(seat: int, card: str, hand_: int = 0) -> dict[str, Any]:
    return {"type": "twist", "seat": seat, "hand": hand_, "card": card}


def live_stick(seat: int, hand_: int = 0) -> dict[str, Any]:
    return {"type": "stick", "seat": seat, "hand": hand_}


def split(seat: int, hand_: int = 0) -> dict[str, Any]:
    return {"type": "split", "seat": seat, "hand": hand_}


def draw(seat: int, card: str) -> dict[str, Any]:
    return {"type": "draw", "seat": seat, "card": card}


def stand(seat: int) -> dict[str, Any]:
    return {"type": "stand", "seat": seat}


def start(hand_: PontoonHand, cards: dict[int, str], stakes: dict[int, int] | None = None) -> None:
    """Deal both rounds and stake: ``cards`` maps each seat (the banker too) to its two cards.

    Shoot Pontoon hands stop after the stakes (the shoot bets come before the second card).
    """
    order = [*hand_.order, hand_.banker]
    firsts = {seat: text.split()[0] for seat, text in cards.items()}
    seconds = {seat: text.split()[1] for seat, text in cards.items()}
    act(hand_, *(deal(seat, firsts[seat]) for seat in order))
    act(hand_, *(stake(seat, (stakes or {}).get(seat, 10)) for seat in hand_.order))
    if hand_.config.kitty is None:
        act(hand_, *(deal(seat, seconds[seat]) for seat in order))


def second_cards(hand_: PontoonHand, cards: dict[int, str]) -> None:
    order = [*hand_.order, hand_.banker]
    act(hand_, *(deal(seat, cards[seat].split()[1]) for seat in order))
