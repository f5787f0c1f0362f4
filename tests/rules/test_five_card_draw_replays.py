"""Five Card Draw 7-A: stacked-deck replays of whole hands in each structure, settled with exact
amounts. Money in cents, blinds 100/200 ($1/$2), big bet 400, seat 1 on the button unless said."""

from __future__ import annotations

from typing import Any

import pytest

from casino.rules.errors import RuleError
from casino.rules.five_card_draw import Calling, Phase, Raising, evaluate, replay
from casino.rules.settlement import SeatStatus
from tests.rules.draw_helpers import (
    bet,
    call,
    check,
    draw,
    fold,
    nets,
    pat,
    post,
    problems,
    raise_,
    record,
    seat,
)

FLUSH = "As Ks Qs Js 9s"
TRIPS = "Qh Qd Qc 8h 7d"
TWO_PAIR = "Ah Ad Kh Kd 7c"
STRAIGHT = "Jh Tc 9h 8d 7h"


def outcomes(result: Any) -> dict[int, tuple[str, int, int]]:
    """Each seat's one line as ``(outcome, stake, amount)``."""
    return {
        s.seat: (str(s.lines[0].outcome), s.lines[0].stake, s.lines[0].amount) for s in result.seats
    }


# --------------------------------------------------------------------------- limit


def test_limit_short_all_in_under_half_a_bet_is_not_a_raise() -> None:
    seats = [seat(1, TWO_PAIR), seat(2, FLUSH, stack=450), seat(3, TRIPS)]
    # Seat 1 raises to 400; seat 2 is all-in to 450, only 50 more (less than half of 200).
    hand = replay(record(*seats, actions=[raise_(1, 400), raise_(2, 450)]))
    assert hand.log[-1] == Raising(2, 450, all_in=True, full=False)
    # The big blind has not acted: it may call 450 or complete to a full raise, 600.
    assert hand.legal_actions() == [
        {"type": "fold"},
        {"type": "call", "amount": 250},
        {"type": "raise", "min": 600, "max": 600},
    ]
    hand.apply(call(3))
    assert hand.legal_actions() == [{"type": "fold"}, {"type": "call", "amount": 50}]
    for action in [call(1), *pat(2, 3, 1), bet(3, 400), call(1)]:
        hand.apply(action)
    result = hand.settle()
    assert result.extra["pots"] == [
        {"amount": 1350, "eligible": [1, 2, 3], "winners": [2], "rake": 0},
        {"amount": 800, "eligible": [1, 3], "winners": [3], "rake": 0},
    ]
    assert result.extra["showdown_order"] == [3, 1, 2]
    assert nets(result) == {1: -850, 2: 900, 3: -50}


def test_limit_all_in_of_half_a_bet_counts_as_a_raise_towards_the_cap() -> None:
    seats = [seat(1, TWO_PAIR), seat(2, FLUSH, stack=500), seat(3, TRIPS)]
    hand = replay(record(*seats, actions=[raise_(1, 400), raise_(2, 500)]))
    assert hand.log[-1] == Raising(2, 500, all_in=True, full=True)
    assert hand.legal_actions()[-1] == {"type": "raise", "min": 700, "max": 700}
    hand.apply(raise_(3, 700))  # the third raise after the blind: capped
    assert hand.legal_actions() == [{"type": "fold"}, {"type": "call", "amount": 300}]


def test_limit_big_blind_short_posts_all_in_and_the_call_is_the_full_blind() -> None:
    seats = [seat(1, TWO_PAIR), seat(2, FLUSH, stack=150)]
    hand = replay(record(*seats))
    assert hand.view()["seats"][1] | {"bet": 150, "all_in": True} == hand.view()["seats"][1]
    # Nobody left to raise against: the button may only call (to 200) or fold.
    assert hand.legal_actions() == [{"type": "fold"}, {"type": "call", "amount": 100}]
    for action in [call(1), *pat(2, 1)]:
        hand.apply(action)
    assert hand.phase is Phase.SHOWDOWN  # no betting after the draw: seat 2 is all-in
    result = hand.settle()
    assert "Seat 1's uncalled 50 is returned." in result.explanation
    assert nets(result) == {1: -150, 2: 150}


