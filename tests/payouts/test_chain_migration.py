"""Upgrading a log kept as one chain to one chain per table: every entry keeps its content and
order within its table, is numbered and sealed in its table's chain, each head is stored, and
the check passes; a broken old chain is refused, not re-sealed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from payouts import chain
from payouts.audit import audit_report
from payouts.models import AuditEntry
from tables.models import Table
from tests.payouts.forgery import as_database_superuser

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [
    ("payouts", "0007_settlement_corrections"),
    ("tables", "0008_table_change_is_its_request"),
]


def old_chain(tables, *, break_at: int | None = None) -> None:
    """Entries as the single chain wrote them: numbered 1, 2, 3, ... across the whole house,
    tables interleaved, with one entry about no table."""
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    Entry = old.get_model("payouts", "AuditEntry")
    Head = old.get_model("payouts", "AuditChainHead")
    Table_ = old.get_model("tables", "Table")
    made = [
        Table_.objects.create(name=name, game="pontoon", limits={}, rules={}, game_state={})
        for name in tables
    ]
    prev, at = chain.GENESIS_HASH, timezone.now()
    owners = [made[0], made[1], None, made[0], made[1], made[0]]
    for seq, owner in enumerate(owners, start=1):
        fields = {
            "seq": seq,
            "at": at + timedelta(seconds=seq),
            "actor_id": None,
            "actor_name": "system",
            "action": "note",
            "table_id": owner.pk if owner else None,
            "hand_id": None,
            "subject": f"note:{seq}",
            "before": None,
            "after": {"n": seq},
            "prev_hash": prev,
        }
        sealed = chain.seal(fields)
        if seq == break_at:
            fields["after"] = {"n": -1}  # edited after it was sealed
        Entry.objects.create(**fields, hash=sealed)
        prev = sealed
    Head.objects.update_or_create(pk=1, defaults={"seq": len(owners), "last_hash": prev})


def migrate_forward() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_the_single_chain_becomes_a_chain_per_table():
    old_chain(["OLD-A", "OLD-B"])
    migrate_forward()
    a, b = Table.objects.get(name="OLD-A"), Table.objects.get(name="OLD-B")
    for table, notes in ((a, [1, 4, 6]), (b, [2, 5]), (None, [3])):
        entries = list(AuditEntry.objects.filter(table=table).order_by("seq"))
        assert [e.after["n"] for e in entries] == notes  # content and order kept
        assert [e.seq for e in entries] == list(range(1, len(notes) + 1))
        prev = chain.GENESIS_HASH
        for entry in entries:
            assert entry.prev_hash == prev and entry.hash == chain.seal(chain.entry_fields(entry))
            prev = entry.hash
        if table is not None:
            assert (table.audit_seq, table.audit_hash) == (entries[-1].seq, entries[-1].hash)
    report = audit_report(full=True)
    assert report["chain"]["ok"] and report["chain"]["chains"] == 3, report["chain"]
    assert report["chain"]["entries_checked"] == 6


def test_a_broken_old_chain_is_refused():
    old_chain(["OLD-A", "OLD-B"], break_at=4)
    with pytest.raises(RuntimeError, match="audit entry 4 does not verify"):
        migrate_forward()
    # Back to today's schema for the tests after this one, without the broken entries.
    with as_database_superuser(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM payouts_auditentry")
    migrate_forward()
