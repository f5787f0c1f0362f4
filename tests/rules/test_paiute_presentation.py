"""Paiute's presentation view (``PaiuteHand.presentation()``, casino/rules/paiute/view.py): real
hands played through the engine, the table as the dealer's tablet draws it at each moment:
the deal, a decision mid-hand, the call laying a combination down, a call on a final turn,
the final turns without a call, the dealer's call, the upcard leaving the stock, and the
showdown (won, lost, a split pot's push). Every view is also checked against the shared rules
of the shape (``presentation.problems``) and its JSON schema.
"""

from __future__ import annotations

from typing import Any

import jsonschema

from casino.rules import presentation
from casino.rules.contract import hand_view
from casino.rules.paiute import PaiuteHand
from casino.rules.paiute.game import GAME
from tests.rules.paiute_helpers import act, call, config, discard, draw, live, pass_turns, take

#: The worked example of docs/rules/paiute.md: seat 3 deals, threes are wild, ante 25.
WORKED = {1: "7c 8c 9c Jc As", 2: "Ks Kh Kd 7s 2d", 3: "7h 8h 9h Jh Qd"}
FOUR = {1: "2h 4h 6d 8s Td", 2: "7c 8c 9c Jc As", 3: "Ks Kh Kd 7s 3d", 4: "Qs Qh 5d 5c 9h"}


def shown(hand: PaiuteHand) -> dict[str, Any]:
    """The presentation as JSON, checked: no problem, and valid against the schema."""
    view = hand.presentation().to_dict()
    assert presentation.problems(view) == []
    jsonschema.validate(view, presentation.SCHEMA)
    return view


def seats(view: dict[str, Any]) -> dict[int, tuple[Any, ...]]:
    """Each seat as (status, to_act, its cards, face up?, hand, badges)."""
    out = {}
    for party in view["seats"]:
        ups = {card["up"] for card in party["cards"]}
        assert len(ups) == 1, party  # a seat's cards are all held or all shown
        out[party["seat"]] = (
            party["status"],
            party["to_act"],
            " ".join(card["card"] for card in party["cards"]),
            ups.pop(),
            party["hand"],
            party["badges"],
        )
    return out


def worked() -> PaiuteHand:
    return live(WORKED, ante=25, smallest_chip=5)


def _down(text: str) -> list[dict[str, Any]]:
    return [{"card": code, "up": False} for code in text.split()]


def _party(seat: int, status: str, text: str, badges: list[str]) -> dict[str, Any]:
    return {
        "seat": seat,
        "house": False,
        "status": status,
        "to_act": status == "to_act",
        "cards": _down(text),
        "stack": None,
        "committed_round": None,
        "committed_total": None,
        "wagers": [{"name": "ante", "amount": 25}],
        "total": None,
        "hand": None,
        "badges": badges,
        "groups": [],
        "hands": [],
    }


def test_just_after_the_deal_every_hand_is_held_and_the_seat_left_of_the_dealer_draws() -> None:
    assert shown(worked()) == {
        "phase": "play",
        "to_act": 1,
        "seats": [
            _party(1, "to_act", "7c 8c 9c Jc As", []),
            _party(2, "in", "Ks Kh Kd 7s 2d", []),
            _party(3, "in", "7h 8h 9h Jh Qd", ["dealer"]),
        ],
        "house": None,
        "pots": [{"name": "pot", "amount": 75, "seats": [1, 2, 3]}],
        "community": [{"card": "3c", "up": True}],  # the upcard, face up under the stock
        "wild_rank": "3",
        "top_discard": None,
        "stock": 37,
        "kitty": None,
        "bank": None,
        "facts": {
            "wild_card": "3c",
            "step": "draw",
            "drawn": None,
            "drawn_from": None,
            "called_by": None,
            "callers": [],
            "final_turns": [],
            "turns_left": None,
        },
    }


def test_the_first_discard_option_shows_the_pile_from_the_start() -> None:
    hand = live(WORKED, ante=25, discard_pile_starts_with_upturned_card=True, first_discard="Qs")
    view = shown(hand)
    assert view["top_discard"] == {"card": "Qs", "up": True}
    assert view["stock"] == 36


