"""Palace Poker: one test per clause of the rules as implemented (``docs/rules/palace-poker.md``),
and its four worked examples exactly."""

from __future__ import annotations

from typing import Any

import pytest

from casino.rules.cards import Card, parse_card, parse_cards, standard_deck
from casino.rules.errors import RuleError
from casino.rules.palace_poker import (
    BattleEnd,
    Buying,
    PalaceHand,
    PalaceRules,
    choose_dealer,
    deal_banners,
    evaluate,
    parse_config,
    replay,
)
from casino.rules.palace_poker.values import Category, best_hand
from tests.rules.palace_helpers import (
    FOUR,
    battle,
    buy,
    call,
    dealt,
    discard,
    first_problem,
    fold,
    four,
    nets,
    player,
    raise_,
    record,
    statuses,
    stay,
    unseen,
)


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text.split(), path="cards")


def c(text: str) -> Card:
    return parse_card(text)


# Five players: seat 5 starts the second banner group, so its banner may share seat 1's suit.
FIVE = (*FOUR, player(5, "3h", "5d 6d 7d"))
ROUND = [stay(2), stay(3), stay(4)]  # the others stay after seat 1's turn


def legal(hand: PalaceHand, kind: str) -> dict[str, Any]:
    return next(action for action in hand.legal_actions() if action["type"] == kind)


# --------------------------------------------------------------------------- setup


def test_clause_1_two_to_ten_players_one_deck_standard_ranking() -> None:
    assert first_problem(record(FOUR[0])) == ("players", "2 to 10 players are dealt in, got 1")
    eleven = dealt(10)
    eleven["players"].append(player(11, "2s", "3s 4s 5s"))
    with pytest.raises(RuleError) as error:
        replay(eleven)
    assert ("players", "2 to 10 players are dealt in, got 11") in [
        (p.path, p.message) for p in error.value.problems
    ]
    # One 52-card deck: banners, palaces and the stock are all of it.
    hand = replay(dealt(10))
    assert len(hand.stock()) == 52 - 10 - 30
    # Standard ranking: full house above flush, ace high, A-2-3-4-5 the lowest straight.
    assert best_hand(cards("Kc Kd Kh 2s 2c")) > best_hand(cards("Ah Jh 9h 5h 3h"))
    assert best_hand(cards("Ah Jh 9h 5h 3h")) > best_hand(cards("6c 5d 4h 3s 2c"))
    assert best_hand(cards("6c 5d 4h 3s 2c")) > best_hand(cards("As 2d 3h 4s 5c"))
    assert best_hand(cards("As 2d 3h 4s 5c")) > best_hand(cards("Ks Kd Qh Qs Ac"))
    assert str(best_hand(cards("As 2d 3h 4s 5c"))) == "straight 5-high (A-2-3-4-5)"
    assert best_hand(cards("Ah 9d 7c 4s 2c")) > best_hand(cards("Kh Qd Jc 9s 7c"))
    assert best_hand(cards("Ah Kh Qh Jh Th")).category is Category.ROYAL_FLUSH


def test_clause_2_highest_cut_deals_and_ties_cut_again() -> None:
    assert choose_dealer([{1: c("9c"), 2: c("Kd"), 3: c("4h")}]) == 2
    # Suits do not rank: the kings cut again.
    first = {1: c("Kc"), 2: c("Kd"), 3: c("4h")}
    assert choose_dealer([first, {1: c("Ah"), 2: c("3s")}]) == 1
    with pytest.raises(RuleError) as error:
        choose_dealer([first])
    assert str(error.value) == "seats 1 and 2 are still tied for the highest card: they cut again"
    with pytest.raises(RuleError) as error:
        choose_dealer([first, {1: c("Ah"), 3: c("3s")}])
    assert error.value.problems[0].path == "cuts[1]"


def test_clause_3_each_player_antes_half_a_small_bet_rounded_down() -> None:
    hand = replay(four())
    assert hand.config.ante == 250
    assert hand.pot == 1000
    assert [seat["stack"] for seat in hand.view()["seats"]] == [19_750] * 4
    # Half of 25 is 12.5: rounded down to the smallest chip 5, the ante is 10.
    odd = replay(four(small_bet=25, big_bet=50), {"smallest_chip": 5})
    assert odd.config.ante == 10 and odd.pot == 40
    assert replay(four(), {"ante": 100}).pot == 400
    assert replay(four(ante=0)).pot == 0
    assert first_problem(four(ante=300), {"ante": 100}) == (
        "ante",
        "the record's ante 300 is not the rules' ante 100",
    )


