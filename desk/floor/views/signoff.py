"""Large-payout sign-off as data: the tiers in force at each table, and a form to set the
tiers of the house, a game or a table (amounts in major units with the currency)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from casino.core import money as amounts
from casino.core.money import money
from casino.core.roles import SIGNING_ROLES
from casino.rules.contract import registry
from desk.access import FLOOR, role_required
from payouts.models import SignoffPolicy
from payouts.signoff import (
    MAX_COUNT,
    MAX_THRESHOLD,
    MAX_TIERS,
    Policy,
    Prompts,
    default_policy,
    policies_by_table,
    presets,
    signoff_policy_clear,
    signoff_policy_set,
    tiers_of,
)
from tables.models import Table

from .common import REFUSALS, problems_of, whole

#: Rows of tiers the form offers (blank ones are left out).
TIER_ROWS = 4


def parse_major(text: str) -> int | None:
    """An amount typed in major units (``1,199.99``, ``5000``, ``$5,000``) as minor units;
    None when it is not one (more decimals than the currency has included)."""
    try:
        return amounts.parse_major(text or "")
    except ValueError:
        return None


major_text = amounts.major_text


@dataclass
class Scope:
    key: str  # "house", "game:<code>", "table:<id>"
    label: str
    table: Table | None = None
    game: str = ""


def _scopes(tables: list[Table]) -> list[Scope]:
    games = sorted(registry().values(), key=lambda game: game.name)
    return (
        [Scope("house", "the house (every table without tiers of its own or its game's)")]
        + [Scope(f"game:{g.code}", f"every {g.name} table", game=g.code) for g in games]
        + [Scope(f"table:{t.pk}", f"table {t.name}", table=t) for t in tables]
    )


@dataclass
class Row:
    table: Table
    game_name: str
    policy: Policy


def _policy_of(row: SignoffPolicy | None, source: str) -> Policy | None:
    return Policy(tiers_of(row.tiers), row.notice, source) if row is not None else None


def _current(scope: Scope, rows: list[SignoffPolicy], in_force: dict[int, Policy]) -> Policy:
    """What the form starts from for ``scope``: its own policy, else what is in force."""
    if scope.table is not None:
        return in_force[scope.table.pk]
    if scope.game:
        own = next((r for r in rows if r.game == scope.game), None)
        house = next((r for r in rows if not r.table_id and not r.game), None)
        return _policy_of(own, "game") or _policy_of(house, "house") or default_policy()
    house = next((r for r in rows if not r.table_id and not r.game), None)
    return _policy_of(house, "house") or default_policy()


def _form_values(policy: Policy) -> dict[str, Any]:
    tiers = [
        {"above": major_text(t.above), "role": t.role, "count": str(t.count)} for t in policy.tiers
    ]
    blank = {"above": "", "role": "", "count": "1"}
    return {
        "tiers": (tiers + [blank] * TIER_ROWS)[: max(TIER_ROWS, len(tiers))],
        "notice": major_text(policy.notice),
    }


@dataclass
class Problem:
    field: str  # the control's id: "tier-1-above", "notice", "scope"
    message: str


def _read_tiers(post: QueryDict) -> tuple[list[dict[str, Any]], int | None, list[Problem]]:
    """The tiers and notice line typed in: each problem names its control."""
    tiers: list[dict[str, Any]] = []
    problems: list[Problem] = []
    for number in range(1, MAX_TIERS + 1):
        above_text = post.get(f"tier-{number}-above", "").strip()
        role = post.get(f"tier-{number}-role", "")
        count_text = post.get(f"tier-{number}-count", "").strip() or "1"
        if not above_text and not role:
            continue
        above = parse_major(above_text)
        if above is None or not 0 < above < MAX_THRESHOLD:
            problems.append(
                Problem(
                    f"tier-{number}-above",
                    f"Tier {number}: the threshold is an amount in {settings.CURRENCY} such as "
                    f"1199.99 (at most {settings.CURRENCY_EXPONENT} decimals), above 0.",
                )
            )
        if role not in SIGNING_ROLES:
            problems.append(Problem(f"tier-{number}-role", f"Tier {number}: choose who signs."))
        count = whole(count_text)
        if count is None or not 1 <= count <= MAX_COUNT:
            problems.append(
                Problem(
                    f"tier-{number}-count",
                    f"Tier {number}: the signatures are 1 to {MAX_COUNT} people.",
                )
            )
        tiers.append({"above": above, "role": role, "count": count, "number": number})
    if not tiers and not problems:
        problems.append(Problem("tier-1-above", "Give at least one tier."))
    notice_text = post.get("notice", "").strip()
    notice = None
    if notice_text:
        notice = parse_major(notice_text)
        if notice is None or not 0 < notice < MAX_THRESHOLD:
            problems.append(
                Problem(
                    "notice",
                    f"The regulator-notice line is an amount in {settings.CURRENCY} such as "
                    "100000, or blank for none.",
                )
            )
    for before, after in zip(tiers, tiers[1:], strict=False):
        if (
            before["above"] is not None
            and after["above"] is not None
            and after["above"] <= before["above"]
        ):
            problems.append(
                Problem(
                    f"tier-{after['number']}-above",
                    f"Tier {after['number']}: each threshold is above the one before "
                    f"({money(before['above'])}).",
                )
            )
    return tiers, notice, problems


def _service_field(path: str) -> str:
    """A service problem's path as the control it names."""
    found = re.fullmatch(r"tiers\[(\d+)\]\.(above|role|count)", path)
    if found:
        return f"tier-{int(found.group(1)) + 1}-{found.group(2)}"
    return {"notice": "notice", "table": "scope", "game": "scope"}.get(path, "")


