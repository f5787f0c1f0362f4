"""Palace Poker: illegal actions and bad records. Each gives one RuleError naming the rule
broken, at ``actions[i]`` for the first illegal action or at the field's path."""

from __future__ import annotations

from typing import Any

import pytest

from casino.rules.errors import RuleError
from casino.rules.palace_poker import PalaceHand, evaluate, replay
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
    player,
    problems,
    raise_,
    record,
    stay,
    unseen,
)

ROUND = [stay(2), stay(3), stay(4)]
FIVE = (*FOUR, player(5, "3h", "5d 6d 7d"))
FIVE_SOLDIERS = [
    action for card in ("Kh", "Kd", "Ah", "Ac", "3c") for action in (buy(1, card), *ROUND)
]


def ten_bought_out() -> dict[str, Any]:
    """Ten players buy the whole stock (12 cards), nothing discarded: seat 3 is to act."""
    data = dealt(10)
    stock = unseen(data)
    actions = [buy(seat, stock[seat - 1]) for seat in range(1, 11)]
    actions += [buy(1, stock[10]), buy(2, stock[11])]
    return {**data, "actions": actions}


def reshuffle_case() -> tuple[dict[str, Any], None, tuple[str, str]]:
    """Ten players empty the stock with one card discarded; seat 3 buys a held card."""
    data = dealt(10)
    stock = unseen(data)
    actions = [buy(seat, stock[seat - 1]) for seat in range(1, 11)]
    actions += [buy(1, stock[10], stock[10]), buy(2, stock[11]), buy(3, stock[0])]
    message = (
        f"seat 3 cannot buy {stock[0]}: the stock is empty, so the discards are shuffled into "
        f"a new stock and {stock[0]} is not among them (seat 1 holds it as a soldier)"
    )
    return {**data, "actions": actions}, None, ("actions[12]", message)


