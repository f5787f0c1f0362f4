"""Pontoon: the rules options (a frozen dataclass), read from and written to JSON.

:class:`PontoonRules` holds every option of the game with the brief's defaults; a table
freezes one per hand. :meth:`PontoonRules.from_dict` merges overrides onto a base (a table's
rules, or the defaults) and names every bad setting at once (``rules.stake_max``).
Money is in minor units and a multiple of ``smallest_chip``; ``None`` for a limit means none.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from casino.rules.errors import Problems
from casino.rules.options import is_int, options_from_dict, parse_bounded

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
        return {field.name: getattr(self, field.name) for field in fields(self)}

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
            f"smallest chip must be a whole number of at least 1, got {chip!r}",
        )
        chip = 1
    out["smallest_chip"] = chip

    def whole(key: str, low: int, high: int, words: str, *, optional: bool = False) -> None:
        value = data.get(key)
        if optional and value is None:
            out[key] = None
            return
        if not is_int(value) or not low <= value <= high:
            none = " (or null for none)" if optional else ""
            problems.add(
                f"rules.{key}",
                f"{words} must be a whole number from {low} to {high}{none}, got {value!r}",
            )
            value = None if optional else low
        out[key] = value

    whole("stick_minimum", LOWEST_STICK, 21, "the players' stick minimum")
    whole("banker_stick_minimum", LOWEST_STICK, 21, "the banker's stick minimum", optional=True)
    whole("max_split_hands", 1, MOST_SPLIT_HANDS, "the most hands after splitting")
    whole("decks", 1, 2, "the number of packs")
    limit = data.get("five_card_limit")
    if limit not in CARD_LIMITS or not is_int(limit):
        problems.add(
            "rules.five_card_limit",
            f"the card limit must be 5, 6 or 7 cards, got {limit!r}",
        )
        limit = 5
    out["five_card_limit"] = limit
    for key in ("split_pontoon_pays_double", "split_pontoon_takes_bank", "split_aces_only"):
        value = data.get(key)
        if not isinstance(value, bool):
            problems.add(f"rules.{key}", f"{key.replace('_', ' ')} must be true or false")
            value = False
        out[key] = value

    for key in ("stake_min", "stake_max", "kitty_min", "kitty_max"):
        value = data.get(key)
        words = key.replace("_", " ").replace("min", "minimum").replace("max", "maximum")
        if value is None:
            out[key] = None
        elif not is_int(value) or value < 1:
            problems.add(
                f"rules.{key}",
                f"{words} must be a whole number of at least 1 (or null), got {value!r}",
            )
            out[key] = None
        elif value % chip:
            problems.add(
                f"rules.{key}", f"{words} {value} is not a multiple of the smallest chip {chip}"
            )
            out[key] = None
        else:
            out[key] = value
    for low_key, high_key, words in (
        ("stake_min", "stake_max", "stake"),
        ("kitty_min", "kitty_max", "kitty"),
    ):
        low, high = out[low_key], out[high_key]
        if low_key == "kitty_min":
            if low is None and high is None:
                continue  # the stake limits, already checked
            low = low if low is not None else out["stake_min"]
            high = high if high is not None else out["stake_max"]
        if low is not None and high is not None and low > high:
            problems.add(
                f"rules.{high_key}", f"the {words} maximum {high} is below the minimum {low}"
            )
    return out
