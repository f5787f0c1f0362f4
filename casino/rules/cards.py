"""Playing cards shared by every game: parsing, canonical text, decks, duplicate checks.

Cards are two characters, rank then suit: ranks ``23456789TJQKA``, suits ``cdhs``
(``Ah``, ``Td``). Input also accepts ``10`` for ``T`` and either case; output is
always canonical. Bad input raises :class:`~casino.rules.errors.RuleError` naming
every bad card by its path (``players[0].cards[3]``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from casino.rules.errors import Problems, RuleError
from casino.rules.messages import _, msg, prefixed

RANKS = "23456789TJQKA"
SUITS = "cdhs"

#: Rank numbers: 2..10 as themselves, J=11, Q=12, K=13, A=14.
ACE = 14
KING = 13
QUEEN = 12
JACK = 11
TEN = 10

RANK_NAMES: dict[int, str] = {
    2: _("two"),
    3: _("three"),
    4: _("four"),
    5: _("five"),
    6: _("six"),
    7: _("seven"),
    8: _("eight"),
    9: _("nine"),
    10: _("ten"),
    11: _("jack"),
    12: _("queen"),
    13: _("king"),
    14: _("ace"),
}
SUIT_NAMES: dict[str, str] = {
    "c": _("clubs"),
    "d": _("diamonds"),
    "h": _("hearts"),
    "s": _("spades"),
}


def rank_char(rank: int) -> str:
    """The one-character rank: ``rank_char(10) == "T"``; 1 (a low ace) is ``"A"``."""
    if rank == 1:
        return "A"
    if not 2 <= rank <= ACE:
        raise ValueError(f"no rank {rank}")
    return RANKS[rank - 2]


def rank_name(rank: int) -> str:
    """The rank in words: ``rank_name(14) == "ace"``; 1 (a low ace) is ``"ace"``."""
    return RANK_NAMES[ACE if rank == 1 else rank]


def rank_value(char: str) -> int:
    """The rank number of a rank character (either case, ``10`` allowed): ``"T" -> 10``."""
    text = char.strip().upper()
    if text == "10":
        return TEN
    if len(text) == 1 and text in RANKS:
        return RANKS.index(text) + 2
    raise ValueError(f"no rank {char!r}")


#: :func:`rank_char` of every rank, a low ace (1) included.
_RANK_CHARS: dict[int, str] = {rank: rank_char(rank) for rank in range(1, ACE + 1)}


def format_ranks(ranks: Iterable[int], sep: str = "-") -> str:
    """Ranks as dealers say them: ``format_ranks([14, 13, 7, 2]) == "A-K-7-2"``."""
    return sep.join([_RANK_CHARS.get(rank) or rank_char(rank) for rank in ranks])


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card. Orders by rank, then suit (clubs < diamonds < hearts < spades)."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if isinstance(self.rank, bool) or not isinstance(self.rank, int):
            raise RuleError(msg(_("no rank %(rank)s"), rank=repr(self.rank)))
        if not 2 <= self.rank <= ACE:
            raise RuleError(msg(_("no rank %(rank)s"), rank=str(self.rank)))
        if self.suit not in tuple(SUITS):
            raise RuleError(msg(_("no suit %(suit)s"), suit=repr(self.suit)))

    @property
    def rank_char(self) -> str:
        return rank_char(self.rank)

    @property
    def suit_index(self) -> int:
        return SUITS.index(self.suit)

    def __str__(self) -> str:
        return RANKS[self.rank - 2] + self.suit

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


def parse_card(text: object) -> Card:
    """Read one card: ``"Ah"``, ``"aH"``, ``"10h"`` and ``"th"`` are all accepted.

    Anything else raises :class:`RuleError` with the message ``unknown card 'Xx'``.
    """
    if type(text) is str:
        card = _SPELLED.get(text)
        if card is not None:
            return card
    return _read_card(text)


def _read_card(text: object) -> Card:
    """:func:`parse_card` without the table of spellings: the one reading of a card."""
    if isinstance(text, str):
        cleaned = text.strip()
        if 2 <= len(cleaned) <= 3:
            suit = cleaned[-1].lower()
            try:
                rank = rank_value(cleaned[:-1])
            except ValueError:
                rank = 0
            if rank and suit in tuple(SUITS):
                return Card(rank, suit)
        raise RuleError(msg(_("unknown card '%(card)s'"), card=text))
    raise RuleError(
        msg(_("unknown card %(value)s: a card is text such as 'Ah' or '10d'"), value=repr(text))
    )


def read_cards(values: Sequence[object]) -> list[Card] | None:
    """Every card of ``values`` when each is written plainly (``Ah``, ``aH``, ``10h``: what
    :func:`parse_card` reads without trimming blanks); None when one is not, to be read one
    by one with :func:`parse_card` (which names what is wrong)."""
    try:
        return [_SPELLED[value] for value in values]  # type: ignore[index]
    except (KeyError, TypeError):
        return None


def readable_cards(values: Iterable[object]) -> list[Card | None]:
    """Every card of ``values`` that can be read, in place (None for the others), for
    :func:`check_distinct` when some are not cards."""
    readable: list[Card | None] = []
    for value in values:
        try:
            readable.append(parse_card(value))
        except RuleError:
            readable.append(None)
    return readable


def parse_cards(
    values: object,
    *,
    path: str,
    count: int | None = None,
    who: str | None = None,
) -> tuple[Card, ...]:
    """Read a list of cards, reporting every bad card at ``path[i]`` and a wrong count at ``path``.

    ``who`` prefixes the messages the way a dealer names the hand (``"seat 2"``):
    ``"seat 2: 7 cards needed, got 6"``.
    """
    if isinstance(values, str | bytes) or not isinstance(values, Sequence):
        wrong = (
            msg(_("cards must be a list of %(count)s cards such as ['Ah', 'Td']"), count=count)
            if count is not None
            else msg(_("cards must be a list of cards such as ['Ah', 'Td']"))
        )
        raise RuleError(prefixed(who, wrong), path)
    problems = Problems()
    cards = read_cards(values)
    if cards is None:
        cards = []
        for index, value in enumerate(values):
            try:
                cards.append(parse_card(value))
            except RuleError as error:
                problems.add(f"{path}[{index}]", prefixed(who, error.problems[0].message))
    if count is not None and len(values) != count:
        problems.add(
            path,
            prefixed(
                who, msg(_("%(count)s cards needed, got %(got)s"), count=count, got=len(values))
            ),
        )
    problems.raise_if_any()
    return tuple(cards)


@dataclass(frozen=True, slots=True)
class CardGroup:
    """The cards of one hand, for :func:`check_distinct`: who holds them and where they came from.

    A ``None`` in ``cards`` stands for a card that could not be read, keeping the others' paths.
    """

    who: str
    path: str
    cards: Sequence[Card | None]


def check_distinct(groups: Iterable[CardGroup]) -> None:
    """Reject any card dealt twice, in one hand or across hands; name the card and both places.

    Each repeat is reported at the path of its second appearance, e.g.
    ``players[1].cards[2]``: ``card As appears twice: seat 2 and seat 5``.
    """
    groups = list(groups)
    cards = [card for group in groups for card in group.cards if card is not None]
    if len(set(cards)) == len(cards):
        return  # no card twice: nothing to name
    problems = Problems()
    seen: dict[Card, str] = {}
    for group in groups:
        for index, card in enumerate(group.cards):
            if card is None:
                continue
            first = seen.get(card)
            if first is None:
                seen[card] = group.who
            elif first == group.who:
                problems.add(
                    f"{group.path}[{index}]",
                    prefixed(group.who, msg(_("card %(card)s appears twice"), card=str(card))),
                )
            else:
                problems.add(
                    f"{group.path}[{index}]",
                    msg(
                        _("card %(card)s appears twice: %(first)s and %(second)s"),
                        card=str(card),
                        first=first,
                        second=group.who,
                    ),
                )
    problems.raise_if_any()


@cache  # cards are frozen: one deck serves every hand
def standard_deck() -> tuple[Card, ...]:
    """The 52-card deck, 2c 2d 2h 2s 3c ... As."""
    return tuple(Card(rank, suit) for rank in range(2, ACE + 1) for suit in SUITS)


@cache
def standard_deck_set() -> frozenset[Card]:
    """The 52 cards as a set (to look cards up in, or copy and take cards from)."""
    return frozenset(standard_deck())


@cache
def short_deck(with_sixes: bool) -> tuple[Card, ...]:
    """The stripped deck 7..A (32 cards), or 6..A (36 cards) ``with_sixes``."""
    lowest = 6 if with_sixes else 7
    return tuple(card for card in standard_deck() if card.rank >= lowest)


#: Every spelling of every card without surrounding blanks (``Ah``, ``aH``, ``10h``, ``th``)
#: as :func:`_read_card` reads it, so a card is read with one look-up. Cards are frozen, so
#: one object, the standard deck's, serves every reading (and compares with itself at once).
_CANONICAL: dict[Card, Card] = {card: card for card in standard_deck()}
_SPELLED: dict[str, Card] = {
    spelling: _CANONICAL[_read_card(spelling)]
    for rank in RANKS
    for rank_text in {rank, rank.lower(), *(("10",) if rank == "T" else ())}
    for suit in SUITS
    for spelling in (rank_text + suit, rank_text + suit.upper())
}


#: The text of each of the deck's own card objects (every card read from text is one of
#: them: :data:`_SPELLED`), by the object's identity: the objects live as long as the module,
#: so an identity stands for one card only.
_TEXTS: dict[int, str] = {id(card): str(card) for card in standard_deck()}


def card_texts(cards: Iterable[Card]) -> list[str]:
    """``[str(card) for card in cards]``, the deck's own cards looked up rather than each
    written by a call of :meth:`Card.__str__` (settlements write every card they show)."""
    texts = _TEXTS
    return [texts.get(id(card)) or str(card) for card in cards]


def sorted_desc(cards: Iterable[Card]) -> list[Card]:
    """Cards from the highest rank down (ties by suit, spades first)."""
    return sorted(cards, reverse=True)
