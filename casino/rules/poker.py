"""Poker hand values: the one evaluator of the poker games, with deck options.

:func:`best_hand` rates cards under a :class:`HandRules` and returns a :class:`HandValue` that
compares, hashes and tests equal by strength alone. The games use it with their own rules:

* Five Card Draw 7-A (:mod:`casino.rules.poker_hands`, ``docs/rules/five-card-draw-7a.md``
  clauses 2-3): exactly five cards of the 32-card deck (7-A) or the 36-card deck (6-A), a flush
  beating a full house unless the table turns that off, ranks written as characters.
* Palace Poker (:mod:`casino.rules.palace_poker.values`, ``docs/rules/palace-poker.md`` clauses
  1 and 10): :data:`STANDARD`, the best five of any number of cards of the 52-card deck in the
  standard order, hands of fewer than five cards counting only sets, ranks named.

The options (:class:`HandRules`):

* ``lowest``, the deck's lowest rank (2, 6 or 7 for the 52-, 36- and 32-card decks). The ace
  plays low in exactly one straight, A and the deck's four lowest ranks: A-2-3-4-5 (5-high),
  A-6-7-8-9 (9-high), A-7-8-9-T (T-high); no other straight wraps. Suited it is a straight
  flush, never royal. A low straight is described with its cards: ``"straight 5-high
  (A-2-3-4-5)"``. A card below the deck's lowest rank raises ``ValueError``.
* ``flush_beats_full_house``: the two categories swap places in the ranking (:func:`ranking`).
  :class:`Category` numbers the categories 0..9 for storage; that numbering is the order with
  the option on, but a value's ``strength`` always starts with the category's place in the
  ranking under its rules. Values rated under different rules must not be compared.
* ``best_five``: more than five cards rate as the best five of them (else ``ValueError``).
* ``short_hands``: fewer than five cards are rated (else ``ValueError``), and then only sets
  count (high card, pair, two pair, three and four of a kind; no straight or flush). A hand the
  same as another but with fewer kickers is the lower (``K-K-A`` loses to ``K-K-A-2``); no
  cards at all is :data:`NO_CARDS`, the lowest.
* ``wording``: how a description names the ranks of sets (:class:`Wording`); straights,
  flushes and high cards read the same either way (``"flush A-J-9-5-3"``).
* ``hand_size`` and ``order``: three-card hands (``hand_size=3``; five by default) whose
  ranking the game declares as ``order``, the categories a three-card hand can make from the
  lowest: for Three Card Poker :data:`THREE_CARD_POKER` (high card, pair, flush, straight,
  three of a kind, straight flush: a straight above a flush, as three cards make straights
  rarer). Three running ranks are a straight, the ace high (Q-K-A) or low (A-2-3) and never
  wrapping; three of a suit a flush; a suited Q-K-A is a straight flush unless the order
  names a royal flush. Of more cards (``best_five``) the best three count. ``order`` may also
  reorder five-card hands (all ten categories); without it the ranking is
  ``flush_beats_full_house``'s.

Suits never rank: hands with the same ranks in the same category are equal and split. Cards
must be distinct (a repeated card raises ``ValueError``).

Ratings are cached per rules by rank pattern and suitedness (some ten thousand at most), so
rating five cards costs a sort of five ranks, a suit check, a dictionary look-up and ordering
the five cards; the best five of ``n`` rates every five-card combination the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from itertools import combinations

from casino.rules.cards import ACE, SUITS, TEN, Card, format_ranks, rank_char, rank_name
from casino.rules.messages import Message, _, msg
from casino.rules.quick import quick_init

HAND_SIZE = 5
#: The hand sizes the evaluator rates: five cards, or three (``HandRules.hand_size``).
HAND_SIZES = (3, 5)


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


def ranking(*, flush_beats_full_house: bool) -> tuple[Category, ...]:
    """The categories from the lowest to the highest, with or without the flush option."""
    order = list(Category)
    if not flush_beats_full_house:
        order[Category.FULL_HOUSE], order[Category.FLUSH] = Category.FLUSH, Category.FULL_HOUSE
    return tuple(order)


#: The categories a hand of each size can make, lowest first as standard poker has them (a
#: declared ``order`` must name each of them once; a royal flush is optional for three cards).
CATEGORIES: dict[int, tuple[Category, ...]] = {
    5: tuple(Category),
    3: (
        Category.HIGH_CARD,
        Category.PAIR,
        Category.FLUSH,
        Category.STRAIGHT,
        Category.THREE_OF_A_KIND,
        Category.STRAIGHT_FLUSH,
    ),
}

#: Three Card Poker's ranking, lowest first: a straight above a flush, three of a kind above a
#: straight (with three cards both are rarer than in five): ``HandRules(hand_size=3,
#: order=THREE_CARD_POKER)``.
THREE_CARD_POKER: tuple[Category, ...] = CATEGORIES[3]


class Wording(StrEnum):
    """How a description names the ranks of a set (pairs, trips, quads, full houses)."""

    #: Rank characters: ``"pair J, 9-8-7 kickers"``, ``"two pair K and 9, 7 kicker"``,
    #: ``"full house A over K"``, ``"four of a kind 9, A kicker"`` (Five Card Draw 7-A).
    CHARACTERS = "characters"
    #: Rank names: ``"pair of jacks, 9-8-7 kickers"``, ``"two pair, kings and nines, 7
    #: kicker"``, ``"full house, aces over kings"``, ``"four nines, A kicker"`` (Palace Poker).
    NAMES = "names"


@quick_init
@dataclass(frozen=True, slots=True, order=True)
class HandValue:
    """A rated hand. Compares, hashes and tests equal by ``strength`` only.

    ``ranks`` are the tiebreak ranks by importance: quads (quad, kicker); full house (trips,
    pair); straights (the top card; the low straight's is the deck's fourth lowest rank, 5 for
    A-2-3-4-5); trips (trips, kickers); two pair (high pair, low pair, kicker); pair (pair,
    kickers); flush and high card every rank, descending. Short hands have fewer kickers.
    ``strength`` is the category's place in the rules' :func:`ranking`, then ``ranks``.
    ``cards`` are the cards that make the hand, best first (sets by importance, then kickers;
    straights from the top, a low ace last); ``description`` says it as a dealer would.
    """

    strength: tuple[int, ...]
    category: Category = field(compare=False)
    ranks: tuple[int, ...] = field(compare=False)
    cards: tuple[Card, ...] = field(compare=False)
    description: str = field(compare=False)

    def __str__(self) -> str:
        return self.description


#: The name Palace Poker gives a rated hand.
PokerValue = HandValue

#: The value of a hand with no cards (every card removed in a battle): lower than any other.
NO_CARDS = HandValue((), Category.HIGH_CARD, (), (), Message(_("no cards")))


@dataclass(frozen=True, slots=True)
class HandRules:
    """What a hand is rated under: the deck, the ranking, how many cards, the wording.

    The defaults are standard poker (:data:`STANDARD`). Rules are immutable and carry their
    own cache of ratings, so a game keeps one instance per combination of options it uses.
    """

    lowest: int = 2
    flush_beats_full_house: bool = False
    best_five: bool = True
    short_hands: bool = True
    wording: Wording = Wording.NAMES
    hand_size: int = HAND_SIZE
    order: tuple[Category, ...] | None = None
    _ratings: dict[tuple[tuple[int, ...], bool], _Rated] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _place: dict[Category, int] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.lowest, bool) or not 2 <= self.lowest <= TEN:
            raise ValueError(
                f"a deck's lowest rank is 2 to 10 (five ranks to ace), not {self.lowest}"
            )
        if self.hand_size not in HAND_SIZES:
            raise ValueError(f"a poker hand is 3 or 5 cards, not {self.hand_size}")
        order = self.order
        if order is None:
            if self.hand_size != HAND_SIZE:
                raise ValueError("a three-card hand's ranking is the game's to declare (order)")
            order = ranking(flush_beats_full_house=self.flush_beats_full_house)
        needed = set(CATEGORIES[self.hand_size])
        allowed = needed | {Category.ROYAL_FLUSH}
        if len(set(order)) != len(order) or not needed <= set(order) <= allowed:
            raise ValueError(
                f"a ranking of {self.hand_size}-card hands names each of "
                f"{', '.join(c.words for c in CATEGORIES[self.hand_size])} once"
            )
        self._place.update((category, place) for place, category in enumerate(order))

    @property
    def deck_name(self) -> str:
        """``"2-A"`` (52 cards), ``"6-A"`` (36), ``"7-A"`` (32)."""
        return f"{rank_char(self.lowest)}-A"

    @property
    def low_straight(self) -> tuple[int, ...]:
        """The ranks of the one straight where the ace plays low, highest first (A-5-4-3-2,
        or A-3-2 for three cards)."""
        lowest = self.lowest
        return (ACE, *range(lowest + self.hand_size - 2, lowest - 1, -1))

    @property
    def ranking(self) -> tuple[Category, ...]:
        """The categories from the lowest to the highest under these rules."""
        return tuple(sorted(self._place, key=self._place.__getitem__))

    def deck(self) -> tuple[Card, ...]:
        """Every card of the deck, lowest rank first (clubs, diamonds, hearts, spades)."""
        return tuple(Card(rank, suit) for rank in range(self.lowest, ACE + 1) for suit in SUITS)


#: Standard poker: the 52-card deck, a full house above a flush, the best five of any number
#: of cards, hands of fewer than five counting sets only, ranks named (Palace Poker).
STANDARD = HandRules()


def plural(rank: int) -> str:
    """``plural(6) == "sixes"``, ``plural(13) == "kings"``."""
    name = rank_name(rank)
    return name + ("es" if name.endswith("x") else "s")


def best_hand(cards: Iterable[Card], rules: HandRules = STANDARD) -> HandValue:
    """The best hand of five (or, with ``short_hands`` and fewer cards, all) of ``cards``.

    >>> from casino.rules.cards import parse_cards
    >>> str(best_hand(parse_cards("Ad Kh Kc 7h".split(), path="c")))
    'pair of kings, A-7 kickers'
    >>> seven_a = HandRules(lowest=7, wording=Wording.CHARACTERS)
    >>> str(best_hand(parse_cards("As 7h 8d 9c Ts".split(), path="c"), seven_a))
    'straight T-high (A-7-8-9-T)'
    """
    pool = tuple(cards)
    count = len(pool)
    size = rules.hand_size
    too_many = count > size and not rules.best_five
    too_few = count < size and not rules.short_hands
    if too_many or too_few:
        raise ValueError(f"a poker hand is {_size_words(rules)} cards, got {count}")
    if len({(card.rank, card.suit) for card in pool}) != count:
        raise ValueError("a card is repeated")
    if count <= size:
        return _value(pool, rules) if pool else NO_CARDS
    best: tuple[Card, ...] = ()
    strongest: tuple[int, ...] = ()
    for hand in combinations(pool, size):
        strength = _rating(hand, rules).value.strength
        if strength > strongest:  # the first of equal bests, as max() would keep
            best, strongest = hand, strength
    return _value(best, rules)


def _size_words(rules: HandRules) -> str:
    if rules.best_five:
        return f"at least {rules.hand_size}"
    if rules.short_hands:
        return f"at most {rules.hand_size}"
    return f"{rules.hand_size}"


def rate_ranks(ranks: Sequence[int], *, flush: bool, rules: HandRules = STANDARD) -> HandValue:
    """The value of up to a hand's size of ranks, suited (``flush``, a whole hand only) or
    not, without ``cards``: for counting hands by rank pattern without dealing them."""
    ordered = tuple(sorted(ranks, reverse=True))
    size = rules.hand_size
    if len(ordered) > size:
        raise ValueError(f"a rank pattern is at most {size} ranks, got {len(ordered)}")
    if not ordered:
        return NO_CARDS
    return _rate(ordered, flush and len(ordered) == size, rules).value


@quick_init
@dataclass(frozen=True, slots=True)
class _Rated:
    """A cached rating: the value without cards, and each rank's place for ordering cards."""

    value: HandValue
    place: dict[int, int]  # rank -> 4 x its place among the hand's ranks, best first


