"""Paiute's test samples (``tests/game_samples.py``)."""

from __future__ import annotations

from typing import Any

from casino.rules.contract import HandState, registry
from tests.game_samples import GameSamples
from tests.rules import paiute_helpers as p

CODE = "paiute"


def new_hand() -> tuple[dict[str, Any], dict[str, Any]]:
    config = p.config({1: "Ah Kd 7c 7s 2d", 2: "9c 9h Qs Qd 4c"}, ante=500).to_dict()
    return config, registry()[CODE].parse_rules({"ante_min": 500, "ante_max": 500})


def short_hand() -> tuple[HandState, list[dict[str, Any]]]:
    hand = p.live({1: "7c 8c 9c Jc As", 2: "Ks Kh Kd 7s 3d", 3: "2h 4h 6d 8s Td"})
    return hand, [
        *p.turn(1, "2c", "2c"),
        p.draw(2, "Kc"),
        p.call(2, "7s"),
        *p.turn(3, "Qd", "Qd"),
    ]


SAMPLES = GameSamples(code=CODE, new_hand=new_hand, short_hand=short_hand, fresh=([], []))
