"""Pontoon's presentation view (``PontoonHand.presentation()``), played through the engine: the
deal, a decision, a split, Shoot Pontoon's kitty, the banker's turn and the end of the hand,
each checked against the shared schema and ``presentation.problems``."""

from __future__ import annotations

from typing import Any

import jsonschema

from casino.rules import presentation
from casino.rules.contract import hand_view, registry
from casino.rules.pontoon import PontoonHand
from tests.rules.pontoon_helpers import (
    act,
    deal,
    draw,
    live,
    live_buy,
    live_stick,
    live_twist,
    no_shoot,
    second_cards,
    shoot,
    split,
    stake,
    stand,
    start,
)

JSON = dict[str, Any]


def shown(hand: PontoonHand) -> JSON:
    """The hand's presentation as JSON, held to the shared schema and checks."""
    view = hand.presentation().to_dict()
    assert presentation.problems(view) == []
    jsonschema.validate(view, presentation.SCHEMA)
    return view


def seat(view: JSON, number: int) -> JSON:
    (party,) = [party for party in view["seats"] if party["seat"] == number]
    return party


def down(codes: str) -> list[JSON]:
    return [{"card": code, "up": False} for code in codes.split()]


def up(codes: str) -> list[JSON]:
    return [{"card": code, "up": True} for code in codes.split()]


def wagers(*pairs: tuple[str, int]) -> list[JSON]:
    return [{"name": name, "amount": amount} for name, amount in pairs]


def party(number: int, status: str, **fields: Any) -> JSON:
    """A whole party as the view gives it: a player's seat, nothing the game does not keep."""
    return {
        "seat": number,
        "house": False,
        "status": status,
        "to_act": fields.get("to_act", False),
        "cards": fields.get("cards", []),
        "stack": None,
        "committed_round": None,
        "committed_total": None,
        "wagers": fields.get("wagers", []),
        "total": fields.get("total"),
        "hand": fields.get("hand"),
        "badges": fields.get("badges", []),
        "groups": [],
        "hands": fields.get("hands", []),
    }


def sub(cards: list[JSON], total: str, status: str, bets: list[JSON], to_act: bool = False) -> JSON:
    return {"cards": cards, "total": total, "status": status, "wagers": bets, "to_act": to_act}


def test_the_first_deal_waits_for_the_seat_to_get_the_next_card_clockwise_from_the_banker() -> None:
    # Banker in seat 4: the players play 6, 1, 2 (clause 3b); cards are dealt face down.
    hand = live(4, (1, 2, 6))
    act(hand, deal(6, "5h"), deal(1, "9s"))
    view = shown(hand)
    assert (view["phase"], view["to_act"], view["house"], view["pots"]) == (
        "first_card",
        2,
        None,
        [],
    )
    assert [party["seat"] for party in view["seats"]] == [1, 2, 4, 6]
    assert seat(view, 6) == party(6, "waiting", cards=down("5h"), total="5")
    assert seat(view, 1) == party(1, "waiting", cards=down("9s"), total="9")
    assert seat(view, 2) == party(2, "to_act", to_act=True)
    assert seat(view, 4) == party(4, "waiting", badges=["banker"])
    assert (view["stock"], view["kitty"], view["bank"], view["community"]) == (50, None, None, [])
    assert view["facts"] == {"order": [6, 1, 2]}

    act(hand, deal(2, "Ac"))
    view = shown(hand)
    assert view["to_act"] == 4  # the banker's own first card comes last
    assert seat(view, 4) == party(4, "to_act", to_act=True, badges=["banker"])
    assert seat(view, 2)["total"] == "soft 11"

    act(hand, deal(4, "7d"), stake(6, 20))
    view = shown(hand)
    assert (view["phase"], view["to_act"]) == ("stakes", 1)
    assert seat(view, 6)["wagers"] == wagers(("stake", 20))
    assert seat(view, 1) == party(1, "to_act", to_act=True, cards=down("9s"), total="9")
    assert seat(view, 4)["cards"] == down("7d")


def test_after_the_deal_a_pontoon_is_declared_on_its_turn_and_shown() -> None:
    hand = live(9, (1, 2))
    start(hand, {1: "9s 7d", 2: "Ah Kh", 9: "Ts 6c"}, {1: 10, 2: 30})
    view = shown(hand)
    assert (view["phase"], view["to_act"], view["stock"]) == ("players", 1, 46)
    assert seat(view, 1) == party(
        1, "to_act", to_act=True, cards=down("9s 7d"), total="16", wagers=wagers(("stake", 10))
    )
    assert seat(view, 2) == party(
        2, "waiting", cards=down("Ah Kh"), total="pontoon", wagers=wagers(("stake", 30))
    )
    assert seat(view, 9) == party(9, "waiting", cards=down("Ts 6c"), total="16", badges=["banker"])
    assert view["facts"] == {"order": [1, 2], "hand_in_play": 0, "buy_min": 10, "buy_max": 20}

    # Clause 5: on its turn the pontoon is declared and shown, and the hand stands on it.
    act(hand, live_stick(1))
    view = shown(hand)
    assert seat(view, 2) == party(
        2,
        "stood",
        cards=up("Ah Kh"),
        total="pontoon",
        hand="pontoon",
        wagers=wagers(("stake", 30)),
    )
    assert (view["phase"], view["to_act"]) == ("banker", 9)


