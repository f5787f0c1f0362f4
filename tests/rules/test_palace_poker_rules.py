"""Palace Poker rules options: defaults, overrides onto a base, every bad setting named, and
the game's entry in the registry."""

from __future__ import annotations

import pytest

from casino.rules.contract import registry
from casino.rules.errors import RuleError
from casino.rules.palace_poker import (
    GAME_CODE,
    CallRule,
    PalaceRules,
    default_rules,
    parse_rules,
)
from tests.rules.palace_helpers import battle, call, four, nets, problems


def test_defaults_are_the_briefs() -> None:
    assert default_rules() == {
        "call": "formula",
        "ante": None,
        "smallest_chip": 1,
        "max_soldiers": 5,
        "max_raises": None,
        "uncalled_raise_returned": True,
        "short_all_in": True,
        "rake": {"kind": "none", "amount": 0, "bands": [], "percent": 0, "cap": None},
    }
    assert PalaceRules().call is CallRule.FORMULA
    assert PalaceRules.from_dict(PalaceRules().to_dict()) == PalaceRules()


def test_overrides_merge_onto_a_base() -> None:
    table = parse_rules({"call": "match", "smallest_chip": 5})
    hand = parse_rules({"ante": 50}, base=table)
    assert (hand["call"], hand["smallest_chip"], hand["ante"]) == ("match", 5, 50)
    assert PalaceRules.from_dict(hand).ante_for(500) == 50
    assert PalaceRules.from_dict(table).ante_for(25) == 10  # 12.5 down to the 5 chip


def test_every_bad_setting_is_named() -> None:
    with pytest.raises(RuleError) as error:
        parse_rules(
            {
                "call": "half",
                "ante": 7,
                "smallest_chip": 5,
                "max_soldiers": 0,
                "max_raises": 0,
                "short_all_in": "yes",
                "colour": "red",
            }
        )
    assert problems(error) == [
        ("rules.colour", "unknown rules setting 'colour'"),
        ("rules.call", "call 'half' is not one of formula, match"),
        ("rules.ante", "ante 7 is not a multiple of the smallest chip 5"),
        ("rules.max_soldiers", "max soldiers must be a whole number from 1 to 10, got 0"),
        (
            "rules.max_raises",
            "max raises must be a whole number from 1 to 100, or null for no cap, got 0",
        ),
        ("rules.short_all_in", "short all in must be true or false"),
    ]
    with pytest.raises(RuleError):
        PalaceRules(max_soldiers=11)


def test_the_registry_evaluates_a_record_with_rules() -> None:
    engine = registry()[GAME_CODE]
    assert (engine.code, engine.name) == ("palace-poker", "Palace Poker")
    assert engine.default_rules() == default_rules()
    record = four([battle(1, 2, 500), call(2)], structure="no_limit")
    record["actions"] += [{"seat": 3, "type": "fold"}, {"seat": 4, "type": "fold"}]
    settlement = engine.evaluate(record, {"ante": 100})
    assert settlement.rules["ante"] == 100
    # Pot 4 x 100 + 500 + 500 = 1400; seat 1 put in 600.
    assert nets(settlement) == {1: 1400 - 600, 2: -600, 3: -100, 4: -100}
