"""The audit chain and the audit check, tried as an attacker would: every forgery, deletion,
re-sealing and truncation is found, and each finding names the hand, the seat and the line.

Forgeries are written the way someone with the database's superuser rights would (on
PostgreSQL, with the append-only triggers switched off for the statement); the app's own
role cannot write them at all (test_append_only_pg.py).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from casino.audit_verify import formats
from casino.rules.contract import History, registry
from payouts import chain, services, signing
from payouts.audit import audit_report
from payouts.checkpoints import checkpoint_write
from payouts.models import AuditChainHead, AuditCheck, AuditEntry, PayoutLine, Settlement
from payouts.tasks import audit_anchor_task
from tables import services as table_services
from tables.models import Hand, HandAction, Table
from tests.conftest import record
from tests.payouts.forgery import as_database_superuser

pytestmark = pytest.mark.django_db


@pytest.fixture
def settled_hand(dp_table, dealer, client_for):
    client = client_for(dealer)
    hand = client.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    response = client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    assert response.status_code == 201
    return Hand.objects.get(pk=hand["id"])


def findings_for(report, hand):
    return [f for f in report["findings"] if f["hand"] == hand.pk]


def reseal_from(first, *, key_holder):
    """Re-seal every entry of ``first``'s chain from it on and move the chain's head: with the
    real key (an insider who holds it) or without it (plain sha256 of the same content)."""
    entries = AuditEntry.objects.filter(table=first.table_id)
    prev = entries.get(seq=first.seq - 1).hash if first.seq > 1 else chain.GENESIS_HASH
    with as_database_superuser():
        for entry in entries.filter(seq__gte=first.seq).order_by("seq"):
            entry.prev_hash = prev
            fields = chain.entry_fields(entry)
            entry.hash = chain.seal(fields) if key_holder else chain.digest(str(fields))
            AuditEntry.objects.filter(pk=entry.pk).update(prev_hash=prev, hash=entry.hash)
            prev = entry.hash
        last = entries.order_by("-seq").first()
        move_head(first.table_id, last.seq, last.hash)


def move_head(table_id, seq, last_hash):
    """Set a chain's head as someone writing the database directly would."""
    Table.objects.filter(pk=table_id).update(audit_seq=seq, audit_hash=last_hash)


# ---------------------------------------------------------------- an honest floor


def test_entries_are_numbered_sealed_and_linked_per_table_and_the_check_passes(settled_hand):
    entries = list(AuditEntry.objects.filter(table=settled_hand.table_id).order_by("seq"))
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
    assert entries[0].prev_hash == chain.GENESIS_HASH
    for previous, entry in zip(entries, entries[1:], strict=False):
        assert entry.prev_hash == previous.hash
    # The table's row holds its chain's head.
    table = Table.objects.get(pk=settled_hand.table_id)
    assert (table.audit_seq, table.audit_hash) == (entries[-1].seq, entries[-1].hash)
    actions = [e.action for e in entries]
    for expected in ("table_create", "table_open", "rotation_accept", "hand_open", "hand_settle"):
        assert expected in actions
    settle = AuditEntry.objects.get(action="hand_settle")
    assert len(settle.after["history_sha256"]) == len(settle.after["result_sha256"]) == 64
    report = audit_report()
    assert report["ok"] is True, report
    assert (report["hands_checked"], report["settlements_checked"]) == (1, 1)
    assert report["chain"]["entries_checked"] == AuditEntry.objects.count()


def test_a_seal_needs_the_key(settled_hand, settings):
    entry = AuditEntry.objects.get(action="hand_settle")
    assert chain.seal(chain.entry_fields(entry)) == entry.hash
    settings.AUDIT_KEY = "another key"
    assert chain.seal(chain.entry_fields(entry)) != entry.hash
    report = audit_report()
    assert report["chain"]["ok"] is False and report["chain"]["broken_at"] == 1


# ---------------------------------------------------------------- the chain itself


