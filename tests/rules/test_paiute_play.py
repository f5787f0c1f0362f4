"""Paiute turn play, live: draw sources, the discard rule, the stock running out and being
reshuffled (more than once), calls with 5- and 6-card combinations, the final turns and the
dealer's call, the JSON action vocabulary, view(), replay and the record of a live hand.
"""

from __future__ import annotations

import pytest

from casino.rules.errors import RuleError
from casino.rules.paiute import PaiuteHand, Source, evaluate, replay_actions
from tests.rules.paiute_helpers import (
    act,
    call,
    card,
    discard,
    draw,
    live,
    nets,
    pass_turns,
    problems,
    take,
)

THREE = {
    1: "7c 8c 9c Jc As",
    2: "Ks Kh Kd 7s 3d",
    3: "2h 4h 6d 8s Td",
}


# --------------------------------------------------------------------------- drawing


def test_draw_from_the_discard_pile_takes_the_top_card_only() -> None:
    hand = live(THREE)
    act(hand, draw(1, "2c"), discard(1, "2c"), draw(2, "4c"), discard(2, "4c"))
    with pytest.raises(RuleError) as error:
        act(hand, take(3, "2c"))
    assert problems(error) == [
        (
            "actions[4]",
            "seat 3: the top of the discard pile is 4c, not 2c; only the top discard may be "
            "taken (rule 3 (“Turns: draw, then discard”))",
        )
    ]
    act(hand, take(3))  # the card may be left out: it is the top discard
    assert hand.holding(3)[-1] == card("4c") and str(hand.top_discard) == "2c"
    assert hand.actions()[-1] == {"seat": 3, "type": "draw", "source": "discard", "card": "4c"}


def test_stock_draws_are_cards_nobody_has_seen() -> None:
    hand = live(THREE)
    with pytest.raises(RuleError, match=r"a draw from the stock needs the card drawn"):
        act(hand, draw(1))
    with pytest.raises(RuleError, match=r"Td cannot come from the stock: seat 3 holds it"):
        act(hand, draw(1, "Td"))
    act(hand, draw(1, "2c"), discard(1, "2c"), draw(2, "4c"), discard(2, "4c"))
    with pytest.raises(RuleError, match=r"2c cannot come from the stock: it is in the discard"):
        act(hand, draw(3, "2c"))
    with pytest.raises(RuleError, match=r"4c cannot come from the stock: it is the top discard"):
        act(hand, draw(3, "4c"))
    act(hand, draw(3, "10s"))  # input accepts 10 for T, output is canonical
    assert str(hand.holding(3)[-1]) == "Ts"
    with pytest.raises(RuleError, match=r"seat 3 already drew Ts this turn: discard a card or"):
        act(hand, draw(3, "Qs"))
    assert hand.stock_count == 52 - 15 - 3


def test_the_stock_is_reshuffled_every_time_it_runs_out() -> None:
    hand = live({1: "7c 8c 9c Jc As", 2: "Ks Kh Kd 7s 2d"})
    pass_turns(hand, 42)
    assert hand.stock_count == 41 and hand.stock_cards()[0] == card("2c")
    pass_turns(hand, 41)  # the new stock, exhausted: its discards are reshuffled again
    reshuffles = [op.to_dict() for op in hand.log if op.to_dict()["op"] == "reshuffle"]
    assert len(reshuffles) == 2 and len(reshuffles[1]["stock"]) == 41
    assert hand.stock_count == 41 and len(hand.discard_pile) == 1
    # 52 cards in all: the hands, the discard pile and the stock.
    held = sum(len(hand.holding(seat)) for seat in (1, 2))
    assert held + len(hand.discard_pile) + hand.stock_count == 52


def test_reshuffle_keeps_the_top_discard_and_it_can_be_taken() -> None:
    hand = live({1: "7c 8c 9c Jc As", 2: "Ks Kh Kd 7s 2d"})
    pass_turns(hand, 41)
    act(hand, draw(2, "3c"), discard(2, "2d"))  # the upcard, kept; 2d is the top discard
    assert [str(c) for c in hand.discard_pile] == ["2d"] and hand.stock_count == 41
    act(hand, take(1, "2d"), discard(1, "As"))
    assert hand.holding(1)[-1] == card("2d")


# --------------------------------------------------------------------------- calling


def test_call_must_follow_a_draw() -> None:
    hand = live({1: "7c 8c 9c Jc 3h", 2: "Ks Kh Kd 7s 2d"})
    with pytest.raises(RuleError, match=r"seat 1 calls after drawing: take a card first"):
        act(hand, call(1, "As"))


