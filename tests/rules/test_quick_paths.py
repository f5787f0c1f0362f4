"""The engines' quick paths read exactly what their full readers read (issue 25, target 4).

A replay reads stored input that is nearly always well formed, so some readers have a quick
path for such input and hand anything unusual to the full reader, which names every problem.
Here both are given the same inputs, taken from seeded stored histories
(``scripts/bench_replay.py``) and mutated at random (fields left out, added, of the wrong
kind, out of bounds; near misses such as a card twice or two banners of a suit in a group):
the quick path must give the same value, or the same problems, every time.
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
import json
import random
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from casino.rules import actions
from casino.rules.errors import RuleError

ROOT = Path(__file__).resolve().parents[2]

#: Values a mutation puts in a field: the wrong kinds, the bounds and their neighbours.
ODD = [
    None, True, False, 0, -1, 1, 2, 99, 100, 10**12, 10**12 + 1, 2.0, "", "x", "Ah", "ah",
    " Ah", "10h", "Zz", [], ["Ah"], ["Ah", "Ah"], {}, {"a": 1}, "stock", "discard", "limit",
    "no_limit", 25, 50, 3, 7,
]  # fmt: skip


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "bench_replay", ROOT / "scripts" / "bench_replay.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _mutated(rng: random.Random, value: Any) -> Any:
    """``value`` with one random change somewhere inside it."""
    value = copy.deepcopy(value)

    def change(item: Any) -> Any:
        if isinstance(item, dict) and item:
            key = rng.choice(list(item))
            roll = rng.random()
            if roll < 0.25:
                del item[key]
            elif roll < 0.35:
                item[f"extra{rng.randint(0, 3)}"] = rng.choice(ODD)
            elif roll < 0.7:
                item[key] = rng.choice(ODD)
            else:
                item[key] = change(item[key])
        elif isinstance(item, list) and item:
            index = rng.randrange(len(item))
            roll = rng.random()
            if roll < 0.3:
                del item[index]
            elif roll < 0.5:
                item.append(rng.choice(item) if rng.random() < 0.5 else rng.choice(ODD))
            elif roll < 0.8:
                item[index] = rng.choice(ODD)
            else:
                item[index] = change(item[index])
        return item

    return change(value)


def _outcome(read: Callable[..., Any], *args: Any) -> tuple[str, Any]:
    """What ``read`` gives: its value, or each problem with its path, text, id and params."""
    try:
        return "value", repr(read(*args))
    except RuleError as error:
        return "problems", [
            (p.path, str(p.message), p.code, json.dumps(p.params, sort_keys=True, default=str))
            for p in error.problems
        ]


GAMES = {
    "high-card-flush": "casino.rules.high_card_flush.hand",
    "pontoon": "casino.rules.pontoon.ops",
    "paiute": "casino.rules.paiute.ops",
    "palace-poker": "casino.rules.palace_poker.ops",
}


@pytest.mark.parametrize("code", sorted(GAMES))
def test_decode_reads_as_the_full_decoder(code: str) -> None:
    table = importlib.import_module(GAMES[code]).ACTIONS
    rng = random.Random(f"decode:{code}")
    stored = [
        action for history in _bench().histories(code, 40, 3) for action in history["actions"]
    ]
    for action in stored:
        for given in (action, _mutated(rng, action), _mutated(rng, _mutated(rng, action))):
            assert _outcome(actions.decode, given, table) == _outcome(
                actions._decode, given, table
            ), given


def test_palace_config_reads_as_the_full_reader() -> None:
    from casino.rules.palace_poker import config
    from casino.rules.palace_poker.rules import PalaceRules

    rng = random.Random("palace config")

    def near(record: dict[str, Any], rules: PalaceRules) -> dict[str, Any]:
        """A near miss: a suit twice in a group, a card twice, an ante or stack just off."""
        record = copy.deepcopy(record)
        players = record["players"]
        ante = record.get("ante") or 0
        roll = rng.random()
        first, second = rng.sample(range(len(players)), 2)
        if roll < 0.15:
            record["dealer"] = rng.randint(0, 12)
        elif roll < 0.3:
            players[first]["banner"], players[second]["banner"] = (
                players[second]["banner"],
                players[first]["banner"],
            )
        elif roll < 0.4:
            players[first]["palace"][rng.randrange(3)] = players[second]["banner"]
        elif roll < 0.5:
            record["ante"] = rng.choice([None, 0, rules.ante_for(record["small_bet"]), ante + 25])
        elif roll < 0.6:
            players[first]["stack"] = rng.choice([0, ante, ante - 25, ante + 1])
        elif roll < 0.7:
            players[first]["seat"] = players[second]["seat"]
        elif roll < 0.8:
            record["big_bet"] = rng.choice([record["small_bet"], record["small_bet"] - 25])
        elif roll < 0.9:
            players[first]["banner"] = rng.choice(["2c", "2d", "2h", "2s", "As", "Kh"])
        else:
            record["structure"] = rng.choice(["limit", "no_limit", "Limit", None])
        return record

    for history in _bench().histories("palace-poker", 60, 3):
        rules = PalaceRules.from_dict(history["rules"])
        record = history["config"]
        given = [record, *(_mutated(rng, record) for _ in range(5))]
        given += [near(record, rules) for _ in range(20)]
        for item in given:
            assert _outcome(config.parse_config, item, rules) == _outcome(
                config._parse_config, item, rules
            ), item


def test_high_card_flush_hand_values_as_the_long_way() -> None:
    """A hand's flush and run read from each suit's ranks as bits are those the ranks sorted
    suit by suit give (:func:`_flush_of`, :func:`_run_of`), the suit kept included; cards
    given twice are read the long way."""
    from casino.rules.cards import standard_deck
    from casino.rules.high_card_flush import values

    rng = random.Random("high card flush values")
    deck = list(standard_deck())
    for _ in range(5_000):
        cards = rng.sample(deck, rng.choice([1, 2, 3, 5, 7, 7, 7, 9]))
        if rng.random() < 0.05:
            cards.append(rng.choice(cards))
        flush, run = values.hand_values(cards)
        long_flush = values._flush_of(values._by_suit(cards))
        long_run = values._run_of(values._by_suit(cards))
        assert (flush, flush.ranks, flush.suit) == (long_flush, long_flush.ranks, long_flush.suit)
        assert (run, run.suit) == (long_run, long_run.suit), cards


def test_high_card_flush_setup_reads_as_the_full_reader() -> None:
    from casino.rules.high_card_flush.hand import _Config

    rng = random.Random("high card flush set-up")
    for history in _bench().histories("high-card-flush", 60, 3):
        record = history["config"]
        for given in (record, *(_mutated(rng, record) for _ in range(10))):
            assert _outcome(_Config.read, given) == _outcome(_Config._read, given), given
