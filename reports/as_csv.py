"""The reports as CSV files.

The figures file has a header row, one row per table (shift report) or per gaming day (table
report) and a TOTAL row. Each section of the shift report is a file of its own, a header row
and one row per item: ``payouts`` (a row per seat line or net over the sign-off limits),
``voids``, ``corrections`` and ``changes`` (a row per value changed). Amounts are integer
minor units; moments are ISO 8601 in the casino's time zone.
"""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Iterable, Iterator
from typing import Any

from django.http import HttpResponse
from django.utils import timezone

from .selectors import FigureRow, Over, ShiftReport, TableReport

FIGURES = ["hands", "drop", "payouts", "rake", "win", "hold_pct"]
Row = list[Any]


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
    return [f.hands, f.drop, f.payouts, f.rake, f.win, row.hold_pct]


def shift_figures(report: ShiftReport) -> Iterator[Row]:
    yield ["table", "game", *FIGURES]
    for row in report.rows:
        yield [row.label, row.game, *_figures(row)]
    yield [report.total.label, "", *_figures(report.total)]


def table_figures(report: TableReport) -> Iterator[Row]:
    yield ["gaming_day", "table", "game", *FIGURES]
    for row in report.rows:
        yield [row.label, report.table.name, report.game, *_figures(row)]
    yield [report.total.label, report.table.name, report.game, *_figures(report.total)]


def payouts(report: ShiftReport) -> Iterator[Row]:
    yield [
        "table",
        "hand",
        "seat",
        "over",
        "amount",
        "line_limit",
        "net_limit",
        "asked_by",
        "asked_at",
        "signed_by",
        "signed_at",
        "note",
    ]
    for item in report.payouts:
        who = [item.asked_by, _moment(item.asked_at), item.signed_by, _moment(item.signed_at)]
        limits = [item.line_limit, item.net_limit]
        overs: list[Over | None] = [*item.over] or [None]  # a row even with none listed
        for over in overs:
            seat = [over.seat, over.what, over.amount] if over else ["", "", ""]
            yield [item.table.name, item.hand_number, *seat, *limits, *who, item.note]


def voids(report: ShiftReport) -> Iterator[Row]:
    yield ["table", "hand", "reason", "asked_by", "asked_at", "approved_by", "voided_at", "note"]
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
        "table",
        "hand",
        "status",
        "reason",
        "asked_by",
        "asked_at",
        "decided_by",
        "decided_at",
        "note",
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
        "table",
        "request",
        "status",
        "field",
        "before",
        "after",
        "reason",
        "asked_by",
        "asked_at",
        "decided_by",
        "decided_at",
        "applies_from_hand",
        "note",
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
