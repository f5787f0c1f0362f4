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

Ratings are cached per rules by rank pattern and suitedness (7,462 patterns at most for five
cards of the 52-card deck, 1,404 and 840 for the 36- and 32-card decks). Five cards are rated
by one look-up keyed by the product of a prime per rank (:func:`five_card_rating`), their
suits read only to tell a flush or a card given twice; the best five of ``n`` looks every
combination up the same way. A value's ``cards`` are put in order when they are read.
:func:`five_card_rating` (Five Card Draw 7-A's :func:`~casino.rules.poker_hands.hand_value`)
returns the pattern's one shared value, without cards; :func:`best_hand` the value with them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from itertools import combinations

from casino.rules.cards import ACE, SUITS, TEN, Card, format_ranks, rank_char, rank_name
from casino.rules.messages import Message, _, msg

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


#: Makes a :class:`HandValue` without ``__init__``, its rating and cards then set directly.
_new_value = object.__new__


class _Rating:
    """What a rank pattern (ranks and suitedness) rates under one rules, shared by every hand
    of that pattern: the :class:`HandValue`'s strength, category, ranks and description, each
    rank's place for ordering the cards (None: the cards are kept as given), whether a rank
    repeats (only then can five cards hold a card twice), and the value without cards."""

    __slots__ = ("strength", "category", "ranks", "description", "place", "repeats", "bare")

    def __init__(
        self,
        strength: tuple[int, ...],
        category: Category,
        ranks: tuple[int, ...],
        description: str,
        place: dict[int, int] | None,  # rank -> 4 x its place among the hand's ranks, best first
        repeats: bool = False,
    ) -> None:
        self.strength = strength
        self.category = category
        self.ranks = ranks
        self.description = description
        self.place = place
        self.repeats = repeats
        bare = _new_value(HandValue)
        bare._rating, bare._cards = self, ()
        self.bare: HandValue = bare


class HandValue:
    """A rated hand. Compares, hashes and tests equal by ``strength`` only.

    ``ranks`` are the tiebreak ranks by importance: quads (quad, kicker); full house (trips,
    pair); straights (the top card; the low straight's is the deck's fourth lowest rank, 5 for
    A-2-3-4-5); trips (trips, kickers); two pair (high pair, low pair, kicker); pair (pair,
    kickers); flush and high card every rank, descending. Short hands have fewer kickers.
    ``strength`` is the category's place in the rules' :func:`ranking`, then ``ranks``.
    ``cards`` are the cards that make the hand, best first (sets by importance, then kickers;
    straights from the top, a low ace last); ``description`` says it as a dealer would.

    The attributes are read-only. A value is the hand's cards and its rank pattern's
    :class:`_Rating` (shared by every hand of that pattern under the same rules, so rating five
    cards builds nothing but this pair); ``cards`` are put in order when they are read.
    """

    __slots__ = ("_rating", "_cards")
    __match_args__ = ("strength", "category", "ranks", "cards", "description")

    _rating: _Rating
    _cards: tuple[Card, ...]

    def __init__(
        self,
        strength: tuple[int, ...],
        category: Category,
        ranks: tuple[int, ...],
        cards: tuple[Card, ...],
        description: str,
    ) -> None:
        self._rating = _Rating(strength, category, ranks, description, None)
        self._cards = tuple(cards)  # in the order given

    @property
    def strength(self) -> tuple[int, ...]:
        return self._rating.strength

    @property
    def category(self) -> Category:
        return self._rating.category

    @property
    def ranks(self) -> tuple[int, ...]:
        return self._rating.ranks

    @property
    def description(self) -> str:
        return self._rating.description

    @property
    def cards(self) -> tuple[Card, ...]:
        place = self._rating.place
        if place is None:
            return self._cards
        return tuple(
            sorted(self._cards, key=lambda card: place[card.rank] + _SUIT_PLACE[card.suit])
        )

    def __eq__(self, other: object) -> bool:
        if other.__class__ is HandValue:
            return self._rating.strength == other._rating.strength
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._rating.strength)

    def __lt__(self, other: HandValue) -> bool:
        if other.__class__ is HandValue:
            return self._rating.strength < other._rating.strength
        return NotImplemented

    def __le__(self, other: HandValue) -> bool:
        if other.__class__ is HandValue:
            return self._rating.strength <= other._rating.strength
        return NotImplemented

    def __gt__(self, other: HandValue) -> bool:
        if other.__class__ is HandValue:
            return self._rating.strength > other._rating.strength
        return NotImplemented

    def __ge__(self, other: HandValue) -> bool:
        if other.__class__ is HandValue:
            return self._rating.strength >= other._rating.strength
        return NotImplemented

    def __repr__(self) -> str:
        return (
            f"HandValue(strength={self.strength!r}, category={self.category!r}, "
            f"ranks={self.ranks!r}, cards={self.cards!r}, description={self.description!r})"
        )

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
    _ratings: dict[tuple[tuple[int, ...], bool], _Rating] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    #: Five cards' ratings by :func:`five_card_rating`'s key (filled as patterns come).
    _five: dict[int, _Rating] = field(default_factory=dict, init=False, repr=False, compare=False)
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
    if len(pool) == HAND_SIZE == rules.hand_size:
        return five_card_value(pool, rules)
    return _checked(pool, rules)


