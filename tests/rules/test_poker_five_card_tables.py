"""The five-card look-up of the shared evaluator (``casino/rules/poker.py``: ``five_card_rating``
behind Five Card Draw 7-A's ``hand_value`` and ``best_hand`` of five cards) against the
algorithm it replaced, kept here as the reference (:func:`reference`: the evaluator's
``_rating``/``_rate``/``_value`` before the look-up, issue 25).

Exhaustive: every 5-card hand of the 32-card deck (201,376) and of the 36-card deck (376,992),
each under ``flush_beats_full_house`` on and off, rated through ``hand_value`` in two card
orders, equals the reference's strength, category and tiebreak ranks, and the words the
evaluator's long way (``rate_ranks`` on rules with an empty cache) gives the pattern. The
cards' order of ``best_hand`` is checked on a seeded sample of 5,000 hands per deck (sorting
every hand twice more would double the test's time). Then what the look-up must refuse as
the long way does: a card twice, a rank outside the deck, a wrong number of cards, and equal
cards that are not the same object.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

import pytest

from casino.rules.cards import ACE, Card, parse_cards, short_deck, standard_deck
from casino.rules.poker import (
    STANDARD,
    THREE_CARD_POKER,
    Category,
    HandRules,
    HandValue,
    Wording,
    best_hand,
    five_card_rating,
    five_card_value,
    rate_ranks,
)
from casino.rules.poker_hands import hand_rules, hand_value

# The categories from the lowest to the highest, written out rather than taken from the code.
_DEFAULT_ORDER = (
    Category.HIGH_CARD,
    Category.PAIR,
    Category.TWO_PAIR,
    Category.THREE_OF_A_KIND,
    Category.STRAIGHT,
    Category.FULL_HOUSE,
    Category.FLUSH,
    Category.FOUR_OF_A_KIND,
    Category.STRAIGHT_FLUSH,
    Category.ROYAL_FLUSH,
)
_STANDARD_ORDER = (
    *_DEFAULT_ORDER[:5],
    Category.FLUSH,
    Category.FULL_HOUSE,
    *_DEFAULT_ORDER[7:],
)

Rated = tuple[tuple[int, ...], Category, tuple[int, ...], tuple[Card, ...]]


def reference(cards: Sequence[Card], lowest: int, flush_beats_full_house: bool) -> Rated:
    """Five distinct cards rated as the evaluator did before its look-up tables: strength,
    category, tiebreak ranks and the cards best first."""
    ranks = sorted((card.rank for card in cards), reverse=True)
    flush = len({card.suit for card in cards}) == 1
    groups: list[tuple[int, int]] = []  # (count, rank), most cards first, then the higher rank
    for rank in ranks:
        if groups and groups[-1][1] == rank:
            groups[-1] = (groups[-1][0] + 1, rank)
        else:
            groups.append((1, rank))
    groups.sort(reverse=True)
    shape = tuple(count for count, _ in groups)
    by_group = tuple(rank for _, rank in groups)
    top, low_ace = 0, False
    if len(groups) == 5:
        if ranks[0] - ranks[-1] == 4:
            top = ranks[0]
        elif ranks == [ACE, lowest + 3, lowest + 2, lowest + 1, lowest]:
            top, low_ace = lowest + 3, True
    tiebreak: tuple[int, ...]
    if top and flush:
        category = Category.ROYAL_FLUSH if top == ACE else Category.STRAIGHT_FLUSH
        tiebreak = (top,)
    elif shape[0] == 4:
        category, tiebreak = Category.FOUR_OF_A_KIND, by_group
    elif shape == (3, 2):
        category, tiebreak = Category.FULL_HOUSE, by_group
    elif flush:
        category, tiebreak = Category.FLUSH, tuple(ranks)
    elif top:
        category, tiebreak = Category.STRAIGHT, (top,)
    elif shape[0] == 3:
        category, tiebreak = Category.THREE_OF_A_KIND, by_group
    elif shape[:2] == (2, 2):
        category, tiebreak = Category.TWO_PAIR, by_group
    elif shape[0] == 2:
        category, tiebreak = Category.PAIR, by_group
    else:
        category, tiebreak = Category.HIGH_CARD, tuple(ranks)
    order = _DEFAULT_ORDER if flush_beats_full_house else _STANDARD_ORDER
    best_first = (*ranks[1:], ACE) if low_ace else by_group
    place = {rank: 4 * index for index, rank in enumerate(best_first)}
    ordered = sorted(cards, key=lambda card: place[card.rank] + 3 - "cdhs".index(card.suit))
    return (order.index(category), *tiebreak), category, tiebreak, tuple(ordered)


@pytest.mark.parametrize("with_sixes", [False, True], ids=["32-card", "36-card"])
def test_every_hand_of_the_deck_rates_as_the_reference(with_sixes: bool) -> None:
    deck = short_deck(with_sixes)  # lowest rank first: a combination's ranks ascend
    lowest = 6 if with_sixes else 7
    # The words of each pattern, from the long way on rules with an empty cache.
    long_way = {
        option: HandRules(lowest, option, False, False, Wording.CHARACTERS)
        for option in (True, False)
    }
    expected: dict[tuple[bool, tuple[int, ...], bool], tuple[object, ...]] = {}
    mismatches: list[str] = []
    hands = 0
    for cards in combinations(deck, 5):
        hands += 1
        first, second, third, fourth, fifth = cards
        ranks = (fifth.rank, fourth.rank, third.rank, second.rank, first.rank)
        suit = first.suit
        flush = second.suit == suit and third.suit == suit and fourth.suit == suit
        flush = flush and fifth.suit == suit
        for option, given in ((True, cards), (False, cards[::-1])):
            want = expected.get((option, ranks, flush))
            if want is None:
                strength, category, tiebreak, _ = reference(cards, lowest, option)
                words = rate_ranks(ranks, flush=flush, rules=long_way[option])
                assert (words.strength, words.category, words.ranks) == (
                    strength,
                    category,
                    tiebreak,
                )
                want = expected[option, ranks, flush] = (
                    strength,
                    category,
                    tiebreak,
                    words.description,
                )
            got = hand_value(given, with_sixes=with_sixes, flush_beats_full_house=option)
            if (got.strength, got.category, got.ranks, got.description) != want:
                mismatches.append(f"{' '.join(map(str, given))} ({option}): {got!r} != {want}")
    assert hands == (376_992 if with_sixes else 201_376)
    assert not mismatches, mismatches[:5]
    # Every rank pattern and suitedness of the deck was met (840 or 1,404), both options.
    assert len(expected) == 2 * (1_404 if with_sixes else 840)


@pytest.mark.parametrize("with_sixes", [False, True], ids=["32-card", "36-card"])
def test_best_hand_orders_the_cards_as_the_reference(with_sixes: bool) -> None:
    rng = random.Random(25)
    deck = list(short_deck(with_sixes))
    lowest = 6 if with_sixes else 7
    for _ in range(5_000):
        cards = rng.sample(deck, 5)
        option = rng.random() < 0.5
        rules = hand_rules(with_sixes=with_sixes, flush_beats_full_house=option)
        strength, category, tiebreak, ordered = reference(cards, lowest, option)
        value = best_hand(cards, rules)
        assert (value.strength, value.category, value.ranks, value.cards) == (
            strength,
            category,
            tiebreak,
            ordered,
        )
        assert five_card_value(cards, rules).cards == ordered
        rated = hand_value(cards, with_sixes=with_sixes, flush_beats_full_house=option)
        assert rated == value and hash(rated) == hash(value) and rated.cards == ()


def test_the_standard_deck_rates_as_the_reference_on_a_sample() -> None:
    """Palace Poker's rules (52 cards, A-2-3-4-5 the low straight) take the same look-up."""
    rng = random.Random(52)
    deck = list(standard_deck())
    for _ in range(10_000):
        cards = rng.sample(deck, 5)
        strength, category, tiebreak, ordered = reference(cards, 2, False)
        value = best_hand(cards, STANDARD)
        assert (value.strength, value.category, value.ranks, value.cards) == (
            strength,
            category,
            tiebreak,
            ordered,
        )


