"""Five-card poker hand values for the 7-A short decks (Five Card Draw 7-A).

The rules as implemented (``docs/rules/five-card-draw-7a.md``) decides every rules question; clause
numbers below refer to it. :func:`hand_value` rates exactly five cards of the 32-card deck
(7 through ace) or, ``with_sixes``, the 36-card deck (6 through ace), and returns a
:class:`HandValue` that compares by strength alone.

* **Ranking** (clause 2): with ``flush_beats_full_house`` (the default) a flush outranks a
  full house; with it off, the standard order. :class:`Category` numbers the categories
  0..9 for storage; that numbering is the default ranking, but the comparison key always
  comes from :func:`ranking`, which depends on the option.
* **The low ace** (clause 3) plays in exactly one straight: A-7-8-9-T (10-high) in the
  32-card deck, A-6-7-8-9 (9-high) with sixes in, when A-7-8-9-T is then *not* a straight.
  Suited, the low straight is a straight flush, never royal. A low straight is described
  with its cards, e.g. ``"straight 9-high (A-6-7-8-9)"``.
* **Suits never rank**: two hands with the same ranks in the same category are equal and
  split. Values made under different options must not be compared with each other.
* Cards are assumed distinct and already checked by the caller; a wrong number of cards or a
  rank outside the deck raises ``ValueError``.

Values are cached by rank pattern (there are only a few hundred per deck), so rating a hand
costs a sort of five ranks, a suit check and a dictionary look-up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from functools import cache

from casino.rules.cards import ACE, Card, format_ranks, rank_char

HAND_SIZE = 5


class Category(IntEnum):
    """The ten hand categories. The numbering is fixed for storage; it is not the ranking."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FULL_HOUSE = 5
    FLUSH = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9

    @property
    def words(self) -> str:
        """The category as a dealer says it: ``Category.TWO_PAIR.words == "two pair"``."""
        return self.name.lower().replace("_", " ")


def ranking(*, flush_beats_full_house: bool = True) -> tuple[Category, ...]:
    """The categories from the lowest to the highest under the option (clause 2)."""
    order = list(Category)
    if not flush_beats_full_house:
        order[Category.FULL_HOUSE], order[Category.FLUSH] = Category.FLUSH, Category.FULL_HOUSE
    return tuple(order)


_ORDER: dict[bool, dict[Category, int]] = {
    option: {
        category: place for place, category in enumerate(ranking(flush_beats_full_house=option))
    }
    for option in (True, False)
}


@dataclass(frozen=True, slots=True, order=True)
class HandValue:
    """A rated hand. Compares, hashes and tests equal by ``strength`` only.

    ``ranks`` are the tiebreak ranks by importance: quads (quad, kicker); full house (trips,
    pair); straights (top card; 10 for A-7-8-9-T, 9 for A-6-7-8-9); trips (trips, kickers);
    two pair (high pair, low pair, kicker); pair (pair, kickers); flush and high card all
    five, descending. ``strength`` is the category's place in :func:`ranking`, then ranks.
    """

    category: Category = field(compare=False)
    ranks: tuple[int, ...] = field(compare=False)
    strength: tuple[int, ...]
    description: str = field(compare=False)

    def __str__(self) -> str:
        return self.description


def hand_value(
    cards: Sequence[Card], *, with_sixes: bool, flush_beats_full_house: bool = True
) -> HandValue:
    """Rate exactly five cards of the 7-A deck (``with_sixes``: the 6-A deck), clauses 2-3.

    >>> from casino.rules.cards import parse_cards
    >>> str(hand_value(parse_cards("As 7h 8d 9c Ts".split(), path="cards"), with_sixes=False))
    'straight T-high (A-7-8-9-T)'
    """
    if len(cards) != HAND_SIZE:
        raise ValueError(f"a poker hand is {HAND_SIZE} cards, got {len(cards)}")
    first, second, third, fourth, fifth = cards
    suit = first.suit
    flush = (
        second.suit == suit and third.suit == suit and fourth.suit == suit and fifth.suit == suit
    )
    ranks = sorted((first.rank, second.rank, third.rank, fourth.rank, fifth.rank), reverse=True)
    return _rate(tuple(ranks), flush, with_sixes, flush_beats_full_house)


@cache
def _rate(
    ranks: tuple[int, ...], flush: bool, with_sixes: bool, flush_beats_full_house: bool
) -> HandValue:
    """The value of five ranks (highest first), suited or not; cached by its arguments."""
    lowest = 6 if with_sixes else 7
    if ranks[-1] < lowest:
        deck = "6-A" if with_sixes else "7-A"
        raise ValueError(f"rank {rank_char(ranks[-1])} is not in the {deck} deck")

    # Group equal ranks: (count, rank) pairs, most cards first, then the higher rank.
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

    top = 0  # the straight's top card, 0 if none
    low_ace = False
    if len(groups) == HAND_SIZE:
        if ranks[0] - ranks[-1] == HAND_SIZE - 1:
            top = ranks[0]
        elif ranks == (ACE, lowest + 3, lowest + 2, lowest + 1, lowest):
            top, low_ace = lowest + 3, True

    category: Category
    tiebreak: tuple[int, ...]
    if top and flush:
        category = Category.ROYAL_FLUSH if top == ACE else Category.STRAIGHT_FLUSH
        tiebreak = (top,)
    elif shape == (4, 1):
        category, tiebreak = Category.FOUR_OF_A_KIND, by_group
    elif shape == (3, 2):
        category, tiebreak = Category.FULL_HOUSE, by_group
    elif flush:
        category, tiebreak = Category.FLUSH, ranks
    elif top:
        category, tiebreak = Category.STRAIGHT, (top,)
    elif shape == (3, 1, 1):
        category, tiebreak = Category.THREE_OF_A_KIND, by_group
    elif shape == (2, 2, 1):
        category, tiebreak = Category.TWO_PAIR, by_group
    elif shape == (2, 1, 1, 1):
        category, tiebreak = Category.PAIR, by_group
    else:
        category, tiebreak = Category.HIGH_CARD, ranks

    strength = (_ORDER[flush_beats_full_house][category], *tiebreak)
    return HandValue(category, tiebreak, strength, _describe(category, tiebreak, low_ace))


def _describe(category: Category, ranks: tuple[int, ...], low_ace: bool) -> str:
    words = category.words
    if category is Category.ROYAL_FLUSH:
        return words
    if category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        top = ranks[0]
        text = f"{words} {rank_char(top)}-high"
        if low_ace:
            cards = [ACE, *range(top - 3, top + 1)]
            text += f" ({format_ranks(cards)})"
        return text
    if category in (Category.FLUSH, Category.HIGH_CARD):
        return f"{words} {format_ranks(ranks)}"
    if category is Category.FULL_HOUSE:
        return f"{words} {rank_char(ranks[0])} over {rank_char(ranks[1])}"
    if category is Category.TWO_PAIR:
        return (
            f"{words} {rank_char(ranks[0])} and {rank_char(ranks[1])}, {rank_char(ranks[2])} kicker"
        )
    # Four of a kind, three of a kind, pair: the set, then its kickers.
    kickers = ranks[1:]
    noun = "kicker" if len(kickers) == 1 else "kickers"
    return f"{words} {rank_char(ranks[0])}, {format_ranks(kickers)} {noun}"