def test_an_edited_entry_is_found_at_that_entry(settled_hand):
    entry = AuditEntry.objects.get(action="hand_settle")
    with as_database_superuser():
        AuditEntry.objects.filter(pk=entry.pk).update(after={**entry.after, "rake": 0})
    report = audit_report()
    assert report["ok"] is False
    assert report["chain"]["broken_at"] == entry.seq
    assert "hand_settle" in report["chain"]["problem"] and "altered" in report["chain"]["problem"]


def test_a_chain_rehashed_without_the_key_is_found(settled_hand):
    entry = AuditEntry.objects.get(action="hand_settle")
    with as_database_superuser():
        AuditEntry.objects.filter(pk=entry.pk).update(after={**entry.after, "rake": 0})
    reseal_from(entry, key_holder=False)
    report = audit_report()
    assert report["chain"]["ok"] is False and report["chain"]["broken_at"] == entry.seq


def test_a_chain_resealed_with_the_key_is_found_by_its_anchor(settled_hand):
    anchored_seq = checkpoint_write().statement["chains"][str(settled_hand.table_id)]["size"]
    first = AuditEntry.objects.get(table=settled_hand.table_id, seq=1)
    with as_database_superuser():
        AuditEntry.objects.filter(pk=first.pk).update(actor_name="nobody")
    reseal_from(first, key_holder=True)
    report = audit_report()
    assert report["chain"]["ok"] is True  # a perfect forgery, as far as the database shows
    assert report["ok"] is False
    # The checkpoint the check signs first is refused, and the anchored entry is named.
    assert report["anchors"]["problems"] == [
        "no checkpoint could be signed before the check: the head of table HCF-T's chain "
        f"(entry {anchored_seq}) is not the one the last checkpoint states: the chain was "
        "rewritten",
        f"audit entry {anchored_seq} of table HCF-T's chain differs from the one anchored at "
        f"{report['anchors']['latest']}: the chain was rewritten",
    ]


def test_a_truncated_chain_is_found_by_its_anchor(settled_hand):
    anchored_seq = checkpoint_write().statement["chains"][str(settled_hand.table_id)]["size"]
    keep = AuditEntry.objects.get(action="hand_open")
    with as_database_superuser():
        AuditEntry.objects.filter(table=keep.table_id, seq__gt=keep.seq).delete()
        move_head(keep.table_id, keep.seq, keep.hash)
    report = audit_report()
    assert report["chain"]["ok"] is True
    assert report["ok"] is False
    assert any(
        f"table HCF-T's chain ends at entry {keep.seq}, but entry {anchored_seq} was anchored" in p
        and "removed" in p
        for p in report["anchors"]["problems"]
    )
    # The hand the removed entries settled is found too: settled, but not in the chain.
    assert any("never settled it" in f["problem"] for f in findings_for(report, settled_hand))


def test_a_whole_chain_emptied_and_restarted_is_found_by_its_anchor(settled_hand):
    checkpoint_write()
    with as_database_superuser():
        AuditEntry.objects.all().delete()
        AuditChainHead.objects.all().delete()
        move_head(settled_hand.table_id, 0, chain.GENESIS_HASH)
    services.audit_append(actor=None, action="fresh_start", subject="nothing to see")
    report = audit_report()
    assert report["ok"] is False
    assert any("removed" in p for p in report["anchors"]["problems"])
    assert any("not in the audit log" in f["problem"] for f in findings_for(report, settled_hand))


def test_entries_removed_from_the_end_without_moving_the_head_are_found(settled_hand):
    with as_database_superuser():
        AuditEntry.objects.filter(table=settled_hand.table_id).order_by("-seq").first().delete()
    report = audit_report()
    assert report["chain"]["ok"] is False and "missing" in report["chain"]["problem"]


def test_an_entry_removed_from_the_middle_is_found(settled_hand):
    with as_database_superuser():
        AuditEntry.objects.filter(table=settled_hand.table_id, seq=3).delete()
    report = audit_report()
    assert report["chain"]["broken_at"] == 3 and "missing" in report["chain"]["problem"]


# ---------------------------------------------------------------- settlements


