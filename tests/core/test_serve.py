"""The README's production section, followed as written: ``make serve`` with the production
environment serves the app, its static files and its API documentation from this machine
alone (no CDN), and ``/health/`` answers for the database and Redis."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.utils import timezone

from payouts.checkpoints import anchor_run
from payouts.models import AuditAnchorRun

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Served:
    """The server's base address, and where its static files were collected."""

    base: str
    static: Path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def fetch(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return (
                response.status,
                response.headers.get("Content-Type", ""),
                response.read().decode(errors="replace"),
            )
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read().decode()


@pytest.fixture
def served(tmp_path):
    """``make serve`` as the README's production section runs it (an SQLite file here; the
    same with PostgreSQL), stopped after the test."""
    port = free_port()
    env = {
        **os.environ,
        "SECRET_KEY": "serve-test-secret",
        "AUDIT_KEY": "serve-test-audit-key",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "STATIC_ROOT": str(tmp_path / "static"),
        "AUDIT_ANCHOR_FILE": str(tmp_path / "anchors.jsonl"),
        "HOST": f"127.0.0.1:{port}",
        "SECURE_SSL_REDIRECT": "false",  # plain http to the test; TLS ends at the proxy
        "WEB_CONCURRENCY": "1",
        "GUNICORN_THREADS": "2",
    }
    for name in ("DEBUG", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "STATIC_MANIFEST"):
        env.pop(name, None)
    server = subprocess.Popen(
        ["make", "serve"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if server.poll() is not None:
                pytest.fail(f"make serve stopped: {server.stdout.read()[-3000:]}")
            try:
                if fetch(f"{base}/health/")[0] == 200:
                    break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail("make serve did not answer /health/ within 2 minutes")
        yield Served(base, tmp_path / "static")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def test_make_serve_serves_the_app_static_files_and_docs_with_no_internet(served):
    status, kind, body = fetch(f"{served.base}/health/")
    answer = json.loads(body)
    # make serve signs a checkpoint once after migrating (beat does the rest; here none runs).
    assert status == 200 and isinstance(answer.pop("anchor_age_seconds"), float)
    assert answer == {
        "status": "ok",
        "database": "ok",
        "redis": "not configured (tasks run in the server)",
        "audit_anchor": "not scheduled (no REDIS_URL: run manage.py audit_anchor from cron)",
    }
    # The admin's and the tablet's styles: collected, served under their hashed names.
    manifest = json.loads((served.static / "staticfiles.json").read_text())["paths"]
    for name in ("admin/css/base.css", "tablet/tablet.css", "desk/desk.css"):
        status, kind, _ = fetch(f"{served.base}/static/{manifest[name]}")
        assert status == 200 and kind.startswith("text/css"), name
    # Swagger UI and ReDoc from this server: every script they load is ours.
    for page in ("/api/docs/", "/api/redoc/"):
        status, _, html = fetch(f"{served.base}{page}")
        assert status == 200
        scripts = re.findall(r'<script src="([^"]+)"', html)
        assert scripts and all(src.startswith("/") for src in scripts), scripts
        for src in scripts:
            assert fetch(f"{served.base}{src}")[0] == 200, src
    assert fetch(f"{served.base}/api/schema/")[0] == 200
    assert fetch(f"{served.base}/api/v1/tables/")[0] == 401  # the API itself, behind its login


@pytest.mark.django_db
def test_health_names_what_does_not_answer(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    response = client.get("/health/")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "failing" and body["database"] == "ok"
    assert body["redis"].startswith("unreachable")
    if os.environ.get("REDIS_URL"):
        settings.REDIS_URL = os.environ["REDIS_URL"]
        anchor_run()
        answer = client.get("/health/").json()
        assert 0 <= answer.pop("anchor_age_seconds") < 60
        assert answer == {"status": "ok", "database": "ok", "redis": "ok", "audit_anchor": "ok"}


@pytest.mark.django_db
def test_health_is_503_when_the_anchor_job_has_not_run_for_three_intervals(
    client, settings, open_table
):
    settings.REDIS_URL = "redis://beat.is.expected/0"  # with a broker, beat is expected to run
    settings.AUDIT_ANCHOR_INTERVAL = 300

    def anchor() -> tuple[int, dict]:
        response = client.get("/health/")
        return response.status_code, response.json()

    status, body = anchor()
    assert status == 503 and body["audit_anchor"] == "never ran (Celery beat signs one every 300 s)"
    anchor_run()
    AuditAnchorRun.objects.update(at=timezone.now() - dt.timedelta(seconds=899))
    status, body = anchor()
    assert body["audit_anchor"] == "ok" and 899 <= body["anchor_age_seconds"] < 960
    AuditAnchorRun.objects.update(at=timezone.now() - dt.timedelta(seconds=901))
    status, body = anchor()
    assert status == 503
    assert body["audit_anchor"].startswith("stale: last ran 901 s ago, more than three intervals")
    AuditAnchorRun.objects.update(at=timezone.now(), problem="the chain of HCF-T was rewritten")
    status, body = anchor()
    assert (status, body["audit_anchor"]) == (
        503,
        "refused to sign: the chain of HCF-T was rewritten",
    )


def test_celery_queue_names_where_tasks_go_and_workers_take_from():
    """Two deployments (or ``make bench``'s worker) sharing one Redis each name their own
    queue, so one's tasks never run against the other's database."""
    probe = (
        "import django; django.setup(); "
        "from casino.celery import app; from payouts.tasks import audit_check_task; "
        "print(app.conf.task_default_queue, app.amqp.router.route({}, audit_check_task.name)"
        "['queue'].name)"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "casino.settings_test"}
    for queue, expected in ((None, "celery celery"), ("floor-2", "floor-2 floor-2")):
        env.pop("CELERY_QUEUE", None)
        if queue:
            env["CELERY_QUEUE"] = queue
        shown = subprocess.run(
            [sys.executable, "-c", probe],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        assert shown.stdout.split() == expected.split()
