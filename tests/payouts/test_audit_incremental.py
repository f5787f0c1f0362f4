"""The audit check as a busy floor needs it: one chain per table, checked incrementally from
where the last passed check anchored each chain, in chunks that workers take one by one and
that a check resumes after a lost worker; a full check on demand."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from payouts import audit, audit_plan, chain, services
from payouts.models import AuditCheck, AuditCheckChunk, AuditEntry, PayoutLine, Settlement
from tables import services as table_services
from tables.models import Hand, Table
from tests.conftest import open_hcf_table, record
from tests.payouts.forgery import as_database_superuser
from tests.tables.test_queries import deal

pytestmark = pytest.mark.django_db


def run_check(capture, **options) -> AuditCheck:
    """A check as the workers run it: divided into chunks, each checked, the last finishing."""
    check = AuditCheck.objects.create(**options)
    with capture(execute=True):
        services.audit_check_run(check_id=check.pk)
    check.refresh_from_db()
    return check


@pytest.fixture
def second_table(db, floor, dealer):
    return open_hcf_table(floor, dealer, "HCF-2")


def test_each_table_has_its_own_chain_from_one(open_table, second_table, dealer):
    deal(open_table, dealer, 2)
    deal(second_table, dealer, 1)
    for table in (open_table, second_table):
        table.refresh_from_db()
        seqs = list(AuditEntry.objects.filter(table=table).values_list("seq", flat=True))
        assert sorted(seqs) == list(range(1, table.audit_seq + 1))
        last = AuditEntry.objects.get(table=table, seq=table.audit_seq)
        assert last.hash == table.audit_hash
    # An entry about no table starts the house chain (none was written before it here).
    services.audit_append(actor=None, action="note", subject="house")
    note = AuditEntry.objects.get(action="note")
    assert (note.table_id, note.seq, note.prev_hash) == (None, 1, chain.GENESIS_HASH)


def test_an_incremental_check_starts_where_the_last_passed_check_anchored(
    open_table, second_table, dealer, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    deal(open_table, dealer, 3)
    deal(second_table, dealer, 2)
    first = run_check(capture)
    assert first.status == "passed", first.report
    assert first.report["hands_checked"] == 5
    assert first.report["chain"]["entries_checked"] == AuditEntry.objects.count() - 1

    before = {t.pk: t.audit_seq for t in Table.objects.all()}
    deal(open_table, dealer, 1)  # only the first table moves
    second = run_check(capture)
    assert second.status == "passed", second.report
    assert second.report["full"] is False
    assert second.report["hands_checked"] == 1  # the new hand alone
    open_table.refresh_from_db()
    # The first table's new entries, and the house chain's entry for the first check.
    assert (
        second.report["chain"]["entries_checked"]
        == open_table.audit_seq - before[open_table.pk] + 1
    )
    # A quiet table's chain is not read again at all: no chunk for it.
    assert not second.chunks.filter(table=second_table).exists()


def test_what_was_verified_stays_verified_until_a_full_check(
    dp_table, dealer, django_capture_on_commit_callbacks
):
    """A row changed behind a passed check is outside what an incremental check re-reads;
    a full check re-verifies everything and finds it."""
    capture = django_capture_on_commit_callbacks
    hand = table_services.hand_open(user=dealer, table_id=dp_table.pk)
    table_services.hand_settle(user=dealer, hand_id=hand.pk, record=record())
    assert run_check(capture).status == "passed"
    line = PayoutLine.objects.filter(seat__settlement__hand=hand).first()
    with as_database_superuser():
        PayoutLine.objects.filter(pk=line.pk).update(amount=line.amount + 1000)
    assert run_check(capture).report["hands_checked"] == 0
    full = run_check(capture, full=True)
    assert full.status == "failed" and full.report["full"] is True
    [finding] = full.report["findings"]
    assert finding["hand"] == hand.pk and "stored payout line" in finding["problem"]


def test_a_correction_long_after_re_checks_that_hand(
    dp_table, dealer, floor, client_for, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    client = client_for(dealer)
    hand = client.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    assert run_check(capture).status == "passed"
    fixed = record()
    fixed["players"][0]["flush_bonus"] = 0
    asked = client.post(
        f"/api/v1/hands/{hand['id']}/corrections/",
        {"reason": "seat 2 made no bonus bet", "record": fixed},
        format="json",
    ).json()
    client_for(floor).post(f"/api/v1/approvals/{asked['id']}/approve/", {}, format="json")
    again = run_check(capture)
    assert again.status == "passed", again.report
    assert (again.report["hands_checked"], again.report["settlements_checked"]) == (1, 3)


def test_an_incremental_check_finds_the_chain_rewritten_under_its_start(
    dp_table, dealer, django_capture_on_commit_callbacks
):
    """The entry where the last check stopped must still carry the seal it anchored: someone
    holding the key who re-sealed the chain up to there is found."""
    from tests.payouts.test_audit import reseal_from

    capture = django_capture_on_commit_callbacks
    hand = table_services.hand_open(user=dealer, table_id=dp_table.pk)
    table_services.hand_settle(user=dealer, hand_id=hand.pk, record=record())
    assert run_check(capture).status == "passed"
    first = AuditEntry.objects.get(table=dp_table, seq=1)
    with as_database_superuser():
        AuditEntry.objects.filter(pk=first.pk).update(actor_name="nobody")
    reseal_from(first, key_holder=True)
    check = run_check(capture)
    assert check.status == "failed"
    assert any("differs from the one anchored" in p for p in check.report["anchors"]["problems"])


def test_a_hand_written_outside_the_system_is_found_by_an_incremental_check(
    dp_table, dealer, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    hand = table_services.hand_open(user=dealer, table_id=dp_table.pk)
    table_services.hand_settle(user=dealer, hand_id=hand.pk, record=record())
    assert run_check(capture).status == "passed"
    forged = Hand.objects.create(
        table=dp_table,
        number=2,
        game=hand.game,
        rules=hand.rules,
        config=hand.config,
        seats=hand.seats,
        opened_at=hand.opened_at,
        opened_by=dealer,
    )
    check = run_check(capture)
    assert check.status == "failed"
    [finding] = check.report["findings"]
    assert finding["hand"] == forged.pk and "not in the audit log" in finding["problem"]


def test_a_check_in_many_chunks_checks_every_entry_and_each_hand_once(
    open_table, second_table, dealer, monkeypatch, django_capture_on_commit_callbacks
):
    deal(open_table, dealer, 4)
    deal(second_table, dealer, 3)
    monkeypatch.setattr(audit_plan, "CHUNK_ENTRIES", 4)
    check = run_check(django_capture_on_commit_callbacks, full=True)
    assert check.status == "passed", check.report
    assert check.chunks.count() > 6
    assert check.report["hands_checked"] == Hand.objects.count() == 7
    assert check.report["chain"]["entries_checked"] == AuditEntry.objects.count() - 1
    assert check.checked == check.total


def test_an_edit_inside_one_chunk_is_found_there(
    open_table, dealer, monkeypatch, django_capture_on_commit_callbacks
):
    deal(open_table, dealer, 4)
    entry = AuditEntry.objects.filter(table=open_table, action="hand_settle").order_by("seq")[2]
    with as_database_superuser():
        AuditEntry.objects.filter(pk=entry.pk).update(subject="hand:0")
    monkeypatch.setattr(audit_plan, "CHUNK_ENTRIES", 5)
    check = run_check(django_capture_on_commit_callbacks, full=True)
    assert check.status == "failed"
    assert check.report["chain"]["broken_at"] == entry.seq
    assert "altered" in check.report["chain"]["problem"]


def test_a_check_resumes_with_the_chunks_a_lost_worker_left(
    open_table, dealer, monkeypatch, django_capture_on_commit_callbacks
):
    deal(open_table, dealer, 3)
    monkeypatch.setattr(audit_plan, "CHUNK_ENTRIES", 5)
    check = AuditCheck.objects.create(full=True)
    taken: list[int] = []
    run = services.audit_chunk_run

    def lost_after_two(*, chunk_id: int) -> None:
        if len(taken) < 2:
            taken.append(chunk_id)
            run(chunk_id=chunk_id)

    monkeypatch.setattr(services, "audit_chunk_run", lost_after_two)
    with django_capture_on_commit_callbacks(execute=True):
        services.audit_check_run(check_id=check.pk)
    check.refresh_from_db()
    assert (check.status, check.stage) == ("pending", "checking")
    done_before = set(AuditCheckChunk.objects.filter(done=True).values_list("pk", flat=True))
    assert done_before == set(taken)

    monkeypatch.setattr(services, "audit_chunk_run", run)
    with django_capture_on_commit_callbacks(execute=True) as queued:
        services.audit_check_run(check_id=check.pk)  # the same check, run again
    assert len(queued) == AuditCheckChunk.objects.count() - len(done_before)
    check.refresh_from_db()
    assert check.status == "passed", check.report
    assert check.report["hands_checked"] == 3


def test_the_api_runs_a_full_check_on_demand(
    dp_table, compliance, client_for, settings, django_capture_on_commit_callbacks
):
    client = client_for(compliance)
    with django_capture_on_commit_callbacks(execute=True):
        incremental = client.post("/api/v1/audit/checks/", {}, format="json").json()
        full = client.post("/api/v1/audit/checks/", {"full": True}, format="json").json()
    assert (incremental["full"], full["full"]) == (False, True)
    shown = client.get(f"/api/v1/audit/checks/{full['id']}/").json()
    assert shown["status"] == "passed" and shown["report"]["full"] is True
    bad = client.post("/api/v1/audit/checks/", {"full": "maybe"}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["path"] == "full"
    # Each passed check signs what it verified (the check's own start signs one too).
    records = [json.loads(x) for x in Path(settings.AUDIT_ANCHOR_FILE).read_text().splitlines()]
    verified = [r["statement"]["verified"] for r in records if r["statement"]["verified"]]
    assert [(v["check"], v["full"]) for v in verified] == [
        (incremental["id"], True),  # no passed check yet: the first one is full
        (full["id"], True),
    ]


def test_settlements_are_checked_from_plain_rows(dp_table, dealer):
    """The check reads rows as values (no model objects) and gets what the models hold."""
    hand = table_services.hand_open(user=dealer, table_id=dp_table.pk)
    table_services.hand_settle(user=dealer, hand_id=hand.pk, record=record())
    [row] = audit.hands_load([hand.pk]).values()
    settlement = Settlement.objects.get(hand=hand)
    assert (row.number, row.status, row.table_name) == (1, "settled", dp_table.name)
    [stored] = row.settlements
    assert (stored.pk, stored.result, stored.rake) == (
        settlement.pk,
        settlement.result,
        settlement.rake,
    )
    assert [(s.seat, s.net, len(s.lines)) for s in stored.seats] == [
        (s.seat, s.net, s.lines.count()) for s in settlement.seats.order_by("seat")
    ]
    assert row.actions == list(hand.actions.order_by("index").values_list("action", flat=True))
    assert (row.rules, row.config, row.seats) == (hand.rules, hand.config, hand.seats)
    fields = ("wager", "stake", "outcome", "amount", "odds", "against", "capped_from")
    assert [line for seat in stored.seats for line in seat.lines] == list(
        PayoutLine.objects.filter(seat__settlement=settlement)
        .order_by("seat__seat", "id")
        .values_list(*fields)
    )


def test_a_hand_never_dealt_is_read_with_no_actions_or_settlement(dp_table, dealer):
    hand = table_services.hand_open(user=dealer, table_id=dp_table.pk)
    [row] = audit.hands_load([hand.pk]).values()
    assert (row.status, row.actions, row.settlements) == ("open", [], [])


@pytest.mark.parametrize("collector_on", [True, False])
def test_a_check_leaves_the_cycle_collector_as_it_found_it(dp_table, dealer, collector_on):
    """A chunk runs with Python's cycle collector paused; a worker that kept it off would
    never free the cycles its later tasks make."""
    import gc

    hand = table_services.hand_open(user=dealer, table_id=dp_table.pk)
    table_services.hand_settle(user=dealer, hand_id=hand.pk, record=record())
    was = gc.isenabled()
    (gc.enable if collector_on else gc.disable)()
    try:
        report = audit.audit_report(full=True)
        assert report["ok"] and report["hands_checked"] == 1
        assert gc.isenabled() is collector_on
    finally:
        (gc.enable if was else gc.disable)()


def test_hands_are_read_alike_when_their_ids_are_listed_a_few_at_a_time(
    open_table, dealer, monkeypatch
):
    """SQLite takes a limited number of parameters in one statement (Django assumes 999): the
    ids are then listed in several statements, and each hand's rows still come in order."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    if connection.vendor == "postgresql":
        pytest.skip("PostgreSQL takes the ids as one array parameter")
    deal(open_table, dealer, 3)
    ids = list(Hand.objects.filter(table=open_table).values_list("pk", flat=True))
    at_once = audit.hands_load(ids)
    assert len(at_once) == 3
    monkeypatch.setattr(connection.features, "max_query_params", 2)
    with CaptureQueriesContext(connection) as sliced:
        assert audit.hands_load(ids) == at_once
    listed = [re.findall(r" IN \(([^)]*)\)", query["sql"]) for query in sliced]
    assert all(len(ids.split(",")) <= 2 for found in listed for ids in found)
    assert len(sliced) > 5
    assert sum(len(row.settlements[0].seats) for row in at_once.values()) > 2
