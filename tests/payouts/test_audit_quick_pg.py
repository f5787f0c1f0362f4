"""The audit check's quick paths (``payouts/audit_fast.py``, ``payouts/audit_tree.py``) report
exactly what the full paths report, on honest data and on data tampered with as an attacker
with the database's superuser rights would: an edited entry, a changed seal, a missing entry,
entries reordered, entries the quick path cannot confirm itself (a whole-second time,
non-ASCII text), a settlement changed under its leaf, a leaf changed."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection

from payouts import audit_fast, chain
from payouts.audit import audit_report
from payouts.audit_fast import chain_verify_quick
from payouts.models import AuditEntry, Settlement
from tables.models import Hand
from tests.conftest import record
from tests.payouts.forgery import as_database_superuser
from tests.payouts.test_audit import reseal_from, settled_hand  # noqa: F401 (a fixture)

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="the quick paths read PostgreSQL's JSON"
    ),
]


def both_walks(key, **options):
    """The full walk's report and visits, and the quick walk's."""
    reports, visits = [], []
    for walk in (chain.chain_verify, chain_verify_quick):
        seen = []
        report = walk(key, visit=lambda e, seen=seen: seen.append(_visible(e)), **options)
        reports.append(report.to_dict() | {"last_hash": report.last_hash})
        visits.append(seen)
    return reports, visits


def _visible(entry):
    """What the check reads of a visited entry (``at`` aside: the quick walk keeps its text)."""
    return {k: v for k, v in entry.items() if k != "at"}


def assert_same(key, **options):
    (full, quick), (seen_full, seen_quick) = both_walks(key, **options)
    assert quick == full
    assert seen_quick == seen_full
    return full


@pytest.fixture
def table_id(request):
    """The table of a hand settled through the API (``test_audit``'s ``settled_hand``)."""
    return request.getfixturevalue("settled_hand").table_id


def test_an_honest_chain_is_reported_alike(table_id):
    report = assert_same(table_id)
    assert (
        report["ok"]
        and report["entries_checked"] == AuditEntry.objects.filter(table=table_id).count()
    )
    assert assert_same(None)["ok"]  # the house chain


def test_a_stretch_of_a_chain_is_reported_alike(table_id):
    first = AuditEntry.objects.get(table=table_id, seq=2)
    report = assert_same(table_id, after_seq=2, after_hash=first.hash, through_seq=4)
    assert report["ok"] and report["entries_checked"] == 2


def test_an_edited_entry_is_reported_alike(table_id):
    entry = AuditEntry.objects.get(action="hand_settle")
    with as_database_superuser():
        AuditEntry.objects.filter(pk=entry.pk).update(after={**entry.after, "rake": 0})
    report = assert_same(table_id)
    assert not report["ok"] and report["broken_at"] == entry.seq
    assert "altered" in report["problem"]


def test_a_changed_seal_is_reported_alike(table_id):
    entry = AuditEntry.objects.get(table=table_id, seq=3)
    with as_database_superuser():
        AuditEntry.objects.filter(pk=entry.pk).update(hash="f" * 64)
    report = assert_same(table_id)
    assert not report["ok"] and report["broken_at"] == 3


def test_a_missing_entry_is_reported_alike(table_id):
    with as_database_superuser():
        AuditEntry.objects.filter(table=table_id, seq=3).delete()
    report = assert_same(table_id)
    assert report["broken_at"] == 3 and "missing" in report["problem"]


def test_entries_missing_at_the_end_are_reported_alike(table_id):
    top = AuditEntry.objects.filter(table=table_id).order_by("-seq").first()
    with as_database_superuser():
        AuditEntry.objects.filter(pk=top.pk).delete()
    report = assert_same(table_id, through_seq=top.seq)
    assert not report["ok"] and "missing" in report["problem"]


def test_reordered_entries_are_reported_alike(table_id):
    """Two entries' numbers swapped (each keeps its seal): the first out of place breaks."""
    a = AuditEntry.objects.get(table=table_id, seq=2)
    b = AuditEntry.objects.get(table=table_id, seq=3)
    with as_database_superuser():
        AuditEntry.objects.filter(pk=a.pk).update(seq=10**9)
        AuditEntry.objects.filter(pk=b.pk).update(seq=2)
        AuditEntry.objects.filter(pk=a.pk).update(seq=3)
    report = assert_same(table_id)
    assert not report["ok"] and report["broken_at"] == 2


def test_entries_resealed_the_quick_path_cannot_confirm_are_confirmed_alike(table_id):
    """A time on a whole second (written without microseconds) and a non-ASCII name (escaped
    in the canonical text, not in orjson's), both sealed with the key: the full walk
    confirms them, so the quick walk hands them to it and reports the same."""
    first = AuditEntry.objects.get(table=table_id, seq=2)
    with as_database_superuser():
        AuditEntry.objects.filter(pk=first.pk).update(
            at=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC), actor_name="Zoë"
        )
    reseal_from(first, key_holder=True)
    report = assert_same(table_id)
    assert report["ok"]


