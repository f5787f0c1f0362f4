"""Palace Poker: the deal (clauses 1-5) and the hand's configuration, read from the record.

A hand is its :class:`PalaceConfig` (structure, small and big bet, ante, dealer, the players
with their stacks, banners and palace cards) plus its operation log. :func:`parse_config`
reads everything in the record except ``actions`` (and ``rules``, which the API passes apart)
and raises one :class:`~casino.rules.errors.RuleError` naming every problem by its path
(``players[2].palace[1]``).

The deal itself is in two pure functions a dealer tablet can use before the hand starts:

* :func:`choose_dealer` (clause 2): the highest card cut deals; tied players cut again.
* :func:`deal_banners` (clause 4): banners clockwise from the dealer's left in groups of four;
  the brief's worked examples 1 and 2 are its tests.

Choices where the brief is silent:

* ``ante`` may be left out of the record: it is then the rules' ante (clause 3, by default
  half a small bet rounded down to the smallest chip). The parsed config always holds it, so a
  rebuilt record carries it. A stated ante must agree with ``rules.ante`` when that is set.
* ``dealer`` is any seat number; play and the banner groups start with the first player
  clockwise from it, so an empty dealer seat (a house dealer's button) works too.
* Stacks are the chips before the ante and must cover it. ``big_bet`` is at least the small
  bet.
* The banners in a record are checked against clause 4's only lasting effect: within each
  group (players 1-4, 5-8, 9-10 from the dealer's left) the suits differ.

The betting :class:`~casino.rules.palace_poker.rules.Structure` is a table limit, kept with
the rules in :mod:`casino.rules.palace_poker.rules` (and importable from here as before).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from casino.rules.cards import (
    SUIT_NAMES,
    Card,
    CardGroup,
    check_distinct,
    parse_card,
    parse_cards,
    read_cards,
)
from casino.rules.errors import RuleError
from casino.rules.messages import Message, Money, _, msg, prefixed, seat_words
from casino.rules.options import MAX_AMOUNT
from casino.rules.palace_poker.rules import STRUCTURES, PalaceRules, Structure
from casino.rules.pots import clockwise_from
from casino.rules.reading import RecordReader

PALACE_SIZE = 3
FEWEST_PLAYERS = 2
MOST_PLAYERS = 10
GROUP_SIZE = 4


@dataclass(frozen=True, slots=True)
class PlayerConfig:
    """A player dealt in: seat, stack before the ante, banner (face up), palace (face down)."""

    seat: int
    stack: int
    banner: Card
    palace: tuple[Card, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "stack": self.stack,
            "banner": str(self.banner),
            "palace": [str(card) for card in self.palace],
        }


@dataclass(frozen=True, slots=True)
class PalaceConfig:
    """Everything in the record except the actions and the rules."""

    structure: Structure
    small_bet: int
    big_bet: int
    ante: int
    dealer: int
    players: tuple[PlayerConfig, ...]

    @property
    def order(self) -> tuple[int, ...]:
        """The seats clockwise from the dealer's left: the order of the deal and of play."""
        return tuple(clockwise_from(self.dealer, [player.seat for player in self.players]))

    def player(self, seat: int) -> PlayerConfig:
        return next(player for player in self.players if player.seat == seat)

    def to_dict(self) -> dict[str, Any]:
        """The record's fields (without ``actions``); ``parse_config`` reads it back."""
        return {
            "structure": str(self.structure),
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
            "ante": self.ante,
            "dealer": self.dealer,
            "players": [player.to_dict() for player in self.players],
        }


# --------------------------------------------------------------------------- the deal


def seats_words(seats: Sequence[int]) -> Message:
    """``seats_words([1, 2, 5]) == "seats 1, 2 and 5"``; one seat is ``"seat 1"`` (a
    message)."""
    numbers = [str(seat) for seat in seats]
    if len(numbers) == 1:
        return msg(_("seat %(seat)s"), seat=seats[0])
    return msg(_("seats %(seats)s and %(last)s"), seats=", ".join(numbers[:-1]), last=seats[-1])


def _players_dealt_in(count: int) -> Message:
    return msg(
        _("%(least)s to %(most)s players are dealt in, got %(count)s"),
        least=FEWEST_PLAYERS,
        most=MOST_PLAYERS,
        count=count,
    )


def group_of(position: int) -> int:
    """Clause 4: the banner group (0, 1, 2) of the player ``position`` places from the dealer's
    left (0 is the first)."""
    return position // GROUP_SIZE


