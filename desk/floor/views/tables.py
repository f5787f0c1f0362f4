"""A table's pages: a new table; the table itself (its limits and rules in words, its latest
hands: a void or a correction asked for); a limit or rule change asked for, with its preview.

Every form is built from the game's schemas field by field (``desk/floor/forms.py``): a list's
add, insert, move and remove buttons post the form with ``_edit``, and the form comes back as
typed with the edit made (htmx swaps it in place); only the form's own button asks the
service, which judges. A refusal is shown next to the field it is about.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from approvals.models import Approval
from casino.core.i18n import problem_text
from casino.core.option_words import describe, title_of
from casino.rules.contract import Game, registry
from casino.rules.contract import game as registered_game
from casino.rules.errors import Problem
from desk.access import FLOOR, role_required
from desk.custody import selectors as custody_selectors
from hold.selectors import ChangeTheory, theory_for_change, theory_for_proposal
from tables.models import Hand, Table
from tables.preview import change_preview
from tables.selectors import hand_list, table_config
from tables.services import (
    change_request,
    correction_request,
    table_create,
    void_request,
)

from ..forms import ChangeForm, CorrectionForm, NewTableForm, current_rules
from ..schema_fields import editing
from .common import (
    HANDS_SHOWN,
    REFUSALS,
    problems_of,
    refusal_text,
)

FORM_ID = "schema-form"


def _form_context(request: HttpRequest, url: str) -> dict[str, Any]:
    """What the field templates read: where a list edit posts, the form's id, the currency."""
    return {"form_url": url, "form_id": FORM_ID, "currency_code": settings.CURRENCY}


def _game_of(table: Table) -> Game:
    return registered_game(table.game)


# ---------------------------------------------------------------- a table's page


def _options_in_words(
    game: Game, table: Table
) -> tuple[list[dict[str, str]], list[dict[str, Any]]]:
    """The table's limits (and smallest chip) and its rules, each titled and in words; a
    rule the table does not set is marked as the game's default."""
    limits_schema = game.limits_schema.get("properties") or {}
    limits = [
        {
            "title": title_of(limits_schema.get(key), key),
            "words": describe(limits_schema.get(key), table.limits.get(key)),
        }
        for key in game.limit_fields
    ]
    limits.append(
        {
            "title": "smallest chip",
            "words": describe({"format": "money", "type": "integer"}, table.smallest_chip),
        }
    )
    rules_schema = game.rules_schema.get("properties") or {}
    rules = [
        {
            "title": title_of(rules_schema.get(key), key),
            "words": describe(rules_schema.get(key), value),
            "default": key not in table.rules,
        }
        for key, value in current_rules(game, table).items()
    ]
    return limits, rules


@role_required(*FLOOR)
@require_GET
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    """The table: game, state, dealer; its limits and rules in words, with a button to ask
    for a change; changes waiting; its latest hands (an open one may be voided, a settled one
    corrected: both asked for, each waiting for another floor manager)."""
    table = get_object_or_404(Table.objects.select_related("dealer"), pk=table_id)
    return render(request, "desk/floor/hands.html", table_context(request, table))


def table_context(request: HttpRequest, table: Table) -> dict[str, Any]:
    """What the table's page shows (also when a form on it comes back refused): its game,
    limits and rules, changes waiting, latest hands, and its chips where custody is kept."""
    game = _game_of(table)
    hands = list(hand_list(table_id=table.pk)[:HANDS_SHOWN])
    limits, rules = _options_in_words(game, table)
    waiting = list(
        Approval.objects.filter(
            table=table, kind=Approval.Kind.LIMIT_CHANGE, status=Approval.Status.PENDING
        ).select_related("requested_by")
    )
    chip_set = custody_selectors.chip_set()
    custody = custody_selectors.table_custody(table, chip_set, request.user) if chip_set else None
    return {
        "table": table,
        "game_name": game.name,
        "hands": hands,
        "limits": limits,
        "rules": rules,
        "waiting_changes": waiting,
        "custody": custody,
        "chip_styles": custody_selectors.chip_styles(custody.chips) if custody else [],
    }


