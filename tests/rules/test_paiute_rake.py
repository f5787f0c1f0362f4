"""Paiute's rake (option ``rake``, clause 8d of docs/rules/paiute.md): none by default; when
a table sets one it comes out of the pot before the pot is shared, is charged to the winners
like the pot itself, is named in the explanation, and chips are still conserved."""

from __future__ import annotations

from typing import Any

import pytest

from casino.rules.contract import registry
from casino.rules.errors import RuleError
from casino.rules.paiute import PaiuteRules, evaluate, parse_rules
from casino.rules.rake import RakeKind, RakeSchedule
from tests.rules.paiute_helpers import (
    act,
    call,
    discard,
    draw,
    live,
    nets,
    player,
    problems,
    record,
)

THREE = {1: "7c 8c 9c Jc As", 2: "Ks Kh Kd 7s 3d", 3: "2h 4h 6d 8s Td"}
# Seat 1 calls with a straight flush; seats 2 and 3 hold nothing: seat 1 takes the pot of 300.
PLAY = (
    draw(1, "3h"),
    call(1, "As"),
    draw(2, "Qc"),
    discard(2, "Qc"),
    draw(3, "Qd"),
    discard(3, "Qd"),
)
CLAUSE = " (rule 8 (“Ranking within a category, showdown and ties”))."


def settle(rake: Any, **options: Any) -> dict[str, Any]:
    hand = live(THREE, rake=PaiuteRules.from_dict({"rake": rake}).rake, **options)
    act(hand, *PLAY)
    settlement = hand.settle()
    settlement.check_conserved()
    assert sum(seat.net for seat in settlement.seats) + settlement.rake == 0
    assert evaluate(hand.to_record(), hand.rules).to_dict() == settlement.to_dict()
    return settlement.to_dict()


def test_the_rake_defaults_to_none_and_nothing_changes() -> None:
    assert PaiuteRules().rake == RakeSchedule()
    data = settle(None)
    assert data["rake"] == 0 and all(seat["rake"] == 0 for seat in data["seats"])
    assert not any("Rake" in line for line in data["explanation"])
    assert data["explanation"][-1] == (
        "Seat 1's straight flush 7-J of clubs is the best combination shown and takes the pot "
        "of 300" + CLAUSE
    )


def test_a_percentage_is_taken_from_the_pot_and_charged_to_the_winner() -> None:
    data = settle({"percent": 5, "cap": 10})
    assert data["rake"] == 10
    winner = data["seats"][0]
    assert winner["lines"] == [
        {"wager": "pot", "stake": 100, "outcome": "win", "amount": 200, "odds": None, "share": 300}
    ]
    assert (winner["rake"], winner["net"]) == (10, 190)
    assert [seat["net"] for seat in data["seats"][1:]] == [-100, -100]
    assert data["explanation"][-2:] == [
        "Seat 1's straight flush 7-J of clubs is the best combination shown and takes the pot "
        "of 300 less the rake of 10 (290)" + CLAUSE,
        "Rake 10 (5% of the pot, capped at 10), taken from the pot of 300 before it is shared "
        "and charged to the winner, seat 1" + CLAUSE,
    ]


@pytest.mark.parametrize(
    ("rake", "taken", "words"),
    [
        ({"fixed": 25}, 25, "a fixed 25 per hand"),
        (
            {"bands": [{"up_to": 250, "amount": 5}, {"up_to": None, "amount": 20}]},
            20,
            "by the pot: 5 up to 250, 20 above 250",
        ),
        ({"kind": "percent", "percent": 2.5}, 5, "2.5% of the pot"),
    ],
    ids=["fixed", "banded by the pot", "percent"],
)
def test_every_kind_of_rake(rake: dict[str, Any], taken: int, words: str) -> None:
    data = settle(rake, smallest_chip=5)
    assert data["rake"] == data["seats"][0]["rake"] == taken
    assert data["seats"][0]["net"] == 200 - taken
    assert f"Rake {taken} ({words}), taken from the pot of 300" in data["explanation"][-1]


