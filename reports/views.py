"""The reports' pages and downloads, for compliance and the floor (both read; dealers get a
403). A parameter the report cannot use is a 400 saying which and why, never a 500."""

from __future__ import annotations

import datetime as dt
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from desk.access import READERS, role_required
from payouts.figures import gaming_day
from tables.models import Table

from . import as_csv, as_pdf
from .selectors import (
    FIRST_DAY,
    LAST_DAY,
    MAX_RANGE_DAYS,
    ReportError,
    TableReport,
    parse_day,
    parse_range,
    parse_table,
    shift_report,
    table_choices,
    table_report,
    zone_name,
)

SECTION_TITLES = {
    "payouts": "large payouts signed off",
    "voids": "voids",
    "corrections": "corrections",
    "changes": "limit and rule changes",
}
#: The chip custody's files, offered when the day has custody records.
CUSTODY_TITLES = {
    "custody": "chip custody per table",
    "slips": "fill and credit slips",
    "variances": "variances at close",
}


#: The amount the pages' hints write in both forms (the page's and the CSV's).
EXAMPLE = 125_000


def _money_words() -> dict[str, Any]:
    """What the pages say of amounts: the currency, and one amount as a page and a CSV write
    it."""
    return {
        "currency": settings.CURRENCY,
        "example": EXAMPLE,
        "csv_example": as_csv.major(EXAMPLE),
    }


def _url(name: str, **query: Any) -> str:
    return f"{reverse(name)}?{urlencode(query)}"


def _refused(error: ReportError) -> HttpResponse:
    return HttpResponseBadRequest(f"{error}\n", content_type="text/plain; charset=utf-8")


# ---------------------------------------------------------------- the shift report


@require_GET
@role_required(*READERS)
def shift(request: HttpRequest) -> HttpResponse:
    """One gaming day (``?day=YYYY-MM-DD``, by default the current one)."""
    asked = request.GET.get("day", "")
    context: dict[str, Any] = {
        "zone": zone_name(),
        "current_day": gaming_day(),
        "first_day": FIRST_DAY,
        "last_day": LAST_DAY,
        "day_value": asked,
        **_money_words(),
    }
    try:
        day = parse_day(asked)
    except ReportError as error:
        context["error"] = str(error)
        return render(request, "reports/shift.html", context, status=400)
    stem = f"shift-{day.isoformat()}"
    report = shift_report(day)

    def files(titles: dict[str, str]) -> list[dict[str, str]]:
        return [
            {
                "title": title,
                "url": f"{reverse('compliance-reports-shift-section-csv', args=[section])}?"
                + urlencode({"day": day.isoformat()}),
                "name": f"{stem}-{section}.csv",
            }
            for section, title in titles.items()
        ]

    context.update(
        day_value=day.isoformat(),
        report=report,
        previous_day=_url("compliance-reports", day=(day - dt.timedelta(days=1)).isoformat())
        if day > FIRST_DAY
        else None,
        next_day=_url("compliance-reports", day=(day + dt.timedelta(days=1)).isoformat())
        if day < LAST_DAY
        else None,
        week_from=max(FIRST_DAY, day - dt.timedelta(days=6)).isoformat(),
        csv_url=_url("compliance-reports-shift-csv", day=day.isoformat()),
        csv_name=f"{stem}.csv",
        pdf_url=_url("compliance-reports-shift-pdf", day=day.isoformat()),
        pdf_name=f"{stem}.pdf",
        sections=files(SECTION_TITLES),
        custody_files=files(CUSTODY_TITLES) if report.custody is not None else [],
        custody_api=f"{reverse('custody-day')}?{urlencode({'day': day.isoformat()})}",
    )
    return render(request, "reports/shift.html", context)


@require_GET
@role_required(*READERS)
def shift_csv(request: HttpRequest) -> HttpResponse:
    try:
        day = parse_day(request.GET.get("day"))
    except ReportError as error:
        return _refused(error)
    report = shift_report(day)
    return as_csv.download(f"shift-{day.isoformat()}.csv", as_csv.shift_figures(report))