#: The table's hands, as the pit's tiles link them: the table's page.
table_hands = table_page


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
    return redirect("floor-table", table_id=hand.table_id)


# ---------------------------------------------------------------- a limit or rule change


def _change_context(request: HttpRequest, table: Table, form: ChangeForm) -> dict[str, Any]:
    url = reverse("floor-table-change", args=[table.pk])
    return {
        **_form_context(request, url),
        "table": table,
        "game_name": form.game.name,
        "form": form,
        "preview_url": reverse("floor-table-change-preview", args=[table.pk]),
        "edge_known": False,
    }


def _place(form: ChangeForm | NewTableForm | CorrectionForm, problems: list[Problem]) -> None:
    for problem in problems:
        form.placed.place(problem, _words(problem_text(problem)))


def _words(text: str) -> str:
    """An engine's message as a form shows it: what JSON calls null is an empty field."""
    for developer, person in (
        ("(up_to null)", "(no upper end)"),
        ("or null for no limit", "or empty for no upper end"),
        ("(or null for none)", "(or empty for none)"),
        ("(or null)", "(or empty)"),
        (" or null,", " or empty,"),
        ("up_to", "up to"),
    ):
        text = text.replace(developer, person)
    return text


@role_required(*FLOOR)
@require_http_methods(["GET", "POST"])
def table_change(request: HttpRequest, table_id: int) -> HttpResponse:
    """Ask for a limit or rule change: every option with its value in force beside the new
    one, what changes and the theoretical edge before and after as it is filled in, the hand
    it applies from, and a reason; ``change_request`` judges, and the request waits in the
    approvals queue for another floor manager."""
    table = get_object_or_404(Table.objects.select_related("dealer"), pk=table_id)
    game = _game_of(table)
    if request.method == "GET":
        form = ChangeForm(game, table)
        context = {
            **_change_context(request, table, form),
            "edge_now": edge_now(table),
            "edge_known": True,
        }
        return render(request, "desk/floor/change.html", context)
    form = ChangeForm(game, table, request.POST)
    context = _change_context(request, table, form)
    if editing(request.POST):
        form.form.edit(editing(request.POST))
        form.form.clear_errors()
        return render(request, "desk/floor/change.html", context)
    changes = form.changes() if form.form.valid else {}
    reason_ok = form.check_reason()
    if form.form.valid and not changes:
        context["nothing"] = True
    elif form.form.valid and reason_ok:
        try:
            change = change_request(
                user=request.user, table_id=table.pk, changes=changes, reason=form.reason
            )
        except REFUSALS as exc:
            _place(form, problems_of(exc))
        else:
            messages.success(
                request,
                f"Your change of {table.name} waits in the approvals queue for another floor "
                f"manager; once approved it applies from the next hand opened (hand "
                f"{table.next_hand_number} at the earliest).",
            )
            return redirect(
                f"{reverse('floor-approvals')}?table={table.pk}#approval-{change.approval.pk}"
            )
    context["preview"] = change_preview(table=table, changes=changes) if changes else None
    context["problems"] = form.placed.unplaced
    return render(request, "desk/floor/change.html", context, status=400)


@role_required(*FLOOR)
@require_POST
def table_change_preview(request: HttpRequest, table_id: int) -> HttpResponse:
    """The preview of the change being filled in (htmx, as the form changes, and again every
    few seconds while a figure of the edge is still being simulated)."""
    table = get_object_or_404(Table, pk=table_id)
    form = ChangeForm(_game_of(table), table, request.POST)
    context = _change_context(request, table, form)
    if not form.form.valid:
        context["unreadable"] = True
    else:
        changes = form.changes()
        context["preview"] = change_preview(table=table, changes=changes) if changes else None
        if not changes:
            context.update(edge_now=edge_now(table), edge_known=True)
    return render(request, "desk/floor/_change_preview.html", context)


def edge_now(table: Table) -> ChangeTheory | None:
    """The table's theoretical edge as it stands (what the preview shows before anything
    changes)."""
    return theory_for_proposal(table, table_config(table), {})


