"""Seeded random hands played through a game's own engine: what every game's strategy shares.

A game's strategy is a :class:`Player` in its own package's ``theory.py``, supplied through
``Game.theory()`` (:mod:`casino.rules.theory.base`): a fixed, documented strategy that deals
random cards from the game's deck and picks every action from the hand's
``legal_actions()``; the hand is then settled by the engine (the live hand's ``settle()``, or
the record a paper-settled game posts), so a simulation measures the rules as implemented,
fees, caps and bank coverage included. Seats are numbered from 1.

The shared pieces: :func:`shuffled_deck` (the game's deck, shuffled by the run's seeded
generator), :func:`legal_by_type` (the hand's legal actions by type) and :func:`drive`
(apply a chooser's actions until the hand is complete, then settle it). Each strategy says
itself in words (:attr:`Player.strategy`); ``docs/theory.md`` lists them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from casino.rules.contract import JSON, Game
from casino.rules.settlement import Settlement

#: Beyond this many actions a hand is a defect in a strategy, not a long hand.
MOST_ACTIONS = 5_000
#: The largest amount any engine accepts (a bank with no table maximum).
LARGEST = 10**12


class StrategyError(RuntimeError):
    """A strategy did not finish a hand (a defect here, never a player's choice)."""


def legal_by_type(state: Any) -> dict[str, JSON]:
    """The hand's legal actions now, by type."""
    return {str(action["type"]): action for action in state.legal_actions()}


def shuffled_deck(game: Game, seats: int, rng: random.Random) -> list[str]:
    """The deck a hand with ``seats`` players is dealt from, shuffled by ``rng``."""
    deck = game.deck(seats)
    rng.shuffle(deck)
    return deck


class Player:
    """One game's strategy. ``version`` is part of what a stored figure depends on: change
    it with the strategy, so figures made by the old one are not reused."""

    players: ClassVar[int]
    version: ClassVar[int] = 1
    strategy: ClassVar[str]
    #: The table limits a figure depends on (the rules always count, see ``ignored_rules``).
    limit_keys: ClassVar[tuple[str, ...]] = ()
    #: Effective rules keys that cannot change the figure (rotation policy, limits unused).
    ignored_rules: ClassVar[tuple[str, ...]] = ()

    def seats(self, rules: Mapping[str, Any]) -> int:
        """Players dealt in (besides a designated player or banker)."""
        return self.players

    def relevant(self, limits: Mapping[str, Any], rules: Mapping[str, Any]) -> JSON:
        """What the house's figure depends on: the strategy, the limits and rules it reads."""
        return {
            "strategy": self.version,
            "players": self.seats(rules),
            "limits": {key: limits.get(key) for key in self.limit_keys},
            "rules": {key: value for key, value in rules.items() if key not in self.ignored_rules},
        }

    def play(
        self, rng: random.Random, game: Game, rules: JSON, limits: Mapping[str, Any]
    ) -> Settlement:
        raise NotImplementedError


def drive(state: Any, choose: Callable[[dict[str, JSON]], JSON]) -> Settlement:
    """Apply ``choose``'s actions (it is given :func:`legal_by_type`) until the hand is
    complete, then settle it."""
    for index in range(MOST_ACTIONS):
        if state.complete:
            settlement: Settlement = state.settle()
            return settlement
        state.apply(choose(legal_by_type(state)), index)
    raise StrategyError(f"the hand did not finish in {MOST_ACTIONS} actions")