def test_clause_4_banners_in_groups_of_four_with_different_suits() -> None:
    # A suit already used in the group is discarded; a new group starts at player 5.
    deck = cards("Ah Kh Qs Jh Td 9s 8c 7h 6h 5s 4d 3c")
    banners, discarded = deal_banners(deck, [3, 4, 5, 1, 2, 6])
    assert {seat: str(card) for seat, card in banners.items()} == {
        3: "Ah",
        4: "Qs",
        5: "Td",
        1: "8c",
        2: "7h",
        6: "5s",
    }
    assert [str(card) for card in discarded] == ["Kh", "Jh", "9s", "6h"]
    # The record's banners are checked group by group, clockwise from the dealer's left.
    same = record(player(1, "7h", "As Ad Kc"), player(2, "9h", "Qh Qc 2d"), dealer=2)
    assert first_problem(same) == (
        "players[1].banner",
        "seat 2's banner 9h has the suit of seat 1's banner 7h (hearts): players 1-4 from the "
        "dealer's left need different suits",
    )
    # Seat 5 is player 5 (dealer 5): a second group, so hearts again is fine; with dealer 4
    # seat 5 is player 1, in seat 1's group.
    assert replay(record(*FIVE, dealer=5)).players_in() == (1, 2, 3, 4, 5)
    assert first_problem(record(*FIVE, dealer=4))[0] == "players[0].banner"


def test_clause_4_the_discarded_banner_cards_are_reshuffled_when_the_deck_runs_out() -> None:
    # P2 discards 8h and 9h; at P5 (a new group) the deck is empty, so the discards are
    # shuffled (reversed here) and dealing continues: P5 gets 9h.
    deck = cards("7h 8h 9h 7d 7c 7s")
    banners, discarded = deal_banners(deck, [1, 2, 3, 4, 5], reshuffle=lambda pile: pile[::-1])
    assert [str(banners[seat]) for seat in (1, 2, 3, 4, 5)] == ["7h", "7d", "7c", "7s", "9h"]
    assert discarded == []
    # P6 must avoid hearts: 8h is discarded and no card of a free suit is left.
    with pytest.raises(RuleError) as error:
        deal_banners(deck, [1, 2, 3, 4, 5, 6], reshuffle=lambda pile: pile[::-1])
    assert str(error.value) == "seat 6: no card of a suit still free in its group is left to deal"


def test_clause_5_three_palace_cards_each_and_the_rest_is_the_stock() -> None:
    data = four()
    hand = replay(data)
    assert len(hand.stock()) == 52 - 4 - 12
    assert [str(card) for card in hand.stock()] == unseen(data)
    assert hand.discards() == ()
    # Palace cards are face down: the view shows how many, never which.
    seat = hand.view()["seats"][0]
    assert seat["palace_cards"] == 3 and "palace" not in seat
    bad = four()
    bad["players"][1]["palace"] = ["Qh", "Qc"]
    assert first_problem(bad) == ("players[1].palace", "seat 2: 3 cards needed, got 2")


# --------------------------------------------------------------------------- a turn


def test_clause_6_buy_costs_a_small_bet_and_may_discard_the_new_soldier() -> None:
    hand = replay(four([buy(1, "Kh"), buy(2, "3c", "3c")]))
    view = hand.view()
    assert view["seats"][0]["soldiers"] == ["Kh"] and view["seats"][0]["stack"] == 19_250
    assert view["seats"][1]["soldiers"] == [] and view["seats"][1]["stack"] == 19_250
    assert view["pot"] == 2000 and view["discard_count"] == 1 and view["to_act"] == 3
    assert view["stock_count"] == 36 - 2


def test_clause_6_never_more_than_five_soldiers() -> None:
    actions = []
    for card in ("Kh", "Kd", "Ah", "Ac", "3c"):
        actions += [buy(1, card), *ROUND]
    hand = replay(four(actions))
    assert legal(hand, "buy")["must_discard"] == 1
    assert first_problem(four([*actions, buy(1, "4c")])) == (
        "actions[20]",
        "seat 1 cannot buy 4c without discarding: it has 5 soldiers and may never have more "
        "than 5 (discard at least 1)",
    )
    hand.apply(buy(1, "4c", "Kh"))
    assert hand.cards(1)["soldiers"] == cards("Kd Ah Ac 3c 4c")


