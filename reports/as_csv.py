"""The reports as CSV files.

The figures file has a header row, one row per table (shift report) or per gaming day (table
report) and a TOTAL row. Each section of the shift report is a file of its own, a header row
and one row per item: ``payouts`` (a row per seat line or net over the sign-off limits),
``voids``, ``corrections`` and ``changes`` (a row per value changed); and, of the day's chip
custody, ``custody`` (a row per table and the TOTAL), ``slips`` (a row per fill or credit
slip, void ones too, then a row per unused number of a series, if any) and ``variances`` (a
row per closer above the report line).

An amount is a plain number in major units, exact (``1250.00`` for 125000 minor units of a
currency with two decimals, ``1250`` with none): no symbol, no grouping, a minus sign when
negative, so that a spreadsheet sums the column; its header names the currency
(``Win (USD)``). Moments are ISO 8601 in the casino's time zone.
"""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Iterable, Iterator
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.http import HttpResponse
from django.utils import timezone

from casino.core.money import major as money_major

from .selectors import CustodyRow, CustodyWindow, FigureRow, Over, ShiftReport, TableReport

Row = list[Any]


def major(minor: int | None) -> Decimal | None:
    """Integer minor units as an exact number of major units (``casino.core.money.major``);
    None stays None (an empty cell). Written as a number, never as text, so a minus sign is
    not quoted."""
    return None if minor is None else money_major(minor)


def amount(header: str) -> str:
    """An amount's column header, naming the currency: ``Win (USD)``."""
    return f"{header} ({settings.CURRENCY})"


def figures_header() -> list[str]:
    return [
        "Hands",
        amount("Handle"),
        amount("Payouts"),
        amount("Rake"),
        amount("Win"),
        "Hold %",
    ]


