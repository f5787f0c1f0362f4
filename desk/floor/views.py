"""The floor manager's desk: the pit at a glance, a new table, the approvals queue.

Thin views: they read through selectors and write through the services the API uses
(``tables.services``, ``approvals.services``). A service's refusal is shown on the page, in
words, and nothing is half-written (every service is one transaction). A control posted by
htmx gets back the part of the page it changed (the pit's tiles, one request's row); posted
without htmx, it gets the page again with a message.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from approvals import services as approvals_services
from approvals.models import Approval
from approvals.services import approval_decide
from casino.core.errors import ApplicationError
from casino.rules.contract import registry
from casino.rules.errors import Problem, RuleError
from desk.access import FLOOR, role_required
from payouts.signoff import Limits, limits_by_table, signoff_limit_set
from tables.models import Hand, Table
from tables.selectors import hand_list
from tables.services import (
    correction_request,
    table_assign_dealer,
    table_create,
    table_set_status,
    void_request,
)

from . import selectors
from .forms import NewTableForm

#: What a service raises when it refuses: its own errors and the games' rule errors.
REFUSALS = (ApplicationError, RuleError)
#: The queue shows at most this many requests (the newest).
QUEUE_LENGTH = 100
#: A table's hands page lists this many of its latest hands.
HANDS_SHOWN = 30
#: A decision's note is at most this long.
NOTE_LENGTH = 500


def whole(text: str) -> int | None:
    """A database id typed into a form or a query string, or None."""
    return int(text) if text.isascii() and text.isdigit() and len(text) < 12 else None


def problems_of(exc: ApplicationError | RuleError) -> list[Problem]:
    return list(exc.problems) or [Problem("", str(exc))]


def refusal_text(exc: ApplicationError | RuleError) -> str:
    return "; ".join(problem.message for problem in problems_of(exc))


# ---------------------------------------------------------------- the pit


def _pit_context(**extra: Any) -> dict[str, Any]:
    return {"tiles": selectors.pit_tiles(), "dealers": list(selectors.dealers()), **extra}


@role_required(*FLOOR)
@require_GET
def pit(request: HttpRequest) -> HttpResponse:
    """Every table as a tile, refreshed every few seconds by its partial."""
    return render(request, "desk/floor/pit.html", _pit_context())


@role_required(*FLOOR)
@require_GET
def pit_tiles(request: HttpRequest) -> HttpResponse:
    """The tiles alone: what the pit polls."""
    return render(request, "desk/floor/_tiles.html", _pit_context())


def _tile_answer(request: HttpRequest, text: str, ok: bool) -> HttpResponse:
    """After a tile's control: the tiles with the outcome beside them (htmx), or the pit
    again with the outcome as a message."""
    if request.htmx:
        notice = {"text": text, "ok": ok}
        return render(request, "desk/floor/_tiles.html", _pit_context(notice=notice))
    messages.add_message(request, messages.SUCCESS if ok else messages.ERROR, text)
    return redirect("floor-pit")


@role_required(*FLOOR)
@require_POST
def table_status(request: HttpRequest, table_id: int) -> HttpResponse:
    """Open or close a table."""
    status = request.POST.get("status", "")
    if status not in Table.Status.values:
        return _tile_answer(request, f"{status!r} is not a table state (open or closed)", False)
    try:
        table = table_set_status(user=request.user, table_id=table_id, status=status)
    except REFUSALS as exc:
        return _tile_answer(request, refusal_text(exc), False)
    return _tile_answer(request, f"Table {table.name} is now {table.status}.", True)


@role_required(*FLOOR)
@require_POST
def table_dealer(request: HttpRequest, table_id: int) -> HttpResponse:
    """Assign a dealer to a table, or nobody."""
    chosen = request.POST.get("dealer", "")
    dealer = None
    if chosen:
        number = whole(chosen)
        dealer = selectors.dealers().filter(pk=number).first() if number else None
        if dealer is None:
            return _tile_answer(request, "Choose a dealer from the list (or nobody).", False)
    try:
        table = table_assign_dealer(user=request.user, table_id=table_id, dealer=dealer)
    except REFUSALS as exc:
        return _tile_answer(request, refusal_text(exc), False)
    who = dealer.get_username() if dealer else "nobody"
    return _tile_answer(request, f"Table {table.name} is dealt by {who}.", True)


# ---------------------------------------------------------------- a table's hands


@role_required(*FLOOR)
@require_GET
def table_hands(request: HttpRequest, table_id: int) -> HttpResponse:
    """The table's latest hands: an open one may be voided (asked for), a settled one
    corrected (asked for); either request waits for another floor manager."""
    table = get_object_or_404(Table, pk=table_id)
    hands = list(hand_list(table_id=table.pk)[:HANDS_SHOWN])
    return render(request, "desk/floor/hands.html", {"table": table, "hands": hands})


@role_required(*FLOOR)
@require_POST
def hand_void(request: HttpRequest, hand_id: int) -> HttpResponse:
    hand = get_object_or_404(Hand, pk=hand_id)
    try:
        void_request(user=request.user, hand_id=hand.pk, reason=request.POST.get("reason", ""))
    except REFUSALS as exc:
        messages.error(request, refusal_text(exc))
    else:
        messages.success(
            request,
            f"The void of hand {hand.number} waits in the approvals queue for another floor "
            "manager.",
        )
    return redirect("floor-table-hands", table_id=hand.table_id)


def _actions_text(actions: list[dict[str, Any]]) -> str:
    """A hand's actions as ``{"actions": [...]}``, one action a line, to read and edit."""
    lines = ",\n".join(f"  {json.dumps(action)}" for action in actions)
    return f'{{"actions": [\n{lines}\n]}}'


