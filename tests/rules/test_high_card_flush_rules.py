"""High Card Flush rules options: defaults, JSON round trip, merging and validation."""

from __future__ import annotations

from typing import Any

import pytest

from casino.rules.errors import RuleError
from casino.rules.high_card_flush import (
    Coverage,
    PayTable,
    RakeBand,
    RakeSchedule,
    RakeScheme,
    Rules,
    default_rules,
    parse_rules,
)
from tests.rules.helpers import problems

DEFAULTS: dict[str, Any] = {
    "coverage": "running",
    "rake": {"scheme": "per_player", "amount": 0, "bands": []},
    "flush_paytable": {"7": 200, "6": 50, "5": 10, "4": 2},
    "straight_flush_paytable": {"7": 1000, "6": 500, "5": 100, "4": 60, "3": 8},
    "max_payout_per_hand": None,
    "ante_min": None,
    "ante_max": None,
    "bank_min": None,
    "bank_max": None,
    "max_players": 6,
    "smallest_chip": 1,
    "qualify_length": 3,
    "qualify_high_rank": 9,
    # Clause 17: at most two hands in a row; two holders in any 40 minutes.
    "rotation_policy": {"max_consecutive": 2, "window_minutes": 40, "min_distinct": 2},
}


def test_defaults_are_the_brief_s() -> None:
    assert Rules().to_dict() == DEFAULTS
    assert default_rules() == DEFAULTS
    assert Rules.from_dict(None) == Rules()
    assert Rules().flush_paytable[7] == 200 and Rules().straight_flush_paytable[3] == 8


def test_overrides_merge_onto_defaults_and_round_trip() -> None:
    rules = Rules.from_dict(
        {
            "coverage": "original_bank",
            "rake": {
                "scheme": "dp_only",
                "bands": [{"up_to": 1000, "amount": 50}, {"up_to": None, "amount": 100}],
            },
            "flush_paytable": {"7": 300, "5": 10},
            "max_payout_per_hand": 100_000,
            "ante_min": 500,
            "ante_max": 5000,
            "bank_min": 5000,
            "max_players": 4,
            "smallest_chip": 25,
        }
    )
    assert rules.coverage is Coverage.ORIGINAL_BANK
    assert rules.rake == RakeSchedule(
        RakeScheme.DP_ONLY, 0, (RakeBand(1000, 50), RakeBand(None, 100))
    )
    assert rules.flush_paytable == PayTable({7: 300, 5: 10})
    assert rules.straight_flush_paytable == Rules().straight_flush_paytable
    assert Rules.from_dict(rules.to_dict()) == rules
    assert hash(Rules.from_dict(rules.to_dict())) == hash(rules)


def test_overrides_merge_onto_a_base_table() -> None:
    base = {"ante_min": 500, "ante_max": 5000, "rake": {"amount": 100}}
    merged = parse_rules({"ante_max": 10_000}, base)
    assert merged["ante_min"] == 500
    assert merged["ante_max"] == 10_000
    assert merged["rake"] == {"scheme": "per_player", "amount": 100, "bands": []}
    assert Rules.from_dict({"ante_max": 10_000}, Rules.from_dict(base)).to_dict() == merged


def test_a_nested_override_replaces_the_base_object_whole() -> None:
    base = Rules.from_dict({"rake": {"scheme": "dp_only", "amount": 100}})
    rules = Rules.from_dict({"rake": {"bands": [{"up_to": None, "amount": 5}]}}, base)
    assert rules.rake == RakeSchedule(RakeScheme.PER_PLAYER, 0, (RakeBand(None, 5),))
    assert Rules.from_dict({"flush_paytable": {"7": 200}}).flush_paytable == PayTable({7: 200})


def test_paytable_accepts_int_keys_from_python_callers() -> None:
    assert Rules.from_dict({"flush_paytable": {7: 250}}).to_dict()["flush_paytable"] == {"7": 250}


