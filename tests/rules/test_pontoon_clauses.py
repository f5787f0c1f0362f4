"""Pontoon: one test (or a small group) per clause 1-17 of the rules brief, and the brief's
worked examples 1-7 with exact amounts (stake 10). The banker sits in seat 9 unless a test
says otherwise, so the players play in ascending seat order.
"""

from __future__ import annotations

import pytest

from casino.rules.cards import parse_cards
from casino.rules.errors import RuleError
from casino.rules.pontoon import Kind, Phase, PontoonConfig, PontoonHand, evaluate, hand_value
from casino.rules.pontoon.values import total
from casino.rules.settlement import Outcome, SeatStatus
from tests.rules.pontoon_helpers import (
    act,
    banker,
    buy,
    deal,
    draw,
    hand,
    live,
    live_buy,
    live_stick,
    live_twist,
    nets,
    no_shoot,
    player,
    problems,
    record,
    second_cards,
    shoot,
    split,
    stake,
    stand,
    start,
    stick,
    twist,
)


def value(cards: str, **options: object) -> object:
    return hand_value(parse_cards(cards.split(), path="cards"), **options)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- worked examples


def test_worked_example_1_a_k_pontoon_beats_t_9_and_is_paid_double() -> None:
    result = evaluate(record(banker("Th 9c"), player(1, hand("As Kd"))))
    assert result.seat(1).hand == "pontoon"
    assert nets(result) == {1: 20, 9: -20}
    assert result.seat(1).lines[0].odds == "2:1"


def test_worked_example_2_five_card_trick_beats_a_three_card_21_and_is_paid_double() -> None:
    player_hand = hand("7c 3d 4h 2s 2c", twist(), twist(), twist())
    result = evaluate(record(banker("9d 8s 4c"), player(1, player_hand)))
    assert result.seat(1).hand == "five card trick (18)"
    assert result.seat(9).hand == "21"
    assert nets(result) == {1: 20, 9: -20}


def test_worked_example_3_tie_at_21_goes_to_the_banker() -> None:
    result = evaluate(record(banker("7c 7d 7h"), player(1, hand("9s 8d 4h", twist()))))
    assert nets(result) == {1: -10, 9: 10}
    assert "ties go to the banker" in result.explanation[1]


def test_worked_example_4_banker_pontoon_every_player_pays_double() -> None:
    result = evaluate(record(banker("Ah Qd"), player(1, hand("9s 8d")), player(2, hand("5c 2d"))))
    assert nets(result) == {1: -20, 2: -20, 9: 40}


def test_worked_example_5_banker_five_card_trick_pays_only_pontoons() -> None:
    result = evaluate(
        record(
            banker("2c 3c 4c 5c 6c"),
            player(1, hand("Ad Jd")),
            player(2, hand("9s 9h", stick())),
            player(3, hand("3d 4d 2d 6d 5d", twist(), twist(), twist())),
        )
    )
    assert result.seat(9).hand == "five card trick (20)"
    assert nets(result) == {1: 20, 2: -20, 3: -20, 9: 20}


def test_worked_example_6_banker_bust_pays_those_still_in_but_not_the_bust() -> None:
    result = evaluate(
        record(
            banker("Kc 6c 8c"),
            player(1, hand("Kd 8d", stick())),
            player(2, hand("Ah Qh")),
            player(3, hand("Kh 7s 9s", twist())),
        )
    )
    assert nets(result) == {1: 10, 2: 20, 3: -10, 9: -20}
    assert result.seat(3).status is SeatStatus.BUST


def test_worked_example_7_fourth_card_buy_between_stake_and_third_buy() -> None:
    table = live()
    start(table, {1: "2c 3d", 2: "Tc 9c", 9: "Ts 7s"})
    act(table, live_buy(1, 15, "4h"))
    buy_bounds = next(a for a in table.legal_actions() if a["type"] == "buy")
    assert (buy_bounds["min"], buy_bounds["max"]) == (10, 15)
    assert not table.can_buy(1, 16, parse_cards(["5h"], path="c")[0])
    assert not table.can_buy(1, 9, parse_cards(["5h"], path="c")[0])
    act(table, live_twist(1, "2h"))  # 2-3-4-2 = 11
    assert [a["type"] for a in table.legal_actions()] == ["twist"]
    with pytest.raises(RuleError) as error:
        act(table, live_buy(1, 10, "5h"))
    assert "cannot buy after twisting" in problems(error)[0][1]


# --------------------------------------------------------------------------- clauses