@pytest.mark.parametrize("with_sixes", [False, True], ids=["32-card", "36-card"])
def test_a_card_twice_is_refused_once_its_pattern_is_known(with_sixes: bool) -> None:
    deck = list(short_deck(with_sixes))
    rng = random.Random(7)
    for _ in range(3_000):
        four = rng.sample(deck, 4)
        card = rng.choice(four)
        others = [other for other in deck if other.rank == card.rank and other not in four]
        if others:  # the same pattern with five distinct cards first: its rating is kept
            hand_value([*four, others[0]], with_sixes=with_sixes)
        twice = [*four, card]
        rng.shuffle(twice)
        with pytest.raises(ValueError, match="a card is repeated"):
            hand_value(twice, with_sixes=with_sixes)
        with pytest.raises(ValueError, match="a card is repeated"):
            best_hand(twice, hand_rules(with_sixes=with_sixes))


def test_equal_cards_that_are_not_the_same_object() -> None:
    cards = parse_cards(["7c", "7d", "9h", "Ts", "Js"], path="cards")
    fresh = [Card(card.rank, card.suit) for card in cards]  # not the deck's objects
    assert fresh[0] is not cards[0]
    assert hand_value(fresh, with_sixes=False) == hand_value(cards, with_sixes=False)
    assert str(hand_value(fresh, with_sixes=False)) == "pair 7, J-T-9 kickers"
    for position in range(1, 5):
        twice = [*fresh]
        twice[position] = Card(fresh[0].rank, fresh[0].suit)
        with pytest.raises(ValueError, match="a card is repeated"):
            hand_value(twice, with_sixes=False)


