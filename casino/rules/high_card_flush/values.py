"""High Card Flush's hand values: a hand's flush and its straight-flush run (clauses 2-4 and 11
of ``docs/rules/high-card-flush.md``), the raise they allow (clause 6) and the designated
player's qualifier (clause 7).

Interpretations this module makes where the brief leaves room:

* **Flush comparison** (clauses 2-4) looks at length, then ranks card by card; suits never
  break a tie, so two :class:`Flush` values with equal length and ranks compare equal.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache

from casino.rules.cards import ACE, Card, format_ranks
from casino.rules.messages import Message, _, msg
from casino.rules.quick import quick_init

from .rules import Rules


@quick_init
@dataclass(frozen=True, slots=True, order=True)
class Flush:
    """A hand's flush (clause 2): its length, then its ranks from the highest. Suit never counts."""

    length: int
    ranks: tuple[int, ...]
    suit: str = field(compare=False)

    @property
    def high(self) -> int:
        return self.ranks[0]

    def __str__(self) -> str:
        return _flush_words(self.length, self.ranks)

    @property
    def words(self) -> Message:
        """``4-card flush A-K-9-2`` as a message (its text is :meth:`__str__`'s)."""
        return _flush_message(self.length, self.ranks)


@quick_init
@dataclass(frozen=True, slots=True, order=True)
class Run:
    """The longest run of consecutive ranks in one suit (clause 11), by length then top card.

    A low ace counts as 1, so the top of A-2-3 is 3. Suit never counts.
    """

    length: int
    top: int
    suit: str = field(compare=False)

    @property
    def ranks(self) -> tuple[int, ...]:
        """The run's ranks from the top down; a low ace is 1."""
        return tuple(range(self.top, self.top - self.length, -1))

    @property
    def is_straight_flush(self) -> bool:
        return self.length >= 3

    def __str__(self) -> str:
        return _run_words(self.length, self.top)

    @property
    def words(self) -> Message:
        """``3-card straight flush 9-8-7`` as a message (its text is :meth:`__str__`'s)."""
        return _run_message(self.length, self.top)


@lru_cache(maxsize=8192, typed=True)  # more than the flushes of seven cards
def _flush_words(length: int, ranks: tuple[int, ...]) -> str:
    return f"{length}-card flush {format_ranks(ranks)}"


@lru_cache(maxsize=256, typed=True)
def _run_words(length: int, top: int) -> str:
    if length < 3:  # not a straight flush
        return f"no straight flush (longest run {length} card{'s' * (length > 1)})"
    return f"{length}-card straight flush {format_ranks(range(top, top - length, -1))}"


@lru_cache(maxsize=8192, typed=True)
def _flush_message(length: int, ranks: tuple[int, ...]) -> Message:
    return msg(_("%(length)s-card flush %(ranks)s"), length=length, ranks=format_ranks(ranks))


@lru_cache(maxsize=256, typed=True)
def _run_message(length: int, top: int) -> Message:
    if length < 3:  # not a straight flush
        return msg(
            _("no straight flush (longest run %(length)s cards)")
            if length > 1
            else _("no straight flush (longest run %(length)s card)"),
            length=length,
        )
    return msg(
        _("%(length)s-card straight flush %(ranks)s"),
        length=length,
        ranks=format_ranks(range(top, top - length, -1)),
    )


def best_flush(cards: Iterable[Card]) -> Flush:
    """The longest suit; between equally long suits, the better one card by card (clause 2)."""
    return _flush_of(_by_suit(cards))


def flush_length(cards: Iterable[Card]) -> int:
    """``best_flush(cards).length`` without building the flush: the most cards of one suit."""
    suits = [card.suit for card in cards]
    if not suits:
        raise ValueError("a flush needs at least one card")
    return max(map(suits.count, set(suits)))


def straight_flush_run(cards: Iterable[Card]) -> Run:
    """The longest run of consecutive ranks within one suit, ace high or low, never wrapping.

    A-2-3 and Q-K-A are runs, K-A-2 is not. Among equally long runs the highest top wins.
    With no two consecutive cards in a suit the run is the single highest card (length 1).
    """
    return _run_of(_by_suit(cards))


