"""The audit check through a real Celery worker and the real Redis broker."""

from __future__ import annotations

import os
import time

import pytest

from casino.celery import app
from payouts import services
from payouts.models import AuditCheck, Settlement
from tables import services as table_services
from tests.conftest import record
from tests.payouts.forgery import as_database_superuser

REDIS_URL = os.environ.get("REDIS_URL", "")
pytestmark = [
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not REDIS_URL, reason="needs REDIS_URL: a real broker and worker"),
]


def _settle_one(table, dealer):
    hand = table_services.hand_open(user=dealer, table_id=table.pk)
    table_services.hand_settle(user=dealer, hand_id=hand.pk, record=record())
    return hand


def _wait_finished(check, seconds=300):  # a guard against hanging, not a figure
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        check.refresh_from_db()
        if check.status != "pending":
            return check
        time.sleep(0.2)
    raise AssertionError("the worker did not finish the audit check in time")


def test_worker_verifies_the_chain_and_resettles_hands(dp_table, dealer, compliance, redis_worker):
    _settle_one(dp_table, dealer)
    # Queued through Redis (on the run's own queue) when the request commits, run by the worker.
    assert app.amqp.router.route({}, "payouts.audit_check")["queue"].name == redis_worker
    check = _wait_finished(services.audit_check_request(user=compliance))
    assert check.status == "passed"
    assert check.report["chain"]["ok"] is True
    assert check.report["settlements_checked"] == 1


def test_worker_reports_a_mismatch(dp_table, dealer, compliance, redis_worker):
    hand = _settle_one(dp_table, dealer)
    with as_database_superuser():
        Settlement.objects.filter(hand_id=hand.pk).update(rake=0)
    check = AuditCheck.objects.create(requested_by=compliance)
    from payouts.tasks import audit_check_task

    audit_check_task.delay(check.pk)  # divides the check; its chunks go to the worker too
    check = _wait_finished(check)
    assert check.status == "failed"
    assert check.report["findings"][0]["hand"] == hand.pk
    assert "stored rake 0 differs" in check.report["findings"][0]["problem"]
