"""The hold page: per table, each gaming day's actual hold against its theoretical value
and interval (an inline SVG chart and the same figures as a table), and the nightly flags.
Compliance and the floor read it; other roles get a 403."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from desk.access import READERS, role_required
from tables.models import Table

from . import selectors, services


class _Refused(ValueError):
    pass


def _day(text: str, default: dt.date, what: str) -> dt.date:
    if not text:
        return default
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise _Refused(f"{what} must be a date such as 2026-12-01, got {text!r}") from None


def _range(request: HttpRequest) -> tuple[dt.date, dt.date, int | None]:
    first_default, last_default = selectors.default_range()
    first = _day(request.GET.get("from", ""), first_default, "the first day")
    last = _day(request.GET.get("to", ""), last_default, "the last day")
    if first > last:
        raise _Refused("the first day is after the last day")
    if (last - first).days + 1 > selectors.MAX_DAYS:
        raise _Refused(f"show at most {selectors.MAX_DAYS} gaming days at once")
    table = request.GET.get("table", "")
    if table and not (table.isascii() and table.isdigit() and len(table) <= 18):
        raise _Refused(f"table must be a table's number, got {table[:40]!r}")
    return first, last, int(table) if table else None


@require_GET
@role_required(*READERS)
def hold_page(request: HttpRequest) -> HttpResponse:
    context: dict[str, Any] = {
        "tables": Table.objects.order_by("name"),
        "chosen": request.GET.get("table", ""),
        "min_hands": services.min_hands(),
        "min_handle": services.min_handle(),
    }
    try:
        first, last, table_id = _range(request)
    except _Refused as error:
        context["error"] = str(error)
        return render(request, "hold/page.html", context, status=400)
    context.update(
        first=first,
        last=last,
        charts=selectors.hold_charts(first, last, table_id=table_id),
        flags=selectors.recent_flags(first, last, table_id=table_id),
    )
    return render(request, "hold/page.html", context)