def test_clause_1_card_values_and_packs() -> None:
    assert total(parse_cards(["Ks", "Qd"], path="c")) == (20, False)
    assert total(parse_cards(["As", "9d"], path="c")) == (20, True)
    assert total(parse_cards(["As", "9d", "5c"], path="c")) == (15, False)
    assert total(parse_cards(["As", "Ad", "9c"], path="c")) == (21, True)
    # From 8 at the table (the banker included) two packs are mixed.
    with pytest.raises(RuleError) as error:
        PontoonHand(PontoonConfig(9, (1, 2, 3, 4, 5, 6, 7)), None)
    assert "two packs are mixed" in problems(error)[0][1]
    two = live(9, (1, 2, 3, 4, 5, 6, 7), decks=2)
    act(two, deal(1, "As"), deal(2, "As"))  # two packs: each card twice
    with pytest.raises(RuleError) as error:
        act(two, deal(3, "As"))
    assert problems(error) == [
        (
            "actions[2]",
            "both copies of As already dealt this hand (seat 1, seat 2): a card dealt twice",
        )
    ]


def test_clause_2_ranking_pontoon_trick_21_totals_bust() -> None:
    ranked = [
        value("As Kd"),
        value("7c 3d 4h 2s 2c"),
        value("9s 8d 4h"),
        value("Tc Qd"),
        value("9c 6d As"),
        value("Kc 7d 9s"),
    ]
    assert [v.kind for v in ranked] == [  # type: ignore[attr-defined]
        Kind.PONTOON,
        Kind.FIVE_CARD_TRICK,
        Kind.TWENTY_ONE,
        Kind.TOTAL,
        Kind.TOTAL,
        Kind.BUST,
    ]
    keys = [v.key for v in ranked]  # type: ignore[attr-defined]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys)
    # A five card trick of 21 is still a trick, and ties go to the banker.
    assert value("2c 3d 4h 5s 7c").kind is Kind.FIVE_CARD_TRICK  # type: ignore[attr-defined]
    result = evaluate(record(banker("Tc 8c"), player(1, hand("9s 9h", stick()))))
    assert nets(result) == {1: -10, 9: 10}


def test_clause_3_deal_order_stakes_then_second_cards() -> None:
    table = live(3, (6, 1, 5, 2), stake_min=10, stake_max=100)
    assert table.order == (5, 6, 1, 2)  # clockwise from the banker's left
    assert (table.phase, table.to_act) == (Phase.FIRST_CARD, 5)
    act(table, deal(5, "2c"), deal(6, "3c"), deal(1, "4c"), deal(2, "5c"))
    assert table.to_act == 3  # the banker's own first card comes last
    act(table, deal(3, "6c"))
    assert (table.phase, table.to_act) == (Phase.STAKES, 5)
    assert table.legal_actions() == [{"type": "stake", "min": 10, "max": 100}]
    with pytest.raises(RuleError) as error:
        act(table, stake(5, 101))
    assert problems(error) == [
        (
            "actions[5]",
            "seat 5: stake 101 is outside the table limits: 10 to 100 (rule 3 (“The banker, the deal and the stakes”))",
        )
    ]
    act(table, stake(5, 10), stake(6, 100), stake(1, 50), stake(2, 10))
    assert (table.phase, table.to_act) == (Phase.SECOND_CARD, 5)
    act(table, deal(5, "7c"), deal(6, "8c"), deal(1, "9c"), deal(2, "Tc"), deal(3, "Jc"))
    assert (table.phase, table.to_act) == (Phase.PLAYERS, 5)


def test_clause_4_banker_pontoon_every_player_pays_double_and_takes_no_turn() -> None:
    table = live(kitty=100)
    start(table, {1: "As Kd", 2: "9s 8d", 9: "Ac Tc"}, {1: 10, 2: 30})
    act(table, shoot(1, 40), no_shoot(2))
    second_cards(table, {1: "As Kd", 2: "9s 8d", 9: "Ac Tc"})
    assert table.complete  # no turns
    with pytest.raises(RuleError) as error:
        act(table, live_stick(2))
    assert (
        "the banker has a pontoon, so the players take no turns (rule 4 (“The banker's pontoon”))"
        in (problems(error)[0][1])
    )
    result = table.settle()
    assert result.extra["case"] == "banker_pontoon"
    # A player holding a pontoon pays double too; the shoot bet goes to the kitty.
    assert nets(result) == {1: -20 - 40, 2: -60, 9: 120}
    assert result.extra["kitty_after"] == 140
    assert result.extra["next_banker"] == 9  # the players declared nothing


