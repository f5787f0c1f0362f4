"""Paiute: one test per clause 1-8 of the rules brief (the combinations themselves, clauses
7-8, are proved in ``test_paiute_combinations``). Threes are wild (upcard 3c) and the dealer
sits in the highest seat unless a test says otherwise, so play runs in ascending seat order.
"""

from __future__ import annotations

import pytest

from casino.rules.errors import RuleError
from casino.rules.paiute import PaiuteConfig, PaiuteHand, Phase, Step, evaluate
from casino.rules.settlement import Outcome
from tests.rules.paiute_helpers import (
    act,
    call,
    config,
    discard,
    draw,
    live,
    nets,
    pass_turns,
    player,
    problems,
    record,
    take,
)

THREE = {
    1: "7c 8c 9c Jc As",
    2: "Ks Kh Kd 7s 3d",
    3: "2h 4h 6d 8s Td",
}
FOUR = {
    1: "2h 4h 6d 8s Td",
    2: "7c 8c 9c Jc As",
    3: "Ks Kh Kd 7s 3d",
    4: "Qs Qh 5d 5c 9h",
}


def test_clause_1_two_to_five_players_ante_equally_into_the_pot() -> None:
    hand = live(THREE, ante=500)
    assert hand.view()["pot"] == 1500
    with pytest.raises(RuleError) as error:
        live({1: "7c 8c 9c Jc As"})
    assert problems(error) == [
        (
            "players",
            "1 players dealt in: Paiute is played by 2 to 5 (rule 1 (“Players, pack and ante”))",
        )
    ]
    deal = {
        1: "2c 2d 2h 2s 4c",
        2: "4d 4h 4s 5c 5d",
        3: "5h 5s 6c 6d 6h",
        4: "6s 7c 7d 7h 7s",
        5: "8c 8d 8h 8s 9c",
        6: "9d 9h 9s Tc Td",
    }
    with pytest.raises(RuleError, match=r"6 players dealt in: Paiute is played by 2 to 5"):
        live(deal)
    with pytest.raises(RuleError, match=r"ante 50 is outside the table limits: 100 to 500"):
        live(THREE, ante=50, ante_min=100, ante_max=500)
    settlement = evaluate(
        record(
            player(1, "7c 8c 9c Jc 3h"),
            player(2, "Ks Kh Kd 7s 3d"),
            player(3, "2h 4h 6d 8s Td"),
            dealer=3,
            caller=1,
            ante=500,
        )
    )
    assert [line.stake for seat in settlement.seats for line in seat.lines] == [500, 500, 500]
    assert nets(settlement) == {1: 1000, 2: -500, 3: -500}
    assert settlement.to_dict()["pot"] == 1500


def test_clause_2_upcard_rank_is_wild_and_the_upcard_is_the_stocks_last_card() -> None:
    hand = live({1: "7c 8c 9c Jc As", 2: "Ks Kh Kd 7s 2d"}, upcard="3c")
    view = hand.view()
    assert (view["wild_card"], view["wild_rank"]) == ("3c", "3")
    assert view["stock_count"] == 52 - 10  # the upcard included, at the bottom
    with pytest.raises(RuleError) as error:
        act(hand, draw(1, "3c"))
    assert problems(error) == [
        (
            "actions[0]",
            "3c is the upcard at the bottom of the stock: it is drawn only as the stock's last "
            "card (42 cards are left) (rule 2 (“The deal and the wild rank”))",
        )
    ]
    pass_turns(hand, 41)
    assert hand.stock_count == 1 and [str(c) for c in hand.stock_cards()] == ["3c"]
    assert hand.legal_actions()[0]["stock_card"] == "3c"
    with pytest.raises(
        RuleError,
        match=r"the stock's last card is the upcard 3c \(rule 2 \(“The deal and the wild rank”\)\)",
    ):
        act(hand, draw(2, "Qh"))
    seat = hand.to_act
    assert seat == 2
    # Seat 2 draws the upcard, a wild three like the others: K K K + 3c + 7s 7d would be
    # four/two, but 7d is gone; with 2d it is three kings, a wild and two odd cards.
    act(hand, draw(2, "3c"))
    assert hand.best(2) is None
    act(hand, discard(2, "2d"))
    assert [str(card) for card in hand.holding(2)] == ["Ks", "Kh", "Kd", "7s", "3c"]
    assert hand.stock_count > 0  # reshuffled from the discards (clause 4)


