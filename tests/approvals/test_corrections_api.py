"""A settled hand is corrected by two people: one asks with the corrected hand and a reason,
another floor manager approves, and the system stores a reversal of the settlement in force
(every amount moved back) plus the corrected settlement, both bound in the audit chain."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.db import connection

from approvals.models import Approval
from payouts import figures
from payouts.models import AuditEntry, Settlement
from tests.conftest import record

pytestmark = pytest.mark.django_db


def settled_hand(client, table) -> dict:
    hand = client.post(f"/api/v1/tables/{table.pk}/hands/").json()
    response = client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    assert response.status_code == 201, response.json()
    return hand


def without_bonus() -> dict:
    fixed = record()
    fixed["players"][0]["flush_bonus"] = 0  # seat 2 had made no flush bonus bet
    return fixed


def ask(client, hand, **body):
    return client.post(
        f"/api/v1/hands/{hand['id']}/corrections/",
        {"reason": "seat 2 made no bonus bet", **body},
        format="json",
    )


def audit_passes(client_for, compliance, capture) -> dict:
    with capture(execute=True):
        check = client_for(compliance).post("/api/v1/audit/checks/").json()
    return client_for(compliance).get(f"/api/v1/audit/checks/{check['id']}/").json()


def test_a_correction_reverses_the_settlement_and_stores_the_corrected_one(
    dp_table, dealer, floor, compliance, client_for, django_capture_on_commit_callbacks
):
    client = client_for(dealer)
    hand = settled_hand(client, dp_table)
    original = Settlement.objects.get()
    asked = ask(client, hand, record=without_bonus())
    assert asked.status_code == 202, asked.json()
    request = asked.json()
    assert (request["kind"], request["status"]) == ("correction", "pending")
    assert request["detail"]["differences"] == {"1": -500, "2": 500, "3": 0, "rake": 0}
    assert Settlement.objects.count() == 1  # nothing moves before the floor approves

    approved = client_for(floor).post(
        f"/api/v1/approvals/{request['id']}/approve/", {}, format="json"
    )
    assert approved.status_code == 200, approved.json()
    rows = list(Settlement.objects.order_by("id"))
    assert [(r.kind, r.corrects_id) for r in rows] == [
        ("settlement", None),
        ("reversal", original.pk),
        ("correction", original.pk),
    ]
    original_, reversal, corrected = rows
    assert {s.seat: s.net for s in reversal.seats.all()} == {
        s.seat: -s.net for s in original_.seats.all()
    }
    assert reversal.rake == -original_.rake
    assert {s.seat: s.net for s in corrected.seats.all()} == {1: -1100, 2: -2100, 3: 2900}
    assert corrected.settled_by.username == "dealer"  # the asker's; the floor signed it
    # The hand now shows the corrected settlement; the chips add up to it alone.
    shown = client.get(f"/api/v1/hands/{hand['id']}/").json()
    assert shown["settlement"] == corrected.pk and shown["status"] == "settled"
    every_row = figures.totals(Settlement.objects.all())
    assert every_row == replace(figures.of_settlement(corrected), hands=1)  # one hand
    entry = AuditEntry.objects.get(action="hand_correct")
    assert entry.actor_name == "floor" and entry.after["requested_by"] == "dealer"
    assert entry.after["reversal"]["settlement"] == reversal.pk
    assert entry.after["correction"]["settlement"] == corrected.pk
    report = audit_passes(client_for, compliance, django_capture_on_commit_callbacks)
    assert report["status"] == "passed", report["report"]["findings"]
    assert report["report"]["settlements_checked"] == 3


def test_a_hand_played_action_by_action_is_corrected_with_its_whole_list_of_actions(
    dp_table, dealer, floor, client_for
):
    client = client_for(dealer)
    hand = settled_hand(client, dp_table)
    actions = Settlement.objects.get().history["actions"]
    bonus = next(a for a in actions if a["type"] == "wager" and a["seat"] == 2)
    bonus["flush_bonus"] = 0
    asked = ask(client, hand, actions=actions)
    assert asked.status_code == 202, asked.json()
    assert asked.json()["detail"]["differences"]["2"] == 500
    client_for(floor).post(f"/api/v1/approvals/{asked.json()['id']}/approve/", {}, format="json")
    assert Settlement.objects.filter(kind="correction").get().history["actions"] == actions


def test_a_second_correction_corrects_the_first(dp_table, dealer, floor, client_for):
    client = client_for(dealer)
    hand = settled_hand(client, dp_table)
    first = ask(client, hand, record=without_bonus()).json()
    client_for(floor).post(f"/api/v1/approvals/{first['id']}/approve/", {}, format="json")
    corrected = Settlement.objects.get(kind="correction")
    again = ask(client, hand, record=record(), reason="it was right the first time").json()
    assert again["detail"]["corrects"] == corrected.pk
    client_for(floor).post(f"/api/v1/approvals/{again['id']}/approve/", {}, format="json")
    assert figures.totals(Settlement.objects.all()) == figures.of_settlement(
        Settlement.objects.get(kind="settlement")
    )


def test_what_a_correction_refuses(dp_table, dealer, floor, client_for):
    client = client_for(dealer)
    hand = client.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    unsettled = ask(client, hand, record=without_bonus())
    assert unsettled.status_code == 409 and "only a settled hand" in unsettled.json()["detail"]
    client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    same = ask(client, hand, record=record())
    assert same.status_code == 400 and "nothing to correct" in same.json()["detail"]
    both = ask(client, hand, record=record(), actions=[])
    assert both.status_code == 400 and both.json()["errors"][0]["path"] == "actions"
    unfinished = ask(client, hand, actions=[])
    assert unfinished.status_code == 400 and "not finished" in unfinished.json()["detail"]
    no_reason = client.post(
        f"/api/v1/hands/{hand['id']}/corrections/", {"record": without_bonus()}, format="json"
    )
    assert no_reason.status_code == 400 and no_reason.json()["errors"][0]["path"] == "reason"
    request = ask(client_for(floor), hand, record=without_bonus()).json()
    twice = ask(client, hand, record=without_bonus())
    assert twice.status_code == 409 and "already waits for the floor" in twice.json()["detail"]
    own = client_for(floor).post(f"/api/v1/approvals/{request['id']}/approve/", {}, format="json")
    assert own.status_code == 403
    rejected = client_for(dealer).post(
        f"/api/v1/approvals/{request['id']}/approve/", {}, format="json"
    )
    assert rejected.status_code == 403  # a dealer never decides
    assert Settlement.objects.count() == 1 and Approval.objects.get().status == "pending"


def test_a_forged_reversal_is_found_by_the_audit_check(
    dp_table, dealer, floor, compliance, client_for, django_capture_on_commit_callbacks
):
    if connection.vendor == "postgresql":
        pytest.skip("settlement rows cannot be changed on PostgreSQL (append-only trigger)")
    client = client_for(dealer)
    hand = settled_hand(client, dp_table)
    request = ask(client, hand, record=without_bonus()).json()
    client_for(floor).post(f"/api/v1/approvals/{request['id']}/approve/", {}, format="json")
    reversal = Settlement.objects.get(kind="reversal")
    reversal.result["seats"][1]["net"] += 100  # keeps a seat's chips and hides it
    Settlement.objects.filter(pk=reversal.pk).update(result=reversal.result)
    report = audit_passes(client_for, compliance, django_capture_on_commit_callbacks)
    assert report["status"] == "failed"
    problems = " ".join(f["problem"] for f in report["report"]["findings"])
    assert f"reversal {reversal.pk} does not move back exactly" in problems
    assert "is not the one audit entry" in problems
