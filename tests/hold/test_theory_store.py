"""Theoretical figures are stored once per rules version, and a pending change shows the
figures before and after it."""

from __future__ import annotations

import io

import pytest
from django.template.loader import render_to_string

from approvals.models import Approval
from casino.rules import theory
from casino.rules.high_card_flush import bonus_odds as hcf
from hold import services
from hold.models import Theory
from hold.selectors import theory_for_change
from hold.tasks import compute_theory_task
from tables import services as table_services

pytestmark = pytest.mark.django_db

LIMITS = {"ante_min": 100, "ante_max": 10_000, "bank_min": 5_000, "bank_max": 1_000_000}
DEFAULT_FLUSH = {"7": 200, "6": 50, "5": 10, "4": 2}


@pytest.fixture(autouse=True)
def _short_simulations(settings):
    settings.HOLD_THEORY_HANDS = 200


def make_table(floor, dealer, name: str, rules: dict) -> object:
    return table_services.table_create(
        user=floor,
        name=name,
        game="high-card-flush",
        seat_count=7,
        dealer=dealer,
        limits=LIMITS,
        rules=rules,
    )


def test_a_figure_is_computed_once_per_rules_version_and_shared(floor, dealer, monkeypatch):
    rake = {"rake": {"scheme": "per_player", "amount": 100}}
    first = make_table(floor, dealer, "HCF-A", rake)
    second = make_table(floor, dealer, "HCF-B", rake)
    house = services.house_spec(services.table_specs(first))
    stored = services.get_or_compute(house)
    assert stored.ready and stored.method == "simulation" and stored.hands == 200
    # Six players at the table minimum, raising 1x and betting both bonuses at 1x: seven
    # fees of 100 over 6 x 400 wagered, whatever the cards.
    assert stored.value == pytest.approx(700 / 2400) and stored.low == stored.high == stored.value
    assert stored.seed == theory.DEFAULT_SEED and stored.computed_at is not None

    # A second call, here or at another table with the same rules, reads the stored row.
    def no_recompute(*args, **kwargs):
        raise AssertionError("the figure was computed a second time")

    monkeypatch.setattr(theory, "compute", no_recompute)
    again = services.get_or_compute(services.house_spec(services.table_specs(second)))
    assert again.pk == stored.pk and again.computed_at == stored.computed_at
    assert Theory.objects.count() == 1

    # Another fee is another rules version: a new figure (computed, so let it run again).
    monkeypatch.undo()
    dearer = make_table(floor, dealer, "HCF-C", {"rake": {"scheme": "per_player", "amount": 200}})
    other = services.get_or_compute(services.house_spec(services.table_specs(dearer)))
    assert other.pk != stored.pk and other.value == pytest.approx(1400 / 2400)
    assert Theory.objects.count() == 2


def test_the_background_task_stores_the_figure_under_its_rules_version(floor, dealer):
    table = make_table(floor, dealer, "HCF-T", {"rake": {"scheme": "dp_only", "amount": 300}})
    spec = services.house_spec(services.table_specs(table))
    row_id = compute_theory_task.delay(spec.to_dict()).get()
    row = Theory.objects.get(pk=row_id)
    assert (row.game, row.measure, row.digest) == ("high-card-flush", "house", spec.digest)
    assert row.ready and row.value == pytest.approx(300 / 2400)
    assert row.inputs["rules"]["rake"] == {"scheme": "dp_only", "amount": 300, "bands": []}