def with_action(data: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    return {**data, "actions": [*data["actions"], action]}


@pytest.mark.parametrize(
    ("data", "rules", "expected"),
    [
        pytest.param(
            record(*FIVE, dealer=5, actions=[battle(1, 5, 500)]),
            None,
            (
                "actions[0]",
                "seat 1 cannot attack seat 5: both banners are hearts (7h and 3h); a player may "
                "not attack a banner of its own suit (rule 8 (“Battle”))",
            ),
            id="attacking your own banner suit",
        ),
        pytest.param(
            four([buy(1, "Kh"), *ROUND, battle(1, 2, 500)], structure="no_limit"),
            None,
            (
                "actions[4]",
                "seat 1: battle bet 500 is below the minimum 1000 ((1 soldier + 1) x small bet "
                "500)",
            ),
            id="battle bet below the minimum",
        ),
        pytest.param(
            four([buy(1, "Kh"), *ROUND, battle(1, 2, 1500)]),
            None,
            (
                "actions[4]",
                "seat 1: in limit the battle bet is exactly the minimum 1000 ((1 soldier + 1) x "
                "small bet 500), not 1500",
            ),
            id="limit battle bet above the minimum",
        ),
        pytest.param(
            four([*FIVE_SOLDIERS, buy(1, "4c")]),
            None,
            (
                "actions[20]",
                "seat 1 cannot buy 4c without discarding: it has 5 soldiers and may never have "
                "more than 5 (discard at least 1)",
            ),
            id="buying a sixth soldier without discarding",
        ),
        pytest.param(
            four([fold(1), fold(2), stay(3)]),
            None,
            (
                "actions[2]",
                "seat 3 cannot stay: with only two players left each turn is a buy, a discard "
                "or a battle (rule 14 (“Two players left”))",
            ),
            id="staying when two are left",
        ),
        pytest.param(
            with_action(ten_bought_out(), buy(3, "2h")),
            None,
            (
                "actions[12]",
                "seat 3 cannot buy: the stock and the discards are both empty, so buying is no "
                "longer allowed (rule 6 (“Buy”))",
            ),
            id="buying with the stock and the discards empty",
        ),
        pytest.param(
            four([stay(2)]),
            None,
            ("actions[0]", "seat 2 acted out of turn: seat 1 is to act"),
            id="out of turn",
        ),
        pytest.param(
            four([fold(1), buy(1, "Kh")]),
            None,
            ("actions[1]", "seat 1 acted out of turn: seat 2 is to act (seat 1 is folded)"),
            id="a folded seat acts",
        ),
        pytest.param(
            four([buy(1, "Ks")]),
            None,
            (
                "actions[0]",
                "seat 1 cannot buy Ks: it was already seen this hand (it is seat 2's banner)",
            ),
            id="buying a banner",
        ),
        pytest.param(
            four([buy(1, "Kh"), buy(2, "Kh")]),
            None,
            (
                "actions[1]",
                "seat 2 cannot buy Kh: it was already seen this hand (seat 1 holds it as a "
                "soldier)",
            ),
            id="buying a card already bought",
        ),
        pytest.param(
            four([buy(1, "Jc")]),
            None,
            (
                "actions[0]",
                "seat 1 cannot buy Jc: it was already seen this hand (it is one of seat 3's "
                "palace cards)",
            ),
            id="buying a palace card",
        ),
        pytest.param(
            four([buy(1, "Kh", "Kh"), buy(2, "Kh")]),
            None,
            (
                "actions[1]",
                "seat 2 cannot buy Kh: it is in the discards, which become a new stock only "
                "when the stock runs out (35 cards left)",
            ),
            id="buying a discarded card while the stock lasts",
        ),
        pytest.param(
            *reshuffle_case(),
            id="after the stock runs out, a card not in the discards",
        ),
        pytest.param(
            four([buy(1, "Kh", "Kd")]),
            None,
            ("actions[0]", "seat 1 cannot discard Kd: it is not one of its soldiers"),
            id="discarding a card not held",
        ),
        pytest.param(
            four([discard(1, "Kh")]),
            None,
            ("actions[0]", "seat 1 cannot discard: it has no soldiers"),
            id="discarding with no soldiers",
        ),
        pytest.param(
            four([buy(1, "Kh"), *ROUND, {"seat": 1, "type": "discard", "cards": []}]),
            None,
            ("actions[4]", "seat 1: a discard throws away one or more soldiers; none named"),
            id="discarding nothing",
        ),
        pytest.param(
            four([call(1)]),
            None,
            (
                "actions[0]",
                "seat 1 cannot call: there is no battle to answer; buy, discard, battle, stay "
                "or fold",
            ),
            id="call without a battle",
        ),
        pytest.param(
            four([battle(1, 2, 500), buy(2, "Kh")]),
            None,
            (
                "actions[1]",
                "seat 2 cannot buy now: it must answer the battle (seat 1 attacks seat 2); "
                "fold, call or raise",
            ),
            id="buying while defending",
        ),
        pytest.param(
            four([battle(1, 1, 500)]),
            None,
            ("actions[0]", "seat 1 cannot attack itself: name another player"),
            id="attacking oneself",
        ),
        pytest.param(
            four([stay(1), fold(2), stay(3), battle(4, 2, 500)]),
            None,
            ("actions[3]", "seat 4 cannot attack seat 2: seat 2 is folded"),
            id="attacking a folded seat",
        ),
        pytest.param(
            four([battle(1, 9, 500)]),
            None,
            ("actions[0]", "seat 1 cannot attack seat 9: it is not dealt in"),
            id="attacking an empty seat",
        ),
        pytest.param(
            four([battle(1, 2, 500), raise_(2, 1500)]),
            None,
            (
                "actions[1]",
                "seat 2: in limit a raise is exactly 1000 (two small bets: seat 2 has no "
                "soldiers), not 1500",
            ),
            id="limit raise of the wrong size",
        ),
        pytest.param(
            four([battle(1, 2, 500), raise_(2, 19_500)], structure="no_limit"),
            None,
            (
                "actions[1]",
                "seat 2: raise 19500 is more than the seat has after calling 500: at most 19250",
            ),
            id="no limit raise beyond the stack",
        ),
        pytest.param(
            four([battle(1, 2, 19_750), raise_(2, 1000)], structure="no_limit"),
            None,
            ("actions[1]", "seat 2 cannot raise: seat 1 is all-in; call or fold"),
            id="raising an all-in attacker",
        ),
        pytest.param(
            four([battle(1, 2, 500), raise_(2, 1000), raise_(1, 1000)]),
            {"max_raises": 1},
            (
                "actions[2]",
                "seat 1: a second raise is not allowed (a limit battle is capped at 1 raise)",
            ),
            id="limit raise over the cap",
        ),
        pytest.param(
            four([battle(1, 2, 500), {"seat": 2, "type": "call", "amount": 400}]),
            None,
            ("actions[1]", "seat 2 calls 400 but the call is 500"),
            id="call of the wrong amount",
        ),
        pytest.param(
            four([stay(1), stay(2), stay(3), stay(4), stay(1)]),
            None,
            ("actions[4]", "seat 1 cannot stay: the hand is over"),
            id="acting after the end",
        ),
        pytest.param(
            four([{"seat": 1, "type": "check"}]),
            None,
            (
                "actions[0]",
                "seat 1: unknown action type 'check': use buy, discard, battle, stay, fold, "
                "call or raise",
            ),
            id="unknown action",
        ),
        pytest.param(
            four([{"seat": 1, "type": "stay", "amount": 5}]),
            None,
            ("actions[0]", "seat 1: unknown field 'amount' in a stay action"),
            id="unknown field",
        ),
        pytest.param(
            four([{"seat": 1, "type": "buy"}]),
            None,
            ("actions[0]", "seat 1: a buy needs 'card', the stock card turned"),
            id="buy without its card",
        ),
        pytest.param(
            four([{"seat": 1, "type": "buy", "card": "Xx"}]),
            None,
            ("actions[0]", "seat 1: unknown card 'Xx' (in card)"),
            id="unreadable card",
        ),
        pytest.param(
            four([{"seat": 1, "type": "battle", "target": 2}]),
            None,
            ("actions[0]", "seat 1: a battle needs 'amount', the bet as a whole number, got None"),
            id="battle without an amount",
        ),
        pytest.param(
            four([{"seat": "one", "type": "stay"}]),
            None,
            ("actions[0]", "an action needs the seat that acts (a seat number), got 'one'"),
            id="no seat",
        ),
        pytest.param(
            four([stay(1), {"seat": 7, "type": "stay"}]),
            None,
            ("actions[1]", "seat 7 is not dealt in"),
            id="seat not dealt in",
        ),
    ],
)
def test_illegal_actions(
    data: dict[str, Any], rules: dict[str, Any] | None, expected: tuple[str, ...]
) -> None:
    found = first_problem(data, rules)
    assert found[: len(expected)] == expected


def test_short_all_in_off_leaves_only_fold() -> None:
    data = four([battle(1, 2, 500)], structure="no_limit")
    data["players"][1]["stack"] = 600  # 350 after the ante, the call is 500
    hand = replay(data, {"short_all_in": False})
    assert [action["type"] for action in hand.legal_actions()] == ["fold"]
    assert first_problem(
        {**data, "actions": [battle(1, 2, 500), call(2)]}, {"short_all_in": False}
    ) == (
        "actions[1]",
        "seat 2 cannot call 500 with 350: calling all-in for less is off (rules.short_all_in); "
        "fold",
    )


def test_an_unfinished_hand_does_not_settle() -> None:
    with pytest.raises(RuleError) as error:
        evaluate(four([stay(1)]))
    assert problems(error) == [("actions", "the hand is not finished: seat 2 is to act (play)")]


def test_live_apply_reports_at_action() -> None:
    hand = replay(four())
    with pytest.raises(RuleError) as error:
        hand.apply(stay(3))
    assert problems(error) == [("action", "seat 3 acted out of turn: seat 1 is to act")]
    assert isinstance(hand, PalaceHand) and hand.to_act == 1  # nothing changed


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        pytest.param(
            {"structure": "pot_limit"},
            [("structure", "structure 'pot_limit' is not one of limit, no_limit")],
            id="structure",
        ),
        pytest.param(
            {"big_bet": 400},
            [("big_bet", "big bet 400 is less than the small bet 500")],
            id="big bet below small",
        ),
        pytest.param(
            {"small_bet": None},
            [("small_bet", "small bet is missing")],
            id="small bet missing",
        ),
        pytest.param(
            {"colour": "red"},
            [("colour", "unknown field 'colour'")],
            id="unknown field",
        ),
        pytest.param(
            {"dealer": 0},
            [("dealer", "dealer (a seat number) must be at least 1, got 0")],
            id="dealer",
        ),
    ],
)
def test_bad_records(change: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    with pytest.raises(RuleError) as error:
        replay({**four(), **change})
    assert problems(error) == expected


def test_bad_players_are_all_reported() -> None:
    data = four()
    data["players"][0]["stack"] = 100  # below the ante
    data["players"][1]["palace"] = ["Qh", "As", "2d"]  # As is seat 1's
    data["players"][2]["banner"] = "Zz"
    data["players"][3]["seat"] = 1
    with pytest.raises(RuleError) as error:
        replay(data)
    assert problems(error) == [
        ("players[0].stack", "seat 1: stack 100 cannot cover the ante 250"),
        ("players[2].banner", "seat 3: unknown card 'Zz'"),
        ("players[3].seat", "seat 1 is listed twice"),
        ("players[1].palace[1]", "card As appears twice: seat 1's palace and seat 2's palace"),
    ]
