"""Paiute: bad records, configurations and rules are refused (HTTP 400 via RuleError), every
problem named with its path and in words a dealer understands."""

from __future__ import annotations

from typing import Any

import pytest

from casino.rules.contract import registry
from casino.rules.errors import RuleError
from casino.rules.paiute import (
    PaiuteConfig,
    PaiuteHand,
    PaiuteRules,
    default_rules,
    evaluate,
    parse_rules,
)
from tests.rules.paiute_helpers import config, live, player, problems, record

SEAT_1 = player(1, "7c 8c 9c Jc 3h")
SEAT_2 = player(2, "Ks Kh Kd 7s 3d")
SEAT_3 = player(3, "2h 4h 6d 8s Td")


def errors(data: Any, rules: Any = None) -> list[tuple[str, str]]:
    with pytest.raises(RuleError) as error:
        evaluate(data, rules)
    return problems(error)


def test_caller_without_a_winning_combination() -> None:
    assert errors(record(SEAT_1, SEAT_2, SEAT_3, dealer=3, caller=3)) == [
        (
            "players[2].cards",
            "seat 3 called but 2h 4h 6d 8s Td make no winning combination with 3s wild "
            "(clauses 5, 7)",
        )
    ]


def test_six_cards_only_for_a_caller() -> None:
    six = player(2, "Ks Kh Kd 7s 3d 7d")  # four/two: a 6-card combination
    # Seat 2 called first: fine.
    assert evaluate(record(SEAT_1, six, SEAT_3, dealer=3, caller=2)).seat(2).hand == (
        "four/two: kings and sevens"
    )
    # Seat 1 called and seat 2 had a final turn: seat 2 may have called too.
    assert evaluate(record(SEAT_1, six, SEAT_3, dealer=3, caller=1)).to_dict()["winners"] == [1]
    # Seat 3 (the dealer) called: nobody had another turn.
    dealer_call = record(SEAT_1, six, player(3, "Qd Jd Td 9d 3s"), dealer=3, caller=3)
    assert errors(dealer_call) == [
        (
            "players[1].cards",
            "seat 2 holds 6 cards: only a caller keeps six (a 6-card combination), and the "
            "dealer called, so nobody else had another turn; a player ends with 5 cards "
            "(clauses 3, 6)",
        )
    ]
    # Dealer 1: play runs 2, 3, 1; seat 3 called, so seat 2 played before the call.
    before = record(
        player(1, "7c 8c 9c Jc 4h"), six, player(3, "Qd Jd Td 9d 3s"), dealer=1, caller=3
    )
    assert errors(before)[0][1].startswith(
        "seat 2 holds 6 cards: only a caller keeps six (a 6-card combination), and it had no "
        "final turn after seat 3's call"
    )
    junk = record(SEAT_1, player(2, "Ks Kh Kd 7s 2d 5c"), SEAT_3, dealer=3, caller=1)
    assert errors(junk) == [
        (
            "players[1].cards",
            "seat 2 holds 6 cards but Ks Kh Kd 7s 2d 5c make no winning combination: a player "
            "who does not call discards to five (clauses 3, 6)",
        )
    ]


def test_caller_with_six_cards_and_a_5_card_combination_discards_the_sixth() -> None:
    settlement = evaluate(
        record(player(1, "7c 8c 9c Jc 3h As"), SEAT_2, SEAT_3, dealer=3, caller=1)
    )
    combination = settlement.to_dict()["seats"][0]["combination"]
    assert (combination["description"], combination["discard"]) == (
        "straight flush 7-J of clubs",
        "As",
    )
    assert "As discarded" in settlement.explanation[1]


def test_wrong_card_counts_and_duplicates() -> None:
    data = record(
        player(1, "7c 8c 9c Jc"),
        player(2, "Ks Kh Kd 7s 3d 7d 2c"),
        player(3, "2h 4h 6d 8s Kd"),
        dealer=3,
        caller=1,
    )
    assert errors(data) == [
        (
            "players[0].cards",
            "seat 1: a player ends with 5 cards, or 6 after calling with a 6-card combination, "
            "got 4",
        ),
        (
            "players[1].cards",
            "seat 2: a player ends with 5 cards, or 6 after calling with a 6-card combination, "
            "got 7",
        ),
    ]
    dupe = record(SEAT_1, SEAT_2, player(3, "2h 4h 6d 8s Kd"), dealer=3, caller=1)
    assert errors(dupe) == [("players[2].cards[4]", "card Kd appears twice: seat 2 and seat 3")]
    bad = record(SEAT_1, SEAT_2, player(3, "2h 4h 6d 8s Zz"), dealer=3, caller=1)
    assert errors(bad) == [("players[2].cards[4]", "seat 3: unknown card 'Zz'")]


def test_the_upcard_may_be_held() -> None:
    held = record(player(1, "7c 8c 9c Jc 3c"), SEAT_2, SEAT_3, dealer=3, caller=1)
    assert evaluate(held).seat(1).hand == "straight flush 7-J of clubs"