def test_clause_3_turns_run_clockwise_from_the_dealers_left_draw_then_discard() -> None:
    hand = live(FOUR, dealer=2)
    assert hand.order == (3, 4, 1, 2) and hand.to_act == 3
    assert hand.view()["sources"] == ["stock"]  # no discard pile yet: the option is off
    with pytest.raises(RuleError, match=r"seat 4 acted out of turn: seat 3 is to act"):
        act(hand, draw(4, "Ad"))
    with pytest.raises(
        RuleError, match=r"discard pile: it is empty, so the card comes from the stock"
    ):
        act(hand, take(3))
    with pytest.raises(RuleError, match=r"seat 3 must draw a card before discarding"):
        act(hand, discard(3, "Ks"))
    act(hand, draw(3, "Ad"), discard(3, "Ad"))  # a card from the stock may go straight back
    assert hand.to_act == 4 and hand.view()["sources"] == ["stock", "discard"]
    act(hand, take(4, "Ad"))
    assert hand.view()["drawn"] == {"source": "discard", "card": "Ad"}
    with pytest.raises(RuleError) as error:
        act(hand, discard(4, "Ad"))
    assert problems(error) == [
        (
            "actions[3]",
            "seat 4 took Ad from the discard pile and must discard a different card (rule 3 (“Turns: draw, then discard”))",
        )
    ]
    act(hand, discard(4, "9h"))
    assert hand.to_act == 1 and str(hand.top_discard) == "9h"
    act(hand, draw(1, "Ah"), discard(1, "2h"), draw(2, "Qd"), discard(2, "Qd"))
    assert hand.to_act == 3  # round two, the dealer (seat 2) played last


def test_clause_3_option_discard_pile_starts_with_an_upturned_card() -> None:
    hand = live(THREE, discard_pile_starts_with_upturned_card=True, first_discard="Qd")
    assert hand.view()["sources"] == ["stock", "discard"]
    assert hand.stock_count == 52 - 15 - 1
    act(hand, take(1, "Qd"), discard(1, "As"))
    assert str(hand.top_discard) == "As"
    with pytest.raises(RuleError, match=r"enter it"):
        live(THREE, discard_pile_starts_with_upturned_card=True)
    with pytest.raises(
        RuleError,
        match=r"the first player draws from the stock \(rule 3 \(“Turns: draw, then discard”\)\)",
    ):
        live(THREE, first_discard="Qd")


def test_clause_4_stock_runs_out_top_discard_stays_the_rest_become_the_stock() -> None:
    hand = live({1: "7c 8c 9c Jc As", 2: "Ks Kh Kd 7s 2d"})
    pass_turns(hand, 42)  # the whole stock, the upcard last
    ops = [op.to_dict() for op in hand.log]
    reshuffle = ops[-1]
    assert reshuffle["op"] == "reshuffle" and reshuffle["top"] == "3c"
    assert len(reshuffle["stock"]) == 41
    assert [str(card) for card in hand.discard_pile] == ["3c"]
    assert hand.stock_count == 41 and hand.view()["sources"] == ["stock", "discard"]
    # Only the old discards come from the stock now: not the set-aside top, not a held card.
    with pytest.raises(RuleError, match=r"3c cannot come from the stock: it is the top discard"):
        act(hand, draw(1, "3c"))
    with pytest.raises(RuleError, match=r"Ks cannot come from the stock: seat 2 holds it"):
        act(hand, draw(1, "Ks"))
    act(hand, draw(1, "2c"), discard(1, "2c"))  # 2c was discarded on the first turn
    assert hand.stock_count == 40


