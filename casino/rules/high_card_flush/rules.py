"""High Card Flush's rules options: their defaults and validation (``Rules``), the pay tables
and the rake schedule, and the game's fixed figures (its code, seven cards a hand, at most six
players: clause 1 of ``docs/rules/high-card-flush.md``).

Interpretations this module makes where the brief leaves room:

* **Pay tables** (clauses 10-12): a bonus is in action only if the player's flush (or
  straight-flush run) reaches the table's lowest line (4 and 3 by default, and a flush pay
  table may not go below 4 nor a straight-flush one below 3); it pays the highest line not
  above the player's length. An empty pay table means the bet is not offered, and a stake on
  it is rejected. Odds are at most ``MAX_ODDS`` (10000:1).
* **Rules overrides** replace top-level settings; a nested object (``rake``, a pay table)
  replaces the base one whole, so a pay table line can be removed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from casino.rules.cards import ACE, rank_char
from casino.rules.errors import Problems, RuleError
from casino.rules.messages import Message, Money, _, msg
from casino.rules.options import is_int, money_or_repr, options_from_dict, parse_bounded
from casino.rules.rake import RakeBand, RakeKind, RakeReader
from casino.rules.rake import RakeSchedule as Schedule

from .rotation import RotationPolicy

GAME_CODE = "high-card-flush"
GAME_NAME = _("High Card Flush")  # the game's name, translated where the API serves it
CARDS_PER_HAND = 7
MOST_PLAYERS = 6  # clause 1: 7 hands of 7 cards from one deck
#: The longest odds a pay table line may offer (10000 for 10000:1): five times the brief's
#: longest default (1000:1 for a 7-card straight flush), and small enough that a winning bonus
#: on the largest amount (``MAX_AMOUNT``) is still a storable figure.
MAX_ODDS = 10_000
#: Each pay table's name in words.
PAYTABLE_WORDS = {"flush": _("flush"), "straight_flush": _("straight flush")}


class Coverage(StrEnum):
    RUNNING = "running"
    ORIGINAL_BANK = "original_bank"


class RakeScheme(StrEnum):
    PER_PLAYER = "per_player"
    PER_PLAYER_EXCEPT_DP = "per_player_except_dp"
    DP_ONLY = "dp_only"


class PayTable(Mapping[int, int]):
    """Odds by length (``{7: 200, 6: 50}`` means 200:1 and 50:1), immutable and hashable."""

    __slots__ = ("_lines",)

    def __init__(self, lines: Mapping[int, int] | Iterable[tuple[int, int]] = ()) -> None:
        items = lines.items() if isinstance(lines, Mapping) else lines
        self._lines: tuple[tuple[int, int], ...] = tuple(sorted(items, reverse=True))

    def __getitem__(self, length: int) -> int:
        for key, odds in self._lines:
            if key == length:
                return odds
        raise KeyError(length)

    def __iter__(self) -> Iterator[int]:
        return (key for key, _ in self._lines)

    def __len__(self) -> int:
        return len(self._lines)

    def __hash__(self) -> int:
        return hash(self._lines)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PayTable):
            return self._lines == other._lines
        return Mapping.__eq__(self, other)

    def __repr__(self) -> str:
        return f"PayTable({dict(self._lines)!r})"

    @property
    def lowest(self) -> int | None:
        """The shortest length that pays, or None if the bet is not offered."""
        return self._lines[-1][0] if self._lines else None

    def line_for(self, length: int) -> tuple[int, int] | None:
        """The highest line not above ``length`` as ``(line, odds)``, or None (clause 12)."""
        for key, odds in self._lines:
            if key <= length:
                return key, odds
        return None

    def to_dict(self) -> dict[str, int]:
        return {str(key): odds for key, odds in self._lines}


DEFAULT_FLUSH_PAYTABLE = PayTable({7: 200, 6: 50, 5: 10, 4: 2})
DEFAULT_STRAIGHT_FLUSH_PAYTABLE = PayTable({7: 1000, 6: 500, 5: 100, 4: 60, 3: 8})


@dataclass(frozen=True, slots=True)
class RakeSchedule:
    """Clause 14: who pays (``scheme``) and the fee per participating hand, one ``amount`` or
    ``bands`` by ante: the shared :class:`~casino.rules.rake.RakeSchedule` (:attr:`schedule`),
    fixed or banded by ante."""

    scheme: RakeScheme = RakeScheme.PER_PLAYER
    amount: int = 0
    bands: tuple[RakeBand, ...] = ()

    @property
    def schedule(self) -> Schedule:
        """The fee as the shared schedule: banded by ante, a fixed amount, or none."""
        if self.bands:
            return Schedule(RakeKind.BANDED, bands=self.bands)
        if self.amount:
            return Schedule(RakeKind.FIXED, amount=self.amount)
        return Schedule()

    def fee_for(self, ante: int) -> int | None:
        """The fee for a hand with this ante; None if the ante is above a closed top band."""
        schedule = self.schedule
        return schedule.fee(ante) if schedule.covers(ante) else None

    @property
    def charges_players(self) -> bool:
        return self.scheme is not RakeScheme.DP_ONLY

    @property
    def charges_dp(self) -> bool:
        return self.scheme is not RakeScheme.PER_PLAYER_EXCEPT_DP

    def to_dict(self) -> dict[str, Any]:
        return {
            "scheme": str(self.scheme),
            "amount": self.amount,
            "bands": [band.to_dict() for band in self.bands],
        }


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of the game, with the brief's defaults. Build from JSON with :meth:`from_dict`.

    Limits (``ante_min`` .. ``bank_max``) are None when the table sets none; money is in
    minor units and must be a multiple of ``smallest_chip``.
    """

    coverage: Coverage = Coverage.RUNNING
    rake: RakeSchedule = RakeSchedule()
    flush_paytable: PayTable = DEFAULT_FLUSH_PAYTABLE
    straight_flush_paytable: PayTable = DEFAULT_STRAIGHT_FLUSH_PAYTABLE
    max_payout_per_hand: int | None = None
    ante_min: int | None = None
    ante_max: int | None = None
    bank_min: int | None = None
    bank_max: int | None = None
    max_players: int = MOST_PLAYERS
    smallest_chip: int = 1
    qualify_length: int = 3
    qualify_high_rank: int = 9
    rotation_policy: RotationPolicy = RotationPolicy()

    def __post_init__(self) -> None:
        # Accept plain values from Python callers (``coverage="original_bank"``,
        # ``flush_paytable={7: 250}``), then check everything as ``from_dict`` would.
        if self.coverage in tuple(Coverage):
            object.__setattr__(self, "coverage", Coverage(self.coverage))
        for name in ("flush_paytable", "straight_flush_paytable"):
            table = getattr(self, name)
            if not isinstance(table, PayTable) and isinstance(table, Mapping):
                object.__setattr__(self, name, PayTable(table))
        problems = Problems()
        parse_bounded(_parse_rules, self.to_dict(), problems)
        problems.raise_if_any()

    @classmethod
    def from_dict(
        cls,
        data: Mapping[str, Any] | None,
        base: Rules | Mapping[str, Any] | None = None,
    ) -> Rules:
        """Validated effective rules: ``data`` overrides ``base`` (or the defaults) key by key.

        Raises :class:`RuleError` naming every bad setting (``rules.rake.scheme``,
        ``rules.flush_paytable.3``, an unknown key ``rules.colour``).
        """
        return options_from_dict(cls, data, base, keys=RULES_KEYS, parse=_parse_rules)

    def to_dict(self) -> dict[str, Any]:
        """The full effective rules, JSON-ready; ``Rules.from_dict(rules.to_dict()) == rules``."""
        return {
            "coverage": str(self.coverage),
            "rake": self.rake.to_dict(),
            "flush_paytable": self.flush_paytable.to_dict(),
            "straight_flush_paytable": self.straight_flush_paytable.to_dict(),
            "max_payout_per_hand": self.max_payout_per_hand,
            "ante_min": self.ante_min,
            "ante_max": self.ante_max,
            "bank_min": self.bank_min,
            "bank_max": self.bank_max,
            "max_players": self.max_players,
            "smallest_chip": self.smallest_chip,
            "qualify_length": self.qualify_length,
            "qualify_high_rank": self.qualify_high_rank,
            "rotation_policy": self.rotation_policy.to_dict(),
        }

    def qualifier_words(self) -> Message:
        return msg(
            _("a %(length)s-card flush %(rank)s-high or better, or any %(longer)s+ card flush"),
            length=self.qualify_length,
            rank=rank_char(self.qualify_high_rank),
            longer=self.qualify_length + 1,
        )


