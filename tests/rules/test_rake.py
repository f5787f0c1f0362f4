"""The shared rake schedule (``casino/rules/rake.py``): each kind's fee, bands and their
closed top, a percentage rounded down to the chip and capped, raking a main pot and side
pots, the JSON forms and every problem at its path."""

from __future__ import annotations

from typing import Any

import pytest

from casino.rules import five_card_draw, high_card_flush
from casino.rules.errors import Problems, RuleError
from casino.rules.options import MAX_AMOUNT
from casino.rules.rake import RakeBand, RakeKind, RakeSchedule, parse_rake, rake_words
from tests.rules.helpers import problems

BANDS = (RakeBand(1000, 0), RakeBand(5000, 50), RakeBand(None, 100))
BANDED = RakeSchedule(RakeKind.BANDED, bands=BANDS)
CLOSED = RakeSchedule(RakeKind.BANDED, bands=(RakeBand(1000, 50), RakeBand(5000, 100)))


def schedule(data: Any, **options: Any) -> RakeSchedule:
    return RakeSchedule.from_dict(data, **options)


def refused(data: Any, **options: Any) -> list[tuple[str, str]]:
    with pytest.raises(RuleError) as error:
        RakeSchedule.from_dict(data, **options)
    return problems(error)


# --------------------------------------------------------------------------- each kind


def test_no_rake_takes_nothing() -> None:
    none = RakeSchedule()
    assert none.kind is RakeKind.NONE
    assert [none.fee(base) for base in (0, 1, 10**12)] == [0, 0, 0]
    assert none.take([500, 300]) == [0, 0]
    assert not none.charges and none.words() == "no rake"


def test_a_fixed_fee_is_the_amount_whatever_the_base() -> None:
    fixed = RakeSchedule(RakeKind.FIXED, amount=75)
    assert [fixed.fee(base) for base in (0, 1, 10**9)] == [75, 75, 75]
    assert fixed.charges and fixed.words() == "a fixed 75 per hand"


def test_bands_give_the_first_band_whose_top_is_at_least_the_base() -> None:
    bases = (0, 1, 1000, 1001, 5000, 5001, 10**12)
    assert [BANDED.fee(base) for base in bases] == [0, 0, 0, 50, 50, 100, 100]
    assert BANDED.band_for(1000) == RakeBand(1000, 0)
    assert BANDED.covers(10**12) and BANDED.top is None
    assert BANDED.words() == "by the pot: 0 up to 1000, 50 up to 5000, 100 above 5000"
    only = RakeSchedule(RakeKind.BANDED, bands=(RakeBand(None, 20),))
    assert only.fee(7) == 20 and only.words(of="the ante") == "by the ante: 20 at any size"


def test_a_base_above_a_closed_top_band_has_no_fee() -> None:
    assert CLOSED.top == 5000
    assert CLOSED.fee(5000) == 100 and CLOSED.covers(5000)
    assert not CLOSED.covers(5001) and CLOSED.band_for(5001) is None
    with pytest.raises(
        RuleError, match=r"5001 is above the rake schedule's top band \(up to 5000\)"
    ):
        CLOSED.fee(5001)


def test_bands_that_charge_nothing_do_not_charge() -> None:
    free = RakeSchedule(RakeKind.BANDED, bands=(RakeBand(100, 0), RakeBand(None, 0)))
    assert not free.charges and BANDED.charges


def test_a_percentage_is_rounded_down_to_the_smallest_chip() -> None:
    five = RakeSchedule(RakeKind.PERCENT, basis_points=500)
    assert [five.fee(base) for base in (0, 19, 20, 39, 40, 1990)] == [0, 0, 1, 1, 2, 99]
    by_quarter = RakeSchedule(RakeKind.PERCENT, basis_points=500, chip=25)
    # 5% of 1990 is 99.5: 75 in 25-chips; 5% of 499 is 24.95: nothing.
    assert [by_quarter.fee(base) for base in (499, 500, 1990, 2000)] == [0, 25, 75, 100]
    half = RakeSchedule(RakeKind.PERCENT, basis_points=250)
    assert (half.percent, half.fee(1000), half.fee(1039)) == (2.5, 25, 25)
    assert RakeSchedule(RakeKind.PERCENT, basis_points=10_000).fee(123) == 123


def test_a_percentage_stops_at_its_cap() -> None:
    capped = RakeSchedule(RakeKind.PERCENT, basis_points=500, cap=300)
    assert [capped.fee(base) for base in (5999, 6000, 6020, 10**12)] == [299, 300, 300, 300]
    assert capped.words() == "5% of the pot, capped at 300"
    assert capped.words(of="each pot") == "5% of each pot, capped at 300"
    assert RakeSchedule(RakeKind.PERCENT, basis_points=500).words() == "5% of the pot"