def test_a_consistently_forged_settlement_is_found(settled_hand):
    """The stored history, action log, result, seat rows and lines rewritten to agree with each
    other: seat 2's flush bonus made 1500, not 500. Replaying the forgery gives the forgery, so
    only the binding to the chain can tell."""
    settlement = Settlement.objects.get(hand=settled_hand)
    forged_history = json.loads(json.dumps(settlement.history))
    wager = forged_history["actions"][0]
    assert (wager["type"], wager["seat"], wager["flush_bonus"]) == ("wager", 2, 500)
    wager["flush_bonus"] = 1500
    game = registry()["high-card-flush"]
    forged = game.replay(History.from_dict(forged_history)).settle().to_dict()
    assert forged != settlement.result
    with as_database_superuser():
        Settlement.objects.filter(pk=settlement.pk).update(
            history=forged_history, result=forged, rake=forged["rake"]
        )
        HandAction.objects.filter(hand=settled_hand, index=0).update(action=wager)
        for seat in forged["seats"]:
            row = settlement.seats.get(seat=seat["seat"])
            type(row).objects.filter(pk=row.pk).update(net=seat["net"], rake=seat["rake"])
            for line, wanted in zip(row.lines.order_by("id"), seat["lines"], strict=True):
                PayoutLine.objects.filter(pk=line.pk).update(
                    stake=wanted["stake"], amount=wanted["amount"], outcome=wanted["outcome"]
                )
    report = audit_report()
    assert report["ok"] is False
    problems = [f["problem"] for f in findings_for(report, settled_hand)]
    assert any("stored history" in p and "not the one settled" in p for p in problems)
    assert any("stored result is not the one settled" in p for p in problems)
    assert any("nets or rake differ" in p for p in problems)
    assert any("stored actions differ from the" in p for p in problems)
    # Replaying and the rows agree with the forgery: those checks alone would have passed.
    assert not any("re-settl" in p or "payout line" in p or "hand's frozen" in p for p in problems)


def delete_settlement(hand, *, status=None):
    """Remove the hand's settlement with its rows (and set the hand's status, if given)."""
    settlement = Settlement.objects.get(hand=hand)
    with as_database_superuser():
        PayoutLine.objects.filter(seat__settlement=settlement).delete()
        settlement.seats.all().delete()
        Settlement.objects.filter(pk=settlement.pk).delete()
        if status is not None:
            Hand.objects.filter(pk=hand.pk).update(status=status)


def test_a_deleted_settlement_is_found(settled_hand):
    delete_settlement(settled_hand)
    report = audit_report()
    assert report["ok"] is False
    [finding] = findings_for(report, settled_hand)
    assert finding["table"] == "HCF-T" and finding["hand_number"] == 1
    assert "settlement is missing" in finding["problem"]


def test_a_deleted_settlement_with_the_hand_voided_is_found(settled_hand):
    delete_settlement(settled_hand, status="voided")
    entry = AuditEntry.objects.get(action="hand_settle")
    assert [f["problem"] for f in findings_for(audit_report(), settled_hand)] == [
        f"the hand is voided, but audit entry {entry.seq} settled it",
        "the hand is marked voided, but the audit log never voided it",
    ]


def test_a_tampered_payout_line_is_named_by_hand_seat_and_line(settled_hand):
    settlement = Settlement.objects.get(hand=settled_hand)
    row = settlement.seats.get(seat=3)
    line = row.lines.get(wager="raise")
    index = list(row.lines.order_by("id")).index(line)
    with as_database_superuser():
        PayoutLine.objects.filter(pk=line.pk).update(amount=line.amount + 2000)
    [finding] = findings_for(audit_report(), settled_hand)
    assert (finding["seat"], finding["line"]) == (3, index)
    assert "stored payout line" in finding["problem"]


def test_a_tampered_seat_net_is_named_by_seat(settled_hand):
    row = Settlement.objects.get(hand=settled_hand).seats.get(seat=2)
    with as_database_superuser():
        type(row).objects.filter(pk=row.pk).update(net=row.net + 1)
    [finding] = findings_for(audit_report(), settled_hand)
    assert finding["seat"] == 2 and "stored seat row" in finding["problem"]


