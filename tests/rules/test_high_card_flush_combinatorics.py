"""High Card Flush against exact combinatorics.

Expected counts come from binomial coefficients over suit patterns (how many cards of each
suit), never from the engine. The engine's ``best_flush`` and ``dp_qualifies`` are checked
exhaustively on every 5-card hand and on every 7-card hand of a 24-card deck, where full
enumeration is affordable; the same formulas then give the brief's counts over all
133,784,560 seven-card hands, and the DP-qualify probability 0.75363731, exactly.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from itertools import combinations, product
from math import comb, factorial, prod

import pytest

from casino.rules.cards import Card, standard_deck
from casino.rules.high_card_flush import Rules, best_flush, dp_qualifies

BRIEF_7_CARD_COUNTS = {
    7: 6_864,
    6: 267_696,
    5: 3_814_668,
    4: 26_137_540,
    3: 78_881_088,
    2: 24_676_704,
}
BRIEF_QUALIFY_PROBABILITY = "0.75363731"


def suit_count_multisets(cards: int, ranks: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of four suit counts (largest first) summing to ``cards``."""
    for counts in product(range(min(cards, ranks) + 1), repeat=4):
        if sum(counts) == cards and list(counts) == sorted(counts, reverse=True):
            yield counts


def arrangements(counts: tuple[int, ...]) -> int:
    """How many ways the four suits can take these counts: 4! over repeated counts."""
    return factorial(4) // prod(factorial(n) for n in Counter(counts).values())


def flush_length_counts(cards: int, ranks: int) -> dict[int, int]:
    """Hands by longest suit, for a deck of four suits of ``ranks`` cards each."""
    totals: Counter[int] = Counter()
    for counts in suit_count_multisets(cards, ranks):
        totals[counts[0]] += arrangements(counts) * prod(comb(ranks, n) for n in counts)
    return dict(totals)


def qualifying_count(cards: int, ranks: int, low_ranks: int, length: int) -> int:
    """Hands whose best flush is longer than ``length``, or exactly ``length`` with some
    suit of that length holding a rank outside the ``low_ranks`` lowest (the high-card
    qualifier). Counted over ordered suit counts, so no arrangement factor is needed."""
    total = 0
    for counts in product(range(min(cards, ranks) + 1), repeat=4):
        if sum(counts) != cards:
            continue
        hands = prod(comb(ranks, n) for n in counts)
        if max(counts) > length:
            total += hands
        elif max(counts) == length:
            all_low = prod(comb(low_ranks, n) if n == length else comb(ranks, n) for n in counts)
            total += hands - all_low
    return total


def test_suit_pattern_counts_cover_every_hand() -> None:
    assert sum(flush_length_counts(7, 13).values()) == comb(52, 7) == 133_784_560
    assert sum(flush_length_counts(5, 13).values()) == comb(52, 5)


def test_every_5_card_hand_has_the_counted_flush_length() -> None:
    """All 2,598,960 five-card hands through best_flush (about 8 seconds)."""
    seen = Counter(best_flush(hand).length for hand in combinations(standard_deck(), 5))
    assert dict(seen) == flush_length_counts(5, 13)
    assert seen[5] == 5_148  # every five-card flush, straight flushes included


SMALL_DECK = tuple(card for card in standard_deck() if 5 <= card.rank <= 10)  # 5..T, 24 cards


def test_every_7_card_hand_of_a_24_card_deck_has_the_counted_flush_and_qualifier() -> None:
    """All 346,104 seven-card hands of the 5..T deck through best_flush and dp_qualifies.

    With ranks 5..T, a 3-card flush fails the 9-high qualifier only with 3 of the 4 ranks 5..8.
    """
    assert len(SMALL_DECK) == 24
    rules = Rules()
    lengths: Counter[int] = Counter()
    qualifying = 0
    for hand in combinations(SMALL_DECK, 7):
        flush = best_flush(hand)
        lengths[flush.length] += 1
        qualifying += dp_qualifies(flush, rules)
    assert dict(lengths) == flush_length_counts(7, 6)
    assert qualifying == qualifying_count(7, ranks=6, low_ranks=4, length=3)


def test_brief_7_card_flush_counts_from_suit_patterns() -> None:
    assert flush_length_counts(7, 13) == BRIEF_7_CARD_COUNTS


def test_brief_dp_qualify_probability_is_exact() -> None:
    # A 3-card flush below 9-high uses 3 of the 7 ranks 2..8.
    qualifying = qualifying_count(7, ranks=13, low_ranks=7, length=3)
    assert qualifying == 100_825_036
    assert f"{qualifying / comb(52, 7):.8f}" == BRIEF_QUALIFY_PROBABILITY


def _reference_flush(hand: list[Card]) -> tuple[int, tuple[int, ...]]:
    """The longest suit, best by ranks: written out plainly, suit by suit."""
    options = []
    for suit in "cdhs":
        ranks = sorted((card.rank for card in hand if card.suit == suit), reverse=True)
        options.append((len(ranks), tuple(ranks)))
    return max(options)


@pytest.mark.parametrize("seed", [1, 2])
def test_best_flush_on_sampled_real_7_card_hands(seed: int) -> None:
    deck = list(standard_deck())
    rng = random.Random(seed)
    for _ in range(10_000):
        hand = rng.sample(deck, 7)
        flush = best_flush(hand)
        assert (flush.length, flush.ranks) == _reference_flush(hand)
        assert flush.length == max(Counter(card.suit for card in hand).values())
        assert sorted(flush.ranks, reverse=True) == sorted(
            (card.rank for card in hand if card.suit == flush.suit), reverse=True
        )