def test_clause_5_player_pontoon_is_declared_and_takes_no_more_cards() -> None:
    table = live()
    start(table, {1: "Ad Kd", 2: "9s 8d", 9: "Tc 7c"})
    assert table.to_act == 2  # seat 1's pontoon ended its turn by itself
    assert table.hand_status(1, 0) == "pontoon"
    with pytest.raises(RuleError) as error:
        act(table, live_twist(1, "2c"))
    assert problems(error) == [
        (
            "actions[8]",
            "seat 1 cannot twist: it has a pontoon, declared and shown: no more cards (rule 5 (“A player's pontoon”))",
        )
    ]


def test_clause_6_split_equal_ranks_same_rank_tens_up_to_four_hands() -> None:
    table = live()
    start(table, {1: "8c 8d", 2: "Kc Qc", 9: "Tc 7c"}, {1: 20})
    assert {"type": "split", "hand": 0} in table.legal_actions()
    act(table, split(1), deal(1, "8h", 0))  # re-split: 8-8 again
    act(table, split(1), deal(1, "8s", 0))
    act(table, split(1))
    assert len(table.player(1).hands) == 4
    assert all(h.stake == 20 for h in table.player(1).hands)  # each new hand's stake = original
    act(table, deal(1, "2c", 0))
    assert not table.can_split(1, 0)  # 8-2
    act(table, live_buy(1, 20, "Ts", 0), live_stick(1, 0), deal(1, "Jc", 1), live_stick(1, 1))
    act(table, deal(1, "Kd", 2), live_stick(1, 2), deal(1, "9d", 3), live_stick(1, 3))
    assert table.to_act == 2
    with pytest.raises(RuleError) as error:
        act(table, split(2))
    assert (
        "seat 2 cannot split K-Q: ten-value cards split only when they are the same rank"
        in (problems(error)[0][1])
    )
    kings = live(max_split_hands=2)
    start(kings, {1: "Kc Kd", 2: "2c 3c", 9: "Tc 7c"})
    act(kings, split(1), deal(1, "Kh", 0))
    with pytest.raises(RuleError) as error:
        act(kings, split(1))
    assert "at most 2 hands after splitting (rule 6 (“Splitting”))" in problems(error)[0][1]


def test_clause_7_buy_bounds_for_the_third_fourth_and_fifth_card() -> None:
    table = live()
    start(table, {1: "2c 3d", 2: "Tc 9c", 9: "Ts 7s"})
    bounds = next(a for a in table.legal_actions() if a["type"] == "buy")
    assert (bounds["min"], bounds["max"]) == (10, 20)  # 3rd card: stake .. twice the stake
    with pytest.raises(RuleError) as error:
        act(table, live_buy(1, 25, "4h"))
    assert problems(error) == [
        (
            "actions[8]",
            "seat 1: a third-card buy is 10 to 20 (at least the first stake 10, at most twice "
            "it), not 25 (rule 7 (“Buying”))",
        )
    ]
    act(table, live_buy(1, 12, "4h"), live_buy(1, 11, "2h"))
    bounds = next(a for a in table.legal_actions() if a["type"] == "buy")
    assert (bounds["min"], bounds["max"]) == (10, 11)  # 5th card: stake .. the 4th's buy
    act(table, live_buy(1, 10, "3h"))  # 2-3-4-2-3 = 14, a five card trick
    assert table.player(1).hands[0].staked == 10 + 12 + 11 + 10


def test_clause_8_twist_keeps_the_stake_and_stops_buying() -> None:
    table = live()
    start(table, {1: "2c 3d", 2: "Tc 9c", 9: "Ts 7s"})
    act(table, live_buy(1, 20, "4h"), live_twist(1, "2h"))
    assert table.player(1).hands[0].staked == 30
    assert not table.can_buy(1, 10, parse_cards(["3h"], path="c")[0])
    act(table, live_twist(1, "3h"))
    assert table.player(1).hands[0].staked == 30


def test_clause_9_stick_on_15_or_more_soft_totals_count() -> None:
    table = live()
    start(table, {1: "Ac 4d", 2: "9c 5c", 9: "Ts 7s"})
    act(table, live_stick(1))  # soft 15
    with pytest.raises(RuleError) as error:
        act(table, live_stick(2))
    assert problems(error) == [
        (
            "actions[9]",
            "seat 2 cannot stick on 14: a hand sticks only on 15 or more (rule 9 (“Sticking”))",
        )
    ]
    sixteen = live(stick_minimum=16)
    start(sixteen, {1: "9c 6d", 2: "9s 7c", 9: "Ts 7s"})
    assert not sixteen.can_stick(1)
    assert "stick" not in [a["type"] for a in sixteen.legal_actions()]


