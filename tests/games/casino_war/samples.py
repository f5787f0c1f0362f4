"""Casino War's test samples (``tests/game_samples.py``): it has no demo table, so its
samples give the table the tests of every game open."""

from __future__ import annotations

from typing import Any

from casino.rules.contract import HandState
from tests.game_samples import GameSamples

from .game import GAME

TABLE = {
    "name": "WAR-1",
    "seat_count": 6,
    "limits": {"bet_min": 100, "bet_max": 5000},
    "smallest_chip": 25,
    "rules": {"tie_bonus": 2},
}


def new_hand() -> tuple[dict[str, Any], dict[str, Any]]:
    return {"players": [1, 2]}, GAME.hand_rules(TABLE["limits"], 25, {})


def short_hand() -> tuple[HandState, list[dict[str, Any]]]:
    """Seat 2 ties the dealer and goes to war: every action type is offered on the way."""
    config, rules = new_hand()
    return GAME.new_hand(config, rules), [
        {"type": "bet", "seat": 1, "amount": 500},
        {"type": "bet", "seat": 2, "amount": 200},
        {"type": "card", "seat": 1, "card": "Kh"},
        {"type": "card", "seat": 2, "card": "9s"},
        {"type": "card", "seat": 0, "card": "9d"},
        {"type": "war", "seat": 2},
        {"type": "war_cards", "seat": 2, "card": "Jh", "dealer_card": "4c"},
    ]


SAMPLES = GameSamples(
    code=GAME.code, new_hand=new_hand, short_hand=short_hand, fresh=([], []), table=TABLE
)
