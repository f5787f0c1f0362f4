"""High Card Flush: bad records are rejected with every problem, its path and a dealer's message."""

from __future__ import annotations

from typing import Any

import pytest

from casino.rules.errors import RuleError
from casino.rules.high_card_flush import evaluate
from tests.rules.helpers import dp, player, problems, record

DP_CARDS = "9s 8s 7s Kh Qh 2d 3c"
P2_CARDS = "Ac Kc 2c Qd 9d 3h 4s"
P3_CARDS = "Ad Jd Td 4d 6h 5c 6c"


def rejected(data: Any, rules: Any = None) -> list[tuple[str, str]]:
    with pytest.raises(RuleError) as error:
        evaluate(data, rules)
    return problems(error)


def test_a_valid_record_is_accepted() -> None:
    evaluate(record(dp(DP_CARDS), player(2, P2_CARDS), player(3, P3_CARDS)))


def test_duplicate_card_across_hands() -> None:
    assert rejected(record(dp(DP_CARDS), player(2, "Ac Kc 2c Qd 9d 3h 9s"))) == [
        ("players[0].cards[6]", "card 9s appears twice: the designated player and seat 2")
    ]


def test_duplicate_card_between_players_and_within_a_hand() -> None:
    assert rejected(
        record(dp(DP_CARDS), player(2, P2_CARDS), player(3, "Ad Jd Td 4d 6h Ac Ad"))
    ) == [
        ("players[1].cards[5]", "card Ac appears twice: seat 2 and seat 3"),
        ("players[1].cards[6]", "seat 3: card Ad appears twice"),
    ]


def test_duplicate_is_found_even_when_another_card_is_unknown() -> None:
    assert rejected(record(dp(DP_CARDS), player(2, "Ac Kc 2c Qd 9d Zz Kh"))) == [
        ("players[0].cards[5]", "seat 2: unknown card 'Zz'"),
        ("players[0].cards[6]", "card Kh appears twice: the designated player and seat 2"),
    ]


@pytest.mark.parametrize(
    ("entry", "path", "message"),
    [
        (
            dp("9s 8s 7s Kh Qh 2d"),
            "designated_player.cards",
            "designated player: 7 cards needed, got 6",
        ),
        (
            {"seat": 1, "bank": 100, "cards": "9s8s7sKhQh2d3c"},
            "designated_player.cards",
            "designated player: cards must be a list of 7 cards such as ['Ah', 'Td']",
        ),
        (
            {"seat": 1, "bank": 100},
            "designated_player.cards",
            "designated player: cards are missing",
        ),
    ],
)
def test_wrong_dp_cards(entry: dict[str, Any], path: str, message: str) -> None:
    assert rejected(record(entry, player(2, P2_CARDS))) == [(path, message)]


def test_unknown_card() -> None:
    assert rejected(record(dp(DP_CARDS), player(2, "Ac Kc 2c Qd 9d 3h 1s"))) == [
        ("players[0].cards[6]", "seat 2: unknown card '1s'")
    ]


@pytest.mark.parametrize(
    ("raise_", "message"),
    [
        (20, "seat 2: raise 20 exceeds 1x ante for a 3-card flush"),
        (9, "seat 2: raise 9 is below the minimum of 1x ante (10); 0 means fold"),
    ],
)
def test_raise_out_of_bounds(raise_: int, message: str) -> None:
    assert rejected(record(dp(DP_CARDS), player(2, P2_CARDS, raise_=raise_))) == [
        ("players[0].raise", message)
    ]


def test_seat_twice() -> None:
    assert rejected(record(dp(DP_CARDS), player(2, P2_CARDS), player(2, P3_CARDS))) == [
        ("players[1].seat", "seat 2 is listed twice")
    ]


def test_dp_seat_reused_by_a_player() -> None:
    assert rejected(record(dp(DP_CARDS, seat=3), player(3, P2_CARDS))) == [
        ("players[0].seat", "seat 3 is the designated player's seat")
    ]


@pytest.mark.parametrize(
    ("seat", "message"),
    [
        (0, "player entry 1: seat must be a positive whole number, got 0"),
        (-2, "player entry 1: seat must be a positive whole number, got -2"),
        ("2", "player entry 1: seat must be a positive whole number, got '2'"),
        (2.0, "player entry 1: seat must be a positive whole number, got 2.0"),
        (True, "player entry 1: seat must be a positive whole number, got True"),
        (None, "player entry 1: seat is missing"),
    ],
)
def test_seat_must_be_a_positive_whole_number(seat: Any, message: str) -> None:
    entry = player(2, P2_CARDS)
    entry["seat"] = seat
    assert rejected(record(dp(DP_CARDS), entry)) == [("players[0].seat", message)]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("ante", -10, "seat 2: ante -10 must not be negative"),
        ("ante", 10.0, "seat 2: ante must be a whole number of minor units (cents), got 10.0"),
        ("ante", True, "seat 2: ante must be a whole number of minor units (cents), got True"),
        ("ante", "10", "seat 2: ante must be a whole number of minor units (cents), got '10'"),
        ("ante", None, "seat 2: ante is missing"),
        ("raise", -10, "seat 2: raise -10 must not be negative"),
        ("raise", None, "seat 2: raise is missing"),
        ("flush_bonus", -5, "seat 2: flush bonus -5 must not be negative"),
        (
            "straight_flush_bonus",
            2.5,
            "seat 2: straight flush bonus must be a whole number of minor units (cents), got 2.5",
        ),
    ],
)
def test_player_money_must_be_a_non_negative_whole_number(
    field: str, value: Any, message: str
) -> None:
    entry = player(2, P2_CARDS)
    entry[field] = value
    assert rejected(record(dp(DP_CARDS), entry)) == [(f"players[0].{field}", message)]


