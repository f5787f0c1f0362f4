"""What the reports read.

A **shift report** is one gaming day: per table and in total the figures of the hands settled
inside the day, then the large payouts signed off, the hands voided, the corrections and the
limit or rule changes decided in it. A **table report** is one table over a range of gaming
days, a row per day and the total.

The figures and the gaming day are ``payouts.figures``' (one definition for the pit, the
reports and the hold): ``totals()`` over the settlements whose ``settled_at`` falls inside
``gaming_day_bounds(day)``. A voided hand has no settlement, so it counts for nothing.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from approvals.models import Approval
from casino.core.option_words import changes_in_words
from casino.rules.contract import registry
from payouts.figures import Figures, gaming_day, gaming_day_bounds, totals
from payouts.models import Settlement
from tables.models import Hand, Table

FIRST_DAY = dt.date(1900, 1, 1)
LAST_DAY = dt.date(9998, 12, 31)
MAX_RANGE_DAYS = 92  # a table report covers at most a quarter
TOTAL = "TOTAL"
ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class ReportError(ValueError):
    """A report asked for with a parameter it cannot use; the message says which and why."""


# ---------------------------------------------------------------- parameters


def parse_day(value: str | None, *, name: str = "day", default: dt.date | None = None) -> dt.date:
    """A gaming day from a ``YYYY-MM-DD`` parameter; ``default`` (else the current gaming
    day) when it is missing or empty."""
    text = (value or "").strip()
    if not text:
        return default or gaming_day()
    try:
        day = dt.date.fromisoformat(text) if ISO_DAY.fullmatch(text) else None
    except ValueError:  # a month or day that does not exist
        day = None
    if day is None:
        raise ReportError(
            f"{name} must be a calendar date written YYYY-MM-DD, e.g. 2026-12-01; got {text[:40]!r}"
        )
    if not FIRST_DAY <= day <= LAST_DAY:
        raise ReportError(f"{name} must be between {FIRST_DAY} and {LAST_DAY}; got {day}")
    return day


def parse_range(first: str | None, last: str | None) -> tuple[dt.date, dt.date]:
    """A range of gaming days (``from`` and ``to``, both included): by default the week
    ending with the current gaming day."""
    end = parse_day(last, name="to")
    start = parse_day(first, name="from", default=max(FIRST_DAY, end - dt.timedelta(days=6)))
    if start > end:
        raise ReportError(f"the first gaming day ({start}) is after the last ({end})")
    if (end - start).days + 1 > MAX_RANGE_DAYS:
        raise ReportError(
            f"a table report covers at most {MAX_RANGE_DAYS} gaming days; {start} to {end} is "
            f"{(end - start).days + 1}"
        )
    return start, end


def parse_table(value: str | None) -> Table | None:
    """The table a ``table`` parameter names by its id (None when it names none)."""
    text = (value or "").strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise ReportError(f"table must be a table's number; got {text[:40]!r}")
    table = Table.objects.filter(pk=int(text)).first()
    if table is None:
        raise ReportError(f"there is no table {text}")
    return table


def table_choices() -> QuerySet[Table]:
    return Table.objects.order_by("name")


# ---------------------------------------------------------------- what a report holds


def game_name(code: str) -> str:
    """The game's own name, as its package declares it (the code if it is not registered)."""
    game = registry().get(code)
    return game.name if game is not None else code


def hold_percent(figures: Figures) -> str:
    """The hold (win / handle) as a percentage with two decimals, empty with no handle."""
    hold = figures.hold
    return "" if hold is None else f"{hold * 100:.2f}"


@dataclass(frozen=True)
class FigureRow:
    """One row of a figures table: a table's (shift report) or a day's (table report), or the
    total (``label`` TOTAL)."""

    label: str
    figures: Figures
    game: str = ""
    table: Table | None = None
    day: dt.date | None = None

    @property
    def hold_pct(self) -> str:
        return hold_percent(self.figures)

    @property
    def is_total(self) -> bool:
        return self.label == TOTAL


@dataclass(frozen=True)
class Over:
    """What put a settlement over the sign-off limits: a seat's line (``wager``) or its net on
    the hand (``wager`` empty)."""

    seat: int
    wager: str
    amount: int

    @property
    def what(self) -> str:
        return self.wager.replace("_", " ") if self.wager else "net on the hand"


@dataclass(frozen=True)
class PayoutSignoff:
    approval: Approval
    table: Table
    hand_number: int | None
    over: list[Over]
    line_limit: int | None
    net_limit: int | None
    asked_by: str
    asked_at: dt.datetime
    signed_by: str
    signed_at: dt.datetime | None
    note: str


