"""Palace Poker: whole hands replayed from stacked records, one for each way a hand ends.

Every hand is also rebuilt from its own ``to_record()`` and must settle the same way."""

from __future__ import annotations

from typing import Any

from casino.rules.palace_poker import evaluate, replay
from casino.rules.settlement import Settlement
from tests.rules.palace_helpers import (
    FOUR,
    battle,
    buy,
    call,
    discard,
    first_problem,
    fold,
    nets,
    player,
    raise_,
    record,
    statuses,
    stay,
)

THREE = FOUR[:3]  # seats 1 (7h), 2 (Ks), 3 (Qd); dealer 3, so seat 1 acts first
FIVE = (*FOUR, player(5, "3h", "5d 6d 7d"))


def settle(data: dict[str, Any], rules: dict[str, Any] | None = None) -> Settlement:
    settlement = evaluate(data, rules)
    again = replay(replay(data, rules).to_record(), rules).settle()
    assert again.to_dict() == settlement.to_dict()
    return settlement


def stakes(settlement: Settlement) -> dict[int, int]:
    return {seat.seat: seat.lines[0].stake for seat in settlement.seats}


def test_last_standing_after_a_battle_fold_with_the_uncalled_re_raise_returned() -> None:
    actions = [
        buy(1, "Kh"),
        buy(2, "Kd"),
        fold(3),
        battle(1, 2, 1000),  # one soldier: (1 + 1) x 500
        raise_(2, 1000),  # calls the formula 1000, raises one big bet
        raise_(1, 1000),  # calls 1000, re-raises 1000
        fold(2),
    ]
    settlement = settle(record(*THREE, dealer=3, actions=actions))
    assert settlement.to_dict()["ending"] == "last_standing"
    assert stakes(settlement) == {1: 2750, 2: 2750, 3: 250}
    assert nets(settlement) == {1: 3000, 2: -2750, 3: -250}
    # Seat 2 folded in a battle, so it is out (clause 9); seat 3 folded on its turn (clause 12).
    assert statuses(settlement) == {1: "settled", 2: "out", 3: "folded"}
    assert settlement.seat(1).extra["soldiers"] == ["Kh", "Ks", "Kd"]
    fight = settlement.to_dict()["battles"][0]
    assert (fight["result"], fight["winner"], fight["attacker_chips"]) == ("fold", 1, 2000)
    assert "Seat 1's uncalled raise of 1000 goes back to it." in settlement.explanation


def test_a_battle_knocks_out_the_second_last_player() -> None:
    actions = [battle(1, 2, 500), call(2), battle(3, 1, 500), call(1)]
    settlement = settle(record(*THREE, dealer=3, actions=actions))
    data = settlement.to_dict()
    assert data["ending"] == "last_standing" and data["winners"] == [1]
    assert [(b["attacker"], b["defender"], b["winner"]) for b in data["battles"]] == [
        (1, 2, 1),
        (3, 1, 1),
    ]
    # Seat 1 calls the formula (1 soldier + 1) x 500; without diamonds it has kings.
    assert data["battles"][1]["defender_hand"] == "pair of kings, A-7 kickers"
    assert data["battles"][1]["attacker_hand"] == "high card Q-J-9"
    assert stakes(settlement) == {1: 1750, 2: 750, 3: 750}
    assert nets(settlement) == {1: 1500, 2: -750, 3: -750}
    assert statuses(settlement) == {1: "settled", 2: "out", 3: "out"}


def test_the_forced_battle_of_the_last_two() -> None:
    actions = [fold(1), buy(2, "Kh"), buy(3, "5c")]
    assert first_problem(record(*THREE, dealer=3, actions=[*actions, stay(2)]))[0] == "actions[3]"
    actions += [discard(2, "Kh"), battle(3, 2, 1000), call(2)]
    settlement = settle(record(*THREE, dealer=3, actions=actions))
    fight = settlement.to_dict()["battles"][0]
    # Seat 3 loses its 9s (spades), seat 2 its 2d (diamonds): queens beat jacks.
    assert (fight["attacker_hand"], fight["defender_hand"]) == (
        "pair of jacks, Q-5 kickers",
        "pair of queens, K kicker",
    )
    assert fight["defender_chips"] == 500  # the formula call: (0 soldiers + 1) x 500
    assert nets(settlement) == {1: -250, 2: 2000, 3: -1750}


def test_the_shared_suit_split_with_an_odd_chip() -> None:
    # Seat 5 knocks out seat 4; seats 1 and 5 both carry hearts and split 225.
    actions = [stay(1), fold(2), fold(3), battle(4, 5, 50), call(5)]
    settlement = settle(record(*FIVE, dealer=5, small_bet=50, big_bet=100, actions=actions))
    data = settlement.to_dict()
    assert data["ending"] == "shared_suit" and data["winners"] == [1, 5]
    assert data["pot"] == 225
    assert nets(settlement) == {1: 113 - 25, 2: -25, 3: -25, 4: -75, 5: 112 - 75}
    assert data["battles"][0]["attacker_hand"] == "high card 2"  # seat 4 without hearts
    assert "the first winner left of the dealer" in " ".join(settlement.explanation)


def test_an_all_stay_round_to_a_showdown_with_a_tie_and_an_odd_chip() -> None:
    players = (
        player(1, "7h", "As Ad Kc"),
        player(2, "7s", "Ah Ac Kd"),
        player(3, "2c", "3d 4d 5s"),
    )
    actions = [buy(2, "9c", "9c"), stay(3), stay(1), stay(2)]
    settlement = settle(record(*players, dealer=1, small_bet=50, big_bet=100, actions=actions))
    data = settlement.to_dict()
    assert data["ending"] == "showdown" and data["winners"] == [2, 1]
    assert settlement.seat(1).hand == settlement.seat(2).hand == "pair of aces, K-7 kickers"
    # Pot 3 x 25 + 50 = 125: seat 2 (first left of the dealer) takes the odd chip.
    assert nets(settlement) == {1: 62 - 25, 2: 63 - 75, 3: -25}
    assert statuses(settlement) == {1: "settled", 2: "settled", 3: "settled"}


def test_a_full_tie_between_the_last_two_splits_the_pot() -> None:
    players = (player(1, "7h", "Ad Kc Qd"), player(2, "7s", "Ac Kd Qc"))
    actions = [buy(2, "2c", "2c"), battle(1, 2, 500), raise_(2, 1000), call(1)]
    settlement = settle(record(*players, dealer=1, actions=actions))
    data = settlement.to_dict()
    assert data["ending"] == "split" and data["winners"] == [2, 1]
    assert data["battles"][0]["winner"] == "split"
    assert stakes(settlement) == {1: 1750, 2: 2250}
    assert nets(settlement) == {1: 250, 2: -250}


def test_an_all_in_call_for_less_returns_the_uncalled_raise() -> None:
    short = [dict(p) for p in THREE]
    short[1]["stack"] = 3000
    actions = [battle(1, 2, 500), raise_(2, 1000), raise_(1, 5000), call(2), fold(3)]
    settlement = settle(record(*short, dealer=3, structure="no_limit", actions=actions))
    assert stakes(settlement) == {1: 3000, 2: 3000, 3: 250}
    assert nets(settlement) == {1: 3250, 2: -3000, 3: -250}
    assert settlement.seat(2).extra["stack_after"] == 0
    assert "Seat 1's uncalled raise of 3750 goes back to it." in settlement.explanation