# Added to a rank's place: spades first among cards of one rank (suits never rank otherwise).
_SUIT_PLACE = {suit: 3 - index for index, suit in enumerate(SUITS)}


def _rating(cards: Sequence[Card], rules: HandRules) -> _Rated:
    """The cached rating of up to a hand's size of cards' ranks and suitedness."""
    count = len(cards)
    if count == HAND_SIZE == rules.hand_size:
        first, second, third, fourth, fifth = cards
        suit = first.suit
        flush = (
            second.suit == suit
            and third.suit == suit
            and fourth.suit == suit
            and fifth.suit == suit
        )
        ranks = [first.rank, second.rank, third.rank, fourth.rank, fifth.rank]
    else:
        flush = count == rules.hand_size and len({card.suit for card in cards}) == 1
        ranks = [card.rank for card in cards]
    ranks.sort(reverse=True)
    return _rate(tuple(ranks), flush, rules)


def _value(cards: Sequence[Card], rules: HandRules) -> HandValue:
    rated = _rating(cards, rules)
    value, place = rated.value, rated.place
    ordered = sorted(cards, key=lambda card: place[card.rank] + _SUIT_PLACE[card.suit])
    return HandValue(value.strength, value.category, value.ranks, tuple(ordered), value.description)


def _rate(ranks: tuple[int, ...], flush: bool, rules: HandRules) -> _Rated:
    """The rating of ranks (highest first, at most a hand's size), suited or not; cached per
    rules."""
    key = (ranks, flush)
    cached = rules._ratings.get(key)
    if cached is not None:
        return cached
    lowest = rules.lowest
    if ranks[-1] < lowest:
        raise ValueError(f"rank {rank_char(ranks[-1])} is not in the {rules.deck_name} deck")

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

    size = rules.hand_size
    top = 0  # the straight's top card, 0 if none
    low_ace = False
    if len(groups) == size:
        if ranks[0] - ranks[-1] == size - 1:
            top = ranks[0]
        elif ranks == rules.low_straight:
            top, low_ace = lowest + size - 2, True

    category: Category
    tiebreak: tuple[int, ...]
    if top and flush:
        royal = top == ACE and Category.ROYAL_FLUSH in rules._place
        category = Category.ROYAL_FLUSH if royal else Category.STRAIGHT_FLUSH
        tiebreak = (top,)
    elif shape[0] == 4:
        category, tiebreak = Category.FOUR_OF_A_KIND, by_group
    elif shape == (3, 2):
        category, tiebreak = Category.FULL_HOUSE, by_group
    elif flush:
        category, tiebreak = Category.FLUSH, ranks
    elif top:
        category, tiebreak = Category.STRAIGHT, (top,)
    elif shape[0] == 3:
        category, tiebreak = Category.THREE_OF_A_KIND, by_group
    elif shape[:2] == (2, 2):
        category, tiebreak = Category.TWO_PAIR, by_group
    elif shape[0] == 2:
        category, tiebreak = Category.PAIR, by_group
    else:
        category, tiebreak = Category.HIGH_CARD, ranks

    strength = (rules._place[category], *tiebreak)
    description = _describe(category, tiebreak, low_ace, rules.wording, size)
    # The cards' order: a straight from its top (a low ace last), else by the tiebreak ranks.
    best_first = (*ranks[1:], ACE) if low_ace else by_group
    rated = _Rated(
        HandValue(strength, category, tiebreak, (), description),
        {rank: 4 * index for index, rank in enumerate(best_first)},
    )
    rules._ratings[key] = rated
    return rated