def test_clause_10_five_cards_at_most_and_bust_loses_at_once() -> None:
    table = live()
    start(table, {1: "2c 2d", 2: "Kc 6c", 9: "Ts 6s"})
    act(table, live_twist(1, "3h"), live_twist(1, "3s"), live_twist(1, "4c"))
    assert table.hand_status(1, 0) == "five_card_trick"
    with pytest.raises(RuleError) as error:
        act(table, live_twist(1, "5c"))
    assert (
        "a sixth card is not allowed (rule 10 (“Card limit and going bust”))"
        in problems(error)[0][1]
    )
    act(table, live_twist(2, "9c"))  # bust at once
    assert table.hand_status(2, 0) == "bust"
    act(table, draw(9, "8s"))  # the banker busts too
    result = table.settle()
    assert nets(result) == {1: 20, 2: -10, 9: -10}
    assert "it loses even though the banker busts" in result.explanation[2]


def test_clause_11_banker_has_no_minimum_unless_the_option_sets_one() -> None:
    table = live()
    start(table, {1: "Tc 8d", 2: "9c 9h", 9: "Ts 2s"})
    act(table, live_stick(1), live_stick(2))
    assert table.legal_actions() == [{"type": "draw"}, {"type": "stand"}]
    act(table, stand(9))  # stands on 12
    assert nets(table.settle()) == {1: 10, 2: 10, 9: -20}

    strict = live(banker_stick_minimum=17)
    start(strict, {1: "Tc 8d", 2: "9c 9h", 9: "Ts 6s"})
    act(strict, live_stick(1), live_stick(2))
    with pytest.raises(RuleError) as error:
        act(strict, stand(9))
    assert problems(error) == [
        (
            "actions[10]",
            "the banker cannot stand on 16: the banker draws to 17 or more at this table "
            "(rule 11 (“The banker's turn”))",
        )
    ]
    act(strict, draw(9, "Ac"))  # soft... 17 hard (T-6-A)
    act(strict, stand(9))
    assert nets(strict.settle()) == {1: 10, 2: 10, 9: -20}


def test_clause_12_banker_bust_pays_everyone_still_in_double_for_pontoon_and_trick() -> None:
    result = evaluate(
        record(
            banker("Kc 5c 9c"),
            player(1, hand("Ad Qd")),
            player(2, hand("2d 3d 4d 2h 3h", buy(10), buy(10), twist())),
            player(3, hand("Ts 5s", stick())),
        )
    )
    assert result.extra["case"] == "banker_bust"
    assert nets(result) == {1: 20, 2: 60, 3: 10, 9: -90}


def test_clause_13_banker_stands_better_hands_paid_equal_or_worse_lose() -> None:
    result = evaluate(
        record(
            banker("Tc 8c"),
            player(1, hand("Ad Qd")),
            player(2, hand("2d 3d 4d 2h 3h", twist(), twist(), twist())),
            player(3, hand("Ts 9s", stick())),
            player(4, hand("9h 9d", stick())),
            player(5, hand("Th 7h", stick())),
        )
    )
    assert result.extra["case"] == "banker_stands"
    assert nets(result) == {1: 20, 2: 20, 3: 10, 4: -10, 5: -10, 9: -30}


def test_clause_14_banker_five_card_trick_only_pontoons_paid_others_pay_double() -> None:
    result = evaluate(
        record(
            banker("2c 3c 4c 2s 3s"),
            player(1, hand("Ad Kd")),
            player(2, hand("2d 3d 4d 2h 3h", buy(10), twist(), twist())),
            player(3, hand("Th Qh", stick())),
            player(4, hand("Kh 6h 9h", twist())),
        )
    )
    assert result.extra["case"] == "banker_five_card_trick"
    # Seat 2's trick pays double its 20 staked; the bust seat 4 had paid single at once.
    assert nets(result) == {1: 20, 2: -40, 3: -20, 4: -10, 9: 50}