def test_clause_6_empty_stock_reshuffles_the_discards_then_buying_stops() -> None:
    data = dealt(10)
    stock = unseen(data)  # 12 cards
    actions = [buy(seat, stock[seat - 1]) for seat in range(1, 11)]
    actions += [buy(1, stock[10], stock[10]), buy(2, stock[11])]  # stock now empty
    hand = replay({**data, "actions": actions})
    assert hand.view()["stock_count"] == 0 and hand.discards() == (c(stock[10]),)
    # The buy must come from the old discards, shuffled into a new stock.
    assert legal(hand, "buy")["reshuffle"] is True
    assert not hand.can_buy(3, c(stock[0]))
    hand.apply(buy(3, stock[10]))
    bought = hand.log[-1]
    assert isinstance(bought, Buying) and bought.reshuffled == (c(stock[10]),)
    # Stock and discards both empty: no more buying.
    assert all(action["type"] != "buy" for action in hand.legal_actions())
    with pytest.raises(RuleError) as error:
        hand.apply(buy(4, stock[0]), 13)
    assert error.value.problems[0].message == (
        "seat 4 cannot buy: the stock and the discards are both empty, so buying is no longer "
        "allowed (rule 6 (“Buy”))"
    )


def test_clause_7_discard_costs_a_small_bet_and_draws_nothing() -> None:
    hand = replay(four([buy(1, "Kh"), *ROUND, discard(1, "Kh")]))
    seat = hand.view()["seats"][0]
    assert seat["soldiers"] == [] and seat["stack"] == 20_000 - 250 - 500 - 500
    assert hand.view()["stock_count"] == 35 and hand.discards() == (c("Kh"),)
    assert hand.pot == 1000 + 500 + 500


def test_clause_8_battle_names_a_defender_of_another_suit_with_the_minimum_bet() -> None:
    hand = replay(record(*FIVE, dealer=5))
    # Seat 1 (hearts) may not attack seat 5 (hearts).
    assert legal(hand, "battle") == {
        "type": "battle",
        "targets": [2, 3, 4],
        "min": 500,
        "max": 500,
        "all_in": False,
    }
    assert first_problem(record(*FIVE, dealer=5, actions=[battle(1, 5, 500)]))[1] == (
        "seat 1 cannot attack seat 5: both banners are hearts (7h and 3h); a player may not "
        "attack a banner of its own suit (rule 8 (“Battle”))"
    )
    # (soldiers + 1) x small bet; the battle money goes into the pot.
    hand = replay(four([buy(1, "Kh"), *ROUND, buy(1, "Kd"), *ROUND], structure="no_limit"))
    assert legal(hand, "battle")["min"] == 1500
    assert legal(hand, "battle")["max"] == 20_000 - 250 - 1000
    hand.apply(battle(1, 2, 1500))
    assert hand.pot == 1000 + 1000 + 1500


def test_clause_9_defender_folds_and_the_attacker_takes_banner_and_soldiers() -> None:
    hand = replay(four([buy(1, "Kh"), *ROUND, battle(1, 2, 1000), fold(2)]))
    assert hand.cards(1)["soldiers"] == cards("Kh Ks")
    assert hand.players_in() == (1, 3, 4) and hand.to_act == 3
    assert set(cards("Qh Qc 2d")) <= set(hand.discards())  # the palace goes to the discards
    assert hand.pot == 1000 + 500 + 1000  # the attacker's bet stays in the pot


def test_clause_9_spoils_beyond_five_soldiers_are_discarded() -> None:
    actions = [buy(1, "Kh"), buy(2, "Kd"), stay(3), stay(4)]
    actions += [buy(1, "Ah"), buy(2, "Ac"), stay(3), stay(4)]
    actions += [buy(1, "3c"), *ROUND, buy(1, "4c"), *ROUND]
    hand = replay(four([*actions, battle(1, 2, 2500), fold(2)]))
    # Four soldiers + the banner Ks = five; seat 2's Kd and Ac are discarded.
    assert hand.cards(1)["soldiers"] == cards("Kh Ah 3c 4c Ks")
    assert {c("Kd"), c("Ac")} <= set(hand.discards())


