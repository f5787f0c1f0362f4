"""Pontoon: the rules options, their defaults and validation, and a hand's configuration.

:class:`PontoonRules` holds every option of the game with the brief's defaults; a table
freezes one per hand. :meth:`PontoonRules.from_dict` merges overrides onto a base (a table's
rules, or the defaults) and names every bad setting at once (``rules.stake_max``).
Money is in minor units and a multiple of ``smallest_chip``; ``None`` for a limit means none.

A hand is its :class:`PontoonConfig` (the banker, the players, the Shoot Pontoon kitty) plus
its operation log. The players play clockwise from the banker's left: ascending seat numbers
after the banker's, wrapping (:attr:`PontoonConfig.play_order`, derived from the seats, so
the config may list them in any order). :func:`check_config` checks a config against the
rules (clauses 1 and 17), naming every problem by its path.

Choices where the brief is silent:

* **Packs** (clause 1): two packs are required from 8 at the table, the banker included (pagat:
  "for a large number of players, say 8 or more"); at most 7 with one pack, 14 with two. Each
  card is dealt at most once per pack. Busted hands' cards go to the bottom of the pack
  (pagat), so if the pack runs out within a hand those cards are dealt next.
* **Order of the deal** (clause 3): first cards to the players clockwise from the banker's
  left, then the banker; then every stake; then (Shoot Pontoon) every player in turn shoots or
  declines; then second cards the same way. A split hand's second card is dealt as that hand
  comes into play (the hand split first gets its card at once and is played out).
* **Totals**: a hand's total is its best total (soft when an ace counts 11). A hand ends by
  itself at 21 (no card can be bought or twisted "below 21") and at the card limit.
* **Stakes**: the first stake is within ``stake_min``..``stake_max``; buys follow clause 7 and
  may take the hand's stake beyond ``stake_max``. A split hand carries the seat's first stake
  and its own buy bounds. "Double" is double everything staked on the hand, buys included.
* **Sticking** needs ``stick_minimum`` on every hand, split hands too; a five card trick needs
  no minimum. The banker's minimum (option) counts soft totals like the players'.
* **Bust** (clause 10): the stake is lost at once and, under the banker's five card trick, is
  not doubled (it was already paid). When every player is bust the banker does not play.
* **Split pontoons** (clause 15): ``split_pontoon_pays_double`` makes a split ace-ten a
  pontoon in ranking and pay; ``split_pontoon_takes_bank`` lets it pass the bank.
* **Next banker** (clause 16): when the banker has a pontoon the players take no turns and
  declare nothing, so the bank stays with the banker. A sale is recorded after the hand
  (``sell_bank`` / ``bank_sale``) and is refused when a pontoon passes the bank; the price is
  settled as a ``bank_sale`` line from the buyer to the banker. ``reshuffle`` in the
  settlement says whether a pontoon (the banker's, or a player's that ranks as one) was made.
* **Shoot Pontoon** (clause 17): the kitty must be within ``kitty_min``..``kitty_max`` (each
  defaulting to the stake limits) when put up; a kitty carried over from the last hand
  (``kitty_carried``) is only checked to be positive. Every player in turn shoots or declines
  (``no_shoot``) after the stakes, the first shoot bet riding on the first hand; a hand may
  take one shoot bet before its 4th and one before its 5th card, split hands included (pagat:
  "another shoot bet can be placed for the second hand"), and must then buy or twist that
  card. All shoot bets riding stay within the kitty plus the shoot bets of busted hands
  already added to it. A shoot bet wins exactly when the hand's stake wins.
* **Kitty accounting**: the kitty is the banker's money; the banker's net includes its change
  (``kitty_after = kitty + shoot bets lost - shoot bets won``), so nets sum to zero. When the
  bank changes hands the old banker leaves with ``kitty_after``; the explanation says so.
* **No rake** (pagat has none).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from casino.rules.errors import Problems, RuleError
from casino.rules.messages import Message, Money, _, msg
from casino.rules.options import (
    beyond_maximum,
    is_int,
    not_a_chip_multiple,
    options_from_dict,
    parse_bounded,
)
from casino.rules.rule_titles import pontoon_rule

LOWEST_STICK = 12
MOST_SPLIT_HANDS = 4
CARD_LIMITS = (5, 6, 7)


@dataclass(frozen=True, slots=True)
class PontoonRules:
    """Every option of Pontoon, with the brief's defaults.

    * ``stick_minimum``: a player sticks only on this total or more (clause 9; option 16).
    * ``banker_stick_minimum``: the banker stands only on this total or more (clause 11;
      ``None``: no minimum, the banker may stand on anything).
    * ``split_pontoon_pays_double``: a pontoon on a split hand counts as a pontoon in every
      respect, ranking and double pay (clause 15; default: a 21 in two cards, paid single).
    * ``split_pontoon_takes_bank``: a pontoon on a split hand passes the bank (clause 16).
    * ``max_split_hands``: hands a seat may have after splitting and re-splitting (clause 6;
      1 means no splitting). ``split_aces_only``: the seed's variation, only aces split.
    * ``five_card_limit``: the most cards in a hand (clause 10); a hand of that many cards
      totalling 21 or less is the trick (a "six card trick" with 6).
    * ``decks``: 1 or 2 packs mixed (clause 1: two are required with 8 or more at the table).
    * ``stake_min`` / ``stake_max``: the first-card stake's limits (clause 3; ``None``: the
      smallest chip / no maximum). Buys follow clause 7 and are not capped by ``stake_max``.
    * ``kitty_min`` / ``kitty_max``: Shoot Pontoon's kitty limits (clause 17: "between the
      table limits"); each falls back to the stake limit when ``None``.
    * ``smallest_chip``: every amount is a multiple of it.
    """

    stick_minimum: int = 15
    banker_stick_minimum: int | None = None
    split_pontoon_pays_double: bool = False
    split_pontoon_takes_bank: bool = False
    max_split_hands: int = 4
    split_aces_only: bool = False
    five_card_limit: int = 5
    decks: int = 1
    stake_min: int | None = None
    stake_max: int | None = None
    kitty_min: int | None = None
    kitty_max: int | None = None
    smallest_chip: int = 1

    def __post_init__(self) -> None:
        # Check Python-built rules exactly as from_dict checks JSON.
        problems = Problems()
        parse_bounded(_parse_rules, self.to_dict(), problems)
        problems.raise_if_any()

    @classmethod
    def from_dict(
        cls,
        data: Mapping[str, Any] | None,
        base: PontoonRules | Mapping[str, Any] | None = None,
    ) -> PontoonRules:
        """Validated effective rules: ``data`` overrides ``base`` (or the defaults) key by key.

        Raises :class:`RuleError` naming every bad setting (``rules.decks``, an unknown key
        ``rules.colour``).
        """
        return options_from_dict(cls, data, base, keys=RULES_KEYS, parse=_parse_rules)

    def to_dict(self) -> dict[str, Any]:
        """The full effective rules, JSON-ready; ``PontoonRules.from_dict(r.to_dict()) == r``."""
        return {name: getattr(self, name) for name in _FIELD_NAMES}

    # ------------------------------------------------------------------ derived limits

    @property
    def least_stake(self) -> int:
        return self.stake_min if self.stake_min is not None else self.smallest_chip

    @property
    def least_kitty(self) -> int:
        if self.kitty_min is not None:
            return self.kitty_min
        return self.least_stake

    @property
    def most_kitty(self) -> int | None:
        return self.kitty_max if self.kitty_max is not None else self.stake_max


RULES_KEYS = frozenset(f.name for f in fields(PontoonRules))
_FIELD_NAMES = tuple(f.name for f in fields(PontoonRules))


def default_rules() -> dict[str, Any]:
    """The brief's default rules, JSON-ready."""
    return PontoonRules().to_dict()