def test_clause_5_call_with_a_5_card_combination_discards_the_sixth() -> None:
    hand = live(THREE)
    act(hand, draw(1, "3h"))  # 7c 8c 9c Jc As + 3h: straight flush 7-J of clubs
    assert hand.view()["may_call"] is True
    assert hand.legal_actions()[1] == {
        "type": "call",
        "seat": 1,
        "discards": ["As"],
        "combination": "straight flush 7-J of clubs",
    }
    with pytest.raises(
        RuleError, match=r"name the sixth card to discard \(rule 5 \(“The call”\)\)"
    ):
        act(hand, call(1))
    with pytest.raises(RuleError) as error:
        act(hand, call(1, "7c"))
    assert problems(error) == [
        (
            "actions[1]",
            "seat 1: discarding 7c leaves no winning combination; the six cards make straight "
            "flush 7-J of clubs, so discard As (rule 5 (“The call”))",
        )
    ]
    act(hand, call(1, "As"))
    assert hand.caller == 1 and hand.laid_down(1) is not None
    assert [str(card) for card in hand.holding(1)] == ["7c", "8c", "9c", "Jc", "3h"]
    assert str(hand.top_discard) == "As" and hand.phase is Phase.FINAL_TURNS


def test_clause_5_call_with_a_6_card_combination_keeps_all_six() -> None:
    hand = live(THREE)
    act(hand, draw(1, "2c"), discard(1, "2c"), draw(2, "7d"))
    assert hand.legal_actions()[1]["discards"] == [None]
    with pytest.raises(RuleError, match=r"uses all six cards: nothing is discarded"):
        act(hand, call(2, "Ks"))
    act(hand, call(2))
    assert len(hand.holding(2)) == 6
    assert hand.view()["seats"][1]["combination"] == "four/two: kings and sevens"
    # Calling is optional and needs a winning combination (clauses 5, 7).
    other = live(THREE)
    act(other, draw(1, "Kc"))
    assert other.view()["may_call"] is False
    with pytest.raises(
        RuleError, match=r"make no winning combination \(rule 7 \(“Winning combinations”\)\)"
    ):
        act(other, call(1, "Kc"))


def test_clause_6_final_turns_after_the_caller_up_to_and_including_the_dealer() -> None:
    hand = live(FOUR)
    act(hand, draw(1, "2c"), discard(1, "2c"), draw(2, "3h"), call(2, "As"))
    view = hand.view()
    assert (view["phase"], view["caller"], view["final_turns"]) == ("final_turns", 2, [3, 4])
    with pytest.raises(RuleError, match=r"only the players after the caller up to and includ"):
        act(hand, draw(1, "Ah"))
    act(hand, draw(3, "7d"), call(3))  # a final-turn player may call too
    assert hand.view()["final_turns"] == [4] and hand.callers == (2, 3)
    act(hand, draw(4, "Jd"), discard(4, "Jd"))
    assert hand.complete and hand.view()["final_turns"] == []
    with pytest.raises(RuleError, match=r"the hand is over \(the final turns are over"):
        act(hand, draw(1, "Ah"))
    settlement = hand.settle()
    assert settlement.to_dict()["winners"] == [2]
    assert nets(settlement) == {1: -100, 2: 300, 3: -100, 4: -100}
    assert evaluate(hand.to_record()).to_dict() == settlement.to_dict()


def test_clause_6_the_dealers_call_ends_the_deal_at_once() -> None:
    hand = live(THREE)
    act(hand, draw(1, "2c"), discard(1, "2c"), draw(2, "4c"), discard(2, "4c"))
    act(hand, draw(3, "3h"), discard(3, "2h"), draw(1, "Qc"), discard(1, "Qc"))
    act(hand, draw(2, "5c"), discard(2, "5c"), draw(3, "3s"))  # 4h 6d 8s Td 3h 3s: no
    assert hand.view()["may_call"] is False
    act(hand, discard(3, "8s"), draw(1, "Ac"), discard(1, "As"), draw(2, "Kc"))
    act(hand, discard(2, "7s"), draw(3, "6h"))  # dealer: 4h 6d Td 3h 3s 6h
    assert hand.best(3) is not None
    act(hand, call(3))
    assert hand.complete and hand.caller == 3 and hand.final_turns == ()
    assert [op.to_dict()["op"] for op in hand.log][-1] == "phase"
    assert hand.view()["phase"] == "complete" and hand.view()["step"] is None