def test_a_pay_table_change_shows_the_edge_before_and_after(
    floor, dealer, client_for, django_capture_on_commit_callbacks, settings
):
    from casino.celery import app

    app.conf.task_always_eager = False  # a worker runs (the autouse fixture restores it)
    table = make_table(floor, dealer, "HCF-P", {"rake": {"scheme": "per_player", "amount": 100}})
    dearer = {**DEFAULT_FLUSH, "7": 300}
    response = client_for(dealer).post(
        f"/api/v1/tables/{table.pk}/changes/",
        {"changes": {"rules": {"flush_paytable": dearer}}, "reason": "promotion"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    approval = Approval.objects.get(kind=Approval.Kind.LIMIT_CHANGE, table=table)

    with django_capture_on_commit_callbacks() as queued:
        shown = theory_for_change(approval)
    assert shown is not None and shown.changes_theory
    pairs = {pair.measure: pair for pair in shown.pairs}
    assert set(pairs) == {"house", "flush_bonus", "straight_flush_bonus"}

    # The Flush bonus, exactly: the 7-card line going from 200:1 to 300:1 adds 100 times the
    # chance of winning on that line to the player's return (the designated player's loss).
    flush = pairs["flush_bonus"]
    assert flush.changed and flush.before.ready and flush.after.ready
    base = hcf.flush_bonus(DEFAULT_FLUSH)
    assert flush.before.row.value == pytest.approx(float(base.player_return), abs=1e-15)
    assert flush.after.row.value == pytest.approx(
        float(base.player_return + 100 * base.win_probability(7)), abs=1e-15
    )
    assert flush.after.row.detail["player_return"] == str(hcf.flush_bonus(dearer).player_return)
    # The Straight Flush bonus does not depend on the flush pay table: the same figure.
    straight = pairs["straight_flush_bonus"]
    assert not straight.changed and straight.before.row.pk == straight.after.row.pk
    # The house's hold is simulated: the change makes a new rules version, queued for the
    # background task (not run in the request) and shown as computing.
    house = pairs["house"]
    assert house.changed and house.before.computing and house.after.computing
    assert len(queued) == 2
    assert Theory.objects.filter(measure="house", status="computing").count() == 2

    html = render_to_string("hold/_change_theory.html", {"approval": approval})
    assert "Theoretical edge before and after" in html
    assert f"{float(base.player_return) * 100:.3f}%" in html  # -7.242%
    assert f"{float(hcf.flush_bonus(dearer).player_return) * 100:.3f}%" in html
    assert html.count("computing…") == 2
    assert "the house&#x27;s edge on it is 0" in html

    # Once the simulations are stored the same include shows them, with their intervals.
    for pair_view in (house.before, house.after):
        services.compute_theory(pair_view.spec)
    html = render_to_string("hold/_change_theory.html", {"approval": approval})
    assert "computing…" not in html and "hands</small>" in html


def test_a_change_that_leaves_the_pay_tables_and_fee_alone_changes_no_figure(
    floor, dealer, client_for, django_capture_on_commit_callbacks
):
    table = make_table(floor, dealer, "HCF-R", {})
    response = client_for(dealer).post(
        f"/api/v1/tables/{table.pk}/changes/",
        {"changes": {"rules": {"rotation_policy": {"max_consecutive": 3}}, "bank_min": 6_000}},
        format="json",
    )
    assert response.status_code == 201, response.json()
    approval = Approval.objects.get(kind=Approval.Kind.LIMIT_CHANGE, table=table)
    with django_capture_on_commit_callbacks():
        shown = theory_for_change(approval)
    assert shown is not None and not shown.changes_theory
    html = render_to_string("hold/_change_theory.html", {"approval": approval})
    assert "leaves the theoretical figures as they are" in html


def test_without_a_worker_the_first_page_that_asks_simulates_a_short_run(
    floor, dealer, client_for, settings
):
    """Tasks run eagerly (no worker, the embedded set-up): a figure nothing has computed yet
    (a change's new rules version whose commit hook did not run) is simulated by the first
    request that asks, with HOLD_THEORY_INLINE_HANDS hands, never left computing for good;
    ``manage.py compute_theory`` computes what still waits."""
    from django.core.management import call_command

    table = make_table(floor, dealer, "HCF-W", {"rake": {"scheme": "per_player", "amount": 100}})
    client_for(dealer).post(
        f"/api/v1/tables/{table.pk}/changes/",
        {"changes": {"rules": {"flush_paytable": {**DEFAULT_FLUSH, "7": 300}}}, "reason": "x"},
        format="json",
    )
    approval = Approval.objects.get(kind=Approval.Kind.LIMIT_CHANGE, table=table)
    assert Theory.objects.filter(measure="house").count() == 0  # nothing computed it yet
    html = render_to_string("hold/_change_theory.html", {"approval": approval})
    assert "computing…" not in html
    houses = Theory.objects.filter(measure="house")  # before the change and after it
    assert [(h.status, h.hands) for h in houses] == [("ready", 200), ("ready", 200)]
    assert settings.HOLD_THEORY_INLINE_HANDS == 200
    # A figure left waiting (a request that stopped before storing it) is the command's.
    houses.update(status="computing", value=None)
    call_command("compute_theory", stdout=io.StringIO())
    assert not Theory.objects.filter(status="computing").exists()
