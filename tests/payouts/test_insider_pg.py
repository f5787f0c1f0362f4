"""An insider with the app's own database role (README "The app's database role"), on
PostgreSQL: each write no service makes is refused by the database, or found by the default
audit check, the incremental one, after a check that passed.

The attacks are the ones a tester made: a hand numbered 0, a settlement for an old voided
hand, a settled hand marked voided, an entry past a chain's head, a failed check's verdict
rewritten, and rows slipped in among those already verified.
"""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from approvals.services import approval_decide
from payouts import services
from payouts.models import (
    AuditCheck,
    AuditEntry,
    PayoutLine,
    SeatSettlement,
    Settlement,
)
from tables import services as table_services
from tables.models import Hand, HandAction, TableEvent
from tests.payouts.forgery import as_database_superuser
from tests.payouts.test_append_only_pg import acting_as, app_role  # noqa: F401 (fixture)
from tests.tables.test_queries import deal

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def run(sql: str, params: list | None = None) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def refused(sql: str, params: list | None = None) -> str:
    """Run ``sql`` and what a commit checks; the database's refusal, in words."""
    with pytest.raises(DatabaseError) as error, transaction.atomic():
        run(sql, params)
        run("SET CONSTRAINTS ALL IMMEDIATE")  # what COMMIT would check
    return str(error.value).splitlines()[0]


def run_check(capture, role: str | None = None, **options) -> AuditCheck:
    """A check as a worker connected with ``role`` runs it: planned, each chunk, finished."""
    check = AuditCheck.objects.create(**options)
    with capture(execute=True):
        if role:
            with acting_as(role):
                services.audit_check_run(check_id=check.pk)
        else:
            services.audit_check_run(check_id=check.pk)
    check.refresh_from_db()
    return check


@pytest.fixture
def verified(open_table, dealer, floor, app_role, django_capture_on_commit_callbacks):  # noqa: F811
    """Two settled hands and a voided one at HCF-T, then a passed check (the app's role
    running it, as a worker does), so the next one is incremental."""
    deal(open_table, dealer, 2)
    open_table.refresh_from_db()
    table_services.game_act(
        user=dealer,
        table_id=open_table.pk,
        action={"type": "accept", "seat": open_table.game_state["offer"], "bank": 50_000},
    )
    voided = table_services.hand_open(user=dealer, table_id=open_table.pk)
    asked = table_services.void_request(user=dealer, hand_id=voided.pk, reason="misdeal")
    approval_decide(user=floor, approval_id=asked.pk, approve=True)
    check = run_check(django_capture_on_commit_callbacks, app_role)
    assert check.status == "passed", check.report
    return open_table


def open_next(table, dealer) -> Hand:
    """The table's next hand, the offered seat accepting the designated player's position."""
    table.refresh_from_db()
    return table_services.hand_open(
        user=dealer,
        table_id=table.pk,
        body={"accept": {"seat": table.game_state["offer"], "bank": 50_000}},
    )


def incremental(capture, role):
    check = run_check(capture, role)
    assert check.report["full"] is False
    return check


def problems(check) -> list[str]:
    return [f["problem"] for f in check.report["findings"]] + check.report["anchors"]["problems"]


# ---------------------------------------------------------------- refused by the database


def test_a_hand_numbered_0_is_refused(verified, app_role, dealer):  # noqa: F811
    hand = Hand.objects.filter(table=verified).first()
    with acting_as(app_role):
        message = refused(
            "INSERT INTO tables_hand (table_id, number, game, status, held, rules, config, "
            "seats, opened_by_id, opened_at, void_reason) SELECT table_id, 0, game, 'open', "
            "false, rules, config, seats, opened_by_id, now(), '' FROM tables_hand WHERE id = %s",
            [hand.pk],
        )
    assert "hand_numbered_from_one" in message


def test_a_settled_hand_cannot_be_marked_voided(verified, app_role):  # noqa: F811
    settled = Hand.objects.filter(table=verified, status="settled").first()
    with acting_as(app_role):
        message = refused("UPDATE tables_hand SET status = 'voided' WHERE id = %s", [settled.pk])
    assert message == (
        f"casino: hand {settled.number} of table {verified.pk} is settled, and stays so "
        "(a correction is a new, audited record)"
    )