@role_required(*FLOOR)
@require_http_methods(["GET", "POST"])
def hand_correct(request: HttpRequest, hand_id: int) -> HttpResponse:
    """Ask for a settled hand to be corrected: its whole list of actions, as settled,
    to edit, and a reason."""
    hand = get_object_or_404(hand_list(), pk=hand_id)
    current = hand.settlement
    body = _actions_text(current.history["actions"]) if current else "{}"
    reason, problems = "", []
    if request.method == "POST":
        reason, body = request.POST.get("reason", ""), request.POST.get("hand", "")
        try:
            corrected = json.loads(body)
        except ValueError as exc:
            problems = [f"the corrected hand is not JSON: {exc}"]
        else:
            if not isinstance(corrected, dict) or set(corrected) - {"actions", "record"}:
                problems = ['send {"actions": [...]} (or {"record": {...}})']
        if not problems:
            try:
                correction_request(
                    user=request.user,
                    hand_id=hand.pk,
                    reason=reason,
                    record=corrected.get("record"),
                    actions=corrected.get("actions"),
                )
            except REFUSALS as exc:
                problems = [
                    p.message if not p.path else f"{p.path}: {p.message}" for p in problems_of(exc)
                ]
            else:
                messages.success(
                    request,
                    f"The correction of hand {hand.number} waits in the approvals queue for "
                    "another floor manager.",
                )
                return redirect(f"{reverse('floor-approvals')}?table={hand.table_id}")
    context = {
        "hand": hand,
        "current": current,
        "body": body,
        "reason": reason,
        "problems": problems,
    }
    return render(request, "desk/floor/correct.html", context, status=400 if problems else 200)


# ---------------------------------------------------------------- sign-off limits


def _limit_rows() -> list[tuple[Table, str, Limits]]:
    """Each table with its game's name and the sign-off limits in force there."""
    tables = list(Table.objects.order_by("name"))
    limits, games = limits_by_table(tables), registry()
    return [(t, games[t.game].name if t.game in games else t.game, limits[t.pk]) for t in tables]


