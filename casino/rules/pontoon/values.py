"""Pontoon: card points, hand totals and the ranking of hands (clauses 1, 2 and 15).

An ace counts 1 or 11, K Q J T count 10, the others their pips (clause 1). A hand's total is
its best total: an ace counts 11 when that does not take the hand over 21, and the total is
then *soft* (A-4 is soft 15). Ranking, high to low (clause 2): pontoon (an ace and a
ten-value card, two cards), five card trick (five cards totalling 21 or less), 21 with 2-4
cards, lower totals with fewer than five cards by total, bust. A pontoon on a split hand
ranks as a 21 in two cards unless the rules treat it as a pontoon (clause 15).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from casino.rules.cards import ACE, JACK, TEN, Card, format_ranks
from casino.rules.messages import Message, _, msg

TWENTY_ONE = 21
NUMBER_WORDS = {5: "five", 6: "six", 7: "seven"}


def points(card: Card) -> int:
    """A card's points with the ace low: ``points(Card(14, "s")) == 1``; K Q J T are 10."""
    if card.rank == ACE:
        return 1
    return TEN if card.rank >= JACK else card.rank


def is_ten_value(card: Card) -> bool:
    return TEN <= card.rank < ACE


def total(cards: Sequence[Card]) -> tuple[int, bool]:
    """The best total and whether it is soft (an ace counted as 11): ``A-4`` is ``(15, True)``."""
    hard = sum(points(card) for card in cards)
    if any(card.rank == ACE for card in cards) and hard + 10 <= TWENTY_ONE:
        return hard + 10, True
    return hard, False


def is_pontoon_pair(cards: Sequence[Card]) -> bool:
    """Exactly two cards, an ace and a ten-value card (clause 2)."""
    if len(cards) != 2:
        return False
    first, second = cards
    return (first.rank == ACE and is_ten_value(second)) or (
        second.rank == ACE and is_ten_value(first)
    )


def trick_name(limit: int) -> str:
    """``"five card trick"`` (or six/seven with a larger card limit)."""
    return f"{NUMBER_WORDS.get(limit, str(limit))} card trick"


TRICK_WORDS = {5: _("five card trick"), 6: _("six card trick"), 7: _("seven card trick")}
TRICKS_WORDS = {5: _("five card tricks"), 6: _("six card tricks"), 7: _("seven card tricks")}


def trick_words(limit: int, plural: bool = False) -> Message:
    """:func:`trick_name` (``plural``: ``"five card tricks"``) as a message."""
    words = (TRICKS_WORDS if plural else TRICK_WORDS).get(limit)
    if words is not None:
        return Message(words)
    if plural:
        return msg(_("%(cards)s card tricks"), cards=limit)
    return msg(_("%(cards)s card trick"), cards=limit)


def card_text(cards: Sequence[Card]) -> str:
    """Ranks as dealers say them: ``A-K``, ``7-3-4-2-2``."""
    return format_ranks(card.rank for card in cards)


class Kind(StrEnum):
    """The ranking classes of clause 2, from the lowest."""

    BUST = "bust"
    TOTAL = "total"
    TWENTY_ONE = "21"
    FIVE_CARD_TRICK = "five card trick"
    PONTOON = "pontoon"

    @property
    def order(self) -> int:
        return _KIND_ORDER[self]


# Enum members read in the hot paths, each once: on Python 3.11 a member read through its
# class (``Phase.PLAY``) goes through ``EnumType.__getattr__``'s hook, several times a global.
_KIND_BUST = Kind.BUST
_KIND_FIVE_CARD_TRICK = Kind.FIVE_CARD_TRICK
_KIND_PONTOON = Kind.PONTOON
_KIND_TOTAL = Kind.TOTAL
_KIND_TWENTY_ONE = Kind.TWENTY_ONE


_KIND_ORDER = {kind: index for index, kind in enumerate(Kind)}