@dataclass(frozen=True)
class Void:
    hand: Hand
    table: Table
    reason: str
    asked_by: str
    asked_at: dt.datetime | None
    approved_by: str
    voided_at: dt.datetime | None
    note: str


@dataclass(frozen=True)
class Correction:
    approval: Approval
    table: Table
    hand_number: int | None
    status: str
    reason: str
    asked_by: str
    asked_at: dt.datetime
    decided_by: str
    decided_at: dt.datetime | None
    note: str


@dataclass(frozen=True)
class FieldChange:
    name: str
    before: str
    after: str


@dataclass(frozen=True)
class LimitChange:
    approval: Approval
    table: Table
    status: str
    fields: list[FieldChange]
    reason: str
    asked_by: str
    asked_at: dt.datetime
    decided_by: str
    decided_at: dt.datetime | None
    note: str
    applies_from_hand: int | None


@dataclass(frozen=True)
class ShiftReport:
    day: dt.date
    start: dt.datetime
    end: dt.datetime
    rows: list[FigureRow]
    total: FigureRow
    payouts: list[PayoutSignoff] = field(default_factory=list)
    voids: list[Void] = field(default_factory=list)
    corrections: list[Correction] = field(default_factory=list)
    changes: list[LimitChange] = field(default_factory=list)


@dataclass(frozen=True)
class TableReport:
    table: Table
    game: str
    first: dt.date
    last: dt.date
    start: dt.datetime
    end: dt.datetime
    rows: list[FigureRow]
    total: FigureRow


# ---------------------------------------------------------------- the shift report


def _name(user: Any) -> str:
    return user.get_username() if user is not None else ""


def settled_between(start: dt.datetime, end: dt.datetime) -> QuerySet[Settlement]:
    """The settlements stored from ``start`` (included) to ``end`` (excluded)."""
    return Settlement.objects.filter(settled_at__gte=start, settled_at__lt=end)


def _in(name: str, start: dt.datetime, end: dt.datetime) -> Q:
    return Q(**{f"{name}__gte": start, f"{name}__lt": end})


def shift_report(day: dt.date) -> ShiftReport:
    """The gaming day's report (see the module's docstring)."""
    start, end = gaming_day_bounds(day)
    settled = settled_between(start, end)
    voided = (
        Hand.objects.filter(_in("closed_at", start, end), status=Hand.Status.VOIDED)
        .select_related("table", "voided_by")
        .order_by("closed_at", "pk")
    )
    tables = settled.order_by().values_list("hand__table_id", flat=True).distinct()
    played = set(tables) | {hand.table_id for hand in voided}
    rows = [
        FigureRow(
            label=table.name,
            game=game_name(table.game),
            table=table,
            figures=totals(settled.filter(hand__table_id=table.pk)),
        )
        for table in Table.objects.filter(pk__in=played).order_by("name")
    ]
    return ShiftReport(
        day=day,
        start=start,
        end=end,
        rows=rows,
        total=FigureRow(label=TOTAL, figures=totals(settled)),
        payouts=list(_payouts(start, end)),
        voids=list(_voids(voided)),
        corrections=list(_corrections(start, end)),
        changes=list(_changes(start, end)),
    )


def _approvals(kind: str) -> QuerySet[Approval]:
    return Approval.objects.filter(kind=kind).select_related(
        "table", "hand", "change", "requested_by", "decided_by"
    )


def over_limits(detail: dict[str, Any]) -> tuple[list[Over], int | None, int | None]:
    """The lines and nets of a held settlement above the limits it was held under (as the
    request recorded both), with those limits."""
    limits = detail.get("limits") or {}
    line_limit, net_limit = limits.get("line"), limits.get("net")
    over: list[Over] = []
    for party in (detail.get("result") or {}).get("seats", []):
        for line in party.get("lines", []):
            if line_limit is not None and line["amount"] > line_limit:
                over.append(Over(party["seat"], line["wager"], line["amount"]))
        if net_limit is not None and party.get("net", 0) > net_limit:
            over.append(Over(party["seat"], "", party["net"]))
    return over, line_limit, net_limit


def _payouts(start: dt.datetime, end: dt.datetime) -> Iterator[PayoutSignoff]:
    """Large payouts signed off in the day (their settlement is stored when signed)."""
    signed = (
        _approvals(Approval.Kind.PAYOUT)
        .filter(_in("decided_at", start, end), status=Approval.Status.APPROVED)
        .prefetch_related("signatures__signed_by")  # every tier's signers, in order
    )
    for approval in signed.order_by("decided_at", "pk"):
        over, line_limit, net_limit = over_limits(approval.detail or {})
        yield PayoutSignoff(
            approval=approval,
            table=approval.table,
            hand_number=approval.hand.number if approval.hand else None,
            over=over,
            line_limit=line_limit,
            net_limit=net_limit,
            asked_by=_name(approval.requested_by),
            asked_at=approval.requested_at,
            signed_by=", ".join(_name(s.signed_by) for s in approval.signatures.all())
            or _name(approval.decided_by),
            signed_at=approval.decided_at,
            note=approval.note,
        )