def test_a_bought_card_is_down_a_twisted_one_up_and_the_buys_are_wagers() -> None:
    hand = live(9, (1, 2))
    start(hand, {1: "5h 6c", 2: "Ah 4c", 9: "Ts 7c"}, {1: 10, 2: 10})
    act(hand, live_buy(1, 20, "2d"))
    view = shown(hand)
    assert seat(view, 1) == party(
        1,
        "to_act",
        to_act=True,
        cards=down("5h 6c 2d"),
        total="13",
        wagers=wagers(("stake", 10), ("buy", 20)),
    )
    # Clause 7: the 4th card costs the first stake up to the 20 added for the 3rd.
    assert (view["facts"]["buy_min"], view["facts"]["buy_max"]) == (10, 20)

    act(hand, live_twist(1, "3s"))
    view = shown(hand)
    assert seat(view, 1)["cards"] == [*down("5h 6c 2d"), *up("3s")]
    assert seat(view, 1)["total"] == "16"
    assert seat(view, 1)["status"] == "to_act"
    assert "buy_min" not in view["facts"]  # no buy after a twist (clause 8a)

    act(hand, live_stick(1))
    view = shown(hand)
    assert seat(view, 1)["status"] == "stood"
    assert seat(view, 1)["hand"] == "16"
    assert seat(view, 1)["cards"] == [*down("5h 6c 2d"), *up("3s")]  # stuck: still hidden
    assert seat(view, 2) == party(
        2, "to_act", to_act=True, cards=down("Ah 4c"), total="soft 15", wagers=wagers(("stake", 10))
    )


def test_a_split_seat_shows_one_hand_each_and_which_one_is_in_play() -> None:
    hand = live(9, (1, 2))
    start(hand, {1: "8s 8d", 2: "Td 7c", 9: "Ts 7h"}, {1: 20, 2: 10})
    act(hand, split(1))
    view = shown(hand)
    stake_20 = wagers(("stake", 20))
    assert seat(view, 1) == party(
        1,
        "to_act",
        to_act=True,
        hands=[
            sub(down("8s"), "8", "to_act", stake_20, to_act=True),
            sub(down("8d"), "8", "waiting", stake_20),
        ],
    )
    assert view["facts"]["hand_in_play"] == 0

    # The first hand gets its second card, twists to 21 and ends by itself; the second comes
    # into play.
    act(hand, deal(1, "3c", 0), live_twist(1, "Tc", 0))
    view = shown(hand)
    assert seat(view, 1)["hands"] == [
        sub([*down("8s 3c"), *up("Tc")], "21", "stood", stake_20),
        sub(down("8d"), "8", "to_act", stake_20, to_act=True),
    ]
    assert view["facts"]["hand_in_play"] == 1
    assert (seat(view, 1)["cards"], seat(view, 1)["total"], seat(view, 1)["hand"]) == (
        [],
        None,
        None,
    )

    act(hand, deal(1, "9h", 1), live_buy(1, 40, "7s", 1))
    view = shown(hand)
    # The second hand is bust (24): its cards are turned up and its stake is lost at once.
    assert seat(view, 1) == party(
        1,
        "stood",
        hand="21 / bust (24)",
        hands=[
            sub([*down("8s 3c"), *up("Tc")], "21", "stood", stake_20),
            sub(up("8d 9h 7s"), "bust (24)", "bust", wagers(("stake", 20), ("buy", 40))),
        ],
    )
    assert view["to_act"] == 2
    assert seat(view, 2)["status"] == "to_act"
    assert view["stock"] == 52 - 10 + 3  # the bust hand's cards go to the bottom of the pack


def test_shoot_pontoon_shows_the_kitty_the_shoot_bets_and_the_room_left() -> None:
    hand = live(9, (1, 2), kitty=1000)
    start(hand, {1: "Th 6h", 2: "9c 9d", 9: "Ts 7s"}, {1: 10, 2: 20})
    view = shown(hand)
    assert (view["phase"], view["to_act"], view["kitty"]) == ("shoot", 1, 1000)
    assert view["facts"] == {"order": [1, 2], "shoot_room": 1000, "kitty_start": 1000}

    act(hand, shoot(1, 300), no_shoot(2))
    second_cards(hand, {1: "Th 6h", 2: "9c 9d", 9: "Ts 7s"})
    view = shown(hand)
    assert seat(view, 1)["wagers"] == wagers(("stake", 10), ("shoot", 300))
    assert seat(view, 2)["wagers"] == wagers(("stake", 20))
    assert (view["kitty"], view["facts"]["shoot_room"]) == (1000, 700)

    # Seat 1 shoots again before its 4th card after buying the 3rd (clause 17c), then busts:
    # its shoot bets go into the kitty at once (17e).
    act(hand, live_buy(1, 10, "2c"), shoot(1, 200, 0))
    assert shown(hand)["facts"]["shoot_room"] == 500
    act(hand, live_twist(1, "Kd"))
    view = shown(hand)
    assert seat(view, 1) == party(
        1,
        "bust",
        cards=up("Th 6h 2c Kd"),
        total="bust (28)",
        hand="bust (28)",
        wagers=wagers(("stake", 10), ("buy", 10), ("shoot", 300), ("shoot", 200)),
    )
    assert (view["kitty"], view["facts"]["shoot_room"]) == (1500, 1500)

    act(hand, live_stick(2), stand(9))
    view = shown(hand)
    # 18 beats 17; no shoot bet was riding on it: the kitty after the hand is the 1500.
    assert (view["phase"], view["kitty"]) == ("complete", 1500)
    assert seat(view, 2)["status"] == "won"
    assert view["facts"] == {
        "order": [1, 2],
        "kitty_start": 1000,
        "next_banker": 9,
        "reshuffle": False,
    }