@role_required(*FLOOR)
@require_GET
def approval_theory(request: HttpRequest, approval_id: int) -> HttpResponse:
    """A pending change's theoretical edge, asked again while a figure is still being
    simulated (the queue's row polls it, htmx)."""
    approval = get_object_or_404(Approval.objects.select_related("table"), pk=approval_id)
    context = {
        "theory": theory_for_change(approval),
        "heading_id": f"change-theory-{approval.pk}",
        "poll_url": reverse("floor-approval-theory", args=[approval.pk]),
    }
    return render(request, "hold/_change_theory.html", context)


# ---------------------------------------------------------------- a correction


@role_required(*FLOOR)
@require_http_methods(["GET", "POST"])
def hand_correct(request: HttpRequest, hand_id: int) -> HttpResponse:
    """Ask for a settled hand to be corrected: its actions, as settled, as rows to edit (each
    a type and that type's fields: seats, amounts in money, cards), and a reason."""
    hand = get_object_or_404(hand_list(), pk=hand_id)
    game = registered_game(hand.game)
    current = hand.settlement
    actions = list(current.history["actions"]) if current else []
    url = reverse("floor-hand-correct", args=[hand.pk])
    data = request.POST if request.method == "POST" else None
    form = CorrectionForm(game, hand, actions, data)
    context = {**_form_context(request, url), "hand": hand, "current": current, "form": form}
    if request.method == "GET":
        return render(request, "desk/floor/correct.html", context)
    if editing(request.POST):
        form.form.edit(editing(request.POST))
        form.form.clear_errors()
        return render(request, "desk/floor/correct.html", context)
    reason_ok = form.check_reason()
    if form.form.valid and reason_ok:
        try:
            correction_request(
                user=request.user, hand_id=hand.pk, reason=form.reason, actions=form.actions()
            )
        except REFUSALS as exc:
            _place(form, problems_of(exc))
        else:
            messages.success(
                request,
                f"The correction of hand {hand.number} waits in the approvals queue for "
                "another floor manager.",
            )
            return redirect(f"{reverse('floor-approvals')}?table={hand.table_id}")
    context["problems"] = form.placed.unplaced
    return render(request, "desk/floor/correct.html", context, status=400)


# ---------------------------------------------------------------- a new table


def _games() -> list[Any]:
    return sorted(registry().values(), key=lambda game: str(game.name))


@role_required(*FLOOR)
@require_http_methods(["GET", "POST"])
def table_new(request: HttpRequest) -> HttpResponse:
    """Choose a game, then fill the form built from its schemas; ``table_create`` judges."""
    data = request.POST if request.method == "POST" else request.GET
    code = data.get("game", "")
    found = registry().get(code) if code else None
    url = reverse("floor-table-new")
    context: dict[str, Any] = {
        **_form_context(request, url),
        "games": _games(),
        "chosen": found,
        "problems": [],
    }
    if found is None:
        if code:
            context["problems"] = ["That game is not played on this floor; choose one below."]
        status = 400 if code else 200
        return render(request, "desk/floor/table_new.html", context, status=status)
    if request.method == "GET":
        context["form"] = NewTableForm(found)
        return render(request, "desk/floor/table_new.html", context)
    form = NewTableForm(found, request.POST)
    context["form"] = form
    if editing(request.POST):
        form.form.edit(editing(request.POST))
        form.form.clear_errors()
        return render(request, "desk/floor/table_new.html", context)
    if form.valid:
        values = form.values()
        dealer = None
        if values["dealer_id"] is not None:
            dealer = get_user_model().objects.filter(pk=values["dealer_id"]).first()
        try:
            table = table_create(
                user=request.user,
                name=values["name"],
                game=found.code,
                limits=values["limits"],
                smallest_chip=values["smallest_chip"],
                seat_count=values["seat_count"],
                dealer=dealer,
                rules=values["rules"],
            )
        except REFUSALS as exc:
            _place(form, problems_of(exc))
        else:
            messages.success(
                request, f"Table {table.name} ({found.name}, {table.seat_count} seats) created."
            )
            return redirect("floor-pit")
    context["problems"] = form.placed.unplaced
    return render(request, "desk/floor/table_new.html", context, status=400)