def _voids(voided: QuerySet[Hand]) -> Iterator[Void]:
    """Hands voided in the day, each with the request that asked for it."""
    asked = {
        approval.hand_id: approval
        for approval in _approvals(Approval.Kind.VOID).filter(
            hand__in=voided, status=Approval.Status.APPROVED
        )
    }
    for hand in voided:
        approval = asked.get(hand.pk)
        yield Void(
            hand=hand,
            table=hand.table,
            reason=hand.void_reason,
            asked_by=_name(approval.requested_by) if approval else "",
            asked_at=approval.requested_at if approval else None,
            approved_by=_name(hand.voided_by),
            voided_at=hand.closed_at,
            note=approval.note if approval else "",
        )


def _corrections(start: dt.datetime, end: dt.datetime) -> Iterator[Correction]:
    """Corrections of settled hands asked for or decided in the day, whatever their state."""
    found = _approvals(Approval.Kind.CORRECTION).filter(
        _in("requested_at", start, end) | _in("decided_at", start, end)
    )
    for approval in found.order_by("requested_at", "pk"):
        yield Correction(
            approval=approval,
            table=approval.table,
            hand_number=approval.hand.number if approval.hand else None,
            status=approval.status,
            reason=approval.reason,
            asked_by=_name(approval.requested_by),
            asked_at=approval.requested_at,
            decided_by=_name(approval.decided_by),
            decided_at=approval.decided_at,
            note=approval.note,
        )


def changed_fields(
    game_code: str, before: dict[str, Any], changes: dict[str, Any]
) -> list[FieldChange]:
    """Each value a change sets, named and written as people read it (``ante maximum``,
    ``$100.00``, ``500:1``, from the game's schemas), with the value it replaced (rules key by
    key, as a change merges them)."""
    return [
        FieldChange(changed.title, changed.before, changed.after)
        for changed in changes_in_words(registry().get(game_code), before, changes)
    ]


def _changes(start: dt.datetime, end: dt.datetime) -> Iterator[LimitChange]:
    """Limit and rule changes decided in the day: approved, rejected or withdrawn."""
    decided = _approvals(Approval.Kind.LIMIT_CHANGE).filter(_in("decided_at", start, end))
    for approval in decided.order_by("decided_at", "pk"):
        change = approval.change
        detail = approval.detail or {}
        before = change.before if change else detail.get("before") or {}
        asked = change.changes if change else detail.get("changes") or {}
        yield LimitChange(
            approval=approval,
            table=approval.table,
            status=approval.status,
            fields=changed_fields(approval.table.game, before, asked),
            reason=approval.reason,
            asked_by=_name(approval.requested_by),
            asked_at=approval.requested_at,
            decided_by=_name(approval.decided_by),
            decided_at=approval.decided_at,
            note=approval.note,
            applies_from_hand=change.applies_from_hand if change else None,
        )


# ---------------------------------------------------------------- the table report


def table_report(table: Table, first: dt.date, last: dt.date) -> TableReport:
    """One table's figures per gaming day from ``first`` to ``last`` (both included)."""
    start, end = gaming_day_bounds(first)[0], gaming_day_bounds(last)[1]
    settled = settled_between(start, end).filter(hand__table_id=table.pk)
    # Only the days with a settlement are summed in the database; the others are zero.
    busy = {gaming_day(moment) for moment in settled.values_list("settled_at", flat=True)}
    rows = []
    for offset in range((last - first).days + 1):
        day = first + dt.timedelta(days=offset)
        figures = Figures()
        if day in busy:
            figures = totals(
                settled_between(*gaming_day_bounds(day)).filter(hand__table_id=table.pk)
            )
        rows.append(FigureRow(label=day.isoformat(), figures=figures, day=day))
    return TableReport(
        table=table,
        game=game_name(table.game),
        first=first,
        last=last,
        start=start,
        end=end,
        rows=rows,
        total=FigureRow(label=TOTAL, figures=totals(settled)),
    )


def local(moment: dt.datetime | None) -> str:
    """A moment in the casino's time zone, to the second (empty for none)."""
    if moment is None:
        return ""
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M:%S")


def zone_name() -> str:
    return timezone.get_current_timezone_name()
