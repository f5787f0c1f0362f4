"""One rake schedule as data, shared by every game.

A :class:`RakeSchedule` says how much the house takes from a *base* the game chooses (a
hand's ante, a pot), in one of four kinds:

* ``none``: nothing;
* ``fixed``: one ``amount``, whatever the base;
* ``banded``: ``bands`` by the base, ``[{"up_to": 1000, "amount": 50}, {"up_to": null,
  "amount": 100}]``: the first band whose ``up_to`` is at least the base gives the fee; only
  the last band may be open-ended (``null``), and a base above a closed top band has no fee;
* ``percent``: ``percent`` of the base (a number with at most two decimals, held exactly as
  basis points), rounded down to the smallest chip, and at most ``cap`` when one is set.

Who pays and when stays with the game: High Card Flush charges a fee per participating hand
by ante and says which seats pay; Five Card Draw 7-A rakes each pot and has "no draw, no
drop"; Paiute and Palace Poker rake their one pot. :meth:`RakeSchedule.take` rakes a main pot
and side pots the way all of them do: a fixed or banded fee (banded by the pots' total) comes
out of the main pot first, then the side pots; a percentage is taken from each pot until the
cap is reached. Never more than a pot holds is taken, so chips are conserved.

As JSON (:func:`parse_rake`) the schedule is ``{"kind": ..., "amount": ..., "bands": [...],
"percent": ..., "cap": ...}``; keys a kind does not use may be left out (and are kept, but
not used, when given). Short forms: ``null`` (no rake), ``{"fixed": 50}`` or ``{"amount":
50}``, ``{"bands": [...]}``, ``{"percent": 5, "cap": 300}``: without ``kind`` the kind follows
from the key given. Every problem is reported with its path (``rules.rake.bands[1].up_to``).
Amounts and the cap are multiples of the smallest chip.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Any, Final

from . import schemas as s
from .errors import Problems, RuleError
from .messages import Message, Money, _, either, joined, msg
from .options import as_money, is_int, money_or_repr, oversized_numbers
from .quick import quick_init


class RakeKind(StrEnum):
    """No rake, a fixed fee, a fee by bands of the base, or a percentage of it with a cap."""

    NONE = "none"
    FIXED = "fixed"
    BANDED = "banded"
    PERCENT = "percent"


# Enum members read in the hot paths, each once: on Python 3.11 a member read through its
# class (``Phase.PLAY``) goes through ``EnumType.__getattr__``'s hook, several times a global.
_RAKEKIND_BANDED = RakeKind.BANDED
_RAKEKIND_FIXED = RakeKind.FIXED
_RAKEKIND_NONE = RakeKind.NONE
_RAKEKIND_PERCENT = RakeKind.PERCENT


ALL_KINDS: Final = tuple(RakeKind)

#: The JSON keys each kind reads (``fixed`` is another name for ``amount``).
KIND_KEYS: Final = {
    RakeKind.NONE: (),
    RakeKind.FIXED: ("amount", "fixed"),
    RakeKind.BANDED: ("bands",),
    RakeKind.PERCENT: ("percent", "cap"),
}

#: How each kind is named when a short form gives two of them.
KIND_WORDS: Final = {
    RakeKind.FIXED: _("a fixed amount"),
    RakeKind.BANDED: _("bands"),
    RakeKind.PERCENT: _("a percent"),
}

#: What a schedule's bands are by (a game's ``base``), in words.
BASE_WORDS: Final = {"pot": _("pot"), "ante": _("ante")}


def _base(base: str) -> str:
    return Message(BASE_WORDS[base]) if base in BASE_WORDS else base


#: The most a percentage may be, in basis points (100%).
WHOLE: Final = 10_000


@dataclass(frozen=True, slots=True)
class RakeBand:
    """Fee ``amount`` for a base up to and including ``up_to`` (None: no upper end)."""

    up_to: int | None
    amount: int

    def to_dict(self) -> dict[str, Any]:
        return {"up_to": self.up_to, "amount": self.amount}


@quick_init
@dataclass(frozen=True, slots=True)
class RakeSchedule:
    """One rake schedule (see the module's description).

    ``amount`` is the fixed fee (kind ``fixed``), ``bands`` the fee by base (kind
    ``banded``), ``basis_points`` the percentage times 100 (kind ``percent``: 500 is 5%) and
    ``cap`` the most a percentage takes (None: no cap). ``chip`` is the smallest chip a
    percentage is rounded down to; it belongs to the table's rules, not to the schedule's
    JSON. Only the fields of the schedule's kind are used.
    """

    kind: RakeKind = RakeKind.NONE
    amount: int = 0
    bands: tuple[RakeBand, ...] = ()
    basis_points: int = 0
    cap: int | None = None
    chip: int = 1

    @classmethod
    def from_dict(
        cls,
        data: object,
        *,
        chip: int = 1,
        path: str = "rules.rake",
        kinds: Iterable[RakeKind] = ALL_KINDS,
        base: str = "pot",
        open_top: bool = False,
    ) -> RakeSchedule:
        """The schedule ``data`` gives (see :func:`parse_rake`); a :class:`RuleError` names
        every problem, each at its path, numbers beyond the maximum amount included."""
        problems = Problems()
        schedule = parse_rake(
            data, problems, chip=chip, path=path, kinds=kinds, base=base, open_top=open_top
        )
        # Numbers beyond the maximum are named as in a game's rules ("rake cap ...").
        parent, _dot, key = path.rpartition(".")
        oversized = oversized_numbers({key: data}, parent) if parent else []
        refused = {problem.path for problem in problems.items}
        problems.items.extend(problem for problem in oversized if problem.path not in refused)
        problems.raise_if_any()
        return schedule

    @property
    def percent(self) -> int | float:
        """The percentage as JSON gives it: ``5`` or ``2.5``."""
        whole, part = divmod(self.basis_points, 100)
        return whole if not part else self.basis_points / 100

    @property
    def charges(self) -> bool:
        """Whether the schedule can take anything at all."""
        if self.kind is _RAKEKIND_FIXED:
            return self.amount > 0
        if self.kind is _RAKEKIND_BANDED:
            return any(band.amount for band in self.bands)
        if self.kind is _RAKEKIND_PERCENT:
            return self.basis_points > 0 and self.cap != 0
        return False

    @property
    def top(self) -> int | None:
        """The largest base a banded schedule has a fee for; None when there is no limit."""
        if self.kind is not _RAKEKIND_BANDED or not self.bands:
            return None
        return self.bands[-1].up_to

    def band_for(self, base: int) -> RakeBand | None:
        """The band ``base`` falls in: the first whose ``up_to`` is at least it, or None."""
        for band in self.bands:
            if band.up_to is None or base <= band.up_to:
                return band
        return None

    def covers(self, base: int) -> bool:
        """False only for a banded schedule and a base above its closed top band."""
        return self.kind is not _RAKEKIND_BANDED or self.band_for(base) is not None

    def fee(self, base: int) -> int:
        """The fee on ``base`` (a whole amount in minor units, at least 0).

        A :class:`RuleError` for a base above a banded schedule's closed top band (check
        :meth:`covers` first where that can happen).
        """
        if base < 0:
            raise ValueError(f"a rake base cannot be negative, got {base}")
        if self.kind is _RAKEKIND_FIXED:
            return self.amount
        if self.kind is _RAKEKIND_BANDED:
            band = self.band_for(base)
            if band is None:
                raise RuleError(
                    msg(
                        _("%(base)s is above the rake schedule's top band (up to %(top)s)"),
                        base=Money(base),
                        top=as_money(self.top),
                    )
                )
            return band.amount
        if self.kind is _RAKEKIND_PERCENT:
            return self._percent_of(base, self.cap)
        return 0

    def take(self, pots: Sequence[int]) -> list[int]:
        """The rake from each pot, main pot first: a fixed or banded fee (banded by the pots'
        total) from the main pot, then the side pots while it is not paid; a percentage
        from each pot, rounded down to the chip, until the cap is reached. Never more than
        a pot holds."""
        takes = [0] * len(pots)
        if self.kind is _RAKEKIND_PERCENT:
            taken = 0
            for index, pot in enumerate(pots):
                left = None if self.cap is None else self.cap - taken
                takes[index] = self._percent_of(pot, left)
                taken += takes[index]
        elif self.kind is not _RAKEKIND_NONE:
            left = self.fee(sum(pots))
            for index, pot in enumerate(pots):
                takes[index] = min(left, pot)
                left -= takes[index]
        return takes

    def _percent_of(self, base: int, most: int | None) -> int:
        cut = base * self.basis_points // (WHOLE * self.chip) * self.chip
        return cut if most is None else min(cut, most)

    def words(self, of: str = _("the pot")) -> Message:
        """The schedule as a dealer says it, ``of`` naming the base (marked for the catalogs):
        ``"5% of the pot, capped at 300"``, ``"a fixed 50 per hand"``, ``"by the pot: 0 up to
        1000, 50 above 1000"``."""
        base = of if isinstance(of, Message) else Message(of)
        if self.kind is _RAKEKIND_FIXED:
            return msg(_("a fixed %(amount)s per hand"), amount=Money(self.amount))
        if self.kind is _RAKEKIND_PERCENT:
            if self.cap is not None:
                return msg(
                    _("%(percent)s%% of %(of)s, capped at %(cap)s"),
                    percent=self.percent,
                    of=base,
                    cap=Money(self.cap),
                )
            return msg(_("%(percent)s%% of %(of)s"), percent=self.percent, of=base)
        if self.kind is _RAKEKIND_BANDED:
            parts: list[Message] = []
            below: int | None = None
            for band in self.bands:
                if band.up_to is not None:
                    parts.append(
                        msg(
                            _("%(amount)s up to %(up_to)s"),
                            amount=Money(band.amount),
                            up_to=Money(band.up_to),
                        )
                    )
                    below = band.up_to
                elif below is not None:
                    parts.append(
                        msg(
                            _("%(amount)s above %(below)s"),
                            amount=Money(band.amount),
                            below=Money(below),
                        )
                    )
                else:
                    parts.append(msg(_("%(amount)s at any size"), amount=Money(band.amount)))
            return msg(
                _("by %(of)s: %(bands)s"), of=base, bands=joined(parts, _("%(first)s, %(next)s"))
            )
        return Message(_("no rake"))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; ``parse_rake(s.to_dict(), chip=s.chip)`` gives ``s`` back."""
        return {
            "kind": str(self.kind),
            "amount": self.amount,
            "bands": [band.to_dict() for band in self.bands],
            "percent": self.percent,
            "cap": self.cap,
        }


class RakeReader:
    """Reads a rake's fields, adding a problem for each bad one at its path under ``path``.

    ``base`` names what the bands are by (``ante``, ``pot``); amounts and the cap must be
    multiples of ``chip``. The games whose rake JSON has a form of its own (High Card Flush)
    read their fields with it, so every game words the same problem the same way.
    """

    def __init__(
        self, problems: Problems, *, path: str = "rules.rake", chip: int = 1, base: str = "pot"
    ) -> None:
        self.problems = problems
        self.path = path
        self.chip = chip
        self.base = base

    def money(self, raw: object, key: str, *, least: int = 0, path: str | None = None) -> int:
        """A whole amount of at least ``least``, a multiple of the chip (0 after a problem)."""
        where = path if path is not None else f"{self.path}.{key}"
        if not is_int(raw) or raw < least:
            self.problems.add(
                where,
                msg(
                    _("rake %(key)s must be a whole number of at least %(least)s, got %(value)s"),
                    key=key,
                    least=Money(least),
                    value=money_or_repr(raw),
                ),
            )
            return 0
        if raw % self.chip:
            self.problems.add(
                where,
                msg(
                    _("rake %(key)s %(amount)s is not a multiple of the smallest chip %(chip)s"),
                    key=key,
                    amount=Money(raw),
                    chip=Money(self.chip),
                ),
            )
        return raw

    def bands(self, raw: object) -> tuple[RakeBand, ...]:
        """Bands by the base: ``up_to`` positive and strictly rising, only the last ``null``."""
        path = f"{self.path}.bands"
        if raw is None:
            return ()
        if isinstance(raw, str | bytes) or not isinstance(raw, Sequence):
            self.problems.add(path, msg(_('rake bands must be a list of {"up_to", "amount"}')))
            return ()
        needs_up_to = (
            _("rake band needs up_to (an %(base)s, or null for no limit)")
            if self.base[:1] in "aeiou"
            else _("rake band needs up_to (a %(base)s, or null for no limit)")
        )
        bands: list[RakeBand] = []
        previous: int = 0
        for index, band in enumerate(raw):
            where = f"{path}[{index}]"
            if not isinstance(band, Mapping):
                self.problems.add(
                    where,
                    msg(_('a rake band must be an object such as {"up_to": 1000, "amount": 50}')),
                )
                continue
            for key in band:
                if key not in ("up_to", "amount"):
                    self.problems.add(
                        f"{where}.{key}",
                        msg(_("unknown rake band setting '%(key)s'"), key=str(key)),
                    )
            if "up_to" not in band:
                self.problems.add(f"{where}.up_to", msg(needs_up_to, base=_base(self.base)))
            up_to = band.get("up_to")
            if up_to is None:
                if index != len(raw) - 1:
                    self.problems.add(
                        f"{where}.up_to", msg(_("only the last rake band may be open-ended"))
                    )
            elif not is_int(up_to) or up_to < 1:
                self.problems.add(
                    f"{where}.up_to",
                    msg(
                        _("rake band up_to must be a positive whole number, got %(value)s"),
                        value=money_or_repr(up_to),
                    ),
                )
                up_to = None
            elif up_to <= previous:
                self.problems.add(
                    f"{where}.up_to",
                    msg(
                        _("rake bands must go up: %(up_to)s is not above %(previous)s"),
                        up_to=Money(up_to),
                        previous=Money(previous),
                    ),
                )
            if "amount" not in band:
                self.problems.add(f"{where}.amount", msg(_("rake band needs an amount")))
            amount = self.money(band.get("amount", 0), "amount", path=f"{where}.amount")
            bands.append(RakeBand(up_to, amount))
            previous = up_to if up_to is not None else previous
        return tuple(bands)

    def basis_points(self, raw: object, *, least: int = 0) -> int:
        """A percentage from 0.01 (``least`` 1) or 0 to 100 with at most two decimals, as
        basis points (0 after a problem)."""
        try:
            if isinstance(raw, bool) or not isinstance(raw, int | float | str):
                raise InvalidOperation
            hundredths = Decimal(str(raw)) * 100
            if hundredths != hundredths.to_integral_value():
                raise InvalidOperation
            points = int(hundredths)
            if not least <= points <= WHOLE:
                raise InvalidOperation
        except (InvalidOperation, ValueError):
            self.problems.add(
                f"{self.path}.percent",
                msg(
                    _(
                        "rake percent must be a number from 0.01 to 100 with at most two "
                        "decimals, got %(value)s"
                    ),
                    value=repr(raw),
                ),
            )
            return 0
        return points

    def cap(self, raw: object) -> int | None:
        """A positive whole amount, a multiple of the chip, or None for no cap."""
        path = f"{self.path}.cap"
        if raw is None:
            return None
        if not is_int(raw) or raw < 1:
            self.problems.add(
                path,
                msg(
                    _("rake cap must be a positive whole number, got %(value)s"),
                    value=money_or_repr(raw),
                ),
            )
            return None
        if raw % self.chip:
            self.problems.add(
                path,
                msg(
                    _("rake cap %(amount)s is not a multiple of the smallest chip %(chip)s"),
                    amount=Money(raw),
                    chip=Money(self.chip),
                ),
            )
        return raw


def parse_rake(
    value: object,
    problems: Problems,
    *,
    chip: int = 1,
    path: str = "rules.rake",
    kinds: Iterable[RakeKind] = ALL_KINDS,
    base: str = "pot",
    open_top: bool = False,
    extra_keys: Sequence[str] = (),
) -> RakeSchedule:
    """Read a rake schedule from JSON, adding every problem to ``problems`` at its path.

    ``kinds`` are the kinds the game offers (a key only another kind reads is unknown);
    ``base`` names what bands are by; ``open_top`` requires a banded schedule's last band to
    be open-ended (for a base, like a pot, that can grow past any limit during the hand);
    ``extra_keys`` are the game's own keys beside the schedule's, read by the game. The
    result is only meaningful when no problem was added.
    """
    offered = tuple(kinds)
    if value is None:
        return RakeSchedule(chip=chip)
    if isinstance(value, RakeSchedule):
        value = value.to_dict()
    if not isinstance(value, Mapping):
        problems.add(
            path,
            msg(_('rake must be an object such as {"kind": "percent", "percent": 5, "cap": 300}')),
        )
        return RakeSchedule(chip=chip)
    known = {"kind", *extra_keys, *(key for kind in offered for key in KIND_KEYS[kind])}
    for key in value:
        if key not in known:
            problems.add(f"{path}.{key}", msg(_("unknown rake setting '%(key)s'"), key=str(key)))
    if "fixed" in value and _RAKEKIND_FIXED in offered:
        if "amount" in value:
            problems.add(
                f"{path}.fixed", msg(_("give the fixed rake as fixed or amount, not both"))
            )
        value = {**value, "amount": value["fixed"]}

    if "kind" in value:
        raw_kind = value["kind"]
    else:
        given = [
            kind for kind in offered if kind is not _RAKEKIND_NONE and KIND_KEYS[kind][0] in value
        ]
        if len(given) > 1:
            named = [Message(KIND_WORDS[kind]) for kind in offered if kind in KIND_WORDS]
            problems.add(path, msg(_("give the rake either as %(kinds)s"), kinds=either(named)))
        raw_kind = str(given[0]) if len(given) == 1 else str(_RAKEKIND_NONE)
    if raw_kind in offered:
        kind = RakeKind(raw_kind)
    else:
        problems.add(
            f"{path}.kind",
            msg(
                _("rake kind %(kind)s is not one of %(kinds)s"),
                kind=repr(raw_kind),
                kinds=", ".join(offered),
            ),
        )
        kind = _RAKEKIND_NONE

    read = RakeReader(problems, path=path, chip=chip, base=base)
    amount = 0
    if _RAKEKIND_FIXED in offered:
        least = 1 if kind is _RAKEKIND_FIXED else 0
        amount = read.money(value.get("amount", 0), "amount", least=least)
    bands: tuple[RakeBand, ...] = ()
    if _RAKEKIND_BANDED in offered:
        before = len(problems.items)
        bands = read.bands(value.get("bands"))
        if kind is _RAKEKIND_BANDED and len(problems.items) == before:
            if not bands:
                problems.add(f"{path}.bands", msg(_("a banded rake needs at least one band")))
            elif open_top and bands[-1].up_to is not None:
                problems.add(
                    f"{path}.bands[{len(bands) - 1}].up_to",
                    msg(
                        _(
                            "the last rake band must be open-ended (up_to null): the %(base)s "
                            "may grow past %(up_to)s"
                        ),
                        base=_base(base),
                        up_to=Money(bands[-1].up_to),
                    ),
                )
    basis_points = 0
    cap = None
    if _RAKEKIND_PERCENT in offered:
        least = 1 if kind is _RAKEKIND_PERCENT else 0
        basis_points = read.basis_points(value.get("percent", 0), least=least)
        cap = read.cap(value.get("cap"))
    return RakeSchedule(kind, amount, bands, basis_points, cap, chip)


def rake_words(take: int, schedule_words: str, pot: int, charged: Mapping[int, int]) -> Message:
    """The explanation of a pot's rake, without a closing full stop: ``"Rake 15 (5% of the
    pot), taken from the pot of 300 before it is shared and charged to the winner, seat 2"``;
    ``charged`` is each winner's part of it."""
    if not take:
        return msg(
            _("Rake 0 (%(schedule)s): nothing is taken from the pot of %(pot)s"),
            schedule=schedule_words,
            pot=Money(pot),
        )
    parts = [(seat, amount) for seat, amount in charged.items() if amount]
    who: Message
    if len(parts) == 1:
        who = msg(_("the winner, seat %(seat)s"), seat=parts[0][0])
    else:
        shares = [
            msg(_("seat %(seat)s %(amount)s"), seat=seat, amount=Money(amount))
            for seat, amount in parts
        ]
        who = msg(_("the winners: %(shares)s"), shares=joined(shares, _("%(first)s, %(next)s")))
    return msg(
        _(
            "Rake %(take)s (%(schedule)s), taken from the pot of %(pot)s before it is shared "
            "and charged to %(who)s"
        ),
        take=Money(take),
        schedule=schedule_words,
        pot=Money(pot),
        who=who,
    )


