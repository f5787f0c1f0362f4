"""The cage's queue, the count team's sheet and a slip's print.

- ``/desk/cage/`` (the cage): fills to issue and credits to receive, oldest first, each with
  its denominations and total, signed in one tap each; what the cage signed this gaming day,
  to print again.
- ``/desk/count/`` (the count team): the gaming day's tables with a drop box, a count form
  each (cash by note, chips by denomination), the second counter's signature, corrections
  that keep the count they correct.
- ``/desk/slips/<id>/print/`` (the floor and the cage): a slip as printed, each print
  recorded; every print after the first says REPRINT.

Thin views over ``custody.services``: a refusal is said in words at the field it is about, or
above the table's form; every service is one transaction, so a refusal writes nothing.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from casino.core.money import money
from casino.core.roles import CAGE, has_role
from custody import services as custody
from custody.models import DropCount, Slip
from desk.access import CAGE_DESK, COUNT_DESK, SLIP_PRINTERS, role_required
from desk.floor.views.common import REFUSALS, problems_of, refusal_text, whole
from payouts.figures import gaming_day
from tables.models import Table

from . import selectors
from .forms import CountsForm, Reason, place

# ---------------------------------------------------------------- the cage


@role_required(*CAGE_DESK)
@require_GET
def cage_queue(request: HttpRequest) -> HttpResponse:
    """What waits for the cage, oldest first: fills to issue, credits to receive."""
    chip_set = selectors.chip_set()
    queue = selectors.cage_queue(chip_set)
    for view in (*queue.fills, *queue.credits):
        view.may_sign = not view.signed_by(request.user)
    context = {
        "queue": queue,
        "chip_set": chip_set,
        "chip_styles": selectors.chip_styles(queue.chips),
    }
    return render(request, "desk/custody/cage.html", context)


@role_required(*CAGE_DESK)
@require_POST
def cage_sign(request: HttpRequest, slip_id: int) -> HttpResponse:
    """The cage's signature: a fill's chips left the cage, a credit's arrived."""
    slip = get_object_or_404(Slip.objects.select_related("table"), pk=slip_id)
    try:
        signed = custody.slip_sign(user=request.user, slip_id=slip.pk)
    except REFUSALS as exc:
        messages.error(request, f"{slip.label} is not signed: {refusal_text(exc)}.")
    else:
        if signed.kind == Slip.Kind.FILL:
            text = (
                f"Signed: fill {signed.label} of {money(signed.total)} left the cage for "
                f"{slip.table.name}; it waits for the dealer and a floor manager at the table."
            )
        else:
            text = (
                f"Signed: credit {signed.label} of {money(signed.total)} from "
                f"{slip.table.name} is received at the cage."
            )
        messages.success(request, text)
    return redirect("cage-queue")


# ---------------------------------------------------------------- a slip's print


@role_required(*SLIP_PRINTERS)
@require_http_methods(["GET", "POST"])
def slip_print(request: HttpRequest, slip_id: int) -> HttpResponse:
    """The slip as it prints. Printing (the button, a POST) records the print and shows the
    copy to print (``?copy=N``); every copy after the first says REPRINT."""
    slip = selectors.slip_of(slip_id)
    if slip is None:
        raise Http404(f"there is no slip {slip_id}")
    if request.method == "POST":
        try:
            printed = custody.slip_print(user=request.user, slip_id=slip.pk)
        except REFUSALS as exc:
            messages.error(request, f"{slip.label} was not printed: {refusal_text(exc)}.")
            return redirect("slip-print", slip_id=slip.pk)
        return redirect(f"{reverse('slip-print', args=[slip.pk])}?copy={printed.prints}")
    chip_set = selectors.chip_set()
    chips = selectors.chips_of(chip_set)
    copy = whole(request.GET.get("copy", ""))
    if copy is not None and not 1 <= copy <= slip.prints:
        copy = None
    context = {
        "view": selectors.slip_view(slip, chips),
        "slip": slip,
        "copy": copy,
        "reprint": copy is not None and copy > 1,
        "chip_styles": selectors.chip_styles(chips),
        "back": _back(request, slip),
    }
    return render(request, "desk/custody/slip_print.html", context)


def _back(request: HttpRequest, slip: Slip) -> tuple[str, str]:
    """Where the print page leads back to: the cage's queue or the table's custody."""
    if has_role(request.user, CAGE):
        return reverse("cage-queue"), "Back to the cage's queue"
    url = f"{reverse('floor-table', args=[slip.table_id])}#slip-{slip.pk}"
    return url, f"Back to {slip.table.name}"


# ---------------------------------------------------------------- the count team


def _day(request: HttpRequest) -> tuple[dt.date, str]:
    """The gaming day asked for (``day``, YYYY-MM-DD; default today's), and words when the
    day given is not one."""
    given = (request.POST.get("day") or request.GET.get("day") or "").strip()
    if not given:
        return gaming_day(), ""
    try:
        return dt.date.fromisoformat(given), ""
    except ValueError:
        return gaming_day(), f"{given[:20]!r} is not a day (YYYY-MM-DD): showing today's."


