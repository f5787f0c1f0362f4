"""Palace Poker's rake (option ``rake``, clause 13c of docs/rules/palace-poker.md): none by
default; when a table sets one it comes out of the pot before the pot is shared, is charged
to the winners like the pot itself, is named in the explanation, and chips are still
conserved (the stacks after the hand and the rake add up to the stacks before it)."""

from __future__ import annotations

from typing import Any

import pytest

from casino.rules.contract import registry
from casino.rules.errors import RuleError
from casino.rules.palace_poker import PalaceRules, evaluate, parse_rules
from casino.rules.rake import RakeKind, RakeSchedule
from casino.rules.settlement import Settlement
from tests.rules.palace_helpers import (
    FOUR,
    battle,
    buy,
    call,
    fold,
    four,
    nets,
    player,
    problems,
    raise_,
    record,
    stay,
)

# The worked example of docs/rules/palace-poker.md: seat 1 takes a pot of 5500.
EXAMPLE = [
    buy(1, "Kh"),
    stay(2),
    buy(3, "9c"),
    stay(4),
    battle(1, 2, 1000),
    raise_(2, 1000),
    call(1),
    stay(3),
    stay(4),
    stay(1),
]
CLAUSE = " (rule 13 (“Last player standing; the pot”))."


def conserved(settlement: Settlement, data: dict[str, Any]) -> None:
    settlement.check_conserved()
    assert sum(seat.net for seat in settlement.seats) + settlement.rake == 0
    before = sum(p["stack"] for p in data["players"])
    after = sum(seat.extra["stack_after"] for seat in settlement.seats)
    assert after + settlement.rake == before


def test_the_rake_defaults_to_none() -> None:
    assert PalaceRules().rake == RakeSchedule()
    settlement = evaluate(four(EXAMPLE))
    assert settlement.rake == 0
    assert not any("Rake" in line for line in settlement.explanation)


def test_a_percentage_with_a_cap_is_taken_from_the_pot_and_charged_to_the_winner() -> None:
    data = four(EXAMPLE)
    settlement = evaluate(data, {"rake": {"percent": 5, "cap": 250}})
    conserved(settlement, data)
    # 5% of 5500 is 275, capped at 250.
    assert settlement.rake == 250
    winner = settlement.seat(1)
    assert (winner.lines[0].amount, winner.rake, winner.net) == (2750, 250, 2500)
    assert winner.extra["stack_after"] == 22_500
    assert nets(settlement) == {1: 2500, 2: -1750, 3: -750, 4: -250}
    assert settlement.explanation[3:6] == (
        "Seat 1 wins the pot of 5500 less the rake of 250 (5250).",
        "Rake 250 (5% of the pot, capped at 250), taken from the pot of 5500 before it is "
        "shared and charged to the winner, seat 1" + CLAUSE,
        "Seat 1: put in 2750, takes 5250 after rake 250; net +2500.",
    )


@pytest.mark.parametrize(
    ("rake", "taken"),
    [
        ({"fixed": 100}, 100),
        ({"bands": [{"up_to": 2000, "amount": 50}, {"up_to": None, "amount": 150}]}, 150),
        ({"kind": "percent", "percent": 1}, 55),
    ],
    ids=["fixed", "banded by the pot", "percent"],
)
def test_every_kind_of_rake(rake: dict[str, Any], taken: int) -> None:
    data = four(EXAMPLE)
    settlement = evaluate(data, {"rake": rake})
    conserved(settlement, data)
    assert settlement.rake == settlement.seat(1).rake == taken
    assert settlement.seat(1).net == 2750 - taken
    assert f"Rake {taken} (" in settlement.explanation[4]


def test_a_percentage_is_rounded_down_to_the_smallest_chip() -> None:
    # The last standing: pot 4 x 250 + 500 = 1500; 3% is 45, 25 in 25-chips.
    data = four([buy(1, "Kh"), fold(2), fold(3), fold(4)])
    settlement = evaluate(data, {"smallest_chip": 25, "rake": {"percent": 3}})
    conserved(settlement, data)
    assert settlement.rake == 25 and nets(settlement)[1] == 750 - 25


def test_split_pots_share_the_rake_like_the_pot() -> None:
    # Seats 1 and 5 both carry hearts: once 2, 3 and 4 fold they split the pot of 1750.
    five = (*FOUR, player(5, "3h", "5d 6d 7d"))
    data = record(*five, dealer=5, actions=[buy(1, "Kh"), fold(2), fold(3), fold(4)])
    settlement = evaluate(data, {"rake": {"fixed": 101}})
    conserved(settlement, data)
    assert settlement.to_dict()["ending"] == "shared_suit"
    # 1649 is paid: 825 and 824; the rake of 101: 51 and 50, odd chips to seat 1.
    assert {seat: settlement.seat(seat).rake for seat in (1, 5)} == {1: 51, 5: 50}
    assert nets(settlement) == {1: 825 - 750, 2: -250, 3: -250, 4: -250, 5: 824 - 250}
    assert (
        "split the pot of 1750 less the rake of 101 (1649): seat 1 825, seat 5 824"
        in (settlement.explanation[-7])
    )
    assert settlement.explanation[-6].endswith(
        "charged to the winners: seat 1 51, seat 5 50" + CLAUSE
    )


def test_a_zero_ante_hand_with_a_fixed_fee_above_the_pot() -> None:
    # Nothing but the battle money is in the pot: 500 + 500; the fee of 5000 takes it all.
    tied = (player(1, "7h", "Ad Kc Qd"), player(2, "7s", "Ac Kd Qc"))
    data = record(*tied, dealer=2, ante=0, actions=[battle(1, 2, 500), call(2)])
    settlement = evaluate(data, {"ante": 0, "rake": {"fixed": 5000}})
    conserved(settlement, data)
    assert settlement.rake == 1000 and nets(settlement) == {1: -500, 2: -500}


def test_rake_settings_are_checked_with_their_paths() -> None:
    assert parse_rules({"rake": {"percent": 5, "cap": 300}})["rake"] == {
        "kind": "percent",
        "amount": 0,
        "bands": [],
        "percent": 5,
        "cap": 300,
    }
    with pytest.raises(RuleError) as error:
        parse_rules({"smallest_chip": 5, "rake": {"kind": "tip", "amount": 7}})
    assert problems(error) == [
        ("rules.rake.kind", "rake kind 'tip' is not one of none, fixed, banded, percent"),
        ("rules.rake.amount", "rake amount 7 is not a multiple of the smallest chip 5"),
    ]
    with pytest.raises(RuleError) as error:
        parse_rules({"rake": {"bands": [{"up_to": 500, "amount": 25}]}})
    assert [path for path, _ in problems(error)] == ["rules.rake.bands[0].up_to"]


def test_python_built_rules_round_to_their_own_chip() -> None:
    rules = PalaceRules(rake=RakeSchedule(RakeKind.PERCENT, basis_points=300), smallest_chip=25)
    assert rules.rake.chip == 25 and PalaceRules.from_dict(rules.to_dict()) == rules


def test_a_table_rake_reaches_the_hand() -> None:
    engine = registry()["palace-poker"]
    limits = {"structure": "limit", "small_bet": 500, "big_bet": 1000}
    rules = engine.hand_rules(limits, 25, {"rake": {"percent": 5, "cap": 250}})
    assert rules["rake"]["cap"] == 250 and rules["smallest_chip"] == 25
    assert engine.evaluate(four(EXAMPLE), rules).rake == 250
