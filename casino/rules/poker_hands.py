"""Five-card poker hand values for the 7-A short decks (Five Card Draw 7-A).

The rules as implemented (``docs/rules/five-card-draw-7a.md``) decides every rules question; clause
numbers below refer to it. The evaluator is :mod:`casino.rules.poker`; this module gives it the
7-A deck's options. :func:`hand_value` rates exactly five cards of the 32-card deck (7 through
ace) or, ``with_sixes``, the 36-card deck (6 through ace), and returns a :class:`HandValue`
that compares by strength alone (the rank pattern's, without the cards).

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
* Cards must be distinct; a wrong number of cards, a repeated card or a rank outside the deck
  raises ``ValueError``.
"""

from __future__ import annotations

from collections.abc import Sequence

from casino.rules import poker
from casino.rules.cards import Card
from casino.rules.poker import (
    HAND_SIZE,
    Category,
    HandRules,
    HandValue,
    Wording,
    five_card_rating,
)

__all__ = ["HAND_SIZE", "Category", "HandValue", "hand_rules", "hand_value", "ranking"]

_RULES: dict[tuple[bool, bool], HandRules] = {
    (with_sixes, option): HandRules(
        lowest=6 if with_sixes else 7,
        flush_beats_full_house=option,
        best_five=False,
        short_hands=False,
        wording=Wording.CHARACTERS,
    )
    for with_sixes in (False, True)
    for option in (True, False)
}
# The same rules one by one, for :func:`hand_value` to pick without building a key.
_SIXES, _SIXES_FULL_HOUSE_FIRST = _RULES[True, True], _RULES[True, False]
_SEVENS, _SEVENS_FULL_HOUSE_FIRST = _RULES[False, True], _RULES[False, False]


def hand_rules(*, with_sixes: bool, flush_beats_full_house: bool = True) -> HandRules:
    """The evaluator's options for the 7-A deck (``with_sixes``: the 6-A deck), clauses 2-3."""
    return _RULES[with_sixes, flush_beats_full_house]


def ranking(*, flush_beats_full_house: bool = True) -> tuple[Category, ...]:
    """The categories from the lowest to the highest under the option (clause 2)."""
    return poker.ranking(flush_beats_full_house=flush_beats_full_house)


def hand_value(
    cards: Sequence[Card], *, with_sixes: bool, flush_beats_full_house: bool = True
) -> HandValue:
    """Rate exactly five cards of the 7-A deck (``with_sixes``: the 6-A deck), clauses 2-3.

    The value is the rank pattern's (:func:`~casino.rules.poker.five_card_rating`: one look-up,
    one object shared by every hand of the pattern): it compares and reads as
    :func:`~casino.rules.poker.best_hand`'s value of the cards, but carries no ``cards``
    (``()``); ``best_hand(cards, hand_rules(...))`` gives them best first.

    >>> from casino.rules.cards import parse_cards
    >>> str(hand_value(parse_cards("As 7h 8d 9c Ts".split(), path="cards"), with_sixes=False))
    'straight T-high (A-7-8-9-T)'
    """
    if with_sixes:
        return five_card_rating(
            cards, _SIXES if flush_beats_full_house else _SIXES_FULL_HOUSE_FIRST
        )
    return five_card_rating(cards, _SEVENS if flush_beats_full_house else _SEVENS_FULL_HOUSE_FIRST)
