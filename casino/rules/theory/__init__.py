"""Theoretical figures of the games: what the house should keep, and the bonus bets' returns.

Pure Python, like every engine (no Django). Two methods:

* **Exact** (:mod:`casino.rules.theory.hcf`): the High Card Flush Flush bonus and Straight
  Flush bonus, counted over every (player, designated player) deal as fractions. They are the
  **player's** return per unit staked; the designated player pays them, so the house's own
  edge on them is zero and the designated player's expectation is the player's, negated.
* **Simulation** (:mod:`casino.rules.theory.play`): everything else. :func:`simulate` plays
  seeded random hands through the game's engine with a fixed strategy per game and estimates
  the **house's win per unit wagered** (the rake plus the house's net, over the drop, as
  ``payouts/figures.py`` defines them) with a 95% interval, and the players' return per unit
  staked on each wager. In the five games the house banks nothing, so its win is the fee.

A figure is identified by its :class:`Spec`: the game, the measure and the inputs it depends
on (for the house: the strategy, the table limits it reads and the effective rules that can
change it; for a bonus: its pay table), hashed as SHA-256 of their canonical JSON
(:attr:`Spec.digest`). :func:`specs` lists a table configuration's figures; :func:`compute`
works one out from its spec alone.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from casino.rules.contract import JSON
from casino.rules.contract import game as registered_game

from . import hcf
from .estimate import Estimate, Tally, hand_figures
from .play import PLAYERS

EXACT = "exact"
SIMULATION = "simulation"
#: The house's win per unit wagered (its hold).
HOUSE = "house"
FLUSH_BONUS = hcf.FLUSH_BONUS
STRAIGHT_FLUSH_BONUS = hcf.STRAIGHT_FLUSH_BONUS
MEASURES = {
    HOUSE: "house win per unit wagered",
    FLUSH_BONUS: "Flush bonus: player's return per unit staked (paid by the designated player)",
    STRAIGHT_FLUSH_BONUS: (
        "Straight Flush bonus: player's return per unit staked (paid by the designated player)"
    ),
}
DEFAULT_SEED = 20_261_201


def canonical(data: Any) -> str:
    """JSON with sorted keys and no spaces: equal data, equal text, equal digest."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