def test_the_banker_turns_its_cards_up_on_its_turn_and_the_end_shows_the_results() -> None:
    hand = live(9, (1, 2, 3))
    start(hand, {1: "Th 9h", 2: "6c 5c", 3: "Ah Kc", 9: "Ts 4d"})
    act(hand, live_stick(1), live_twist(2, "2s"), live_twist(2, "Qd"))
    view = shown(hand)
    assert (view["phase"], view["to_act"]) == ("banker", 9)
    assert seat(view, 9) == party(
        9, "to_act", to_act=True, cards=up("Ts 4d"), total="14", badges=["banker"]
    )
    assert seat(view, 2)["status"] == "bust"
    assert view["facts"] == {"order": [1, 2, 3]}

    act(hand, draw(9, "5s"), stand(9))
    view = shown(hand)
    assert (view["phase"], view["to_act"]) == ("complete", None)
    # Every hand is shown; each hand not bust shows its result against the banker's 19.
    assert seat(view, 1) == party(
        1, "lost", cards=up("Th 9h"), total="19", hand="19", wagers=wagers(("stake", 10))
    )  # ties go to the banker
    assert seat(view, 2) == party(
        2,
        "bust",
        cards=up("6c 5c 2s Qd"),
        total="bust (23)",
        hand="bust (23)",
        wagers=wagers(("stake", 10)),
    )
    assert seat(view, 3) == party(
        3, "won", cards=up("Ah Kc"), total="pontoon", hand="pontoon", wagers=wagers(("stake", 10))
    )
    # The banker: +10 from seat 1, +10 from seat 2, -20 to seat 3's pontoon: even.
    assert seat(view, 9) == party(
        9, "push", cards=up("Ts 4d 5s"), total="19", hand="19", badges=["banker"]
    )
    assert view["facts"] == {"order": [1, 2, 3], "next_banker": 3, "reshuffle": True}


def test_the_banker_s_pontoon_ends_the_hand_every_player_losing() -> None:
    hand = live(9, (1, 2))
    start(hand, {1: "Ah Kh", 2: "7c 7d", 9: "As Js"})
    view = shown(hand)
    assert (view["phase"], view["to_act"]) == ("complete", None)
    assert seat(view, 1) == party(
        1, "lost", cards=up("Ah Kh"), total="pontoon", hand="pontoon", wagers=wagers(("stake", 10))
    )
    assert seat(view, 2)["status"] == "lost"
    assert seat(view, 9) == party(
        9, "won", cards=up("As Js"), total="pontoon", hand="pontoon", badges=["banker"]
    )
    assert view["facts"] == {"order": [1, 2], "next_banker": 9, "reshuffle": True}


def test_a_sale_of_the_bank_changes_the_next_banker_not_the_results() -> None:
    hand = live(9, (1, 2))
    start(hand, {1: "Th 8h", 2: "Tc 6c", 9: "Ts 7s"})
    act(hand, live_stick(1), live_stick(2), stand(9))
    hand.apply({"type": "sell_bank", "seat": 9, "buyer": 2, "price": 500})
    view = shown(hand)
    assert [seat(view, n)["status"] for n in (1, 2, 9)] == ["won", "lost", "push"]
    assert seat(view, 9)["badges"] == ["banker"]  # this hand's banker
    assert view["facts"]["next_banker"] == 2


def test_the_contract_puts_the_presentation_in_every_hand_s_view() -> None:
    game = registry()["pontoon"]
    rules = game.parse_rules({"stake_min": 100, "stake_max": 2000})
    state = game.new_hand({"banker": 5, "players": [1, 2]}, rules)
    for action in (deal(1, "Qs"), deal(2, "3h"), deal(5, "9d"), stake(1, 100)):
        state.apply(action)
    view = hand_view(state, "pontoon")
    assert view["presentation"] == state.presentation().to_dict()
    assert view["presentation"]["to_act"] == view["to_act"] == 2
    assert seat(view["presentation"], 1)["wagers"] == wagers(("stake", 100))
    assert seat(view["presentation"], 5)["badges"] == ["banker"]