#: The categories as a dealer says them (:attr:`Category.words`), marked for the catalogs.
CATEGORY_WORDS: dict[Category, str] = {
    Category.HIGH_CARD: _("high card"),
    Category.PAIR: _("pair"),
    Category.TWO_PAIR: _("two pair"),
    Category.THREE_OF_A_KIND: _("three of a kind"),
    Category.STRAIGHT: _("straight"),
    Category.FULL_HOUSE: _("full house"),
    Category.FLUSH: _("flush"),
    Category.FOUR_OF_A_KIND: _("four of a kind"),
    Category.STRAIGHT_FLUSH: _("straight flush"),
    Category.ROYAL_FLUSH: _("royal flush"),
}
#: Ranks in the plural (:func:`plural`), marked for the catalogs.
PLURAL_WORDS: dict[int, str] = {
    2: _("twos"),
    3: _("threes"),
    4: _("fours"),
    5: _("fives"),
    6: _("sixes"),
    7: _("sevens"),
    8: _("eights"),
    9: _("nines"),
    10: _("tens"),
    11: _("jacks"),
    12: _("queens"),
    13: _("kings"),
    14: _("aces"),
}


def _plural_words(rank: int) -> Message:
    return Message(PLURAL_WORDS.get(ACE if rank == 1 else rank, plural(rank)))