@pytest.mark.parametrize(("option", "to_call"), [("formula", 500), ("match", 1500)])
def test_clause_9_the_call_is_the_formula_or_the_attackers_bet(option: str, to_call: int) -> None:
    data = four([buy(1, "Kh"), *ROUND, buy(1, "Kd"), *ROUND, battle(1, 2, 1500)])
    hand = replay(data, {"call": option})
    assert legal(hand, "call") == {"type": "call", "amount": to_call, "all_in": False}
    hand.apply(call(2))
    assert hand.pot == 1000 + 1000 + 1500 + to_call


def test_clause_9_limit_raise_is_a_big_bet_or_two_small_bets_without_soldiers() -> None:
    # Big bet 1200 so the two sizes differ; seat 2 has no soldiers, seat 1 has two.
    data = four([buy(1, "Kh"), *ROUND, buy(1, "Kd"), *ROUND, battle(1, 2, 1500)], big_bet=1200)
    hand = replay(data)
    assert legal(hand, "raise") == {"type": "raise", "min": 1000, "max": 1000, "call": 500}
    hand.apply(raise_(2, 1000))  # pays the call 500 and raises 1000
    assert legal(hand, "raise") == {"type": "raise", "min": 1200, "max": 1200, "call": 1000}
    hand.apply(raise_(1, 1200))  # the attacker re-raises: pays 1000 + 1200
    hand.apply(call(2))
    assert hand.pot == 1000 + 1000 + 1500 + 1500 + 2200 + 1200
    assert hand.current_battle is None


def test_clause_9_no_limit_raise_is_at_least_a_big_bet_and_re_raises_go_on() -> None:
    data = four([battle(1, 2, 500)], structure="no_limit")
    hand = replay(data)
    assert legal(hand, "raise") == {"type": "raise", "min": 1000, "max": 19_250, "call": 500}
    hand.apply(raise_(2, 3000))
    hand.apply(raise_(1, 1000))
    hand.apply(raise_(2, 5000))
    assert hand.current_battle is not None
    assert hand.current_battle["to_call"] == 5000 and hand.to_act == 1
    assert first_problem({**data, "actions": [battle(1, 2, 500), raise_(2, 999)]}) == (
        "actions[1]",
        "seat 2: raise 999 is below the minimum raise of one big bet (1000)",
    )


def test_clause_9_attacker_folds_to_a_raise_and_the_defender_keeps_the_raise() -> None:
    data = four([buy(1, "Kh"), *ROUND, battle(1, 2, 1000), raise_(2, 1000), fold(1)])
    hand = replay(data)
    # Seat 2 put in 500 (call) + 1000 (raise); the raise is not called and goes back.
    seats = {seat["seat"]: seat for seat in hand.view()["seats"]}
    assert seats[2]["in_pot"] == 250 + 500 and seats[2]["stack"] == 20_000 - 750
    # The attacker folding in the battle is out of the hand (clause 9), not merely folded.
    assert seats[1]["out"] and not seats[1]["folded"] and hand.players_in() == (2, 3, 4)
    assert hand.cards(2)["soldiers"] == cards("7h Kh")  # the attacker's banner, then soldiers
    kept = replay(data, {"uncalled_raise_returned": False})
    assert {seat["seat"]: seat["in_pot"] for seat in kept.view()["seats"]}[2] == 1750


def test_clause_10_battle_showdown_without_the_opponents_banner_suit() -> None:
    # Seat 1 (hearts) attacks seat 2 (spades): seat 1's As and seat 2's Qh do not count.
    hand = replay(four([battle(1, 2, 500), call(2)]))
    assert hand.players_in() == (1, 3, 4)
    assert hand.cards(1)["soldiers"] == cards("Ks")  # seat 2's banner
    # Seat 2 loses its pair of queens with the Qh.
    settlement = evaluate(four([battle(1, 2, 500), call(2), fold(3), fold(4)]))
    fight = settlement.to_dict()["battles"][0]
    assert fight["attacker_cards"] == ["Ad", "Kc", "7h"]
    assert fight["defender_cards"] == ["Ks", "Qc", "2d"]
    assert (fight["attacker_hand"], fight["defender_hand"]) == (
        "high card A-K-7",
        "high card K-Q-2",
    )
    assert fight["winner"] == 1 and fight["result"] == "win"
    assert statuses(settlement) == {1: "settled", 2: "out", 3: "folded", 4: "folded"}


