"""Cards: parsing, canonical text, ordering, decks and duplicate checks."""

from __future__ import annotations

import pytest

from casino.rules.cards import (
    RANKS,
    SUITS,
    Card,
    CardGroup,
    check_distinct,
    format_ranks,
    parse_card,
    parse_cards,
    rank_char,
    rank_name,
    rank_value,
    short_deck,
    sorted_desc,
    standard_deck,
)
from casino.rules.errors import RuleError
from tests.rules.helpers import problems


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("Ah", "Ah"),
        ("aS", "As"),
        ("ah", "Ah"),
        ("10h", "Th"),
        ("10D", "Td"),
        ("tc", "Tc"),
        ("2c", "2c"),
        (" Kd ", "Kd"),
    ],
)
def test_parse_card_accepts_either_case_and_10_and_prints_canonically(
    text: str, canonical: str
) -> None:
    assert str(parse_card(text)) == canonical


@pytest.mark.parametrize("text", ["Xx", "1h", "11h", "Ax", "A", "", "Ahh", "0h", "10"])
def test_parse_card_rejects_unknown_card_naming_it(text: str) -> None:
    with pytest.raises(RuleError) as error:
        parse_card(text)
    assert problems(error) == [("", f"unknown card '{text}'")]


@pytest.mark.parametrize("value", [None, 14, ["A", "h"], b"Ah"])
def test_parse_card_rejects_non_text_as_rule_error(value: object) -> None:
    with pytest.raises(RuleError, match="unknown card"):
        parse_card(value)


def test_card_fields_and_text() -> None:
    card = parse_card("Td")
    assert (card.rank, card.suit, card.rank_char) == (10, "d", "T")
    assert card == Card(10, "d")
    assert repr(card) == "Card('Td')"


@pytest.mark.parametrize(("rank", "suit"), [(1, "h"), (15, "h"), (10, "x"), (10, "H"), (True, "h")])
def test_card_refuses_impossible_values(rank: int, suit: str) -> None:
    with pytest.raises(RuleError):
        Card(rank, suit)


def test_cards_order_by_rank_then_suit() -> None:
    cards = [parse_card(text) for text in ["2s", "Ac", "Ts", "Td", "As"]]
    assert [str(card) for card in sorted(cards)] == ["2s", "Td", "Ts", "Ac", "As"]
    assert [str(card) for card in sorted_desc(cards)] == ["As", "Ac", "Ts", "Td", "2s"]
    assert parse_card("Kh") > parse_card("Qs")


def test_rank_helpers() -> None:
    assert RANKS == "23456789TJQKA"
    assert SUITS == "cdhs"
    assert [rank_char(rank) for rank in (2, 9, 10, 11, 12, 13, 14, 1)] == list("29TJQKAA")
    assert rank_name(14) == "ace" and rank_name(10) == "ten" and rank_name(1) == "ace"
    assert rank_value("t") == 10 and rank_value("10") == 10 and rank_value("A") == 14
    assert format_ranks([14, 13, 10, 2]) == "A-K-T-2"
    with pytest.raises(ValueError):
        rank_char(15)
    with pytest.raises(ValueError):
        rank_value("Z")


def test_parse_cards_reads_a_list_in_order() -> None:
    cards = parse_cards(["as", "10d", "2C"], path="cards", count=3)
    assert [str(card) for card in cards] == ["As", "Td", "2c"]


def test_parse_cards_reports_every_bad_card_by_path_and_the_wrong_count() -> None:
    with pytest.raises(RuleError) as error:
        parse_cards(
            ["As", "Zz", "Kd", "1h", "2c", "3c"],
            path="players[0].cards",
            count=7,
            who="seat 2",
        )
    assert problems(error) == [
        ("players[0].cards[1]", "seat 2: unknown card 'Zz'"),
        ("players[0].cards[3]", "seat 2: unknown card '1h'"),
        ("players[0].cards", "seat 2: 7 cards needed, got 6"),
    ]


def test_parse_cards_without_who_has_no_prefix() -> None:
    with pytest.raises(RuleError) as error:
        parse_cards(["As"], path="cards", count=2)
    assert problems(error) == [("cards", "2 cards needed, got 1")]


@pytest.mark.parametrize("value", ["AsKd", None, 7, {"a": "As"}])
def test_parse_cards_needs_a_list(value: object) -> None:
    with pytest.raises(RuleError) as error:
        parse_cards(value, path="designated_player.cards", count=7, who="designated player")
    assert problems(error) == [
        (
            "designated_player.cards",
            "designated player: cards must be a list of 7 cards such as ['Ah', 'Td']",
        )
    ]


def _group(who: str, path: str, text: str) -> CardGroup:
    return CardGroup(who, path, [parse_card(card) for card in text.split()])


def test_check_distinct_names_the_card_and_both_hands() -> None:
    with pytest.raises(RuleError) as error:
        check_distinct(
            [
                _group("the designated player", "designated_player.cards", "As Kd 2c"),
                _group("seat 2", "players[0].cards", "Qh Jh Th"),
                _group("seat 5", "players[1].cards", "9c Kd 8c As"),
            ]
        )
    assert problems(error) == [
        ("players[1].cards[1]", "card Kd appears twice: the designated player and seat 5"),
        ("players[1].cards[3]", "card As appears twice: the designated player and seat 5"),
    ]


def test_check_distinct_catches_a_card_twice_in_one_hand() -> None:
    with pytest.raises(RuleError) as error:
        check_distinct([_group("seat 2", "players[0].cards", "As Kd As")])
    assert problems(error) == [("players[0].cards[2]", "seat 2: card As appears twice")]


def test_check_distinct_accepts_distinct_cards() -> None:
    check_distinct([_group("a", "a", "As Ks"), _group("b", "b", "Ad Kd")])


def test_standard_deck_has_52_distinct_cards() -> None:
    deck = standard_deck()
    assert len(deck) == 52 == len(set(deck))
    assert {str(card) for card in deck} == {rank + suit for rank in RANKS for suit in SUITS}


@pytest.mark.parametrize(
    ("with_sixes", "size", "lowest"), [(False, 32, 7), (True, 36, 6)], ids=["7-A", "6-A"]
)
def test_short_deck_strips_the_low_ranks(with_sixes: bool, size: int, lowest: int) -> None:
    deck = short_deck(with_sixes)
    assert len(deck) == size == len(set(deck))
    assert min(card.rank for card in deck) == lowest
    assert max(card.rank for card in deck) == 14
    assert all(sum(card.suit == suit for card in deck) == size // 4 for suit in SUITS)
