"""The pit: every table as a tile, opened or closed and given a dealer from its tile."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from desk.access import FLOOR, role_required
from tables.models import Table
from tables.services import (
    table_assign_dealer,
    table_set_status,
)

from .. import selectors
from .common import (
    REFUSALS,
    refusal_text,
    whole,
)

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