def test_a_hand_written_outside_the_system_is_found(settled_hand, dealer):
    with as_database_superuser():  # the app's role may only write a hand open (below)
        forged = Hand.objects.create(
            table=settled_hand.table,
            number=99,
            game=settled_hand.game,
            status="voided",
            rules=settled_hand.rules,
            seats=[1, 2],
            opened_by=dealer,
            opened_at=settled_hand.opened_at,
        )
    [finding, *_] = findings_for(audit_report(), forged)
    assert "not in the audit log" in finding["problem"]


def test_frozen_rules_rewritten_on_an_open_hand_are_found(dp_table, dealer):
    hand = table_services.hand_open(user=dealer, table_id=dp_table.pk)
    rules = {**hand.rules, "rake": {"scheme": "per_player", "amount": 0}}
    with as_database_superuser():  # the app's role cannot: what a hand froze stays frozen
        Hand.objects.filter(pk=hand.pk).update(rules=rules)
    [finding] = findings_for(audit_report(), hand)
    assert "frozen rules or set-up differ" in finding["problem"]


# ---------------------------------------------------------------- checks and anchors


def test_compliance_runs_a_check_once_per_idempotency_key(
    settled_hand, compliance, client_for, django_capture_on_commit_callbacks
):
    client = client_for(compliance)
    with django_capture_on_commit_callbacks(execute=True):
        first = client.post("/api/v1/audit/checks/", HTTP_IDEMPOTENCY_KEY="check-1")
        again = client.post("/api/v1/audit/checks/", HTTP_IDEMPOTENCY_KEY="check-1")
    assert first.status_code == again.status_code == 202
    assert again.json()["id"] == first.json()["id"] and again["Idempotent-Replay"] == "true"
    assert AuditCheck.objects.count() == 1
    check = client.get(f"/api/v1/audit/checks/{first.json()['id']}/").json()
    assert check["status"] == "passed", check["report"]
    assert check["report"]["settlements_checked"] == 1
    logged = AuditEntry.objects.get(action="audit_check")
    assert logged.actor_name == "compliance" and logged.after["status"] == "passed"


def test_dealers_cannot_run_checks_but_read_the_log(settled_hand, dealer, client_for):
    client = client_for(dealer)
    assert client.post("/api/v1/audit/checks/").status_code == 403
    entries = client.get("/api/v1/audit/entries/", {"hand": settled_hand.pk}).json()
    # The dealer's record is imported as the hand's actions (two wagers, three deals, two
    # decisions, in one entry), then the settlement and the offer it brings about.
    assert [e["action"] for e in entries["results"]] == [
        "hand_open",
        "hand_actions",
        "hand_settle",
        "rotation_offer",
    ]


def run_check(capture, **options):
    """A check as the worker runs it: divided into chunks, each checked, the last finishing."""
    check = AuditCheck.objects.create(**options)
    with capture(execute=True):
        services.audit_check_run(check_id=check.pk)
    check.refresh_from_db()
    return check


def test_a_failed_check_is_stored_as_failed_with_what_broke(
    settled_hand, django_capture_on_commit_callbacks
):
    row = Settlement.objects.get(hand=settled_hand).seats.get(seat=1)
    with as_database_superuser():
        type(row).objects.filter(pk=row.pk).update(rake=row.rake + 100)
    check = run_check(django_capture_on_commit_callbacks)
    check.refresh_from_db()
    assert check.status == "failed"
    [finding] = check.report["findings"]
    assert finding["hand"] == settled_hand.pk and finding["seat"] == 1
    assert check.report["findings_total"] == 1


