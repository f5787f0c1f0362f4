"""Paiute: the rules options (a frozen dataclass), their defaults and validation.

:class:`PaiuteRules` holds every option with the brief's defaults; a table freezes one per
hand and :meth:`PaiuteRules.from_dict` merges overrides, naming every bad setting at once
(``rules.ante_max``, ``rules.rake.cap``); the ``rake`` object replaces the base rake whole.
:func:`check_ante` checks an ante against the table's limits (clause 1). The hand's
configuration (what the dealer enters before the first turn) is in
:mod:`~casino.rules.paiute.config`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from casino.rules.errors import Problems
from casino.rules.messages import Message, Money, _, msg
from casino.rules.options import (
    beyond_maximum,
    is_int,
    not_a_chip_multiple,
    options_from_dict,
    parse_bounded,
)
from casino.rules.rake import RakeSchedule, parse_rake
from casino.rules.rule_titles import paiute_rule

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
            msg(
                _("smallest chip must be a whole number of at least 1, got %(value)s"),
                value=repr(chip),
            ),
        )
        chip = 1
    out["smallest_chip"] = chip
    key = "discard_pile_starts_with_upturned_card"
    flag = data.get(key)
    if not isinstance(flag, bool):
        problems.add(
            f"rules.{key}", msg(_("discard pile starts with upturned card must be true or false"))
        )
        flag = False
    out[key] = flag
    for key, words in (("ante_min", _("the ante minimum")), ("ante_max", _("the ante maximum"))):
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
    low, high = out["ante_min"], out["ante_max"]
    if low is not None and high is not None and low > high:
        problems.add(
            "rules.ante_max",
            msg(
                _("the ante maximum %(high)s is below the minimum %(low)s"),
                high=Money(high),
                low=Money(low),
            ),
        )
    for key in ("min_players", "max_players"):
        value = data.get(key)
        if not is_int(value) or not FEWEST_PLAYERS <= value <= MOST_PLAYERS:
            problems.add(
                f"rules.{key}",
                msg(
                    _(
                        "%(name)s must be a whole number from %(least)s to %(most)s (%(rule)s), got %(value)s"
                    ),
                    name=key.replace("_", " "),
                    least=FEWEST_PLAYERS,
                    most=MOST_PLAYERS,
                    rule=paiute_rule(1),
                    value=repr(value),
                ),
            )
            value = FEWEST_PLAYERS if key == "min_players" else MOST_PLAYERS
        out[key] = value
    if out["min_players"] > out["max_players"]:
        problems.add(
            "rules.max_players",
            msg(
                _("max players %(most)s is below min players %(least)s"),
                most=out["max_players"],
                least=out["min_players"],
            ),
        )
    out["rake"] = parse_rake(data.get("rake"), problems, chip=chip, base="pot", open_top=True)
    return out


def check_ante(ante: int, rules: PaiuteRules, path: str, problems: Problems) -> None:
    """Clause 1: an ante of whole chips within the table's limits."""
    chip = rules.smallest_chip
    too_big = beyond_maximum(ante, Message(_("ante")))
    if ante < 1:
        problems.add(path, msg(_("the ante must be positive, got %(ante)s"), ante=Money(ante)))
    elif too_big is not None:
        problems.add(path, too_big)
    elif ante % chip:
        problems.add(path, not_a_chip_multiple(Message(_("ante")), ante, chip))
    else:
        low, high = rules.least_ante, rules.ante_max
        if ante < low or (high is not None and ante > high):
            bounds = (
                msg(_("%(low)s to %(high)s"), low=Money(low), high=Money(high))
                if high is not None
                else msg(_("at least %(low)s"), low=Money(low))
            )
            problems.add(
                path,
                msg(
                    _("ante %(ante)s is outside the table limits: %(bounds)s (%(rule)s)"),
                    ante=Money(ante),
                    bounds=bounds,
                    rule=paiute_rule(1),
                ),
            )