def test_mid_hand_the_seat_that_took_the_top_discard_is_to_discard() -> None:
    hand = worked()
    act(hand, draw(1, "5d"), discard(1, "5d"), draw(2, "7d"), discard(2, "2d"), take(3))
    view = shown(hand)
    assert (view["phase"], view["to_act"], view["stock"]) == ("play", 3, 35)
    assert view["top_discard"] == {"card": "5d", "up": True}
    assert seats(view) == {
        1: ("in", False, "7c 8c 9c Jc As", False, None, []),
        2: ("in", False, "Ks Kh Kd 7s 7d", False, None, []),
        3: ("to_act", True, "7h 8h 9h Jh Qd 2d", False, None, ["dealer"]),
    }
    assert view["facts"] == {
        "wild_card": "3c",
        "step": "discard",
        "drawn": "2d",
        "drawn_from": "discard",
        "called_by": None,
        "callers": [],
        "final_turns": [],
        "turns_left": None,
    }
    assert view["pots"] == [{"name": "pot", "amount": 75, "seats": [1, 2, 3]}]


def test_the_call_lays_the_combination_down_and_starts_the_final_turns() -> None:
    hand = worked()
    act(hand, draw(1, "5d"), discard(1, "5d"), draw(2, "7d"), discard(2, "2d"), take(3))
    act(hand, discard(3, "Qd"), draw(1, "3d"))
    before = shown(hand)
    assert before["facts"]["drawn"] == "3d" and before["facts"]["drawn_from"] == "stock"
    assert seats(before)[1] == ("to_act", True, "7c 8c 9c Jc As 3d", False, None, [])
    act(hand, call(1, "As"))
    view = shown(hand)
    assert (view["phase"], view["to_act"], view["stock"]) == ("final_turns", 2, 34)
    assert view["top_discard"] == {"card": "As", "up": True}
    assert seats(view) == {
        1: ("called", False, "7c 8c 9c Jc 3d", True, "straight flush 7-J of clubs", ["caller"]),
        2: ("to_act", True, "Ks Kh Kd 7s 7d", False, None, []),
        3: ("waiting", False, "7h 8h 9h Jh 2d", False, None, ["dealer"]),
    }
    facts = view["facts"]
    assert (facts["called_by"], facts["callers"], facts["final_turns"]) == (1, [1], [2, 3])
    assert (facts["turns_left"], facts["step"], facts["drawn"]) == (2, "draw", None)


def test_a_call_on_a_final_turn_keeps_six_cards_shown() -> None:
    hand = worked()
    act(hand, draw(1, "5d"), discard(1, "5d"), draw(2, "7d"), discard(2, "2d"), take(3))
    act(hand, discard(3, "Qd"), draw(1, "3d"), call(1, "As"), draw(2, "3h"), call(2))
    view = shown(hand)
    assert (view["phase"], view["to_act"], view["stock"]) == ("final_turns", 3, 33)
    assert seats(view) == {
        1: ("called", False, "7c 8c 9c Jc 3d", True, "straight flush 7-J of clubs", ["caller"]),
        2: ("called", False, "Ks Kh Kd 7s 7d 3h", True, "four/two: kings and sevens", []),
        3: ("to_act", True, "7h 8h 9h Jh 2d", False, None, ["dealer"]),
    }
    facts = view["facts"]
    assert (facts["called_by"], facts["callers"], facts["final_turns"]) == (1, [1, 2], [3])
    assert facts["turns_left"] == 1


def test_the_showdown_shows_every_hand_and_who_won() -> None:
    hand = worked()
    act(hand, draw(1, "5d"), discard(1, "5d"), draw(2, "7d"), discard(2, "2d"), take(3))
    act(hand, discard(3, "Qd"), draw(1, "3d"), call(1, "As"), draw(2, "3h"), call(2))
    act(hand, draw(3, "Th"), call(3, "2d"))
    view = shown(hand)
    assert (view["phase"], view["to_act"], view["stock"]) == ("complete", None, 32)
    assert seats(view) == {
        1: ("won", False, "7c 8c 9c Jc 3d", True, "straight flush 7-J of clubs", ["caller"]),
        2: ("lost", False, "Ks Kh Kd 7s 7d 3h", True, "four/two: kings and sevens", []),
        3: ("won", False, "7h 8h 9h Jh Th", True, "straight flush 7-J of hearts", ["dealer"]),
    }
    assert view["pots"] == [{"name": "pot", "amount": 75, "seats": [1, 3]}]  # split 40 / 35
    assert view["top_discard"] == {"card": "2d", "up": True}
    facts = view["facts"]
    assert (facts["step"], facts["called_by"], facts["callers"]) == (None, 1, [1, 2, 3])
    assert (facts["final_turns"], facts["turns_left"]) == ([], 0)