def test_unknown_caller_dealer_and_seats() -> None:
    assert errors(record(SEAT_1, SEAT_2, SEAT_3, dealer=3, caller=7)) == [
        ("caller", "seat 7 is not a player in this hand, so it cannot call")
    ]
    assert errors(record(SEAT_1, SEAT_2, SEAT_3, dealer=5, caller=1)) == [
        ("dealer", "the dealer (seat 5) is not among the players: the dealer plays")
    ]
    everything = record(SEAT_1, player(2, "Ks Kh Kd 7s Xx"), dealer=5, caller=7)
    assert errors(everything) == [
        ("players[1].cards[4]", "seat 2: unknown card 'Xx'"),
        ("dealer", "the dealer (seat 5) is not among the players: the dealer plays"),
        ("caller", "seat 7 is not a player in this hand, so it cannot call"),
    ]
    twice = record(SEAT_1, player(1, "Ks Kh Kd 7s 3d"), dealer=1, caller=1)
    assert errors(twice) == [("players[1].seat", "seat 1 is listed twice")]
    missing: dict[str, Any] = {"players": [SEAT_1, SEAT_2], "colour": "red"}
    assert errors(missing) == [
        ("colour", "unknown field 'colour'"),
        ("dealer", "the dealer's seat is missing"),
        ("caller", "the caller's seat is missing"),
        ("ante", "the ante must be a whole amount, got None"),
        ("wild_card", "the wild card (the upcard) is missing"),
    ]
    assert errors("nonsense")[0][1].startswith("the hand record must be an object")


def test_two_to_five_players_in_a_record() -> None:
    assert errors(record(SEAT_1, dealer=1, caller=1)) == [
        (
            "players",
            "1 players listed: Paiute is played by 2 to 5 (rule 1 (“Players, pack and ante”))",
        )
    ]
    assert errors(record(SEAT_1, SEAT_2, SEAT_3, dealer=3, caller=1), {"max_players": 2}) == [
        (
            "players",
            "3 players listed: Paiute is played by 2 to 2 (rule 1 (“Players, pack and ante”))",
        )
    ]


def test_ante_checks() -> None:
    assert errors(record(SEAT_1, SEAT_2, dealer=2, caller=1, ante=0)) == [
        ("ante", "the ante must be positive, got 0")
    ]
    assert errors(record(SEAT_1, SEAT_2, dealer=2, caller=1, ante=105), {"smallest_chip": 25}) == [
        ("ante", "ante 105 is not a multiple of the smallest chip 25")
    ]
    assert errors(record(SEAT_1, SEAT_2, dealer=2, caller=1), {"ante_max": 50}) == [
        (
            "ante",
            "ante 100 is outside the table limits: 1 to 50 (rule 1 (“Players, pack and ante”))",
        )
    ]


def test_config_errors() -> None:
    with pytest.raises(RuleError) as error:
        live({1: "7c 8c 9c Jc As", 2: "Ks Kh Kd 7s"}, dealer=4, upcard="As")
    assert problems(error) == [
        ("dealer", "the dealer (seat 4) is not among the players: the dealer plays too"),
        ("hands.2", "seat 2: 5 cards are dealt, got 4"),
        ("upcard[0]", "card As appears twice: seat 1 and the upcard"),
    ]
    with pytest.raises(RuleError) as error:
        PaiuteConfig.from_dict(
            {"dealer": "x", "players": [1, "2"], "ante": 1.5, "hands": {"one": []}, "upcard": "Q"}
        )
    assert problems(error) == [
        ("dealer", "the dealer must be a seat number, got 'x'"),
        ("players[1]", "a player is a seat number, got '2'"),
        ("ante", "the ante must be a whole amount, got 1.5"),
        ("hands.one", "hands are listed by seat number, got 'one'"),
        ("upcard", "the upcard: unknown card 'Q'"),
    ]
    deal = config({1: "7c 8c 9c Jc As", 2: "Ks Kh Kd 7s 2d"}).to_dict()
    deal["hands"]["3"] = ["2c", "4c", "5c", "6c", "7d"]
    with pytest.raises(RuleError) as error:
        PaiuteHand(PaiuteConfig.from_dict(deal))
    assert problems(error) == [("hands.3", "seat 3 is not dealt in this hand")]


def test_rules_options() -> None:
    assert default_rules() == {
        "discard_pile_starts_with_upturned_card": False,
        "ante_min": None,
        "ante_max": None,
        "smallest_chip": 1,
        "min_players": 2,
        "max_players": 5,
        "rake": {"kind": "none", "amount": 0, "bands": [], "percent": 0, "cap": None},
    }
    table = parse_rules({"ante_min": 100, "smallest_chip": 25})
    assert parse_rules({"ante_max": 500}, base=table)["ante_min"] == 100
    assert PaiuteRules.from_dict(PaiuteRules().to_dict()) == PaiuteRules()
    with pytest.raises(RuleError) as error:
        parse_rules(
            {
                "colour": 1,
                "ante_min": 30,
                "ante_max": 20,
                "smallest_chip": 10,
                "min_players": 6,
                "discard_pile_starts_with_upturned_card": "yes",
            }
        )
    assert problems(error) == [
        ("rules.colour", "unknown rules setting 'colour'"),
        (
            "rules.discard_pile_starts_with_upturned_card",
            "discard pile starts with upturned card must be true or false",
        ),
        ("rules.ante_max", "the ante maximum 20 is below the minimum 30"),
        (
            "rules.min_players",
            "min players must be a whole number from 2 to 5 (rule 1 (“Players, pack and ante”)), got 6",
        ),
    ]
    with pytest.raises(RuleError, match=r"the ante minimum 15 is not a multiple of the smallest"):
        PaiuteRules(ante_min=15, smallest_chip=10)


def test_registry_evaluates_paiute() -> None:
    engine = registry()["paiute"]
    assert (engine.code, engine.name) == ("paiute", "Paiute")
    assert engine.default_rules() == default_rules()
    settlement = engine.evaluate(record(SEAT_1, SEAT_2, SEAT_3, dealer=3, caller=1), None)
    assert settlement.to_dict()["winners"] == [1]
    settlement.check_conserved()
