"""Palace Poker: the rules options (a frozen dataclass), read from and written to JSON, and
the table limits.

:class:`PalaceRules` holds every option of the game with the brief's defaults (or, where the
brief is silent, common card-room practice); a table freezes one per hand.
:meth:`PalaceRules.from_dict` merges overrides onto a base (a table's rules, or the defaults)
and names every bad setting at once (``rules.call``, ``rules.rake.cap``); the ``rake`` object
replaces the base rake whole. Money is in minor units and a multiple of ``smallest_chip``.

The table limits are kept apart from the rules: the :class:`Structure` (``limit`` or
``no_limit``), the small bet and the big bet; :func:`check_limits` names every bad one and
:func:`hand_rules` gives the effective rules a hand freezes from the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any

from casino.rules.errors import Problems
from casino.rules.messages import Message, _, msg
from casino.rules.options import (
    check_amounts,
    is_int,
    not_a_chip_multiple,
    options_from_dict,
    parse_bounded,
)
from casino.rules.rake import RakeSchedule, parse_rake

MOST_SOLDIERS = 10


class Structure(StrEnum):
    LIMIT = "limit"
    NO_LIMIT = "no_limit"

    @property
    def words(self) -> str:
        return self.value.replace("_", " ")


#: The structures, for checking a value is one (``x in STRUCTURES``).
STRUCTURES = tuple(Structure)

#: The table limits that are amounts (beside ``structure``).
LIMIT_AMOUNTS = ("small_bet", "big_bet")


class CallRule(StrEnum):
    """Clause 9: what a defender puts in to call the attacker's bet."""

    FORMULA = "formula"  # (the defender's soldiers + 1) x small bet
    MATCH = "match"  # the attacker's bet


@dataclass(frozen=True, slots=True)
class PalaceRules:
    """Every option of Palace Poker.

    * ``call``: clause 9's call, ``formula`` (default) or ``match``.
    * ``ante``: the ante (clause 3); ``None`` is half a small bet rounded down to the
      smallest chip. A record that states its ante must agree with a set ``ante``.
    * ``smallest_chip``: every amount is a multiple of it.
    * ``max_soldiers``: the soldier limit (clauses 6, 9, 10; 5 in the brief).
    * ``max_raises``: raises allowed in one limit battle (``None``: no cap; card rooms leave
      heads-up limit betting uncapped, and a battle is always heads-up). No limit is never
      capped.
    * ``uncalled_raise_returned``: clause 9's "the defender keeps the raise": when a side
      folds to a raise, or calls it all-in for less, the part of the raise not called goes
      back to the raiser. The attacker's opening bet is the price of the battle and is never
      returned (clause 8: all battle money goes into the pot).
    * ``short_all_in``: table stakes; a seat short of its call, or of the minimum battle bet,
      may put in all its chips instead. Off, such a seat may only fold (or stay).
    * ``rake``: clause 13c, the house's rake from the pot before it is shared
      (:class:`~casino.rules.rake.RakeSchedule`: fixed, banded by the pot, or a percentage of
      it with a cap); none by default.
    """

    call: CallRule = CallRule.FORMULA
    ante: int | None = None
    smallest_chip: int = 1
    max_soldiers: int = 5
    max_raises: int | None = None
    uncalled_raise_returned: bool = True
    short_all_in: bool = True
    rake: RakeSchedule = RakeSchedule()

    def __post_init__(self) -> None:
        # A percentage rake rounds to the table's chip, whatever a Python caller built.
        if self.rake.chip != self.smallest_chip:
            object.__setattr__(self, "rake", replace(self.rake, chip=self.smallest_chip))
        # Check Python-built rules exactly as from_dict checks JSON.
        problems = Problems()
        parse_bounded(_parse_rules, self.to_dict(), problems)
        problems.raise_if_any()

    @classmethod
    def from_dict(
        cls,
        data: Mapping[str, Any] | None,
        base: PalaceRules | Mapping[str, Any] | None = None,
    ) -> PalaceRules:
        """Validated effective rules: ``data`` overrides ``base`` (or the defaults) key by key.

        Raises :class:`RuleError` naming every bad setting (``rules.call``, an unknown key
        ``rules.colour``).
        """
        return options_from_dict(cls, data, base, keys=RULES_KEYS, parse=_parse_rules)

    def to_dict(self) -> dict[str, Any]:
        """The full effective rules, JSON-ready; ``PalaceRules.from_dict(r.to_dict()) == r``."""
        data = {field.name: getattr(self, field.name) for field in fields(self)}
        data["call"] = str(self.call)
        data["rake"] = self.rake.to_dict()
        return data

    def ante_for(self, small_bet: int) -> int:
        """Clause 3: the ante set, or half a small bet rounded down to the smallest chip."""
        if self.ante is not None:
            return self.ante
        chip = self.smallest_chip
        return small_bet // 2 // chip * chip