def _text(value: Any) -> Any:
    """A cell as written: text a spreadsheet would run as a formula is quoted with ``'``
    (numbers, negative ones included, are written as they are)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def _moment(moment: dt.datetime | None) -> str:
    return timezone.localtime(moment).isoformat(timespec="seconds") if moment else ""


def _figures(row: FigureRow) -> Row:
    f = row.figures
    return [f.hands, major(f.handle), major(f.payouts), major(f.rake), major(f.win), row.hold_pct]


def shift_figures(report: ShiftReport) -> Iterator[Row]:
    yield ["Table", "Game", *figures_header()]
    for row in report.rows:
        yield [row.label, row.game, *_figures(row)]
    yield [report.total.label, "", *_figures(report.total)]


def table_figures(report: TableReport) -> Iterator[Row]:
    yield ["Gaming day", "Table", "Game", *figures_header()]
    for row in report.rows:
        yield [row.label, report.table.name, report.game, *_figures(row)]
    yield [report.total.label, report.table.name, report.game, *_figures(report.total)]


def payouts(report: ShiftReport) -> Iterator[Row]:
    yield [
        "Table",
        "Hand",
        "Seat",
        "Over the limit",
        amount("Amount"),
        amount("Line limit"),
        amount("Net limit"),
        "Asked by",
        "Asked at",
        "Signed by",
        "Signed at",
        "Note",
    ]
    for item in report.payouts:
        who = [item.asked_by, _moment(item.asked_at), item.signed_by, _moment(item.signed_at)]
        limits = [major(item.line_limit), major(item.net_limit)]
        overs: list[Over | None] = [*item.over] or [None]  # a row even with none listed
        for over in overs:
            seat = [over.seat, over.what, major(over.amount)] if over else ["", "", ""]
            yield [item.table.name, item.hand_number, *seat, *limits, *who, item.note]


def voids(report: ShiftReport) -> Iterator[Row]:
    yield ["Table", "Hand", "Reason", "Asked by", "Asked at", "Approved by", "Voided at", "Note"]
    for void in report.voids:
        yield [
            void.table.name,
            void.hand.number,
            void.reason,
            void.asked_by,
            _moment(void.asked_at),
            void.approved_by,
            _moment(void.voided_at),
            void.note,
        ]


def corrections(report: ShiftReport) -> Iterator[Row]:
    yield [
        "Table",
        "Hand",
        "Status",
        "Reason",
        "Asked by",
        "Asked at",
        "Decided by",
        "Decided at",
        "Note",
    ]
    for item in report.corrections:
        yield [
            item.table.name,
            item.hand_number,
            item.status,
            item.reason,
            item.asked_by,
            _moment(item.asked_at),
            item.decided_by,
            _moment(item.decided_at),
            item.note,
        ]


def changes(report: ShiftReport) -> Iterator[Row]:
    yield [
        "Table",
        "Request",
        "Status",
        "Limit or rule",
        "Before",
        "After",
        "Reason",
        "Asked by",
        "Asked at",
        "Decided by",
        "Decided at",
        "From hand",
        "Note",
    ]
    for item in report.changes:
        for changed in item.fields:
            yield [
                item.table.name,
                item.approval.pk,
                item.status,
                changed.name,
                changed.before,
                changed.after,
                item.reason,
                item.asked_by,
                _moment(item.asked_at),
                item.decided_by,
                _moment(item.decided_at),
                item.applies_from_hand,
                item.note,
            ]


def _window(window: CustodyWindow) -> str:
    end = _moment(window.end) if window.end else "open"
    return f"{_moment(window.start)} to {end}"


def _custody(row: CustodyRow) -> Row:
    return [
        row.label,
        "; ".join(_window(w) for w in row.windows),
        row.hands,
        major(row.opener),
        major(row.fills),
        major(row.credits),
        major(row.closer),
        major(row.drop_cash),
        major(row.drop_chips),
        major(row.drop),
        major(row.statistical_win),
        major(row.hand_win),
        major(row.win_difference),
        major(row.tray_variance),
        row.line,
        major(row.collection),
        major(row.collection_difference),
        "; ".join(row.missing),
    ]


def custody(report: ShiftReport) -> Iterator[Row]:
    """Chip custody per table: the trays, fills and credits, the counted drop (cash, chips,
    total), the statistical win beside the hands' win, the tray's variance at close (and the
    line it went over: report or notify), the collection recorded against the chips in the
    drop box."""
    yield [
        "Table",
        "Windows (opener to closer)",
        "Hands",
        amount("Opener"),
        amount("Fills"),
        amount("Credits"),
        amount("Closer"),
        amount("Drop: cash"),
        amount("Drop: chips"),
        amount("Drop"),
        amount("Statistical win"),
        amount("Win (hands)"),
        amount("Difference"),
        amount("Tray variance at close"),
        "Over the line",
        amount("Collection recorded"),
        amount("Chips in the drop less collection"),
        "Not known yet",
    ]
    if report.custody is None:
        return
    for row in report.custody.rows:
        yield _custody(row)
    yield _custody(report.custody.total)


def slips(report: ShiftReport) -> Iterator[Row]:
    """Every fill and credit slip of the day by number, void ones with their reason; then a
    row per number of a series the day's slips skipped (none expected)."""
    yield [
        "Slip",
        "Kind",
        "Table",
        amount("Total"),
        "Status",
        "Void reason",
        "Voided by",
        "Requested by",
        "Requested at",
        "Completed at",
    ]
    if report.custody is None:
        return
    for slip in report.custody.slips:
        yield [
            slip.label,
            slip.kind,
            slip.table.name,
            major(slip.total),
            slip.status,
            slip.void_reason,
            slip.voided_by,
            slip.requested_by,
            _moment(slip.requested_at),
            _moment(slip.completed_at),
        ]
    for numbers in report.custody.series:
        for label in numbers.unused:
            yield [label, "", "", None, "unused: no slip of the day has this number"]


def variances(report: ShiftReport) -> Iterator[Row]:
    """Each closer further from its expected tray than the report line, with its reason,
    its review and whether the regulator is to be notified."""
    yield [
        "Table",
        amount("Closer"),
        amount("Expected"),
        amount("Variance"),
        "Reason",
        "Signed by",
        "Signed at",
        "Review",
        "Reviewed by",
        "Reviewed at",
        "Note",
        "Notify the regulator",
    ]
    if report.custody is None:
        return
    for item in report.custody.variances:
        yield [
            item.table.name,
            major(item.counted),
            major(item.expected),
            major(item.variance),
            item.reason,
            item.signed_by,
            _moment(item.signed_at),
            item.review_words,
            item.reviewed_by,
            _moment(item.reviewed_at),
            item.note,
            "yes" if item.notify else "no",
        ]


SECTIONS = {
    "payouts": payouts,
    "voids": voids,
    "corrections": corrections,
    "changes": changes,
    "custody": custody,
    "slips": slips,
    "variances": variances,
}


def download(filename: str, rows: Iterable[Row]) -> HttpResponse:
    """A CSV attachment named ``filename``."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    for row in rows:
        writer.writerow(["" if value is None else _text(value) for value in row])
    return response
