"""Palace Poker hand values: the standard 52-card ranking (clause 1), best five of any number,
short hands after a battle's suit removal (clause 10), and the published combinatorics."""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement
from math import comb, prod

import pytest

from casino.rules.cards import parse_cards
from casino.rules.palace_poker.values import NO_CARDS, Category, PokerValue, _rate, best_hand


def value(text: str) -> PokerValue:
    return best_hand(parse_cards(text.split(), path="cards"))


LADDER = [
    ("Ah Kh Qh Jh Th", Category.ROYAL_FLUSH, "royal flush"),
    ("9c 8c 7c 6c 5c", Category.STRAIGHT_FLUSH, "straight flush 9-high"),
    ("5d 4d 3d 2d Ad", Category.STRAIGHT_FLUSH, "straight flush 5-high (A-2-3-4-5)"),
    ("6s 6h 6d 6c Kd", Category.FOUR_OF_A_KIND, "four sixes, K kicker"),
    ("Kc Kd Kh 2s 2c", Category.FULL_HOUSE, "full house, kings over twos"),
    ("Ah Jh 9h 5h 3h", Category.FLUSH, "flush A-J-9-5-3"),
    ("Tc 9d 8h 7s 6c", Category.STRAIGHT, "straight T-high"),
    ("5c 4d 3h 2s Ac", Category.STRAIGHT, "straight 5-high (A-2-3-4-5)"),
    ("Qc Qd Qh 9s 2c", Category.THREE_OF_A_KIND, "three queens, 9-2 kickers"),
    ("Jc Jd 4h 4s Ac", Category.TWO_PAIR, "two pair, jacks and fours, A kicker"),
    ("Ac Ad 9h 7s 2c", Category.PAIR, "pair of aces, 9-7-2 kickers"),
    ("Ac Qd 9h 7s 2c", Category.HIGH_CARD, "high card A-Q-9-7-2"),
]


@pytest.mark.parametrize(
    ("cards", "category", "words"), LADDER, ids=[words for _, _, words in LADDER]
)
def test_each_category_and_its_words(cards: str, category: Category, words: str) -> None:
    rated = value(cards)
    assert (rated.category, str(rated)) == (category, words)


def test_the_ladder_is_strictly_ordered() -> None:
    values = [value(cards) for cards, _, _ in LADDER]
    assert all(high > low for high, low in zip(values, values[1:], strict=False))


def test_best_five_of_seven_and_nine() -> None:
    assert str(value("As Ad Kh Kc 7h 2d 3c")) == "two pair, aces and kings, 7 kicker"
    # A flush hidden among nine cards beats the trips.
    nine = value("7h 7d 7c Ah Kh 9h 2h 3s 4d")
    assert str(nine) == "flush A-K-9-7-2"
    assert len(nine.cards) == 5 and str(nine.cards[0]) == "Ah"
    assert str(value("Ah 2d 3c 4s 5h 6d Kc")) == "straight 6-high"


def test_short_hands_count_sets_only_and_fewer_kickers_lose() -> None:
    assert str(value("Ad Kh Kc 7h")) == "pair of kings, A-7 kickers"
    assert str(value("5d 4d 3d 2d")) == "high card 5-4-3-2"  # no straight or flush in four
    assert str(value("Kd Kh Kc Ks")) == "four kings"
    assert str(value("Qs")) == "high card Q"
    assert value("Kd Kh Ac") < value("Ks Kc Ad 2h")  # same pair and kicker, one kicker fewer
    assert value("Kd Kh") < value("Ad Ac")
    assert value("2c 2d") > value("Ac Kd Qh Js")
    assert best_hand([]) == NO_CARDS and value("2c") > NO_CARDS


def test_suits_never_rank_and_repeated_cards_are_refused() -> None:
    assert value("Ah Kh Qh Jh 9h") == value("As Ks Qs Js 9s")
    with pytest.raises(ValueError):
        value("Ah Ah Kd")


def test_the_published_five_card_combinatorics() -> None:
    """Every 5-card hand of the 52-card deck, counted by rank pattern: 2,598,960 in all."""
    counts: Counter[Category] = Counter()
    for ranks in combinations_with_replacement(range(14, 1, -1), 5):
        shape = Counter(ranks)
        if max(shape.values()) > 4:
            continue
        ways = prod(comb(4, k) for k in shape.values())
        if len(shape) == 5:
            counts[_rate(ranks, True)[0]] += 4
            ways -= 4
        counts[_rate(ranks, False)[0]] += ways
    assert sum(counts.values()) == comb(52, 5)
    assert counts == {
        Category.ROYAL_FLUSH: 4,
        Category.STRAIGHT_FLUSH: 36,
        Category.FOUR_OF_A_KIND: 624,
        Category.FULL_HOUSE: 3744,
        Category.FLUSH: 5108,
        Category.STRAIGHT: 10200,
        Category.THREE_OF_A_KIND: 54912,
        Category.TWO_PAIR: 123552,
        Category.PAIR: 1098240,
        Category.HIGH_CARD: 1302540,
    }
