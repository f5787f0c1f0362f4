"""An ``Idempotency-Key`` is stored with its answer as the last statement of the request's own
transaction (casino/core/idempotency.py): one statement; a retry, late or racing, leaves no
effect of its own and answers with the stored answer; a failed or refused request stores
nothing, so its key stays free."""

from __future__ import annotations

import itertools
import threading

import pytest
from django.contrib.auth.models import Group
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext
from rest_framework.response import Response
from rest_framework.test import APIRequestFactory, force_authenticate
from rest_framework.views import APIView

from casino.core.errors import ApplicationError
from casino.core.idempotency import idempotent
from casino.core.models import IdempotencyRecord

pytestmark = pytest.mark.django_db

_names = itertools.count(1)


class GroupView(APIView):
    """Creates a group of a new name each call (an effect nothing else refuses twice); what
    it answers is set per test."""

    permission_classes = ()
    behaviour = "create"
    barrier: threading.Barrier | None = None

    @idempotent
    def post(self, request):
        if self.behaviour == "fail":
            raise ApplicationError("refused on purpose", path="name")
        if self.behaviour == "refuse-if-done" and Group.objects.filter(name__startswith="g-"):
            return Response({"detail": "done already"}, status=409)
        group = Group.objects.create(name=f"g-{next(_names)}")
        if self.behaviour == "refuse":
            return Response({"detail": "no"}, status=400)
        if self.barrier is not None:
            self.barrier.wait(timeout=20)  # every racer has done its effect
        return Response({"group": group.name}, status=201)


def post(user, key, **view):
    request = APIRequestFactory().post("/x/", {"a": 1}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    force_authenticate(request, user=user)
    return GroupView.as_view(**view)(request)


def test_the_key_and_its_answer_are_one_statement_after_the_view(dealer):
    with CaptureQueriesContext(connection) as captured:
        response = post(dealer, "k-1")
    assert response.status_code == 201
    sqls = [q["sql"] for q in captured]
    touching = [i for i, sql in enumerate(sqls) if "core_idempotencyrecord" in sql]
    assert len(touching) == 1 and sqls[touching[0]].startswith("INSERT"), sqls
    view_insert = next(i for i, sql in enumerate(sqls) if 'INSERT INTO "auth_group"' in sql)
    assert view_insert < touching[0]
    record = IdempotencyRecord.objects.get(user=dealer, key="k-1")
    assert (record.response_status, record.response_body) == (201, response.data)


def test_a_late_retry_leaves_no_effect_and_answers_the_stored_answer(dealer):
    first = post(dealer, "k-1")
    again = post(dealer, "k-1")  # its view runs, its key fails, all of it rolls back
    assert (again.status_code, again.data) == (first.status_code, first.data)
    assert again["Idempotent-Replay"] == "true"
    assert list(Group.objects.filter(name__startswith="g-").values_list("name", flat=True)) == [
        first.data["group"]
    ]


def test_a_retry_its_view_refuses_answers_the_stored_answer(dealer):
    first = post(dealer, "k-1", behaviour="refuse-if-done")
    again = post(dealer, "k-1", behaviour="refuse-if-done")
    assert first.status_code == again.status_code == 201 and again.data == first.data
    assert again["Idempotent-Replay"] == "true"
    other = post(dealer, "k-2", behaviour="refuse-if-done")  # another key: refused afresh
    assert other.status_code == 409


def test_a_failed_or_refused_request_does_not_burn_the_key(dealer):
    assert post(dealer, "k-1", behaviour="fail").status_code == 400
    assert post(dealer, "k-1", behaviour="refuse").status_code == 400
    assert not IdempotencyRecord.objects.exists()
    assert not Group.objects.filter(name__startswith="g-").exists()  # the refusal rolled back
    retry = post(dealer, "k-1")
    assert retry.status_code == 201 and "Idempotent-Replay" not in retry
    assert IdempotencyRecord.objects.get().response_body == retry.data


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_racing_requests_with_one_key_whose_effects_do_not_collide_keep_one(dealer):
    """Every racer has done its effect (a group of its own name) before any stores the key:
    the key lets one commit; the others wait on its row, roll back and answer as it did."""
    racers = 4
    barrier = threading.Barrier(racers)
    results: list = [None] * racers

    def run(index):
        try:
            results[index] = post(dealer, "race-1", barrier=barrier)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(racers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert {r.status_code for r in results} == {201}, results
    assert len({r.data["group"] for r in results}) == 1, [r.data for r in results]
    assert sum(r.get("Idempotent-Replay") == "true" for r in results) == racers - 1
    assert list(Group.objects.filter(name__startswith="g-").values_list("name", flat=True)) == [
        results[0].data["group"]
    ]
    assert IdempotencyRecord.objects.filter(key="race-1").count() == 1
