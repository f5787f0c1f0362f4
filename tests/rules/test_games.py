"""The game registry, and the rules package's independence from Django."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from casino.rules.contract import registry
from casino.rules.errors import RuleError
from casino.rules.high_card_flush import Rules
from casino.rules.settlement import Settlement

RECORD = {
    "designated_player": {
        "seat": 1,
        "bank": 50000,
        "cards": ["As", "Ks", "9s", "5s", "2d", "3c", "4h"],
    },
    "players": [
        {
            "seat": 2,
            "cards": ["Ah", "Kh", "7h", "2h", "Qd", "9c", "4c"],
            "ante": 1000,
            "raise": 1000,
            "flush_bonus": 500,
            "straight_flush_bonus": 0,
        }
    ],
}


def test_every_game_package_is_registered_in_package_order() -> None:
    """The registry finds each package of ``casino/rules`` with a ``game.py`` (in package
    order) and nothing else of its own; a game kept elsewhere is there because whoever
    imported it registered it (the suite registers Casino War for the whole run)."""
    import importlib

    packages = sorted(
        path.parent.name
        for path in (Path(__file__).resolve().parents[2] / "casino" / "rules").glob("*/game.py")
    )
    built_in = [importlib.import_module(f"casino.rules.{name}.game").GAME.code for name in packages]
    games = registry()
    assert [code for code in games if type(games[code]).__module__.startswith("casino.rules.")] == (
        built_in
    )
    others = [game for game in games.values() if game.code not in built_in]
    assert others and all(type(game).__module__.startswith("tests.games.") for game in others)
    engine = games["high-card-flush"]
    assert (engine.code, engine.name) == ("high-card-flush", "High Card Flush")


def test_registry_default_and_parsed_rules_are_json_ready() -> None:
    engine = registry()["high-card-flush"]
    assert engine.default_rules() == Rules().to_dict()
    table = engine.parse_rules({"ante_min": 500, "rake": {"amount": 100}})
    assert table["ante_min"] == 500 and table["rake"]["amount"] == 100
    hand = engine.parse_rules({"coverage": "original_bank"}, base=table)
    assert (hand["ante_min"], hand["coverage"]) == (500, "original_bank")
    with pytest.raises(RuleError) as error:
        engine.parse_rules({"nonsense": 1})
    assert error.value.problems[0].path == "rules.nonsense"


def test_registry_evaluates_the_contract_example() -> None:
    settlement = registry()["high-card-flush"].evaluate(RECORD, {"rake": {"amount": 100}})
    assert isinstance(settlement, Settlement)
    seat = settlement.seat(2)
    # A-K-9-5 beats A-K-7-2: the player loses ante, raise and flush bonus.
    assert [(line.wager, line.amount) for line in seat.lines] == [
        ("ante", -1000),
        ("raise", -1000),
        ("flush_bonus", -500),
    ]
    assert settlement.to_dict()["rake"] == 200
    assert registry()["high-card-flush"].evaluate(RECORD).rake == 0
    assert registry()["high-card-flush"].evaluate(record=RECORD, rules=None).rake == 0


def test_rules_package_imports_no_django() -> None:
    root = Path(__file__).resolve().parents[2]
    # Load casino.rules without running casino/__init__.py (which starts Celery).
    code = (
        "import sys, types; "
        f"package = types.ModuleType('casino'); package.__path__ = [{str(root / 'casino')!r}]; "
        "sys.modules['casino'] = package; "
        "import casino.rules.contract as c; c.registry(); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"
    for path in (root / "casino" / "rules").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(name.split(".")[0] == "django" for name in names), path.name
