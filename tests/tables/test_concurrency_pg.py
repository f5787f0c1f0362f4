"""Tablets racing on real PostgreSQL connections: two settling the same hand get one
settlement and a 409; retries of one request with one Idempotency-Key, all at the same
moment, all get the first answer, whatever the losers ran into."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from knox.models import AuthToken
from rest_framework.test import APIClient

from payouts.models import AuditCheck, AuditEntry, Settlement
from tables import selectors, services
from tables.models import HandAction, Table
from tests.conftest import draw_seats, open_hcf_table, record

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
    tokens = [AuthToken.objects.create(user=dealer)[1], AuthToken.objects.create(user=floor)[1]]

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


RETRIES = 6


def _client(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user=user)[1]}")
    return client


def _same_key_retries(user, url, body, key):
    """``RETRIES`` copies of one request with one key, released together."""
    clients = [_client(user) for _ in range(RETRIES)]

    def call(client):
        def send():
            response = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
            return response.status_code, response.json()

        return send

    return _race([call(client) for client in clients])


def _all_the_first_answer(results, status):
    assert {code for code, _ in results} == {status}, results
    assert all(body == results[0][1] for _, body in results), results
    return results[0][1]


def test_retries_of_one_settle_all_get_the_one_settlement(dp_table, dealer):
    hand = services.hand_open(user=dealer, table_id=dp_table.pk)
    results = _same_key_retries(dealer, f"/api/v1/hands/{hand.pk}/settle/", record(), "settle-1")
    body = _all_the_first_answer(results, 201)
    assert Settlement.objects.filter(hand=hand).count() == 1
    assert Settlement.objects.get(hand=hand).pk == body["settlement"]
    assert AuditEntry.objects.filter(action="hand_settle", hand=hand).count() == 1


def test_retries_of_one_live_action_record_it_once(draw_table, dealer):
    """The losers would otherwise be told "acted out of turn"."""
    hand = services.hand_open(
        user=dealer, table_id=draw_table.pk, body={"seats": draw_seats([1, 2, 3])}
    )
    seat = selectors.hand_state(hand=hand)["to_act"]
    results = _same_key_retries(
        dealer, f"/api/v1/hands/{hand.pk}/actions/", {"seat": seat, "type": "call"}, "act-1"
    )
    body = _all_the_first_answer(results, 200)
    assert body["actions"] == 1
    assert HandAction.objects.filter(hand=hand).count() == 1
    assert AuditEntry.objects.filter(action="hand_action", hand=hand).count() == 1


def test_retries_of_one_table_creation_create_it_once(floor):
    """The losers would otherwise be told "a table named ... already exists"."""
    body = {
        "name": "HCF-race",
        "game": "high-card-flush",
        "limits": {"ante_min": 100, "ante_max": 1000, "bank_min": 5000, "bank_max": 50000},
    }
    results = _same_key_retries(floor, "/api/v1/tables/", body, "create-1")
    created = _all_the_first_answer(results, 201)
    assert Table.objects.filter(name="HCF-race").count() == 1
    assert Table.objects.get(name="HCF-race").pk == created["id"]


def test_retries_of_one_audit_check_queue_it_once(compliance):
    results = _same_key_retries(compliance, "/api/v1/audit/checks/", {}, "check-1")
    _all_the_first_answer(results, 202)
    assert AuditCheck.objects.count() == 1


def test_a_void_racing_the_settle_leaves_one_outcome(dp_table, dealer, floor, floor2, make_user):
    """The dealer settles while a floor manager asks for a void, and two other floor
    managers then approve the same request at once: the hand ends exactly one way."""
    from approvals.models import Approval

    floor3 = make_user("floor_manager", username="floor3")
    hand = services.hand_open(user=dealer, table_id=dp_table.pk)
    tokens = {u.pk: AuthToken.objects.create(user=u)[1] for u in (dealer, floor, floor2, floor3)}

    def post(user, path, body):
        def call():
            client = APIClient()
            client.credentials(HTTP_AUTHORIZATION=f"Token {tokens[user.pk]}")
            return client.post(path, body, format="json").status_code

        return call

    settle, void = _race(
        [
            post(dealer, f"/api/v1/hands/{hand.pk}/settle/", record()),
            post(floor, f"/api/v1/hands/{hand.pk}/void/", {"reason": "misdeal"}),
        ]
    )
    hand.refresh_from_db()
    if void == 202:  # the void request came first: the settle waited and was refused
        assert settle == 409 and hand.status == "open" and not Settlement.objects.exists()
        request = Approval.objects.get()
        url = f"/api/v1/approvals/{request.pk}/approve/"
        decisions = _race([post(floor2, url, {}), post(floor3, url, {})])
        assert sorted(decisions) == [200, 409]
        hand.refresh_from_db()
        assert hand.status == "voided"
        assert AuditEntry.objects.filter(action="hand_void").count() == 1
    else:  # the settle came first: the void of a settled hand is refused
        assert (settle, void) == (201, 409) and hand.status == "settled"
        assert not Approval.objects.exists()


def test_a_table_mid_write_holds_up_only_its_own_chain(open_table, dealer, floor):
    """While one table's write holds its row (and so its audit chain's head), another table
    settles a hand and appends to its own chain at once; a write to the held table waits."""
    from tests.tables.test_queries import deal

    other = open_hcf_table(floor, dealer, "HCF-other")
    holding, release, first_done = threading.Event(), threading.Event(), threading.Event()
    seen: dict[str, bool] = {}

    def hold_the_first_table():
        from django.db import transaction

        with transaction.atomic():
            services.seat_update(  # locks open_table's row; its chain head with it
                user=floor, table_id=open_table.pk, number=5, player="Eve", sitting_out=False
            )
            holding.set()
            release.wait(10)
        first_done.set()
        return "done"

    def settle_at_the_other():
        holding.wait(10)
        deal(other, dealer, 1)  # a whole hand, with its audit entries
        seen["other settled while the first table was held"] = not first_done.is_set()
        release.set()
        return "settled"

    def write_to_the_held_table():
        holding.wait(10)
        services.seat_update(
            user=floor, table_id=open_table.pk, number=6, player="Fay", sitting_out=False
        )
        seen["the held table's write waited for it"] = first_done.is_set()
        return "seated"

    results = _race([hold_the_first_table, settle_at_the_other, write_to_the_held_table])
    assert results == ["done", "settled", "seated"]
    assert all(seen.values()) and len(seen) == 2, seen
    for table in (open_table, other):
        table.refresh_from_db()
        seqs = sorted(AuditEntry.objects.filter(table=table).values_list("seq", flat=True))
        assert seqs == list(range(1, table.audit_seq + 1))