# ---------------------------------------------------------------- the schedule's schema

#: Each kind in words, for a form's choice (``{base}``: what the bands or percentage are of).
KIND_TITLES: Final = {
    RakeKind.NONE: "no rake",
    RakeKind.FIXED: "a fixed fee per hand",
    RakeKind.BANDED: "a fee by bands of the {base}",
    RakeKind.PERCENT: "a percentage of the {base}",
}


def band_schema(base: str = "pot") -> dict[str, Any]:
    """One band: the largest ``base`` it covers (empty: no upper end) and its fee."""
    return s.obj(
        {
            "up_to": s.money(
                "up to",
                f"the largest {base} this band covers",
                nullable=True,
                none="no upper end",
            ),
            "amount": s.money("fee", f"the fee for {base}s in this band", minimum=0),
        },
        required=["up_to", "amount"],
        title="band",
    )


def bands_schema(base: str = "pot", *, open_top: bool = False) -> dict[str, Any]:
    """Fee bands by ``base``, going up; ``open_top``: the last must have no upper end."""
    last = (
        "the last has no upper end"
        if open_top
        else "only the last may have no upper end; above a closed top band there is no fee"
    )
    return s.rows(
        f"fee bands by {base}",
        band_schema(base),
        f"the first band whose top covers the {base} gives the fee; the tops go up and {last}",
    )


