"""Paiute: the rules options (a frozen dataclass) and a hand's configuration.

:class:`PaiuteRules` holds every option with the brief's defaults; a table freezes one per
hand and :meth:`PaiuteRules.from_dict` merges overrides, naming every bad setting at once
(``rules.ante_max``, ``rules.rake.cap``); the ``rake`` object replaces the base rake whole.
:class:`PaiuteConfig` is what the dealer enters before the first turn: the dealer, the seats
dealt in, the ante, each seat's five cards and the upcard (and, under the clause 3 option,
the card that starts the discard pile). :func:`check_config` checks it against the rules
(clauses 1-3), every problem with its path.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from casino.rules.cards import Card, CardGroup, check_distinct, parse_card, parse_cards
from casino.rules.errors import Problems, RuleError
from casino.rules.options import beyond_maximum, is_int, options_from_dict, parse_bounded
from casino.rules.pots import clockwise_from
from casino.rules.rake import RakeSchedule, parse_rake

#: Clause 1: two to five players.
FEWEST_PLAYERS = 2
MOST_PLAYERS = 5
#: Clause 2: five cards each.
HAND_SIZE = 5


@dataclass(frozen=True, slots=True)
class PaiuteRules:
    """Every option of Paiute, with the brief's defaults.

    * ``discard_pile_starts_with_upturned_card``: clause 3's option; the top stock card is
      turned face up to start the discard pile (default off: the first player draws from the
      stock).
    * ``ante_min`` / ``ante_max``: the table's ante limits (None: the smallest chip / none).
    * ``smallest_chip``: every amount is a multiple of it; odd chips of a split pot are
      counted in it (clause 8).
    * ``min_players`` / ``max_players``: the table's limits within clause 1's 2-5.
    * ``rake``: clause 8d, the house's rake from the pot before it is shared
      (:class:`~casino.rules.rake.RakeSchedule`: fixed, banded by the pot, or a percentage of
      it with a cap); none by default.
    """

    discard_pile_starts_with_upturned_card: bool = False
    ante_min: int | None = None
    ante_max: int | None = None
    smallest_chip: int = 1
    min_players: int = FEWEST_PLAYERS
    max_players: int = MOST_PLAYERS
    rake: RakeSchedule = RakeSchedule()

    def __post_init__(self) -> None:
        # A percentage rake rounds to the table's chip, whatever a Python caller built.
        if self.rake.chip != self.smallest_chip:
            object.__setattr__(self, "rake", replace(self.rake, chip=self.smallest_chip))
        problems = Problems()
        parse_bounded(_parse_rules, self.to_dict(), problems)
        problems.raise_if_any()

    @classmethod
    def from_dict(
        cls,
        data: Mapping[str, Any] | None,
        base: PaiuteRules | Mapping[str, Any] | None = None,
    ) -> PaiuteRules:
        """Validated effective rules: ``data`` overrides ``base`` (or the defaults) key by key."""
        return options_from_dict(cls, data, base, keys=RULES_KEYS, parse=_parse_rules)

    def to_dict(self) -> dict[str, Any]:
        """The full effective rules, JSON-ready; ``PaiuteRules.from_dict(r.to_dict()) == r``."""
        data = {item.name: getattr(self, item.name) for item in fields(self)}
        data["rake"] = self.rake.to_dict()
        return data

    @property
    def least_ante(self) -> int:
        return self.ante_min if self.ante_min is not None else self.smallest_chip


RULES_KEYS = frozenset(item.name for item in fields(PaiuteRules))


def default_rules() -> dict[str, Any]:
    """The brief's default rules, JSON-ready."""
    return PaiuteRules().to_dict()


