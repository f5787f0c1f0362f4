"""Pontoon: a hand's configuration (the banker, the players, the Shoot Pontoon kitty).

A hand is its :class:`PontoonConfig` plus its operation log. The players play clockwise from
the banker's left: ascending seat numbers after the banker's, wrapping (:attr:`play_order`,
derived from the seats, so the config may list them in any order). :func:`check_config`
checks a config against the rules (clauses 1 and 17), naming every problem by its path.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from casino.rules.errors import Problems, RuleError
from casino.rules.options import beyond_maximum, is_int
from casino.rules.pontoon.rules import PontoonRules

#: Clause 1: two packs are mixed once this many are at the table (the banker included).
TWO_PACKS_FROM = 8
#: The most at one table (the banker included) with one pack, and with two.
MOST_AT_TABLE = {1: TWO_PACKS_FROM - 1, 2: 14}


def clockwise_after(seat: int, seats: Sequence[int]) -> list[int]:
    """``seats`` clockwise starting with the first one left of ``seat``."""
    return sorted(seats, key=lambda number: (number <= seat, number))


@dataclass(frozen=True, slots=True)
class PontoonConfig:
    """The banker's seat, the players' seats and, for Shoot Pontoon, the kitty.

    ``kitty_carried``: the kitty is the one left from the last hand (clause 17), so the
    table's kitty limits, which apply to a kitty put up, are not checked.
    """

    banker: int
    players: tuple[int, ...]
    kitty: int | None = None
    kitty_carried: bool = False

    @property
    def play_order(self) -> tuple[int, ...]:
        """Clockwise from the banker's left (clause 3)."""
        return tuple(clockwise_after(self.banker, self.players))

    @property
    def shoot(self) -> bool:
        return self.kitty is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "banker": self.banker,
            "players": list(self.play_order),
            "kitty": self.kitty,
            "kitty_carried": self.kitty_carried,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PontoonConfig:
        """Read ``{"banker": 5, "players": [1, 2], "kitty": 5000}`` (kitty optional);
        types only, :func:`check_config` checks it against the rules."""
        problems = Problems()
        if not isinstance(data, Mapping):
            raise RuleError("the configuration must be an object with banker and players")
        for key in data:
            if key not in ("banker", "players", "kitty", "kitty_carried"):
                problems.add(str(key), f"unknown field '{key}'")
        banker = data.get("banker")
        if not is_int(banker):
            problems.add("banker", f"banker must be a seat number, got {banker!r}")
        players = data.get("players")
        if isinstance(players, str) or not isinstance(players, Sequence):
            problems.add("players", "players must be a list of seat numbers")
            players = []
        for index, seat in enumerate(players):
            if not is_int(seat):
                problems.add(f"players[{index}]", f"a player is a seat number, got {seat!r}")
        kitty = data.get("kitty")
        if kitty is not None and not is_int(kitty):
            problems.add("kitty", f"the kitty must be a whole amount, got {kitty!r}")
        carried = data.get("kitty_carried", False)
        if not isinstance(carried, bool):
            problems.add("kitty_carried", "kitty carried must be true or false")
        problems.raise_if_any()
        assert is_int(banker)
        return cls(banker, tuple(players), kitty, carried)


def check_config(
    config: PontoonConfig,
    rules: PontoonRules,
    *,
    paths: Mapping[str, str] | None = None,
) -> None:
    """Check the seats (clause 1) and the kitty (clause 17); every problem at once.

    ``paths`` renames the places problems are reported at (``{"kitty": "shoot.kitty"}``).
    """
    where = {"banker": "banker", "players": "players", "kitty": "kitty", **(paths or {})}
    problems = Problems()
    if config.banker < 1:
        problems.add(where["banker"], f"the banker's seat must be at least 1, got {config.banker}")
    if not config.players:
        problems.add(where["players"], "at least one player besides the banker is dealt in")
    seen: set[int] = set()
    for seat in config.players:
        if seat < 1:
            problems.add(where["players"], f"seat numbers start at 1, got {seat}")
        elif seat == config.banker:
            problems.add(where["players"], f"seat {seat} is the banker, not a player")
        elif seat in seen:
            problems.add(where["players"], f"seat {seat} is listed twice")
        seen.add(seat)
    people = len(config.players) + 1
    if people >= TWO_PACKS_FROM and rules.decks == 1:
        problems.add(
            where["players"],
            f"{people} at the table (the banker included): from {TWO_PACKS_FROM} two packs are "
            "mixed (clause 1 of docs/rules/pontoon.md); set the rules' decks to 2",
        )
    elif people > MOST_AT_TABLE[rules.decks]:
        problems.add(
            where["players"],
            f"{people} at the table (the banker included): at most {MOST_AT_TABLE[rules.decks]} "
            f"with {rules.decks} packs",
        )
    if config.kitty is not None:
        chip = rules.smallest_chip
        kitty = config.kitty
        too_big = beyond_maximum(kitty, "kitty")
        if kitty < 1:
            problems.add(
                where["kitty"],
                "the kitty is empty: the banker puts up a new kitty or sells the bank (clause 17 of docs/rules/pontoon.md)",
            )
        elif too_big is not None:
            problems.add(where["kitty"], too_big)
        elif kitty % chip:
            problems.add(
                where["kitty"], f"kitty {kitty} is not a multiple of the smallest chip {chip}"
            )
        elif not config.kitty_carried:
            low, high = rules.least_kitty, rules.most_kitty
            if kitty < low or (high is not None and kitty > high):
                bounds = f"{low} to {high}" if high is not None else f"at least {low}"
                problems.add(
                    where["kitty"],
                    f"kitty {kitty} is outside the table limits: the banker puts up {bounds} "
                    "(clause 17 of docs/rules/pontoon.md)",
                )
    problems.raise_if_any()
