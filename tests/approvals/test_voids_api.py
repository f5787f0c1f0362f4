"""Voids take two people: the dealer (or a floor manager) asks with a reason, and a floor
manager other than the one asking decides. The hand is frozen while it waits."""

from __future__ import annotations

import pytest

from approvals.models import Approval
from payouts.models import AuditEntry, Settlement
from tables.models import Hand
from tests.conftest import record

pytestmark = pytest.mark.django_db


def open_hand(client, table) -> dict:
    response = client.post(f"/api/v1/tables/{table.pk}/hands/")
    assert response.status_code == 201, response.json()
    return response.json()


def ask(client, hand, reason="misdeal: 8 cards to seat 2", **headers):
    return client.post(
        f"/api/v1/hands/{hand['id']}/void/", {"reason": reason}, format="json", **headers
    )


def test_a_dealers_void_request_freezes_the_hand_until_a_floor_manager_approves_it(
    dp_table, dealer, floor, client_for
):
    client = client_for(dealer)
    hand = open_hand(client, dp_table)
    asked = ask(client, hand)
    assert asked.status_code == 202, asked.json()
    request = asked.json()
    assert (request["kind"], request["status"], request["hand"]) == ("void", "pending", hand["id"])
    assert request["requested_by"] == "dealer" and request["reason"] == "misdeal: 8 cards to seat 2"
    assert request["detail"] == {"hand": 1, "seats": [1, 2, 3, 4], "actions": 0}

    # The hand shows what it waits for, and nothing can be recorded or settled on it.
    shown = client.get(f"/api/v1/hands/{hand['id']}/").json()
    assert shown["status"] == "open"
    assert [(w["kind"], w["requested_by"]) for w in shown["waiting_for"]] == [("void", "dealer")]
    action = client.post(
        f"/api/v1/hands/{hand['id']}/actions/",
        {"type": "wager", "seat": 2, "ante": 100},
        format="json",
    )
    assert action.status_code == 409 and "waits for the floor" in action.json()["detail"]
    settle = client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    assert settle.status_code == 409 and "waits for the floor" in settle.json()["detail"]
    assert not Settlement.objects.exists()
    again = ask(client_for(floor), hand, reason="twice")
    assert again.status_code == 409 and "asked by dealer" in again.json()["detail"]

    approved = client_for(floor).post(
        f"/api/v1/approvals/{request['id']}/approve/", {"note": "seen on camera"}, format="json"
    )
    assert approved.status_code == 200, approved.json()
    assert (approved.json()["status"], approved.json()["decided_by"]) == ("approved", "floor")
    voided = Hand.objects.get(pk=hand["id"])
    assert voided.status == "voided" and voided.voided_by.username == "floor"
    assert voided.void_reason == "misdeal: 8 cards to seat 2"
    assert client.get(f"/api/v1/hands/{hand['id']}/").json()["waiting_for"] == []
    asked_entry = AuditEntry.objects.get(action="hand_void_requested")
    assert asked_entry.actor_name == "dealer" and asked_entry.after["approval"] == request["id"]
    entry = AuditEntry.objects.get(action="hand_void")
    assert entry.actor_name == "floor"
    assert entry.after == {
        "status": "voided",
        "reason": "misdeal: 8 cards to seat 2",
        "requested_by": "dealer",
        "approval": request["id"],
    }
    # The table moves on as after any void: the position is offered to the next seat.
    state = client.get(f"/api/v1/tables/{dp_table.pk}/game/").json()["state"]
    assert state["designated_player"] is None and state["offer_seat"] == 2


def test_a_rejected_void_lets_the_hand_go_on_and_settle(dp_table, dealer, floor, client_for):
    client = client_for(dealer)
    hand = open_hand(client, dp_table)
    request = ask(client, hand).json()
    rejected = client_for(floor).post(
        f"/api/v1/approvals/{request['id']}/reject/", {"note": "cards were fine"}, format="json"
    )
    assert rejected.status_code == 200 and rejected.json()["status"] == "rejected"
    assert rejected.json()["note"] == "cards were fine"
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    assert settled.status_code == 201, settled.json()
    entry = AuditEntry.objects.get(action="hand_void_rejected")
    assert entry.actor_name == "floor" and entry.after["note"] == "cards were fine"
    twice = client_for(floor).post(f"/api/v1/approvals/{request['id']}/approve/", {}, format="json")
    assert twice.status_code == 409 and "already rejected" in twice.json()["detail"]


def test_a_floor_managers_own_void_needs_another_floor_manager(
    dp_table, dealer, floor, floor2, client_for
):
    hand = open_hand(client_for(dealer), dp_table)
    request = ask(client_for(floor), hand).json()
    own = client_for(floor).post(f"/api/v1/approvals/{request['id']}/approve/", {}, format="json")
    assert own.status_code == 403 and "their own" in own.json()["detail"]
    assert Hand.objects.get(pk=hand["id"]).status == "open"
    other = client_for(floor2).post(
        f"/api/v1/approvals/{request['id']}/approve/", {}, format="json"
    )
    assert other.status_code == 200
    assert Hand.objects.get(pk=hand["id"]).voided_by.username == "floor2"


def test_the_one_who_asked_may_withdraw_and_the_hand_goes_on(dp_table, dealer, floor, client_for):
    client = client_for(dealer)
    hand = open_hand(client, dp_table)
    request = ask(client, hand).json()
    not_theirs = client_for(floor).post(
        f"/api/v1/approvals/{request['id']}/withdraw/", {}, format="json"
    )
    assert not_theirs.status_code == 403 and "only dealer" in not_theirs.json()["detail"]
    withdrawn = client.post(
        f"/api/v1/approvals/{request['id']}/withdraw/", {"note": "tapped by mistake"}, format="json"
    )
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"
    assert AuditEntry.objects.filter(action="hand_void_withdrawn").count() == 1
    assert (
        client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json").status_code
        == 201
    )