def test_ranks_outside_the_deck_and_wrong_counts_are_refused_as_before() -> None:
    seven_a = parse_cards(["6c", "7d", "8s", "9h", "Tc"], path="cards")
    hand_value(seven_a, with_sixes=True)  # the pattern known under the 36-card rules
    for _ in range(2):  # refused each time, never kept
        with pytest.raises(ValueError, match="rank 6 is not in the 7-A deck"):
            hand_value(seven_a, with_sixes=False)
    with pytest.raises(ValueError, match="rank 5 is not in the 6-A deck"):
        hand_value(parse_cards(["5c", "7d", "8s", "9h", "Tc"], path="c"), with_sixes=True)
    with pytest.raises(ValueError, match="a card is repeated"):
        hand_value(parse_cards(["7c", "7c", "7c", "7c", "7c"], path="c"), with_sixes=False)
    deck = short_deck(False)
    for count in (0, 1, 4, 6, 7):
        with pytest.raises(ValueError, match=f"a poker hand is 5 cards, got {count}"):
            hand_value(deck[:count], with_sixes=False)
    # best_hand takes any iterable of cards; five from a generator rate as the same five.
    five = deck[3:8]
    assert best_hand(card for card in five) == best_hand(five)
    assert best_hand(iter(five), STANDARD).cards == best_hand(five, STANDARD).cards


def test_a_value_is_read_only_and_compares_only_with_values() -> None:
    value = hand_value(short_deck(False)[:5], with_sixes=False)
    with pytest.raises(AttributeError):
        value.strength = (0,)  # type: ignore[misc]
    with pytest.raises(AttributeError):
        value.extra = 1  # type: ignore[attr-defined]
    assert value != value.strength and (value == "x") is False
    with pytest.raises(TypeError):
        _ = value < value.strength  # type: ignore[operator]
    assert isinstance(value, HandValue) and str(value) == value.description
    assert repr(value).startswith("HandValue(strength=(")


def test_three_card_rules_never_take_the_five_card_look_up() -> None:
    three = HandRules(hand_size=3, order=THREE_CARD_POKER)
    cards = parse_cards(["Ah", "Kh", "Qh", "2c", "3d"], path="c")
    assert five_card_rating(cards, three) == best_hand(cards, three)
    assert not three._five