def parse_rules(
    data: Mapping[str, Any] | None, base: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Validated effective rules as JSON: ``data`` merged onto ``base`` or the defaults."""
    return PontoonRules.from_dict(data, base).to_dict()


def coerce_rules(rules: PontoonRules | Mapping[str, Any] | None) -> PontoonRules:
    """``rules`` as :class:`PontoonRules`: itself, JSON overrides of the defaults, or defaults."""
    return rules if isinstance(rules, PontoonRules) else PontoonRules.from_dict(rules)


def _parse_rules(data: Mapping[str, Any], problems: Problems) -> dict[str, Any]:
    """Check a full rules dict; return the typed field values (only meaningful without problems)."""
    out: dict[str, Any] = {}
    chip = data.get("smallest_chip")
    if not is_int(chip) or chip < 1:
        problems.add(
            "rules.smallest_chip",
            msg(
                _("smallest chip must be a whole number of at least 1, got %(value)s"),
                value=repr(chip),
            ),
        )
        chip = 1
    out["smallest_chip"] = chip

    def whole(key: str, low: int, high: int, words: str, *, optional: bool = False) -> None:
        value = data.get(key)
        if optional and value is None:
            out[key] = None
            return
        if not is_int(value) or not low <= value <= high:
            problems.add(
                f"rules.{key}",
                msg(
                    _(
                        "%(name)s must be a whole number from %(low)s to %(high)s (or null for "
                        "none), got %(value)s"
                    )
                    if optional
                    else _(
                        "%(name)s must be a whole number from %(low)s to %(high)s, got %(value)s"
                    ),
                    name=Message(words),
                    low=low,
                    high=high,
                    value=repr(value),
                ),
            )
            value = None if optional else low
        out[key] = value

    whole("stick_minimum", LOWEST_STICK, 21, _("the players' stick minimum"))
    whole("banker_stick_minimum", LOWEST_STICK, 21, _("the banker's stick minimum"), optional=True)
    whole("max_split_hands", 1, MOST_SPLIT_HANDS, _("the most hands after splitting"))
    whole("decks", 1, 2, _("the number of packs"))
    limit = data.get("five_card_limit")
    if limit not in CARD_LIMITS or not is_int(limit):
        problems.add(
            "rules.five_card_limit",
            msg(_("the card limit must be 5, 6 or 7 cards, got %(value)s"), value=repr(limit)),
        )
        limit = 5
    out["five_card_limit"] = limit
    for key, wrong in (
        ("split_pontoon_pays_double", _("split pontoon pays double must be true or false")),
        ("split_pontoon_takes_bank", _("split pontoon takes bank must be true or false")),
        ("split_aces_only", _("split aces only must be true or false")),
    ):
        value = data.get(key)
        if not isinstance(value, bool):
            problems.add(f"rules.{key}", msg(wrong))
            value = False
        out[key] = value

    for key, words in (
        ("stake_min", _("stake minimum")),
        ("stake_max", _("stake maximum")),
        ("kitty_min", _("kitty minimum")),
        ("kitty_max", _("kitty maximum")),
    ):
        value = data.get(key)
        if value is None:
            out[key] = None
        elif not is_int(value) or value < 1:
            problems.add(
                f"rules.{key}",
                msg(
                    _("%(name)s must be a whole number of at least 1 (or null), got %(value)s"),
                    name=Message(words),
                    value=repr(value),
                ),
            )
            out[key] = None
        elif value % chip:
            problems.add(f"rules.{key}", not_a_chip_multiple(Message(words), value, chip))
            out[key] = None
        else:
            out[key] = value
    for low_key, high_key, below in (
        ("stake_min", "stake_max", _("the stake maximum %(high)s is below the minimum %(low)s")),
        ("kitty_min", "kitty_max", _("the kitty maximum %(high)s is below the minimum %(low)s")),
    ):
        low, high = out[low_key], out[high_key]
        if low_key == "kitty_min":
            if low is None and high is None:
                continue  # the stake limits, already checked
            low = low if low is not None else out["stake_min"]
            high = high if high is not None else out["stake_max"]
        if low is not None and high is not None and low > high:
            problems.add(f"rules.{high_key}", msg(below, high=Money(high), low=Money(low)))
    return out


# ------------------------------------------------------------------ a hand's configuration

#: Clause 1: two packs are mixed once this many are at the table (the banker included).
TWO_PACKS_FROM = 8
#: The most at one table (the banker included) with one pack, and with two.
MOST_AT_TABLE = {1: TWO_PACKS_FROM - 1, 2: 14}


def clockwise_after(seat: int, seats: Sequence[int]) -> list[int]:
    """``seats`` clockwise starting with the first one left of ``seat``."""
    return sorted(seats, key=lambda number: (number <= seat, number))


@dataclass(frozen=True, slots=True)
class PontoonConfig:
    """The banker's seat, the players' seats and, for Shoot Pontoon, the kitty.

    ``kitty_carried``: the kitty is the one left from the last hand (clause 17), so the
    table's kitty limits, which apply to a kitty put up, are not checked.
    """

    banker: int
    players: tuple[int, ...]
    kitty: int | None = None
    kitty_carried: bool = False

    @property
    def play_order(self) -> tuple[int, ...]:
        """Clockwise from the banker's left (clause 3)."""
        return tuple(clockwise_after(self.banker, self.players))

    @property
    def shoot(self) -> bool:
        return self.kitty is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "banker": self.banker,
            "players": list(self.play_order),
            "kitty": self.kitty,
            "kitty_carried": self.kitty_carried,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PontoonConfig:
        """Read ``{"banker": 5, "players": [1, 2], "kitty": 5000}`` (kitty optional);
        types only, :func:`check_config` checks it against the rules."""
        problems = Problems()
        if not isinstance(data, Mapping):
            raise RuleError(msg(_("the configuration must be an object with banker and players")))
        for key in data:
            if key not in ("banker", "players", "kitty", "kitty_carried"):
                problems.add(str(key), msg(_("unknown field '%(key)s'"), key=str(key)))
        banker = data.get("banker")
        if not is_int(banker):
            problems.add(
                "banker", msg(_("banker must be a seat number, got %(value)s"), value=repr(banker))
            )
        players = data.get("players")
        if isinstance(players, str) or not isinstance(players, Sequence):
            problems.add("players", msg(_("players must be a list of seat numbers")))
            players = []
        for index, seat in enumerate(players):
            if not is_int(seat):
                problems.add(
                    f"players[{index}]",
                    msg(_("a player is a seat number, got %(value)s"), value=repr(seat)),
                )
        kitty = data.get("kitty")
        if kitty is not None and not is_int(kitty):
            problems.add(
                "kitty",
                msg(_("the kitty must be a whole amount, got %(value)s"), value=repr(kitty)),
            )
        carried = data.get("kitty_carried", False)
        if not isinstance(carried, bool):
            problems.add("kitty_carried", msg(_("kitty carried must be true or false")))
        problems.raise_if_any()
        assert is_int(banker)
        return cls(banker, tuple(players), kitty, carried)


def check_config(
    config: PontoonConfig,
    rules: PontoonRules,
    *,
    paths: Mapping[str, str] | None = None,
) -> None:
    """Check the seats (clause 1) and the kitty (clause 17); every problem at once.

    ``paths`` renames the places problems are reported at (``{"kitty": "shoot.kitty"}``).
    """
    where = {"banker": "banker", "players": "players", "kitty": "kitty", **(paths or {})}
    problems = Problems()
    if config.banker < 1:
        problems.add(
            where["banker"],
            msg(_("the banker's seat must be at least 1, got %(seat)s"), seat=config.banker),
        )
    if not config.players:
        problems.add(where["players"], msg(_("at least one player besides the banker is dealt in")))
    seen: set[int] = set()
    for seat in config.players:
        if seat < 1:
            problems.add(
                where["players"], msg(_("seat numbers start at 1, got %(seat)s"), seat=seat)
            )
        elif seat == config.banker:
            problems.add(
                where["players"], msg(_("seat %(seat)s is the banker, not a player"), seat=seat)
            )
        elif seat in seen:
            problems.add(where["players"], msg(_("seat %(seat)s is listed twice"), seat=seat))
        seen.add(seat)
    people = len(config.players) + 1
    if people >= TWO_PACKS_FROM and rules.decks == 1:
        problems.add(
            where["players"],
            msg(
                _(
                    "%(people)s at the table (the banker included): from %(two_from)s two packs "
                    "are mixed (%(rule)s); set the rules' decks to 2"
                ),
                people=people,
                two_from=TWO_PACKS_FROM,
                rule=pontoon_rule(1),
            ),
        )
    elif people > MOST_AT_TABLE[rules.decks]:
        problems.add(
            where["players"],
            msg(
                _(
                    "%(people)s at the table (the banker included): at most %(most)s with "
                    "%(decks)s packs"
                ),
                people=people,
                most=MOST_AT_TABLE[rules.decks],
                decks=rules.decks,
            ),
        )
    if config.kitty is not None:
        chip = rules.smallest_chip
        kitty = config.kitty
        too_big = beyond_maximum(kitty, Message(_("kitty")))
        if kitty < 1:
            problems.add(
                where["kitty"],
                msg(
                    _(
                        "the kitty is empty: the banker puts up a new kitty or sells the bank "
                        "(%(rule)s)"
                    ),
                    rule=pontoon_rule(17),
                ),
            )
        elif too_big is not None:
            problems.add(where["kitty"], too_big)
        elif kitty % chip:
            problems.add(where["kitty"], not_a_chip_multiple(Message(_("kitty")), kitty, chip))
        elif not config.kitty_carried:
            low, high = rules.least_kitty, rules.most_kitty
            if kitty < low or (high is not None and kitty > high):
                bounds = (
                    msg(_("%(low)s to %(high)s"), low=Money(low), high=Money(high))
                    if high is not None
                    else msg(_("at least %(low)s"), low=Money(low))
                )
                problems.add(
                    where["kitty"],
                    msg(
                        _(
                            "kitty %(kitty)s is outside the table limits: the banker puts up "
                            "%(bounds)s (%(rule)s)"
                        ),
                        kitty=Money(kitty),
                        bounds=bounds,
                        rule=pontoon_rule(17),
                    ),
                )
    problems.raise_if_any()
