"""Five Card Draw 7-A: the hand's configuration, read from the record and checked in full.

A hand is its :class:`HandConfig` (structure, blinds, button, the seats dealt in with their
stacks and first five cards, the posts) plus its operation log. :func:`parse_config` reads
everything in the record except ``actions`` (and ``rules``, which the API passes apart), and
raises one :class:`~casino.rules.errors.RuleError` naming every problem by its path
(``seats[2].cards[4]``, ``posts[1].amount``).

Choices where the brief is silent (see also :mod:`casino.rules.five_card_draw.hand`):

* ``posts`` left out means standard blinds: the small blind left of the button, the big blind
  next; heads-up with the button dealt in, the button posts the small blind. The parsed
  config always holds the posts explicitly, so a rebuilt record carries them.
* Given posts: exactly one ``big_blind`` (round 1 starts left of it), at most one
  ``small_blind``; ``small_blind`` is the small blind's amount, ``big_blind`` and ``live`` the
  big blind's; ``dead`` is any positive amount. A seat has at most one of small blind, big
  blind and live, and at most one dead post. The button may be an empty seat (a dead button).
* Stacks are the chips before posting; a seat that cannot post in full posts all-in.
* ``big_bet`` is required in limit (at least the big blind) and, when given, checked in the
  other structures too, where it is not used.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from casino.rules.cards import (
    Card,
    CardGroup,
    check_distinct,
    parse_cards,
    readable_cards,
    short_deck,
)
from casino.rules.errors import RuleError
from casino.rules.five_card_draw.rules import DrawRules
from casino.rules.five_card_draw.values import DECK_SETS, HAND_SIZE, SIXES_PLAYERS, deck_words
from casino.rules.messages import Message, Money, _, msg, prefixed, seat_words
from casino.rules.pots import clockwise_from
from casino.rules.reading import RecordReader

FEWEST_PLAYERS = 2
MOST_PLAYERS = 5


class Structure(StrEnum):
    LIMIT = "limit"
    POT_LIMIT = "pot_limit"
    NO_LIMIT = "no_limit"

    @property
    def words(self) -> str:
        return self.value.replace("_", " ")


class PostType(StrEnum):
    SMALL_BLIND = "small_blind"
    BIG_BLIND = "big_blind"
    LIVE = "live"
    DEAD = "dead"

    @property
    def words(self) -> str:
        return {
            PostType.SMALL_BLIND: _("small blind"),
            PostType.BIG_BLIND: _("big blind"),
            PostType.LIVE: _("live big blind"),
            PostType.DEAD: _("dead blind"),
        }[self]

    @property
    def is_bet(self) -> bool:
        """Live posts count as the seat's bet in round 1; dead money does not."""
        return self is not PostType.DEAD


#: The structures and post types, for checking a value is one (``x in STRUCTURES``).
STRUCTURES = tuple(Structure)
POST_TYPES = tuple(PostType)


@dataclass(frozen=True, slots=True)
class SeatConfig:
    """A seat dealt in: its number, its stack before posting, its first five cards."""

    seat: int
    stack: int
    cards: tuple[Card, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "stack": self.stack, "cards": [str(c) for c in self.cards]}


@dataclass(frozen=True, slots=True)
class Post:
    """A blind or dead money posted before the deal; ``amount`` is what is owed."""

    seat: int
    type: PostType
    amount: int

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": str(self.type), "amount": self.amount}


@dataclass(frozen=True, slots=True)
class HandConfig:
    """Everything in the record except the actions and the rules."""

    structure: Structure
    small_blind: int
    big_blind: int
    big_bet: int | None
    button: int
    seats: tuple[SeatConfig, ...]
    posts: tuple[Post, ...]

    @property
    def with_sixes(self) -> bool:
        """Clause 1: the 36-card deck when five players are dealt in."""
        return len(self.seats) == SIXES_PLAYERS

    @property
    def deck(self) -> tuple[Card, ...]:
        return short_deck(self.with_sixes)

    @property
    def big_blind_seat(self) -> int:
        return next(post.seat for post in self.posts if post.type is PostType.BIG_BLIND)

    def to_dict(self) -> dict[str, Any]:
        """The record's fields (without ``actions``); ``parse_config`` reads it back."""
        return {
            "structure": str(self.structure),
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "big_bet": self.big_bet,
            "button": self.button,
            "seats": [seat.to_dict() for seat in self.seats],
            "posts": [post.to_dict() for post in self.posts],
        }


def clockwise_after(seat: int, seats: Sequence[int]) -> list[int]:
    """``seats`` clockwise starting with the first one left of ``seat`` (``seat`` itself last)."""
    return clockwise_from(seat, seats)


