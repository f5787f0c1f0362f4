"""``Idempotency-Key`` support for every state-changing POST (CONTRACT.md).

The view runs inside one transaction together with the storing of its response, so
either both land or neither does. A repeat with the same key and body replays the
stored response; the same key with another body is a 409. Two requests racing with
the same key: the loser hits the unique constraint (or the business conflict the
winner caused), and then replays the winner's stored response.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from rest_framework.request import Request
from rest_framework.response import Response

from .errors import ApplicationError, Conflict
from .models import IdempotencyRecord

HEADER = "Idempotency-Key"


def _fingerprint(request: Request) -> str:
    body = json.dumps(request.data, sort_keys=True, separators=(",", ":"), default=str)
    raw = f"{request.method} {request.path}\n{body}"
    return hashlib.sha256(raw.encode()).hexdigest()


def _replay(request: Request, key: str, fingerprint: str) -> Response | None:
    record = IdempotencyRecord.objects.filter(user=request.user, key=key).first()
    if record is None:
        return None
    if record.fingerprint != fingerprint:
        raise Conflict(
            f"Idempotency-Key {key!r} was already used for a different request",
            path="headers.Idempotency-Key",
        )
    response = Response(record.response_body, status=record.response_status)
    response["Idempotent-Replay"] = "true"
    return response


def idempotent(view_method: Callable[..., Response]) -> Callable[..., Response]:
    """Decorate a DRF view method (``post``) to honour ``Idempotency-Key``."""

    @functools.wraps(view_method)
    def wrapper(self: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get(HEADER)
        if not key:
            with transaction.atomic():
                return view_method(self, request, *args, **kwargs)
        if len(key) > 200:
            raise ApplicationError(
                "Idempotency-Key is longer than 200 characters", path="headers.Idempotency-Key"
            )
        fingerprint = _fingerprint(request)
        replay = _replay(request, key, fingerprint)
        if replay is not None:
            return replay
        try:
            with transaction.atomic():
                response = view_method(self, request, *args, **kwargs)
                if response.status_code < 300:
                    IdempotencyRecord.objects.create(
                        user=request.user,
                        key=key,
                        fingerprint=fingerprint,
                        response_status=response.status_code,
                        response_body=response.data,
                    )
                return response
        except (IntegrityError, Conflict):
            # Someone else with this key may have won the race: answer as they were answered.
            replay = _replay(request, key, fingerprint)
            if replay is not None:
                return replay
            raise

    return wrapper
