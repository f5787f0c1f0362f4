"""The audit log: every step appends a hash-chained entry; checks find tampering."""

from __future__ import annotations

import pgtrigger
import pytest
from django.db import DatabaseError, transaction

from payouts import services
from payouts.models import AuditCheck, AuditEntry, Settlement
from tests.conftest import record

pytestmark = pytest.mark.django_db
PROTECT = "payouts.AuditEntry:audit_entry_append_only"


@pytest.fixture
def settled_hand(dp_table, dealer, client_for):
    client = client_for(dealer)
    hand = client.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    response = client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    assert response.status_code == 201
    return hand


def test_each_entry_chains_to_the_one_before(settled_hand):
    entries = list(AuditEntry.objects.order_by("id"))
    assert entries[0].prev_hash == "0" * 64
    for previous, entry in zip(entries, entries[1:], strict=False):
        assert entry.prev_hash == previous.hash
    actions = [e.action for e in entries]
    for expected in (
        "table_create",
        "seat_update",
        "table_open",
        "rotation_offer",
        "rotation_accept",
        "hand_open",
        "hand_settle",
    ):
        assert expected in actions
    assert services.audit_verify_chain()["ok"] is True


def test_an_edited_entry_breaks_the_chain_at_that_entry(settled_hand):
    entry = AuditEntry.objects.get(action="hand_settle")
    with pgtrigger.ignore(PROTECT):
        AuditEntry.objects.filter(pk=entry.pk).update(after={"rake": 0})
    result = services.audit_verify_chain()
    assert result["ok"] is False and result["broken_at"] == entry.pk
    assert "hand_settle" in result["problem"]


def test_a_removed_last_entry_is_detected(settled_hand):
    last = AuditEntry.objects.order_by("-id").first()
    with pgtrigger.ignore(PROTECT):
        AuditEntry.objects.filter(pk=last.pk).delete()
    result = services.audit_verify_chain()
    assert result["ok"] is False and "missing" in result["problem"]


def test_recheck_resettles_stored_hands_and_reports_a_tampered_result(settled_hand):
    assert services.settlements_recheck() == {"settlements_checked": 1, "mismatches": []}
    settlement = Settlement.objects.get()
    result = dict(settlement.result)
    result["rake"] = 0
    Settlement.objects.filter(pk=settlement.pk).update(result=result)
    report = services.settlements_recheck()
    assert report["settlements_checked"] == 1
    [mismatch] = report["mismatches"]
    assert mismatch["hand"] == settled_hand["id"] and "rake" in mismatch["fields"]


def test_recheck_reports_a_tampered_payout_line(settled_hand):
    settlement = Settlement.objects.get()
    line = settlement.seats.get(seat=3).lines.get(wager="raise")
    line.amount = 4000
    line.save()
    [mismatch] = services.settlements_recheck()["mismatches"]
    assert "payout lines" in mismatch["problem"]


def test_compliance_runs_a_check_through_the_api(
    settled_hand, compliance, client_for, django_capture_on_commit_callbacks
):
    client = client_for(compliance)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/api/v1/audit/checks/")
    assert response.status_code == 202
    check = client.get(f"/api/v1/audit/checks/{response.json()['id']}/").json()
    assert check["status"] == "passed"
    assert check["report"]["chain"]["ok"] is True
    assert check["report"]["settlements_checked"] == 1


def test_dealers_cannot_run_checks_but_read_the_log(settled_hand, dealer, client_for):
    client = client_for(dealer)
    assert client.post("/api/v1/audit/checks/").status_code == 403
    entries = client.get("/api/v1/audit/entries/", {"hand": settled_hand["id"]}).json()
    assert [e["action"] for e in entries["results"]] == ["hand_open", "hand_settle"]


def test_a_failed_check_is_stored_as_failed(settled_hand):
    Settlement.objects.update(rake=1)
    check = AuditCheck.objects.create()
    services.audit_check_run(check_id=check.pk)
    check.refresh_from_db()
    assert check.status == "failed"
    assert check.report["mismatches"][0]["problem"] == "stored rake differs from the result"


@pytest.mark.postgres
@pytest.mark.parametrize("operation", ["update", "delete"])
def test_postgres_trigger_refuses_update_and_delete(operation, settled_hand):
    entry = AuditEntry.objects.first()
    with pytest.raises(DatabaseError, match="Cannot"), transaction.atomic():
        if operation == "update":
            AuditEntry.objects.filter(pk=entry.pk).update(action="nothing")
        else:
            AuditEntry.objects.filter(pk=entry.pk).delete()
    assert AuditEntry.objects.get(pk=entry.pk).action == entry.action