def rake_schema(
    *,
    kinds: Iterable[RakeKind] = ALL_KINDS,
    base: str = "pot",
    open_top: bool = False,
    title: str = "rake",
    description: str = "",
    extra: Mapping[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The schema of a rake schedule as :func:`parse_rake` reads it, limited to ``kinds``:
    its kind (titled choices), then the fields of each kind offered (the fixed fee, the
    bands by ``base``, the percentage and its cap), and the game's ``extra`` keys."""
    offered = tuple(kinds)
    titles = {str(kind): KIND_TITLES[kind].format(base=base) for kind in offered}
    properties: dict[str, dict[str, Any]] = {
        "kind": s.choice(
            [str(kind) for kind in offered],
            "how the house takes its rake",
            titles=titles,
            title="rake taken as",
        )
    }
    if _RAKEKIND_FIXED in offered:
        properties["amount"] = s.money(
            "fixed fee", "the fee per hand, when the rake is a fixed fee", minimum=0
        )
    if _RAKEKIND_BANDED in offered:
        properties["bands"] = bands_schema(base, open_top=open_top)
    if _RAKEKIND_PERCENT in offered:
        properties["percent"] = s.percent(
            "percentage",
            f"the share of the {base} taken, when the rake is a percentage (at most two "
            "decimals), rounded down to the smallest chip",
        )
        properties["cap"] = s.money(
            "cap",
            "the most a percentage takes from one hand",
            nullable=True,
            none="no cap",
        )
    properties.update(extra or {})
    return s.obj(properties, title=title, description=description)


__all__ = [
    "ALL_KINDS",
    "KIND_TITLES",
    "RakeBand",
    "RakeKind",
    "RakeReader",
    "RakeSchedule",
    "band_schema",
    "bands_schema",
    "parse_rake",
    "rake_schema",
    "rake_words",
]