def test_call_cannot_throw_back_the_card_taken_from_the_discard_pile() -> None:
    hand = live({1: "7c 8c 9c Jc 3h", 2: "Ks Kh Kd 7s 2d"})
    act(hand, draw(1, "5d"), discard(1, "5d"))
    act(hand, draw(2, "Ad"), discard(2, "Ad"))
    act(hand, take(1, "Ad"))  # seat 1 holds a straight flush in five; Ad is the sixth
    assert hand.view()["may_call"] is False
    with pytest.raises(RuleError) as error:
        act(hand, call(1, "Ad"))
    assert problems(error) == [
        (
            "actions[5]",
            "seat 1 cannot call with straight flush 7-J of clubs: the card it leaves out is "
            "Ad, just taken from the discard pile, which may not be discarded at once (rule 3 (“Turns: draw, then discard”))",
        )
    ]


def test_call_may_discard_any_card_the_best_combination_does_not_need() -> None:
    # Three wild threes and three queens: five queens whichever card is left out.
    hand = live({1: "3d 3h 3s Qs Qd", 2: "Ks Kh Kd 7s 2d"})
    act(hand, draw(1, "Qc"))
    assert hand.legal_actions()[1]["discards"] == ["3d", "3h", "3s", "Qs", "Qd", "Qc"]
    act(hand, call(1, "Qs"))
    assert str(hand.laid_down(1)) == "five queens" and len(hand.holding(1)) == 5


def test_call_must_lay_down_the_best_combination_the_six_cards_make() -> None:
    hand = live({1: "Ah Kh Qh Jh 2c", 2: "Ks Kd 7s 7d 2d"})
    act(hand, draw(1, "Th"))  # royal flush, or a straight flush 9-K with the 9h
    act(hand, discard(1, "2c"), draw(2, "5c"), discard(2, "5c"), draw(1, "9h"))
    with pytest.raises(RuleError) as error:
        act(hand, call(1, "Ah"))
    assert problems(error)[0][1] == (
        "seat 1: discarding Ah leaves straight flush 9-K of hearts; the six cards make royal "
        "flush, so discard 9h (rule 5 (“The call”))"
    )
    act(hand, call(1, "9h"))
    assert str(hand.laid_down(1)) == "royal flush"


def test_caller_just_before_the_dealer_leaves_the_dealer_one_final_turn() -> None:
    hand = live(THREE)
    act(hand, draw(1, "2c"), discard(1, "2c"), draw(2, "7d"), call(2))
    assert hand.final_turns == (3,)
    act(hand, draw(3, "Qc"), discard(3, "Qc"))
    assert hand.complete and hand.callers == (2,)


def test_dealer_call_on_the_final_turn_ends_the_hand() -> None:
    hand = live(THREE)
    act(hand, draw(1, "3h"), call(1, "As"))
    assert hand.final_turns == (2, 3)
    act(hand, take(2, "As"), discard(2, "7s"))
    act(hand, draw(3, "3s"), discard(3, "2h"))  # no combination: 4h 6d 8s Td 3s + ...
    assert hand.complete
    settlement = hand.settle()
    assert settlement.to_dict()["winners"] == [1] and nets(settlement)[1] == 200


def test_final_turn_player_may_call_and_keep_six_cards_and_win() -> None:
    hand = live(THREE)
    act(hand, draw(1, "3h"), call(1, "As"))  # straight flush 7-J of clubs
    act(hand, draw(2, "3s"))  # Ks Kh Kd 7s 3d 3s: five kings beats it
    act(hand, call(2, "7s"))
    act(hand, draw(3, "Qd"), discard(3, "Qd"))
    settlement = hand.settle()
    assert settlement.seat(2).hand == "five kings"
    assert settlement.to_dict()["winners"] == [2] and settlement.to_dict()["caller"] == 1
    assert evaluate(hand.to_record()).to_dict() == settlement.to_dict()


# --------------------------------------------------------------------------- JSON, view, replay


@pytest.mark.parametrize(
    ("action", "message"),
    [
        pytest.param("draw", "an action must be an object", id="not an object"),
        pytest.param(
            {"type": "draw", "source": "stock"}, "an action needs the seat that acts", id="no seat"
        ),
        pytest.param({"seat": 1, "type": "pass"}, "unknown action type 'pass'", id="type"),
        pytest.param(
            {"seat": 1, "type": "draw", "source": "deck", "card": "2c"},
            "a draw's source is 'stock' or 'discard'",
            id="source",
        ),
        pytest.param(
            {"seat": 1, "type": "draw", "source": "stock", "card": "2c", "amount": 5},
            "unknown field 'amount' in a draw action",
            id="field",
        ),
        pytest.param(
            {"seat": 1, "type": "draw", "source": "stock", "card": "1c"},
            "seat 1: unknown card '1c'",
            id="card",
        ),
        pytest.param(
            {"seat": 9, "type": "draw", "source": "stock", "card": "2c"},
            "seat 9 is not dealt in this hand",
            id="seat",
        ),
        pytest.param(
            {"seat": 1, "type": "discard"}, "seat 1: a discard needs 'card'", id="no card"
        ),
    ],
)
def test_bad_actions_are_reported_at_their_index(action: object, message: str) -> None:
    hand = live(THREE)
    with pytest.raises(RuleError) as error:
        hand.apply(action, 7)  # type: ignore[arg-type]
    ((path, text),) = problems(error)
    assert path == "actions[7]" and message in text


