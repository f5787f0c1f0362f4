"""A regulator holding only the published public key verifies an export of the real log
offline (``manage.py audit_export``, ``python -m casino.audit_verify``): checkpoints across
a key hand-over, corrections, a void; a settlement's inclusion proof downloaded from the
compliance desk; and a settlement changed after a checkpoint signed it is found."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from casino.audit_verify import verify
from payouts import checkpoints, signing
from payouts.models import AuditCheckpoint, Settlement
from tests.conftest import record
from tests.payouts.forgery import as_database_superuser
from tests.tables.test_queries import deal

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def published_key(path: Path) -> Path:
    """The public key file as ``manage.py audit_public_key`` writes it."""
    out = io.StringIO()
    call_command("audit_public_key", stdout=out)
    path.write_text(out.getvalue())
    return path


def export(path: Path) -> Path:
    call_command("audit_export", str(path), stdout=io.StringIO())
    return path


@pytest.fixture
def floor_log(open_table, dealer, floor, client_for, tmp_path, settings):
    """Hands dealt and corrected, checkpoints signed, the key handed over to a new one and
    more hands signed under it. Returns the public key file published before the hand-over."""
    deal(open_table, dealer, 3)
    checkpoints.checkpoint_write()
    old_key = published_key(tmp_path / "casino-audit.pub")
    # A correction: a reversal and a corrected settlement, both in the tree.
    settled = Settlement.objects.filter(hand__table=open_table).order_by("pk").first()
    client = client_for(dealer)
    body = json.loads(json.dumps(settled.history))
    actions = body["actions"]
    wager = next(a for a in actions if a.get("type") == "wager" and a.get("flush_bonus"))
    wager["flush_bonus"] = 0
    asked = client.post(
        f"/api/v1/hands/{settled.hand_id}/corrections/",
        {"reason": "no bonus was bet", "actions": actions},
        format="json",
    )
    assert asked.status_code == 202, asked.json()
    approved = client_for(floor).post(
        f"/api/v1/approvals/{asked.json()['id']}/approve/", {}, format="json"
    )
    assert approved.status_code == 200, approved.json()
    checkpoints.checkpoint_write()
    new_key = tmp_path / "new-key.pem"
    signing.generate(new_key)
    call_command("audit_key_handover", str(new_key), stdout=io.StringIO())
    settings.AUDIT_SIGNING_KEY_FILE = str(new_key)
    deal(open_table, dealer, 2)
    checkpoints.checkpoint_write()
    return old_key


def test_a_regulator_with_the_old_public_key_verifies_the_whole_export(floor_log, tmp_path):
    bundle = export(tmp_path / "casino-audit.jsonl")
    report = verify.verify_bundle(
        bundle,
        verify.load_public_key(floor_log),
        anchors=tmp_path / "audit-anchors.jsonl",
        replay=True,
    )
    assert report.ok, report.problems
    assert report.counts.key_handovers_accepted == 1
    assert report.counts.checkpoints == AuditCheckpoint.objects.count() == 3
    assert report.counts.settlements == Settlement.objects.count() == 7  # 5 hands, 1 corrected
    assert report.counts.settlements_not_covered == 0
    assert report.counts.replayed == 6 and report.counts.reversals_checked == 1
    # The same through the command line, with nothing but the standard library and
    # cryptography (no Django settings: an empty environment).
    done = subprocess.run(
        [sys.executable, "-m", "casino.audit_verify", str(bundle), "--public-key", str(floor_log)],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "problem:" not in done.stdout


def test_a_settlement_changed_after_its_checkpoint_is_found_offline(floor_log, tmp_path):
    settlement = Settlement.objects.filter(kind="settlement").order_by("pk").last()
    with as_database_superuser():
        Settlement.objects.filter(pk=settlement.pk).update(
            result={**settlement.result, "rake": settlement.result["rake"] + 1}
        )
    report = verify.verify_bundle(
        export(tmp_path / "tampered.jsonl"), verify.load_public_key(floor_log)
    )
    assert not report.ok
    assert any(f"settlement {settlement.pk}" in problem for problem in report.problems), (
        report.problems
    )


def test_a_settlements_proof_from_the_desk_verifies_offline(
    floor_log, tmp_path, compliance, client
):
    settlement = Settlement.objects.order_by("pk").first()
    client.force_login(compliance)
    page = client.get(reverse("compliance-settlement", args=[settlement.pk])).content.decode()
    assert "This settlement is leaf 1 of 7 in the Merkle tree of settlements" in page
    assert "The proof below was checked here against the signed root." in page
    proof = client.get(reverse("compliance-settlement-proof", args=[settlement.pk]))
    assert proof.status_code == 200
    assert proof["Content-Disposition"] == (
        f'attachment; filename="settlement-{settlement.pk}-proof.json"'
    )
    path = tmp_path / "proof.json"
    path.write_bytes(proof.content)
    report = verify.verify_proof(path, verify.load_public_key(floor_log))
    assert report.ok, report.problems
    document = json.loads(proof.content)
    document["settlement"]["leaf"]["rake"] += 1
    assert not verify.verify_proof(document, verify.load_public_key(floor_log)).ok


def test_a_settlement_no_checkpoint_covers_yet_says_so(dp_table, dealer, compliance, client):
    from tables import services

    hand = services.hand_open(user=dealer, table_id=dp_table.pk)
    settlement = services.hand_settle(user=dealer, hand_id=hand.pk, record=record())
    client.force_login(compliance)
    page = client.get(reverse("compliance-settlement", args=[settlement.pk])).content.decode()
    assert "Not in a signed checkpoint yet: the next anchor (every 300 seconds)" in page
    assert (
        client.get(reverse("compliance-settlement-proof", args=[settlement.pk])).status_code == 404
    )
