"""Pontoon: whole hands, live (action by action, with the tablet's view) and as records, for
each way the banker's hand settles the table, and Shoot Pontoon across several hands with the
kitty carried over and the bank changing hands.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from casino.rules.cards import standard_deck
from casino.rules.contract import registry
from casino.rules.errors import RuleError
from casino.rules.pontoon import (
    Phase,
    PontoonConfig,
    PontoonHand,
    PontoonRules,
    evaluate,
    replay,
)
from casino.rules.pontoon.ops import HandEnding
from casino.rules.settlement import Outcome, Role, SeatStatus
from tests.rules.pontoon_helpers import (
    act,
    banker,
    bet,
    buy,
    deal,
    draw,
    hand,
    live,
    live_buy,
    live_stick,
    live_twist,
    nets,
    player,
    problems,
    record,
    second_cards,
    shoot,
    split,
    stand,
    start,
    stick,
    twist,
)


def test_live_hand_banker_stands_view_legal_actions_and_record_round_trip() -> None:
    table = live(5, (6, 1, 2), stake_min=10, stake_max=50)
    view = table.view()
    assert (view["phase"], view["to_act"], view["order"]) == ("first_card", 6, [6, 1, 2])
    assert view["legal_actions"] == [{"type": "deal"}]
    start(table, {6: "8c 8d", 1: "As 5d", 2: "Kh Ah", 5: "Tc 8s"}, {6: 20, 1: 10, 2: 50})
    assert (table.phase, table.to_act, table.current_hand) == (Phase.PLAYERS, 6, 0)
    assert table.legal_actions() == [
        {"type": "split", "hand": 0},
        {"type": "buy", "hand": 0, "min": 20, "max": 40},
        {"type": "twist", "hand": 0},
        {"type": "stick", "hand": 0},
    ]
    act(table, split(6), deal(6, "3c", 0))
    assert table.legal_actions()[0] == {"type": "buy", "hand": 0, "min": 20, "max": 40}
    act(table, live_buy(6, 40, "Td", 0))  # 8-3-T = 21: ends by itself
    assert (table.to_act, table.current_hand) == (6, 1)
    assert table.legal_actions() == [{"type": "deal", "hand": 1}]
    act(table, deal(6, "9h", 1), live_stick(6, 1))  # 17
    act(table, live_twist(1, "4c"), live_stick(1))  # A-5-4 soft 20
    assert table.to_act == 5 and table.phase is Phase.BANKER  # seat 2's pontoon stood alone
    view = table.view()
    assert view["players"][0]["hands"][0] == {
        "cards": ["8c", "3c", "Td"],
        "total": 21,
        "soft": False,
        "hand": "21",
        "stake": 60,
        "buys": [40],
        "twisted": False,
        "shoot": 0,
        "status": "twenty_one",
    }
    assert view["players"][1]["hands"][0]["hand"] == "soft 20"
    assert view["players"][2]["hands"][0]["status"] == "pontoon"
    assert view["banker"] == {
        "seat": 5,
        "cards": ["Tc", "8s"],
        "total": 18,
        "soft": False,
        "hand": "18",
        "status": "playing",
    }
    act(table, stand(5))
    assert json.loads(json.dumps(table.view()))["next_banker"] == 2
    result = table.settle()
    assert json.dumps(result.to_dict())
    assert result.extra["case"] == "banker_stands"
    assert result.seat(6).hand == "21 / 17"
    assert nets(result) == {6: 60 - 20, 1: 10, 2: 100, 5: -150}
    assert result.extra["next_banker"] == 2
    banker_lines = result.seat(5).lines
    assert [(line.extra["against"], line.extra["hand"], line.amount) for line in banker_lines] == [
        (6, 0, -60),
        (6, 1, 20),
        (1, 0, -10),
        (2, 0, -100),
    ]
    assert result.seat(5).role is Role.BANKER
    # The record built from the live hand replays to the same settlement.
    rebuilt = table.to_record()
    assert rebuilt["players"][0]["hands"] == [
        {"cards": ["8c", "3c", "Td"], "actions": [{"type": "buy", "amount": 40}]},
        {"cards": ["8d", "9h"], "actions": [{"type": "stick"}]},
    ]
    rules = {"stake_min": 10, "stake_max": 50}
    assert evaluate(rebuilt, rules).to_dict() == result.to_dict()
    assert registry()["pontoon"].evaluate(rebuilt, rules).to_dict() == result.to_dict()
    again = PontoonHand.from_actions(table.config, table.rules, table.actions())
    assert [op.to_dict() for op in again.log] == [op.to_dict() for op in table.log]


def test_replay_banker_bust() -> None:
    result = evaluate(
        record(
            banker("9c 5c Kc"),
            player(1, hand("Ah Kh")),
            player(2, hand("4d 5d 2s 3s Ac", buy(10), buy(10), twist())),  # trick (15)
            player(3, hand("Td 6d 9d", twist())),  # bust
            player(4, hand("Qs 5h", stick())),
        )
    )
    assert result.extra["case"] == "banker_bust"
    assert result.seat(9).status is SeatStatus.BUST and result.seat(9).hand == "bust (24)"
    assert result.seat(2).hand == "five card trick (15)"
    assert nets(result) == {1: 20, 2: 60, 3: -10, 4: 10, 9: -80}


def test_replay_banker_five_card_trick() -> None:
    result = evaluate(
        record(
            banker("2c 2d Ac 3c 4c"),  # 2-2-A-3-4 = 12 (soft 22 is not counted): a trick
            player(1, hand("Ah Jh")),
            player(2, hand("Td 9d", stick())),
            player(3, hand("2h 3h 4h 5h 6h", buy(20), buy(10), buy(10)), stake=10),
        )
    )
    assert result.seat(9).hand == "five card trick (12)"
    assert result.extra["case"] == "banker_five_card_trick"
    assert nets(result) == {1: 20, 2: -20, 3: -100, 9: 100}
    assert result.seat(3).lines[0].odds == "2:1"


def test_replay_banker_pontoon_no_turns_and_cards_after_it_are_refused() -> None:
    hand_record = record(
        banker("Kc As"), player(1, hand("Ah Kh")), player(2, hand("9d 2d"), stake=25)
    )
    result = evaluate(hand_record)
    assert result.extra["case"] == "banker_pontoon" and result.seat(9).hand == "pontoon"
    assert nets(result) == {1: -20, 2: -50, 9: 70}
    assert result.extra["reshuffle"] and result.extra["next_banker"] == 9
    late = record(banker("Kc As"), player(1, hand("9d 2d 5c", twist())))
    with pytest.raises(RuleError) as error:
        evaluate(late)
    assert problems(error) == [
        (
            "players[0].hands[0].actions[0]",
            "seat 1 cannot twist: the banker has a pontoon, so the players take no turns "
            "(rule 4 (“The banker's pontoon”))",
        )
    ]


def test_replay_every_player_bust_the_banker_does_not_play() -> None:
    result = evaluate(record(banker("2c 3c"), player(1, hand("Td 6d 9d", twist()))))
    assert result.extra["case"] == "all_bust"
    assert nets(result) == {1: -10, 9: 10}
    with pytest.raises(RuleError) as error:
        evaluate(record(banker("2c 3c 4c"), player(1, hand("Td 6d 9d", twist()))))
    assert problems(error) == [
        (
            "banker.cards[2]",
            "the banker cannot draw: every player's hand is bust, so the banker does not play",
        )
    ]


def test_shoot_pontoon_over_three_hands_kitty_carried_and_the_bank_changing_hands() -> None:
    rules = {"stake_min": 10, "stake_max": 1000}
    # Hand 1: banker seat 9 puts up 1000. Seat 1 shoots 300, seat 2 200; seat 2 busts (its
    # 200 goes in at once), seat 3 shoots 100 before its 4th card and loses, seat 1 wins.
    first = evaluate(
        record(
            banker("Ts 7s"),
            player(1, hand("Tc 9c", stick())),
            player(2, hand("Kd 6d 8d", twist())),
            player(3, hand("2h 3h 4h 6h", buy(10), buy(10), stick())),
            kitty=1000,
            bets=[bet(1, 1, 300), bet(2, 1, 200), bet(3, 4, 100)],
        ),
        rules,
    )
    assert nets(first) == {1: 10 + 300, 2: -10 - 200, 3: -30 - 100, 9: 30}
    assert first.extra["kitty_after"] == 1000 - 300 + 200 + 100 == 1000
    assert first.extra["next_banker"] == 9

    # Hand 2: the kitty carries over; seat 2 makes a pontoon and takes the bank. Seat 1's 700
    # shoot bet (the whole room) wins too: the kitty pays it.
    kitty = first.extra["kitty_after"]
    second = evaluate(
        record(
            banker("Ts 8s"),
            player(1, hand("Tc 9c", stick())),
            player(2, hand("Ad Kd")),
            player(3, hand("2h 5h Qh", twist(), stick())),
            kitty=kitty,
            carried=True,
            bets=[bet(1, 1, 700), bet(2, 1, 300)],
        ),
        rules,
    )
    assert nets(second) == {1: 10 + 700, 2: 20 + 300, 3: -10, 9: -20 - 1000}
    assert second.extra["kitty_after"] == 0
    assert second.extra["next_banker"] == 2 and second.extra["bank_changes"]
    assert (
        "The old banker (seat 9) leaves with the kitty of 0; seat 2 puts up a new kitty "
        "(rule 17 (“Shoot Pontoon and the kitty”)). The table decides how."
        in second.explanation[-2]
    )

    # Hand 3: seat 2 banks and puts up a new kitty within the limits; play starts at seat 3.
    third = replay(
        record(
            banker("9s 8s", seat=2),
            player(3, hand("Th 7h", stick())),
            player(9, hand("Tc 9c", stick())),
            player(1, hand("5c 6c 2d 7d", twist(), twist(), stick())),
            kitty=500,
            bets=[bet(9, 1, 250), bet(1, 1, 100), bet(1, 4, 150)],
        ),
        rules,
    )
    assert third.order == (3, 9, 1)
    result = third.settle()
    assert nets(result) == {3: -10, 9: 10 + 250, 1: 10 + 250, 2: -10 - 500}
    assert result.extra["kitty_after"] == 0
    # A carried kitty of 0 is dry: the banker puts up a new one or sells the bank.
    with pytest.raises(RuleError) as error:
        evaluate(record(banker("9s 8s"), player(1, hand("Tc 9c", stick())), kitty=0, carried=True))
    assert problems(error) == [
        (
            "shoot.kitty",
            "the kitty is empty: the banker puts up a new kitty or sells the bank (rule 17 (“Shoot Pontoon and the kitty”))",
        )
    ]
    with pytest.raises(RuleError) as error:
        evaluate(record(banker("9s 8s"), player(1, hand("Tc 9c", stick())), kitty=5000), rules)
    assert problems(error) == [
        (
            "shoot.kitty",
            "kitty 5000 is outside the table limits: the banker puts up 10 to 1000 (rule 17 (“Shoot Pontoon and the kitty”))",
        )
    ]


def test_shoot_pontoon_live_split_hand_takes_its_own_shoot_bets() -> None:
    table = live(kitty=300)
    cards = {1: "9c 9d", 2: "Tc 8c", 9: "Ts 7s"}
    start(table, cards)
    act(table, shoot(1, 100), shoot(2, 50))
    second_cards(table, cards)
    act(table, split(1), deal(1, "2h", 0), live_twist(1, "3h", 0))  # 9-2-3 = 14
    act(table, shoot(1, 100, 0), live_twist(1, "Kh", 0))  # bust: 200 to the kitty
    assert (table.kitty_now, table.shoot_open, table.shoot_room) == (500, 50, 450)
    act(table, deal(1, "2d", 1), live_buy(1, 10, "3d", 1))  # 9-2-3 = 14
    act(table, shoot(1, 450, 1), live_buy(1, 10, "4d", 1), live_stick(1, 1))  # 18
    act(table, live_stick(2), stand(9))
    result = table.settle()
    assert table.shoot_bets() == [
        {"seat": 1, "hand": 0, "card": 1, "amount": 100},
        {"seat": 1, "hand": 0, "card": 4, "amount": 100},
        {"seat": 1, "hand": 1, "card": 4, "amount": 450},
        {"seat": 2, "hand": 0, "card": 1, "amount": 50},
    ]
    assert nets(result) == {1: -10 - 200 + 30 + 450, 2: 10 + 50, 9: 10 + 200 - 30 - 450 - 60}
    assert result.extra["kitty_after"] == 300 + 200 - 450 - 50 == 0
    assert evaluate(table.to_record()).to_dict() == result.to_dict()


def test_when_the_pack_runs_out_the_busted_cards_come_round_again() -> None:
    """Six players split into four hands each and twist until the 52 cards are used up."""
    table = PontoonHand(PontoonConfig(9, (1, 2, 3, 4, 5, 6)), PontoonRules())
    fresh = [str(card) for card in standard_deck()]
    split_rank = {1: "2", 2: "3", 3: "4", 4: "5", 5: "6", 6: "7", 9: "8"}

    def take(ranks: str) -> str:
        for index, text in enumerate(fresh):
            if text[0] in ranks:
                return fresh.pop(index)
        return fresh.pop()

    refused = False
    while not table.complete:
        seat = table.to_act
        assert seat is not None
        legal = {action["type"]: action for action in table.legal_actions()}
        if not fresh and not refused and "twist" in legal:
            on_table = str(table.player(1).hands[0].cards[0])
            with pytest.raises(RuleError) as error:
                table.apply(live_twist(seat, on_table, table.current_hand or 0))
            assert "the pack is used up and only the busted hands' cards" in (problems(error)[0][1])
            refused = True
        action: dict[str, Any]
        if "deal" in legal:
            card = take(split_rank[seat]) if fresh else str(table.cards_available()[0])
            action = deal(seat, card, legal["deal"].get("hand"))
        elif "stake" in legal:
            action = {"type": "stake", "seat": seat, "amount": 10}
        elif "split" in legal:
            action = split(seat, legal["split"]["hand"])
        elif "stand" in legal:
            action = stand(seat)
        else:
            card = take("KQJT98A") if fresh else str(table.cards_available()[0])
            if "draw" in legal:
                action = draw(seat, card)
            else:
                action = live_twist(seat, card, table.current_hand or 0)
        table.apply(action)
    assert refused and table.cards_dealt > 52
    busts = [op for op in table.log if isinstance(op, HandEnding) and op.status == "bust"]
    assert len(busts) >= 10
    result = table.settle()
    assert sum(seat.net for seat in result.seats) == 0
    rebuilt = PontoonHand.from_actions(table.config, table.rules, table.actions())
    assert rebuilt.settle().to_dict() == result.to_dict()


def test_records_accept_a_final_stick_on_a_hand_that_ended_by_itself() -> None:
    plain = record(banker("Tc 8c"), player(1, hand("As Kd")), player(2, hand("9h 8d 4s", buy(10))))
    sticks = record(
        banker("Tc 8c"),
        player(1, hand("As Kd", stick())),
        player(2, hand("9h 8d 4s", buy(10), stick())),
    )
    assert evaluate(plain).to_dict() == evaluate(sticks).to_dict()
    lines = evaluate(plain).seat(2).lines
    assert (lines[0].stake, lines[0].outcome, lines[0].amount) == (20, Outcome.WIN, 20)


def test_registry_entry() -> None:
    engine = registry()["pontoon"]
    assert (engine.code, engine.name) == ("pontoon", "Pontoon")
    assert engine.default_rules() == PontoonRules().to_dict()
    table = engine.parse_rules({"stick_minimum": 16, "stake_min": 100})
    assert engine.parse_rules({"decks": 2}, base=table)["stick_minimum"] == 16
    result = engine.evaluate(record(banker("Tc 8c"), player(1, hand("As Kd"))), None)
    assert nets(result) == {1: 20, 9: -20}


def test_a_split_record_replays_in_one_canonical_order() -> None:
    hand_record = record(
        banker("Tc 7c"),
        player(
            1, hand("8c 2d Td", twist(), stick()), hand("8d 8h", stick()), hand("8s 9s", stick())
        ),
    )
    replayed = replay(hand_record)
    splits = [op.to_dict() for op in replayed.log if op.to_dict()["op"] == "split"]
    assert splits == [
        {"op": "split", "seat": 1, "hand": 0, "stake": 10},
        {"op": "split", "seat": 1, "hand": 1, "stake": 10},
    ]
    result = replayed.settle()
    assert result.seat(1).hand == "20 / 16 / 17"
    assert nets(result) == {1: 10 - 10 - 10, 9: 10}