def test_a_rake_rounded_down_to_nothing_is_said() -> None:
    data = settle({"percent": 1}, smallest_chip=5)  # 1% of 300 is 3: below one 5-chip
    assert data["rake"] == 0 and data["seats"][0]["net"] == 200
    assert data["explanation"][-1] == (
        "Rake 0 (1% of the pot): nothing is taken from the pot of 300" + CLAUSE
    )


def test_a_fixed_fee_above_the_pot_takes_the_pot_and_no_more() -> None:
    data = settle({"fixed": 1000})
    assert data["rake"] == 300
    assert [seat["net"] for seat in data["seats"]] == [-100, -100, -100]


def test_tied_winners_share_the_rake_like_the_pot() -> None:
    # Two equal straight flushes 7-J (twos wild, none held): the pot of 5 x 100 splits.
    straights = [player(1, "7c 8c 9c Tc Jc"), player(4, "7h 8h 9h Th Jh")]
    others = [player(2, "Ks Kh 4d 5s 6d"), player(3, "Qs Qh 4c 5c 6s"), player(5, "As Ah 4h 5h 6h")]
    data = evaluate(
        record(*straights, *others, dealer=5, caller=1, wild_card="2c"),
        {"smallest_chip": 5, "rake": {"percent": 5}},
    ).to_dict()
    # 5% of 500 is 25 and 475 is paid, each in 5-chips with the odd chip to seat 1 (first
    # left of the dealer): 240 and 235 paid, 15 and 10 of the rake.
    assert data["rake"] == 25
    shares = {seat["seat"]: (seat["lines"][0]["share"], seat["rake"]) for seat in data["seats"]}
    assert shares[1] == (240 + 15, 15) and shares[4] == (235 + 10, 10)
    assert sum(seat["net"] for seat in data["seats"]) + data["rake"] == 0
    assert (
        "the pot of 500 less the rake of 25 (475) is split (seat 1 240, seat 4 235)"
        in (data["explanation"][-2])
    )
    assert data["explanation"][-1].endswith("charged to the winners: seat 1 15, seat 4 10" + CLAUSE)


def test_rake_settings_are_checked_with_their_paths() -> None:
    assert parse_rules({"rake": {"fixed": 50}})["rake"] == {
        "kind": "fixed",
        "amount": 50,
        "bands": [],
        "percent": 0,
        "cap": None,
    }
    with pytest.raises(RuleError) as error:
        parse_rules(
            {
                "smallest_chip": 25,
                "rake": {"percent": 5, "cap": 310, "bands": [{"up_to": 500, "amount": 25}]},
            }
        )
    assert problems(error) == [
        ("rules.rake", "give the rake either as a fixed amount, bands or a percent"),
        ("rules.rake.cap", "rake cap 310 is not a multiple of the smallest chip 25"),
    ]
    with pytest.raises(RuleError) as error:
        parse_rules({"rake": {"bands": [{"up_to": 500, "amount": 25}]}})
    assert problems(error) == [
        (
            "rules.rake.bands[0].up_to",
            "the last rake band must be open-ended (up_to null): the pot may grow past 500",
        )
    ]


def test_python_built_rules_round_to_their_own_chip() -> None:
    rules = PaiuteRules(rake=RakeSchedule(RakeKind.PERCENT, basis_points=500), smallest_chip=25)
    assert rules.rake.chip == 25 and rules.rake.fee(1990) == 75
    assert PaiuteRules.from_dict(rules.to_dict()) == rules
    with pytest.raises(RuleError, match="rake amount 10 is not a multiple"):
        PaiuteRules(rake=RakeSchedule(RakeKind.FIXED, amount=10), smallest_chip=25)


def test_a_table_rake_reaches_the_hand() -> None:
    engine = registry()["paiute"]
    rules = engine.hand_rules({"ante": 100}, 5, {"rake": {"percent": 5, "cap": 10}})
    assert rules["rake"]["cap"] == 10 and rules["smallest_chip"] == 5
    settlement = evaluate(
        record(
            player(1, "7c 8c 9c Jc 3h"),
            player(2, "Ks Kh Kd 7s 3d"),
            player(3, "2h 4h 6d 8s Td"),
            dealer=3,
            caller=1,
        ),
        rules,
    )
    assert nets(settlement) == {1: 190, 2: -100, 3: -100} and settlement.rake == 10