def test_a_negative_base_is_a_defect() -> None:
    with pytest.raises(ValueError, match="negative"):
        RakeSchedule(RakeKind.FIXED, amount=5).fee(-1)


# --------------------------------------------------------------------------- pots


def test_a_fixed_fee_comes_from_the_main_pot_then_the_side_pots_and_never_more() -> None:
    fixed = RakeSchedule(RakeKind.FIXED, amount=100)
    assert fixed.take([500, 300]) == [100, 0]
    assert fixed.take([60, 30, 30]) == [60, 30, 10]
    assert fixed.take([60, 30]) == [60, 30]  # a pot of 90 pays 90
    assert fixed.take([]) == []


def test_bands_go_by_the_pots_total() -> None:
    assert BANDED.take([900, 200]) == [50, 0]  # 1100 in all: the 50 band
    assert BANDED.take([30, 20]) == [0, 0]


def test_a_percentage_rakes_each_pot_until_the_cap() -> None:
    capped = RakeSchedule(RakeKind.PERCENT, basis_points=1000, cap=150, chip=5)
    # 10% of 1000 = 100; of 1000 = 100, but only 50 is left under the cap; of 99 = 9.9 -> 5.
    assert capped.take([1000, 1000, 99]) == [100, 50, 0]
    assert capped.take([99, 1000]) == [5, 100]
    assert RakeSchedule(RakeKind.PERCENT, basis_points=1000).take([99, 99]) == [9, 9]


def test_the_explanation_names_the_rake_and_who_pays_it() -> None:
    assert rake_words(15, "5% of the pot", 300, {2: 15}) == (
        "Rake 15 (5% of the pot), taken from the pot of 300 before it is shared and "
        "charged to the winner, seat 2"
    )
    assert rake_words(15, "a fixed 15 per hand", 300, {3: 10, 1: 5}).endswith(
        "charged to the winners: seat 3 10, seat 1 5"
    )
    assert rake_words(0, "5% of the pot", 10, {1: 0}) == (
        "Rake 0 (5% of the pot): nothing is taken from the pot of 10"
    )


# --------------------------------------------------------------------------- JSON


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (None, RakeSchedule()),
        ({}, RakeSchedule()),
        ({"kind": "none"}, RakeSchedule()),
        ({"kind": "fixed", "amount": 50}, RakeSchedule(RakeKind.FIXED, amount=50)),
        ({"fixed": 50}, RakeSchedule(RakeKind.FIXED, amount=50)),
        ({"amount": 50}, RakeSchedule(RakeKind.FIXED, amount=50)),
        (
            {
                "bands": [
                    {"up_to": 1000, "amount": 0},
                    {"up_to": 5000, "amount": 50},
                    {"up_to": None, "amount": 100},
                ]
            },
            BANDED,
        ),
        (
            {"kind": "percent", "percent": 5, "cap": 300},
            RakeSchedule(RakeKind.PERCENT, basis_points=500, cap=300),
        ),
        ({"percent": "2.5"}, RakeSchedule(RakeKind.PERCENT, basis_points=250)),
        ({"percent": 0.01}, RakeSchedule(RakeKind.PERCENT, basis_points=1)),
    ],
    ids=[
        "null",
        "empty",
        "none",
        "fixed",
        "fixed short",
        "amount",
        "bands",
        "percent",
        "text",
        "least",
    ],
)
def test_every_form_reads_and_round_trips(data: Any, expected: RakeSchedule) -> None:
    read = schedule(data)
    assert read == expected
    assert schedule(read.to_dict()) == read
    assert schedule(read) == read


def test_to_dict_writes_every_key() -> None:
    assert RakeSchedule().to_dict() == {
        "kind": "none",
        "amount": 0,
        "bands": [],
        "percent": 0,
        "cap": None,
    }
    assert RakeSchedule(RakeKind.PERCENT, basis_points=250, cap=300).to_dict() == {
        "kind": "percent",
        "amount": 0,
        "bands": [],
        "percent": 2.5,
        "cap": 300,
    }
    assert BANDED.to_dict()["bands"] == [
        {"up_to": 1000, "amount": 0},
        {"up_to": 5000, "amount": 50},
        {"up_to": None, "amount": 100},
    ]


