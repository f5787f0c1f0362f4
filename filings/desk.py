"""The compliance desk's tax and cash-reporting records: W-2Gs, MTL entries, CTRs and the
notices to the regulator, each linked to its settlement; a page and a CSV of each, the
patrons' numbers masked (the last four characters)."""

from __future__ import annotations

import csv
import datetime as dt
from typing import Any

from django.conf import settings
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from desk.access import READERS, role_required

from . import selectors

PAGE_SIZE = 50


def _day(text: str, what: str, problems: list[str]) -> dt.date | None:
    if not text:
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        problems.append(f"The {what} day is a date such as 2026-12-01; every day is shown.")
        return None


def _filters(request: HttpRequest) -> tuple[str, dt.date | None, dt.date | None, list[str]]:
    problems: list[str] = []
    kind = request.GET.get("kind", "w2g")
    if kind not in selectors.KINDS:
        problems.append("There is no such kind of record; showing the W-2G records.")
        kind = "w2g"
    start = _day(request.GET.get("start", ""), "first", problems)
    end = _day(request.GET.get("end", ""), "last", problems)
    if start and end and end < start:
        problems.append("The last day is before the first; every day is shown.")
        start = end = None
    return kind, start, end, problems


@role_required(*READERS)
@require_GET
def records_page(request: HttpRequest) -> HttpResponse:
    kind, start, end, problems = _filters(request)
    page = Paginator(selectors.records(kind, start=start, end=end), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    rows = [selectors.as_record(kind, row) for row in page]
    query = {k: v for k, v in (("kind", kind), ("start", start), ("end", end)) if v}
    context: dict[str, Any] = {
        "kind": kind,
        "kinds": list(selectors.KINDS.items()),
        "title": selectors.KINDS[kind],
        "start": start,
        "end": end,
        "page": page,
        "rows": rows,
        "problems": problems,
        "query": "&".join(f"{k}={v}" for k, v in query.items() if k != "kind"),
        "currency": settings.CURRENCY,
    }
    return render(request, "filings/records.html", context)


HEADERS = {
    "w2g": ["gaming_day", "entered_at", "table", "hand", "seat", "settlement", "wager_name",
            "wager ({c})", "won ({c})", "patron", "id_kind", "id_number", "tin", "entered_by"],
    "mtl": ["gaming_day", "entered_at", "table", "hand", "seat", "settlement", "win ({c})",
            "patron", "id_kind", "id_number", "tin", "entered_by"],
    "ctr": ["gaming_day", "filed_at", "table", "hand", "settlement", "gaming_day_total ({c})",
            "patron", "id_kind", "id_number", "tin", "filed_by"],
    "notice": ["gaming_day", "at", "table", "hand", "settlement", "win ({c})", "notice_line"],
}  # fmt: skip


def _text(value: Any) -> Any:
    """A cell as written: text a spreadsheet would run as a formula is quoted with ``'``."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def _row(record: selectors.Record) -> list[Any]:
    p = record.patron or {}
    who = [p.get("name", ""), p.get("id_kind_label", ""), p.get("id_number", ""), p.get("tin", "")]
    at = record.at.isoformat(timespec="seconds")
    head = [record.gaming_day.isoformat(), at, record.table, record.hand]
    amount = selectors.major(record.amount)
    if record.kind == "w2g":
        wager = selectors.major(record.wager)
        return [*head, record.seat, record.settlement, record.what, wager, amount, *who, record.by]
    if record.kind == "mtl":
        return [*head, record.seat, record.settlement, amount, *who, record.by]
    if record.kind == "ctr":
        return [*head, record.settlement, amount, *who, record.by]
    return [*head, record.settlement, amount, record.what.removeprefix("notice line ")]


@role_required(*READERS)
@require_GET
def records_csv(request: HttpRequest, kind: str) -> HttpResponse:
    if kind not in selectors.KINDS:
        raise Http404("no such kind of record")
    _, start, end, _ = _filters(request)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    span = f"{start or 'first'}-to-{end or 'last'}"
    response["Content-Disposition"] = f'attachment; filename="{kind}-{span}.csv"'
    writer = csv.writer(response)
    writer.writerow([h.format(c=settings.CURRENCY) for h in HEADERS[kind]])
    for row in selectors.records(kind, start=start, end=end).iterator():
        writer.writerow([_text(cell) for cell in _row(selectors.as_record(kind, row))])
    return response
