"""What the reports read.

A **shift report** is one gaming day: per table and in total the figures of the hands settled
inside the day, then the large payouts signed off, the hands voided, the corrections and the
limit or rule changes decided in it, and the day's chip custody (``custody.selectors.
day_report``): per table the trays, fills, credits and the counted drop, the statistical win
beside the hands' win, the slips of the day with any unused number, and the variances at
close above the chip set's report line with their reviews. A **table report** is one table over a range of gaming
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
from urllib.parse import urlencode

from django.db.models import Q, QuerySet
from django.utils import timezone

from approvals.models import Approval
from casino.core.option_words import changes_in_words
from casino.rules.contract import registry
from custody.models import ChipSet, Inventory, Slip
from custody.selectors import DayReport, DayRow, Window, day_report, unused_numbers
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


#: A closer's variance above the chip set's report line (reviewed, on the report), and above
#: its notify line (the regulator is told as well).
REPORT_LINE = "report"
NOTIFY_LINE = "notify"


@dataclass(frozen=True)
class CustodyWindow:
    """One of a table's windows of the day: from its opener's signature to its closer's (or
    still open), with the query that lists exactly its hands in the settlements list."""

    start: dt.datetime | None
    end: dt.datetime | None
    hands: int
    query: str
    variance: int | None
    line: str  # "", REPORT_LINE or NOTIFY_LINE


@dataclass(frozen=True)
class CustodyRow:
    """A table's gaming day of custody (or the TOTAL), reconciled both ways; None where a
    figure cannot be known yet (a window still open, a drop box not counted and signed)."""

    label: str
    hands: int | None
    opener: int | None
    closer: int | None
    fills: int | None
    credits: int | None
    drop_cash: int | None
    drop_chips: int | None
    drop: int | None
    statistical_win: int | None
    hand_win: int | None
    win_difference: int | None
    tray_variance: int | None
    collection: int | None
    collection_difference: int | None
    table: Table | None = None
    windows: list[CustodyWindow] = field(default_factory=list)
    line: str = ""  # the highest line a closer of the row went over
    missing: list[str] = field(default_factory=list)  # why a figure is not known yet

    @property
    def is_total(self) -> bool:
        return self.label == TOTAL


@dataclass(frozen=True)
class CustodySlip:
    """A fill or credit slip of the day, as the report lists it."""

    label: str
    kind: str
    table: Table
    total: int
    status: str
    requested_by: str
    requested_at: dt.datetime
    completed_at: dt.datetime | None
    void_reason: str
    voided_by: str

    @property
    def is_void(self) -> bool:
        return self.status == Slip.Status.VOID


@dataclass(frozen=True)
class SlipNumbers:
    """A series' slips of the day (one kind, one calendar year): the first and last numbers
    and the numbers between them no slip of the day took (none expected)."""

    title: str
    first: str
    last: str
    count: int
    void: int
    unused: list[str]


@dataclass(frozen=True)
class Variance:
    """A closer further from its expected tray than the report line: its reason, its review
    in the approvals queue, and whether the regulator is to be notified."""

    table: Table
    closer: Inventory
    counted: int
    expected: int | None
    variance: int
    reason: str
    signed_by: str  # the closer's two signers, in order
    signed_at: dt.datetime | None
    notify: bool
    review: str  # the approval's status ("" when there is none)
    reviewed_by: str
    reviewed_at: dt.datetime | None
    note: str

    @property
    def review_words(self) -> str:
        return REVIEW_WORDS.get(self.review, "not in the approvals queue")


REVIEW_WORDS = {
    Approval.Status.PENDING: "waiting for review",
    Approval.Status.APPROVED: "accepted",
    Approval.Status.REJECTED: "sent back for investigation",
    Approval.Status.WITHDRAWN: "withdrawn",
}


@dataclass(frozen=True)
class ShiftCustody:
    """The gaming day's chip custody."""

    rows: list[CustodyRow]
    total: CustodyRow
    slips: list[CustodySlip]
    series: list[SlipNumbers]
    variances: list[Variance]
    report_above: int | None
    notify_above: int | None

    @property
    def unused(self) -> list[str]:
        return [label for numbers in self.series for label in numbers.unused]


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
    custody: ShiftCustody | None = None  # None: no chip custody recorded this day


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
        custody=shift_custody(day),
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