def test_clause_7_only_the_listed_combinations_may_be_called() -> None:
    hand = live({1: "Ks Kh Kd Kc 7s", 2: "Qs Qh Qd 9s 9h"})
    act(hand, draw(1, "2d"))  # plain four of a kind with two odd cards
    assert hand.view()["may_call"] is False and len(hand.legal_actions()) == 1
    act(hand, discard(1, "2d"), draw(2, "5c"))  # a full house does not win either
    assert hand.best(2) is None
    act(hand, discard(2, "5c"), draw(1, "7d"))  # four kings and two sevens: four/two
    assert hand.view()["may_call"] is True


def test_clause_8_best_combination_shown_takes_the_pot() -> None:
    # The caller's straight flush loses to a royal flush held but not called.
    settlement = evaluate(
        record(
            player(1, "Ah Kh Qh Jh Th"),
            player(2, "7c 8c 9c Jc 3d"),
            player(3, "2h 4h 6d 8s Td"),
            dealer=3,
            caller=2,
        )
    )
    assert settlement.to_dict()["winners"] == [1]
    assert settlement.seat(1).hand == "royal flush"
    assert settlement.seat(3).hand is None
    assert nets(settlement) == {1: 200, 2: -100, 3: -100}
    assert settlement.seat(2).lines[0].outcome is Outcome.LOSE
    assert settlement.explanation[-1] == (
        "Seat 1's royal flush is the best combination shown and takes the pot of 300 (rule 8 (“Ranking within a category, showdown and ties”))."
    )


@pytest.mark.parametrize(
    ("dealer", "shares"),
    [
        pytest.param(3, {1: 8, 2: 7}, id="dealer 3: seat 1 is first from the left"),
        pytest.param(1, {2: 8, 1: 7}, id="dealer 1: seat 2 is first from the left"),
    ],
)
def test_clause_8_exact_ties_split_odd_chips_clockwise_from_the_dealers_left(
    dealer: int, shares: dict[int, int]
) -> None:
    settlement = evaluate(
        record(
            player(1, "9s Ks Qs Js Ts"),
            player(2, "9h Kh Qh Jh 3d"),  # natural and wild hands are equal
            player(3, "2h 4h 6d 8s Td"),
            dealer=dealer,
            caller=2,
            ante=5,
        )
    )
    data = settlement.to_dict()
    assert data["winners"] == list(shares)
    assert {seat["seat"]: seat["lines"][0]["share"] for seat in data["seats"]} == {
        **shares,
        3: 0,
    }
    assert nets(settlement) == {1: shares[1] - 5, 2: shares[2] - 5, 3: -5}
    assert (
        "odd chips go to the first winner clockwise from the dealer's left"
        in data["explanation"][-1]
    )


def test_clause_8_odd_chips_in_units_of_the_smallest_chip() -> None:
    settlement = evaluate(
        record(
            player(1, "9s Ks Qs Js Ts"),
            player(2, "9h Kh Qh Jh 3d"),
            player(3, "9d Kd Qd Jd Td"),
            player(4, "2h 4h 6d 8s 7c"),
            dealer=4,
            caller=2,
            ante=5,
        ),
        {"smallest_chip": 5},
    )
    assert nets(settlement) == {1: 5, 2: 0, 3: 0, 4: -5}
    assert settlement.seat(2).lines[0].outcome is Outcome.PUSH


def test_config_round_trips_through_json() -> None:
    deal = config(THREE, ante=250, dealer=2)
    data = deal.to_dict()
    assert data == {
        "dealer": 2,
        "players": [3, 1, 2],
        "ante": 250,
        "hands": {
            "3": ["2h", "4h", "6d", "8s", "Td"],
            "1": ["7c", "8c", "9c", "Jc", "As"],
            "2": ["Ks", "Kh", "Kd", "7s", "3d"],
        },
        "upcard": "3c",
        "first_discard": None,
    }
    assert PaiuteConfig.from_dict(data) == deal
    assert PaiuteHand(PaiuteConfig.from_dict(data)).step is Step.DRAW
