"""A new rules version's figures are prepared once it commits, in whichever set-up runs: inline
with fewer hands where no worker runs, queued where one does; what goes wrong afterwards never
undoes what committed."""

from __future__ import annotations

import pytest

from hold import services as hold_services
from hold.models import Theory
from tables import services
from tests.conftest import open_hcf_table

pytestmark = pytest.mark.django_db


def figures(table):
    specs = hold_services.table_specs(table)
    return {
        spec.measure: Theory.objects.filter(game=spec.game, digest=spec.digest).first()
        for spec in specs
    }


def test_without_a_worker_a_new_table_s_figures_are_all_ready_once_it_commits(
    floor, dealer, settings, django_capture_on_commit_callbacks
):
    settings.HOLD_THEORY_INLINE_HANDS = 120
    with django_capture_on_commit_callbacks() as waiting:
        table = open_hcf_table(floor, dealer)
        assert not Theory.objects.exists()  # nothing computed inside the request's transaction
    assert len(waiting) == 1
    waiting[0]()
    rows = figures(table)
    assert set(rows) == {"house", "flush_bonus", "straight_flush_bonus"}
    assert all(row is not None and row.ready for row in rows.values())
    assert rows["house"].hands == 120 and rows["flush_bonus"].method == "exact"


def test_with_a_worker_they_are_queued_and_a_broker_down_fails_nothing(
    floor, dealer, monkeypatch, django_capture_on_commit_callbacks, caplog
):
    from casino.celery import app
    from hold.tasks import compute_theory_task

    app.conf.task_always_eager = False  # a worker runs (the autouse fixture restores it)
    queued = []
    monkeypatch.setattr(compute_theory_task, "delay", lambda spec: queued.append(spec))
    with django_capture_on_commit_callbacks(execute=True):
        table = open_hcf_table(floor, dealer, name="HCF-Q")
    rows = figures(table)
    assert [spec["measure"] for spec in queued] == ["house"]  # the simulation, to the worker
    assert rows["house"].status == "computing" and rows["flush_bonus"].ready  # exact: now

    def down(spec):
        raise ConnectionError("the broker is down")

    monkeypatch.setattr(compute_theory_task, "delay", down)
    with django_capture_on_commit_callbacks(execute=True):
        change = services.change_request(
            user=dealer, table_id=table.pk, changes={"rules": {"rake": {"amount": 300}}}
        )
    assert change.pk  # the request stands; the figure waits to be queued again by a page
    assert "could not be queued" in caplog.text
    after = hold_services.specs_of_config(
        "high-card-flush",
        {**change.before, "rules": {**change.before["rules"], "rake": {"amount": 300}}},
    )
    row = Theory.objects.get(digest=hold_services.house_spec(after).digest)
    assert row.status == "computing"