def choose_dealer(cuts: Sequence[Mapping[int, Card]]) -> int:
    """Clause 2: the first dealer from the cuts, round by round.

    ``cuts[0]`` maps every player's seat to the card it cut; the highest rank deals (suits do
    not rank). Players tied for the highest cut again, and ``cuts[1]`` must hold exactly
    those players, and so on. Raises :class:`RuleError` when the rounds given end in a tie or
    a round has the wrong players.

    >>> from casino.rules.cards import parse_card as c
    >>> choose_dealer([{1: c("Kh"), 2: c("Ks"), 3: c("9d")}, {1: c("4c"), 2: c("Jd")}])
    2
    """
    if not cuts:
        raise RuleError(msg(_("the first dealer needs at least one round of cuts")), "cuts")
    expected: set[int] | None = None
    for index, round_ in enumerate(cuts):
        path = f"cuts[{index}]"
        if expected is not None and set(round_) != expected:
            raise RuleError(
                msg(
                    _("round %(round)s: only the tied players cut again (%(seats)s)"),
                    round=index + 1,
                    seats=seats_words(sorted(expected)),
                ),
                path,
            )
        if len(round_) < 1 or (expected is None and len(round_) < FEWEST_PLAYERS):
            raise RuleError(msg(_("at least two players cut for the deal")), path)
        cards = list(round_.values())
        if len(set(cards)) != len(cards):
            raise RuleError(msg(_("round %(round)s: a card appears twice"), round=index + 1), path)
        best = max(card.rank for card in cards)
        tied = {seat for seat, card in round_.items() if card.rank == best}
        if len(tied) == 1:
            return tied.pop()
        expected = tied
    assert expected is not None
    raise RuleError(
        msg(
            _("%(seats)s are still tied for the highest card: they cut again"),
            seats=seats_words(sorted(expected)),
        ),
        "cuts",
    )


def deal_banners(
    deck: Sequence[Card],
    seats_in_order: Sequence[int],
    reshuffle: Callable[[Sequence[Card]], Sequence[Card]] | None = None,
) -> tuple[dict[int, Card], list[Card]]:
    """Clause 4: deal the banners face up from ``deck`` (top card first).

    ``seats_in_order`` are the players clockwise from the dealer's left. Players 1-4 form a
    group, 5-8 a second, 9-10 a third; each player is dealt cards one at a time until one has
    a suit not yet used in its group, and the others are discarded. If the deck runs out the
    discarded banner cards are shuffled and dealing continues: ``reshuffle`` receives the
    discards in the order they were discarded and returns them in their new order (top
    first); without it they are dealt again in discard order (a test's "stacked" shuffle).

    Returns the banners by seat and the cards discarded and not dealt again since the last
    reshuffle, in discard order. Raises :class:`RuleError` for 1 or more than 10 players, a
    repeated seat or card, or when no card of a free suit is left to deal.

    Worked example 1: deck 7h 9h Kc 2c 5h Qd, three players: 7h; 9h discarded, Kc; 2c and 5h
    discarded, Qd.
    """
    seats = list(seats_in_order)
    if not FEWEST_PLAYERS <= len(seats) <= MOST_PLAYERS:
        raise RuleError(_players_dealt_in(len(seats)))
    if len(set(seats)) != len(seats):
        raise RuleError(msg(_("a seat is listed twice")))
    pile = list(deck)
    if len(set(pile)) != len(pile):
        raise RuleError(msg(_("a card appears twice in the deck")))
    banners: dict[int, Card] = {}
    discards: list[Card] = []
    top = 0
    for position, seat in enumerate(seats):
        start = position - position % GROUP_SIZE
        used = {banners[other].suit for other in seats[start:position]}
        while True:
            if top == len(pile):
                if not any(card.suit not in used for card in discards):
                    raise RuleError(
                        msg(
                            _(
                                "seat %(seat)s: no card of a suit still free in its group is "
                                "left to deal"
                            ),
                            seat=seat,
                        )
                    )
                order = list(reshuffle(list(discards))) if reshuffle else list(discards)
                if sorted(order) != sorted(discards):
                    raise RuleError(
                        msg(_("the reshuffle must return exactly the discarded banner cards"))
                    )
                pile, top, discards = order, 0, []
            card = pile[top]
            top += 1
            if card.suit in used:
                discards.append(card)
            else:
                banners[seat] = card
                break
    return banners, discards


# --------------------------------------------------------------------------- the record

RECORD_KEYS = ("structure", "small_bet", "big_bet", "ante", "dealer", "players", "actions", "rules")
PLAYER_KEYS = ("seat", "stack", "banner", "palace")
_RECORD_KEYS = frozenset(RECORD_KEYS)
_PLAYER_KEYS = frozenset(PLAYER_KEYS)


def parse_config(record: Mapping[str, Any], rules: PalaceRules) -> PalaceConfig:
    """Read and check the record's configuration (clauses 1, 3-5); every problem at once."""
    quick = _quick_config(record, rules)
    if quick is not None:
        return quick
    return _parse_config(record, rules)