def test_limit_heads_up_uncapped_whole_hand() -> None:
    seats = [seat(1, FLUSH), seat(2, TWO_PAIR)]
    predraw = [raise_(1, 400), raise_(2, 600), raise_(1, 800), raise_(2, 1000), call(1)]
    postdraw = [bet(2, 400), raise_(1, 800), raise_(2, 1200), raise_(1, 1600)]
    postdraw += [raise_(2, 2000), raise_(1, 2400), call(2)]
    actions = predraw + pat(2, 1) + postdraw
    with pytest.raises(RuleError) as error:
        evaluate(record(*seats, actions=actions))
    assert problems(error)[0][0] == "actions[3]"  # capped at 800 without the option
    result = evaluate(record(*seats, actions=actions), {"heads_up_uncapped": True})
    assert result.extra["showdown_order"] == [1, 2]
    assert nets(result) == {1: 3400, 2: -3400}


# --------------------------------------------------------------------------- pot limit


def test_pot_limit_whole_hand_at_the_maximum_each_time() -> None:
    seats = [seat(1, FLUSH), seat(2, TWO_PAIR), seat(3, TRIPS)]
    base: dict[str, Any] = {"structure": "pot_limit", "big_bet": None}
    steps: list[tuple[dict[str, Any], dict[str, Any]]] = [
        # Pot 300, call 200: raise to 700.
        (raise_(1, 700), {"type": "raise", "min": 400, "max": 700, "pot": 700}),
        # Pot 1000, call 600: raise to 700 + 1600 = 2300; at least 700 + 500.
        (raise_(2, 2300), {"type": "raise", "min": 1200, "max": 2300, "pot": 2300}),
        # Pot 3200, call 2100: up to 7600; the minimum is 2300 + 1600.
        (fold(3), {"type": "raise", "min": 3900, "max": 7600, "pot": 7600}),
        (call(1), {"type": "raise", "min": 3900, "max": 7100, "pot": 7100}),
    ]
    done: list[dict[str, Any]] = []
    for action, biggest in steps:
        hand = replay(record(*seats, **base, actions=done))
        assert hand.legal_actions()[-1] == biggest
        done.append(action)
    done += pat(2, 1)
    hand = replay(record(*seats, **base, actions=done))
    assert hand.legal_actions()[-1] == {"type": "bet", "min": 200, "max": 4800, "pot": 4800}
    done.append(bet(2, 4800))
    hand = replay(record(*seats, **base, actions=done))
    # Seat 1 has 7700 behind, less than a full raise (to 9600): all-in only.
    assert hand.legal_actions()[-1] == {"type": "raise", "min": 7700, "max": 7700, "pot": 7700}
    done += [raise_(1, 7700), call(2)]
    result = evaluate(record(*seats, **base, actions=done))
    assert result.extra["showdown_order"] == [1, 2]
    assert nets(result) == {1: 10_200, 2: -10_000, 3: -200}
    assert outcomes(result)[3] == ("lose", 200, -200)


# --------------------------------------------------------------------------- no limit


NL_SEATS = [
    seat(1, TRIPS),
    seat(2, STRAIGHT),
    seat(3, TWO_PAIR),
    seat(4, FLUSH, stack=2500),
]
NL_PREDRAW = [raise_(4, 500), raise_(1, 800), call(2), raise_(3, 2000), raise_(4, 2500)]
NL_PREDRAW += [call(1), fold(2), call(3)]


