"""Paiute's card values: the winning combinations, their ranking and the evaluator (brief
clauses 7-8).

A holding of 5 or 6 cards may make, high to low: five of a kind (it needs a wild card),
royal flush, straight flush (the ace low A-2-3-4-5 or high in the royal flush, never both
ends), and the 6-card combinations four/two, three/three and two/two/two. Nothing else wins.
Every card of the wild rank stands for any card (a duplicate of a card held too, which is
how five of a kind is made); natural and wild combinations are equal.

:func:`best_combination` does not try substitutions: it enumerates the target combinations
of each category from the best down and checks whether the natural cards fit and the wild
cards can fill the rest, so it costs a few hundred set look-ups at most:

* five of a kind of rank r: the naturals of rank r plus the wild cards number at least 5;
* a straight flush (royal at the top) of suit s with top card t: at most as many of its five
  cards are missing from the naturals as there are wild cards (for 5 cards this forces every
  natural into the run, for 6 cards one card is left over);
* four/two, three/three and two/two/two use all six cards, so every natural's rank is one of
  the combination's ranks, no rank has more naturals than its slot holds, and the wild cards
  fill the slots (their number is exactly what is missing). The best ranks are the naturals'
  ranks completed with the highest other ranks.

A 5-card combination from 6 cards names the card left out (:attr:`Combination.discard`): the
card not needed, or a spare wild card when every natural is needed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from functools import lru_cache
from typing import Any

from casino.rules.cards import ACE, KING, SUIT_NAMES, SUITS, Card, rank_char, rank_name
from casino.rules.errors import RuleError
from casino.rules.messages import Message, _, joined, msg
from casino.rules.poker import PLURAL_WORDS
from casino.rules.quick import quick_init

HOLDING_SIZES = (5, 6)
#: Straight flushes by top card, best first: A (royal), K, ..., 5 (A-2-3-4-5).
TOPS = tuple(range(ACE, 4, -1))


class Category(IntEnum):
    """The winning combinations of clause 7, ordered low to high."""

    TWO_TWO_TWO = 1
    THREE_THREE = 2
    FOUR_TWO = 3
    STRAIGHT_FLUSH = 4
    ROYAL_FLUSH = 5
    FIVE_OF_A_KIND = 6

    @property
    def size(self) -> int:
        """How many cards the combination uses: 5 or 6."""
        return 6 if self <= _CATEGORY_FOUR_TWO else 5

    @property
    def code(self) -> str:
        """The JSON name: ``five_of_a_kind``, ``four_two``..."""
        return self.name.lower()

    @property
    def words(self) -> str:
        return _WORDS[self]


# Enum members read in the hot paths, each once: on Python 3.11 a member read through its
# class (``Phase.PLAY``) goes through ``EnumType.__getattr__``'s hook, several times a global.
_CATEGORY_FIVE_OF_A_KIND = Category.FIVE_OF_A_KIND
_CATEGORY_FOUR_TWO = Category.FOUR_TWO
_CATEGORY_ROYAL_FLUSH = Category.ROYAL_FLUSH
_CATEGORY_STRAIGHT_FLUSH = Category.STRAIGHT_FLUSH
_CATEGORY_THREE_THREE = Category.THREE_THREE
_CATEGORY_TWO_TWO_TWO = Category.TWO_TWO_TWO


_WORDS = {
    Category.FIVE_OF_A_KIND: _("five of a kind"),
    Category.ROYAL_FLUSH: _("royal flush"),
    Category.STRAIGHT_FLUSH: _("straight flush"),
    Category.FOUR_TWO: _("four/two"),
    Category.THREE_THREE: _("three/three"),
    Category.TWO_TWO_TWO: _("two/two/two"),
}


def _plural_words(rank: int) -> Message:
    """:func:`plural` as a message (the names are poker's, marked there)."""
    return Message(PLURAL_WORDS.get(ACE if rank == 1 else rank, plural(rank)))


def plural(rank: int) -> str:
    """``plural(6) == "sixes"``, ``plural(12) == "queens"``."""
    name = rank_name(rank)
    return name + ("es" if name.endswith("x") else "s")


def _run(top: int) -> tuple[int, ...]:
    """The five ranks of the straight with this top card, low first (1 is a low ace)."""
    return tuple(range(top - 4, top + 1))


def _card_rank(rank: int) -> int:
    return ACE if rank == 1 else rank


#: The five cards of each straight flush, by (top, suit).
_RUN_CARDS: dict[tuple[int, str], tuple[Card, ...]] = {
    (top, suit): tuple(Card(_card_rank(rank), suit) for rank in _run(top))
    for top in TOPS
    for suit in SUITS
}


#: A rank as a bit (the ace as both 14 and 1), and each straight's five ranks as a mask.
_RANK_BITS = {rank: 1 << rank | (2 if rank == ACE else 0) for rank in range(2, ACE + 1)}
_RUN_MASKS = {top: sum(1 << rank for rank in _run(top)) for top in TOPS}


@quick_init
@dataclass(frozen=True, slots=True, order=True)
class Combination:
    """One winning combination. Ordered and compared by category, then ``ranks`` (clause 8):

    * five of a kind: ``(rank,)``; royal flush: ``(14,)``; straight flush: ``(top,)`` with
      5 for A-2-3-4-5;
    * four/two: ``(four, pair)``; three/three: ``(higher, lower)``; two/two/two: the pairs
      high to low.

    ``cards`` are the cards used (in holding order), ``discard`` the card a 6-card holding
    leaves out of a 5-card combination, ``wild_as`` what each wild card used stands for
    (a card such as ``Tc`` in a straight flush, a rank such as ``Q`` otherwise), ``suit`` a
    flush's suit. None of these take part in comparisons: natural and wild hands are equal.
    """

    category: Category
    ranks: tuple[int, ...]
    cards: tuple[Card, ...] = field(compare=False)
    discard: Card | None = field(default=None, compare=False)
    wild_as: tuple[tuple[Card, str], ...] = field(default=(), compare=False)
    suit: str | None = field(default=None, compare=False)

    @property
    def size(self) -> int:
        return self.category.size

    @property
    def description(self) -> Message:
        """As a dealer says it: ``five queens``, ``royal flush``, ``straight flush 7-J of
        clubs``, ``four/two: kings and sevens``, ``two/two/two: jacks, eights and fives``
        (a message: its English text is the description)."""
        return _description(self.category, self.ranks, self.suit)

    def __str__(self) -> str:
        return self.description

    def wild_words(self) -> Message:
        """``4d as Tc`` / ``3c as a king, 3h as an ace``; empty for a natural combination (a
        message: the card codes as they are, a rank named in words)."""
        parts: list[Message] = []
        for card, stands in self.wild_as:
            if len(stands) == 2:
                parts.append(msg(_("%(card)s as %(stands)s"), card=str(card), stands=stands))
            else:
                name = rank_name(_rank_of(stands))
                parts.append(
                    msg(
                        _("%(card)s as an %(rank)s")
                        if name[0] in "aeiou"
                        else _("%(card)s as a %(rank)s"),
                        card=str(card),
                        rank=Message(name),
                    )
                )
        return joined(parts, _("%(first)s, %(next)s"))

    def to_dict(self) -> dict[str, Any]:
        return {
            "category": self.category.code,
            "ranks": [rank_char(rank) for rank in self.ranks],
            "description": self.description,
            "cards": [str(card) for card in self.cards],
            "discard": str(self.discard) if self.discard is not None else None,
            "wild_as": [{"card": str(card), "as": stands} for card, stands in self.wild_as],
        }


@lru_cache(maxsize=4096)  # a few hundred combinations are told apart by these
def _description(category: Category, ranks: tuple[int, ...], suit: str | None) -> Message:
    """:attr:`Combination.description` (what it depends on only; made once, a message is
    immutable)."""
    if category is _CATEGORY_FIVE_OF_A_KIND:
        return msg(_("five %(ranks)s"), ranks=_plural_words(ranks[0]))
    if category is _CATEGORY_ROYAL_FLUSH:
        return Message(_("royal flush"))
    if category is _CATEGORY_STRAIGHT_FLUSH:
        top = ranks[0]
        words = Message(SUIT_NAMES[suit] if suit else _("one suit"))
        return msg(
            _("straight flush %(low)s-%(high)s of %(suit)s"),
            low=rank_char(top - 4),
            high=rank_char(top),
            suit=words,
        )
    names = [_plural_words(rank) for rank in ranks]
    if len(names) == 1:
        listed = names[0]
    else:
        listed = msg(
            _("%(names)s and %(last)s"),
            names=joined(names[:-1], _("%(first)s, %(next)s")),
            last=names[-1],
        )
    return msg(_("%(category)s: %(ranks)s"), category=Message(category.words), ranks=listed)


def _rank_of(char: str) -> int:
    return "23456789TJQKA".index(char) + 2


def best_combination(cards: Sequence[Card], wild_rank: int | None) -> Combination | None:
    """The best winning combination 5 or 6 cards make, or None (clauses 7-8).

    ``wild_rank`` is the rank of the upcard (None: no wild cards). A 6-card holding makes
    a 5-card combination from five of its cards (naming the sixth as ``discard``) or a
    6-card combination from all six.
    """
    holding = tuple(cards)
    if len(holding) not in HOLDING_SIZES:
        raise RuleError(
            msg(_("a Paiute holding has 5 or 6 cards, not %(count)s"), count=len(holding))
        )
    wilds = [card for card in holding if card.rank == wild_rank]
    naturals = [card for card in holding if card.rank != wild_rank]
    counts = Counter(card.rank for card in naturals)
    found = _five_of_a_kind(holding, wilds, naturals, counts)
    if found is None:
        found = _straight_flush(holding, wilds, naturals)
    if found is None and len(holding) == 6:
        found = _six_card(holding, wilds, naturals, counts)
    return found


def _leftover(holding: tuple[Card, ...], used: Sequence[Card]) -> Card | None:
    rest = [card for card in holding if card not in used]
    return rest[0] if rest else None


def _in_order(holding: tuple[Card, ...], used: Sequence[Card]) -> tuple[Card, ...]:
    chosen = set(used)
    return tuple(card for card in holding if card in chosen)


def _five_of_a_kind(
    holding: tuple[Card, ...], wilds: list[Card], naturals: list[Card], counts: Counter[int]
) -> Combination | None:
    spare = len(wilds)
    if not spare:
        return None
    for rank in range(ACE, 1, -1):
        have = counts.get(rank, 0)
        if have + spare < 5:
            continue
        need = 5 - have
        used = [card for card in naturals if card.rank == rank] + wilds[:need]
        return Combination(
            _CATEGORY_FIVE_OF_A_KIND,
            (rank,),
            _in_order(holding, used),
            _leftover(holding, used),
            tuple((card, rank_char(rank)) for card in wilds[:need]),
        )
    return None


def _straight_flush(
    holding: tuple[Card, ...], wilds: list[Card], naturals: list[Card]
) -> Combination | None:
    spare = len(wilds)
    masks: dict[str, int] = {}
    for card in naturals:
        bit = _RANK_BITS[card.rank]
        masks[card.suit] = masks.get(card.suit, 0) | bit
    for top in TOPS:
        window = _RUN_MASKS[top]
        for suit in sorted(masks):
            if 5 - (masks[suit] & window).bit_count() > spare:
                continue
            run = _RUN_CARDS[top, suit]
            present = set(naturals)
            missing = [card for card in run if card not in present]
            used = [card for card in run if card in present] + wilds[: len(missing)]
            category = _CATEGORY_ROYAL_FLUSH if top == ACE else _CATEGORY_STRAIGHT_FLUSH
            return Combination(
                category,
                (top,),
                _in_order(holding, used),
                _leftover(holding, used),
                tuple(zip(wilds, (str(card) for card in missing), strict=False)),
                suit,
            )
    return None


def _best_others(taken: set[int], count: int) -> list[int]:
    """The ``count`` highest ranks not in ``taken``."""
    return [rank for rank in range(ACE, 1, -1) if rank not in taken][:count]


def _six_card(
    holding: tuple[Card, ...], wilds: list[Card], naturals: list[Card], counts: Counter[int]
) -> Combination | None:
    """Four/two, three/three, two/two/two: every natural's rank is one of the combination's."""
    present = set(counts)
    if not present:
        return None  # six wild cards cannot happen: a rank has four cards
    most = max(counts.values(), default=0)
    options: list[tuple[Category, tuple[int, ...], tuple[int, ...]]] = []
    if len(present) <= 2 and most <= 4:
        if len(present) == 2:
            x, y = sorted(present, reverse=True)
            pairs = [(x, y), (y, x)]
        else:
            (x,) = present
            other = ACE if x != ACE else KING
            pairs = [(x, other), (other, x)]
        fits = [(a, b) for a, b in pairs if counts.get(a, 0) <= 4 and counts.get(b, 0) <= 2]
        if fits:
            options.append((_CATEGORY_FOUR_TWO, max(fits), (4, 2)))
    if not options and len(present) <= 2 and most <= 3:
        triples = sorted([*present, *_best_others(present, 2 - len(present))], reverse=True)
        options.append((_CATEGORY_THREE_THREE, tuple(triples), (3, 3)))
    if not options and len(present) <= 3 and most <= 2:
        doubles = sorted([*present, *_best_others(present, 3 - len(present))], reverse=True)
        options.append((_CATEGORY_TWO_TWO_TWO, tuple(doubles), (2, 2, 2)))
    if not options:
        return None
    category, ranks, slots = options[0]
    wild_as: list[tuple[Card, str]] = []
    pool = iter(wilds)
    for rank, size in zip(ranks, slots, strict=True):
        for _slot in range(size - counts.get(rank, 0)):
            wild_as.append((next(pool), rank_char(rank)))
    return Combination(category, ranks, holding, None, tuple(wild_as))


__all__ = ["Category", "Combination", "best_combination", "plural"]