@require_GET
@role_required(*READERS)
def shift_section_csv(request: HttpRequest, section: str) -> HttpResponse:
    rows = as_csv.SECTIONS.get(section)
    if rows is None:
        return _refused(
            ReportError(f"no section {section[:40]!r}; sections: {', '.join(as_csv.SECTIONS)}")
        )
    try:
        day = parse_day(request.GET.get("day"))
    except ReportError as error:
        return _refused(error)
    report = shift_report(day)
    return as_csv.download(f"shift-{day.isoformat()}-{section}.csv", rows(report))


@require_GET
@role_required(*READERS)
def shift_pdf(request: HttpRequest) -> HttpResponse:
    try:
        day = parse_day(request.GET.get("day"))
    except ReportError as error:
        return _refused(error)
    report = shift_report(day)
    return as_pdf.download(f"shift-{day.isoformat()}.pdf", as_pdf.shift_pdf(report))


# ---------------------------------------------------------------- the table report


def _table_params(request: HttpRequest) -> tuple[Table | None, dt.date, dt.date]:
    """The table (None when none is chosen yet) and the range of gaming days asked for."""
    first, last = parse_range(request.GET.get("from"), request.GET.get("to"))
    return parse_table(request.GET.get("table")), first, last


def _stem(report: TableReport) -> str:
    name = slugify(report.table.name) or str(report.table.pk)
    return f"table-{name}-{report.first.isoformat()}-to-{report.last.isoformat()}"


@require_GET
@role_required(*READERS)
def table(request: HttpRequest) -> HttpResponse:
    """One table over a range of gaming days (``?table=ID&from=YYYY-MM-DD&to=YYYY-MM-DD``, by
    default the week ending with the current gaming day)."""
    context: dict[str, Any] = {
        "zone": zone_name(),
        "tables": table_choices(),
        "chosen": request.GET.get("table", ""),
        "from_value": request.GET.get("from", ""),
        "to_value": request.GET.get("to", ""),
        "max_days": MAX_RANGE_DAYS,
        "first_day": FIRST_DAY,
        "last_day": LAST_DAY,
        **_money_words(),
    }
    try:
        chosen, first, last = _table_params(request)
    except ReportError as error:
        context["error"] = str(error)
        return render(request, "reports/table.html", context, status=400)
    context.update(from_value=first.isoformat(), to_value=last.isoformat())
    if chosen is not None:
        report = table_report(chosen, first, last)
        query = {
            "table": report.table.pk,
            "from": report.first.isoformat(),
            "to": report.last.isoformat(),
        }
        stem = _stem(report)
        context.update(
            report=report,
            chosen=str(report.table.pk),
            csv_url=_url("compliance-reports-table-csv", **query),
            csv_name=f"{stem}.csv",
            pdf_url=_url("compliance-reports-table-pdf", **query),
            pdf_name=f"{stem}.pdf",
        )
    return render(request, "reports/table.html", context)


def _table_download(request: HttpRequest) -> TableReport:
    chosen, first, last = _table_params(request)
    if chosen is None:
        raise ReportError("name the table: ?table=ID (its number)")
    return table_report(chosen, first, last)


@require_GET
@role_required(*READERS)
def table_csv(request: HttpRequest) -> HttpResponse:
    try:
        report = _table_download(request)
    except ReportError as error:
        return _refused(error)
    return as_csv.download(f"{_stem(report)}.csv", as_csv.table_figures(report))


@require_GET
@role_required(*READERS)
def table_pdf(request: HttpRequest) -> HttpResponse:
    try:
        report = _table_download(request)
    except ReportError as error:
        return _refused(error)
    return as_pdf.download(f"{_stem(report)}.pdf", as_pdf.table_pdf(report))