@dataclass(frozen=True, slots=True)
class HandValue:
    """A hand as ranked by clause 2.

    ``split_pontoon`` marks an ace and a ten on a split hand; ``kind`` is then ``21`` (paid
    single, clause 15) or ``pontoon`` when the rules make split pontoons pay double.
    ``limit`` is the most cards a hand may hold (the trick's size).
    """

    kind: Kind
    total: int
    soft: bool
    cards: int
    split_pontoon: bool = False
    limit: int = 5

    @property
    def key(self) -> tuple[int, int]:
        """Compare hands: class first, then the total within plain totals."""
        return self.kind.order, self.total if self.kind is _KIND_TOTAL else 0

    @property
    def pays_double(self) -> bool:
        """Pontoons and five card tricks are paid double when they win (clauses 12-13)."""
        return self.kind in (_KIND_PONTOON, _KIND_FIVE_CARD_TRICK)

    @property
    def is_bust(self) -> bool:
        return self.kind is _KIND_BUST

    def __str__(self) -> str:
        if self.kind is _KIND_PONTOON:
            return "pontoon (split hand)" if self.split_pontoon else "pontoon"
        if self.kind is _KIND_FIVE_CARD_TRICK:
            return f"{trick_name(self.limit)} ({self.total})"
        if self.kind is _KIND_TWENTY_ONE:
            return "21 (split pontoon)" if self.split_pontoon else "21"
        if self.kind is _KIND_BUST:
            return f"bust ({self.total})"
        return f"soft {self.total}" if self.soft else str(self.total)

    @property
    def words(self) -> Message:
        """``str(self)`` as a message (its English text is the same)."""
        if self.kind is _KIND_PONTOON:
            return Message(_("pontoon (split hand)") if self.split_pontoon else _("pontoon"))
        if self.kind is _KIND_FIVE_CARD_TRICK:
            return msg(_("%(trick)s (%(total)s)"), trick=trick_words(self.limit), total=self.total)
        if self.kind is _KIND_TWENTY_ONE:
            return Message(_("21 (split pontoon)") if self.split_pontoon else "21")
        if self.kind is _KIND_BUST:
            return msg(_("bust (%(total)s)"), total=self.total)
        if self.soft:
            return msg(_("soft %(total)s"), total=self.total)
        return msg("%(total)s", total=self.total)


#: Hand values already worked out, by the cards' ranks and the options (all a value depends
#: on; values are frozen); emptied when full.
_VALUES: dict[tuple[tuple[int, ...], int, bool, bool], HandValue] = {}
_MOST_VALUES = 4096


def hand_value(
    cards: Sequence[Card],
    *,
    limit: int = 5,
    split: bool = False,
    split_pontoon_is_pontoon: bool = False,
) -> HandValue:
    """Rank a hand (clause 2); ``split`` for a hand of a seat that split (clause 15)."""
    if (
        type(limit) is not int
        or type(split) is not bool
        or type(split_pontoon_is_pontoon) is not bool
    ):
        return _rank(cards, limit, split, split_pontoon_is_pontoon)
    key = (tuple([card.rank for card in cards]), limit, split, split_pontoon_is_pontoon)
    value = _VALUES.get(key)
    if value is None:
        if len(_VALUES) >= _MOST_VALUES:
            _VALUES.clear()
        value = _VALUES[key] = _rank(cards, limit, split, split_pontoon_is_pontoon)
    return value


def _rank(
    cards: Sequence[Card], limit: int, split: bool, split_pontoon_is_pontoon: bool
) -> HandValue:
    points_total, soft = total(cards)
    count = len(cards)
    if points_total > TWENTY_ONE:
        return HandValue(_KIND_BUST, points_total, False, count, limit=limit)
    if is_pontoon_pair(cards):
        kind = _KIND_PONTOON if not split or split_pontoon_is_pontoon else _KIND_TWENTY_ONE
        return HandValue(kind, TWENTY_ONE, soft, count, split_pontoon=split, limit=limit)
    if count >= limit:
        return HandValue(_KIND_FIVE_CARD_TRICK, points_total, soft, count, limit=limit)
    if points_total == TWENTY_ONE:
        return HandValue(_KIND_TWENTY_ONE, points_total, soft, count, limit=limit)
    return HandValue(_KIND_TOTAL, points_total, soft, count, limit=limit)
