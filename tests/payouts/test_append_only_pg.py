"""Append-only records under the app's least-privilege PostgreSQL role (README,
"Production"): the app plays its hands, and nothing it can do changes or removes an audit
entry, a settlement, a seat row, a payout line, a hand action, a rotation or bank event, a payout's
signature, a drop count or a custody signature.
"""

from __future__ import annotations

import io
from contextlib import contextmanager

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from approvals.models import Approval, Signature
from casino.core.management.commands.grant_app_role import append_only_tables
from custody.models import DropCount
from custody.models import Signature as CustodySignature
from payouts import checkpoints
from payouts.audit import audit_report
from tables import services
from tables.models import HandAction
from tests.conftest import record
from tests.tables.test_queries import deal

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]
APP_ROLE = "casino_app_test"
EXPECTED = {
    "approvals_signature",
    "core_databaseidentity",
    "custody_dropcount",
    "custody_signature",
    "payouts_auditcheckpoint",
    "payouts_auditkeyhandover",
    "payouts_auditleaf",
    "payouts_audittreenode",
    "payouts_auditentry",
    "payouts_payoutline",
    "payouts_seatsettlement",
    "payouts_settlement",
    "tables_handaction",
    "tables_tableevent",
}


def run(sql: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql)


@pytest.fixture
def app_role(db):
    """The documented app role: no superuser, owns nothing, granted by the command."""
    run(f"CREATE ROLE {APP_ROLE} NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE")
    call_command("grant_app_role", APP_ROLE, apply=True, stdout=io.StringIO())
    return APP_ROLE


@contextmanager
def acting_as(role: str):
    run(f"SET LOCAL ROLE {role}")
    try:
        yield
    finally:
        run("RESET ROLE")


@pytest.fixture
def history(open_table, dealer):
    """Two settled hands taken into a signed checkpoint's tree, a key hand-over, an open hand
    with an action row, and the designated-player offers and acceptances as table events:
    something in every append-only table."""
    deal(open_table, dealer, 2)
    checkpoints.checkpoint_write()
    checkpoints.key_handover(Ed25519PrivateKey.generate())
    open_table.refresh_from_db()
    services.game_act(
        user=dealer,
        table_id=open_table.pk,
        action={"type": "accept", "seat": open_table.game_state["offer"], "bank": 50_000},
    )
    hand = services.hand_open(user=dealer, table_id=open_table.pk)
    HandAction.objects.create(hand=hand, index=0, action={}, by=dealer, at=timezone.now())
    payout = Approval.objects.create(
        kind="payout", table=open_table, hand=hand, requested_by=dealer
    )
    Signature.objects.create(approval=payout, signed_by=dealer, roles=[], tier=0)
    drop = DropCount.objects.create(
        table=open_table,
        gaming_day=timezone.localdate(),
        cash={},
        chips={},
        cash_total=0,
        chips_total=0,
        total=0,
        counted_by=dealer,
    )
    CustodySignature.objects.create(drop=drop, step="count", signed_by=dealer, roles=[])
    run("SET CONSTRAINTS ALL IMMEDIATE")  # no pending foreign-key checks: TRUNCATE may run
    return hand


def refused(sql: str) -> str:
    with pytest.raises(DatabaseError) as error, transaction.atomic():
        run(sql)
    return str(error.value)


def test_the_guarded_tables_are_the_append_only_ones(db):
    assert set(append_only_tables()) == EXPECTED


def test_the_app_role_plays_hands_and_runs_the_check(app_role, dp_table, dealer):
    with acting_as(app_role):
        hand = services.hand_open(user=dealer, table_id=dp_table.pk)
        services.hand_settle(user=dealer, hand_id=hand.pk, record=record())
        report = audit_report()
    assert report["ok"] is True, report
    assert report["settlements_checked"] == 1


@pytest.mark.parametrize("table", sorted(EXPECTED))
@pytest.mark.parametrize("statement", ["UPDATE {t} SET id = id", "DELETE FROM {t}", "TRUNCATE {t}"])
def test_the_app_role_may_not_change_append_only_rows(app_role, history, table, statement):
    with acting_as(app_role):
        message = refused(statement.format(t=table))
    assert "permission denied" in message


@pytest.mark.parametrize("table", sorted(EXPECTED))
def test_with_the_privileges_granted_anyway_the_trigger_refuses(app_role, history, table):
    """A careless grant does not open the tables: the trigger refuses, whatever the session
    sets (django-pgtrigger's ``pgtrigger.ignore`` included)."""
    run(f"GRANT UPDATE, DELETE, TRUNCATE ON ALL TABLES IN SCHEMA public TO {app_role}")
    with acting_as(app_role):
        run(f"SET LOCAL pgtrigger.ignore = '{{{table}_append_only,{table}_no_truncate}}'")
        for statement in (
            f"UPDATE {table} SET id = id",
            f"DELETE FROM {table}",
            f"TRUNCATE {table} CASCADE",
        ):
            assert "append-only" in refused(statement), statement


def test_the_app_role_cannot_switch_the_triggers_off(app_role, history):
    with acting_as(app_role):
        assert "permission denied" in refused("SET session_replication_role = replica")
        assert "must be owner" in refused("ALTER TABLE payouts_auditentry DISABLE TRIGGER ALL")
        assert "must be owner" in refused(
            "DROP TRIGGER payouts_auditentry_append_only ON payouts_auditentry"
        )
        assert "must be owner" in refused("DROP FUNCTION casino_append_only() CASCADE")


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE payouts_auditentry SET actor_name = 'x'",
        "DELETE FROM payouts_settlement",
        "UPDATE tables_handaction SET action = '{}'",
        "TRUNCATE payouts_auditentry CASCADE",
    ],
)
def test_even_the_owner_is_refused_without_switching_triggers_off(history, statement):
    assert "append-only" in refused(statement)


def test_the_grant_command_refuses_a_superuser_role(db):
    with pytest.raises(CommandError, match="superuser"):
        call_command("grant_app_role", "postgres", stdout=io.StringIO())


def test_the_grant_command_prints_the_sql_for_review(app_role):
    out = io.StringIO()
    call_command("grant_app_role", app_role, stdout=out)
    sql = out.getvalue()
    assert f'REVOKE UPDATE, DELETE ON "payouts_auditentry" FROM "{APP_ROLE}";' in sql
    assert "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES" in sql