def test_clause_15_split_pontoon_counts_as_21_paid_single_no_bank() -> None:
    split_aces = record(
        banker("Tc 9c"),
        player(1, hand("Ad Kd"), hand("Ah Qh")),
        player(2, hand("Ts 8s", stick())),
    )
    result = evaluate(split_aces)
    assert result.seat(1).hand == "21 (split pontoon) / 21 (split pontoon)"
    assert nets(result) == {1: 20, 2: -10, 9: -10}
    assert result.extra["next_banker"] == 9
    # Against a three-card 21 the split pontoon ties, and the tie goes to the banker.
    tie = evaluate(record(banker("7c 7d 7h"), player(1, hand("Ad Kd"), hand("As Qh"))))
    assert nets(tie) == {1: -20, 9: 20}
    doubled = evaluate(
        split_aces, {"split_pontoon_pays_double": True, "split_pontoon_takes_bank": True}
    )
    assert doubled.seat(1).hand == "pontoon (split hand) / pontoon (split hand)"
    assert nets(doubled) == {1: 40, 2: -10, 9: -30}
    assert doubled.extra["next_banker"] == 1


def test_clause_16_next_banker_nearest_the_banker_left_else_the_bank_stays() -> None:
    both = record(
        banker("Tc 9c", seat=4),
        player(2, hand("Ad Kd")),
        player(6, hand("Ah Qh")),
        player(8, hand("9s 8s", stick())),
    )
    result = evaluate(both)
    assert result.extra["order"] == [6, 8, 2]
    assert result.extra["next_banker"] == 6  # nearest the banker's left
    assert result.extra["bank_changes"] and result.extra["reshuffle"]
    assert "Seat 6 made a pontoon (the one nearest the banker's left)" in result.explanation[-2]
    plain = evaluate(record(banker("Tc 9c"), player(1, hand("9s 8s", stick()))))
    assert (plain.extra["next_banker"], plain.extra["reshuffle"]) == (9, False)
    # The banker may sell the bank after a hand, at an agreed price.
    sold = evaluate(
        record(
            banker("Tc 9c"), player(1, hand("9s 8s", stick())), bank_sale={"buyer": 1, "price": 500}
        )
    )
    assert sold.extra["next_banker"] == 1
    assert nets(sold) == {1: -10 - 500, 9: 10 + 500}
    with pytest.raises(RuleError) as error:
        evaluate({**both, "bank_sale": {"buyer": 8, "price": 500}})
    assert problems(error) == [
        (
            "bank_sale",
            "the bank passes to seat 6, who made a pontoon (rule 16 (“The next banker, selling the bank and the pack”)): it is no longer the "
            "banker's to sell",
        )
    ]


def test_clause_17_shoot_pontoon_kitty_bets_bust_and_settlement() -> None:
    table = live(9, (1, 2, 3), kitty=100)
    cards = {1: "9c 9d", 2: "Kc 6c", 3: "2c 3c", 9: "Ts 7s"}
    start(table, cards)
    assert table.phase is Phase.SHOOT
    act(table, shoot(1, 60))
    with pytest.raises(RuleError) as error:
        act(table, shoot(2, 50))
    assert "at most 40 (kitty 100, shoot bets of 60 already riding" in problems(error)[0][1]
    act(table, shoot(2, 40))
    assert table.legal_actions() == [{"type": "no_shoot"}]  # the kitty is covered
    act(table, no_shoot(3))
    second_cards(table, cards)
    act(table, live_stick(1))  # 18
    act(table, live_twist(2, "9h"))  # bust: its shoot bet goes to the kitty at once
    assert (table.kitty_now, table.shoot_room) == (140, 80)
    act(table, live_buy(3, 10, "4d"))  # 2-3-4 = 9
    assert {"type": "shoot", "hand": 0, "card": 4, "min": 1, "max": 80} in table.legal_actions()
    act(table, shoot(3, 80))
    assert not table.can_stick(3)  # it shot before the 4th card, so it takes it
    act(table, live_buy(3, 10, "Th"), live_stick(3))  # 19
    act(table, stand(9))
    result = table.settle()
    # Seat 1's 18 beats 17: paid 60 from the kitty; seat 3's 19 too: 80; seat 2's 40 went in.
    assert nets(result) == {1: 10 + 60, 2: -10 - 40, 3: 30 + 80, 9: -30 - 100}
    assert result.extra["kitty_after"] == 100 + 40 - 60 - 80
    assert result.seat(9).extra == {"kitty": 100, "kitty_after": 0}
    lines = {(line.wager, line.extra["hand"]): line for line in result.seat(3).lines}
    assert lines[("shoot", 0)].extra["bets"] == [{"card": 4, "amount": 80}]
    assert lines[("shoot", 0)].outcome is Outcome.WIN