@role_required(*FLOOR)
@require_http_methods(["GET", "POST"])
def signoff_limits(request: HttpRequest) -> HttpResponse:
    """The large-payout sign-off limits in force at each table (its own, its game's or the
    house default) and a form to set a table's or a game's; audited."""
    problems: list[str] = []
    if request.method == "POST":
        scope, line, net = (request.POST.get(k, "") for k in ("scope", "line", "net"))
        table = None
        if scope.startswith("table:"):
            table = Table.objects.filter(pk=whole(scope[6:]) or 0).first()
            if table is None:
                problems.append("choose a table or a game from the list")
        elif not scope.startswith("game:"):
            problems.append("choose a table or a game from the list")
        amounts = [whole(line), whole(net)]
        if None in amounts or 0 in amounts:
            problems.append("the limits are whole amounts in minor units, at least 1")
        if not problems:
            try:
                signoff_limit_set(
                    user=request.user,
                    table=table,
                    game="" if table else scope[5:],
                    line=amounts[0],  # type: ignore[arg-type]
                    net=amounts[1],  # type: ignore[arg-type]
                )
            except REFUSALS as exc:
                problems = [refusal_text(exc)]
            else:
                messages.success(
                    request, f"Sign-off limits set: {line} a line, {net} a seat's net."
                )
                return redirect("floor-signoff-limits")
    context = {
        "rows": _limit_rows(),
        "games": _games(),
        "problems": problems,
    }
    return render(
        request, "desk/floor/signoff_limits.html", context, status=400 if problems else 200
    )


# ---------------------------------------------------------------- a new table


def _games() -> list[Any]:
    return sorted(registry().values(), key=lambda game: game.name)


@role_required(*FLOOR)
@require_http_methods(["GET", "POST"])
def table_new(request: HttpRequest) -> HttpResponse:
    """Choose a game, then fill the form built from its schemas; ``table_create`` judges."""
    data = request.POST if request.method == "POST" else request.GET
    code = data.get("game", "")
    found = registry().get(code) if code else None
    context: dict[str, Any] = {"games": _games(), "chosen": found, "problems": []}
    if found is None:
        if code:
            context["problems"] = [f"{code!r} is not a game on this floor; choose one below."]
        status = 400 if code else 200
        return render(request, "desk/floor/table_new.html", context, status=status)
    if request.method == "GET":
        context["form"] = NewTableForm(found)
        return render(request, "desk/floor/table_new.html", context)
    form = NewTableForm(found, request.POST)
    context["form"] = form
    if form.is_valid():
        try:
            table = table_create(
                user=request.user,
                name=form.cleaned_data["name"],
                game=found.code,
                limits=form.limits(),
                smallest_chip=form.cleaned_data["smallest_chip"],
                seat_count=form.cleaned_data["seat_count"],
                dealer=form.cleaned_data["dealer"],
                rules=form.rules(),
            )
        except REFUSALS as exc:
            for problem in problems_of(exc):
                target = form.field_for(problem.path)
                if target is not None:
                    form.add_error(target, problem.message)
                else:
                    context["problems"].append(problem.message)
        else:
            messages.success(
                request, f"Table {table.name} ({found.name}, {table.seat_count} seats) created."
            )
            return redirect("floor-pit")
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else ""
        for error in errors:
            shown = f"{label}: {error}" if label else error
            if shown not in context["problems"]:
                context["problems"].append(shown)
    return render(request, "desk/floor/table_new.html", context, status=400)


# ---------------------------------------------------------------- the approvals queue


def _queue_filters(query: Any) -> tuple[dict[str, Any], list[str]]:
    """The queue's filters from the query string; a value that is not one is ignored, with a
    word saying so."""
    ignored: list[str] = []
    kind = query.get("kind", "")
    if kind and kind not in Approval.Kind.values:
        ignored.append(f"There is no kind {kind!r}; showing every kind.")
        kind = ""
    state = query.get("state", "pending")
    if state != "all" and state not in Approval.Status.values:
        ignored.append(f"There is no state {state!r}; showing the pending requests.")
        state = "pending"
    table = query.get("table", "")
    table_id = whole(table)
    if table and (table_id is None or not Table.objects.filter(pk=table_id).exists()):
        ignored.append(f"There is no table {table!r}; showing every table.")
        table_id = None
    return {"kind": kind, "state": state, "table": table_id}, ignored


