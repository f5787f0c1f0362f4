"""Pontoon's test samples (``tests/game_samples.py``)."""

from __future__ import annotations

from typing import Any

from casino.rules.contract import HandState, registry
from tests.game_samples import GameSamples
from tests.rules import pontoon_helpers as p

CODE = "pontoon"


def new_hand() -> tuple[dict[str, Any], dict[str, Any]]:
    config = {"banker": 5, "players": [1, 2], "kitty": None, "kitty_carried": False}
    return config, registry()[CODE].parse_rules({"stake_min": 100, "stake_max": 2000})


def short_hand() -> tuple[HandState, list[dict[str, Any]]]:
    hand = p.live(9, (1, 2), kitty=100)
    return hand, [
        *(p.deal(seat, card) for seat, card in ((1, "8c"), (2, "Tc"), (9, "7d"))),
        p.stake(1),
        p.stake(2),
        p.shoot(1, 20),
        p.no_shoot(2),
        *(p.deal(seat, card) for seat, card in ((1, "8h"), (2, "6c"), (9, "9d"))),
        p.split(1),
        p.deal(1, "3c", 0),
        p.live_buy(1, 10, "2s", 0),
        p.live_twist(1, "4s", 0),
        p.live_stick(1, 0),
        p.deal(1, "Ah", 1),
        p.live_stick(1, 1),
        p.live_stick(2),
        p.draw(9, "2d"),
        p.stand(9),
    ]


SAMPLES = GameSamples(
    code=CODE,
    new_hand=new_hand,
    short_hand=short_hand,
    fresh=([{"type": "choose_banker", "seats": [1, 2, 3]}], []),
)