def test_clause_10_equal_hands_more_cards_of_ones_banner_suit_wins() -> None:
    # Both play A-K-Q-7; seat 1 holds two hearts (its suit), seat 2 one spade.
    players = (
        player(1, "7h", "Ad Kh Qc"),
        player(2, "7s", "Ac Kd Qd"),
        player(3, "2c", "3d 4d 5s"),
    )
    hand = replay(record(*players, dealer=3, actions=[battle(1, 2, 500), call(2)]))
    fight = next(op for op in hand.log if isinstance(op, BattleEnd))
    assert fight.result == "win" and fight.winner == 1
    assert fight.reason == (
        "both have high card A-K-Q-7; seat 1 has more cards of its banner suit (hearts: 2 to 1) "
        "and wins"
    )


def test_clause_10_a_full_tie_puts_both_out_unless_they_are_the_last_two() -> None:
    tied = (player(1, "7h", "Ad Kc Qd"), player(2, "7s", "Ac Kd Qc"))
    third = player(3, "2c", "3d 4d 5s")
    hand = replay(record(*tied, third, dealer=3, actions=[battle(1, 2, 500), call(2)]))
    assert hand.complete and hand.winners == (3,)  # both out: seat 3 is the last standing
    settlement = hand.settle()
    assert statuses(settlement) == {1: "out", 2: "out", 3: "settled"}
    assert settlement.to_dict()["battles"][0]["winner"] == "both out"
    # The last two split the pot instead.
    split = evaluate(record(*tied, dealer=2, actions=[battle(1, 2, 500), call(2)]))
    assert split.to_dict()["ending"] == "split" and nets(split) == {1: 0, 2: 0}
    assert split.to_dict()["battles"][0]["winner"] == "split"


def test_clause_11_stay_does_nothing_and_play_passes_left() -> None:
    hand = replay(four([stay(1)]))
    assert hand.to_act == 2 and hand.pot == 1000
    assert hand.view()["seats"][0]["stack"] == 19_750


def test_clause_12_fold_leaves_the_hand() -> None:
    hand = replay(four([buy(1, "Kh"), fold(2)]))
    assert hand.players_in() == (1, 3, 4) and hand.to_act == 3
    assert set(hand.discards()) == set(cards("Ks Qh Qc 2d"))
    settlement = evaluate(four([buy(1, "Kh"), fold(2), fold(3), fold(4)]))
    assert statuses(settlement)[2] == "folded"


# --------------------------------------------------------------------------- end of the hand


def test_clause_13_the_last_player_standing_takes_the_pot() -> None:
    settlement = evaluate(four([buy(1, "Kh"), fold(2), fold(3), fold(4)]))
    assert settlement.to_dict()["winners"] == [1]
    assert nets(settlement) == {1: 1500 - 750, 2: -250, 3: -250, 4: -250}


def test_clause_14_the_last_two_may_not_stay_and_end_only_by_battle_or_fold() -> None:
    actions = [fold(1), fold(2), buy(3, "Kh"), buy(4, "Kd"), discard(3, "Kh")]
    hand = replay(four(actions))
    assert not hand.complete  # discarding with two left never ends the hand
    assert [action["type"] for action in hand.legal_actions()] == [
        "buy",
        "discard",
        "battle",
        "fold",
    ]
    assert first_problem(four([*actions, stay(4)])) == (
        "actions[5]",
        "seat 4 cannot stay: with only two players left each turn is a buy, a discard or a "
        "battle (rule 14 (“Two players left”))",
    )


def test_clause_15_the_last_players_sharing_a_banner_suit_split_the_pot() -> None:
    # Seats 1 and 5 both carry hearts: once 2, 3 and 4 fold they do not battle.
    settlement = evaluate(
        record(*FIVE, dealer=5, actions=[buy(1, "Kh"), fold(2), fold(3), fold(4)])
    )
    assert settlement.to_dict()["ending"] == "shared_suit"
    assert settlement.to_dict()["winners"] == [1, 5]  # clockwise from the dealer (seat 5)
    # The pot 5 x 250 + 500 = 1750 splits 875 / 875.
    assert nets(settlement) == {1: 875 - 750, 2: -250, 3: -250, 4: -250, 5: 875 - 250}