def test_a_passed_check_signs_a_checkpoint_of_what_it_verified(
    settled_hand, settings, django_capture_on_commit_callbacks
):
    check = run_check(django_capture_on_commit_callbacks)
    assert (check.status, check.stage) == ("passed", "done")
    lines = Path(settings.AUDIT_ANCHOR_FILE).read_text().splitlines()
    record = json.loads(lines[-1])
    statement = record["statement"]
    table = Table.objects.get(pk=settled_hand.table_id)
    assert formats.signature_valid(signing.public_key(), statement, record["signature"])
    # What it verified: the table's chain as it was when the check started (its own entry
    # goes to the house chain after), the one settlement in the tree, every audited table.
    verified = statement["verified"]
    assert verified["check"] == check.pk and verified["full"] is True
    assert verified["chains"] == {
        str(table.pk): {"size": table.audit_seq, "head": table.audit_hash}
    }
    assert verified["settlements"]["size"] == 1
    assert verified["rows"]["payouts_settlement"] == {
        "max_id": Settlement.objects.get().pk,
        "count": 1,
        "id_sum": Settlement.objects.get().pk,
    }
    # The checkpoint itself states every chain now, the house chain's verdict entry too.
    house = AuditChainHead.objects.get(pk=1)
    assert statement["chains"]["house"]["size"] == house.seq
    assert statement["chains"]["house"]["head"] == house.last_hash


def test_the_beat_task_signs_a_checkpoint_when_anything_moved(settled_hand, settings, caplog):
    assert "payouts.audit_anchor" in {
        entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()
    }
    with caplog.at_level(logging.INFO, logger="casino.audit.anchor"):
        first = audit_anchor_task()
        services.audit_append(actor=None, action="later", subject="something")
        second = audit_anchor_task()
        nothing_moved = audit_anchor_task()
    assert (first, second, nothing_moved) == (1, 2, None)
    lines = [json.loads(line) for line in Path(settings.AUDIT_ANCHOR_FILE).read_text().splitlines()]
    table = Table.objects.get(pk=settled_hand.table_id)
    house = AuditChainHead.objects.get(pk=1)
    assert [sorted(line["statement"]["chains"]) for line in lines] == [
        [str(table.pk)],
        sorted(["house", str(table.pk)]),
    ]
    assert lines[1]["statement"]["chains"]["house"] == {
        "size": 1,
        "head": house.last_hash,
        "digest": formats.entry_digest(
            formats.GENESIS,
            formats.canonical(
                formats.entry_content(chain.entry_fields(AuditEntry.objects.get(action="later")))
            ),
        ),
    }
    assert lines[1]["statement"]["previous"] == formats.statement_hash(lines[0]["statement"])
    assert [line["statement"]["settlements"]["size"] for line in lines] == [1, 1]
    assert sum("audit checkpoint" in r.getMessage() for r in caplog.records) == 2
    anchors = audit_report(full=False)["anchors"]
    assert (anchors["ok"], anchors["problems"]) == (True, [])
    assert anchors["latest"] == lines[-1]["statement"]["at"]


def test_an_edited_anchor_line_is_found(settled_hand, settings):
    checkpoint_write()
    path = Path(settings.AUDIT_ANCHOR_FILE)
    record = json.loads(path.read_text())
    [key] = record["statement"]["chains"]
    record["statement"]["chains"][key]["size"] -= 1  # pretend the chain was shorter then
    path.write_text(json.dumps(record) + "\n")
    report = audit_report()
    assert report["ok"] is False
    assert report["anchors"]["problems"] == [
        "anchor file line 1: its signature does not verify: it was altered or forged"
    ]


def test_a_number_too_big_for_any_wager_is_a_finding_not_a_crash(settled_hand):
    """A figure no settlement can hold (beyond 64 bits), written into the stored result, is
    reported against the hand; the check does not stop on it."""
    settlement = Settlement.objects.get(hand=settled_hand)
    with as_database_superuser():
        Settlement.objects.filter(pk=settlement.pk).update(
            result={**settlement.result, "rake": 10**30}
        )
    report = audit_report()
    assert report["ok"] is False and report["hands_checked"] == 1
    problems = [finding["problem"] for finding in findings_for(report, settled_hand)]
    assert any("re-settling gives a different rake" in problem for problem in problems)
    assert any("stored result is not the one settled" in problem for problem in problems)