def _amount(value: object, chip: int, least: int) -> bool:
    """``RecordReader.money(value, ..., least=least)`` finds no problem (plain ints only)."""
    return type(value) is int and least <= value <= MAX_AMOUNT and not value % chip


def _quick_config(record: Mapping[str, Any], rules: PalaceRules) -> PalaceConfig | None:
    """What :func:`_parse_config` reads from a record it finds nothing wrong with, read
    without the words of its problems (a stored hand's set-up, replayed by every audit
    check, is nearly always such a record); None for a record with anything unusual, which
    :func:`_parse_config` reads again and names every problem of. It accepts exactly what
    that accepts, or less."""
    if type(record) is not dict or not _RECORD_KEYS.issuperset(record):
        return None
    chip = rules.smallest_chip
    raw_structure = record.get("structure")
    small_bet, big_bet = record.get("small_bet"), record.get("big_bet")
    dealer = record.get("dealer")
    raw_players = record.get("players")
    if (
        type(raw_structure) is not str
        or raw_structure not in STRUCTURES
        or not _amount(small_bet, chip, 1)
        or not _amount(big_bet, chip, 1)
        or big_bet < small_bet  # type: ignore[operator]
        or type(dealer) is not int
        or not 1 <= dealer <= MAX_AMOUNT
        or type(raw_players) is not list
        or not FEWEST_PLAYERS <= len(raw_players) <= MOST_PLAYERS
    ):
        return None
    assert type(small_bet) is int and type(big_bet) is int
    raw_ante = record.get("ante")
    if raw_ante is None:
        ante = rules.ante_for(small_bet)
    elif not _amount(raw_ante, chip, 0) or (rules.ante is not None and raw_ante != rules.ante):
        return None
    else:
        ante = raw_ante
    players: list[PlayerConfig] = []
    seen: set[Card] = set()
    banners: dict[int, Card] = {}
    for raw in raw_players:
        if type(raw) is not dict or not _PLAYER_KEYS.issuperset(raw):
            return None
        number, stack = raw.get("seat"), raw.get("stack")
        banner, palace = raw.get("banner"), raw.get("palace")
        if (
            type(number) is not int
            or not 1 <= number <= MAX_AMOUNT
            or number in banners
            or not _amount(stack, chip, 0)
            or stack < ante  # type: ignore[operator]
            or type(banner) is not str
            or type(palace) is not list
            or len(palace) != PALACE_SIZE
        ):
            return None
        assert type(stack) is int
        cards = read_cards([banner, *palace])  # each plainly written, or None
        if cards is None:
            return None
        seen.update(cards)
        banners[number] = cards[0]
        players.append(PlayerConfig(number, stack, cards[0], tuple(cards[1:])))
    if len(seen) != len(players) * (PALACE_SIZE + 1):
        return None  # a card twice
    order = clockwise_from(dealer, list(banners))
    for start in range(0, len(order), GROUP_SIZE):
        group = order[start : start + GROUP_SIZE]
        if len({banners[seat].suit for seat in group}) != len(group):
            return None  # two banners of a suit in one group
    return PalaceConfig(
        structure=Structure(raw_structure),
        small_bet=small_bet,
        big_bet=big_bet,
        ante=ante,
        dealer=dealer,
        players=tuple(sorted(players, key=lambda player: player.seat)),
    )