RULES_KEYS = frozenset(f.name for f in fields(Rules))


def default_rules() -> dict[str, Any]:
    """The brief's default rules, JSON-ready."""
    return Rules().to_dict()


def parse_rules(
    data: Mapping[str, Any] | None, base: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Validated effective rules as JSON: ``data`` merged onto ``base`` or the defaults."""
    return Rules.from_dict(data, base).to_dict()


def _parse_rules(data: Mapping[str, Any], problems: Problems) -> dict[str, Any]:
    """Check a full rules dict; return the typed field values (only meaningful without problems)."""
    out: dict[str, Any] = {}

    def whole(
        key: str, minimum: int, maximum: int | None = None, *, optional: bool, money: bool = False
    ) -> int | None:
        """The setting ``key``; ``money``: it is an amount (its problem writes the bounds as
        money), not a count or a rank."""
        value = data.get(key)
        if value is None and optional:
            return None
        if (
            isinstance(value, int)
            and not isinstance(value, bool)
            and value >= minimum
            and (maximum is None or value <= maximum)
        ):
            return value
        if maximum is not None:
            template = (
                _(
                    "%(name)s must be a whole number of at least %(least)s and at most "
                    "%(most)s or null, got %(value)s"
                )
                if optional
                else _(
                    "%(name)s must be a whole number of at least %(least)s and at most "
                    "%(most)s, got %(value)s"
                )
            )
        else:
            template = (
                _("%(name)s must be a whole number of at least %(least)s or null, got %(value)s")
                if optional
                else _("%(name)s must be a whole number of at least %(least)s, got %(value)s")
            )
        problems.add(
            f"rules.{key}",
            msg(
                template,
                name=key.replace("_", " "),
                least=Money(minimum) if money else minimum,
                value=money_or_repr(value) if money else repr(value),
                **({"most": Money(maximum) if money else maximum} if maximum is not None else {}),
            ),
        )
        return None

    chip = whole("smallest_chip", 1, optional=False, money=True)
    out["smallest_chip"] = chip or 1
    chip = chip or 1

    coverage = data.get("coverage")
    if coverage in tuple(Coverage):
        out["coverage"] = Coverage(coverage)
    else:
        problems.add(
            "rules.coverage",
            msg(
                _("coverage %(value)s is not one of %(choices)s"),
                value=repr(coverage),
                choices=", ".join(Coverage),
            ),
        )
    out["rake"] = _parse_rake(data.get("rake"), chip, problems)
    out["flush_paytable"] = _parse_paytable(data.get("flush_paytable"), "flush", 4, problems)
    out["straight_flush_paytable"] = _parse_paytable(
        data.get("straight_flush_paytable"), "straight_flush", 3, problems
    )
    cap = whole("max_payout_per_hand", 1, optional=True, money=True)
    if cap is not None and cap % chip:
        problems.add(
            "rules.max_payout_per_hand",
            msg(
                _("maximum payout %(amount)s is not a multiple of the smallest chip %(chip)s"),
                amount=Money(cap),
                chip=Money(chip),
            ),
        )
    out["max_payout_per_hand"] = cap
    for low_key, high_key, minimum, below in (
        ("ante_min", "ante_max", 1, _("ante maximum %(high)s is below the ante minimum %(low)s")),
        ("bank_min", "bank_max", 0, _("bank maximum %(high)s is below the bank minimum %(low)s")),
    ):
        low = whole(low_key, minimum, optional=True, money=True)
        high = whole(high_key, minimum, optional=True, money=True)
        if low is not None and high is not None and low > high:
            problems.add(f"rules.{high_key}", msg(below, high=Money(high), low=Money(low)))
        out[low_key], out[high_key] = low, high
    out["max_players"] = whole("max_players", 1, MOST_PLAYERS, optional=False)
    out["qualify_length"] = whole("qualify_length", 2, CARDS_PER_HAND, optional=False)
    out["qualify_high_rank"] = whole("qualify_high_rank", 2, ACE, optional=False)
    policy = data.get("rotation_policy")
    if isinstance(policy, RotationPolicy):
        out["rotation_policy"] = policy
    else:
        try:
            out["rotation_policy"] = RotationPolicy.from_dict(
                policy if isinstance(policy, Mapping) else {}, path="rules.rotation_policy"
            )
        except RuleError as exc:
            problems.extend(exc)
        if policy is not None and not isinstance(policy, Mapping):
            problems.add("rules.rotation_policy", msg(_("rotation_policy must be an object")))
    return out


def _parse_paytable(value: object, name: str, lowest: int, problems: Problems) -> PayTable:
    path = f"rules.{name}_paytable"
    words = Message(PAYTABLE_WORDS[name])
    if not isinstance(value, Mapping):
        problems.add(
            path,
            msg(_('the %(table)s pay table must be an object such as {"7": 200}'), table=words),
        )
        return PayTable()
    lines: dict[int, int] = {}
    for key, odds in value.items():
        line_path = f"{path}.{key}"
        if is_int(key) or isinstance(key, str) and re.fullmatch(r"[0-9]{1,3}", key):
            length = int(key)
        else:
            problems.add(
                line_path,
                msg(
                    _("%(table)s pay table line %(line)s is not a number of cards"),
                    table=words,
                    line=repr(key),
                ),
            )
            continue
        if not lowest <= length <= CARDS_PER_HAND:
            problems.add(
                line_path,
                msg(
                    _(
                        "%(table)s pay table lines are for %(lowest)s to %(most)s cards, not %(line)s"
                    ),
                    table=words,
                    lowest=lowest,
                    most=CARDS_PER_HAND,
                    line=length,
                ),
            )
        elif length in lines:
            problems.add(
                line_path,
                msg(
                    _("%(table)s pay table line %(line)s is given twice"), table=words, line=length
                ),
            )
        elif not is_int(odds) or odds < 1:
            problems.add(
                line_path,
                msg(
                    _(
                        "%(table)s pay table odds must be a whole number of at least 1 (200 for "
                        "200:1), got %(value)s"
                    ),
                    table=words,
                    value=repr(odds),
                ),
            )
        elif odds > MAX_ODDS:
            problems.add(
                line_path,
                msg(
                    _(
                        "%(table)s pay table odds %(odds)s are above the longest allowed, "
                        "%(most)s (%(most)s:1)"
                    ),
                    table=words,
                    odds=odds,
                    most=MAX_ODDS,
                ),
            )
        else:
            lines[length] = odds
    return PayTable(lines)


def _parse_rake(value: object, chip: int, problems: Problems) -> RakeSchedule:
    if not isinstance(value, Mapping):
        problems.add(
            "rules.rake", msg(_('rake must be an object such as {"scheme": ..., "amount": ...}'))
        )
        return RakeSchedule()
    for key in value:
        if key not in ("scheme", "amount", "bands"):
            problems.add(
                f"rules.rake.{key}", msg(_("unknown rake setting '%(key)s'"), key=str(key))
            )
    scheme = value.get("scheme", str(RakeScheme.PER_PLAYER))
    if scheme not in tuple(RakeScheme):
        problems.add(
            "rules.rake.scheme",
            msg(
                _("rake scheme %(value)s is not one of %(choices)s"),
                value=repr(scheme),
                choices=", ".join(RakeScheme),
            ),
        )
        scheme = RakeScheme.PER_PLAYER
    read = RakeReader(problems, path="rules.rake", chip=chip, base="ante")
    amount = read.money(value.get("amount", 0), "amount")
    bands = read.bands(value.get("bands"))
    if bands and amount:
        problems.add(
            "rules.rake",
            msg(_("give the rake either as one amount or as bands by ante, not both")),
        )
    return RakeSchedule(RakeScheme(scheme), amount, bands)


#: The table limits (clause "Table limits"): kept apart from ``rules`` at a table, merged into
#: the hand's rules when it opens.
LIMITS = ("ante_min", "ante_max", "bank_min", "bank_max")


def hand_rules(
    limits: Mapping[str, Any], smallest_chip: int, rules: Mapping[str, Any]
) -> dict[str, Any]:
    """A hand's complete rules: the table's rules with its limits and smallest chip merged in."""
    return parse_rules(
        {**rules, **{name: limits[name] for name in LIMITS}, "smallest_chip": smallest_chip}
    )
