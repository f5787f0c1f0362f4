"""Five Card Draw 7-A's test samples (``tests/game_samples.py``)."""

from __future__ import annotations

from typing import Any

from casino.rules.contract import HandState, registry
from casino.rules.five_card_draw import replay
from tests.game_samples import GameSamples
from tests.rules import draw_helpers as draw

CODE = "five-card-draw-7a"


def new_hand() -> tuple[dict[str, Any], dict[str, Any]]:
    config = draw.record(draw.seat(1, "As Ad Ac Kh Kd"), draw.seat(2, "7s 8d 9c Jh Qd"))
    config.pop("actions", None)
    return config, registry()[CODE].default_rules()


def short_hand() -> tuple[HandState, list[dict[str, Any]]]:
    seats = [
        draw.seat(1, "As Ks Qs Js 9s"),
        draw.seat(2, "Ah Ad Kh Kd 7c"),
        draw.seat(3, "Qh Qd Qc 8h 7d"),
        draw.seat(4, "Jh Tc 9h 8d 7h"),
    ]
    hand = replay(draw.record(*seats))
    limped = [draw.call(4), draw.call(1), draw.call(2), draw.check(3)]
    after = [draw.bet(2, 400), draw.raise_(3, 800), draw.fold(4), draw.call(1), draw.call(2)]
    return hand, [*limped, *draw.pat(2, 3, 4, 1), *after]


SAMPLES = GameSamples(
    code=CODE,
    new_hand=new_hand,
    short_hand=short_hand,
    fresh=([], []),  # everyone is dealt in on the first hand: nothing to choose
)