def _checked(pool: tuple[Card, ...], rules: HandRules) -> HandValue:
    """:func:`best_hand` the long way: every check in turn, then the rating."""
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
    five = size == HAND_SIZE
    best: tuple[Card, ...] = ()
    strongest: tuple[int, ...] = ()
    for hand in combinations(pool, size):
        strength = (_five_rating(hand, rules) if five else _rating(hand, rules)).strength
        if strength > strongest:  # the first of equal bests, as max() would keep
            best, strongest = hand, strength
    return _value(best, rules)


def _size_words(rules: HandRules) -> str:
    if rules.best_five:
        return f"at least {rules.hand_size}"
    if rules.short_hands:
        return f"at most {rules.hand_size}"
    return f"{rules.hand_size}"


# Five cards are rated by a look-up of their rank pattern in the rules' table
# (``HandRules._five``), keyed by the product of a prime per rank (the same whatever the cards'
# order: a product of primes names its factors), negated for five suited cards. 41**4 * 37 is
# the largest product, so a key is a small int. Suits are read only where they matter: five
# different ranks may be a flush (a second look-up under the negated key), and where a rank
# repeats a card may be there twice (the equal ranks' suits compared). A pattern's first hand
# is rated the long way (:func:`_checked`, every check) and its rating kept under its key: at
# most 7,462 patterns of the 52-card deck, 1,404 of the 36-card and 840 of the 32-card deck.
_PRIMES = (0, 0, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)  # by rank, 2..14


def five_card_value(cards: Sequence[Card], rules: HandRules) -> HandValue:
    """:func:`best_hand` of exactly five cards under five-card rules (``hand_size`` 5): the
    :func:`five_card_rating` with the cards.

    >>> from casino.rules.cards import parse_cards
    >>> seven_a = HandRules(lowest=7, wording=Wording.CHARACTERS)
    >>> hand = five_card_value(parse_cards("Ts 7h 8d As 9c".split(), path="c"), seven_a)
    >>> str(hand), " ".join(str(card) for card in hand.cards)
    ('straight T-high (A-7-8-9-T)', 'Ts 9c 8d 7h As')
    """
    value = _new_value(HandValue)
    value._rating = five_card_rating(cards, rules)._rating
    value._cards = tuple(cards)
    return value


