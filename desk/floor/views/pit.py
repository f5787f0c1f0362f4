"""The pit: every table as a tile, urgency first, filtered by game and status (kept in the
URL and by the 5-second refresh); a table opened, closed (after a second step that names
it) or given a dealer from its tile. Where chip custody is kept, "Open" and "Close" lead to
the table's count instead, and a tile says which fills, credits and counts wait."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from desk.access import FLOOR, role_required
from desk.custody.selectors import pit_custody
from tables.models import Table
from tables.services import (
    custody_kept,
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


def pit_filters(query: QueryDict) -> tuple[dict[str, str], list[str]]:
    """The pit's filters (``game``, ``status``) from a query string; a value that is not one
    is ignored, with words saying so."""
    ignored: list[str] = []
    games = dict(selectors.game_choices())
    game = query.get("game", "")
    if game and game not in games:
        ignored.append(f"There is no game {game[:40]!r} on this server; showing every game.")
        game = ""
    status = query.get("status", "")
    if status not in dict(selectors.STATUSES):
        ignored.append(f"There is no table status {status[:40]!r}; showing every table.")
        status = ""
    return {"game": game, "status": status}, ignored


def _query(**values: Any) -> str:
    """A query string of the values that are set."""
    return urlencode({key: value for key, value in values.items() if value})


def _pit_context(request: HttpRequest, *, asking: bool = False, **extra: Any) -> dict[str, Any]:
    filters, ignored = pit_filters(request.GET)
    tiles, total = selectors.pit_tiles(**filters)
    # Where chip custody is kept, a table opens and closes through its counted tray: its
    # tile leads to the count, and says which counts and slips wait.
    kept = custody_kept()
    if kept:
        notes = pit_custody([tile.table.pk for tile in tiles])
        for tile in tiles:
            tile.custody = notes.get(tile.table.pk, [])
    # A tile may be asking "close this table?": the refresh keeps asking until it is answered.
    confirm = whole(request.GET.get("confirm", "")) if request.method == "GET" else None
    filter_query = _query(**filters)
    return {
        "tiles": tiles,
        "total": total,
        "dealers": list(selectors.dealers()),
        "filters": filters,
        "ignored": ignored,
        "games": selectors.game_choices(),
        "statuses": selectors.STATUSES,
        "filter_query": filter_query,
        "poll_query": _query(**filters, confirm=confirm),
        "confirm": confirm,
        "asking": asking and confirm is not None,
        "custody": kept,
        **extra,
    }


@role_required(*FLOOR)
@require_GET
def pit(request: HttpRequest) -> HttpResponse:
    """Every table as a tile, refreshed every few seconds by its partial."""
    context = _pit_context(request, asking="ask" in request.GET)
    return render(request, "desk/floor/pit.html", context)


@role_required(*FLOOR)
@require_GET
def pit_tiles(request: HttpRequest) -> HttpResponse:
    """The tiles alone: what the pit polls (and what a tile's "Close table" asks for)."""
    context = _pit_context(request, asking="ask" in request.GET)
    return render(request, "desk/floor/_tiles.html", context)


def _tile_answer(request: HttpRequest, text: str, ok: bool) -> HttpResponse:
    """After a tile's control: the tiles with the outcome beside them (htmx), or the pit
    again with the outcome as a message (the filters kept either way)."""
    if request.htmx:
        notice = {"text": text, "ok": ok}
        return render(request, "desk/floor/_tiles.html", _pit_context(request, notice=notice))
    messages.add_message(request, messages.SUCCESS if ok else messages.ERROR, text)
    filters, _ = pit_filters(request.GET)
    query = _query(**filters)
    return redirect(reverse("floor-pit") + (f"?{query}" if query else ""))


@role_required(*FLOOR)
@require_POST
def table_status(request: HttpRequest, table_id: int) -> HttpResponse:
    """Open or close a table (closing is the second step of the tile's "Close table")."""
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
