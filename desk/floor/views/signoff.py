"""The large-payout sign-off limits in force at each table, and a form to set them."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from casino.rules.contract import registry
from desk.access import FLOOR, role_required
from payouts.signoff import Limits, limits_by_table, signoff_limit_set
from tables.models import Table

from .common import (
    REFUSALS,
    refusal_text,
    whole,
)

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
        "games": games_by_name(),
        "problems": problems,
    }
    return render(
        request, "desk/floor/signoff_limits.html", context, status=400 if problems else 200
    )


def games_by_name() -> list[Any]:
    return sorted(registry().values(), key=lambda game: game.name)
