"""Palace Poker's test samples (``tests/game_samples.py``)."""

from __future__ import annotations

from typing import Any

from casino.rules.contract import HandState, registry
from casino.rules.palace_poker import replay
from tests.game_samples import GameSamples
from tests.rules import palace_helpers as p

CODE = "palace-poker"


def new_hand() -> tuple[dict[str, Any], dict[str, Any]]:
    config = p.four()
    config.pop("actions", None)
    return config, registry()[CODE].default_rules()


def short_hand() -> tuple[HandState, list[dict[str, Any]]]:
    hand = replay(p.four())
    return hand, [
        p.buy(1, "Kh"),
        p.stay(2),
        p.stay(3),
        p.stay(4),
        p.battle(1, 2, 1000),
        p.fold(2),
    ]


SAMPLES = GameSamples(code=CODE, new_hand=new_hand, short_hand=short_hand, fresh=([], []))
