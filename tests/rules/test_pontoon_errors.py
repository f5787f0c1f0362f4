"""Pontoon: every illegal step gives one RuleError naming the hand and the rule, at the record
path (``players[0].hands[0].actions[1]``) or the live action index (``actions[9]``)."""

from __future__ import annotations

from typing import Any

import pytest

from casino.rules.errors import RuleError
from casino.rules.pontoon import PontoonConfig, PontoonHand, PontoonRules, evaluate
from tests.rules.pontoon_helpers import (
    act,
    banker,
    bet,
    buy,
    deal,
    draw,
    hand,
    live,
    live_buy,
    live_stick,
    live_twist,
    player,
    problems,
    record,
    shoot,
    stake,
    start,
    stick,
    twist,
)

BANKER = banker("Tc 8c")


def record_problems(data: dict[str, Any], rules: dict[str, Any] | None = None) -> list[Any]:
    with pytest.raises(RuleError) as error:
        evaluate(data, rules)
    return problems(error)


# --------------------------------------------------------------------------- the brief's list


def test_sticking_on_14() -> None:
    assert record_problems(record(BANKER, player(1, hand("9d 5d", stick())))) == [
        (
            "players[0].hands[0].actions[0]",
            "seat 1 cannot stick on 14: a hand sticks only on 15 or more (rule 9 (“Sticking”))",
        )
    ]


def test_buying_after_a_twist() -> None:
    data = record(BANKER, player(1, hand("2d 3d 4h 5s 6s", twist(), buy(10), twist())))
    assert record_problems(data) == [
        (
            "players[0].hands[0].actions[1]",
            "seat 1 cannot buy after twisting: once a card is twisted the hand may only twist "
            "or stick (rule 8 (“Twisting”))",
        )
    ]


def test_a_buy_outside_its_bounds_says_the_bounds() -> None:
    data = record(BANKER, player(1, hand("2d 3d 4h 9s", buy(15), buy(20), stick())))
    assert record_problems(data) == [
        (
            "players[0].hands[0].actions[1]",
            "seat 1: a fourth-card buy is 10 to 15 (at least the first stake 10, at most the 15 "
            "added for the third card), not 20 (rule 7 (“Buying”))",
        )
    ]
    low = record(BANKER, player(1, hand("2d 3d 4h", buy(5)), stake=10))
    assert record_problems(low)[0][1].startswith("seat 1: a third-card buy is 10 to 20")


def test_a_sixth_card() -> None:
    data = record(BANKER, player(1, hand("2d 3d 4h 2s 3s 4s", twist(), twist(), twist(), twist())))
    assert record_problems(data) == [
        (
            "players[0].hands[0].actions[3]",
            "seat 1 cannot twist: it already has 5 cards (five card trick (14)) and a hand holds "
            "at most 5, so a sixth card is not allowed (rule 10 (“Card limit and going bust”))",
        )
    ]
    table = live()
    start(table, {1: "2c 2d", 2: "Kc 6c", 9: "Ts 6s"})
    act(table, live_twist(1, "3h"), live_twist(1, "3s"), live_twist(1, "4c"))
    with pytest.raises(RuleError) as error:
        act(table, live_buy(1, 10, "5c"))
    assert problems(error)[0][0] == "actions[11]"
    assert (
        "a sixth card is not allowed (rule 10 (“Card limit and going bust”))"
        in problems(error)[0][1]
    )


def test_splitting_k_q() -> None:
    data = record(BANKER, player(1, hand("Kd 9d", stick()), hand("Qs 8s", stick())))
    assert record_problems(data) == [
        (
            "players[0].hands[1]",
            "seat 1 cannot split K-Q: ten-value cards split only when they are the same rank "
            "(K-K yes, K-Q no) (rule 6 (“Splitting”))",
        )
    ]
    unequal = record(BANKER, player(1, hand("9d Kc", stick()), hand("8s Ks", stick())))
    assert record_problems(unequal) == [
        (
            "players[0].hands[1]",
            "seat 1 cannot split 9-8: only two cards of equal rank split (rule 6 (“Splitting”))",
        )
    ]


def test_a_shoot_bet_over_the_kitty() -> None:
    data = record(
        BANKER,
        player(1, hand("Kd 9d", stick())),
        player(2, hand("Ks 9s", stick())),
        kitty=100,
        bets=[bet(1, 1, 60), bet(2, 1, 50)],
    )
    assert record_problems(data) == [
        (
            "shoot.bets[1]",
            "seat 2: shoot bet 50 is more than the kitty can cover: at most 40 (kitty 100, shoot "
            "bets of 60 already riding; all shoot bets together stay within the kitty, rule 17 (“Shoot Pontoon and the kitty”))",
        )
    ]


