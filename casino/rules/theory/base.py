"""What a game supplies for its theoretical figures: the contract's ``Game.theory()`` hook.

A game package gives its theory in its own ``theory.py`` (the house style's "its strategy for
the theoretical hold") and its ``Game.theory()`` returns it; a game whose hook returns None
has no theoretical figures, and every page says so. :mod:`casino.rules.theory` reads games
only through this hook:

* :attr:`GameTheory.player`, the game's fixed strategy (:class:`~casino.rules.theory.play.Player`):
  the house's hold is simulated with it, through the game's own engine. None: no house figure.
* :meth:`GameTheory.exact_inputs` and :meth:`GameTheory.exact`: figures of the game's own that
  are counted exactly (High Card Flush's bonus bets against the designated player), each a
  :class:`Measure` of :attr:`GameTheory.measures`, worked out from the inputs it depends on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .play import Player

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Measure:
    """One kind of figure as people read it: ``code`` (stored with the figure), ``label``
    (what the figure is) and ``note`` (how it is made, and whose it is)."""

    code: str
    label: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class Exact:
    """An exactly counted figure: ``value`` as the fraction it is, and ``detail`` (JSON-ready:
    the counts it was made from), stored with it."""

    value: Fraction
    detail: JSON = field(default_factory=dict)


class GameTheory:
    """A game's theoretical figures: its strategy for the house's hold (``player``) and any
    exact figures of its own (override :meth:`exact_inputs` and :meth:`exact`, and list their
    :class:`Measure` s in ``measures``)."""

    measures: tuple[Measure, ...] = ()

    def __init__(self, player: Player | None = None) -> None:
        self.player = player

    def exact_inputs(self, rules: Mapping[str, Any]) -> dict[str, JSON]:
        """For a table's effective rules: each exact figure it has (by measure code, in the
        order of :attr:`measures`) with the inputs it depends on, nothing else (a figure's
        stored row is keyed by their digest). A bet the table does not offer has none."""
        return {}

    def exact(self, measure: str, inputs: Mapping[str, Any]) -> Exact:
        """Work out one exact figure from the inputs :meth:`exact_inputs` gave for it."""
        raise KeyError(f"no exact figure {measure!r}")

    def measure(self, code: str) -> Measure | None:
        return next((found for found in self.measures if found.code == code), None)
