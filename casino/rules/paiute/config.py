"""Paiute: a hand's configuration, the deal the dealer enters before the first turn.

:class:`PaiuteConfig` is what the dealer enters before the first turn: the dealer, the seats
dealt in, the ante, each seat's five cards and the upcard (and, under the clause 3 option,
the card that starts the discard pile). :func:`check_config` checks it against the rules
(clauses 1-3), every problem with its path.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from casino.rules.cards import Card, CardGroup, check_distinct, parse_card, parse_cards
from casino.rules.errors import Problems, RuleError
from casino.rules.messages import Message, _, msg, prefixed, seat_words
from casino.rules.options import is_int
from casino.rules.paiute.rules import HAND_SIZE, PaiuteRules, check_ante
from casino.rules.pots import clockwise_from
from casino.rules.rule_titles import paiute_rule


@dataclass(frozen=True, slots=True)
class PaiuteConfig:
    """One hand before the first turn: what the dealer enters.

    ``players`` are the seats dealt in, the dealer's included (the dealer plays too), kept
    in play order;
    ``hands`` each seat's five cards; ``upcard`` the card turned after the deal, whose rank
    is wild and which lies at the bottom of the stock (clause 2); ``first_discard`` the card
    turned to start the discard pile under the clause 3 option (None otherwise).
    """

    dealer: int
    players: tuple[int, ...]
    ante: int
    hands: Mapping[int, tuple[Card, ...]] = field(hash=False)
    upcard: Card
    first_discard: Card | None = None

    def __post_init__(self) -> None:
        # Kept in play order (clockwise from the dealer's left), however they were listed.
        object.__setattr__(self, "players", tuple(clockwise_from(self.dealer, self.players)))
        object.__setattr__(
            self, "hands", {seat: tuple(cards) for seat, cards in self.hands.items()}
        )

    @property
    def play_order(self) -> tuple[int, ...]:
        """Clockwise from the dealer's left, the dealer last (clause 3)."""
        return tuple(clockwise_from(self.dealer, self.players))

    @property
    def wild_rank(self) -> int:
        return self.upcard.rank

    @property
    def pot(self) -> int:
        return self.ante * len(self.players)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; seats as the keys of ``hands`` are text, as JSON objects need."""
        return {
            "dealer": self.dealer,
            "players": list(self.play_order),
            "ante": self.ante,
            "hands": {
                str(seat): [str(card) for card in self.hands[seat]]
                for seat in self.play_order
                if seat in self.hands
            },
            "upcard": str(self.upcard),
            "first_discard": str(self.first_discard) if self.first_discard is not None else None,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PaiuteConfig:
        """Read ``{"dealer": 4, "players": [1, 2, 3, 4], "ante": 500, "hands": {"1": [five
        cards], ...}, "upcard": "3c", "first_discard": null}``; shapes and cards only,
        :func:`check_config` checks it against the rules."""
        if not isinstance(data, Mapping):
            raise RuleError(
                msg(_("the configuration must be an object with dealer, players and hands"))
            )
        problems = Problems()
        known = ("dealer", "players", "ante", "hands", "upcard", "first_discard")
        for key in data:
            if key not in known:
                problems.add(str(key), msg(_("unknown field '%(key)s'"), key=str(key)))
        dealer = data.get("dealer")
        if not is_int(dealer):
            problems.add(
                "dealer",
                msg(_("the dealer must be a seat number, got %(value)s"), value=repr(dealer)),
            )
        players = data.get("players")
        if isinstance(players, str | bytes) or not isinstance(players, Sequence):
            problems.add("players", msg(_("players must be a list of seat numbers")))
            players = []
        for index, seat in enumerate(players):
            if not is_int(seat):
                problems.add(
                    f"players[{index}]",
                    msg(_("a player is a seat number, got %(value)s"), value=repr(seat)),
                )
        ante = data.get("ante")
        if not is_int(ante):
            problems.add(
                "ante", msg(_("the ante must be a whole amount, got %(value)s"), value=repr(ante))
            )
        hands: dict[int, tuple[Card, ...]] = {}
        raw_hands = data.get("hands")
        if not isinstance(raw_hands, Mapping):
            problems.add("hands", msg(_("hands must be an object of each seat's five cards")))
        else:
            for key, cards in raw_hands.items():
                seat = _seat_key(key)
                if seat is None:
                    problems.add(
                        f"hands.{key}",
                        msg(_("hands are listed by seat number, got %(value)s"), value=repr(key)),
                    )
                    continue
                try:
                    hands[seat] = parse_cards(cards, path=f"hands.{key}", who=seat_words(seat))
                except RuleError as error:
                    problems.extend(error)
        upcard = _read_card(data.get("upcard"), "upcard", Message(_("the upcard")), problems)
        first = data.get("first_discard")
        first_discard = None
        if first is not None:
            first_discard = _read_card(
                first, "first_discard", Message(_("the first discard")), problems
            )
        problems.raise_if_any()
        assert is_int(dealer) and is_int(ante) and upcard is not None
        return cls(dealer, tuple(players), ante, hands, upcard, first_discard)


def _seat_key(key: object) -> int | None:
    if is_int(key):
        return key
    if isinstance(key, str) and key.strip().isdigit():
        return int(key)
    return None


def _read_card(value: object, path: str, words: str, problems: Problems) -> Card | None:
    if value is None:
        problems.add(path, msg(_("%(name)s is missing"), name=words))
        return None
    try:
        return parse_card(value)
    except RuleError as error:
        problems.add(path, prefixed(words, error.problems[0].message))
        return None


def check_config(
    config: PaiuteConfig, rules: PaiuteRules, *, paths: Mapping[str, str] | None = None
) -> None:
    """Clauses 1-3: 2-5 players (the table's limits), the dealer among them, an equal ante
    within the limits, five distinct cards each, the upcard (and first discard) not dealt."""
    where = {
        "dealer": "dealer",
        "players": "players",
        "ante": "ante",
        "hands": "hands",
        "upcard": "upcard",
        "first_discard": "first_discard",
        **(paths or {}),
    }
    problems = Problems()
    seats: list[int] = []
    for seat in config.players:
        if seat < 1:
            problems.add(
                where["players"], msg(_("seat numbers start at 1, got %(seat)s"), seat=seat)
            )
        elif seat in seats:
            problems.add(where["players"], msg(_("seat %(seat)s is listed twice"), seat=seat))
        else:
            seats.append(seat)
    count = len(config.players)
    if not rules.min_players <= count <= rules.max_players:
        problems.add(
            where["players"],
            msg(
                _(
                    "%(count)s players dealt in: Paiute is played by %(least)s to %(most)s "
                    "(%(rule)s)"
                ),
                count=count,
                least=rules.min_players,
                most=rules.max_players,
                rule=paiute_rule(1),
            ),
        )
    if config.dealer not in config.players:
        problems.add(
            where["dealer"],
            msg(
                _("the dealer (seat %(seat)s) is not among the players: the dealer plays too"),
                seat=config.dealer,
            ),
        )
    check_ante(config.ante, rules, where["ante"], problems)
    groups: list[CardGroup] = []
    for seat in config.play_order:
        cards = config.hands.get(seat)
        path = f"{where['hands']}.{seat}"
        if cards is None:
            problems.add(
                where["hands"],
                msg(_("seat %(seat)s has no cards: five are dealt to each player"), seat=seat),
            )
            continue
        if len(cards) != HAND_SIZE:
            problems.add(
                path,
                msg(
                    _("seat %(seat)s: %(count)s cards are dealt, got %(got)s"),
                    seat=seat,
                    count=HAND_SIZE,
                    got=len(cards),
                ),
            )
        groups.append(CardGroup(seat_words(seat), path, cards))
    for seat in config.hands:
        if seat not in config.players:
            problems.add(
                f"{where['hands']}.{seat}",
                msg(_("seat %(seat)s is not dealt in this hand"), seat=seat),
            )
    groups.append(CardGroup(Message(_("the upcard")), where["upcard"], [config.upcard]))
    option = rules.discard_pile_starts_with_upturned_card
    if config.first_discard is not None:
        if not option:
            problems.add(
                where["first_discard"],
                msg(
                    _(
                        "no card starts the discard pile at this table: the first player draws "
                        "from the stock (%(rule)s)"
                    ),
                    rule=paiute_rule(3),
                ),
            )
        groups.append(
            CardGroup(
                Message(_("the discard pile")), where["first_discard"], [config.first_discard]
            )
        )
    elif option:
        problems.add(
            where["first_discard"],
            msg(
                _(
                    "the top stock card is turned to start the discard pile at this table "
                    "(%(rule)s): enter it"
                ),
                rule=paiute_rule(3),
            ),
        )
    try:
        check_distinct(groups)
    except RuleError as error:
        problems.extend(error)
    problems.raise_if_any()