def test_acting_out_of_turn() -> None:
    table = live()
    with pytest.raises(RuleError) as error:
        act(table, deal(2, "As"))
    assert problems(error) == [
        (
            "actions[0]",
            "card dealt to seat 2 out of turn: seat 1 gets the next card (one card at a time "
            "clockwise from the banker's left, the banker last)",
        )
    ]
    act(table, deal(1, "8c"), deal(2, "3c"), deal(9, "4c"))
    with pytest.raises(RuleError) as error:
        act(table, stake(2))
    assert problems(error) == [("actions[3]", "seat 2 staked out of turn: seat 1 is to stake")]
    act(table, stake(1), stake(2), deal(1, "9d"), deal(2, "Td"), deal(9, "Tc"))
    with pytest.raises(RuleError) as error:
        act(table, live_stick(2))
    assert problems(error) == [("actions[8]", "seat 2 acted out of turn: seat 1 is to act")]
    with pytest.raises(RuleError) as error:
        act(table, draw(9, "5c"))
    assert problems(error) == [
        (
            "actions[8]",
            "the banker cannot draw now: the players are taking their turns",
        )
    ]
    act(table, live_stick(1))
    with pytest.raises(RuleError) as error:
        act(table, live_twist(1, "5c"))
    assert problems(error) == [("actions[9]", "seat 1 cannot twist: it has stuck on 17")]


def test_a_card_dealt_twice() -> None:
    data = record(BANKER, player(1, hand("Kd 9d", stick())), player(2, hand("Kd 9s", stick())))
    assert record_problems(data) == [
        ("players[1].hands[0].cards[0]", "card Kd appears twice: seat 1 and seat 2")
    ]
    table = live()
    act(table, deal(1, "Kd"), deal(2, "Qd"))
    with pytest.raises(RuleError) as error:
        act(table, deal(9, "Kd"))
    assert problems(error) == [
        ("actions[2]", "Kd already dealt this hand (seat 1): a card dealt twice")
    ]


def test_wrong_card_counts() -> None:
    assert record_problems(record(BANKER, player(1, hand("Kd", stick())))) == [
        ("players[0].hands[0].cards", "seat 1: at least 2 cards are dealt, got 1")
    ]
    assert record_problems(record(banker("Tc"), player(1, hand("Kd 9d", stick())))) == [
        ("banker.cards", "the banker (seat 9): at least 2 cards are dealt, got 1")
    ]
    assert record_problems(record(BANKER, player(1, hand("Kd 5d 3c", stick())))) == [
        (
            "players[0].hands[0].cards",
            "seat 1: 3 cards but 0 buys and twists: every card after the second comes with a "
            "buy or a twist",
        )
    ]
    assert record_problems(record(BANKER, player(1, hand("Kd 2d", twist(), twist())))) == [
        (
            "players[0].hands[0].actions[0]",
            "seat 1: a twist without a card: the hand lists 2 cards and each buy or twist takes "
            "the next one",
        )
    ]


# --------------------------------------------------------------------------- more steps


def test_a_hand_left_unfinished_in_a_record() -> None:
    assert record_problems(record(BANKER, player(1, hand("Kd 7d")))) == [
        (
            "players[0].hands[0].actions",
            "seat 1 stops on 17 without sticking: record a stick, or the buys and twists that "
            "follow",
        )
    ]


def test_decisions_on_finished_hands() -> None:
    assert record_problems(record(BANKER, player(1, hand("Ad Kd 2c", buy(10))))) == [
        (
            "players[0].hands[0].actions[0]",
            "seat 1 cannot buy: it has a pontoon, declared and shown: no more cards (rule 5 (“A player's pontoon”))",
        )
    ]
    assert record_problems(record(BANKER, player(1, hand("Kd 6d 9c", twist(), stick())))) == [
        (
            "players[0].hands[0].actions[1]",
            "seat 1 cannot stick: the hand is bust (25) and its stake already lost (rule 10 (“Card limit and going bust”))",
        )
    ]
    assert record_problems(record(BANKER, player(1, hand("9d 2d Kc 3c", twist(), twist())))) == [
        (
            "players[0].hands[0].actions[1]",
            "seat 1 cannot twist: it has 21, and a hand buys or twists only below 21 (rules 7 (“Buying”) and 8 (“Twisting”))",
        )
    ]


