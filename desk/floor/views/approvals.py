"""The approvals queue: what waits for a floor manager, decided in one tap each."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from approvals import services as approvals_services
from approvals.models import Approval
from approvals.services import approval_decide
from desk.access import FLOOR, role_required
from tables.models import Table

from .. import queue
from .common import (
    NOTE_LENGTH,
    QUEUE_LENGTH,
    REFUSALS,
    refusal_text,
    whole,
)

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
    rows, total = queue.queue_rows(
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
        "kinds": queue.KINDS,
        "states": queue.STATES,
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
    before = queue.approval_row(approval_id)
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
    row = queue.approval_row(approval_id)
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