def test_keys_another_kind_reads_are_kept_but_not_used() -> None:
    fixed = schedule({"kind": "fixed", "amount": 50, "percent": 5, "cap": 100})
    assert (fixed.fee(10_000), fixed.basis_points, fixed.cap) == (50, 500, 100)
    assert schedule(fixed.to_dict()) == fixed


def test_the_chip_comes_from_the_table_not_the_json() -> None:
    read = schedule({"percent": 5}, chip=25)
    assert read.chip == 25 and "chip" not in read.to_dict()
    assert read.fee(1990) == 75


def test_a_game_may_offer_fewer_kinds_and_keys_of_its_own() -> None:
    kinds = (RakeKind.NONE, RakeKind.FIXED, RakeKind.PERCENT)
    assert refused({"kind": "banded", "bands": []}, kinds=kinds) == [
        ("rules.rake.bands", "unknown rake setting 'bands'"),
        ("rules.rake.kind", "rake kind 'banded' is not one of none, fixed, percent"),
    ]
    assert refused({"fixed": 5, "percent": 5}, kinds=kinds) == [
        ("rules.rake", "give the rake either as a fixed amount or a percent"),
    ]
    found = Problems()
    read = parse_rake({"amount": 5, "flag": True}, found, kinds=kinds, extra_keys=("flag",))
    assert not found and read == RakeSchedule(RakeKind.FIXED, amount=5)


def test_the_last_band_may_be_required_open() -> None:
    closed = {"bands": [{"up_to": 1000, "amount": 10}]}
    assert schedule(closed).top == 1000
    assert refused(closed, open_top=True) == [
        (
            "rules.rake.bands[0].up_to",
            "the last rake band must be open-ended (up_to null): the pot may grow past 1000",
        )
    ]
    assert schedule({"bands": [{"up_to": None, "amount": 10}]}, open_top=True).top is None


@pytest.mark.parametrize(
    ("data", "path", "message"),
    [
        (
            "5%",
            "rules.rake",
            'rake must be an object such as {"kind": "percent", "percent": 5, "cap": 300}',
        ),
        ({"fee": 5}, "rules.rake.fee", "unknown rake setting 'fee'"),
        (
            {"kind": "tip"},
            "rules.rake.kind",
            "rake kind 'tip' is not one of none, fixed, banded, percent",
        ),
        (
            {"fixed": 25, "amount": 25},
            "rules.rake.fixed",
            "give the fixed rake as fixed or amount, not both",
        ),
        (
            {"amount": 25, "bands": [{"up_to": None, "amount": 25}]},
            "rules.rake",
            "give the rake either as a fixed amount, bands or a percent",
        ),
        (
            {"kind": "fixed"},
            "rules.rake.amount",
            "rake amount must be a whole number of at least 1, got 0",
        ),
        (
            {"amount": -5},
            "rules.rake.amount",
            "rake amount must be a whole number of at least 1, got -5",
        ),
        (
            {"amount": 1.5},
            "rules.rake.amount",
            "rake amount must be a whole number of at least 1, got 1.5",
        ),
        (
            {"amount": True},
            "rules.rake.amount",
            "rake amount must be a whole number of at least 1, got True",
        ),
        (
            {"amount": 30},
            "rules.rake.amount",
            "rake amount 30 is not a multiple of the smallest chip 25",
        ),
        ({"kind": "banded"}, "rules.rake.bands", "a banded rake needs at least one band"),
        ({"bands": []}, "rules.rake.bands", "a banded rake needs at least one band"),
        ({"bands": "50"}, "rules.rake.bands", 'rake bands must be a list of {"up_to", "amount"}'),
        (
            {"bands": [50]},
            "rules.rake.bands[0]",
            'a rake band must be an object such as {"up_to": 1000, "amount": 50}',
        ),
        (
            {"bands": [{"up_to": None, "amount": 0, "fee": 1}]},
            "rules.rake.bands[0].fee",
            "unknown rake band setting 'fee'",
        ),
        (
            {"bands": [{"amount": 25}]},
            "rules.rake.bands[0].up_to",
            "rake band needs up_to (a pot, or null for no limit)",
        ),
        ({"bands": [{"up_to": None}]}, "rules.rake.bands[0].amount", "rake band needs an amount"),
        (
            {"bands": [{"up_to": 0, "amount": 25}]},
            "rules.rake.bands[0].up_to",
            "rake band up_to must be a positive whole number, got 0",
        ),
        (
            {"bands": [{"up_to": "1000", "amount": 25}]},
            "rules.rake.bands[0].up_to",
            "rake band up_to must be a positive whole number, got '1000'",
        ),
        (
            {"bands": [{"up_to": 1000, "amount": 25}, {"up_to": 1000, "amount": 50}]},
            "rules.rake.bands[1].up_to",
            "rake bands must go up: 1000 is not above 1000",
        ),
        (
            {"bands": [{"up_to": None, "amount": 25}, {"up_to": 1000, "amount": 50}]},
            "rules.rake.bands[0].up_to",
            "only the last rake band may be open-ended",
        ),
        (
            {"bands": [{"up_to": None, "amount": -25}]},
            "rules.rake.bands[0].amount",
            "rake amount must be a whole number of at least 0, got -25",
        ),
        (
            {"bands": [{"up_to": None, "amount": 10}]},
            "rules.rake.bands[0].amount",
            "rake amount 10 is not a multiple of the smallest chip 25",
        ),
        (
            {"kind": "percent"},
            "rules.rake.percent",
            "rake percent must be a number from 0.01 to 100 with at most two decimals, got 0",
        ),
        (
            {"percent": 100.5},
            "rules.rake.percent",
            "rake percent must be a number from 0.01 to 100 with at most two decimals, got 100.5",
        ),
        (
            {"percent": 1.234},
            "rules.rake.percent",
            "rake percent must be a number from 0.01 to 100 with at most two decimals, got 1.234",
        ),
        (
            {"percent": "five"},
            "rules.rake.percent",
            "rake percent must be a number from 0.01 to 100 with at most two decimals, got 'five'",
        ),
        (
            {"percent": True},
            "rules.rake.percent",
            "rake percent must be a number from 0.01 to 100 with at most two decimals, got True",
        ),
        (
            {"percent": 5, "cap": 0},
            "rules.rake.cap",
            "rake cap must be a positive whole number, got 0",
        ),
        (
            {"percent": 5, "cap": 310},
            "rules.rake.cap",
            "rake cap 310 is not a multiple of the smallest chip 25",
        ),
        (
            {"percent": 5, "cap": MAX_AMOUNT + 25},
            "rules.rake.cap",
            f"rake cap {MAX_AMOUNT + 25} is above the maximum of {MAX_AMOUNT}",
        ),
        (
            {"bands": [{"up_to": MAX_AMOUNT + 1, "amount": 0}, {"up_to": None, "amount": 25}]},
            "rules.rake.bands[0].up_to",
            f"rake bands[0] up to {MAX_AMOUNT + 1} is above the maximum of {MAX_AMOUNT}",
        ),
    ],
)
def test_every_problem_is_named_at_its_path(data: Any, path: str, message: str) -> None:
    assert refused(data, chip=25) == [(path, message)]