# ---------------------------------------------------------------- chip custody


def _lines(chips: ChipSet | None, approval: Approval | None) -> tuple[int | None, int | None]:
    """The report and notify lines a closer was judged by: those its review recorded, else
    the chip set's."""
    detail = approval.detail if approval is not None else {}
    report = detail.get("report_above", chips.report_variance_above if chips else None)
    notify = detail.get("notify_above", chips.notify_variance_above if chips else None)
    return report, notify


def _line(variance: int | None, report: int | None, notify: int | None) -> str:
    if variance is None or report is None or abs(variance) <= report:
        return ""
    return NOTIFY_LINE if notify is not None and abs(variance) > notify else REPORT_LINE


def hands_query(window: Window) -> str:
    """The settlements list's query for a window's hands: its table, settled from the
    opener's signature (included) to the closer's (excluded), to the microsecond, written in
    the casino's time zone with its offset."""
    query: dict[str, Any] = {"table": window.table.pk}
    if window.start is not None:
        query["settled_from"] = timezone.localtime(window.start).isoformat()
    if window.end is not None:
        query["settled_to"] = timezone.localtime(window.end).isoformat()
    return urlencode(query)


def _missing(row: DayRow) -> list[str]:
    said = []
    if not row.windows:
        said.append("no counted opener this day")
    elif not row.closed:
        said.append("open: no closer yet")
    if row.drop is None:
        said.append(
            "drop count waiting for its second signature"
            if row.counts_pending
            else "drop box not counted yet"
        )
    return said


def _custody_row(row: DayRow, chips: ChipSet | None, reviews: dict[int, Approval]) -> CustodyRow:
    windows = []
    for window in row.windows:
        closer = window.closer
        variance = closer.variance if closer is not None else None
        approval = reviews.get(closer.pk) if closer is not None else None
        windows.append(
            CustodyWindow(
                start=window.start,
                end=window.end,
                hands=window.figures.hands,
                query=hands_query(window),
                variance=variance,
                line=_line(variance, *_lines(chips, approval)),
            )
        )
    lines = {w.line for w in windows}
    drop = row.drop
    return CustodyRow(
        label=row.table.name,
        table=row.table,
        hands=row.figures.hands,
        opener=row.opener,
        closer=row.closer,
        fills=row.fills,
        credits=row.credits,
        drop_cash=drop.cash_total if drop else None,
        drop_chips=drop.chips_total if drop else None,
        drop=drop.total if drop else None,
        statistical_win=row.statistical_win,
        hand_win=row.hand_win,
        win_difference=row.win_difference,
        tray_variance=row.tray_variance,
        collection=row.figures.rake,
        collection_difference=row.collection_difference,
        windows=windows,
        line=NOTIFY_LINE if NOTIFY_LINE in lines else REPORT_LINE if REPORT_LINE in lines else "",
        missing=_missing(row),
    )


def _summed(rows: list[CustodyRow], name: str) -> int | None:
    """The rows' total of a figure; unknown (None) when a row's is."""
    values = [getattr(row, name) for row in rows]
    return None if not values or None in values else sum(values)


def _custody_total(rows: list[CustodyRow]) -> CustodyRow:
    names = [
        "hands",
        "opener",
        "closer",
        "fills",
        "credits",
        "drop_cash",
        "drop_chips",
        "drop",
        "statistical_win",
        "hand_win",
        "win_difference",
        "tray_variance",
        "collection",
        "collection_difference",
    ]
    return CustodyRow(label=TOTAL, **{name: _summed(rows, name) for name in names})


