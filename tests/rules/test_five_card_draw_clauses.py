"""Five Card Draw 7-A: one test (or a small group) per clause 1-10 of the rules brief, and the
brief's worked examples 1, 2, 3, 5 and 6 played as whole hands with exact amounts.

Money is in cents: blinds 100/200 are $1/$2. Unless a test says otherwise the game is limit
$1/$2 with a $4 big bet and seat 1 on the button.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from casino.rules.errors import RuleError
from casino.rules.five_card_draw import (
    Drawing,
    Phase,
    Showdown,
    evaluate,
    replay,
)
from casino.rules.settlement import Outcome, SeatStatus
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


def heads_up_showdown(first: str, second: str, **rules: Any) -> Any:
    """Seat 1 (button, small blind) calls, seat 2 checks, both stand pat and check it down."""
    hand = record(
        seat(1, first),
        seat(2, second),
        actions=[call(1), check(2), *pat(2, 1), check(2), check(1)],
    )
    return evaluate(hand, rules or None)


# --------------------------------------------------------------------------- worked examples


def test_worked_example_1_a_7_8_9_t_is_a_ten_high_straight_and_loses_to_7_to_j() -> None:
    result = heads_up_showdown("As 7h 8d 9c Ts", "7c 8s 9h Td Jc")
    assert result.seat(1).hand == "straight T-high (A-7-8-9-T)"
    assert result.seat(2).hand == "straight J-high"
    assert nets(result) == {1: -200, 2: 200}
    assert result.extra["pots"] == [{"amount": 400, "eligible": [1, 2], "winners": [2], "rake": 0}]


def test_worked_example_2_flush_beats_full_house_by_default() -> None:
    result = heads_up_showdown("Ks Qs 9s 8s 7s", "Ac Ad Ah Kc Kd")
    assert result.seat(1).hand == "flush K-Q-9-8-7"
    assert result.seat(2).hand == "full house A over K"
    assert nets(result) == {1: 200, 2: -200}


FIVE_STRAIGHT = [  # five dealt in: the 36-card deck
    seat(1, "Ac 6d 7s 8h 9c"),
    seat(2, "Qc Qd Qh 7c 6s"),
    seat(3, "Js Td 9s 8c 6c"),
    seat(4, "As Ah Ks Kc Jd"),
    seat(5, "Th Tc 9d 8d 7h"),
]
FIVE_ACE_HIGH = [
    seat(1, "Ac 7d 8s 9h Tc"),
    seat(2, "6s 6h Kd Qc Jh"),
    seat(3, "Ks Qd Jd 9d 7c"),
    seat(4, "As Ah Kc Kh Js"),
    seat(5, "Th Td 9s 8c 7h"),
]
# Seat 4 (first left of the big blind) and seat 5 fold; 1, 2, 3 check it down.
FIVE_ACTIONS = [fold(4), fold(5), call(1), call(2), check(3), *pat(2, 3, 1)]
FIVE_ACTIONS += [check(2), check(3), check(1)]


def test_worked_example_3_five_dealt_in_a_6_7_8_9_is_a_straight() -> None:
    result = evaluate(record(*FIVE_STRAIGHT, actions=FIVE_ACTIONS))
    assert result.seat(1).hand == "straight 9-high (A-6-7-8-9)"
    assert result.seat(2).hand == "three of a kind Q, 7-6 kickers"
    assert nets(result) == {1: 400, 2: -200, 3: -200, 4: 0, 5: 0}


def test_worked_example_3_five_dealt_in_a_7_8_9_t_is_ace_high() -> None:
    result = evaluate(record(*FIVE_ACE_HIGH, actions=FIVE_ACTIONS))
    assert result.seat(1).hand == "high card A-T-9-8-7"
    assert result.seat(2).hand == "pair 6, K-Q-J kickers"
    assert nets(result) == {1: -200, 2: 400, 3: -200, 4: 0, 5: 0}


LIMIT_FOUR = [
    seat(1, "As Ks Qs Js 9s"),  # flush
    seat(2, "Ah Ad Kh Kd 7c"),  # two pair
    seat(3, "Qh Qd Qc 8h 7d"),  # trips
    seat(4, "Jh Tc 9h 8d 7h"),  # straight
]
CAPPED_PREDRAW = [raise_(4, 400), raise_(1, 600), raise_(2, 800), call(3), call(4), call(1)]
CAPPED_POSTDRAW = [bet(2, 400), raise_(3, 800), raise_(4, 1200), raise_(1, 1600)]
CAPPED_POSTDRAW += [call(2), call(3), call(4)]


def test_worked_example_5_limit_2_4_is_capped_at_8_then_16() -> None:
    hand = replay(record(*LIMIT_FOUR, actions=CAPPED_PREDRAW[:3]))
    # $2 -> $4 -> $6 -> $8: the big blind may only call or fold.
    assert hand.to_act == 3
    assert hand.legal_actions() == [{"type": "fold"}, {"type": "call", "amount": 600}]
    with pytest.raises(RuleError) as error:
        hand.apply(raise_(3, 1000), 3)
    assert problems(error) == [
        (
            "actions[3]",
            "seat 3: a fourth raise is not allowed in limit (the round is capped at a bet "
            "and 3 raises)",
        )
    ]
    actions = CAPPED_PREDRAW + pat(2, 3, 4, 1) + CAPPED_POSTDRAW[:4]
    hand = replay(record(*LIMIT_FOUR, actions=actions))
    # Post-draw: $4 -> $8 -> $12 -> $16 and capped again.
    assert hand.legal_actions() == [{"type": "fold"}, {"type": "call", "amount": 1200}]
    result = evaluate(record(*LIMIT_FOUR, actions=actions + CAPPED_POSTDRAW[4:]))
    assert result.extra["pots"][0]["amount"] == 4 * 800 + 4 * 1600
    assert nets(result) == {1: 7200, 2: -2400, 3: -2400, 4: -2400}
    assert result.extra["showdown_order"] == [1, 2, 3, 4]  # seat 1 made the last raise


def test_worked_example_6_pot_10_bet_5_raise_to_at_most_25() -> None:
    # Heads-up pot limit, blinds $2.50/$5: the small blind calls, so the pot is $10.
    actions = [call(1), check(2), *pat(2, 1), bet(2, 500)]
    hand = replay(
        record(
            seat(1, "As Ks Qs Js 9s"),
            seat(2, "Ah Ad Kh Kd 7c"),
            structure="pot_limit",
            small_blind=250,
            big_blind=500,
            big_bet=None,
            actions=actions,
        )
    )
    assert hand.view()["pots"] == [{"amount": 1000, "eligible": [1, 2]}]
    # In pot limit the largest raise is also offered as "pot" (the tablet's quick step).
    assert hand.legal_actions()[-1] == {"type": "raise", "min": 1000, "max": 2500, "pot": 2500}
    assert hand.can_raise_to(1, 2500)
    with pytest.raises(RuleError) as error:
        hand.apply(raise_(1, 2600), 6)
    assert problems(error) == [("actions[6]", "seat 1: raise to 2600 is over the pot limit 2500")]


# --------------------------------------------------------------------------- clauses


def test_clause_1_two_to_five_players_and_the_sixes_only_with_five() -> None:
    one = record(seat(1, "As Ks Qs Js 9s"))
    with pytest.raises(RuleError) as error:
        replay(one)
    assert ("seats", "2 to 5 players are dealt in, got 1") in problems(error)

    four = [seat(1, "6s Ks Qs Js 9s"), seat(2, "Ah Ad Kh Kd 7c"), seat(3, "Qh Qd Qc 8h 7d")]
    with pytest.raises(RuleError) as error:
        replay(record(*four))
    assert problems(error) == [
        (
            "seats[0].cards[0]",
            "seat 1: 6s is not in the 32-card deck (7 through ace; the 6s come in only with "
            "five players)",
        )
    ]
    assert replay(record(*FIVE_STRAIGHT)).view()["deck_size"] == 36
    assert replay(record(*LIMIT_FOUR)).view()["deck_size"] == 32


def test_clause_1_later_folds_do_not_change_the_deck() -> None:
    # Five dealt in, two fold before the draw: the 6s stay in the deck for the draw.
    seats = [
        seat(1, "As Ks Qs Js 9s"),
        seat(2, "Ah Ad Kh Kd 7c"),
        seat(3, "Qh Qd Qc 8h 7d"),
        seat(4, "Jh Tc 9h 8d 7h"),
        seat(5, "Ac Kc Jc Td 8c"),
    ]
    actions = [fold(4), fold(5), call(1), call(2), check(3), draw(2, "7c", "6h")]
    hand = replay(record(*seats, actions=actions))
    assert str(hand.cards(2)[-1]) == "6h" and hand.view()["deck_size"] == 36
    # Four dealt in: no 6 can come in the draw.
    actions = [call(4), call(1), call(2), check(3), draw(2, "7c", "6h")]
    with pytest.raises(RuleError) as error:
        replay(record(*LIMIT_FOUR, actions=actions))
    assert problems(error) == [
        (
            "actions[4]",
            "seat 2 cannot receive 6h: not in the 32-card deck (7 through ace; the 6s come in "
            "only with five players)",
        )
    ]


def test_clause_2_option_off_full_house_beats_flush() -> None:
    result = heads_up_showdown("Ks Qs 9s 8s 7s", "Ac Ad Ah Kc Kd", flush_beats_full_house=False)
    assert nets(result) == {1: -200, 2: 200}
    assert result.rules["flush_beats_full_house"] is False


def test_clause_3_suited_low_straight_is_a_straight_flush_and_suits_never_rank() -> None:
    result = heads_up_showdown("Ah 7h 8h 9h Th", "Ks Kd Kc Kh 7s")
    assert result.seat(1).hand == "straight flush T-high (A-7-8-9-T)"
    assert nets(result) == {1: 200, 2: -200}
    # Identical ranks in different suits split the pot.
    tie = heads_up_showdown("As Kd Qh Jc 9s", "Ah Ks Qd Jh 9c")
    assert nets(tie) == {1: 0, 2: 0}
    assert tie.extra["pots"][0]["winners"] == [2, 1]  # clockwise from the button (seat 1)
    assert [line.outcome for s in tie.seats for line in s.lines] == [Outcome.PUSH] * 2


@pytest.mark.parametrize(
    ("seats", "total"),
    [(LIMIT_FOUR, 201_376), (FIVE_STRAIGHT, 376_992)],
    ids=["32-card deck", "36-card deck"],
)
def test_clause_4_the_engine_deals_from_the_counted_decks(
    seats: list[dict[str, Any]], total: int
) -> None:
    # The category counts themselves are checked exhaustively in test_poker_hands.py; here the
    # engine's deck is the one those counts are for.
    deck = replay(record(*seats)).deck
    assert math.comb(len(deck), 5) == total
    assert len(set(deck)) == len(deck)


def test_clause_5_blinds_left_of_the_button_and_heads_up_the_button_posts_small() -> None:
    view = replay(record(*LIMIT_FOUR, button=3)).view()
    bets = {entry["seat"]: entry["bet"] for entry in view["seats"]}
    assert bets == {1: 200, 2: 0, 3: 0, 4: 100}  # small blind seat 4, big blind wraps to 1
    assert view["to_act"] == 2

    heads_up = replay(record(seat(3, "As Ks Qs Js 9s"), seat(7, "Ah Ad Kh Kd 7c"), button=7))
    bets = {entry["seat"]: entry["bet"] for entry in heads_up.view()["seats"]}
    assert bets == {3: 200, 7: 100}
    assert heads_up.to_act == 7  # the button acts first before the draw


def test_clause_5_a_dead_button_still_puts_the_blinds_clockwise() -> None:
    # Seat 2 is the (empty) button: seat 3 posts small, seat 4 big, seat 1 acts first.
    seats = [seat(1, "As Ks Qs Js 9s"), seat(3, "Ah Ad Kh Kd 7c"), seat(4, "Qh Qd Qc 8h 7d")]
    hand = replay(record(*seats, button=2))
    assert [op.seat for op in hand.log[:2]] == [3, 4]  # type: ignore[union-attr]
    assert hand.to_act == 1


def test_clause_6_limit_bets_are_the_small_bet_before_and_the_big_bet_after_the_draw() -> None:
    hand = replay(record(*LIMIT_FOUR, actions=[call(4)]))
    assert hand.legal_actions()[-1] == {"type": "raise", "min": 400, "max": 400}
    with pytest.raises(RuleError) as error:
        hand.apply(raise_(1, 500), 1)
    assert problems(error) == [
        (
            "actions[1]",
            "seat 1: raise to 500 is not the limit raise: in limit the raise is to exactly "
            "400 (the small bet is 200)",
        )
    ]
    actions = [call(4), call(1), call(2), check(3), *pat(2, 3, 4, 1)]
    hand = replay(record(*LIMIT_FOUR, actions=actions))
    assert hand.legal_actions()[-1] == {"type": "bet", "min": 400, "max": 400}


def test_clause_6_heads_up_uncapped_option() -> None:
    heads_up = [seat(1, "As Ks Qs Js 9s"), seat(2, "Ah Ad Kh Kd 7c")]
    raises = [raise_(1, 400), raise_(2, 600), raise_(1, 800)]
    capped = replay(record(*heads_up, actions=raises))
    assert capped.legal_actions() == [{"type": "fold"}, {"type": "call", "amount": 200}]
    uncapped = replay(
        record(*heads_up, actions=[*raises, raise_(2, 1000), raise_(1, 1200)]),
        {"heads_up_uncapped": True},
    )
    assert uncapped.legal_actions()[-1] == {"type": "raise", "min": 1400, "max": 1400}


def test_clause_6_once_capped_a_round_stays_capped_when_it_becomes_heads_up() -> None:
    actions = [raise_(4, 400), raise_(1, 600), raise_(2, 800), fold(3), fold(4)]
    hand = replay(record(*LIMIT_FOUR, actions=actions), {"heads_up_uncapped": True})
    assert hand.to_act == 1
    assert hand.legal_actions() == [{"type": "fold"}, {"type": "call", "amount": 200}]


def test_clause_6_pot_limit_largest_raise_is_the_pot_after_calling() -> None:
    hand = replay(record(*LIMIT_FOUR, structure="pot_limit", big_bet=None))
    # Pot 300 (blinds), the call 200 makes it 500: raise to 200 + 500 = 700.
    assert hand.legal_actions()[-1] == {"type": "raise", "min": 400, "max": 700, "pot": 700}


def test_clause_6_no_limit_raise_is_at_least_the_previous_raise() -> None:
    hand = replay(record(*LIMIT_FOUR, structure="no_limit", big_bet=None, actions=[raise_(4, 700)]))
    # Seat 4 raised by 500, so the next raise is to at least 1200; up to the whole stack.
    assert hand.legal_actions()[-1] == {"type": "raise", "min": 1200, "max": 10_000}
    with pytest.raises(RuleError) as error:
        hand.apply(raise_(1, 1100), 1)
    assert problems(error) == [
        ("actions[1]", "seat 1: raise to 1100 is below the minimum raise to 1200")
    ]


def test_clause_6_a_short_all_in_does_not_reopen_the_betting() -> None:
    seats = [
        seat(1, "As Ks Qs Js 9s"),
        seat(2, "Ah Ad Kh Kd 7c", stack=800),
        seat(3, "Qh Qd Qc 8h 7d"),
    ]
    # Seat 1 raises to 600 (by 400); seat 2 goes all-in to 800, only 200 more.
    actions = [raise_(1, 600), raise_(2, 800), call(3)]
    hand = replay(record(*seats, structure="no_limit", big_bet=None, actions=actions))
    assert hand.to_act == 1
    assert hand.legal_actions() == [{"type": "fold"}, {"type": "call", "amount": 200}]
    with pytest.raises(RuleError) as error:
        hand.apply(raise_(1, 1200), 3)
    assert "the betting was not reopened" in problems(error)[0][1]
    # The big blind had not acted yet, so it could have raised: a full raise is to 1200.
    before = replay(record(*seats, structure="no_limit", big_bet=None, actions=actions[:2]))
    assert before.legal_actions()[-1] == {"type": "raise", "min": 1200, "max": 10_000}


def test_clause_7_the_big_blind_has_the_option() -> None:
    hand = replay(record(*LIMIT_FOUR, actions=[call(4), call(1), call(2)]))
    assert hand.to_act == 3
    assert hand.legal_actions() == [
        {"type": "fold"},
        {"type": "check"},
        {"type": "raise", "min": 400, "max": 400},
    ]
    hand.apply(raise_(3, 400), 3)
    assert hand.phase is Phase.PREDRAW and hand.to_act == 4


def test_clause_7_draw_and_round_2_start_left_of_the_button_skipping_folds() -> None:
    # Button 1: seat 2 (small blind) folds, so the draw and round 2 start with seat 3.
    hand = replay(record(*LIMIT_FOUR, actions=[call(4), call(1), fold(2), check(3)]))
    assert (hand.phase, hand.to_act) == (Phase.DRAW, 3)
    order = []
    for number in (3, 4, 1):
        order.append(hand.to_act)
        hand.apply(draw(number))
    assert order == [3, 4, 1]
    assert (hand.phase, hand.to_act) == (Phase.POSTDRAW, 3)


RESHUFFLE_SEATS = [  # five dealt in, 36 cards: the stub is the 11 cards Q..A not dealt
    seat(1, "6c 6d 6h 6s 7c"),
    seat(2, "7d 7h 7s 8c 8d"),
    seat(3, "8h 8s 9c 9d 9h"),
    seat(4, "9s Tc Td Th Ts"),
    seat(5, "Jc Jd Jh Js Qc"),
]
# Button 5: seat 1 small blind, seat 2 big blind; seat 3 first to act.
RESHUFFLE_PREDRAW = [call(3), call(4), call(5), call(1), check(2)]
RESHUFFLE_DRAWS = [
    draw(1, "6c 6d 6h 6s 7c", "Qd Qh Qs Kc Kd"),  # stub 11 -> 6
    draw(2, "7d 7h 7s 8c 8d", "Kh Ks Ac Ad Ah"),  # 6 -> 1 (the last card is never dealt)
    draw(3, "8h 8s 9c 9d 9h", "As 6c 6d 6h 6s"),  # reshuffle: As and seats 1-2's discards
    draw(4, "9s Tc Td Th Ts", "7c 7d 7h 7s 8c"),  # from the new stub of 6 -> 1
    draw(5, "Jc Jd Jh Js Qc", "Tc Td Th Ts 8d"),  # reshuffle again: 8d and seats 3-4's discards
]


def test_clause_8_reshuffle_when_the_stub_cannot_serve_the_draw() -> None:
    actions = RESHUFFLE_PREDRAW + RESHUFFLE_DRAWS + [check(n) for n in (1, 2, 3, 4, 5)]
    hand = replay(record(*RESHUFFLE_SEATS, button=5, actions=actions))
    draws = [op for op in hand.log if isinstance(op, Drawing)]
    assert [len(op.reshuffled) for op in draws] == [0, 0, 10, 0, 10]
    assert [str(card) for card in draws[2].reshuffled][:4] == ["6c", "6d", "6h", "6s"]
    assert "8h" not in {str(card) for card in draws[2].reshuffled}  # never seat 3's own
    result = hand.settle()
    assert result.seat(5).hand == "four of a kind T, 8 kicker"
    assert nets(result) == {1: -200, 2: -200, 3: -200, 4: -200, 5: 800}


@pytest.mark.parametrize(
    ("draws", "message"),
    [
        (
            [draw(1, "6c 6d 6h 6s 7c", "Qd Qh Qs Kc Kd"), draw(2, "7d", "6c")],
            "6c was already seen this hand: folded cards and discards are shuffled back only "
            "when the stub runs out (6 left, the last never dealt)",
        ),
        (
            RESHUFFLE_DRAWS[:2] + [draw(3, "8h 8s 9c 9d 9h", "As 6c 6d 6h 8h")],
            "8h was already seen this hand: seat 3's own discards are never shuffled back",
        ),
        (
            [
                draw(1, "6c 6d 6h 6s 7c", "Qd Qh Qs Kc Kd"),
                draw(2, "7d 7h 7s", "Kh Ks Ac"),  # stub 6 -> 3
                draw(3, "8h 8s 9c 9d 9h", "Ad 6c 6d 6h 6s"),  # 2 stub cards must come first
            ],
            "seat 3 receives 4 reshuffled cards (6c, 6d, 6h, 6s) but only 3 can be: the "
            "stub's other 2 cards are dealt first",
        ),
    ],
    ids=["discard before the stub runs out", "own discard", "stub not used up first"],
)
def test_clause_8_reshuffle_limits(draws: list[dict[str, Any]], message: str) -> None:
    with pytest.raises(RuleError) as error:
        replay(record(*RESHUFFLE_SEATS, button=5, actions=RESHUFFLE_PREDRAW + draws))
    assert problems(error) == [(f"actions[{len(RESHUFFLE_PREDRAW) + len(draws) - 1}]", message)]


def test_clause_9_last_aggressor_shows_first_else_first_left_of_the_button() -> None:
    base = [call(4), call(1), call(2), check(3), *pat(2, 3, 4, 1)]
    checked = replay(record(*LIMIT_FOUR, actions=base + [check(n) for n in (2, 3, 4, 1)]))
    assert checked.showdown_order == (2, 3, 4, 1)
    assert isinstance(checked.log[-1], Showdown)
    bet_on = base + [check(2), bet(3, 400), call(4), call(1), call(2)]
    shown = replay(record(*LIMIT_FOUR, actions=bet_on))
    assert shown.showdown_order == (3, 4, 1, 2)
    assert shown.settle().extra["showdown_order"] == [3, 4, 1, 2]


SIDE_POT_SEATS = [
    seat(1, "As Ks Qs Js 9s", stack=1000),  # flush: best
    seat(2, "Qh Qd Qc 8h 7d", stack=3000),  # trips: second
    seat(3, "Ah Ad Kh Kd 7c", stack=6000),  # two pair: worst
]
SIDE_POT_ACTIONS = [raise_(1, 1000), raise_(2, 3000), call(3), *pat(2, 3, 1)]


def test_clause_9_side_pots_from_contributions_of_three_stacks() -> None:
    result = evaluate(record(*SIDE_POT_SEATS, structure="no_limit", actions=SIDE_POT_ACTIONS))
    assert result.extra["pots"] == [
        {"amount": 3000, "eligible": [1, 2, 3], "winners": [1], "rake": 0},
        {"amount": 4000, "eligible": [2, 3], "winners": [2], "rake": 0},
    ]
    # Nobody could bet after the draw: the first player left of the button shows first.
    assert result.extra["showdown_order"] == [2, 3, 1]
    assert nets(result) == {1: 2000, 2: 1000, 3: -3000}
    assert result.seat(3).extra["stack_after"] == 3000


ODD_CHIP_SEATS = [
    seat(1, "As Kd Qh Jc 9s"),
    seat(2, "Ah Ks Qd Jh 9c"),
    seat(3, "7h 8h Tc Td 7d"),
]


def test_clause_9_odd_chip_to_the_first_winner_clockwise_from_the_button() -> None:
    # Chip 25, blinds 25/50, button seat 2: seat 3 posts small and folds, seats 1 and 2 tie.
    actions = [call(2), fold(3), check(1), *pat(1, 2), check(1), check(2)]
    result = evaluate(
        record(
            *ODD_CHIP_SEATS,
            small_blind=25,
            big_blind=50,
            big_bet=100,
            button=2,
            actions=actions,
        ),
        {"smallest_chip": 25},
    )
    assert result.extra["pots"] == [
        {"amount": 125, "eligible": [1, 2], "winners": [1, 2], "rake": 0}
    ]
    assert nets(result) == {1: 25, 2: 0, 3: -25}
    assert [line.outcome for line in result.seat(2).lines] == [Outcome.PUSH]
    assert result.seat(3).status is SeatStatus.FOLDED and result.seat(3).hand is None


def test_clause_10_percent_rake_per_pot_with_a_cap_charged_to_the_winners() -> None:
    rake = {"kind": "percent", "percent": 5, "cap": 300}
    result = evaluate(
        record(*SIDE_POT_SEATS, structure="no_limit", actions=SIDE_POT_ACTIONS), {"rake": rake}
    )
    # 5% of 3000 is 150; 5% of 4000 would be 200 but the cap leaves 150.
    assert [pot["rake"] for pot in result.extra["pots"]] == [150, 150]
    assert {s.seat: s.rake for s in result.seats} == {1: 150, 2: 150, 3: 0}
    assert nets(result) == {1: 1850, 2: 850, 3: -3000}
    assert [line.amount for s in result.seats for line in s.lines] == [2000, 1000, -3000]
    assert result.rake == 300
    result.check_conserved()


def test_clause_10_no_draw_no_drop_and_fixed_rake() -> None:
    fixed = {"rake": {"kind": "fixed", "amount": 100}}
    before_draw = evaluate(record(*LIMIT_FOUR, actions=[fold(4), fold(1), fold(2)]), fixed)
    assert before_draw.rake == 0
    assert "No draw, no drop: the hand ended before the draw, so no rake." in (
        before_draw.explanation
    )
    after_draw = [call(4), call(1), call(2), check(3), *pat(2, 3, 4, 1)]
    after_draw += [bet(2, 400), fold(3), fold(4), fold(1)]
    result = evaluate(record(*LIMIT_FOUR, actions=after_draw), fixed)
    assert result.rake == 100 and result.seat(2).rake == 100
    assert nets(result) == {1: -200, 2: 500, 3: -200, 4: -200}
    # Without "no draw, no drop" the fixed fee is taken even when everyone folds pre-draw.
    always = {"rake": {"kind": "fixed", "amount": 100, "no_draw_no_drop": False}}
    folded = evaluate(record(*LIMIT_FOUR, actions=[fold(4), fold(1), fold(2)]), always)
    assert folded.rake == 100 and nets(folded) == {1: 0, 2: -100, 3: 0, 4: 0}


def test_clause_10_percent_rounds_down_to_the_smallest_chip() -> None:
    # Chip 5; pot 900 at 2.5% is 22.5, taken as 20.
    heads_up = [seat(1, "As Ks Qs Js 9s"), seat(2, "Ah Ad Kh Kd 7c")]
    actions = [raise_(1, 450), call(2), *pat(2, 1), check(2), check(1)]
    result = evaluate(
        record(*heads_up, structure="no_limit", small_blind=100, big_blind=200, actions=actions),
        {"smallest_chip": 5, "rake": {"kind": "percent", "percent": 2.5}},
    )
    assert result.extra["pots"][0] == {
        "amount": 900,
        "eligible": [1, 2],
        "winners": [1],
        "rake": 20,
    }
    assert nets(result) == {1: 430, 2: -450}


def test_clause_12_dead_money_goes_to_the_centre_and_a_live_post_has_the_option() -> None:
    # Seat 4 returns and posts all: the big blind live and the small blind dead (example 4).
    posts = [post(2, "small_blind", 100), post(3, "big_blind", 200)]
    posts += [post(4, "live", 200), post(4, "dead", 100)]
    hand = replay(record(*LIMIT_FOUR, posts=posts))
    assert hand.to_act == 4  # left of the big blind; its live post counts as its bet
    assert hand.legal_actions()[1:] == [
        {"type": "check"},
        {"type": "raise", "min": 400, "max": 400},
    ]
    assert hand.pot_total == 100 + 200 + 200 + 100
    for action in (check(4), call(1), call(2), check(3)):
        hand.apply(action)
    assert hand.phase is Phase.DRAW
    for number in (2, 3, 4, 1):
        hand.apply(draw(number))
    for number in (2, 3, 4, 1):
        hand.apply(check(number))
    result = hand.settle()
    assert result.extra["pots"][0]["amount"] == 900
    assert result.seat(4).lines[0].stake == 300  # the dead 100 is lost like a bet
    assert nets(result) == {1: 700, 2: -200, 3: -200, 4: -300}
