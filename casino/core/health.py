"""``GET /health/``: is this server able to work? For a load balancer or a monitor.

It checks the database (a query) and, where one is configured, the Celery broker (Redis, a
ping). 200 with each check's answer when both work; 503 naming what does not. No login: it
says nothing but whether the parts answer.
"""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
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


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    checks = {"database": _database(), "redis": _redis()}
    ok = all(answer == "ok" or answer.startswith("not configured") for answer in checks.values())
    return JsonResponse({"status": "ok" if ok else "failing", **checks}, status=200 if ok else 503)