def test_a_whole_second_time_is_written_as_python_writes_it(table_id):
    first = AuditEntry.objects.get(table=table_id, seq=2)
    with as_database_superuser():
        AuditEntry.objects.filter(pk=first.pk).update(at=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC))
    reseal_from(first, key_holder=True)
    seen = []
    assert chain_verify_quick(table_id, visit=seen.append).ok
    # Every entry confirmed on the quick path itself (its entries carry ``at`` as text).
    assert all(isinstance(entry["at"], str) for entry in seen)
    assert seen[1]["at"] == "2026-01-02T03:04:05+00:00"


# ---------------------------------------------------------------- the whole check


def both_reports(monkeypatch):
    """The whole check's report on the full paths alone, and with the quick paths: alike."""
    monkeypatch.setattr(audit_fast, "QUICK", False)
    full = audit_report()
    monkeypatch.setattr(audit_fast, "QUICK", True)
    quick = audit_report()
    assert quick == full
    return quick


def _settlement(table_id):
    return Settlement.objects.get(hand__table_id=table_id)


@pytest.fixture
def corrected_hand(table_id, dealer, floor, client_for):
    """The settled hand corrected (a reversal and a corrected settlement: three in all)."""
    hand = Hand.objects.get(table_id=table_id)
    fixed = record()
    fixed["players"][0]["flush_bonus"] = 0
    asked = client_for(dealer).post(
        f"/api/v1/hands/{hand.pk}/corrections/",
        {"reason": "seat 2 made no bonus bet", "record": fixed},
        format="json",
    )
    approved = client_for(floor).post(
        f"/api/v1/approvals/{asked.json()['id']}/approve/", {}, format="json"
    )
    assert approved.status_code == 200, approved.content
    assert Settlement.objects.filter(hand=hand).count() == 3
    return hand


def test_a_corrected_hand_is_reported_alike(corrected_hand, monkeypatch):
    report = both_reports(monkeypatch)
    assert report["ok"] is True and report["settlements_checked"] == 3


def test_a_tampered_entry_is_reported_alike_by_the_whole_check(table_id, monkeypatch):
    entry = AuditEntry.objects.get(table_id=table_id, action="hand_settle")
    with as_database_superuser():
        AuditEntry.objects.filter(pk=entry.pk).update(after={**entry.after, "rake": 0})
    report = both_reports(monkeypatch)
    assert report["ok"] is False and report["chain"]["broken_at"] == entry.seq


# ---------------------------------------------------------------- the settlements' tree


def test_a_leaf_is_hashed_as_the_full_reading_hashes_it(corrected_hand):
    from casino.audit_verify import formats
    from payouts.audit_tree import _leaf_hashes
    from payouts.checkpoints import leaf_rows

    ids = list(Settlement.objects.values_list("pk", flat=True))
    full = {pk: formats.settlement_leaf_hash(row).hex() for pk, row in leaf_rows(ids).items()}
    assert _leaf_hashes(ids) == full and len(full) == 3


@pytest.mark.parametrize("what", ["rake", "leaf"])
def test_a_tampered_tree_is_reported_alike(table_id, monkeypatch, what):
    from payouts.checkpoints import checkpoint_write
    from payouts.models import AuditLeaf

    checkpoint_write()  # the settlement taken into the signed tree
    settlement = _settlement(table_id)
    with as_database_superuser():
        if what == "rake":
            Settlement.objects.filter(pk=settlement.pk).update(rake=settlement.rake + 1)
        else:
            AuditLeaf.objects.filter(settlement=settlement).update(hash="ab" * 32)
    report = both_reports(monkeypatch)
    assert report["ok"] is False
