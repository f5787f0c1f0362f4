"""The reports as CSV files.

The figures file has a header row, one row per table (shift report) or per gaming day (table
report) and a TOTAL row. Each section of the shift report is a file of its own, a header row
and one row per item: ``payouts`` (a row per seat line or net over the sign-off limits),
``voids``, ``corrections`` and ``changes`` (a row per value changed).

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

from .selectors import FigureRow, Over, ShiftReport, TableReport

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


SECTIONS = {
    "payouts": payouts,
    "voids": voids,
    "corrections": corrections,
    "changes": changes,
}


def download(filename: str, rows: Iterable[Row]) -> HttpResponse:
    """A CSV attachment named ``filename``."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    for row in rows:
        writer.writerow(["" if value is None else _text(value) for value in row])
    return response