def test_clause_16_a_round_of_stays_ends_in_a_showdown_with_no_suit_removed() -> None:
    settlement = evaluate(four([stay(1), stay(2), stay(3), stay(4)]))
    data = settlement.to_dict()
    assert data["ending"] == "showdown" and data["winners"] == [1]
    # Seat 1 keeps its As (no suit removed): a pair of aces.
    assert settlement.seat(1).hand == "pair of aces, K-7 kickers"
    assert settlement.seat(2).hand == "pair of queens, K-2 kickers"
    assert nets(settlement) == {1: 750, 2: -250, 3: -250, 4: -250}


def test_clause_16_discards_and_folds_count_in_the_round_a_buy_restarts_it() -> None:
    # Seats 2, 3 and 4 stay after seat 1's buy, then seat 1 discards: a full quiet round.
    ended = replay(four([buy(1, "Kh"), stay(2), stay(3), stay(4), discard(1, "Kh")]))
    assert ended.complete and ended.ending == "showdown"
    # Seat 4's buy restarts the round: seat 1 discards, 2 folds, 3 stays, and only when seat 4
    # stays too has every player still in been quiet.
    actions = [buy(1, "Kh"), stay(2), stay(3), buy(4, "Kd"), discard(1, "Kh"), fold(2), stay(3)]
    hand = replay(four(actions))
    assert not hand.complete and hand.to_act == 4
    hand.apply(stay(4))
    assert hand.complete and hand.ending == "showdown" and hand.players_in() == (1, 3, 4)


# --------------------------------------------------------------------------- worked examples


def test_worked_example_1_banners_for_three_players() -> None:
    banners, discarded = deal_banners(cards("7h 9h Kc 2c 5h Qd"), [1, 2, 3])
    assert {seat: str(card) for seat, card in banners.items()} == {1: "7h", 2: "Kc", 3: "Qd"}
    assert [str(card) for card in discarded] == ["9h", "2c", "5h"]


def test_worked_example_2_six_players_two_groups() -> None:
    # P1-P4 hold four different suits; P5 keeps any first card; P6 must differ from P5 only.
    deck = cards("Ah Kh Qs Jd Tc 9h 8h 7s")
    banners, discarded = deal_banners(deck, [1, 2, 3, 4, 5, 6])
    assert {seat: str(card) for seat, card in banners.items()} == {
        1: "Ah",
        2: "Qs",
        3: "Jd",
        4: "Tc",
        5: "9h",
        6: "7s",
    }
    assert [str(card) for card in discarded] == ["Kh", "8h"]


def test_worked_example_3_minimum_battle_bet_at_5_10() -> None:
    stock = iter(["Kh", "Kd", "Ah", "Ac", "3c"])
    hand = replay(four(small_bet=5, big_bet=10))
    minimums = {0: legal(hand, "battle")["min"]}
    for count in range(1, 6):
        hand.apply(buy(1, next(stock)))
        for seat in (2, 3, 4):
            hand.apply(stay(seat))
        minimums[count] = legal(hand, "battle")["min"]
    assert (minimums[0], minimums[2], minimums[5]) == (5, 15, 30)


def test_worked_example_4_suits_of_the_opponents_banner_do_not_count() -> None:
    # A (hearts banner) holds As Ad Kh Kc 7h; B (spades banner) holds Qs Qh Qd 3s 2c.
    a = player(1, "7h", "As Ad Kc")
    b = player(2, "3s", "Qh Qd 2c")
    actions = [buy(1, "Kh"), buy(2, "Qs"), battle(1, 2, 1000), call(2)]
    settlement = evaluate(record(a, b, dealer=2, actions=actions))
    fight = settlement.to_dict()["battles"][0]
    assert fight["attacker_cards"] == ["Ad", "Kh", "Kc", "7h"]  # A's As does not count
    assert fight["defender_cards"] == ["Qs", "Qd", "3s", "2c"]  # B's Qh does not count
    assert fight["attacker_hand"].startswith("pair of kings")
    assert fight["defender_hand"].startswith("pair of queens")
    assert fight["winner"] == 1
    assert settlement.to_dict()["winners"] == [1]


def test_the_stock_is_the_deck_less_the_deal() -> None:
    config = parse_config(four(), PalaceRules())
    hand = PalaceHand(config)
    dealt_cards = {p.banner for p in config.players} | {
        card for p in config.players for card in p.palace
    }
    assert set(hand.stock()) == set(standard_deck()) - dealt_cards
