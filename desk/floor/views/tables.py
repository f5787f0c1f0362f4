"""A table's pages: a new table, its latest hands (a void or a correction asked for)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from casino.rules.contract import registry
from desk.access import FLOOR, role_required
from tables.models import Hand, Table
from tables.selectors import hand_list
from tables.services import (
    correction_request,
    table_create,
    void_request,
)

from ..forms import NewTableForm
from .common import (
    HANDS_SHOWN,
    REFUSALS,
    problems_of,
    refusal_text,
)

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