@dataclass(frozen=True, slots=True)
class Spec:
    """One theoretical figure: a game's measure under the inputs it depends on."""

    game: str
    measure: str
    method: str
    inputs: JSON

    @property
    def digest(self) -> str:
        """SHA-256 of the canonical JSON of the game, the measure and the inputs."""
        text = canonical({"game": self.game, "measure": self.measure, "inputs": self.inputs})
        return hashlib.sha256(text.encode()).hexdigest()

    def to_dict(self) -> JSON:
        return {
            "game": self.game,
            "measure": self.measure,
            "method": self.method,
            "inputs": self.inputs,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Spec:
        return cls(str(data["game"]), str(data["measure"]), str(data["method"]), data["inputs"])


@dataclass(frozen=True, slots=True)
class Figure:
    """A computed figure. An exact one has ``low == value == high`` and no hands or seed.

    ``spread`` (simulations) is one hand's standard deviation about ``value`` and
    ``mean_drop`` the mean drop per hand: see :class:`~casino.rules.theory.estimate.Estimate`.
    ``detail`` holds the rest: the exact fractions and counts, or the strategy and each
    wager's estimate.
    """

    spec: Spec
    value: float
    low: float
    high: float
    hands: int | None = None
    seed: int | None = None
    spread: float = 0.0
    mean_drop: float | None = None
    detail: JSON = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Simulation:
    """What :func:`simulate` measured: the house's win over the drop, and each wager's
    result for the players over their stakes (``wagers``), over ``hands`` seeded hands."""

    game: str
    hands: int
    seed: int
    players: int
    strategy: str
    house: Estimate
    wagers: dict[str, Estimate]

    def to_dict(self) -> JSON:
        return {
            "game": self.game,
            "hands": self.hands,
            "seed": self.seed,
            "players": self.players,
            "strategy": self.strategy,
            "house": self.house.to_dict(),
            "wagers": {wager: est.to_dict() for wager, est in sorted(self.wagers.items())},
        }


def effective_rules(
    code: str, limits: Mapping[str, Any], smallest_chip: int, rules: Mapping[str, Any]
) -> JSON:
    """The rules a hand at a table with this configuration freezes (the game's own merge)."""
    return registered_game(code).hand_rules(limits, smallest_chip, rules)


def simulate(
    code: str,
    limits: Mapping[str, Any],
    smallest_chip: int,
    rules: Mapping[str, Any],
    *,
    hands: int,
    seed: int = DEFAULT_SEED,
) -> Simulation:
    """Play ``hands`` seeded random hands of game ``code`` at a table with these limits,
    smallest chip and rule overrides, through the game's engine, with the game's strategy
    (:mod:`casino.rules.theory.play`); the same arguments always give the same figures."""
    effective = effective_rules(code, limits, smallest_chip, rules)
    return _simulate(code, effective, limits, hands=hands, seed=seed)


def _simulate(
    code: str, rules: JSON, limits: Mapping[str, Any], *, hands: int, seed: int
) -> Simulation:
    if hands < 2:
        raise ValueError("a simulation needs at least two hands for its interval")
    game = registered_game(code)
    player = PLAYERS[code]
    rng = random.Random(seed)
    tally = Tally()
    for _ in range(hands):
        tally.add(hand_figures(player.play(rng, game, rules, limits)))
    house = tally.house.estimate()
    if house is None:
        raise ValueError(f"{hands} hands of {code} staked nothing")
    wagers = {wager: est for wager, t in tally.wagers.items() if (est := t.estimate())}
    return Simulation(code, hands, seed, player.seats(rules), player.strategy, house, wagers)


def specs(
    code: str, limits: Mapping[str, Any], smallest_chip: int, rules: Mapping[str, Any]
) -> list[Spec]:
    """The figures of a table configuration: the house's hold, and for High Card Flush each
    offered bonus bet's exact return. A game without a strategy here (one registered from
    elsewhere) has none."""
    player = PLAYERS.get(code)
    if player is None:
        return []
    effective = effective_rules(code, limits, smallest_chip, rules)
    out = [Spec(code, HOUSE, SIMULATION, player.relevant(limits, effective))]
    if code == "high-card-flush":
        for bet in (FLUSH_BONUS, STRAIGHT_FLUSH_BONUS):
            table = effective[f"{bet.removesuffix('_bonus')}_paytable"]
            if table:
                out.append(Spec(code, bet, EXACT, {"paytable": dict(table)}))
    return out


def compute(spec: Spec, *, hands: int, seed: int = DEFAULT_SEED) -> Figure:
    """Work out one figure from its spec (``hands`` and ``seed`` are for a simulation)."""
    if spec.method == EXACT:
        make = hcf.flush_bonus if spec.measure == FLUSH_BONUS else hcf.straight_flush_bonus
        result = make(spec.inputs["paytable"])
        value = float(result.player_return)
        return Figure(spec, value, value, value, detail=result.to_dict())
    rules = registered_game(spec.game).parse_rules(spec.inputs["rules"])
    run = _simulate(spec.game, rules, spec.inputs["limits"], hands=hands, seed=seed)
    house = run.house
    return Figure(
        spec,
        house.value,
        house.low,
        house.high,
        hands=run.hands,
        seed=run.seed,
        spread=house.spread,
        mean_drop=house.mean_denominator,
        detail=run.to_dict(),
    )


__all__ = [
    "DEFAULT_SEED",
    "EXACT",
    "FLUSH_BONUS",
    "HOUSE",
    "MEASURES",
    "SIMULATION",
    "STRAIGHT_FLUSH_BONUS",
    "Estimate",
    "Figure",
    "Simulation",
    "Spec",
    "canonical",
    "compute",
    "effective_rules",
    "simulate",
    "specs",
]