def test_record_shape_problems_are_reported_together() -> None:
    data = {
        "banker": {"seat": 9, "cards": ["Tc", "8c"], "x": 1},
        "players": [
            {
                "seat": 1,
                "stake": "10",
                "hands": [{"cards": ["Zz", "9d"], "actions": [{"type": "double"}]}],
            },
            {"seat": 9, "stake": 10, "hands": [{"cards": ["9h", "9s"]}]},
        ],
        "colour": 1,
    }
    assert record_problems(data) == [
        ("colour", "unknown field 'colour'"),
        ("banker.x", "unknown field 'x'"),
        ("players[0].stake", "seat 1: stake must be a whole number, got '10'"),
        ("players[0].hands[0].cards[0]", "seat 1: unknown card 'Zz'"),
        (
            "players[0].hands[0].actions[0]",
            "seat 1: a hand's action is buy (with amount), twist or stick, got 'double'",
        ),
        ("players[1].seat", "seat 9 is the banker's seat"),
    ]


def test_table_limits_packs_and_options_in_records() -> None:
    assert record_problems(
        record(BANKER, player(1, hand("Kd 9d", stick()), stake=5)), {"stake_min": 10}
    ) == [
        (
            "players[0].stake",
            "seat 1: stake 5 is outside the table limits: at least 10 (rule 3 (“The banker, the deal and the stakes”))",
        )
    ]
    assert record_problems(
        record(banker("Tc 5c"), player(1, hand("Kd 9d", stick()))), {"banker_stick_minimum": 17}
    ) == [
        (
            "banker.cards",
            "the banker cannot stand on 15: the banker draws to 17 or more at this table "
            "(rule 11 (“The banker's turn”))",
        )
    ]
    nines = record(BANKER, player(1, hand("9d 9c", stick()), hand("9s Ks", stick())))
    assert record_problems(nines, {"split_aces_only": True}) == [
        ("players[0].hands[1]", "seat 1 cannot split 9-9: at this table only aces split")
    ]
    three = record(
        BANKER,
        player(1, hand("9d Kc", stick()), hand("9s Ks", stick()), hand("9h Kh", stick())),
    )
    assert record_problems(three, {"max_split_hands": 2}) == [
        (
            "players[0].hands[2]",
            "seat 1 cannot split again: at most 2 hands after splitting (rule 6 (“Splitting”))",
        )
    ]
    eight = record(
        BANKER, *(player(seat, hand(f"{seat + 1}d {seat + 1}s", stick())) for seat in range(1, 8))
    )
    assert record_problems(eight) == [
        (
            "players",
            "8 at the table (the banker included): from 8 two packs are mixed (rule 1 (“Cards and packs”)); set "
            "the rules' decks to 2",
        )
    ]


def test_shoot_bet_placement_in_records() -> None:
    twenty = hand("2d 3d 9s 6c", twist(), twist(), stick())
    assert record_problems(record(BANKER, player(1, twenty), kitty=100, bets=[bet(1, 3, 10)])) == [
        (
            "shoot.bets[0].card",
            "a shoot bet's card is 1 (after the first-card stakes), 4 or 5 (before that card), "
            "got 3 (rule 17 (“Shoot Pontoon and the kitty”))",
        )
    ]
    assert record_problems(record(BANKER, player(1, twenty), kitty=100, bets=[bet(1, 5, 10)])) == [
        (
            "shoot.bets[0]",
            "seat 1: a shoot bet before the fifth card, but the hand has only 4 cards",
        )
    ]
    split_nines = [hand("9d Kc", stick()), hand("9s Ks", stick())]
    assert record_problems(
        record(BANKER, player(1, *split_nines), kitty=100, bets=[bet(1, 1, 10, hand=1)])
    ) == [
        (
            "shoot.bets[0].hand",
            "the first shoot bet rides on the first hand (0) (rule 17 (“Shoot Pontoon and the kitty”))",
        )
    ]
    assert record_problems(
        {**record(BANKER, player(1, twenty)), "shoot": {"bets": [bet(1, 1, 10)]}}
    ) == [("shoot.kitty", "the kitty is missing: Shoot Pontoon is played with a kitty")]