def five_card_rating(cards: Sequence[Card], rules: HandRules) -> HandValue:
    """Exactly five cards rated under five-card rules (``hand_size`` 5) by one look-up of their
    rank pattern: :func:`best_hand`'s value without its ``cards`` (``()``, as
    :func:`rate_ranks`'s), one object shared by every hand of the pattern. It compares, hashes
    and reads (``strength``, ``category``, ``ranks``, ``description``) as :func:`best_hand`'s
    value of the same cards does; anything else than five distinct cards of the deck takes the
    long way and raises what :func:`best_hand` raises.

    >>> from casino.rules.cards import parse_cards
    >>> seven_a = HandRules(lowest=7, wording=Wording.CHARACTERS)
    >>> hand = five_card_rating(parse_cards("Ts 7h 8d As 9c".split(), path="c"), seven_a)
    >>> str(hand), hand.cards
    ('straight T-high (A-7-8-9-T)', ())
    """
    try:
        first, second, third, fourth, fifth = cards
        r1 = first.rank
        r2 = second.rank
        r3 = third.rank
        r4 = fourth.rank
        r5 = fifth.rank
        key = _PRIMES[r1] * _PRIMES[r2] * _PRIMES[r3] * _PRIMES[r4] * _PRIMES[r5]
        rating = rules._five[key]
        if rating.repeats:  # a rank twice: no flush, but a card may be there twice
            s1 = first.suit
            s2 = second.suit
            s3 = third.suit
            s4 = fourth.suit
            s5 = fifth.suit
            if not (
                (r1 == r2 and s1 == s2)
                or (r1 == r3 and s1 == s3)
                or (r1 == r4 and s1 == s4)
                or (r1 == r5 and s1 == s5)
                or (r2 == r3 and s2 == s3)
                or (r2 == r4 and s2 == s4)
                or (r2 == r5 and s2 == s5)
                or (r3 == r4 and s3 == s4)
                or (r3 == r5 and s3 == s5)
                or (r4 == r5 and s4 == s5)
            ):
                return rating.bare
        else:  # five ranks: suited, the pattern is the flush's
            suit = first.suit
            if (
                second.suit == suit
                and third.suit == suit
                and fourth.suit == suit
                and fifth.suit == suit
            ):
                return rules._five[-key].bare
            return rating.bare
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        pass
    # Not five cards, a rank outside the deck, a card twice, or the pattern's first hand.
    return _five_the_long_way(cards, rules)._rating.bare


def _five_the_long_way(cards: Iterable[Card], rules: HandRules) -> HandValue:
    """Every check and the rating of :func:`_checked`; the rating kept for its pattern when
    the hand is five distinct cards of the deck."""
    value = _checked(tuple(cards), rules)
    hand = value._cards
    if len(hand) == HAND_SIZE == rules.hand_size:
        rules._five[_five_key(hand)] = value._rating
    return value


def _five_key(hand: Sequence[Card]) -> int:
    """Five cards' key in ``HandRules._five``: their ranks' primes multiplied, negated when
    the five are suited."""
    first, second, third, fourth, fifth = hand
    key = (
        _PRIMES[first.rank]
        * _PRIMES[second.rank]
        * _PRIMES[third.rank]
        * _PRIMES[fourth.rank]
        * _PRIMES[fifth.rank]
    )
    suit = first.suit
    if second.suit == suit and third.suit == suit and fourth.suit == suit and fifth.suit == suit:
        return -key
    return key


def _five_rating(hand: Sequence[Card], rules: HandRules) -> _Rating:
    """The rating of five distinct cards (checked) under five-card rules, by look-up."""
    key = _five_key(hand)
    rating = rules._five.get(key)
    if rating is None:
        rating = rules._five[key] = _rating(hand, rules)
    return rating


def rate_ranks(ranks: Sequence[int], *, flush: bool, rules: HandRules = STANDARD) -> HandValue:
    """The value of up to a hand's size of ranks, suited (``flush``, a whole hand only) or
    not, without ``cards``: for counting hands by rank pattern without dealing them."""
    ordered = tuple(sorted(ranks, reverse=True))
    size = rules.hand_size
    if len(ordered) > size:
        raise ValueError(f"a rank pattern is at most {size} ranks, got {len(ordered)}")
    if not ordered:
        return NO_CARDS
    return _rate(ordered, flush and len(ordered) == size, rules).bare


# Added to a rank's place: spades first among cards of one rank (suits never rank otherwise).
_SUIT_PLACE = {suit: 3 - index for index, suit in enumerate(SUITS)}


def _rating(cards: Sequence[Card], rules: HandRules) -> _Rating:
    """The cached rating of up to a hand's size of cards' ranks and suitedness."""
    flush = len(cards) == rules.hand_size and len({card.suit for card in cards}) == 1
    ranks = sorted([card.rank for card in cards], reverse=True)
    return _rate(tuple(ranks), flush, rules)


def _value(cards: Sequence[Card], rules: HandRules) -> HandValue:
    value = _new_value(HandValue)
    value._rating = _rating(cards, rules)
    value._cards = tuple(cards)
    return value


def _rate(ranks: tuple[int, ...], flush: bool, rules: HandRules) -> _Rating:
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
    rated = _Rating(
        strength,
        category,
        tiebreak,
        description,
        {rank: 4 * index for index, rank in enumerate(best_first)},
        len(groups) < len(ranks),
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
