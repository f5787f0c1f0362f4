"""Five Card Draw 7-A: illegal actions and bad records. Each gives one RuleError naming the
rule broken, at ``actions[i]`` for the first illegal action or at the field's path."""

from __future__ import annotations

from typing import Any

import pytest

from casino.rules.errors import RuleError
from casino.rules.five_card_draw import DrawHand, DrawRules, evaluate, parse_config, replay
from tests.rules.draw_helpers import (
    bet,
    call,
    check,
    draw,
    fold,
    pat,
    post,
    problems,
    raise_,
    record,
    seat,
)

FOUR = [
    seat(1, "As Ks Qs Js 9s"),
    seat(2, "Ah Ad Kh Kd 7c"),
    seat(3, "Qh Qd Qc 8h 7d"),
    seat(4, "Jh Tc 9h 8d 7h"),
]
# Button 1: seat 2 small blind, seat 3 big blind, seat 4 first to act.
LIMPED = [call(4), call(1), call(2), check(3)]
TO_ROUND_2 = LIMPED + pat(2, 3, 4, 1)


def first_problem(actions: list[dict[str, Any]], **options: Any) -> tuple[str, str]:
    structure = options.pop("structure", "limit")
    with pytest.raises(RuleError) as error:
        replay(record(*FOUR, structure=structure, actions=actions), options or None)
    found = problems(error)
    assert len(found) == 1
    return found[0]