def test_an_open_hand_cannot_be_closed_without_its_audit_entry(verified, app_role, dealer):  # noqa: F811
    hand = open_next(verified, dealer)
    with acting_as(app_role):
        voided = refused("UPDATE tables_hand SET status = 'voided' WHERE id = %s", [hand.pk])
        settled = refused("UPDATE tables_hand SET status = 'settled' WHERE id = %s", [hand.pk])
    assert "was marked voided without the audit entry that records it" in voided
    assert "was marked settled without the audit entry that records it" in settled


def test_what_a_hand_froze_cannot_change(verified, app_role):  # noqa: F811
    hand = Hand.objects.filter(table=verified).first()
    with acting_as(app_role):
        message = refused("UPDATE tables_hand SET rules = '{}' WHERE id = %s", [hand.pk])
    assert "froze when it opened cannot change" in message


def test_a_settlement_for_an_old_voided_hand_is_refused(verified, app_role):  # noqa: F811
    voided = Hand.objects.get(table=verified, status="voided")
    settled = Settlement.objects.filter(hand__table=verified).first()
    with acting_as(app_role):
        message = refused(
            "INSERT INTO payouts_settlement (hand_id, kind, history, result, rake, "
            "settled_by_id, settled_at) SELECT %s, 'settlement', history, result, rake, "
            "settled_by_id, now() FROM payouts_settlement WHERE id = %s",
            [voided.pk, settled.pk],
        )
    assert "has no audit entry storing it" in message


def test_a_second_reversal_of_a_settlement_is_refused(verified, app_role):  # noqa: F811
    settled = Settlement.objects.filter(hand__table=verified).first()
    insert = (
        "INSERT INTO payouts_settlement (hand_id, kind, corrects_id, history, result, rake, "
        "settled_by_id, settled_at) SELECT hand_id, 'reversal', id, history, result, -rake, "
        "settled_by_id, now() FROM payouts_settlement WHERE id = %s"
    )
    with as_database_superuser():
        run(insert, [settled.pk])  # one reversal, say a genuine one
        with pytest.raises(DatabaseError, match="settlement_corrected_once"), transaction.atomic():
            run(insert, [settled.pk])


def test_no_action_is_recorded_on_a_closed_hand(verified, app_role, dealer):  # noqa: F811
    settled = Hand.objects.filter(table=verified, status="settled").first()
    with acting_as(app_role):
        message = refused(
            "INSERT INTO tables_handaction (hand_id, index, action, by_id, at) "
            "VALUES (%s, 99, '{}', %s, now())",
            [settled.pk, dealer.pk],
        )
    assert message == f"casino: hand {settled.pk} is settled: no action is recorded on it"


