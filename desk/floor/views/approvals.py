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
    problems_of,
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
    return _queue_page(request)


def _queue_page(
    request: HttpRequest, refused: queue.Row | None = None, status: int = 200
) -> HttpResponse:
    """The queue; ``refused``: a request whose form was refused, shown with what was typed
    (in place of its row, or first)."""
    filters, ignored = _queue_filters(request.GET)
    rows, total = queue.queue_rows(
        kind=filters["kind"] or None,
        status=None if filters["state"] == "all" else filters["state"],
        table_id=filters["table"],
        limit=QUEUE_LENGTH,
    )
    for row in rows:
        queue.for_user(row, request.user)
    if refused is not None:
        rows = [refused] + [r for r in rows if r.approval.pk != refused.approval.pk]
    context = {
        "rows": rows,
        "total": total,
        "filters": filters,
        "ignored": ignored,
        "kinds": queue.KINDS,
        "states": queue.STATES,
        "tables": Table.objects.order_by("name").values_list("pk", "name"),
    }
    return render(request, "desk/floor/approvals.html", context, status=status)


def _decided_text(approval: Approval, approve: bool) -> str:
    hand = f"hand {approval.hand.number}" if approval.hand else "the hand"
    if approval.kind == Approval.Kind.LIMIT_CHANGE:
        if approve:
            applies = approval.change.applies_from_hand if approval.change else None
            return f"Approved: the change applies at {approval.table.name} from hand {applies}."
        return "Rejected: the table's limits and rules stay as they are."
    if approval.kind == Approval.Kind.PAYOUT:
        if approve and approval.status == Approval.Status.PENDING:
            row = queue.row_of(approval)
            one = len(row.still_needed) == 1 and row.still_needed[0].startswith("1 ")
            still = " and ".join(row.still_needed)
            return (
                f"Signed. The settlement of {hand} is stored once {still} "
                f"{'signs' if one else 'sign'}."
            )
        if approve:
            return f"Signed: the settlement of {hand} is stored."
        return (
            f"Sent back to the dealer: nothing is stored; {hand} is settled again "
            "(or a void is asked for)."
        )
    if approval.kind == Approval.Kind.VOID:
        return f"Approved: {hand} is voided." if approve else f"Rejected: {hand} goes on."
    if approval.kind == Approval.Kind.VARIANCE:
        if approve:
            return f"Accepted: the variance of {approval.table.name}'s closer is reviewed."
        return (
            f"Sent back for investigation: the variance of {approval.table.name}'s closer is "
            "to be explained; the closer stands as counted."
        )
    return "Approved." if approve else "Rejected."


PATRON_FIELDS = ("name", "id_kind", "id_number", "address", "tin")


def _records(post: Any) -> tuple[dict[str, dict[str, Any]], list[int], dict[str, dict[str, str]]]:
    """A payout's records from its sign form: each seat's patron fields (``p-3-name``, ...;
    a seat with none typed is left out), the seats whose CTR is recorded (``ctr-3``), and
    what was typed (kept on the form if it is refused)."""
    typed: dict[str, dict[str, str]] = {}
    for key, value in post.items():
        parts = key.split("-")
        if len(parts) == 3 and parts[0] == "p" and parts[2] in (*PATRON_FIELDS, "patron"):
            typed.setdefault(parts[1], {})[parts[2]] = value.strip()
    patrons: dict[str, dict[str, Any]] = {}
    for seat, fields in typed.items():
        given = {k: v for k, v in fields.items() if v}
        if not given or not seat.isdigit():
            continue
        if "patron" in given:  # the patron on record: only what a CTR adds
            pk = whole(given.pop("patron"))
            given = {k: v for k, v in given.items() if k in ("address", "tin")}
            given["patron"] = pk  # type: ignore[assignment]
        patrons[seat] = given
    ctr = [int(key[4:]) for key in post if key.startswith("ctr-") and key[4:].isdigit()]
    return patrons, ctr, typed


def _field_errors(exc: Exception) -> tuple[dict[str, dict[str, str]], list[str]]:
    """A refusal's problems: those that name a seat's patron field, by seat and field (shown
    next to the control), and the others (shown above the form)."""
    by_seat: dict[str, dict[str, str]] = {}
    others: list[str] = []
    for problem in problems_of(exc):  # type: ignore[arg-type]
        parts = problem.path.split(".")
        if len(parts) >= 2 and parts[0] == "patrons":
            field_name = parts[2] if len(parts) > 2 else "name"
            by_seat.setdefault(parts[1], {})[field_name] = problem.message
        else:
            others.append(problem.message)
    return by_seat, others


def _decide(
    request: HttpRequest, approval_id: int, approve: bool | None, *, save_only: bool = False
) -> HttpResponse:
    """Approve (True; a payout: sign), reject (False) or, for one's own request, withdraw it
    (None); ``save_only``: enter a payout's records without signing."""
    note = request.POST.get("note", "").strip()
    text, ok = "", False
    typed: dict[str, dict[str, str]] = {}
    errors: dict[str, dict[str, str]] = {}
    before = queue.approval_row(approval_id)
    if len(note) > NOTE_LENGTH:
        text = f"A note is at most {NOTE_LENGTH} characters; nothing was decided."
    elif before is not None and before.variance and request.user.pk in before.variance.signer_ids:
        text = (
            "You signed this closer: another floor manager reviews its variance; nothing was "
            "decided."
        )
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
        patrons, ctr, typed = _records(request.POST) if approve else ({}, [], {})
        try:
            if save_only:
                approvals_services.payout_records(
                    user=request.user, approval_id=approval_id, patrons=patrons, ctr=ctr
                )
            else:
                decided = approval_decide(
                    user=request.user,
                    approval_id=approval_id,
                    approve=approve,
                    note=note,
                    patrons=patrons,
                    ctr=ctr,
                )
        except REFUSALS as exc:
            errors, others = _field_errors(exc)
            text = " ".join(others) if others else "Nothing was saved: see the fields below."
            if not others and not save_only:
                text = "Not signed: see the fields below."
        else:
            ok = True
            text = "Records saved." if save_only else _decided_text(decided, approve)
            typed = {}
    row = queue.approval_row(approval_id)
    if row is not None:
        row.notice, row.failed = text, not ok
        queue.for_user(row, request.user, typed, errors)
    if not request.htmx:
        if not ok and (typed or errors) and row is not None:
            return _queue_page(request, row, status=400)  # the fields kept, each problem by it
        messages.add_message(request, messages.SUCCESS if ok else messages.ERROR, text)
        return redirect("floor-approvals")
    return render(
        request,
        "desk/floor/_approval.html",
        {"row": row, "approval_id": approval_id, "notice": text},
    )


@role_required(*FLOOR)
@require_POST
def approval_approve(request: HttpRequest, approval_id: int) -> HttpResponse:
    """Approve a request; a payout's sign form also saves its records without signing
    (``action=save``)."""
    return _decide(request, approval_id, True, save_only=request.POST.get("action") == "save")


@role_required(*FLOOR)
@require_POST
def approval_reject(request: HttpRequest, approval_id: int) -> HttpResponse:
    return _decide(request, approval_id, False)


@role_required(*FLOOR)
@require_POST
def approval_withdraw(request: HttpRequest, approval_id: int) -> HttpResponse:
    """Whoever asked takes their own request back (nothing it asked for happens)."""
    return _decide(request, approval_id, None)
