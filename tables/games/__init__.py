"""What differs between games at a live table, behind one interface.

The services (``services.py``) run the common workflow: lock the table, check roles and
state, freeze what a hand needs, store, audit. Each game's adapter says what its limits are,
which rules a hand freezes, what must be true to open a hand, how a hand takes actions and how
it is settled. Adding a game means adding an adapter here (and its engine in casino/rules/).
"""

from __future__ import annotations

from .base import DealerRotating, GameAdapter, LiveGame, Opening
from .five_card_draw import FiveCardDraw
from .high_card_flush import HighCardFlush
from .paiute import Paiute
from .palace_poker import PalacePoker
from .pontoon import Pontoon

ADAPTERS: dict[str, GameAdapter] = {
    a.code: a for a in (HighCardFlush(), FiveCardDraw(), Pontoon(), Paiute(), PalacePoker())
}


def adapter(game: str) -> GameAdapter:
    return ADAPTERS[game]


__all__ = [
    "ADAPTERS",
    "DealerRotating",
    "FiveCardDraw",
    "GameAdapter",
    "HighCardFlush",
    "LiveGame",
    "Opening",
    "Paiute",
    "PalacePoker",
    "Pontoon",
    "adapter",
]
