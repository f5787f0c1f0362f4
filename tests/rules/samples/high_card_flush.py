"""High Card Flush's test samples (``tests/game_samples.py``)."""

from __future__ import annotations

from typing import Any

from casino.rules.contract import HandState, registry
from casino.rules.high_card_flush import Rules
from casino.rules.high_card_flush.hand import HighCardFlushHand, setup
from tests.game_samples import GameSamples

CODE = "high-card-flush"


def new_hand() -> tuple[dict[str, Any], dict[str, Any]]:
    config = {"designated_player": {"seat": 1, "bank": 50_000}, "players": [2, 3]}
    return config, registry()[CODE].default_rules()


def short_hand() -> tuple[HandState, list[dict[str, Any]]]:
    hand = HighCardFlushHand(setup(1, 100_000, [2, 3]), Rules())
    cards = {1: "As Ks 9s 5s 2d 3c 4h", 2: "Ah Kh 7h 2h Qd 9c 4c", 3: "Ac Kc 8c 3s 5d 6d 7s"}
    return hand, [
        {"type": "wager", "seat": 2, "ante": 10, "flush_bonus": 5},
        {"type": "wager", "seat": 3, "ante": 10},
        *({"type": "deal", "seat": seat, "cards": text.split()} for seat, text in cards.items()),
        {"type": "raise", "seat": 2, "amount": 10},
        {"type": "fold", "seat": 3},
    ]


SAMPLES = GameSamples(
    code=CODE,
    new_hand=new_hand,
    short_hand=short_hand,
    # Seat 1 is offered the position first (clause 15).
    fresh=(
        [{"type": "accept", "seat": 1}, {"type": "decline", "seat": 1}],
        ["rotation_offer"],
    ),
)
