"""Five Card Draw 7-A: the game's code and name, and the rules options (a frozen dataclass),
read from and written to JSON.

:class:`DrawRules` holds every option of the game with the brief's defaults; a table freezes
one per hand. :meth:`DrawRules.from_dict` merges overrides onto a base (a table's rules, or the
defaults) and names every bad setting at once (``rules.rake.percent``). Overrides replace
top-level settings; the ``rake`` object replaces the base rake whole, with its own missing keys
taken from the default rake.

The rake is the shared schedule (:mod:`casino.rules.rake`) limited to none, fixed and percent;
it defaults to none. Its "no draw, no drop" flag defaults to true (card-room practice), and
applies to the fixed fee as well as the percentage. Money is in minor units and a multiple
of ``smallest_chip``; the rake percentage is a number
with at most two decimals (``5``, ``2.5``), held exactly as basis points.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from casino.rules.errors import Problems
from casino.rules.messages import Message, _, msg
from casino.rules.options import options_from_dict, parse_bounded
from casino.rules.rake import RakeKind, RakeSchedule, parse_rake

GAME_CODE = "five-card-draw-7a"
GAME_NAME = _("Five Card Draw 7-A")  # the game's name, translated where the API serves it

#: Clause 10: no rake, a fixed fee per hand, or a percentage of each pot with a cap.
DRAW_RAKE_KINDS = (RakeKind.NONE, RakeKind.FIXED, RakeKind.PERCENT)


@dataclass(frozen=True, slots=True)
class Rake:
    """The posted rake (clause 10): the shared schedule (:meth:`schedule`) plus "no draw, no
    drop".

    ``amount`` is the fixed fee per hand (kind ``fixed``); ``basis_points`` the percentage
    times 100 (kind ``percent``: 500 is 5%) and ``cap`` the most taken from one hand in all
    (None: no cap). ``no_draw_no_drop``: no rake when the hand ends before the draw.
    """

    kind: RakeKind = RakeKind.NONE
    amount: int = 0
    basis_points: int = 0
    cap: int | None = None
    no_draw_no_drop: bool = True

    def schedule(self, chip: int = 1) -> RakeSchedule:
        """The rake as the shared schedule, a percentage rounded down to ``chip``."""
        return RakeSchedule(self.kind, self.amount, (), self.basis_points, self.cap, chip)

    @property
    def percent(self) -> int | float:
        """The percentage as JSON gives it: ``5`` or ``2.5``."""
        return self.schedule().percent

    def words(self) -> Message:
        """The rake as a dealer says it: ``"5% of each pot, capped at 300"``."""
        if self.kind is RakeKind.NONE:
            return Message(_("no rake"))
        text = self.schedule().words(of=_("each pot"))
        if self.no_draw_no_drop:
            return msg(_("%(rake)s (no draw, no drop)"), rake=text)
        return text

    def to_dict(self) -> dict[str, Any]:
        data = self.schedule().to_dict()
        del data["bands"]
        data["no_draw_no_drop"] = self.no_draw_no_drop
        return data


@dataclass(frozen=True, slots=True)
class DrawRules:
    """Every option of Five Card Draw 7-A, with the brief's defaults.

    * ``max_raises``: raises allowed after the bet in a limit round (clause 6: a bet and 3).
    * ``heads_up_uncapped``: in limit, no cap while at most two players can still bet.
    * ``flush_beats_full_house``: the ranking of clause 2 (default true, as in the seed).
    * ``rake``: clause 10. ``smallest_chip``: the table's smallest chip (clause 9).
    """

    max_raises: int = 3
    heads_up_uncapped: bool = False
    flush_beats_full_house: bool = True
    rake: Rake = Rake()
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
        base: DrawRules | Mapping[str, Any] | None = None,
    ) -> DrawRules:
        """Validated effective rules: ``data`` overrides ``base`` (or the defaults) key by key.

        Raises :class:`RuleError` naming every bad setting (``rules.max_raises``,
        ``rules.rake.cap``, an unknown key ``rules.colour``).
        """
        return options_from_dict(cls, data, base, keys=RULES_KEYS, parse=_parse_rules)

    def to_dict(self) -> dict[str, Any]:
        """The full effective rules, JSON-ready; ``DrawRules.from_dict(r.to_dict()) == r``."""
        return {
            "max_raises": self.max_raises,
            "heads_up_uncapped": self.heads_up_uncapped,
            "flush_beats_full_house": self.flush_beats_full_house,
            "rake": self.rake.to_dict(),
            "smallest_chip": self.smallest_chip,
        }


RULES_KEYS = frozenset(f.name for f in fields(DrawRules))


def default_rules() -> dict[str, Any]:
    """The brief's default rules, JSON-ready."""
    return DrawRules().to_dict()


