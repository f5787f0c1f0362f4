"""``GET /health/``: is this server able to work? For a load balancer or a monitor.

It checks the database (a query), where one is configured the Celery broker (Redis, a ping),
and, where Celery beat is expected to run (``REDIS_URL`` set), that the audit anchor job ran
within three ``AUDIT_ANCHOR_INTERVAL`` intervals and could sign: the age of its last run
is in the answer. 200 with each check's answer when all work; 503 naming what does not. No
login: it says nothing but whether the parts answer.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure is the answer, not a 500
        return f"unreachable: {type(exc).__name__}"
    return "ok"


def _redis() -> str:
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return "not configured (tasks run in the server)"
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2).ping()
    except Exception as exc:  # any failure is the answer, not a 500
        return f"unreachable: {type(exc).__name__}"
    return "ok"


def _anchor() -> tuple[str, dict[str, Any]]:
    """The anchor job's last run: its age against three intervals, and whether it signed."""
    from payouts.checkpoints import last_run

    interval = settings.AUDIT_ANCHOR_INTERVAL
    try:
        run = last_run()
    except Exception as exc:  # any failure is the answer, not a 500
        return f"unreadable: {type(exc).__name__}", {}
    age = None if run is None or run.at is None else (timezone.now() - run.at).total_seconds()
    facts: dict[str, Any] = {"anchor_age_seconds": None if age is None else round(age, 1)}
    if not getattr(settings, "REDIS_URL", ""):
        return "not scheduled (no REDIS_URL: run manage.py audit_anchor from cron)", facts
    if run is not None and run.problem:
        return f"refused to sign: {run.problem}", facts
    if age is None:
        return f"never ran (Celery beat signs one every {interval} s)", facts
    if age > 3 * interval:
        return f"stale: last ran {age:.0f} s ago, more than three intervals of {interval} s", facts
    return "ok", facts


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    anchor, facts = _anchor()
    checks = {"database": _database(), "redis": _redis(), "audit_anchor": anchor}
    ok = all(answer == "ok" or answer.startswith("not ") for answer in checks.values())
    return JsonResponse(
        {"status": "ok" if ok else "failing", **checks, **facts}, status=200 if ok else 503
    )