RULES_KEYS = frozenset(f.name for f in fields(PalaceRules))


def default_rules() -> dict[str, Any]:
    """The brief's default rules, JSON-ready."""
    return PalaceRules().to_dict()


def parse_rules(
    data: Mapping[str, Any] | None, base: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Validated effective rules as JSON: ``data`` merged onto ``base`` or the defaults."""
    return PalaceRules.from_dict(data, base).to_dict()


def hand_rules(
    limits: Mapping[str, Any], smallest_chip: int, rules: Mapping[str, Any]
) -> dict[str, Any]:
    """The effective rules a hand freezes from the table: its rules with its smallest chip."""
    return parse_rules({**rules, "smallest_chip": smallest_chip})


def check_limits(limits: Mapping[str, Any], problems: Problems) -> None:
    """Add a problem for every bad table limit: the structure, the small and big bet."""
    structures = [str(x) for x in Structure]
    if limits.get("structure") not in structures:
        problems.add(
            "structure",
            msg(_("structure must be one of %(choices)s"), choices=", ".join(structures)),
        )
    check_amounts(limits, LIMIT_AMOUNTS, problems)
    if not problems and limits["big_bet"] < limits["small_bet"]:
        problems.add("big_bet", msg(_("the big bet is smaller than the small bet")))


def coerce_rules(rules: PalaceRules | Mapping[str, Any] | None) -> PalaceRules:
    """``rules`` as :class:`PalaceRules`: itself, JSON overrides of the defaults, or defaults."""
    return rules if isinstance(rules, PalaceRules) else PalaceRules.from_dict(rules)


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

    call = data.get("call")
    if call in tuple(CallRule):
        out["call"] = CallRule(call)
    else:
        problems.add(
            "rules.call", msg(_("call %(value)s is not one of formula, match"), value=repr(call))
        )
        out["call"] = CallRule.FORMULA

    ante = data.get("ante")
    if ante is not None:
        if not is_int(ante) or ante < 0:
            problems.add(
                "rules.ante",
                msg(
                    _("ante must be a whole number of at least 0 or null, got %(value)s"),
                    value=repr(ante),
                ),
            )
            ante = None
        elif ante % chip:
            problems.add("rules.ante", not_a_chip_multiple(Message(_("ante")), ante, chip))
    out["ante"] = ante

    soldiers = data.get("max_soldiers")
    if not is_int(soldiers) or not 1 <= soldiers <= MOST_SOLDIERS:
        problems.add(
            "rules.max_soldiers",
            msg(
                _("max soldiers must be a whole number from 1 to %(most)s, got %(value)s"),
                most=MOST_SOLDIERS,
                value=repr(soldiers),
            ),
        )
        soldiers = 5
    out["max_soldiers"] = soldiers

    raises = data.get("max_raises")
    if raises is not None and (not is_int(raises) or not 1 <= raises <= 100):
        problems.add(
            "rules.max_raises",
            msg(
                _(
                    "max raises must be a whole number from 1 to 100, or null for no cap, got "
                    "%(value)s"
                ),
                value=repr(raises),
            ),
        )
        raises = None
    out["max_raises"] = raises

    for key, wrong in (
        ("uncalled_raise_returned", _("uncalled raise returned must be true or false")),
        ("short_all_in", _("short all in must be true or false")),
    ):
        value = data.get(key)
        if not isinstance(value, bool):
            problems.add(f"rules.{key}", msg(wrong))
            value = True
        out[key] = value
    out["rake"] = parse_rake(data.get("rake"), problems, chip=chip, base="pot", open_top=True)
    return out