def test_no_limit_min_raises_short_all_in_and_side_pot() -> None:
    base: dict[str, Any] = {"structure": "no_limit", "big_bet": None}
    hand = replay(record(*NL_SEATS, **base, actions=NL_PREDRAW[:2]))
    # 200 -> 500 (by 300) -> 800 (by 300): the next raise is to at least 1100.
    assert hand.legal_actions()[-1] == {"type": "raise", "min": 1100, "max": 10_000}
    hand = replay(record(*NL_SEATS, **base, actions=NL_PREDRAW[:4]))
    # Seat 3 raised by 1200; seat 4's all-in to 2500 is short of 3200 but allowed.
    assert hand.legal_actions()[-1] == {"type": "raise", "min": 2500, "max": 2500}
    hand = replay(record(*NL_SEATS, **base, actions=NL_PREDRAW[:5]))
    # Seat 1 faced seat 3's full raise since it acted, so it may raise (to 2500 + 1200).
    assert hand.legal_actions()[-1] == {"type": "raise", "min": 3700, "max": 10_000}
    hand = replay(record(*NL_SEATS, **base, actions=NL_PREDRAW[:7]))
    # Seat 3 raised last and only faces the short all-in: call or fold.
    assert hand.legal_actions() == [{"type": "fold"}, {"type": "call", "amount": 500}]

    actions = NL_PREDRAW + [draw(3, "7c", "8c"), *pat(4, 1), bet(3, 200), raise_(1, 1000)]
    actions.append(call(3))
    result = evaluate(record(*NL_SEATS, **base, actions=actions))
    assert result.extra["pots"] == [
        {"amount": 8300, "eligible": [1, 3, 4], "winners": [4], "rake": 0},
        {"amount": 2000, "eligible": [1, 3], "winners": [1], "rake": 0},
    ]
    assert result.extra["showdown_order"] == [1, 3, 4]
    assert nets(result) == {1: -1500, 2: -800, 3: -3500, 4: 5800}
    assert result.seat(2).status is SeatStatus.FOLDED
    assert result.seat(3).cards == ("Ah", "Ad", "Kh", "Kd", "8c")


def test_no_limit_bet_below_the_big_blind_only_all_in() -> None:
    seats = [seat(1, FLUSH), seat(2, TWO_PAIR, stack=350)]
    actions = [call(1), check(2), *pat(2, 1)]
    hand = replay(record(*seats, structure="no_limit", actions=actions))
    assert hand.legal_actions()[-1] == {"type": "bet", "min": 150, "max": 150}
    with pytest.raises(RuleError) as error:
        hand.apply(bet(2, 100), 5)
    assert problems(error) == [
        (
            "actions[5]",
            "seat 2: bet to 100 is below the minimum bet 200; short of that only an all-in "
            "(150) is allowed",
        )
    ]
    hand.apply(bet(2, 150))
    # Seat 1 faces an all-in with nobody else to bet against: call or fold only.
    assert hand.legal_actions() == [{"type": "fold"}, {"type": "call", "amount": 150}]
    hand.apply(call(1))
    assert hand.log[-3] == Calling(1, 150, all_in=False)
    assert nets(hand.settle()) == {1: 350, 2: -350}


# --------------------------------------------------------------------------- folds


def test_everyone_folds_to_a_bet_after_the_draw() -> None:
    seats = [seat(1, FLUSH), seat(2, TWO_PAIR), seat(3, TRIPS), seat(4, STRAIGHT)]
    actions = [call(4), call(1), call(2), check(3), *pat(2, 3, 4, 1), bet(2, 400)]
    actions += [fold(3), fold(4), fold(1)]
    hand = replay(record(*seats, actions=actions))
    assert (hand.phase, hand.to_act, hand.legal_actions()) == (Phase.COMPLETE, None, [])
    result = hand.settle()
    assert result.extra["pots"] == [{"amount": 800, "eligible": [2], "winners": [2], "rake": 0}]
    assert result.extra["showdown_order"] == []
    assert [s.hand for s in result.seats] == [None] * 4
    assert "Seat 2's uncalled 400 is returned." in result.explanation
    assert "Everyone else folded: seat 2 wins without a showdown." in result.explanation
    assert outcomes(result) == {
        1: ("lose", 200, -200),
        2: ("win", 200, 600),
        3: ("lose", 200, -200),
        4: ("lose", 200, -200),
    }


def test_everyone_folds_to_the_big_blind() -> None:
    seats = [seat(1, FLUSH), seat(2, TWO_PAIR), seat(3, TRIPS)]
    result = evaluate(record(*seats, actions=[fold(1), fold(2)]))
    assert outcomes(result) == {1: ("push", 0, 0), 2: ("lose", 100, -100), 3: ("win", 100, 100)}
    assert [s.status for s in result.seats] == [
        SeatStatus.FOLDED,
        SeatStatus.FOLDED,
        SeatStatus.SETTLED,
    ]