def test_view_for_the_dealer_tablet() -> None:
    hand = live(THREE)
    act(hand, draw(1, "3h"))
    view = hand.view()
    assert set(view) == {
        "game",
        "phase",
        "step",
        "to_act",
        "complete",
        "legal_actions",
        "sources",
        "may_call",
        "drawn",
        "caller",
        "callers",
        "final_turns",
        "dealer",
        "order",
        "wild_card",
        "wild_rank",
        "top_discard",
        "discard_pile",
        "stock_count",
        "stock_card",
        "ante",
        "pot",
        "seats",
    }
    assert (view["phase"], view["step"], view["to_act"], view["may_call"]) == (
        "play",
        "discard",
        1,
        True,
    )
    assert view["seats"][0] == {
        "seat": 1,
        "dealer": False,
        "count": 6,
        "cards": ["7c", "8c", "9c", "Jc", "As", "3h"],
        "called": False,
        "combination": None,
        "best": "straight flush 7-J of clubs",
    }
    assert view["legal_actions"][0] == {
        "type": "discard",
        "seat": 1,
        "cards": ["7c", "8c", "9c", "Jc", "As", "3h"],
    }
    assert (view["stock_count"], view["pot"], view["top_discard"]) == (36, 300, None)


def test_replay_rebuilds_the_same_hand_and_reports_the_first_illegal_action() -> None:
    hand = live(THREE)
    act(hand, draw(1, "2c"), discard(1, "2c"), draw(2, "7d"), call(2))
    actions = hand.actions()
    again = replay_actions(hand.config.to_dict(), hand.rules.to_dict(), actions)
    assert again.view() == hand.view() and again.log == hand.log
    assert PaiuteHand.from_actions(hand.config, hand.rules, actions).log == hand.log
    bad = [*actions[:2], discard(2, "Ks")]
    with pytest.raises(RuleError) as error:
        replay_actions(hand.config, None, bad)
    assert problems(error) == [
        (
            "actions[2]",
            "seat 2 must draw a card before discarding (rule 3 (“Turns: draw, then discard”))",
        )
    ]


def test_record_and_settlement_only_once_the_hand_is_over() -> None:
    hand = live(THREE)
    with pytest.raises(RuleError, match=r"the hand is not finished: the players are taking"):
        hand.settle()
    with pytest.raises(RuleError, match=r"the hand is not finished"):
        hand.to_record()
    act(hand, draw(1, "3h"), call(1, "As"), draw(2, "Qc"), discard(2, "Qc"))
    act(hand, draw(3, "Qd"), discard(3, "Qd"))
    assert hand.to_record() == {
        "dealer": 3,
        "ante": 100,
        "wild_card": "3c",
        "players": [
            {"seat": 1, "cards": ["7c", "8c", "9c", "Jc", "3h"]},
            {"seat": 2, "cards": ["Ks", "Kh", "Kd", "7s", "3d"]},
            {"seat": 3, "cards": ["2h", "4h", "6d", "8s", "Td"]},
        ],
        "caller": 1,
    }
    settlement = hand.settle()
    assert evaluate(hand.to_record()).to_dict() == settlement.to_dict()
    data = settlement.to_dict()
    assert data["seats"][0]["lines"] == [
        {"wager": "pot", "stake": 100, "outcome": "win", "amount": 200, "odds": None, "share": 300}
    ]
    assert data["seats"][0]["combination"]["wild_as"] == [{"card": "3h", "as": "Tc"}]
    assert (data["wild_card"], data["wild_rank"], data["caller"], data["rake"]) == (
        "3c",
        "3",
        1,
        0,
    )
    assert data["explanation"][:2] == [
        "Wild card 3c: every three is wild (rule 2 (“The deal and the wild rank”)). Pot 300: 3 antes of 100 (rule 1 (“Players, pack and ante”)).",
        "Seat 1 called with straight flush 7-J of clubs (7c 8c 9c Jc 3h; 3h as Tc) (rule 5 (“The call”)). "
        "Each player after the caller up to and including the dealer had one more turn "
        "(rule 6 (“After the call: the final turns”)).",
    ]


def test_can_methods_mirror_verify() -> None:
    hand = live(THREE)
    assert hand.can_draw(1, Source.STOCK, card("2c"))
    assert not hand.can_draw(1, Source.DISCARD)
    assert not hand.can_draw(2, Source.STOCK, card("2c"))
    hand.draw(1, Source.STOCK, card("3h"))
    assert hand.can_call(1, card("As")) and not hand.can_call(1, None)
    assert hand.can_discard(1, card("As")) and not hand.can_discard(1, card("Ks"))
