"""Five Card Draw 7-A: the decks and a hand's value as the game rates it (clauses 1-4).

The deck is 7 through ace in four suits, 32 cards; with five players dealt in the four 6s join
it, 36 cards (clause 1). Each seat holds five cards. Hands are rated by the shared evaluator
(:mod:`casino.rules.poker_hands`, the game's view of :mod:`casino.rules.poker`) with the deck's
low straight (A-7-8-9-T, or A-6-7-8-9 with the sixes) and the table's choice of whether a flush
beats a full house (``flush_beats_full_house``, clause 2).
"""

from __future__ import annotations

from collections.abc import Sequence

from casino.rules.cards import Card, short_deck
from casino.rules.five_card_draw.rules import DrawRules
from casino.rules.messages import Message, _
from casino.rules.poker_hands import HandValue, hand_value

HAND_SIZE = 5
#: Clause 1: with five players dealt in, the four 6s join the 32-card deck.
SIXES_PLAYERS = 5

#: Each deck's cards, to look cards up in (keyed by ``with_sixes``).
DECK_SETS: dict[bool, frozenset[Card]] = {
    with_sixes: frozenset(short_deck(with_sixes)) for with_sixes in (False, True)
}


def deck_words(with_sixes: bool) -> Message:
    if with_sixes:
        return Message(_("the 36-card deck (6 through ace, five players)"))
    return Message(_("the 32-card deck (7 through ace; the 6s come in only with five players)"))


def deck_for(players: int) -> tuple[Card, ...]:
    """Clause 1: 32 cards, 7 to ace; the sixes are added when five are dealt in."""
    return short_deck(players >= SIXES_PLAYERS)


def rate(cards: Sequence[Card], with_sixes: bool, rules: DrawRules) -> HandValue:
    """The five cards' value in this game: its deck's low straight and its ranking (clause 2)."""
    return hand_value(
        cards,
        with_sixes=with_sixes,
        flush_beats_full_house=rules.flush_beats_full_house,
    )