def test_a_player_may_fold_in_turn_during_the_draw() -> None:
    seats = [seat(1, FLUSH), seat(2, TWO_PAIR), seat(3, TRIPS), seat(4, STRAIGHT)]
    actions = [call(4), call(1), call(2), check(3), draw(2, "7c", "8c"), fold(3)]
    hand = replay(record(*seats, actions=actions))
    assert hand.to_act == 4 and set(TRIPS.split()) <= {str(c) for c in hand.reshuffle_pool()}
    for action in [*pat(4, 1), check(2), check(4), check(1)]:
        hand.apply(action)
    assert hand.settle().extra["showdown_order"] == [2, 4, 1]


# --------------------------------------------------------------------------- split pots


def test_three_way_split_with_dead_money_odd_chips_and_rake_shared_by_the_winners() -> None:
    seats = [seat(1, "As Kd Qh Jc 9s"), seat(2, "Ah Ks Qd Jh 9c"), seat(3, "Ac Kh Qs Jd 9h")]
    posts = [post(2, "small_blind", 100), post(3, "big_blind", 200), post(1, "dead", 100)]
    actions = [call(1), call(2), check(3), *pat(2, 3, 1), check(2), check(3), check(1)]
    result = evaluate(
        record(*seats, posts=posts, actions=actions),
        {"rake": {"kind": "percent", "percent": 5}},
    )
    # Pot 700, rake 35, 665 paid: 221 each and both odd chips to seat 2, the first winner
    # clockwise from the button (clause 9); the rake is shared the same way.
    assert result.extra["pots"] == [
        {"amount": 700, "eligible": [1, 2, 3], "winners": [2, 3, 1], "rake": 35}
    ]
    assert {s.seat: s.rake for s in result.seats} == {1: 11, 2: 13, 3: 11}
    assert outcomes(result) == {1: ("lose", 300, -68), 2: ("win", 200, 36), 3: ("win", 200, 32)}
    assert nets(result) == {1: -79, 2: 23, 3: 21}
    assert any("odd chips to the first winner left of the button" in s for s in result.explanation)


# --------------------------------------------------------------------------- records


def test_a_replayed_record_rebuilds_the_same_hand_and_settlement() -> None:
    seats = [seat(1, FLUSH), seat(2, TWO_PAIR), seat(3, TRIPS)]
    actions = [raise_(1, 400), call(2), call(3), draw(2, "7c", "8c"), *pat(3, 1)]
    actions += [bet(2, 400), call(3), raise_(1, 800), call(2), fold(3)]
    hand = replay(record(*seats, actions=actions), {"rake": {"kind": "fixed", "amount": 50}})
    rebuilt = hand.to_record()
    assert rebuilt["actions"] == actions
    assert rebuilt["posts"] == [post(2, "small_blind", 100), post(3, "big_blind", 200)]
    again = replay(rebuilt, {"rake": {"kind": "fixed", "amount": 50}})
    assert again.log == hand.log
    assert again.settle().to_dict() == hand.settle().to_dict()


def test_view_is_json_ready_with_pots_from_contributions() -> None:
    seats = [seat(1, FLUSH), seat(2, TWO_PAIR), seat(3, TRIPS)]
    hand = replay(record(*seats, actions=[raise_(1, 400), call(2), call(3), *pat(2, 3)]))
    hand.apply(draw(1, "9s", "8c"))
    hand.apply(bet(2, 400))
    view = hand.view()
    assert view["phase"] == "postdraw" and view["to_act"] == 3
    assert view["pot"] == 1600 and view["bet"] == 400
    assert view["pots"] == [{"amount": 1200, "eligible": [1, 2, 3]}]
    assert view["seats"][0] == {
        "seat": 1,
        "stack": 9600,
        "bet": 0,
        "total_in": 400,
        "folded": False,
        "all_in": False,
        "drawn": 1,
    }
    assert view["cards_seen"] == 16 and view["stub"] == 16
    assert view["legal_actions"] == [
        {"type": "fold"},
        {"type": "call", "amount": 400},
        {"type": "raise", "min": 800, "max": 800},
    ]