def test_final_turns_without_a_call_and_the_seats_before_the_caller() -> None:
    hand = live(FOUR)  # seat 4 deals, ante 100
    act(hand, draw(1, "2c"), discard(1, "2c"), draw(2, "3h"), call(2, "As"))
    view = shown(hand)
    assert seats(view) == {
        1: ("in", False, "2h 4h 6d 8s Td", False, None, []),  # before the caller: no turn
        2: ("called", False, "7c 8c 9c Jc 3h", True, "straight flush 7-J of clubs", ["caller"]),
        3: ("to_act", True, "Ks Kh Kd 7s 3d", False, None, []),
        4: ("waiting", False, "Qs Qh 5d 5c 9h", False, None, ["dealer"]),
    }
    act(hand, draw(3, "7d"), discard(3, "7d"))  # it could call, and does not
    view = shown(hand)
    assert {seat: row[0] for seat, row in seats(view).items()} == {
        1: "in",
        2: "called",
        3: "in",
        4: "to_act",
    }
    assert (view["to_act"], view["facts"]["final_turns"], view["facts"]["turns_left"]) == (
        4,
        [4],
        1,
    )
    act(hand, draw(4, "Jd"), discard(4, "Jd"))
    view = shown(hand)
    assert seats(view) == {
        1: ("lost", False, "2h 4h 6d 8s Td", True, None, []),
        2: ("won", False, "7c 8c 9c Jc 3h", True, "straight flush 7-J of clubs", ["caller"]),
        3: ("lost", False, "Ks Kh Kd 7s 3d", True, None, []),
        4: ("lost", False, "Qs Qh 5d 5c 9h", True, None, ["dealer"]),
    }
    assert view["pots"] == [{"name": "pot", "amount": 400, "seats": [2]}]


def test_the_dealers_call_ends_the_hand_with_both_badges() -> None:
    hand = live({1: "7c 8c 9c Jc As", 2: "Ks Kh Kd 7s 2d", 3: "7h 8h 9h Jh Qd"}, dealer=3, ante=100)
    act(hand, draw(1, "2c"), discard(1, "2c"), draw(2, "4c"), discard(2, "4c"))
    act(hand, draw(3, "3h"), call(3, "Qd"))  # 7h 8h 9h Jh 3h: the 3h as the Th
    view = shown(hand)
    assert (view["phase"], view["to_act"]) == ("complete", None)
    assert seats(view) == {
        1: ("lost", False, "7c 8c 9c Jc As", True, None, []),
        2: ("lost", False, "Ks Kh Kd 7s 2d", True, None, []),
        3: (
            "won",
            False,
            "7h 8h 9h Jh 3h",
            True,
            "straight flush 7-J of hearts",
            ["dealer", "caller"],
        ),
    }
    facts = view["facts"]
    assert (facts["called_by"], facts["final_turns"], facts["turns_left"]) == (3, [], 0)


def test_an_even_split_is_a_push_for_each_winner() -> None:
    hand = live({1: "7c 8c 9c Jc As", 2: "7h 8h 9h Jh Qd"}, ante=100)  # seat 2 deals
    act(hand, draw(1, "3d"), call(1, "As"), draw(2, "Th"), call(2, "Qd"))
    view = shown(hand)
    assert {seat: row[0] for seat, row in seats(view).items()} == {1: "push", 2: "push"}
    assert view["pots"] == [{"name": "pot", "amount": 200, "seats": [1, 2]}]


def test_the_upcard_leaves_the_table_when_it_is_drawn_as_the_last_card() -> None:
    hand = live({1: "7c 8c 9c Jc As", 2: "Ks Kh Kd 7s 2d"})
    pass_turns(hand, 41)
    view = shown(hand)
    assert (view["stock"], view["community"]) == (1, [{"card": "3c", "up": True}])
    pass_turns(hand, 1)  # the upcard drawn and thrown; the discards become the stock
    view = shown(hand)
    assert (view["stock"], view["community"], view["wild_rank"]) == (41, [], "3")
    assert view["top_discard"] == {"card": "3c", "up": True}


def test_every_hand_state_the_platform_shows_carries_the_presentation() -> None:
    deal = config({1: "7c 8c 9c Jc As", 2: "Ks Kh Kd 7s 2d"}, upcard="Tc", ante=500)
    state = GAME.new_hand(deal.to_dict(), GAME.parse_rules({"ante_min": 500, "ante_max": 500}))
    assert isinstance(state, PaiuteHand)
    state.apply(draw(1, "4d"), 0)
    view = hand_view(state, GAME.code)
    assert view["presentation"] == state.presentation().to_dict()
    assert view["presentation"]["wild_rank"] == "T"
    assert view["presentation"]["facts"]["drawn"] == "4d"
    assert [party["status"] for party in view["presentation"]["seats"]] == ["to_act", "in"]