def standard_posts(
    button: int, seats: Sequence[int], small_blind: int, big_blind: int
) -> tuple[Post, ...]:
    """Clause 5: small blind left of the button, big blind next; heads-up the button posts the
    small blind (when the button is dealt in)."""
    if len(seats) == 2 and button in seats:
        small = button
        big = next(seat for seat in seats if seat != button)
    else:
        small, big = clockwise_after(button, seats)[:2]
    return (
        Post(small, PostType.SMALL_BLIND, small_blind),
        Post(big, PostType.BIG_BLIND, big_blind),
    )


RECORD_KEYS = (
    "structure",
    "small_blind",
    "big_blind",
    "big_bet",
    "button",
    "seats",
    "posts",
    "actions",
    "rules",
)
SEAT_KEYS = ("seat", "stack", "cards")
POST_KEYS = ("seat", "type", "amount")


def parse_config(record: Mapping[str, Any], rules: DrawRules) -> HandConfig:
    """Read and check the record's configuration (clauses 1, 5, 6); every problem at once."""
    if not isinstance(record, Mapping):
        raise RuleError(
            msg(_("the hand record must be an object with structure, blinds, button, seats"))
        )
    read = RecordReader(rules.smallest_chip)
    problems = read.problems
    read.unknown(record, RECORD_KEYS, "")

    raw_structure = record.get("structure")
    structure: Structure | None = None
    if raw_structure in STRUCTURES:
        structure = Structure(raw_structure)
    else:
        problems.add(
            "structure",
            msg(
                _("structure %(value)s is not one of limit, pot_limit, no_limit"),
                value=repr(raw_structure),
            ),
        )
    small_blind = read.money(record.get("small_blind"), "small_blind", Message(_("small blind")))
    big_blind = read.money(record.get("big_blind"), "big_blind", Message(_("big blind")))
    if small_blind is not None and big_blind is not None and small_blind > big_blind:
        problems.add(
            "small_blind",
            msg(
                _("small blind %(small)s is more than the big blind %(big)s"),
                small=Money(small_blind),
                big=Money(big_blind),
            ),
        )
    big_bet: int | None = None
    if structure is Structure.LIMIT or record.get("big_bet") is not None:
        big_bet = read.money(
            record.get("big_bet"), "big_bet", Message(_("big bet (the post-draw limit bet)"))
        )
        if big_bet is not None and big_blind is not None and big_bet < big_blind:
            problems.add(
                "big_bet",
                msg(
                    _("big bet %(big_bet)s is less than the small bet (big blind) %(big)s"),
                    big_bet=Money(big_bet),
                    big=Money(big_blind),
                ),
            )
    button = read.whole(record.get("button"), "button", Message(_("button (a seat number)")))

    seats: list[SeatConfig] = []
    numbers: list[int] = []
    groups: list[CardGroup] = []
    raw_seats = record.get("seats")
    if isinstance(raw_seats, str) or not isinstance(raw_seats, Sequence):
        problems.add("seats", msg(_("seats must be a list of the players dealt in")))
        raw_seats = []
    elif not FEWEST_PLAYERS <= len(raw_seats) <= MOST_PLAYERS:
        problems.add(
            "seats",
            msg(
                _("%(least)s to %(most)s players are dealt in, got %(count)s"),
                least=FEWEST_PLAYERS,
                most=MOST_PLAYERS,
                count=len(raw_seats),
            ),
        )
    with_sixes = len(raw_seats) == SIXES_PLAYERS
    deck = DECK_SETS[with_sixes]
    for index, raw in enumerate(raw_seats):
        path = f"seats[{index}]"
        if not isinstance(raw, Mapping):
            problems.add(
                path,
                msg(
                    _("seat entry %(number)s must be an object with seat, stack, cards"),
                    number=index + 1,
                ),
            )
            continue
        read.unknown(raw, SEAT_KEYS, path)
        entry = msg(_("seat entry %(number)s"), number=index + 1)
        number = read.whole(raw.get("seat"), f"{path}.seat", prefixed(entry, Message(_("seat"))))
        if number is not None and number in numbers:
            problems.add(f"{path}.seat", msg(_("seat %(seat)s is listed twice"), seat=number))
            number = None
        if number is not None:
            numbers.append(number)
        who = seat_words(number) if number is not None else entry
        stack = read.money(raw.get("stack"), f"{path}.stack", prefixed(who, Message(_("stack"))))
        cards: tuple[Card, ...] | None = None
        raw_cards = raw.get("cards")
        if raw_cards is None:
            problems.add(f"{path}.cards", prefixed(who, msg(_("cards are missing"))))
        else:
            try:
                cards = parse_cards(raw_cards, path=f"{path}.cards", count=HAND_SIZE, who=who)
            except RuleError as error:
                problems.extend(error)
        readable: list[Card | None] = []
        if isinstance(raw_cards, Sequence) and not isinstance(raw_cards, str):
            # The cards read (all of them when the seat's are good), in place.
            readable = list(cards) if cards is not None else readable_cards(raw_cards)
            for place, card in enumerate(readable):
                if card is None:
                    continue
                if card not in deck:
                    problems.add(
                        f"{path}.cards[{place}]",
                        prefixed(
                            who,
                            msg(
                                _("%(card)s is not in %(deck)s"),
                                card=str(card),
                                deck=deck_words(with_sixes),
                            ),
                        ),
                    )
                    cards = None
        groups.append(CardGroup(who, f"{path}.cards", readable))
        if number is not None and stack is not None and cards is not None:
            seats.append(SeatConfig(number, stack, cards))
    try:
        check_distinct(groups)
    except RuleError as error:
        problems.extend(error)

    posts: tuple[Post, ...] = ()
    raw_posts = record.get("posts")
    if raw_posts is None:
        if button is not None and len(numbers) >= FEWEST_PLAYERS and small_blind and big_blind:
            posts = standard_posts(button, numbers, small_blind, big_blind)
    else:
        posts = _parse_posts(raw_posts, numbers, small_blind, big_blind, read)

    problems.raise_if_any()
    assert structure is not None and small_blind is not None and big_blind is not None
    assert button is not None
    return HandConfig(
        structure=structure,
        small_blind=small_blind,
        big_blind=big_blind,
        big_bet=big_bet,
        button=button,
        seats=tuple(seats),
        posts=posts,
    )