def _describe(
    category: Category,
    ranks: tuple[int, ...],
    low_ace: bool,
    wording: Wording,
    size: int = HAND_SIZE,
) -> Message:
    """The hand in a dealer's words, as a message (its English text is the description)."""
    name = Message(CATEGORY_WORDS[category])
    if category is Category.ROYAL_FLUSH:
        return name
    if category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        top = ranks[0]
        if low_ace:
            return msg(
                _("%(name)s %(top)s-high (%(cards)s)"),
                name=name,
                top=rank_char(top),
                cards=format_ranks([ACE, *range(top - size + 2, top + 1)]),
            )
        return msg(_("%(name)s %(top)s-high"), name=name, top=rank_char(top))
    if category in (Category.FLUSH, Category.HIGH_CARD):
        return msg(_("%(name)s %(ranks)s"), name=name, ranks=format_ranks(ranks))
    if wording is Wording.NAMES:
        first = _plural_words(ranks[0])
        if category is Category.FULL_HOUSE:
            return msg(
                _("%(name)s, %(first)s over %(second)s"),
                name=name,
                first=first,
                second=_plural_words(ranks[1]),
            )
        if category is Category.TWO_PAIR:
            return _with_kickers(
                msg(
                    _("%(name)s, %(first)s and %(second)s"),
                    name=name,
                    first=first,
                    second=_plural_words(ranks[1]),
                ),
                ranks[2:],
            )
        lead = {
            Category.FOUR_OF_A_KIND: _("four %(ranks)s"),
            Category.THREE_OF_A_KIND: _("three %(ranks)s"),
            Category.PAIR: _("pair of %(ranks)s"),
        }[category]
        return _with_kickers(msg(lead, ranks=first), ranks[1:])
    first_char = rank_char(ranks[0])
    if category is Category.FULL_HOUSE:
        return msg(
            _("%(name)s %(first)s over %(second)s"),
            name=name,
            first=first_char,
            second=rank_char(ranks[1]),
        )
    if category is Category.TWO_PAIR:
        return _with_kickers(
            msg(
                _("%(name)s %(first)s and %(second)s"),
                name=name,
                first=first_char,
                second=rank_char(ranks[1]),
            ),
            ranks[2:],
        )
    # Four of a kind, three of a kind, pair: the set, then its kickers.
    return _with_kickers(msg(_("%(name)s %(first)s"), name=name, first=first_char), ranks[1:])


def _with_kickers(hand: Message, ranks: tuple[int, ...]) -> Message:
    if not ranks:
        return hand
    if len(ranks) == 1:
        return msg(_("%(hand)s, %(kickers)s kicker"), hand=hand, kickers=format_ranks(ranks))
    return msg(_("%(hand)s, %(kickers)s kickers"), hand=hand, kickers=format_ranks(ranks))