@role_required(*FLOOR)
@require_GET
def approvals(request: HttpRequest) -> HttpResponse:
    """What waits for a floor manager (by default), newest first, each with what approving
    it does."""
    filters, ignored = _queue_filters(request.GET)
    rows, total = selectors.queue_rows(
        kind=filters["kind"] or None,
        status=None if filters["state"] == "all" else filters["state"],
        table_id=filters["table"],
        limit=QUEUE_LENGTH,
    )
    context = {
        "rows": rows,
        "total": total,
        "filters": filters,
        "ignored": ignored,
        "kinds": selectors.KINDS,
        "states": selectors.STATES,
        "tables": Table.objects.order_by("name").values_list("pk", "name"),
    }
    return render(request, "desk/floor/approvals.html", context)


def _decided_text(approval: Approval, approve: bool) -> str:
    hand = f"hand {approval.hand.number}" if approval.hand else "the hand"
    if approval.kind == Approval.Kind.LIMIT_CHANGE:
        if approve:
            applies = approval.change.applies_from_hand if approval.change else None
            return f"Approved: the change applies at {approval.table.name} from hand {applies}."
        return "Rejected: the table's limits and rules stay as they are."
    if approval.kind == Approval.Kind.PAYOUT:
        if approve:
            return f"Signed: the settlement of {hand} is stored."
        return (
            f"Sent back to the dealer: nothing is stored; {hand} is settled again "
            "(or a void is asked for)."
        )
    if approval.kind == Approval.Kind.VOID:
        return f"Approved: {hand} is voided." if approve else f"Rejected: {hand} goes on."
    return "Approved." if approve else "Rejected."


def _decide(request: HttpRequest, approval_id: int, approve: bool | None) -> HttpResponse:
    """Approve (True), reject (False) or, for one's own request, withdraw it (None)."""
    note = request.POST.get("note", "").strip()
    text, ok = "", False
    before = selectors.approval_row(approval_id)
    if len(note) > NOTE_LENGTH:
        text = f"A note is at most {NOTE_LENGTH} characters; nothing was decided."
    elif approve is None:
        try:
            approvals_services.approval_withdraw(
                user=request.user, approval_id=approval_id, note=note
            )
        except REFUSALS as exc:
            text = refusal_text(exc)
        else:
            text, ok = "Withdrawn: nothing it asked for happens.", True
    elif before is not None and not before.decidable:
        text = f"A {before.approval.get_kind_display()} cannot be decided from this desk yet."
    else:
        try:
            decided = approval_decide(
                user=request.user, approval_id=approval_id, approve=approve, note=note
            )
        except REFUSALS as exc:
            text = refusal_text(exc)
        else:
            text, ok = _decided_text(decided, approve), True
    if not request.htmx:
        messages.add_message(request, messages.SUCCESS if ok else messages.ERROR, text)
        return redirect("floor-approvals")
    row = selectors.approval_row(approval_id)
    if row is not None:
        row.notice, row.failed = text, not ok
    return render(
        request,
        "desk/floor/_approval.html",
        {"row": row, "approval_id": approval_id, "notice": text},
    )


@role_required(*FLOOR)
@require_POST
def approval_approve(request: HttpRequest, approval_id: int) -> HttpResponse:
    return _decide(request, approval_id, True)


@role_required(*FLOOR)
@require_POST
def approval_reject(request: HttpRequest, approval_id: int) -> HttpResponse:
    return _decide(request, approval_id, False)


@role_required(*FLOOR)
@require_POST
def approval_withdraw(request: HttpRequest, approval_id: int) -> HttpResponse:
    """Whoever asked takes their own request back (nothing it asked for happens)."""
    return _decide(request, approval_id, None)