def hand_values(cards: Iterable[Card]) -> tuple[Flush, Run]:
    """``(best_flush(cards), straight_flush_run(cards))``, the cards read once.

    Each suit's ranks are read as bits (bit 14 the ace): between two suits of as many cards
    the better flush, card by card from the top, is the one whose highest rank not in the
    other is higher, i.e. the larger number; so suits compare as (count, bits) where
    :func:`_flush_of` compares (count, ranks from the highest), and as
    :func:`_longest_run` of their bits where :func:`_run_of` does, the first of equal suits
    kept. Cards given twice (which a checked hand never holds) are read the long way."""
    cards = tuple(cards)
    masks: dict[str, int] = {}  # each suit's ranks as bits, the suits as they first appear
    for card in cards:
        suit = card.suit
        masks[suit] = masks.get(suit, 0) | 1 << card.rank
    flush: tuple[int, int] | None = None
    run: tuple[int, int] | None = None
    flush_suit = run_suit = ""
    counted = 0
    for suit, mask in masks.items():
        count = mask.bit_count()
        counted += count
        if flush is None or (count, mask) > flush:
            flush, flush_suit = (count, mask), suit
        longest = _longest_run(mask)
        if run is None or longest > run:
            run, run_suit = longest, suit
    if flush is None or run is None or counted != len(cards):  # none, or a card twice
        by_suit = _by_suit(cards)
        return _flush_of(by_suit), _run_of(by_suit)
    return Flush(flush[0], _ranks_of(flush[1]), flush_suit), Run(run[0], run[1], run_suit)


@cache
def _ranks_of(mask: int) -> tuple[int, ...]:
    """The ranks whose bits are set, from the highest."""
    return tuple(rank for rank in range(ACE, 1, -1) if mask >> rank & 1)


def _by_suit(cards: Iterable[Card]) -> dict[str, list[int]]:
    """Each suit's ranks, the suits in the order they first appear."""
    by_suit: dict[str, list[int]] = {}
    for card in cards:
        by_suit.setdefault(card.suit, []).append(card.rank)
    return by_suit


def _flush_of(by_suit: dict[str, list[int]]) -> Flush:
    """The best flush of :func:`_by_suit`'s suits (it sorts their ranks, highest first)."""
    # Compared as Flush orders (length, then ranks); the first of equal suits is kept.
    best: tuple[int, tuple[int, ...]] | None = None
    best_suit = ""
    for suit, ranks in by_suit.items():
        ranks.sort(reverse=True)
        candidate = (len(ranks), tuple(ranks))
        if best is None or candidate > best:
            best, best_suit = candidate, suit
    if best is None:
        raise ValueError("a flush needs at least one card")
    return Flush(best[0], best[1], best_suit)


def _run_of(by_suit: dict[str, list[int]]) -> Run:
    """The longest, then highest, run of :func:`_by_suit`'s suits."""
    # Compared as Run orders (length, then top); the first of equal suits is kept.
    best: tuple[int, int] | None = None
    best_suit = ""
    for suit, ranks in by_suit.items():
        bits = 0  # the suit's ranks as bits, bit 14 the ace
        for rank in ranks:
            bits |= 1 << rank
        candidate = _longest_run(bits)
        if best is None or candidate > best:
            best, best_suit = candidate, suit
    if best is None:
        raise ValueError("a run needs at least one card")
    return Run(best[0], best[1], best_suit)


@cache
def _longest_run(ranks: int) -> tuple[int, int]:
    """``(length, top)`` of the longest, then highest, run in one suit's ranks (as bits, bit
    14 the ace, which also counts as 1)."""
    if ranks >> ACE & 1:
        ranks |= 1 << 1
    best = (0, 0)
    length = 0
    for rank in range(1, ACE + 1):
        if ranks >> rank & 1:
            length += 1
            best = max(best, (length, rank))
        else:
            length = 0
    return best


def raise_multiple(flush_length: int) -> int:
    """Clause 6: the most a raise may be, in antes: 1x up to a 4-card flush, 2x for 5, 3x for 6-7."""
    if flush_length >= 6:
        return 3
    if flush_length == 5:
        return 2
    return 1


def raise_bounds(ante: int, flush_length: int) -> tuple[int, int]:
    """Clause 6: the smallest and largest legal raise (0 is the fold, outside these bounds)."""
    return ante, ante * raise_multiple(flush_length)


def dp_qualifies(flush: Flush, rules: Rules | None = None) -> bool:
    """Clause 7: a 3-card flush 9-high or better, or any longer flush (the figures are rules)."""
    rules = rules or Rules()
    if flush.length != rules.qualify_length:
        return flush.length > rules.qualify_length
    return flush.high >= rules.qualify_high_rank
