"""The compliance desk (compliance and floor managers read; nothing is changed here except
starting an audit check, through the same service as ``POST /api/v1/audit/checks/``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.paginator import Page, Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from casino.audit_verify import formats
from desk.access import READERS, role_required
from payouts import services as payouts
from payouts.figures import totals
from payouts.models import AuditCheck

from . import selectors
from .forms import AuditFilterForm, SettlementFilterForm

PAGE_SIZE = 50


def _page(request: HttpRequest, items: Any) -> Page:
    """The requested page (a page number that is not one gives the first or the last)."""
    return Paginator(items, PAGE_SIZE).get_page(request.GET.get("page"))


@role_required(*READERS)
@require_GET
def settlements(request: HttpRequest) -> HttpResponse:
    form = SettlementFilterForm(request.GET)
    context: dict[str, Any] = {"form": form, "page_size": PAGE_SIZE}
    if not form.is_valid():
        return render(request, "desk/compliance/settlements.html", context, status=400)
    found = selectors.settlement_search(**form.filters())
    page = _page(request, selectors.settlement_rows(found))
    figures = totals(found)
    context.update(
        page=page,
        rows=selectors.settlement_list_rows(page),
        totals=figures,
        hold=f"{figures.hold:.1%}" if figures.hold is not None else "–",
    )
    return render(request, "desk/compliance/settlements.html", context)


@role_required(*READERS)
@require_GET
def settlement(request: HttpRequest, pk: int) -> HttpResponse:
    context = selectors.settlement_detail(settlement_id=pk)
    # The replay draws money as the tablet does: the house currency and its minor units.
    context.update(currency=settings.CURRENCY, currency_exponent=settings.CURRENCY_EXPONENT)
    return render(request, "desk/compliance/settlement.html", context)


@role_required(*READERS)
@require_GET
def settlement_proof(request: HttpRequest, pk: int) -> HttpResponse:
    """The settlement's inclusion proof, as a file for the standalone verifier."""
    document = selectors.settlement_proof(settlement_id=pk)
    if document is None:
        raise Http404("no signed checkpoint covers this settlement yet")
    response = HttpResponse(
        formats.canonical(document) + "\n", content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="settlement-{pk}-proof.json"'
    return response


@role_required(*READERS)
@require_GET
def audit_log(request: HttpRequest) -> HttpResponse:
    form = AuditFilterForm(request.GET)
    checks = selectors.audit_checks_recent()
    running = next((check for check in checks if check.status == AuditCheck.Status.PENDING), None)
    # The newest check still running is watched here too (started before a reload, or by
    # someone else).
    context: dict[str, Any] = {
        "form": form,
        "checks": checks,
        "running": running,
        **selectors.audit_standing(),
    }
    if not form.is_valid():
        return render(request, "desk/compliance/audit.html", context, status=400)
    page = _page(request, selectors.audit_entry_search(**form.filters()))
    context.update(page=page, entries=selectors.entries_described(page.object_list))
    return render(request, "desk/compliance/audit.html", context)


def _check_context(check_id: int) -> dict[str, Any]:
    check = selectors.audit_check(check_id=check_id)
    return {"check": check, "findings": selectors.findings_with_settlements(check)}


@role_required(*READERS)
@require_POST
def audit_check_start(request: HttpRequest) -> HttpResponse:
    """Queue an audit check as the API does; htmx gets the check's progress in place, a plain
    form post goes to the check's page. Both then watch it."""
    check = payouts.audit_check_request(user=request.user, full=bool(request.POST.get("full")))
    if getattr(request, "htmx", False):
        return render(request, "desk/compliance/_check.html", _check_context(check.pk))
    return redirect("compliance-audit-check", pk=check.pk)


@role_required(*READERS)
@require_GET
def audit_check(request: HttpRequest, pk: int) -> HttpResponse:
    return render(request, "desk/compliance/audit_check.html", _check_context(pk))


@role_required(*READERS)
@require_GET
def audit_check_progress(request: HttpRequest, pk: int) -> HttpResponse:
    """The check's status and progress: the part of the page htmx polls while it runs."""
    return render(request, "desk/compliance/_check.html", _check_context(pk))