def test_every_problem_is_reported_at_once() -> None:
    found = refused(
        {
            "kind": "percent",
            "amount": -1,
            "percent": 0,
            "cap": "none",
            "bands": [{"up_to": 5}, {"up_to": 4, "amount": 5}],
            "colour": "red",
        }
    )
    assert [path for path, _ in found] == [
        "rules.rake.colour",
        "rules.rake.amount",
        "rules.rake.bands[0].amount",
        "rules.rake.bands[1].up_to",
        "rules.rake.percent",
        "rules.rake.cap",
    ]


def test_problems_are_reported_under_the_path_given() -> None:
    assert refused({"amount": 0, "kind": "fixed"}, path="limits.rake") == [
        ("limits.rake.amount", "rake amount must be a whole number of at least 1, got 0")
    ]


# --------------------------------------------------------------------------- the games


def test_high_card_flush_fees_are_the_shared_schedule_by_ante() -> None:
    hcf = high_card_flush.Rules.from_dict(
        {"rake": {"scheme": "dp_only", "bands": [{"up_to": 1000, "amount": 50}]}}
    ).rake
    assert hcf.schedule == RakeSchedule(RakeKind.BANDED, bands=(RakeBand(1000, 50),))
    assert (hcf.fee_for(1000), hcf.fee_for(1001)) == (50, None)
    assert high_card_flush.RakeSchedule(amount=75).schedule.fee(1) == 75
    assert high_card_flush.RakeSchedule().schedule == RakeSchedule()


def test_five_card_draw_rakes_through_the_shared_schedule() -> None:
    rules = five_card_draw.DrawRules.from_dict(
        {"smallest_chip": 5, "rake": {"percent": 5, "cap": 300}}
    )
    shared = rules.rake.schedule(rules.smallest_chip)
    assert shared == RakeSchedule(RakeKind.PERCENT, basis_points=500, cap=300, chip=5)
    assert shared.take([1990, 8000]) == [95, 205]
    assert rules.rake.words() == "5% of each pot, capped at 300 (no draw, no drop)"
