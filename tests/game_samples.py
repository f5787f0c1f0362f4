"""Each game's test data, kept beside the game's own tests: what the tests of "every game" need
and the contract cannot give them (a hand's set-up, a short hand that offers every action type,
what a fresh table offers first, a valid table for a game with no demo table).

A game's samples are a :class:`GameSamples` named ``SAMPLES`` in a module ``samples.py`` of
its test package (Casino War's is in its own package under ``tests/games/``) or in the package
``tests/rules/samples/`` (one module per built-in game). :func:`samples` finds them all by
that convention, so a new game brings its module and no test is edited; a registered game
without one fails the tests that need it, saying what to add.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from casino.rules.contract import Game, HandState

JSON = dict[str, Any]
TESTS = Path(__file__).resolve().parent


@dataclass(frozen=True)
class GameSamples:
    """``new_hand``: a hand's (config, rules); ``short_hand``: a new hand and actions that
    play it through every action type its game has; ``fresh``: the between-hand actions
    (type and seat or seats) and the events a fresh open table with seats 1-3 in play
    offers; ``table``: a valid table (``name``, ``seat_count``, ``limits``,
    ``smallest_chip``, ``rules``) for a game without a demo table."""

    code: str
    new_hand: Callable[[], tuple[JSON, JSON]]
    short_hand: Callable[[], tuple[HandState, list[JSON]]]
    fresh: tuple[list[JSON], list[str]]
    table: JSON | None = None


def _modules() -> list[str]:
    found = sorted(TESTS.rglob("samples.py")) + sorted(
        path for path in (TESTS / "rules" / "samples").glob("*.py") if path.stem != "__init__"
    )
    root = TESTS.parent
    return [".".join(path.relative_to(root).with_suffix("").parts) for path in found]


@cache
def all_samples() -> dict[str, GameSamples]:
    """Every game's samples, by game code."""
    out: dict[str, GameSamples] = {}
    for name in _modules():
        found = getattr(importlib.import_module(name), "SAMPLES", None)
        if isinstance(found, GameSamples):
            out[found.code] = found
    return out


def samples(code: str) -> GameSamples:
    found = all_samples().get(code)
    assert found is not None, (
        f"{code}: add its test samples, a GameSamples named SAMPLES in a samples.py beside "
        "its tests (see tests/game_samples.py)"
    )
    return found


def table_config(game: Game) -> JSON:
    """A valid table of ``game``: its demo table, or the table its samples give."""
    table = game.demo_table or samples(game.code).table
    assert table is not None, f"{game.code}: no demo table and no sample table"
    return dict(table)
