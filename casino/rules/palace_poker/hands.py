"""Palace Poker: standard poker hand values for the 52-card deck, best five of any number.

The rules as implemented (``docs/rules/palace-poker.md``) decides every rules question; clause 1 sets
the ranking: royal flush, straight flush, four of a kind, full house, flush, straight, three
of a kind, two pair, pair, high card; ace high, and A-2-3-4-5 (5-high) the lowest straight.
Suits never rank.

:func:`best_hand` rates the best five cards of any number of cards. A Palace Poker hand can
hold fewer than five once the opponent's banner suit is removed in a battle (clause 10):
with fewer than five cards only sets count (high card, pair, two pair, three and four of a
kind; no straight or flush), and a hand that is the same as another but with fewer kickers is
the lower (``K-K-A`` loses to ``K-K-A-2``), the usual rule for short hands. The other module
with hand values, :mod:`casino.rules.poker_hands`, is the 7-A short deck's and is not used.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from functools import cache
from itertools import combinations

from casino.rules.cards import ACE, Card, format_ranks, rank_char, rank_name

HAND_SIZE = 5
WHEEL_TOP = 5


class Category(IntEnum):
    """The ten hand categories, numbered in the standard order (higher is better)."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9

    @property
    def words(self) -> str:
        return self.name.lower().replace("_", " ")


@dataclass(frozen=True, slots=True, order=True)
class PokerValue:
    """A rated hand; compares, hashes and tests equal by ``strength`` only.

    ``strength`` is the category number then the tiebreak ranks by importance (the set's
    rank, then kickers; a straight's top card, 5 for A-2-3-4-5). ``cards`` are the cards that
    make it, best first; ``description`` says it as a dealer would.
    """

    strength: tuple[int, ...]
    category: Category = field(compare=False)
    cards: tuple[Card, ...] = field(compare=False)
    description: str = field(compare=False)

    def __str__(self) -> str:
        return self.description


NO_CARDS = PokerValue((), Category.HIGH_CARD, (), "no cards")


def plural(rank: int) -> str:
    """``plural(6) == "sixes"``, ``plural(13) == "kings"``."""
    name = rank_name(rank)
    return name + ("es" if name.endswith("x") else "s")


def best_hand(cards: Iterable[Card]) -> PokerValue:
    """The best hand of five (or, with fewer cards, all) of ``cards``; cards must be distinct.

    >>> from casino.rules.cards import parse_cards
    >>> str(best_hand(parse_cards("Ad Kh Kc 7h".split(), path="c")))
    'pair of kings, A-7 kickers'
    """
    pool = tuple(cards)
    if len(set(pool)) != len(pool):
        raise ValueError("a card is repeated")
    if not pool:
        return NO_CARDS
    if len(pool) <= HAND_SIZE:
        return _value(pool)
    return max(_value(five) for five in combinations(pool, HAND_SIZE))


def _value(cards: Sequence[Card]) -> PokerValue:
    ranks = tuple(sorted((card.rank for card in cards), reverse=True))
    flush = len(cards) == HAND_SIZE and len({card.suit for card in cards}) == 1
    category, tiebreak, description = _rate(ranks, flush)
    ordered = _order(cards, tiebreak, category)
    return PokerValue((int(category), *tiebreak), category, ordered, description)


def _order(
    cards: Sequence[Card], tiebreak: tuple[int, ...], category: Category
) -> tuple[Card, ...]:
    """The cards best first: sets by importance, then kickers; a wheel ends with its ace."""
    if category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH) and tiebreak == (WHEEL_TOP,):
        return tuple(sorted(cards, key=lambda card: (card.rank % ACE, card.suit), reverse=True))
    place = {rank: index for index, rank in enumerate(dict.fromkeys(tiebreak))}
    return tuple(sorted(cards, key=lambda card: (place.get(card.rank, 99), -card.suit_index)))


@cache
def _rate(ranks: tuple[int, ...], flush: bool) -> tuple[Category, tuple[int, ...], str]:
    """Category, tiebreak and words for ranks (highest first), suited or not; cached."""
    groups: list[tuple[int, int]] = []
    for rank in ranks:
        if groups and groups[-1][1] == rank:
            groups[-1] = (groups[-1][0] + 1, rank)
        else:
            groups.append((1, rank))
    groups.sort(reverse=True)
    if groups[0][0] > 4:
        raise ValueError(f"five cards of rank {rank_char(ranks[0])}: a card is repeated")
    shape = tuple(count for count, _ in groups)
    by_group = tuple(rank for _, rank in groups)
    kickers = tuple(rank for count, rank in groups if count == 1)

    top = 0
    if len(ranks) == HAND_SIZE and len(groups) == HAND_SIZE:
        if ranks[0] - ranks[-1] == HAND_SIZE - 1:
            top = ranks[0]
        elif ranks == (ACE, 5, 4, 3, 2):
            top = WHEEL_TOP

    if top and flush:
        if top == ACE:
            return Category.ROYAL_FLUSH, (top,), "royal flush"
        return Category.STRAIGHT_FLUSH, (top,), f"straight flush {_straight(top)}"
    if shape[0] == 4:
        return Category.FOUR_OF_A_KIND, by_group, f"four {plural(by_group[0])}{_kick(kickers)}"
    if shape == (3, 2):
        return (
            Category.FULL_HOUSE,
            by_group,
            f"full house, {plural(by_group[0])} over {plural(by_group[1])}",
        )
    if flush:
        return Category.FLUSH, ranks, f"flush {format_ranks(ranks)}"
    if top:
        return Category.STRAIGHT, (top,), f"straight {_straight(top)}"
    if shape[0] == 3:
        return (
            Category.THREE_OF_A_KIND,
            by_group,
            f"three {plural(by_group[0])}{_kick(kickers)}",
        )
    if shape[:2] == (2, 2):
        return (
            Category.TWO_PAIR,
            by_group,
            f"two pair, {plural(by_group[0])} and {plural(by_group[1])}{_kick(kickers)}",
        )
    if shape[0] == 2:
        return Category.PAIR, by_group, f"pair of {plural(by_group[0])}{_kick(kickers)}"
    return Category.HIGH_CARD, ranks, f"high card {format_ranks(ranks)}"


def _straight(top: int) -> str:
    return "5-high (A-2-3-4-5)" if top == WHEEL_TOP else f"{rank_char(top)}-high"


def _kick(kickers: tuple[int, ...]) -> str:
    if not kickers:
        return ""
    noun = "kicker" if len(kickers) == 1 else "kickers"
    return f", {format_ranks(kickers)} {noun}"
