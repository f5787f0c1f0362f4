"""Palace Poker: the hand values, standard poker for the 52-card deck, best five of any number.

The rules as implemented (``docs/rules/palace-poker.md``) decides every rules question; clause 1 sets
the ranking: royal flush, straight flush, four of a kind, full house, flush, straight, three
of a kind, two pair, pair, high card; ace high, and A-2-3-4-5 (5-high) the lowest straight.
Suits never rank.

The evaluator is :mod:`casino.rules.poker`, whose :data:`~casino.rules.poker.STANDARD` rules
are Palace Poker's: :func:`best_hand` rates the best five cards of any number of cards. A
Palace Poker hand can hold fewer than five once the opponent's banner suit is removed in a
battle (clause 10): with fewer than five cards only sets count (high card, pair, two pair,
three and four of a kind; no straight or flush), and a hand that is the same as another but
with fewer kickers is the lower (``K-K-A`` loses to ``K-K-A-2``), the usual rule for short
hands.
"""

from __future__ import annotations

from casino.rules.poker import (
    HAND_SIZE,
    NO_CARDS,
    STANDARD,
    Category,
    PokerValue,
    best_hand,
    plural,
    rate_ranks,
)

__all__ = ["HAND_SIZE", "NO_CARDS", "WHEEL_TOP", "Category", "PokerValue", "best_hand", "plural"]

WHEEL_TOP = 5


def _rate(ranks: tuple[int, ...], flush: bool) -> tuple[Category, tuple[int, ...], str]:
    """Category, tiebreak and words for ranks (highest first), suited or not."""
    rated = rate_ranks(ranks, flush=flush, rules=STANDARD)
    return rated.category, rated.ranks, rated.description