@pytest.mark.parametrize(
    ("actions", "structure", "expected"),
    [
        pytest.param(
            [call(2)],
            "limit",
            ("actions[0]", "seat 2 acted out of turn: seat 4 is to act"),
            id="out of turn",
        ),
        pytest.param(
            [raise_(4, 300)],
            "no_limit",
            ("actions[0]", "seat 4: raise to 300 is below the minimum raise to 400"),
            id="below the minimum raise",
        ),
        pytest.param(
            [raise_(4, 800)],
            "pot_limit",
            ("actions[0]", "seat 4: raise to 800 is over the pot limit 700"),
            id="over the pot limit",
        ),
        pytest.param(
            [raise_(4, 400), raise_(1, 600), raise_(2, 800), raise_(3, 1000)],
            "limit",
            (
                "actions[3]",
                "seat 3: a fourth raise is not allowed in limit (the round is capped at a bet "
                "and 3 raises)",
            ),
            id="fourth raise in limit",
        ),
        pytest.param(
            [*LIMPED, draw(2, "7h", "8c")],
            "limit",
            ("actions[4]", "7h is not in seat 2's hand"),
            id="card not in the hand",
        ),
        pytest.param(
            [*LIMPED, draw(2, "7c", "As")],
            "limit",
            ("actions[4]", "As was already seen this hand (seat 1 holds it)"),
            id="card held by another seat",
        ),
        pytest.param(
            [*LIMPED, draw(2, "7c", "8c"), draw(3, "7d", "8c")],
            "limit",
            ("actions[5]", "8c was already seen this hand (seat 2 holds it)"),
            id="card already drawn",
        ),
        pytest.param(
            [
                *LIMPED,
                {
                    "seat": 2,
                    "type": "draw",
                    "discard": ["Ah", "Ad", "Kh", "Kd", "7c", "7c"],
                    "receive": ["8c", "8s", "9c", "9d", "Td", "Th"],
                },
            ],
            "limit",
            ("actions[4]", "seat 2 may draw at most 5 cards, not 6"),
            id="more than five",
        ),
        pytest.param(
            [call(4), bet(1, 400)],
            "limit",
            (
                "actions[1]",
                "seat 1 cannot bet: there is already a bet of 200 this round; call, raise or fold",
            ),
            id="bet when a call is due",
        ),
        pytest.param(
            [check(4)],
            "limit",
            ("actions[0]", "seat 4 cannot check: 200 to call (call, raise or fold)"),
            id="check when a call is due",
        ),
        pytest.param(
            [*TO_ROUND_2, raise_(2, 400)],
            "limit",
            ("actions[8]", "seat 2 cannot raise: nobody has bet this round; bet instead"),
            id="raise with no bet",
        ),
        pytest.param(
            [*TO_ROUND_2, call(2)],
            "limit",
            ("actions[8]", "seat 2 cannot call: there is nothing to call; check instead"),
            id="call with nothing to call",
        ),
        pytest.param(
            [fold(4), fold(1), fold(2), check(3)],
            "limit",
            ("actions[3]", "seat 3 cannot check: the hand is over (it ended without a showdown)"),
            id="after the hand ended",
        ),
        pytest.param(
            [*TO_ROUND_2, *(check(n) for n in (2, 3, 4, 1)), bet(2, 400)],
            "limit",
            ("actions[12]", "seat 2 cannot bet: the hand is over (it ended at the showdown)"),
            id="after the showdown",
        ),
        pytest.param(
            [{"seat": 4, "type": "shove"}],
            "limit",
            (
                "actions[0]",
                "seat 4: unknown action type 'shove': use fold, check, call, bet, raise or draw",
            ),
            id="unknown action type",
        ),
        pytest.param(
            [*LIMPED, raise_(2, 400)],
            "limit",
            (
                "actions[4]",
                "seat 2 cannot raise during the draw: discard and draw 0 to 5 cards, or fold",
            ),
            id="bet during the draw",
        ),
        pytest.param(
            [draw(4)],
            "limit",
            ("actions[0]", "seat 4 cannot draw now: the betting before the draw is not finished"),
            id="draw before the draw",
        ),
        pytest.param(
            [raise_(4, 500)],
            "limit",
            (
                "actions[0]",
                "seat 4: raise to 500 is not the limit raise: in limit the raise is to exactly "
                "400 (the small bet is 200)",
            ),
            id="wrong limit amount",
        ),
        pytest.param(
            [raise_(4, 20_000)],
            "no_limit",
            (
                "actions[0]",
                "seat 4: raise to 20000 is more than the seat has: 10000 at most (all-in)",
            ),
            id="more than the stack",
        ),
        pytest.param(
            [raise_(4, 450)],
            "no_limit",
            ("actions[0]", "seat 4: raise to 450 is not a multiple of the smallest chip 100"),
            id="not a chip multiple",
        ),
        pytest.param(
            [{"seat": 4, "type": "raise"}],
            "limit",
            (
                "actions[0]",
                "seat 4: a raise needs 'to', the seat's total bet for the round as a whole "
                "number, got None",
            ),
            id="raise without to",
        ),
        pytest.param(
            [{"seat": 4, "type": "fold", "to": 200}],
            "limit",
            ("actions[0]", "seat 4: unknown field 'to' in a fold action"),
            id="unknown field",
        ),
        pytest.param(
            [{"seat": 4, "type": "call", "amount": 100}],
            "limit",
            ("actions[0]", "seat 4 calls 100 but the call is 200"),
            id="wrong call amount",
        ),
        pytest.param(
            [{"type": "call"}],
            "limit",
            ("actions[0]", "an action needs the seat that acts (a seat number), got None"),
            id="no seat",
        ),
        pytest.param(
            [fold(9)],
            "limit",
            ("actions[0]", "seat 9 is not dealt in"),
            id="seat not dealt in",
        ),
        pytest.param(
            [fold(4), fold(4)],
            "limit",
            ("actions[1]", "seat 4 acted out of turn: seat 1 is to act (seat 4 has folded)"),
            id="folded seat acts",
        ),
        pytest.param(
            [*LIMPED, draw(2, "7c", "8c 8s")],
            "limit",
            (
                "actions[4]",
                "seat 2 discards 1 but receives 2: a player receives as many cards as it "
                "throws away",
            ),
            id="counts differ",
        ),
        pytest.param(
            [*LIMPED, draw(2, "7c 7c", "8c 8s")],
            "limit",
            ("actions[4]", "seat 2: 7c is discarded twice"),
            id="discard twice",
        ),
        pytest.param(
            [*LIMPED, {"seat": 2, "type": "draw", "discard": ["7c"], "receive": ["Zz"]}],
            "limit",
            ("actions[4]", "seat 2: unknown card 'Zz' (in receive)"),
            id="unreadable card",
        ),
        pytest.param(
            [*LIMPED, {"seat": 2, "type": "draw", "discard": ["7c"]}],
            "limit",
            (
                "actions[4]",
                "seat 2: a draw needs 'receive', the cards received ([] to stand pat)",
            ),
            id="draw without receive",
        ),
    ],
)
def test_illegal_action(
    actions: list[dict[str, Any]], structure: str, expected: tuple[str, str]
) -> None:
    options = {"smallest_chip": 100} if "smallest chip 100" in expected[1] else {}
    assert first_problem(actions, structure=structure, **options) == expected


def test_the_first_illegal_action_is_reported_and_later_ones_not_read() -> None:
    actions = [call(4), call(1), raise_(2, 999), {"nonsense": True}]
    assert first_problem(actions) == (
        "actions[2]",
        "seat 2: raise to 999 is not the limit raise: in limit the raise is to exactly 400 "
        "(the small bet is 200)",
    )


def test_apply_without_an_index_reports_at_action() -> None:
    hand = replay(record(*FOUR))
    with pytest.raises(RuleError) as error:
        hand.apply(call(1))
    assert problems(error) == [("action", "seat 1 acted out of turn: seat 4 is to act")]
    assert not hand.can_call(1) and hand.can_call(4) and not hand.can_check(4)
    assert hand.can_raise_to(4, 400) and not hand.can_raise_to(4, 600)


