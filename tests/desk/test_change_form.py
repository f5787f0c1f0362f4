"""A limit or rule change asked for from the floor desk (``/desk/floor/tables/<id>/change/``)
through Django's test client: every game's table shown with its values in force and read
back unchanged, a change asked for and judged by ``change_request``, the preview beside the
form, an optional limit emptied."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from approvals.models import Approval
from casino.rules.contract import registry
from desk.floor.forms import ChangeForm
from tables import services
from tables.models import Table
from tests.desk.helpers import text
from tests.desk.test_schema_fields import posted
from tests.game_samples import table_config

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor_client(client: Any, floor: Any) -> Any:
    client.force_login(floor)
    return client


def a_table(floor: Any, code: str) -> Table:
    config = table_config(registry()[code])
    return services.table_create(
        user=floor,
        name=f"{config['name']}-C",
        game=code,
        seat_count=config["seat_count"],
        limits={k: v for k, v in config["limits"].items() if v is not None},
        smallest_chip=config["smallest_chip"],
        rules=config.get("rules") or {},
    )


@pytest.mark.parametrize("code", sorted(registry()))
def test_every_game_s_table_is_shown_as_it_stands_and_read_back_unchanged(
    code, floor, floor_client
):
    table = a_table(floor, code)
    page = floor_client.get(reverse("floor-table-change", args=[table.pk]))
    assert page.status_code == 200
    assert "Now:" in text(page) and text(page).count("<textarea") == 1  # the reason's only
    form = ChangeForm(registry()[code], table)
    read = ChangeForm(registry()[code], table, posted(form.form))
    assert read.form.valid, [(n.name, n.errors) for n in read.form.root.walk() if n.errors]
    assert read.changes() == {}
    response = floor_client.post(
        reverse("floor-table-change", args=[table.pk]), {**posted(form.form), "reason": "x"}
    )
    assert response.status_code == 400
    assert "no value differs from the one in force" in text(response)
    assert not Approval.objects.exists()


def test_a_change_is_asked_for_with_its_reason_and_waits_in_the_queue(
    dp_table, floor, floor_client
):
    form = ChangeForm(registry()["high-card-flush"], dp_table)
    data = {
        **posted(form.form),
        "ante_max": "150.00",
        "rules.max_payout_per_hand": "2,500",
        "rules.rotation_policy.window_minutes": "30",
        "reason": "a busy night",
    }
    response = floor_client.post(reverse("floor-table-change", args=[dp_table.pk]), data)
    assert response.status_code == 302
    change = Approval.objects.get(kind="limit_change")
    assert response["Location"].endswith(f"?table={dp_table.pk}#approval-{change.pk}")
    assert change.detail["changes"] == {
        "ante_max": 15_000,
        "rules": {
            "max_payout_per_hand": 250_000,
            "rotation_policy": {"max_consecutive": 2, "window_minutes": 30, "min_distinct": 2},
        },
    }
    assert (change.reason, change.requested_by) == ("a busy night", floor)
    queue = text(floor_client.get(reverse("floor-approvals")))
    assert "Largest payout per hand" in queue and "no cap" in queue and "$2,500.00" in queue
    assert "rolling window: 40 minutes" in queue and "rolling window: 30 minutes" in queue


def test_a_refused_change_is_said_at_its_field_and_nothing_is_asked(dp_table, floor, floor_client):
    form = ChangeForm(registry()["high-card-flush"], dp_table)
    data = {**posted(form.form), "ante_min": "200.00", "reason": "x"}  # above the maximum
    response = floor_client.post(reverse("floor-table-change", args=[dp_table.pk]), data)
    assert response.status_code == 400
    body = text(response)
    assert re.search(
        r'<span class="error" id="f-ante_max-error">ante maximum \$100\.00 is below the '
        r"minimum \$200\.00</span>",
        body,
    )
    assert 'value="200.00"' in body and "a busy" not in body
    assert not Approval.objects.exists()
    no_reason = floor_client.post(
        reverse("floor-table-change", args=[dp_table.pk]), {**posted(form.form), "ante_max": "150"}
    )
    assert "Give the reason" in text(no_reason) and not Approval.objects.exists()


def test_the_preview_says_what_changes_and_what_would_be_refused(dp_table, floor_client):
    form = ChangeForm(registry()["high-card-flush"], dp_table)
    url = reverse("floor-table-change-preview", args=[dp_table.pk])
    unchanged = text(floor_client.post(url, posted(form.form)))
    assert "Nothing yet" in unchanged and "Theoretical edge now" in unchanged
    changed = text(floor_client.post(url, {**posted(form.form), "rules.coverage": "original_bank"}))
    assert re.search(r'data-path="rules.coverage">.*?Bank coverage', changed, re.S)
    assert "the bank and what it collects as the hand settles" in changed
    assert "Theoretical edge" in changed and "Hand 1 at the earliest" in changed
    refused = text(floor_client.post(url, {**posted(form.form), "ante_min": "500"}))
    assert "This change would be refused" in refused and "$500.00" in refused
    unreadable = text(floor_client.post(url, {**posted(form.form), "ante_min": "5.555"}))
    assert "Correct the fields marked" in unreadable


def test_an_optional_limit_emptied_is_asked_for_as_none(floor, floor_client):
    table = a_table(floor, "pontoon")
    assert table.limits["kitty_min"]
    form = ChangeForm(registry()["pontoon"], table)
    data = {**posted(form.form), "kitty_min": "", "kitty_max": "", "reason": "plain Pontoon"}
    response = floor_client.post(reverse("floor-table-change", args=[table.pk]), data)
    assert response.status_code == 302, text(response)[-2000:]
    change = Approval.objects.get(kind="limit_change")
    assert change.detail["changes"] == {"kitty_min": None, "kitty_max": None}
    assert "plain Pontoon, no kitty" in text(floor_client.get(reverse("floor-approvals")))


def test_a_table_s_page_says_its_limits_and_rules_in_words(dp_table, floor_client):
    page = text(floor_client.get(reverse("floor-table", args=[dp_table.pk])))
    assert "Ask for a limit or rule change…" in page
    assert re.search(r"<dt>Ante maximum</dt><dd>\$100\.00</dd>", page)
    assert re.search(r"<dt>Collection fee</dt><dd>who pays: every player", page)
    assert "ante_max" not in re.sub(r"<[^>]+>", " ", page)