def test_live_shoot_bets_only_at_their_moments() -> None:
    plain = live()
    start(plain, {1: "2c 3c", 2: "Tc 8c", 9: "Ts 7s"})
    with pytest.raises(RuleError) as error:
        act(plain, shoot(1, 10))
    assert problems(error) == [
        ("actions[8]", "seat 1 cannot shoot: there is no kitty (this is not Shoot Pontoon)")
    ]
    table = live(kitty=100)
    cards = {1: "2c 3c", 2: "Tc 8c", 9: "Ts 7s"}
    start(table, cards)
    act(table, shoot(1, 10), shoot(2, 10))
    act(table, *(deal(seat, cards[seat].split()[1]) for seat in (1, 2, 9)))
    with pytest.raises(RuleError) as error:
        act(table, shoot(1, 10))
    assert problems(error) == [
        (
            "actions[10]",
            "seat 1 cannot shoot before its third card: a shoot bet is placed after the "
            "first-card stakes or before the 4th or 5th card (rule 17 (“Shoot Pontoon and the kitty”))",
        )
    ]
    act(table, live_twist(1, "4d"), shoot(1, 10))
    with pytest.raises(RuleError) as error:
        act(table, shoot(1, 10))
    assert problems(error)[0][1] == "seat 1 already placed a shoot bet before its fourth card"


def test_live_action_shape_problems() -> None:
    table = live()
    bad: list[tuple[dict[str, Any], str]] = [
        (
            {"type": "deal", "card": "As"},
            "an action needs the seat it concerns (a seat number), got None",
        ),
        (
            {"type": "hit", "seat": 1},
            "seat 1: unknown action type 'hit': use deal, stake, shoot, "
            "no_shoot, split, buy, twist, stick, draw, stand or sell_bank",
        ),
        (
            {"type": "deal", "seat": 1, "card": "As", "amount": 5},
            "seat 1: unknown field 'amount' in a deal action",
        ),
        ({"type": "deal", "seat": 1, "card": "1s"}, "seat 1: unknown card '1s' (in card)"),
        ({"type": "deal", "seat": 1}, "seat 1: a deal needs 'card', the card dealt"),
        ({"type": "deal", "seat": 7, "card": "As"}, "seat 7 is not dealt in this hand"),
    ]
    for action, message in bad:
        with pytest.raises(RuleError) as error:
            table.apply(action)
        assert problems(error) == [("action", message)]
    act(table, deal(1, "2c"), deal(2, "3c"), deal(9, "4c"))
    for amount, message in [
        ("5", "seat 1: a stake needs 'amount', the stake as a whole number, got '5'"),
        (0, "seat 1: a stake's 'amount' must be at least 1, got 0"),
    ]:
        with pytest.raises(RuleError) as error:
            table.apply(stake(1, amount))  # type: ignore[arg-type]
        assert problems(error) == [("action", message)]
    chips = PontoonHand(PontoonConfig(9, (1,)), PontoonRules(smallest_chip=5))
    act(chips, deal(1, "2c"), deal(9, "3c"))
    with pytest.raises(RuleError) as error:
        act(chips, stake(1, 12))
    assert problems(error) == [
        ("actions[2]", "seat 1: stake 12 is not a multiple of the smallest chip 5")
    ]


def test_settling_or_selling_at_the_wrong_time() -> None:
    table = live()
    start(table, {1: "9c 8c", 2: "Tc 8d", 9: "Ts 7s"})
    with pytest.raises(RuleError) as error:
        table.settle()
    assert problems(error) == [
        ("actions", "the hand is not finished: the players are taking their turns (seat 1 is next)")
    ]
    with pytest.raises(RuleError) as error:
        table.apply({"type": "sell_bank", "seat": 9, "buyer": 1, "price": 100})
    assert problems(error)[0][1] == (
        "the bank is sold between hands, not now: the players are taking their turns"
    )
    act(table, live_stick(1), live_stick(2), {"type": "stand", "seat": 9})
    assert table.legal_actions() == [{"type": "sell_bank", "seat": 9, "buyers": [1, 2], "min": 1}]
    with pytest.raises(RuleError) as error:
        table.apply({"type": "sell_bank", "seat": 1, "buyer": 2, "price": 100})
    assert problems(error)[0][1] == "only the banker (seat 9) sells the bank, not seat 1"
    table.apply({"type": "sell_bank", "seat": 9, "buyer": 2, "price": 100})
    assert table.legal_actions() == []
    with pytest.raises(RuleError) as error:
        table.apply({"type": "sell_bank", "seat": 9, "buyer": 1, "price": 100})
    assert problems(error)[0][1] == "the bank was already sold to seat 2"
    assert table.settle().extra["next_banker"] == 2