@pytest.mark.parametrize(
    ("who", "status"), [("other_dealer", 403), ("compliance", 403), ("dealer", 202)]
)
def test_who_may_ask_for_a_void(who, status, dp_table, dealer, client_for, request):
    hand = open_hand(client_for(dealer), dp_table)
    response = ask(client_for(request.getfixturevalue(who)), hand)
    assert response.status_code == status, response.json()


@pytest.mark.parametrize("who", ["dealer", "compliance"])
def test_only_floor_managers_decide_a_void(who, dp_table, dealer, floor, client_for, request):
    hand = open_hand(client_for(dealer), dp_table)
    asked = ask(client_for(floor), hand).json()
    response = client_for(request.getfixturevalue(who)).post(
        f"/api/v1/approvals/{asked['id']}/approve/", {}, format="json"
    )
    assert response.status_code == 403
    assert Approval.objects.get(pk=asked["id"]).status == "pending"


def test_a_void_needs_a_reason_and_an_open_hand(dp_table, dealer, floor, client_for):
    client = client_for(dealer)
    hand = open_hand(client, dp_table)
    for body in ({}, {"reason": "   "}):
        missing = client.post(f"/api/v1/hands/{hand['id']}/void/", body, format="json")
        assert missing.status_code == 400 and missing.json()["errors"][0]["path"] == "reason"
    assert not Approval.objects.exists()
    client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    late = ask(client_for(floor), hand, reason="late")
    assert late.status_code == 409 and "already settled" in late.json()["detail"]


def test_a_repeated_tap_asks_once(dp_table, dealer, client_for):
    client = client_for(dealer)
    hand = open_hand(client, dp_table)
    first = ask(client, hand, HTTP_IDEMPOTENCY_KEY="void-1")
    second = ask(client, hand, HTTP_IDEMPOTENCY_KEY="void-1")
    assert first.status_code == second.status_code == 202
    assert first.json() == second.json()
    assert Approval.objects.filter(kind="void").count() == 1


def test_the_queue_filters_by_kind_state_and_table(
    dp_table, draw_table, dealer, floor, floor2, client_for
):
    hand = open_hand(client_for(dealer), dp_table)
    void = ask(client_for(dealer), hand).json()
    change = client_for(floor).post(
        f"/api/v1/tables/{draw_table.pk}/changes/",
        {"changes": {"rules": {"rake": {"fixed": 100}}}, "reason": "busy"},
        format="json",
    )
    assert change.status_code == 201, change.json()
    change = change.json()
    client_for(floor2).post(f"/api/v1/changes/{change['id']}/approve/", {}, format="json")
    reader = client_for(floor)

    def ids(query: str) -> list[tuple[str, str]]:
        response = reader.get(f"/api/v1/approvals/{query}")
        assert response.status_code == 200, response.json()
        return [(a["kind"], a["status"]) for a in response.json()["results"]]

    assert ids("") == [("limit_change", "approved"), ("void", "pending")]
    assert ids("?status=pending") == [("void", "pending")]
    assert ids("?kind=limit_change") == [("limit_change", "approved")]
    assert ids(f"?table={dp_table.pk}") == [("void", "pending")]
    assert ids(f"?hand={hand['id']}&status=pending") == [("void", "pending")]
    limit = reader.get("/api/v1/approvals/?kind=limit_change").json()["results"][0]
    assert limit["change"] == change["id"] and limit["decided_by"] == "floor2"
    assert limit["detail"]["changes"] == {"rules": {"rake": {"fixed": 100}}}
    assert limit["detail"]["before"]["rules"]["rake"] == {"fixed": 50}
    assert reader.get(f"/api/v1/approvals/{void['id']}/").json()["table_name"] == dp_table.name
    for query, path in (
        ("?status=waiting", "status"),
        ("?kind=tip", "kind"),
        ("?table=x", "table"),
        ("?hand=" + "9" * 25, "hand"),
    ):
        bad = reader.get(f"/api/v1/approvals/{query}")
        assert bad.status_code == 400 and bad.json()["errors"][0]["path"] == path


@pytest.mark.django_db(transaction=True)
def test_changes_asked_before_the_queue_existed_join_it_as_they_were_decided(floor, floor2):
    """Back to the schema before the queue, a decided change request is written as it was
    stored then; migrating forward puts it in the queue, decided as it was, and the change
    keeps only what it changes."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before_queue = [("approvals", None), ("tables", "0007_alter_tablechange_status")]
    executor = MigrationExecutor(connection)
    executor.migrate(before_queue)
    old = executor.loader.project_state(before_queue[1]).apps
    table = old.get_model("tables", "Table").objects.create(
        name="OLD", game="pontoon", limits={}, rules={}, game_state={}
    )
    change = old.get_model("tables", "TableChange").objects.create(
        table=table,
        changes={"ante_max": 20_000},
        before={"ante_max": 10_000},
        reason="busy",
        status="rejected",
        requested_by_id=floor.pk,
        decided_by_id=floor2.pk,
        decision_note="no",
    )
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    (queued,) = Approval.objects.all()
    assert (queued.kind, queued.status, queued.change_id) == ("limit_change", "rejected", change.pk)
    assert (queued.requested_by.username, queued.decided_by.username) == ("floor", "floor2")
    assert (queued.reason, queued.note) == ("busy", "no")
    assert queued.detail == {"changes": {"ante_max": 20_000}, "before": {"ante_max": 10_000}}
    assert queued.change.approval == queued