def parse_rules(
    data: Mapping[str, Any] | None, base: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Validated effective rules as JSON: ``data`` merged onto ``base`` or the defaults."""
    return DrawRules.from_dict(data, base).to_dict()


def coerce_rules(rules: DrawRules | Mapping[str, Any] | None) -> DrawRules:
    """``rules`` as :class:`DrawRules`: itself, JSON overrides of the defaults, or the defaults."""
    return rules if isinstance(rules, DrawRules) else DrawRules.from_dict(rules)


def _parse_rules(data: Mapping[str, Any], problems: Problems) -> dict[str, Any]:
    """Check a full rules dict; return the typed field values (only meaningful without problems)."""
    out: dict[str, Any] = {}
    chip = 1
    raw_chip = data.get("smallest_chip")
    if isinstance(raw_chip, int) and not isinstance(raw_chip, bool) and raw_chip >= 1:
        chip = raw_chip
    else:
        problems.add(
            "rules.smallest_chip",
            msg(
                _("smallest chip must be a whole number of at least 1, got %(value)s"),
                value=repr(raw_chip),
            ),
        )
    out["smallest_chip"] = chip
    raises = data.get("max_raises")
    if not isinstance(raises, int) or isinstance(raises, bool) or not 1 <= raises <= 100:
        problems.add(
            "rules.max_raises",
            msg(
                _("max raises must be a whole number from 1 to 100, got %(value)s"),
                value=repr(raises),
            ),
        )
        raises = 3
    out["max_raises"] = raises
    for key, wrong in (
        ("heads_up_uncapped", _("heads up uncapped must be true or false")),
        ("flush_beats_full_house", _("flush beats full house must be true or false")),
    ):
        value = data.get(key)
        if not isinstance(value, bool):
            problems.add(f"rules.{key}", msg(wrong))
            value = False
        out[key] = value
    out["rake"] = _parse_rake(data.get("rake"), chip, problems)
    return out


def _parse_rake(value: object, chip: int, problems: Problems) -> Rake:
    """Read the rake: the shared schedule's forms (:func:`~casino.rules.rake.parse_rake`)
    limited to none, fixed and percent, plus ``no_draw_no_drop``. Besides the full form,
    short forms are accepted: ``null`` (no rake), ``{"fixed": 50}`` (``fixed`` is another
    name for ``amount``) and ``{"percent": 5, ...}``; without ``kind`` the kind follows from
    the keys given."""
    if isinstance(value, Rake):
        value = value.to_dict()
    schedule = parse_rake(
        value, problems, chip=chip, kinds=DRAW_RAKE_KINDS, extra_keys=("no_draw_no_drop",)
    )
    no_draw_no_drop = value.get("no_draw_no_drop", True) if isinstance(value, Mapping) else True
    if not isinstance(no_draw_no_drop, bool):
        problems.add("rules.rake.no_draw_no_drop", msg(_("no draw no drop must be true or false")))
        no_draw_no_drop = True
    return Rake(
        schedule.kind, schedule.amount, schedule.basis_points, schedule.cap, no_draw_no_drop
    )
