"""A table's chips, from the floor: count its opener or closer by denomination (the dealer
signs second), give the second signature to a count the dealer made, request a fill or a
credit, sign a slip at the table, void one with a reason.

Thin views over ``custody.services``: a form says in words what is wrong at the row or field
it is about; a service's refusal is placed the same way, or said above the form; every
service is one transaction, so a refusal writes nothing.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from approvals.models import Approval
from casino.core.money import money
from custody import services as custody
from custody.models import Inventory, Slip
from desk.access import FLOOR, role_required
from desk.custody import selectors as desk_custody
from desk.custody.forms import CountsForm, Reason, place
from tables.models import Table

from .common import REFUSALS, problems_of, refusal_text
from .tables import table_context

KIND_WORDS = {Slip.Kind.FILL: "fill", Slip.Kind.CREDIT: "credit"}


def _custody_url(table_id: int, anchor: str = "custody") -> str:
    return f"{reverse('floor-table', args=[table_id])}#{anchor}"


def _no_chips(request: HttpRequest, table_id: int, exc: Exception) -> HttpResponse:
    messages.error(request, refusal_text(exc))  # type: ignore[arg-type]
    return redirect("floor-table", table_id=table_id)


# ---------------------------------------------------------------- openers and closers


@role_required(*FLOOR)
@require_http_methods(["GET", "POST"])
def custody_count(request: HttpRequest, table_id: int) -> HttpResponse:
    """Count the tray by denomination: the opener of a closed table (started from its last
    closer), the closer of an open one (against the tray expected, with a reason beyond the
    report line). The floor manager signs first; the dealer signs second."""
    table = get_object_or_404(Table.objects.select_related("dealer"), pk=table_id)
    try:
        chip_set = custody.chip_set()
    except REFUSALS as exc:
        return _no_chips(request, table.pk, exc)
    state = desk_custody.table_custody(table, chip_set, request.user)
    kind = state.count_kind
    initial = state.proposal.counts if kind == Inventory.Kind.OPENER and state.proposal else {}
    data = request.POST if request.method == "POST" else None
    form = CountsForm(state.chips, "counts", data, initial)
    reason = Reason(data)
    problems: list[str] = []
    if request.method == "POST" and form.valid and reason.valid:
        try:
            counted = custody.inventory_count(
                user=request.user,
                table_id=table.pk,
                kind=kind,
                counts=form.counts(),
                reason=reason.value,
            )
        except REFUSALS as exc:
            problems = place(problems_of(exc), {"counts": form}, reason)
        else:
            messages.success(
                request,
                f"The {kind} of {table.name} is counted: {money(counted.total)}"
                + (
                    f", {desk_custody.variance_words(counted.variance, counted.expected)}"
                    if kind == Inventory.Kind.CLOSER
                    else ""
                )
                + f". It waits for the dealer's signature; the table "
                f"{'opens' if kind == Inventory.Kind.OPENER else 'closes'} when it is signed.",
            )
            return redirect(_custody_url(table.pk))
    context = {
        "table": table,
        "state": state,
        "kind": kind,
        "form": form,
        "reason": reason,
        "problems": problems,
        "chip_styles": desk_custody.chip_styles(state.chips),
    }
    status = 400 if request.method == "POST" else 200
    return render(request, "desk/custody/floor_count.html", context, status=status)


@role_required(*FLOOR)
@require_POST
def inventory_sign(request: HttpRequest, inventory_id: int) -> HttpResponse:
    """The second signature on an opener or a closer the dealer counted: the table opens or
    closes."""
    inventory = get_object_or_404(Inventory.objects.select_related("table"), pk=inventory_id)
    table = inventory.table
    try:
        signed = custody.inventory_sign(user=request.user, inventory_id=inventory.pk)
    except REFUSALS as exc:
        messages.error(request, f"Not signed: {refusal_text(exc)}.")
        return redirect(_custody_url(table.pk))
    if signed.kind == Inventory.Kind.OPENER:
        text = f"{table.name} is open: its opener of {money(signed.total)} is signed."
    else:
        text = (
            f"{table.name} is closed: its closer of {money(signed.total)} is "
            f"{desk_custody.variance_words(signed.variance, signed.expected)}."
        )
        review = Approval.objects.filter(
            kind=Approval.Kind.VARIANCE,
            table=table,
            status=Approval.Status.PENDING,
            detail__inventory=signed.pk,
        ).first()
        if review is not None:
            text += (
                " The variance waits for review by another floor manager in the approvals queue."
            )
    messages.success(request, text)
    return redirect(_custody_url(table.pk))


# ---------------------------------------------------------------- fills and credits


@role_required(*FLOOR)
@require_http_methods(["GET", "POST"])
def slip_request(request: HttpRequest, table_id: int, kind: str) -> HttpResponse:
    """Request a fill (chips from the cage) or a credit (chips to the cage) by denomination;
    the slip takes the next number of its series."""
    table = get_object_or_404(Table.objects.select_related("dealer"), pk=table_id)
    try:
        chip_set = custody.chip_set()
    except REFUSALS as exc:
        return _no_chips(request, table.pk, exc)
    chips = desk_custody.chips_of(chip_set)
    data = request.POST if request.method == "POST" else None
    form = CountsForm(chips, "counts", data)
    problems: list[str] = []
    if request.method == "POST" and form.valid:
        if not form.counts():
            form.error = f"count at least one chip: a {kind} moves chips"
        else:
            try:
                slip = custody.slip_request(
                    user=request.user, table_id=table.pk, kind=kind, counts=form.counts()
                )
            except REFUSALS as exc:
                problems = place(problems_of(exc), {"counts": form})
            else:
                where = (
                    "it waits for the cage"
                    if kind == Slip.Kind.FILL
                    else "it waits for the dealer's and a floor manager's signatures at the table"
                )
                messages.success(
                    request,
                    f"{kind.capitalize()} {slip.label} of {money(slip.total)} requested for "
                    f"{table.name}: {where}.",
                )
                return redirect(_custody_url(table.pk, f"slip-{slip.pk}"))
    context = {
        "table": table,
        "kind": kind,
        "form": form,
        "problems": problems,
        "chip_styles": desk_custody.chip_styles(chips),
    }
    status = 400 if request.method == "POST" else 200
    return render(request, "desk/custody/floor_slip.html", context, status=status)


@role_required(*FLOOR)
@require_POST
def slip_sign(request: HttpRequest, slip_id: int) -> HttpResponse:
    """A floor manager's signature on a slip at the table (a fill received, a credit that
    left the table)."""
    slip = get_object_or_404(Slip, pk=slip_id)
    try:
        custody.slip_sign(user=request.user, slip_id=slip.pk)
    except REFUSALS as exc:
        messages.error(request, f"{slip.label} is not signed: {refusal_text(exc)}.")
    else:
        view = desk_custody.slip_view(desk_custody.slip_of(slip.pk), [])  # type: ignore[arg-type]
        messages.success(request, f"You signed {slip.label}: {view.waiting}.")
    return redirect(_custody_url(slip.table_id, f"slip-{slip.pk}"))


@role_required(*FLOOR)
@require_POST
def slip_void(request: HttpRequest, slip_id: int) -> HttpResponse:
    """Void a slip not yet received, with a reason; its number stays, shown void. A reason
    missing is said at the field, on the table's page again."""
    slip = get_object_or_404(Slip.objects.select_related("table"), pk=slip_id)
    reason = Reason(request.POST)
    if reason.require(f"say why {slip.label} is voided: a slip is voided with a reason"):
        try:
            custody.slip_void(user=request.user, slip_id=slip.pk, reason=reason.value)
        except REFUSALS as exc:
            others = place(problems_of(exc), {}, reason)
            if others:
                messages.error(request, f"{slip.label} is not void: {'; '.join(others)}.")
                return redirect(_custody_url(slip.table_id, f"slip-{slip.pk}"))
        else:
            messages.success(
                request,
                f"{slip.label} is void ({reason.value}); its number stays on the day's slips.",
            )
            return redirect(_custody_url(slip.table_id, f"slip-{slip.pk}"))
    context: dict[str, Any] = table_context(request, slip.table)
    context["void"] = {"slip": slip.pk, "reason": reason.value, "error": reason.error}
    return render(request, "desk/floor/hands.html", context, status=400)