def _parse_posts(
    raw_posts: object,
    numbers: Sequence[int],
    small_blind: int | None,
    big_blind: int | None,
    read: RecordReader,
) -> tuple[Post, ...]:
    problems = read.problems
    if isinstance(raw_posts, str) or not isinstance(raw_posts, Sequence):
        problems.add(
            "posts", msg(_("posts must be a list such as [{'seat': 2, 'type': 'big_blind', ...}]"))
        )
        return ()
    posts: list[Post] = []
    live_posters: set[int] = set()
    dead_posters: set[int] = set()
    counts = {PostType.SMALL_BLIND: 0, PostType.BIG_BLIND: 0}
    for index, raw in enumerate(raw_posts):
        path = f"posts[{index}]"
        if not isinstance(raw, Mapping):
            problems.add(
                path,
                msg(
                    _("post %(number)s must be an object with seat, type, amount"), number=index + 1
                ),
            )
            continue
        read.unknown(raw, POST_KEYS, path)
        entry = msg(_("post %(number)s"), number=index + 1)
        seat = read.whole(raw.get("seat"), f"{path}.seat", prefixed(entry, Message(_("seat"))))
        if seat is not None and seat not in numbers:
            problems.add(
                f"{path}.seat", msg(_("seat %(seat)s posts but is not dealt in"), seat=seat)
            )
            seat = None
        raw_type = raw.get("type")
        kind: PostType | None = None
        if raw_type in POST_TYPES:
            kind = PostType(raw_type)
        else:
            problems.add(
                f"{path}.type",
                msg(
                    _("post type %(value)s is not one of small_blind, big_blind, live, dead"),
                    value=repr(raw_type),
                ),
            )
        who = seat_words(seat) if seat is not None else entry
        amount = read.money(raw.get("amount"), f"{path}.amount", prefixed(who, Message(_("post"))))
        if kind is None:
            continue
        if kind in counts:
            counts[kind] += 1
            if counts[kind] > 1:
                problems.add(
                    f"{path}.type",
                    msg(
                        _("only one %(post)s is posted, this is another"),
                        post=Message(kind.words),
                    ),
                )
        expected = {
            PostType.SMALL_BLIND: small_blind,
            PostType.BIG_BLIND: big_blind,
            PostType.LIVE: big_blind,
        }.get(kind)
        if amount is not None and expected is not None and amount != expected:
            problems.add(
                f"{path}.amount",
                prefixed(
                    who,
                    msg(
                        _(
                            "the %(post)s is %(expected)s, not %(amount)s (a seat that cannot "
                            "post in full posts all-in by itself)"
                        ),
                        post=Message(kind.words),
                        expected=Money(expected),
                        amount=Money(amount),
                    ),
                ),
            )
            amount = None
        if seat is not None:
            posters = live_posters if kind.is_bet else dead_posters
            if seat in posters:
                problems.add(
                    path,
                    msg(
                        _("%(who)s already has a dead post")
                        if kind is PostType.DEAD
                        else _("%(who)s already has a blind or live post"),
                        who=who,
                    ),
                )
            posters.add(seat)
        if seat is not None and amount is not None:
            posts.append(Post(seat, kind, amount))
    if counts[PostType.BIG_BLIND] == 0:
        problems.add(
            "posts", msg(_("posts must include the big blind (round 1 starts left of it)"))
        )
    return tuple(posts)