def _reviews(report: DayReport) -> dict[int, Approval]:
    """The variance reviews of the day's closers, by closer."""
    closers = [w.closer.pk for row in report.rows for w in row.windows if w.closer is not None]
    if not closers:
        return {}
    found = _approvals(Approval.Kind.VARIANCE).filter(
        table_id__in={row.table.pk for row in report.rows}
    )
    reviews: dict[int, Approval] = {}
    for approval in found.order_by("requested_at", "pk"):
        closer = (approval.detail or {}).get("inventory")
        if closer in closers:
            reviews[closer] = approval
    return reviews


def _variances(
    report: DayReport, chips: ChipSet | None, reviews: dict[int, Approval]
) -> list[Variance]:
    found = []
    for row in report.rows:
        for window in row.windows:
            closer = window.closer
            if closer is None:
                continue
            approval = reviews.get(closer.pk)
            line = _line(closer.variance, *_lines(chips, approval))
            if not line:
                continue
            found.append(
                Variance(
                    table=row.table,
                    closer=closer,
                    counted=closer.total,
                    expected=closer.expected,
                    variance=closer.variance or 0,
                    reason=closer.reason,
                    signed_by=", ".join(
                        _name(signature.signed_by)
                        for signature in closer.signatures.select_related("signed_by")
                    ),
                    signed_at=closer.signed_at,
                    notify=line == NOTIFY_LINE,
                    review=approval.status if approval else "",
                    reviewed_by=_name(approval.decided_by) if approval else "",
                    reviewed_at=approval.decided_at if approval else None,
                    note=approval.note if approval else "",
                )
            )
    return found


def slip_label(kind: str, year: int, number: int) -> str:
    """A slip's number as printed (``F-2026-000042``), for a number no slip took too."""
    return Slip(kind=kind, year=year, number=number).label


def _series(slips: list[Slip]) -> list[SlipNumbers]:
    runs: dict[tuple[str, int], list[Slip]] = {}
    for slip in slips:
        runs.setdefault((slip.kind, slip.year), []).append(slip)
    found = []
    for (kind, year), run in runs.items():  # in the slips' order
        numbers = sorted(slip.number for slip in run)
        [gaps] = unused_numbers(run).values()
        found.append(
            SlipNumbers(
                title=f"{Slip.Kind(kind).label.capitalize()} slips {year}",
                first=slip_label(kind, year, numbers[0]),
                last=slip_label(kind, year, numbers[-1]),
                count=len(run),
                void=sum(1 for slip in run if slip.status == Slip.Status.VOID),
                unused=[slip_label(kind, year, number) for number in gaps],
            )
        )
    return found


def shift_custody(day: dt.date) -> ShiftCustody | None:
    """The gaming day's chip custody; None when the day has no custody record."""
    report = day_report(day)
    if not report.rows and not report.slips:
        return None
    chips = report.chip_set
    reviews = _reviews(report)
    rows = [_custody_row(row, chips, reviews) for row in report.rows]
    # Fills first, then credits; each series by number.
    ordered = sorted(
        report.slips, key=lambda slip: (slip.kind != Slip.Kind.FILL, slip.year, slip.number)
    )
    slips = [
        CustodySlip(
            label=slip.label,
            kind=slip.kind,
            table=slip.table,
            total=slip.total,
            status=slip.status,
            requested_by=_name(slip.requested_by),
            requested_at=slip.requested_at,
            completed_at=slip.completed_at,
            void_reason=slip.void_reason,
            voided_by=_name(slip.voided_by) if slip.voided_by_id else "",
        )
        for slip in ordered
    ]
    return ShiftCustody(
        rows=rows,
        total=_custody_total(rows),
        slips=slips,
        series=_series(ordered),
        variances=_variances(report, chips, reviews),
        report_above=chips.report_variance_above if chips else None,
        notify_above=chips.notify_variance_above if chips else None,
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
