"""Two tablets settling the same hand at the same moment, on two real PostgreSQL
connections: exactly one settlement, the other tablet told 409."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from payouts.models import AuditEntry, Settlement
from tables import services
from tests.conftest import record

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _race(calls):
    """Run the calls in threads released together; each thread has its own connection."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_two_tablets_settle_the_same_hand_at_once(dp_table, dealer, floor):
    assert connection.vendor == "postgresql"
    hand = services.hand_open(user=dealer, table_id=dp_table.pk)
    tokens = [Token.objects.create(user=dealer).key, Token.objects.create(user=floor).key]

    def settle(token, key):
        def call():
            client = APIClient()
            client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
            response = client.post(
                f"/api/v1/hands/{hand.pk}/settle/",
                record(),
                format="json",
                HTTP_IDEMPOTENCY_KEY=key,
            )
            return response.status_code, response.json()

        return call

    results = _race([settle(tokens[0], "tablet-a"), settle(tokens[1], "tablet-b")])
    statuses = sorted(status for status, _ in results)
    assert statuses == [201, 409], results
    loser = next(body for status, body in results if status == 409)
    assert "already settled" in loser["detail"]
    assert Settlement.objects.filter(hand=hand).count() == 1
    assert AuditEntry.objects.filter(action="hand_settle", hand=hand).count() == 1


def test_two_tablets_with_the_same_key_both_get_the_one_settlement(dp_table, dealer):
    hand = services.hand_open(user=dealer, table_id=dp_table.pk)
    token = Token.objects.create(user=dealer).key

    def call():
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        response = client.post(
            f"/api/v1/hands/{hand.pk}/settle/",
            record(),
            format="json",
            HTTP_IDEMPOTENCY_KEY="same-key",
        )
        return response.status_code, response.json()

    results = _race([call, call])
    assert [status for status, _ in results] == [201, 201], results
    assert results[0][1] == results[1][1]
    assert Settlement.objects.filter(hand=hand).count() == 1