@role_required(*FLOOR)
@require_http_methods(["GET", "POST"])
def signoff_limits(request: HttpRequest) -> HttpResponse:
    """The sign-off tiers in force at each table (its own, its game's, the house's or the
    built-in default) and a form to set the house's, a game's or a table's; audited."""
    tables = list(Table.objects.order_by("name"))
    scopes = _scopes(tables)
    by_key = {scope.key: scope for scope in scopes}
    rows = list(SignoffPolicy.objects.select_related("table", "set_by").order_by("id"))
    in_force = policies_by_table(tables)
    problems: list[Problem] = []
    chosen = by_key.get(request.POST.get("scope") or request.GET.get("for") or "house")
    if chosen is None:
        problems.append(Problem("scope", "Choose the house, a game or a table from the list."))
        chosen = by_key["house"]
    values = _form_values(_current(chosen, rows, in_force))
    if request.method == "POST" and not problems:
        action = request.POST.get("action", "set")
        try:
            if action == "clear":
                signoff_policy_clear(user=request.user, table=chosen.table, game=chosen.game)
                messages.success(
                    request, f"Tiers of {chosen.label} dropped: it follows the next in line."
                )
                return redirect("floor-signoff-limits")
            preset = presets().get(action.removeprefix("preset:"))
            if preset is not None:
                tiers = [tier.to_dict() for tier in preset.tiers]
                notice = preset.notice
            else:
                typed, notice, problems = _read_tiers(request.POST)
                tiers = [{k: t[k] for k in ("above", "role", "count")} for t in typed]
                values = {
                    "tiers": [
                        {
                            "above": request.POST.get(f"tier-{n}-above", ""),
                            "role": request.POST.get(f"tier-{n}-role", ""),
                            "count": request.POST.get(f"tier-{n}-count", "1"),
                        }
                        for n in range(1, max(TIER_ROWS, len(values["tiers"])) + 1)
                    ],
                    "notice": request.POST.get("notice", ""),
                }
            if not problems:
                signoff_policy_set(
                    user=request.user,
                    tiers=tiers,
                    notice=notice,
                    table=chosen.table,
                    game=chosen.game,
                )
                named = f"{preset.name}'s tiers" if preset is not None else "Tiers"
                messages.success(request, f"{named} set for {chosen.label}.")
                return redirect("floor-signoff-limits")
        except REFUSALS as exc:
            problems = [Problem(_service_field(p.path), p.message) for p in problems_of(exc)]
    keys = [
        f"table:{r.table_id}" if r.table_id else f"game:{r.game}" if r.game else "house"
        for r in rows
    ]
    own_scopes = [by_key[key] for key in keys if key in by_key]
    house_row = next((r for r in rows if not r.table_id and not r.game), None)
    games = registry()
    context = {
        "rows": [
            Row(t, games[t.game].name if t.game in games else t.game, in_force[t.pk])
            for t in tables
        ],
        "house": _policy_of(house_row, "house") or default_policy(),
        "house_row": house_row,
        "scopes": scopes,
        "chosen": chosen,
        "own_scopes": own_scopes,
        "chosen_has_own": chosen in own_scopes,
        "tier_rows": [
            {
                "n": n,
                **{key: tier.get(key, "") for key in ("above", "role", "count")},
                **{
                    f"{key}_error": fields.get(f"tier-{n}-{key}", "")
                    for key in ("above", "role", "count")
                },
            }
            for n, tier in enumerate(values["tiers"], start=1)
            for fields in [{p.field: p.message for p in problems if p.field}]
        ],
        "notice": values["notice"],
        "notice_error": next((p.message for p in problems if p.field == "notice"), ""),
        "scope_error": next((p.message for p in problems if p.field == "scope"), ""),
        "roles": list(SIGNING_ROLES.items()),
        "presets": list(presets().values()),
        "prompts": Prompts.current(),
        "problems": problems,
        "currency": settings.CURRENCY,
        "step": f"{Decimal(1).scaleb(-settings.CURRENCY_EXPONENT):f}",
    }
    return render(
        request, "desk/floor/signoff_limits.html", context, status=400 if problems else 200
    )
