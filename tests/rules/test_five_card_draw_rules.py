"""Five Card Draw 7-A rules options: defaults, JSON round trip, merging, validation, and the
game's entry in the registry."""

from __future__ import annotations

from typing import Any

import pytest

from casino.rules.contract import registry
from casino.rules.errors import RuleError
from casino.rules.five_card_draw import (
    GAME_CODE,
    DrawRules,
    Rake,
    RakeKind,
    default_rules,
    evaluate,
    parse_rules,
)
from tests.rules.draw_helpers import call, check, pat, problems, record, seat

DEFAULTS: dict[str, Any] = {
    "max_raises": 3,
    "heads_up_uncapped": False,
    "flush_beats_full_house": True,
    "rake": {"kind": "none", "amount": 0, "percent": 0, "cap": None, "no_draw_no_drop": True},
    "smallest_chip": 1,
}
HEADS_UP = record(
    seat(1, "Ks Qs 9s 8s 7s"),
    seat(2, "Ac Ad Ah Kc Kd"),
    actions=[call(1), check(2), *pat(2, 1), check(2), check(1)],
)


def test_defaults_are_the_brief_s() -> None:
    assert DrawRules().to_dict() == DEFAULTS
    assert default_rules() == DEFAULTS
    assert DrawRules.from_dict(None) == DrawRules()


def test_overrides_merge_onto_a_base_and_round_trip() -> None:
    table = parse_rules({"max_raises": 4, "rake": {"kind": "percent", "percent": 2.5, "cap": 300}})
    assert table["rake"] == {
        "kind": "percent",
        "amount": 0,
        "percent": 2.5,
        "cap": 300,
        "no_draw_no_drop": True,
    }
    hand = parse_rules({"heads_up_uncapped": True}, base=table)
    assert (hand["max_raises"], hand["heads_up_uncapped"], hand["rake"]["cap"]) == (4, True, 300)
    rules = DrawRules.from_dict(hand)
    assert rules.rake == Rake(RakeKind.PERCENT, 0, 250, 300, True)
    assert DrawRules.from_dict(rules.to_dict()) == rules
    # The rake object replaces the base rake whole.
    assert parse_rules({"rake": {"kind": "fixed", "amount": 50}}, base=table)["rake"] == {
        "kind": "fixed",
        "amount": 50,
        "percent": 0,
        "cap": None,
        "no_draw_no_drop": True,
    }


@pytest.mark.parametrize(
    ("short", "full"),
    [
        (None, Rake()),
        ({"fixed": 50}, Rake(RakeKind.FIXED, amount=50)),
        ({"amount": 50, "no_draw_no_drop": False}, Rake(RakeKind.FIXED, 50, no_draw_no_drop=False)),
        ({"percent": 5, "cap": 300}, Rake(RakeKind.PERCENT, basis_points=500, cap=300)),
    ],
    ids=["null", "fixed", "amount", "percent"],
)
def test_short_rake_forms_name_the_kind_by_their_keys(short: Any, full: Rake) -> None:
    assert DrawRules.from_dict({"rake": short}).rake == full
    assert parse_rules({"rake": short})["rake"]["kind"] == str(full.kind)


def test_every_bad_setting_is_named() -> None:
    with pytest.raises(RuleError) as error:
        DrawRules.from_dict(
            {
                "max_raises": 0,
                "heads_up_uncapped": "yes",
                "smallest_chip": 25,
                "rake": {"kind": "percent", "percent": 1.234, "cap": 310, "drop": 1},
                "colour": "red",
            }
        )
    assert problems(error) == [
        ("rules.colour", "unknown rules setting 'colour'"),
        ("rules.max_raises", "max raises must be a whole number from 1 to 100, got 0"),
        ("rules.heads_up_uncapped", "heads up uncapped must be true or false"),
        ("rules.rake.drop", "unknown rake setting 'drop'"),
        (
            "rules.rake.percent",
            "rake percent must be a number from 0.01 to 100 with at most two decimals, got 1.234",
        ),
        ("rules.rake.cap", "rake cap 310 is not a multiple of the smallest chip 25"),
    ]


@pytest.mark.parametrize(
    ("rake", "path"),
    [
        ({"kind": "fixed"}, "rules.rake.amount"),
        ({"kind": "percent"}, "rules.rake.percent"),
        ({"kind": "percent", "percent": 101}, "rules.rake.percent"),
        ({"kind": "tip"}, "rules.rake.kind"),
        ({"kind": "fixed", "amount": 50, "no_draw_no_drop": "no"}, "rules.rake.no_draw_no_drop"),
        ("5%", "rules.rake"),
        ({"fixed": 50, "percent": 5}, "rules.rake"),
    ],
    ids=[
        "fixed without amount",
        "percent without percent",
        "over 100",
        "kind",
        "flag",
        "text",
        "fixed and percent",
    ],
)
def test_bad_rake(rake: Any, path: str) -> None:
    with pytest.raises(RuleError) as error:
        parse_rules({"rake": rake})
    assert [p for p, _ in problems(error)] == [path]


def test_rules_built_in_python_are_checked_too() -> None:
    with pytest.raises(RuleError):
        DrawRules(max_raises=0)
    with pytest.raises(RuleError):
        DrawRules(rake=Rake(RakeKind.FIXED, amount=0))


def test_evaluate_takes_rules_objects_or_json_overrides() -> None:
    assert evaluate(HEADS_UP).seat(1).net == 200  # flush beats full house
    off = DrawRules(flush_beats_full_house=False)
    assert evaluate(HEADS_UP, off).seat(1).net == -200
    assert evaluate(HEADS_UP, {"flush_beats_full_house": False}).rules == off.to_dict()


def test_the_registry_serves_the_game() -> None:
    engine = registry()[GAME_CODE]
    assert (engine.code, engine.name) == ("five-card-draw-7a", "Five Card Draw 7-A")
    assert engine.default_rules() == DEFAULTS
    assert engine.parse_rules({"max_raises": 4})["max_raises"] == 4
    result = engine.evaluate(HEADS_UP, {"rake": {"kind": "fixed", "amount": 20}})
    assert result.to_dict()["rake"] == 20 and result.game == "five-card-draw-7a"
    assert registry()["high-card-flush"].code == "high-card-flush"  # the existing entry stays
