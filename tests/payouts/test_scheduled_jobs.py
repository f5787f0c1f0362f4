"""Every scheduled job runs the way production runs it: ``celery -A casino worker --beat``
(what ``make serve`` starts) on the real Redis and PostgreSQL, with short intervals, signs
checkpoints, requests the incremental and the full audit checks and flags the tables' hold;
``manage.py audit_anchor`` works from cron (exit 0 and one line, or 1 and the reason)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from payouts.models import AuditCheck, AuditCheckpoint
from tables import services as table_services
from tests.conftest import record

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("REDIS_URL", "")
pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


def environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment of a process on the test's own database, as production configures
    one (the settings read it), with the test's anchor file and signing key."""
    settings_dict = connection.settings_dict
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "casino.settings_test",
        "DATABASE_URL": (
            f"postgres://{settings_dict['USER']}@{settings_dict['HOST'] or '127.0.0.1'}:"
            f"{settings_dict['PORT'] or 5432}/{settings_dict['NAME']}"
        ),
        "AUDIT_ANCHOR_FILE": str(tmp_path / "anchors.jsonl"),
        **extra,
    }
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    return env


def wait_for(what: str, found, seconds: float = 300.0):  # a guard against hanging
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = found()
        if value:
            return value
        time.sleep(0.3)
    raise AssertionError(f"{what} did not happen within {seconds:.0f} s")


@pytest.fixture
def beat(tmp_path, settings):
    """``celery -A casino worker --beat`` as ``make serve`` runs it, on a queue of the test's
    own (a deployment's worker on the same Redis never takes these tasks), every schedule a
    few seconds long."""
    if not REDIS_URL:
        pytest.skip("needs REDIS_URL: a real broker for the worker and beat")
    settings.AUDIT_ANCHOR_FILE = str(tmp_path / "anchors.jsonl")
    log = tmp_path / "worker.log"
    env = environment(
        tmp_path,
        REDIS_URL=REDIS_URL,
        CELERY_QUEUE=f"test-beat-{os.getpid()}",
        AUDIT_ANCHOR_INTERVAL="1",
        AUDIT_CHECK_SCHEDULE="4",
        AUDIT_FULL_CHECK_SCHEDULE="6",
        HOLD_FLAG_SCHEDULE="3",
    )
    with log.open("w") as out:
        worker = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "celery"),
                "-A",
                "casino",
                "worker",
                "--beat",
                "--loglevel=INFO",
                "--concurrency=2",
                "--schedule",
                str(tmp_path / "celerybeat-schedule"),
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield log
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(timeout=10)


def test_beat_signs_checkpoints_runs_the_checks_and_flags_the_hold(
    beat, tmp_path, dp_table, dealer
):
    hand = table_services.hand_open(user=dealer, table_id=dp_table.pk)
    table_services.hand_settle(user=dealer, hand_id=hand.pk, record=record())
    # The anchor job: a checkpoint of the table's chain and of the settlement, in the
    # database and the anchor file.
    first = wait_for(
        "a checkpoint with the settlement",
        lambda: AuditCheckpoint.objects.filter(statement__settlements__size=1).first(),
    )
    assert str(dp_table.pk) in first.statement["chains"]
    anchored = [json.loads(line) for line in (tmp_path / "anchors.jsonl").read_text().splitlines()]
    assert first.record() in anchored
    # Beat's audit checks, requested by nobody: incremental ones and full ones, which pass.
    wait_for(
        "a passed scheduled incremental and full check",
        lambda: (
            {
                full
                for (full,) in AuditCheck.objects.filter(
                    requested_by__isnull=True, status="passed"
                ).values_list("full")
            }
            >= {True}
        ),
    )
    checks = AuditCheck.objects.filter(requested_by__isnull=True).order_by("pk")
    assert checks.filter(full=False).exists()
    # A passed check signs what it verified.
    wait_for(
        "a verified checkpoint", lambda: AuditCheckpoint.objects.filter(verified=True).exists()
    )

    # The nightly hold flags, here every 3 seconds.
    def flagged() -> str:
        text = beat.read_text()
        return text if re.search(r"Task hold\.flag_tables\[\S+\] succeeded", text) else ""

    text = wait_for("hold.flag_tables to succeed", flagged)
    assert "Couldn't apply scheduled task" not in text, text[-3000:]
    assert not re.search(r"Task payouts\.\w+\[\S+\] raised", text), text[-3000:]


def run_command(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "audit_anchor", *args],
        cwd=ROOT,
        env=environment(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_cron_command_signs_a_checkpoint_and_says_so_in_one_line(tmp_path, dp_table, dealer):
    hand = table_services.hand_open(user=dealer, table_id=dp_table.pk)
    table_services.hand_settle(user=dealer, hand_id=hand.pk, record=record())
    done = run_command(tmp_path)
    assert done.returncode == 0, done.stderr
    [line] = done.stdout.splitlines()
    checkpoint = AuditCheckpoint.objects.get()
    assert re.fullmatch(
        rf"checkpoint 1 at {re.escape(checkpoint.statement['at'])}: 1 chains, \d+ entries, "
        r"1 settlements",
        line,
    )
    [anchored] = (tmp_path / "anchors.jsonl").read_text().splitlines()
    assert json.loads(anchored) == checkpoint.record()
    again = run_command(tmp_path)
    assert again.returncode == 0 and again.stdout.splitlines() == [
        "nothing moved since the last checkpoint: nothing to anchor"
    ]


def test_the_cron_command_exits_1_naming_why_it_will_not_sign(tmp_path, dp_table, dealer):
    """An anchor file carried over from another database: nothing is signed, and the reason
    says so in words."""
    other = {"type": "checkpoint", "statement": {"database": "another-one", "number": 9}}
    (tmp_path / "anchors.jsonl").write_text(json.dumps(other) + "\n")
    done = run_command(tmp_path)
    assert done.returncode == 1 and done.stdout == ""
    assert "not anchored: the anchor file" in done.stderr
    assert "holds checkpoints of another database (another-one)" in done.stderr
    assert "Give each database its own AUDIT_ANCHOR_FILE" in done.stderr
    assert not AuditCheckpoint.objects.exists()
