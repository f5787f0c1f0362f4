"""Theoretical figures of the games: what the house should keep, and a game's own exact figures.

Pure Python, like every engine (no Django). A game supplies its theory through the contract's
hook, ``Game.theory()`` (:mod:`casino.rules.theory.base`; each game in its package's
``theory.py``), and this package reads games only through it. A game whose hook returns None
has no theoretical figures. Two methods:

* **Simulation** (:mod:`casino.rules.theory.play`): :func:`simulate` plays seeded random hands
  through the game's engine with the game's fixed strategy (``GameTheory.player``) and
  estimates the **house's win per unit wagered** (the rake plus the house's net, over the
  handle, the chips wagered, as the stored figures define them) with a 95% interval, and the
  players' return per unit staked on each wager (a bonus paid on a wager counts in that
  wager's return).
* **Exact**: figures a game counts itself (``GameTheory.exact``), such as High Card Flush's
  bonus bets against the designated player, as fractions.

A figure is identified by its :class:`Spec`: the game, the measure and the inputs it depends
on (for the house: the strategy, the table limits it reads and the effective rules that can
change it; for an exact figure: what the game says it depends on, e.g. a pay table), hashed
as SHA-256 of their canonical JSON (:attr:`Spec.digest`). :func:`specs` lists a table
configuration's figures; :func:`compute` works one out from its spec alone.
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
from casino.rules.errors import RuleError

from .base import Exact, GameTheory, Measure
from .estimate import Estimate, Tally, hand_figures
from .play import Player

EXACT = "exact"
SIMULATION = "simulation"
#: The house's win per unit wagered (its hold): every game with a strategy has it.
HOUSE = "house"
HOUSE_MEASURE = Measure(
    HOUSE,
    "House win per unit wagered (hold)",
    "the house's fee (and its net where it banks) over the handle, by simulation",
)
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
    ``mean_handle`` the mean handle (chips wagered) per hand: see :class:`~casino.rules.theory.estimate.Estimate`.
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
    mean_handle: float | None = None
    detail: JSON = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Simulation:
    """What :func:`simulate` measured: the house's win over the handle, and each wager's
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


def of_game(code: str) -> GameTheory | None:
    """What game ``code`` supplies for its figures (``Game.theory()``); None for a game with
    none, or one not registered (a hand stored of a game no longer on the floor)."""
    try:
        found = registered_game(code)
    except RuleError:
        return None
    return found.theory()


def strategy(code: str) -> Player | None:
    """The strategy game ``code``'s house hold is simulated with (None: it has none)."""
    supplied = of_game(code)
    return supplied.player if supplied is not None else None


def offered(code: str) -> bool:
    """Game ``code`` has theoretical figures (a strategy or exact figures of its own)."""
    supplied = of_game(code)
    return supplied is not None and (supplied.player is not None or bool(supplied.measures))


def measure(code: str, name: str) -> Measure:
    """What figure ``name`` of game ``code`` is, in words (the house's, or the game's own)."""
    if name == HOUSE:
        return HOUSE_MEASURE
    supplied = of_game(code)
    found = supplied.measure(name) if supplied is not None else None
    return found or Measure(name, name.replace("_", " ").capitalize())


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
    (``Game.theory().player``); the same arguments always give the same figures."""
    effective = effective_rules(code, limits, smallest_chip, rules)
    return _simulate(code, effective, limits, hands=hands, seed=seed)


def _simulate(
    code: str, rules: JSON, limits: Mapping[str, Any], *, hands: int, seed: int
) -> Simulation:
    if hands < 2:
        raise ValueError("a simulation needs at least two hands for its interval")
    game = registered_game(code)
    player = strategy(code)
    if player is None:
        raise ValueError(f"{game.name} has no strategy to simulate its hold with")
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
    """The figures of a table configuration: the house's hold (a game with a strategy), then
    the game's own exact figures for its effective rules. A game that supplies no theory has
    none."""
    supplied = of_game(code)
    if supplied is None:
        return []
    effective = effective_rules(code, limits, smallest_chip, rules)
    out = []
    if supplied.player is not None:
        out.append(Spec(code, HOUSE, SIMULATION, supplied.player.relevant(limits, effective)))
    for name, inputs in supplied.exact_inputs(effective).items():
        out.append(Spec(code, name, EXACT, inputs))
    return out


def hand_house_spec(code: str, rules: Mapping[str, Any], config: Mapping[str, Any]) -> Spec | None:
    """The house figure a hand was played under, from what it froze: its effective rules and
    the table limits its set-up carries (blinds, bets, ante): the same spec as :func:`specs`
    gives for the table's configuration at the time. None for a game without a strategy."""
    player = strategy(code)
    if player is None:
        return None
    limits = {key: config.get(key) for key in player.limit_keys}
    return Spec(code, HOUSE, SIMULATION, player.relevant(limits, rules))


def compute(spec: Spec, *, hands: int, seed: int = DEFAULT_SEED) -> Figure:
    """Work out one figure from its spec (``hands`` and ``seed`` are for a simulation). An
    exact figure's ``detail`` holds the game's counts and ``fraction``, its value exactly."""
    if spec.method == EXACT:
        supplied = of_game(spec.game)
        if supplied is None:
            raise ValueError(f"{spec.game} supplies no exact figures")
        result: Exact = supplied.exact(spec.measure, spec.inputs)
        value = float(result.value)
        fraction = f"{result.value.numerator}/{result.value.denominator}"
        return Figure(spec, value, value, value, detail={**result.detail, "fraction": fraction})
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
        mean_handle=house.mean_denominator,
        detail=run.to_dict(),
    )


__all__ = [
    "DEFAULT_SEED",
    "EXACT",
    "HOUSE",
    "HOUSE_MEASURE",
    "SIMULATION",
    "Estimate",
    "Exact",
    "Figure",
    "GameTheory",
    "Measure",
    "Simulation",
    "Spec",
    "canonical",
    "compute",
    "effective_rules",
    "hand_house_spec",
    "measure",
    "of_game",
    "offered",
    "simulate",
    "specs",
    "strategy",
]