def parse_rules(
    data: Mapping[str, Any] | None, base: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Validated effective rules as JSON: ``data`` merged onto ``base`` or the defaults."""
    return PaiuteRules.from_dict(data, base).to_dict()


def coerce_rules(rules: PaiuteRules | Mapping[str, Any] | None) -> PaiuteRules:
    """``rules`` as :class:`PaiuteRules`: itself, JSON overrides of the defaults, or defaults."""
    return rules if isinstance(rules, PaiuteRules) else PaiuteRules.from_dict(rules)


def _parse_rules(data: Mapping[str, Any], problems: Problems) -> dict[str, Any]:
    out: dict[str, Any] = {}
    chip = data.get("smallest_chip")
    if not is_int(chip) or chip < 1:
        problems.add(
            "rules.smallest_chip",
            f"smallest chip must be a whole number of at least 1, got {chip!r}",
        )
        chip = 1
    out["smallest_chip"] = chip
    key = "discard_pile_starts_with_upturned_card"
    flag = data.get(key)
    if not isinstance(flag, bool):
        problems.add(f"rules.{key}", "discard pile starts with upturned card must be true or false")
        flag = False
    out[key] = flag
    for key in ("ante_min", "ante_max"):
        value = data.get(key)
        words = key.replace("_min", " minimum").replace("_max", " maximum")
        if value is None:
            out[key] = None
        elif not is_int(value) or value < 1:
            problems.add(
                f"rules.{key}",
                f"the {words} must be a whole number of at least 1 (or null), got {value!r}",
            )
            out[key] = None
        elif value % chip:
            problems.add(
                f"rules.{key}", f"the {words} {value} is not a multiple of the smallest chip {chip}"
            )
            out[key] = None
        else:
            out[key] = value
    low, high = out["ante_min"], out["ante_max"]
    if low is not None and high is not None and low > high:
        problems.add("rules.ante_max", f"the ante maximum {high} is below the minimum {low}")
    for key in ("min_players", "max_players"):
        value = data.get(key)
        if not is_int(value) or not FEWEST_PLAYERS <= value <= MOST_PLAYERS:
            problems.add(
                f"rules.{key}",
                f"{key.replace('_', ' ')} must be a whole number from {FEWEST_PLAYERS} to "
                f"{MOST_PLAYERS} (clause 1 of docs/rules/paiute.md), got {value!r}",
            )
            value = FEWEST_PLAYERS if key == "min_players" else MOST_PLAYERS
        out[key] = value
    if out["min_players"] > out["max_players"]:
        problems.add(
            "rules.max_players",
            f"max players {out['max_players']} is below min players {out['min_players']}",
        )
    out["rake"] = parse_rake(data.get("rake"), problems, chip=chip, base="pot", open_top=True)
    return out


# --------------------------------------------------------------------------- configuration


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
            raise RuleError("the configuration must be an object with dealer, players and hands")
        problems = Problems()
        known = ("dealer", "players", "ante", "hands", "upcard", "first_discard")
        for key in data:
            if key not in known:
                problems.add(str(key), f"unknown field '{key}'")
        dealer = data.get("dealer")
        if not is_int(dealer):
            problems.add("dealer", f"the dealer must be a seat number, got {dealer!r}")
        players = data.get("players")
        if isinstance(players, str | bytes) or not isinstance(players, Sequence):
            problems.add("players", "players must be a list of seat numbers")
            players = []
        for index, seat in enumerate(players):
            if not is_int(seat):
                problems.add(f"players[{index}]", f"a player is a seat number, got {seat!r}")
        ante = data.get("ante")
        if not is_int(ante):
            problems.add("ante", f"the ante must be a whole amount, got {ante!r}")
        hands: dict[int, tuple[Card, ...]] = {}
        raw_hands = data.get("hands")
        if not isinstance(raw_hands, Mapping):
            problems.add("hands", "hands must be an object of each seat's five cards")
        else:
            for key, cards in raw_hands.items():
                seat = _seat_key(key)
                if seat is None:
                    problems.add(f"hands.{key}", f"hands are listed by seat number, got {key!r}")
                    continue
                try:
                    hands[seat] = parse_cards(cards, path=f"hands.{key}", who=f"seat {seat}")
                except RuleError as error:
                    problems.extend(error)
        upcard = _read_card(data.get("upcard"), "upcard", "the upcard", problems)
        first = data.get("first_discard")
        first_discard = None
        if first is not None:
            first_discard = _read_card(first, "first_discard", "the first discard", problems)
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
        problems.add(path, f"{words} is missing")
        return None
    try:
        return parse_card(value)
    except RuleError as error:
        problems.add(path, f"{words}: {error.problems[0].message}")
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
            problems.add(where["players"], f"seat numbers start at 1, got {seat}")
        elif seat in seats:
            problems.add(where["players"], f"seat {seat} is listed twice")
        else:
            seats.append(seat)
    count = len(config.players)
    if not rules.min_players <= count <= rules.max_players:
        problems.add(
            where["players"],
            f"{count} players dealt in: Paiute is played by {rules.min_players} to "
            f"{rules.max_players} (clause 1 of docs/rules/paiute.md)",
        )
    if config.dealer not in config.players:
        problems.add(
            where["dealer"],
            f"the dealer (seat {config.dealer}) is not among the players: the dealer plays too",
        )
    check_ante(config.ante, rules, where["ante"], problems)
    groups: list[CardGroup] = []
    for seat in config.play_order:
        cards = config.hands.get(seat)
        path = f"{where['hands']}.{seat}"
        if cards is None:
            problems.add(where["hands"], f"seat {seat} has no cards: five are dealt to each player")
            continue
        if len(cards) != HAND_SIZE:
            problems.add(path, f"seat {seat}: {HAND_SIZE} cards are dealt, got {len(cards)}")
        groups.append(CardGroup(f"seat {seat}", path, cards))
    for seat in config.hands:
        if seat not in config.players:
            problems.add(f"{where['hands']}.{seat}", f"seat {seat} is not dealt in this hand")
    groups.append(CardGroup("the upcard", where["upcard"], [config.upcard]))
    option = rules.discard_pile_starts_with_upturned_card
    if config.first_discard is not None:
        if not option:
            problems.add(
                where["first_discard"],
                "no card starts the discard pile at this table: the first player draws from "
                "the stock (clause 3 of docs/rules/paiute.md)",
            )
        groups.append(CardGroup("the discard pile", where["first_discard"], [config.first_discard]))
    elif option:
        problems.add(
            where["first_discard"],
            "the top stock card is turned to start the discard pile at this table (clause 3 of docs/rules/paiute.md): "
            "enter it",
        )
    try:
        check_distinct(groups)
    except RuleError as error:
        problems.extend(error)
    problems.raise_if_any()


def check_ante(ante: int, rules: PaiuteRules, path: str, problems: Problems) -> None:
    """Clause 1: an ante of whole chips within the table's limits."""
    chip = rules.smallest_chip
    too_big = beyond_maximum(ante, "ante")
    if ante < 1:
        problems.add(path, f"the ante must be positive, got {ante}")
    elif too_big is not None:
        problems.add(path, too_big)
    elif ante % chip:
        problems.add(path, f"ante {ante} is not a multiple of the smallest chip {chip}")
    else:
        low, high = rules.least_ante, rules.ante_max
        if ante < low or (high is not None and ante > high):
            bounds = f"{low} to {high}" if high is not None else f"at least {low}"
            problems.add(
                path,
                f"ante {ante} is outside the table limits: {bounds} (clause 1 of docs/rules/paiute.md)",
            )