def test_a_failed_checks_verdict_cannot_be_rewritten(
    verified,
    app_role,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    settled = Settlement.objects.filter(hand__table=verified).first()
    with as_database_superuser():
        Settlement.objects.filter(pk=settled.pk).update(rake=settled.rake + 1)
    failed = run_check(django_capture_on_commit_callbacks, full=True)
    assert failed.status == "failed"
    with acting_as(app_role):
        message = refused(
            "UPDATE payouts_auditcheck SET status = 'passed' WHERE id = %s", [failed.pk]
        )
        again = refused(
            'INSERT INTO payouts_auditcheck (requested_at, finished_at, "full", status, report, '
            "stage, checked, total, plan) VALUES (now(), now(), true, 'passed', '{}', 'done', "
            "0, 0, '{}')"
        )
    assert message == (
        f"casino: audit check {failed.pk} is finished (failed): its verdict is sealed and stays "
        "as it is"
    )
    assert "an audit check is written queued, with no verdict" in again


def test_a_verdict_rewritten_behind_the_triggers_shows_as_sealed(
    verified, compliance, client_for, django_capture_on_commit_callbacks
):
    """Even the database's superuser, switching the triggers off, cannot make the API or the
    desk show a failed check as passed: they show the sealed verdict and say why."""
    settled = Settlement.objects.filter(hand__table=verified).first()
    with as_database_superuser():
        Settlement.objects.filter(pk=settled.pk).update(rake=settled.rake + 1)
    failed = run_check(django_capture_on_commit_callbacks, full=True)
    with as_database_superuser():
        AuditCheck.objects.filter(pk=failed.pk).update(status="passed", report={"ok": True})
    shown = client_for(compliance).get(f"/api/v1/audit/checks/{failed.pk}/").json()
    assert shown["status"] == "failed" and shown["report"] is None
    assert "differs from what audit entry" in shown["problem"]
    entry = AuditEntry.objects.get(subject=f"audit_check:{failed.pk}")
    assert shown["sealed"]["entry"] == entry.seq and shown["sealed"]["status"] == "failed"
    listed = client_for(compliance).get("/api/v1/audit/checks/").json()["results"]
    assert next(c for c in listed if c["id"] == failed.pk)["status"] == "failed"


# ---------------------------------------------------------------- found by the incremental check


def test_an_entry_past_a_chains_head_is_found(
    verified,
    app_role,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    verified.refresh_from_db()
    head = AuditEntry.objects.get(table=verified, seq=verified.audit_seq)
    with acting_as(app_role):
        run(
            "INSERT INTO payouts_auditentry (seq, at, actor_name, action, table_id, subject, "
            "prev_hash, hash) VALUES (%s, now(), 'x', 'hand_void', %s, 'junk', %s, %s)",
            [head.seq + 1, verified.pk, head.hash, "f" * 64],
        )
    check = incremental(django_capture_on_commit_callbacks, app_role)
    assert check.status == "failed"
    assert any(
        f"ends at entry {head.seq}, but holds entries up to {head.seq + 1}" in p
        and "written past its head, outside the system" in p
        for p in problems(check)
    ), problems(check)


def test_a_hand_numbered_past_the_others_is_found(
    verified,
    app_role,  # noqa: F811
    dealer,
    django_capture_on_commit_callbacks,
):
    hand = Hand.objects.filter(table=verified).first()
    with acting_as(app_role):
        run(
            "INSERT INTO tables_hand (table_id, number, game, status, held, rules, config, "
            "seats, opened_by_id, opened_at, void_reason) SELECT table_id, 1000, game, 'open', "
            "false, rules, config, seats, opened_by_id, now(), '' FROM tables_hand WHERE id = %s",
            [hand.pk],
        )
    forged = Hand.objects.get(table=verified, number=1000)
    check = incremental(django_capture_on_commit_callbacks, app_role)
    [finding] = check.report["findings"]
    assert finding["hand"] == forged.pk and "not in the audit log" in finding["problem"]


def test_an_extra_payout_line_for_an_old_settlement_is_found(
    verified,
    app_role,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    """The settlement was verified by the last check and has no entry since; the new row
    brings its hand back into the check."""
    seat = SeatSettlement.objects.filter(settlement__hand__table=verified, seat=2).first()
    with acting_as(app_role):
        run(
            "INSERT INTO payouts_payoutline (seat_id, wager, stake, outcome, amount, odds) "
            "VALUES (%s, 'bonus', 100, 'win', 90000, '')",
            [seat.pk],
        )
    check = incremental(django_capture_on_commit_callbacks, app_role)
    assert check.status == "failed"
    [finding] = [f for f in check.report["findings"] if f["hand"] == seat.settlement.hand_id]
    assert finding["seat"] == 2 and "stored payout line" in finding["problem"]


def test_an_action_slipped_into_an_open_hand_is_found(
    verified,
    app_role,  # noqa: F811
    dealer,
    django_capture_on_commit_callbacks,
):
    hand = open_next(verified, dealer)
    assert run_check(django_capture_on_commit_callbacks, app_role).status == "passed"
    with acting_as(app_role):
        run(
            "INSERT INTO tables_handaction (hand_id, index, action, by_id, at) "
            "VALUES (%s, 0, %s, %s, now())",
            [hand.pk, '{"type": "wager", "seat": 2, "ante": 100}', dealer.pk],
        )
    check = incremental(django_capture_on_commit_callbacks, app_role)
    [finding] = check.report["findings"]
    assert finding["hand"] == hand.pk
    assert "1 stored actions differ from the 0 actions in the audit log" in finding["problem"]


def test_a_table_event_written_outside_the_system_is_found(
    verified,
    app_role,  # noqa: F811
    dealer,
    django_capture_on_commit_callbacks,
):
    with acting_as(app_role):
        run(
            "INSERT INTO tables_tableevent (table_id, kind, data, by_id, at) "
            "VALUES (%s, 'rotation_offer', '{\"seat\": 4}', %s, now())",
            [verified.pk, dealer.pk],
        )
    event = TableEvent.objects.latest("pk")
    check = incremental(django_capture_on_commit_callbacks, app_role)
    [finding] = check.report["findings"]
    assert finding["problem"] == (
        f"table event {event.pk} (rotation_offer) at table HCF-T's chain is not in the audit "
        "log: it was written outside the system"
    )


def test_a_row_slipped_in_among_verified_ones_is_found(
    verified,
    app_role,  # noqa: F811
    dealer,
    floor,
    django_capture_on_commit_callbacks,
):
    """A row given an id below the last check's mark (one a rolled-back transaction left
    unused) is never read again by an incremental check, but the rows below the mark are
    counted."""
    hand = open_next(verified, dealer)
    with pytest.raises(RuntimeError), transaction.atomic():  # a request that failed
        gap = HandAction.objects.create(hand=hand, index=0, action={}, by=dealer, at=timezone.now())
        raise RuntimeError
    asked = table_services.void_request(user=dealer, hand_id=hand.pk, reason="misdeal")
    approval_decide(user=floor, approval_id=asked.pk, approve=True)
    deal(verified, dealer, 1)  # its actions take ids past the gap
    assert run_check(django_capture_on_commit_callbacks, app_role).status == "passed"
    later = open_next(verified, dealer)
    with acting_as(app_role):
        run(
            "INSERT INTO tables_handaction (id, hand_id, index, action, by_id, at) "
            "VALUES (%s, %s, 0, '{}', %s, now())",
            [gap.pk, later.pk, dealer.pk],
        )
    check = incremental(django_capture_on_commit_callbacks, app_role)
    assert check.status == "failed"
    [counted] = [p for p in check.report["anchors"]["problems"] if "hand actions" in p]
    assert counted.startswith("1 of the hand actions was added among those the check of ")
    assert counted.endswith("rows written outside the system; a full check names them")


def test_a_row_removed_and_another_written_in_its_place_is_found(
    verified,
    app_role,  # noqa: F811
    dealer,
    django_capture_on_commit_callbacks,
):
    """With the triggers off, a verified table event removed and another written with an id
    a rolled-back transaction left unused below the mark: the number of rows is the same, the
    sum of their ids is not."""
    with pytest.raises(RuntimeError), transaction.atomic():  # a request that failed
        unused = TableEvent.objects.create(
            table=verified, kind="rotation_offer", data={}, by=dealer, at=timezone.now()
        ).pk
        raise RuntimeError
    deal(verified, dealer, 1)  # its events take ids past the unused one
    assert run_check(django_capture_on_commit_callbacks, app_role).status == "passed"
    first = TableEvent.objects.order_by("pk").first()
    with as_database_superuser():
        TableEvent.objects.filter(pk=first.pk).delete()
        TableEvent.objects.create(
            pk=unused,
            table=verified,
            kind=first.kind,
            data=first.data,
            by=first.by,
            at=first.at,
            hand=first.hand,
        )
    check = incremental(django_capture_on_commit_callbacks, app_role)
    assert check.status == "failed"
    assert any(
        "Table events among those the check of" in problem
        and "were removed and others written in their place" in problem
        for problem in check.report["anchors"]["problems"]
    ), check.report["anchors"]["problems"]


def test_a_settlement_behind_the_triggers_is_found_by_the_incremental_check(
    verified, django_capture_on_commit_callbacks
):
    """Written with the triggers off (the superuser), a settlement for the old voided hand is
    a new row: its hand is checked again."""
    voided = Hand.objects.get(table=verified, status="voided")
    settled = Settlement.objects.filter(hand__table=verified).first()
    with as_database_superuser():
        Settlement.objects.create(
            hand=voided,
            history=settled.history,
            result=settled.result,
            rake=settled.rake,
            settled_by=settled.settled_by,
            settled_at=timezone.now(),
        )
    check = incremental(django_capture_on_commit_callbacks, None)
    assert "the hand is voided, but a settlement is stored for it" in [
        f["problem"] for f in check.report["findings"] if f["hand"] == voided.pk
    ]


def test_a_status_changed_behind_the_triggers_is_found_by_a_full_check(
    verified, django_capture_on_commit_callbacks
):
    settled = Hand.objects.filter(table=verified, status="settled").first()
    with as_database_superuser():
        Hand.objects.filter(pk=settled.pk).update(status="voided")
    check = run_check(django_capture_on_commit_callbacks, full=True)
    found = [f["problem"] for f in check.report["findings"] if f["hand"] == settled.pk]
    assert "the hand is marked voided, but the audit log never voided it" in found
    # nothing else was touched: the payout lines are as verified
    assert PayoutLine.objects.filter(seat__settlement__hand=settled).exists()