def _parse_config(record: Mapping[str, Any], rules: PalaceRules) -> PalaceConfig:
    """:func:`parse_config`, reading every field and naming every problem."""
    if not isinstance(record, Mapping):
        raise RuleError(
            msg(
                _(
                    "the hand record must be an object with structure, small_bet, big_bet, "
                    "dealer, players"
                )
            )
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
            msg(_("structure %(value)s is not one of limit, no_limit"), value=repr(raw_structure)),
        )
    small_bet = read.money(record.get("small_bet"), "small_bet", Message(_("small bet")))
    big_bet = read.money(record.get("big_bet"), "big_bet", Message(_("big bet")))
    if small_bet is not None and big_bet is not None and big_bet < small_bet:
        problems.add(
            "big_bet",
            msg(
                _("big bet %(big)s is less than the small bet %(small)s"),
                big=Money(big_bet),
                small=Money(small_bet),
            ),
        )
    ante: int | None = None
    if record.get("ante") is None:
        if small_bet is not None:
            ante = rules.ante_for(small_bet)
    else:
        ante = read.money(record.get("ante"), "ante", Message(_("ante")), least=0)
        if ante is not None and rules.ante is not None and ante != rules.ante:
            problems.add(
                "ante",
                msg(
                    _("the record's ante %(ante)s is not the rules' ante %(rules_ante)s"),
                    ante=Money(ante),
                    rules_ante=Money(rules.ante),
                ),
            )
            ante = None
    dealer = read.whole(record.get("dealer"), "dealer", Message(_("dealer (a seat number)")))

    players: list[PlayerConfig] = []
    numbers: list[int] = []
    groups: list[CardGroup] = []
    banner_paths: dict[int, tuple[str, Card]] = {}
    raw_players = record.get("players")
    if isinstance(raw_players, str) or not isinstance(raw_players, Sequence):
        problems.add("players", msg(_("players must be a list of the players dealt in")))
        raw_players = []
    elif not FEWEST_PLAYERS <= len(raw_players) <= MOST_PLAYERS:
        problems.add("players", _players_dealt_in(len(raw_players)))
    for index, raw in enumerate(raw_players):
        path = f"players[{index}]"
        if not isinstance(raw, Mapping):
            problems.add(
                path,
                msg(
                    _("player %(number)s must be an object with seat, stack, banner, palace"),
                    number=index + 1,
                ),
            )
            continue
        read.unknown(raw, PLAYER_KEYS, path)
        entry = msg(_("player %(number)s"), number=index + 1)
        number = read.whole(raw.get("seat"), f"{path}.seat", prefixed(entry, Message(_("seat"))))
        if number is not None and number in numbers:
            problems.add(f"{path}.seat", msg(_("seat %(seat)s is listed twice"), seat=number))
            number = None
        if number is not None:
            numbers.append(number)
        who = seat_words(number) if number is not None else entry
        stack = read.money(
            raw.get("stack"), f"{path}.stack", prefixed(who, Message(_("stack"))), least=0
        )
        if stack is not None and ante is not None and stack < ante:
            problems.add(
                f"{path}.stack",
                prefixed(
                    who,
                    msg(
                        _("stack %(stack)s cannot cover the ante %(ante)s"),
                        stack=Money(stack),
                        ante=Money(ante),
                    ),
                ),
            )
            stack = None
        banner: Card | None = None
        if raw.get("banner") is None:
            problems.add(f"{path}.banner", prefixed(who, msg(_("banner is missing"))))
        else:
            try:
                banner = parse_card(raw.get("banner"))
            except RuleError as error:
                problems.add(f"{path}.banner", prefixed(who, error.problems[0].message))
        palace: tuple[Card, ...] | None = None
        raw_palace = raw.get("palace")
        if raw_palace is None:
            problems.add(f"{path}.palace", prefixed(who, msg(_("palace cards are missing"))))
        else:
            try:
                palace = parse_cards(raw_palace, path=f"{path}.palace", count=PALACE_SIZE, who=who)
            except RuleError as error:
                problems.extend(error)
        readable: list[Card | None] = []
        if isinstance(raw_palace, Sequence) and not isinstance(raw_palace, str):
            for value in raw_palace:
                try:
                    readable.append(parse_card(value))
                except RuleError:
                    readable.append(None)
        groups.append(CardGroup(msg(_("%(who)s's banner"), who=who), f"{path}.banner", [banner]))
        groups.append(CardGroup(msg(_("%(who)s's palace"), who=who), f"{path}.palace", readable))
        if number is not None and banner is not None:
            banner_paths[number] = (f"{path}.banner", banner)
        if number is not None and stack is not None and banner is not None and palace is not None:
            players.append(PlayerConfig(number, stack, banner, palace))
    try:
        check_distinct(groups)
    except RuleError as error:
        # A banner is one card: report it at players[i].banner, not players[i].banner[0].
        for problem in error.problems:
            problems.add(problem.path.replace(".banner[0]", ".banner"), problem.message)
    if dealer is not None:
        order = clockwise_from(dealer, list(banner_paths))
        for position, seat in enumerate(order):
            start = position - position % GROUP_SIZE
            path, banner = banner_paths[seat]
            for other in order[start:position]:
                if banner_paths[other][1].suit == banner.suit:
                    first = GROUP_SIZE * group_of(position) + 1
                    last = min(first + GROUP_SIZE - 1, MOST_PLAYERS)
                    problems.add(
                        path,
                        msg(
                            _(
                                "seat %(seat)s's banner %(banner)s has the suit of seat "
                                "%(other)s's banner %(other_banner)s (%(suit)s): players "
                                "%(first)s-%(last)s from the dealer's left need different suits"
                            ),
                            seat=seat,
                            banner=str(banner),
                            other=other,
                            other_banner=str(banner_paths[other][1]),
                            suit=Message(SUIT_NAMES[banner.suit]),
                            first=first,
                            last=last,
                        ),
                    )
                    break

    problems.raise_if_any()
    assert structure is not None and small_bet is not None and big_bet is not None
    assert ante is not None and dealer is not None
    return PalaceConfig(
        structure=structure,
        small_bet=small_bet,
        big_bet=big_bet,
        ante=ante,
        dealer=dealer,
        players=tuple(sorted(players, key=lambda player: player.seat)),
    )