def _sheet(
    request: HttpRequest,
    day: dt.date,
    *,
    forms: dict[int, dict[str, Any]] | None = None,
    status: int = 200,
    ignored: str = "",
) -> HttpResponse:
    """The count sheet of ``day``; ``forms``: a table's (or a count's correction's) form as
    typed and refused, shown in place of an empty one."""
    chip_set = selectors.chip_set()
    boxes, notes, chips = selectors.count_sheet(day, chip_set)
    forms = forms or {}
    for box in boxes:
        latest = box.latest
        typed = forms.get(box.table.pk)
        if typed is not None:
            box.form = typed
            continue
        initial_cash = latest.drop.cash if latest else None
        initial_chips = latest.drop.chips if latest else None
        box.form = {
            "cash": CountsForm(notes, f"cash-{box.table.pk}", initial=initial_cash),
            "chips": CountsForm(chips, f"chips-{box.table.pk}", initial=initial_chips),
            "reason": Reason(None, f"reason-{box.table.pk}"),
            "problems": [],
            "open": False,
        }
    context = {
        "day": day,
        "today": gaming_day(),
        "boxes": boxes,
        "chip_set": chip_set,
        "ignored": ignored,
        "chip_styles": selectors.chip_styles(chips),
    }
    return render(request, "desk/custody/count.html", context, status=status)


@role_required(*COUNT_DESK)
@require_GET
def count_sheet(request: HttpRequest) -> HttpResponse:
    day, ignored = _day(request)
    return _sheet(request, day, ignored=ignored)


def _sheet_url(day: dt.date, anchor: str) -> str:
    query = "" if day == gaming_day() else f"?day={day.isoformat()}"
    return f"{reverse('count-sheet')}{query}#{anchor}"


def _count_forms(
    request: HttpRequest, table: Table, correcting: bool
) -> tuple[dict[str, Any], CountsForm, CountsForm, Reason]:
    chip_set = selectors.chip_set()
    notes = selectors.chips_of(chip_set, "cash")
    chips = selectors.chips_of(chip_set)
    cash = CountsForm(notes, f"cash-{table.pk}", request.POST)
    chip_form = CountsForm(chips, f"chips-{table.pk}", request.POST)
    reason = Reason(request.POST, f"reason-{table.pk}")
    typed = {
        "cash": cash,
        "chips": chip_form,
        "reason": reason,
        "problems": [],
        "open": correcting,
    }
    return typed, cash, chip_form, reason


@role_required(*COUNT_DESK)
@require_POST
def count_drop(request: HttpRequest, table_id: int) -> HttpResponse:
    """A counter enters a table's drop box count (signing it first)."""
    table = get_object_or_404(Table, pk=table_id)
    day, _ = _day(request)
    typed, cash, chips, reason = _count_forms(request, table, correcting=False)
    if cash.valid and chips.valid and reason.valid:
        try:
            drop = custody.drop_count(
                user=request.user,
                table_id=table.pk,
                gaming_day=day,
                cash=cash.counts(),
                chips=chips.counts(),
            )
        except REFUSALS as exc:
            typed["problems"] = place(problems_of(exc), {"cash": cash, "chips": chips}, reason)
        else:
            messages.success(
                request,
                f"{table.name}'s drop box is counted: {money(drop.total)} (cash "
                f"{money(drop.cash_total)}, chips {money(drop.chips_total)}). It waits for a "
                "second counter's signature.",
            )
            return redirect(_sheet_url(day, f"box-{table.pk}"))
    return _sheet(request, day, forms={table.pk: typed}, status=400)


@role_required(*COUNT_DESK)
@require_POST
def count_correct(request: HttpRequest, drop_id: int) -> HttpResponse:
    """A correction of a count: a new count, with its reason, that keeps the one it
    corrects."""
    drop = get_object_or_404(DropCount.objects.select_related("table"), pk=drop_id)
    table, day = drop.table, drop.gaming_day
    typed, cash, chips, reason = _count_forms(request, table, correcting=True)
    reason.require("say why the count is corrected: a correction keeps the count it corrects")
    if cash.valid and chips.valid and reason.valid:
        try:
            fixed = custody.drop_count(
                user=request.user,
                table_id=table.pk,
                gaming_day=day,
                cash=cash.counts(),
                chips=chips.counts(),
                corrects=drop.pk,
                reason=reason.value,
            )
        except REFUSALS as exc:
            typed["problems"] = place(problems_of(exc), {"cash": cash, "chips": chips}, reason)
        else:
            messages.success(
                request,
                f"{table.name}'s count is corrected: {money(drop.total)} becomes "
                f"{money(fixed.total)}; the count it corrects stays, struck through. The "
                "correction waits for a second counter's signature.",
            )
            return redirect(_sheet_url(day, f"box-{table.pk}"))
    return _sheet(request, day, forms={table.pk: typed}, status=400)


@role_required(*COUNT_DESK)
@require_POST
def count_sign(request: HttpRequest, drop_id: int) -> HttpResponse:
    """The second counter's signature on a count."""
    drop = get_object_or_404(DropCount.objects.select_related("table"), pk=drop_id)
    try:
        custody.drop_sign(user=request.user, drop_id=drop.pk)
    except REFUSALS as exc:
        messages.error(request, f"{drop.table.name}'s count is not signed: {refusal_text(exc)}.")
    else:
        messages.success(
            request,
            f"Signed: {drop.table.name}'s drop box count of {money(drop.total)} is signed by "
            "two counters.",
        )
    return redirect(_sheet_url(drop.gaming_day, f"box-{drop.table_id}"))
