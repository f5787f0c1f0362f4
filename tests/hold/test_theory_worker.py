"""A new rules version's theoretical figures, computed by a real Celery worker on Redis the way
production runs it: a table created commits, its figures are queued to ``hold.compute_theory``
once the transaction commits, and the worker stores them."""

from __future__ import annotations

import os
import time

import pytest

from hold import services as hold_services
from hold.models import Theory
from tables import services

REDIS_URL = os.environ.get("REDIS_URL", "")
pytestmark = [
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not REDIS_URL, reason="needs REDIS_URL: a real broker and worker"),
]


def _wait_ready(spec, seconds=300):  # a guard against hanging, not a figure
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        row = Theory.objects.filter(
            game=spec.game, measure=spec.measure, digest=spec.digest
        ).first()
        if row is not None and row.status != Theory.Status.COMPUTING:
            return row
        time.sleep(0.2)
    raise AssertionError("the worker did not store the figure in time")


def test_creating_a_table_leads_to_a_ready_figure_computed_by_the_worker(
    floor, dealer, redis_worker, settings
):
    settings.HOLD_THEORY_HANDS = 300
    table = services.table_create(
        user=floor,
        name="PAI-W",
        game="paiute",
        seat_count=5,
        dealer=dealer,
        limits={"ante": 500},
        smallest_chip=25,
        rules={"rake": {"percent": 5, "cap": 75}},
    )
    [spec] = hold_services.table_specs(table)
    # Committed, then queued: the request did not simulate (a worker runs), it only asked.
    row = _wait_ready(spec)
    assert row.ready, row.error
    # The worker's run, not the inline one: HOLD_THEORY_HANDS hands, the fee on every hand.
    assert row.hands == 300 and row.value == pytest.approx(75 / 2000)


def test_a_requested_change_has_its_figures_computed_by_the_worker(
    floor, dealer, redis_worker, settings
):
    settings.HOLD_THEORY_HANDS = 300
    table = services.table_create(
        user=floor,
        name="PAI-C",
        game="paiute",
        seat_count=5,
        dealer=dealer,
        limits={"ante": 500},
        smallest_chip=25,
        rules={"rake": {"fixed": 100}},
    )
    services.change_request(
        user=dealer, table_id=table.pk, changes={"rules": {"rake": {"fixed": 150}}}, reason="x"
    )
    after = hold_services.specs_of_config(
        "paiute", {"ante": 500, "smallest_chip": 25, "rules": {"rake": {"fixed": 150}}}
    )[0]
    row = _wait_ready(after)
    assert row.ready and row.value == pytest.approx(150 / 2000) and row.hands == 300