@pytest.mark.parametrize(
    ("data", "path", "message"),
    [
        ({"colour": "red"}, "rules.colour", "unknown rules setting 'colour'"),
        (
            {"coverage": "whatever"},
            "rules.coverage",
            "coverage 'whatever' is not one of running, original_bank",
        ),
        (
            {"rake": {"scheme": "per_hand"}},
            "rules.rake.scheme",
            "rake scheme 'per_hand' is not one of per_player, per_player_except_dp, dp_only",
        ),
        (
            {"rake": {"amount": -1}},
            "rules.rake.amount",
            "rake amount must be a whole number of at least 0, got -1",
        ),
        (
            {"rake": {"amount": 1.5}},
            "rules.rake.amount",
            "rake amount must be a whole number of at least 0, got 1.5",
        ),
        ({"rake": {"fee": 1}}, "rules.rake.fee", "unknown rake setting 'fee'"),
        (
            {"rake": 100},
            "rules.rake",
            'rake must be an object such as {"scheme": ..., "amount": ...}',
        ),
        (
            {"rake": {"amount": 5, "bands": [{"up_to": None, "amount": 5}]}},
            "rules.rake",
            "give the rake either as one amount or as bands by ante, not both",
        ),
        (
            {"rake": {"bands": [{"up_to": 1000, "amount": 5}, {"up_to": 500, "amount": 10}]}},
            "rules.rake.bands[1].up_to",
            "rake bands must go up: 500 is not above 1000",
        ),
        (
            {"rake": {"bands": [{"up_to": None, "amount": 5}, {"up_to": 500, "amount": 10}]}},
            "rules.rake.bands[0].up_to",
            "only the last rake band may be open-ended",
        ),
        (
            {"rake": {"bands": [{"up_to": 0, "amount": 5}]}},
            "rules.rake.bands[0].up_to",
            "rake band up_to must be a positive whole number, got 0",
        ),
        (
            {"rake": {"bands": [{"amount": 5}]}},
            "rules.rake.bands[0].up_to",
            "rake band needs up_to (an ante, or null for no limit)",
        ),
        (
            {"flush_paytable": {"3": 1}},
            "rules.flush_paytable.3",
            "flush pay table lines are for 4 to 7 cards, not 3",
        ),
        (
            {"straight_flush_paytable": {"2": 1}},
            "rules.straight_flush_paytable.2",
            "straight flush pay table lines are for 3 to 7 cards, not 2",
        ),
        (
            {"flush_paytable": {"7": 0}},
            "rules.flush_paytable.7",
            "flush pay table odds must be a whole number of at least 1 (200 for 200:1), got 0",
        ),
        (
            {"flush_paytable": {"7": "200:1"}},
            "rules.flush_paytable.7",
            "flush pay table odds must be a whole number of at least 1 (200 for 200:1), got '200:1'",
        ),
        (
            {"flush_paytable": {"seven": 200}},
            "rules.flush_paytable.seven",
            "flush pay table line 'seven' is not a number of cards",
        ),
        (
            {"flush_paytable": [200, 50]},
            "rules.flush_paytable",
            'the flush pay table must be an object such as {"7": 200}',
        ),
        (
            {"ante_min": 500, "ante_max": 100},
            "rules.ante_max",
            "ante maximum 100 is below the ante minimum 500",
        ),
        (
            {"bank_min": 5000, "bank_max": 1000},
            "rules.bank_max",
            "bank maximum 1000 is below the bank minimum 5000",
        ),
        (
            {"ante_min": 0},
            "rules.ante_min",
            "ante min must be a whole number of at least 1 or null, got 0",
        ),
        (
            {"max_players": 7},
            "rules.max_players",
            "max players must be a whole number of at least 1 and at most 6, got 7",
        ),
        (
            {"smallest_chip": True},
            "rules.smallest_chip",
            "smallest chip must be a whole number of at least 1, got True",
        ),
        (
            {"smallest_chip": 25, "max_payout_per_hand": 1010},
            "rules.max_payout_per_hand",
            "maximum payout 1010 is not a multiple of the smallest chip 25",
        ),
        (
            {"smallest_chip": 25, "rake": {"amount": 10}},
            "rules.rake.amount",
            "rake amount 10 is not a multiple of the smallest chip 25",
        ),
        (
            {"qualify_high_rank": 15},
            "rules.qualify_high_rank",
            "qualify high rank must be a whole number of at least 2 and at most 14, got 15",
        ),
    ],
)
def test_bad_rules_are_rejected_with_path_and_message(
    data: dict[str, Any], path: str, message: str
) -> None:
    with pytest.raises(RuleError) as error:
        Rules.from_dict(data)
    assert problems(error) == [(path, message)]


def test_every_bad_rule_is_reported_at_once() -> None:
    with pytest.raises(RuleError) as error:
        Rules.from_dict({"colour": 1, "coverage": 2, "max_players": 0, "flush_paytable": {"9": 1}})
    assert [path for path, _ in problems(error)] == [
        "rules.colour",
        "rules.coverage",
        "rules.flush_paytable.9",
        "rules.max_players",
    ]


def test_a_changed_chip_invalidates_the_base_rake() -> None:
    with pytest.raises(RuleError) as error:
        Rules.from_dict({"smallest_chip": 25}, {"rake": {"amount": 10}})
    assert problems(error)[0][0] == "rules.rake.amount"


@pytest.mark.parametrize("data", ["running", [1], 5])
def test_rules_must_be_an_object(data: Any) -> None:
    with pytest.raises(RuleError) as error:
        Rules.from_dict(data)
    assert problems(error) == [("rules", "rules must be an object of settings")]


def test_rules_built_in_python_are_checked_too() -> None:
    with pytest.raises(RuleError) as error:
        Rules(max_players=9, smallest_chip=0)
    assert {path for path, _ in problems(error)} == {"rules.max_players", "rules.smallest_chip"}


def test_rules_built_in_python_accept_plain_values() -> None:
    rules = Rules(coverage="original_bank", flush_paytable={7: 250})  # type: ignore[arg-type]
    assert rules.coverage is Coverage.ORIGINAL_BANK
    assert rules.to_dict()["flush_paytable"] == {"7": 250}
    assert rules == Rules.from_dict({"coverage": "original_bank", "flush_paytable": {"7": 250}})


def test_rake_fee_for_an_ante() -> None:
    banded = RakeSchedule(bands=(RakeBand(1000, 50), RakeBand(5000, 100)))
    assert [banded.fee_for(ante) for ante in (1, 1000, 1001, 5000, 5001)] == [
        50,
        50,
        100,
        100,
        None,
    ]
    assert RakeSchedule(amount=75).fee_for(10**9) == 75


def test_paytable_pays_the_highest_line_not_above_the_length() -> None:
    table = PayTable({7: 200, 5: 10})
    assert table.line_for(7) == (7, 200)
    assert table.line_for(6) == (5, 10)
    assert table.line_for(4) is None
    assert table.lowest == 5 and PayTable().lowest is None
    assert list(table) == [7, 5] and len(table) == 2
    assert table == {7: 200, 5: 10}