def test_a_null_bonus_is_no_bet() -> None:
    entry = player(2, P2_CARDS)
    entry["flush_bonus"] = None
    result = evaluate(record(dp(DP_CARDS), entry))
    assert [line.wager for line in result.seat(2).lines] == ["ante", "raise"]


def test_missing_ante_and_raise_are_reported() -> None:
    entry = {"seat": 2, "cards": P2_CARDS.split()}
    assert rejected(record(dp(DP_CARDS), entry)) == [
        ("players[0].ante", "seat 2: ante is missing"),
        ("players[0].raise", "seat 2: raise is missing"),
    ]


@pytest.mark.parametrize(
    ("bank", "message"),
    [
        (-1, "designated player bank -1 must not be negative"),
        (1000, "designated player bank 1000 is below the table minimum 5000"),
        (60_000, "designated player bank 60000 is above the table maximum 50000"),
        (
            5000.5,
            "designated player bank must be a whole number of minor units (cents), got 5000.5",
        ),
        (None, "designated player bank is missing"),
    ],
)
def test_dp_bank_within_the_table_limits(bank: Any, message: str) -> None:
    data = record(dp(DP_CARDS, bank=bank), player(2, P2_CARDS))
    assert rejected(data, {"bank_min": 5000, "bank_max": 50_000}) == [
        ("designated_player.bank", message)
    ]


def test_money_in_multiples_of_the_smallest_chip() -> None:
    data = record(dp(DP_CARDS, bank=1010), player(2, P2_CARDS, ante=100, flush_bonus=30))
    assert rejected(data, {"smallest_chip": 25}) == [
        (
            "designated_player.bank",
            "designated player bank 1010 is not a multiple of the smallest chip 25",
        ),
        (
            "players[0].flush_bonus",
            "seat 2: flush bonus 30 is not a multiple of the smallest chip 25",
        ),
    ]


def test_a_bonus_the_table_does_not_offer_is_rejected() -> None:
    data = record(dp(DP_CARDS), player(2, P2_CARDS, straight_flush_bonus=5))
    assert rejected(data, {"straight_flush_paytable": {}}) == [
        (
            "players[0].straight_flush_bonus",
            "seat 2: the straight flush bonus is not offered at this table",
        )
    ]


def test_unknown_rules_key_is_rejected_before_the_record_is_read() -> None:
    assert rejected(record(dp(DP_CARDS), player(2, P2_CARDS)), {"colour": "red"}) == [
        ("rules.colour", "unknown rules setting 'colour'")
    ]


def test_unknown_record_fields_are_rejected() -> None:
    data = record(dp(DP_CARDS), player(2, P2_CARDS))
    data["table"] = 7
    data["designated_player"]["name"] = "Ann"
    data["players"][0]["insurance"] = 10
    assert rejected(data) == [
        ("table", "unknown field 'table'"),
        ("designated_player.name", "unknown field 'name'"),
        ("players[0].insurance", "unknown field 'insurance'"),
    ]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ([], [("", "the hand record must be an object with designated_player and players")]),
        (
            {"players": []},
            [
                (
                    "designated_player",
                    "the designated player is missing (an object with seat, bank and cards)",
                ),
                ("players", "1 to 6 players needed besides the designated player, got 0"),
            ],
        ),
        (
            {"designated_player": dp(DP_CARDS), "players": "seat 2"},
            [("players", "players must be a list of player hands")],
        ),
        (
            {"designated_player": dp(DP_CARDS), "players": [7]},
            [("players[0]", "player entry 1 must be an object with seat, cards, ante and raise")],
        ),
    ],
)
def test_record_shape(data: Any, expected: list[tuple[str, str]]) -> None:
    assert rejected(data) == expected


def test_every_problem_is_reported_at_once() -> None:
    data = record(
        dp("9s 8s 7s Kh Qh 2d", bank=-5),
        player(2, "Ac Kc 2c Qd 9d 3h 9s", ante=0),
        player(2, "Ad Jd Td 4d 6h 5c Xx", raise_=-1),
        player(4, P3_CARDS.replace("Ad", "Ah"), raise_=30),
    )
    paths = [path for path, _ in rejected(data)]
    assert paths == [
        "designated_player.bank",
        "designated_player.cards",
        "players[0].ante",
        "players[1].seat",
        "players[1].cards[6]",
        "players[1].raise",
        "players[2].raise",
        "players[0].cards[6]",
        "players[2].cards[1]",
        "players[2].cards[2]",
        "players[2].cards[3]",
        "players[2].cards[4]",
        "players[2].cards[5]",
    ]