def test_an_unfinished_hand_does_not_settle() -> None:
    with pytest.raises(RuleError) as error:
        evaluate(record(*FOUR, actions=LIMPED))
    assert problems(error) == [("actions", "the hand is not finished: seat 2 is to act (draw)")]


def test_actions_must_be_a_list() -> None:
    data = record(*FOUR)
    data["actions"] = {"seat": 4, "type": "call"}
    with pytest.raises(RuleError) as error:
        replay(data)
    assert problems(error) == [("actions", "actions must be a list of actions")]


# --------------------------------------------------------------------------- the record


def test_every_problem_in_the_record_is_named_with_its_path() -> None:
    data: dict[str, Any] = {
        "structure": "spread_limit",
        "small_blind": 300,
        "big_blind": 200,
        "button": 0,
        "seats": [
            {"seat": 1, "stack": 0, "cards": ["As", "Ks", "Qs", "Js"]},
            {"seat": 1, "stack": 1000, "cards": ["As", "2d", "Qh", "Qd", "Xx"]},
            {"seat": 3, "stack": 150.5, "cards": ["Jh", "Tc", "9h", "8d", "7h"], "name": "Ann"},
        ],
        "colour": "red",
    }
    with pytest.raises(RuleError) as error:
        parse_config(data, DrawRules())
    assert problems(error) == [
        ("colour", "unknown field 'colour'"),
        ("structure", "structure 'spread_limit' is not one of limit, pot_limit, no_limit"),
        ("small_blind", "small blind 300 is more than the big blind 200"),
        ("button", "button (a seat number) must be at least 1, got 0"),
        ("seats[0].stack", "seat 1: stack must be at least 1, got 0"),
        ("seats[0].cards", "seat 1: 5 cards needed, got 4"),
        ("seats[1].seat", "seat 1 is listed twice"),
        ("seats[1].cards[4]", "seat entry 2: unknown card 'Xx'"),
        (
            "seats[1].cards[1]",
            "seat entry 2: 2d is not in the 32-card deck (7 through ace; the 6s come in only "
            "with five players)",
        ),
        ("seats[2].name", "unknown field 'name'"),
        ("seats[2].stack", "seat 3: stack must be a whole number, got 150.5"),
        ("seats[1].cards[0]", "card As appears twice: seat 1 and seat entry 2"),
    ]


def test_limit_needs_the_big_bet_and_money_is_in_whole_chips() -> None:
    data = record(*FOUR, big_bet=None, small_blind=50, big_blind=100)
    with pytest.raises(RuleError) as error:
        parse_config(data, DrawRules(smallest_chip=100))
    assert problems(error) == [
        ("small_blind", "small blind 50 is not a multiple of the smallest chip 100"),
        ("big_bet", "big bet (the post-draw limit bet) is missing"),
    ]


def test_posts_are_checked() -> None:
    posts = [
        post(2, "small_blind", 50),
        post(9, "big_blind", 200),
        post(4, "live", 200),
        post(4, "big_blind", 200),
        {"seat": 1, "type": "straddle", "amount": 400},
        post(1, "dead", 100),
        post(1, "dead", 100),
    ]
    with pytest.raises(RuleError) as error:
        parse_config(record(*FOUR, posts=posts), DrawRules())
    assert problems(error) == [
        (
            "posts[0].amount",
            "seat 2: the small blind is 100, not 50 (a seat that cannot post "
            "in full posts all-in by itself)",
        ),
        ("posts[1].seat", "seat 9 posts but is not dealt in"),
        ("posts[3].type", "only one big blind is posted, this is another"),
        ("posts[3]", "seat 4 already has a blind or live post"),
        ("posts[4].type", "post type 'straddle' is not one of small_blind, big_blind, live, dead"),
        ("posts[6]", "seat 1 already has a dead post"),
    ]
    with pytest.raises(RuleError) as error:
        parse_config(record(*FOUR, posts=[post(2, "small_blind", 100)]), DrawRules())
    assert problems(error) == [
        ("posts", "posts must include the big blind (round 1 starts left of it)")
    ]


def test_a_hand_built_in_python_takes_card_objects() -> None:
    config = parse_config(record(*FOUR), DrawRules())
    hand = DrawHand(config)
    for number in (4, 1, 2):
        hand.call(number)
    hand.check(3)
    seven, eight = hand.cards(2)[-1], hand.stub()[0]
    assert hand.can_draw(2, [seven], [eight])
    assert not hand.can_draw(2, [seven], [hand.cards(1)[0]])
    hand.draw(2, [seven], [eight])
    assert hand.cards(2)[-1] == eight and hand.to_act == 3
