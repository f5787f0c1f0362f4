"""Designated-player rotation policy (brief clauses 15-17), pure functions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from casino.rules.errors import RuleError
from casino.rules.high_card_flush.rotation import (
    Holding,
    RotationPolicy,
    check_may_hold,
    consecutive_holdings,
    next_seat_clockwise,
    offer_round,
)

NOW = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)


def ago(minutes: int) -> datetime:
    return NOW - timedelta(minutes=minutes)


@pytest.mark.parametrize(
    ("seats", "after", "expected"),
    [
        ([1, 2, 4, 6], 2, 4),
        ([1, 2, 4, 6], 6, 1),
        ([1, 2, 4, 6], 3, 4),
        ([3], 3, 3),
        ([2, 5], None, 2),
        ([], 1, None),
    ],
)
def test_clause_15_offers_go_clockwise(seats, after, expected):
    assert next_seat_clockwise(seats, after) == expected


def test_clause_16_an_offer_round_visits_every_seat_once_starting_at_the_first():
    assert offer_round([1, 3, 5, 6], 5) == [5, 6, 1, 3]


def test_consecutive_holdings_counts_the_latest_run():
    history = [Holding(ago(30), 1), Holding(ago(20), 2), Holding(ago(10), 2)]
    assert consecutive_holdings(history, 2) == 2
    assert consecutive_holdings(history, 1) == 0


def test_clause_17_consecutive_cap_names_the_rule():
    history = [Holding(ago(10), 3), Holding(ago(5), 3)]
    with pytest.raises(
        RuleError, match=r"2 hands in a row.*at most 2.*rule 17 \(“Rotation policy”\)"
    ):
        check_may_hold(RotationPolicy(), seat=3, history=history, now=NOW)
    check_may_hold(RotationPolicy(max_consecutive=3), seat=3, history=history, now=NOW)
    check_may_hold(RotationPolicy(), seat=4, history=history, now=NOW)


def test_clause_17_window_is_not_enforced_before_the_table_has_dealt_a_whole_window():
    history = [Holding(ago(39), 1)]
    check_may_hold(RotationPolicy(max_consecutive=9), seat=1, history=history, now=NOW)


def test_clause_17_one_holder_for_a_whole_window_is_refused():
    history = [Holding(ago(45), 1), Holding(ago(25), 1), Holding(ago(5), 1)]
    policy = RotationPolicy(max_consecutive=9)
    with pytest.raises(RuleError, match=r"held by 1 player\(s\).*at least 2"):
        check_may_hold(policy, seat=1, history=history, now=NOW)
    check_may_hold(policy, seat=2, history=history, now=NOW)


def test_clause_17_the_holder_at_the_start_of_the_window_counts():
    history = [Holding(ago(45), 2), Holding(ago(25), 1)]
    check_may_hold(RotationPolicy(max_consecutive=9), seat=1, history=history, now=NOW)
    with pytest.raises(RuleError, match="at least 3"):
        check_may_hold(
            RotationPolicy(max_consecutive=9, min_distinct=3), seat=1, history=history, now=NOW
        )


def test_policy_from_dict_validates_and_round_trips():
    policy = RotationPolicy.from_dict({"max_consecutive": 3, "window_minutes": 60})
    assert RotationPolicy.from_dict(policy.to_dict()) == policy
    with pytest.raises(RuleError) as error:
        RotationPolicy.from_dict({"max_consecutive": 0, "window": 5, "min_distinct": True})
    paths = {p.path for p in error.value.problems}
    assert paths == {
        "rotation_policy.max_consecutive",
        "rotation_policy.window",
        "rotation_policy.min_distinct",
    }
