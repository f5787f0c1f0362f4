"""Three-card hands in the shared poker evaluator (``casino/rules/poker.py``): ``hand_size=3``
with the ranking the game declares (Three Card Poker's: a straight above a flush), counted over
every three-card hand, and the five-card games' ratings untouched by the option."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules.cards import parse_cards, standard_deck
from casino.rules.poker import (
    STANDARD,
    THREE_CARD_POKER,
    Category,
    HandRules,
    best_hand,
    ranking,
    rate_ranks,
)

THREE = HandRules(hand_size=3, order=THREE_CARD_POKER, best_five=False, short_hands=False)


def value(text: str, rules: HandRules = THREE):
    return best_hand(parse_cards(text.split(), path="cards"), rules)


def test_every_three_card_hand_is_counted_as_the_published_table_has_it() -> None:
    counts = Counter(best_hand(hand, THREE).category for hand in combinations(standard_deck(), 3))
    assert sum(counts.values()) == 22_100
    assert counts == {
        Category.STRAIGHT_FLUSH: 48,
        Category.THREE_OF_A_KIND: 52,
        Category.STRAIGHT: 720,
        Category.FLUSH: 1_096,
        Category.PAIR: 3_744,
        Category.HIGH_CARD: 16_440,
    }


def test_the_declared_ranking_puts_a_straight_above_a_flush_and_trips_above_both() -> None:
    assert THREE.ranking == THREE_CARD_POKER
    ladder = ["Ah Kd 9c", "2c 2d 3h", "2h 5h 9h", "2c 3d 4h", "2c 2d 2h", "2s 3s 4s"]
    values = [value(hand) for hand in ladder]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert [v.category for v in values] == list(THREE_CARD_POKER)
    # In five cards the standard order keeps a flush above a straight.
    assert value("2h 5h 9h Jh Kh", STANDARD) > value("5c 6d 7h 8s 9c", STANDARD)


def test_the_ace_plays_high_or_low_and_a_straight_never_wraps() -> None:
    low, high = value("Ac 2d 3h"), value("Qc Kd Ah")
    assert (low.category, low.ranks, str(low)) == (
        Category.STRAIGHT,
        (3,),
        "straight 3-high (A-2-3)",
    )
    assert (high.category, high.ranks, str(high)) == (Category.STRAIGHT, (14,), "straight A-high")
    assert low < value("2c 3d 4h") < high
    assert value("Kc Ad 2h").category is Category.HIGH_CARD  # K-A-2 wraps: no straight
    # Suited Q-K-A is a straight flush under Three Card Poker's ranking (it names no royal).
    top = value("Qs Ks As")
    assert (top.category, str(top)) == (Category.STRAIGHT_FLUSH, "straight flush A-high")
    royal = HandRules(hand_size=3, order=(*THREE_CARD_POKER, Category.ROYAL_FLUSH))
    assert value("Qs Ks As", royal).category is Category.ROYAL_FLUSH
    assert value("Js Qs Ks", royal).category is Category.STRAIGHT_FLUSH


def test_equal_categories_compare_by_their_ranks_and_suits_never_rank() -> None:
    assert value("Kc Kd Ah") > value("Kc Kd Qh") > value("Qc Qd Ah")
    assert str(value("Kc Kd Ah")) == "pair of kings, A kicker"
    assert value("Ah 9h 4h") > value("Kd 9d 4d")  # the A-high flush beats the K-high one
    assert value("Ah 9c 4d") == value("As 9d 4c")  # suits never rank: a split
    assert value("3c 3d 3h") > value("Kd Qs Ah")  # the least trips beat the best straight


def test_more_cards_rate_as_their_best_three_when_the_rules_allow() -> None:
    best_three = HandRules(hand_size=3, order=THREE_CARD_POKER)  # best_five: the best of them
    six = value("Ah Kh Qh 2c 2d 2s", best_three)
    assert six.category is Category.STRAIGHT_FLUSH and [str(c) for c in six.cards] == [
        "Ah",
        "Kh",
        "Qh",
    ]
    with pytest.raises(ValueError, match="a poker hand is 3 cards, got 4"):
        value("Ah Kh Qh 2c")
    short = HandRules(hand_size=3, order=THREE_CARD_POKER, best_five=False)
    assert value("Ah Ad", short).category is Category.PAIR  # fewer: sets only
    assert rate_ranks([14, 13, 12], flush=True, rules=THREE).category is Category.STRAIGHT_FLUSH


def test_a_three_card_ranking_is_declared_whole_by_the_game() -> None:
    with pytest.raises(ValueError, match="the game's to declare"):
        HandRules(hand_size=3)
    with pytest.raises(ValueError, match="names each of"):
        HandRules(hand_size=3, order=THREE_CARD_POKER[1:])
    with pytest.raises(ValueError, match="names each of"):
        HandRules(hand_size=3, order=(*THREE_CARD_POKER, Category.TWO_PAIR))
    with pytest.raises(ValueError, match="3 or 5 cards"):
        HandRules(hand_size=4, order=THREE_CARD_POKER)


@settings(max_examples=300, deadline=None)
@given(hand=st.lists(st.sampled_from(list(standard_deck())), min_size=5, max_size=7, unique=True))
def test_a_declared_five_card_order_equal_to_the_standard_one_rates_alike(hand) -> None:
    """The option leaves five-card hands as they were: the standard order declared outright
    gives every hand the same strength, category and words as the default rules."""
    for option in (False, True):
        default = HandRules(flush_beats_full_house=option)
        declared = HandRules(
            flush_beats_full_house=option, order=ranking(flush_beats_full_house=option)
        )
        a, b = best_hand(hand, default), best_hand(hand, declared)
        assert (a.strength, a.category, str(a), a.cards) == (
            b.strength,
            b.category,
            str(b),
            b.cards,
        )
