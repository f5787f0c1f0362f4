"""``Idempotency-Key`` support for every state-changing POST (CONTRACT.md).

A request with a key runs its view in the one transaction of the request and, if the view
answers 2xx, stores the key with that answer as the transaction's last statement (one
``INSERT``, committed with the view's writes or not at all). The key's row is unique per
user, so of two requests with one key only one can commit:

* a second request racing the first (a double tap, a retry sent before the first answered)
  runs its view too; its ``INSERT`` of the key waits on the first's uncommitted row until
  the first commits, then fails, and the whole second transaction, its view's writes with
  it, rolls back. (Usually it never gets that far: its view waits on the first's locks,
  then finds the work done, "acted out of turn", "already settled", and fails.) Either way
  it answers with the stored answer of the first: one effect, the same answer;
* a retry after the first committed does the same: its view fails or its key does, nothing
  it did stays, and it answers with the stored answer;
* if the first request fails (or answers anything but 2xx), nothing of it is stored, the
  key included: the retry runs afresh.

A request that fails or is refused looks for a stored answer to its key (one read, on that
path only) and, if there is one, answers with it. The same key with another body is a 409.
Work done after the view's last write and before the key's row (no lock is held on the
key meanwhile) is only ever done in vain by a request that then rolls back, never twice.
Whatever a view does outside the database waits for the commit
(``transaction.on_commit``), so a rolled-back request leaves nothing behind.

Only successful responses (2xx) are stored: a refused request changed nothing, so
repeating it is safe and answers afresh.

A key is printable ASCII (``" "`` to ``"~"``, as a UUID is) of at most
:data:`MAX_KEY_LENGTH` characters; any other key (one with a NUL, a control character or a
byte beyond ASCII) is a 400 naming ``headers.Idempotency-Key`` and the character, before
anything is written.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from typing import Any

from rest_framework.request import Request
from rest_framework.response import Response

from .errors import ApplicationError, Conflict
from .models import IdempotencyRecord
from .transactions import request_transaction

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 200


def _bad_character(key: str) -> str | None:
    """What in ``key`` is not printable ASCII (the first such character), or None."""
    for position, character in enumerate(key, start=1):
        if " " <= character <= "~":
            continue
        code = ord(character)
        if code == 0:
            what = "a NUL character (\\u0000)"
        elif code < 0x20 or code == 0x7F:
            what = f"a control character (0x{code:02X})"
        elif code <= 0xFF:  # a header arrives as latin-1: this is the byte as sent
            what = f"the byte 0x{code:02X} (beyond ASCII)"
        else:
            what = f"the character U+{code:04X} (beyond ASCII)"
        return f"{what} at position {position}"
    return None


def check_key(key: str) -> None:
    """Refuse a key that is too long or not printable ASCII (a 400 naming the header)."""
    if len(key) > MAX_KEY_LENGTH:
        raise ApplicationError(
            f"Idempotency-Key is longer than {MAX_KEY_LENGTH} characters",
            path="headers.Idempotency-Key",
        )
    bad = _bad_character(key)
    if bad is not None:
        raise ApplicationError(
            f"Idempotency-Key must be printable ASCII (such as a UUID); it holds {bad}",
            path="headers.Idempotency-Key",
        )


def _fingerprint(request: Request) -> str:
    body = json.dumps(request.data, sort_keys=True, separators=(",", ":"), default=str)
    raw = f"{request.method} {request.path}\n{body}"
    return hashlib.sha256(raw.encode()).hexdigest()


def _replay(request: Request, key: str, fingerprint: str) -> Response | None:
    """The stored answer to this key, if a committed request holds one."""
    record = (
        IdempotencyRecord.objects.filter(user=request.user, key=key)
        .exclude(response_status=None)
        .first()
    )
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


class _Refused(Exception):
    """A non-2xx response: roll the transaction back, then return it (or a stored answer)."""

    def __init__(self, response: Response) -> None:
        self.response = response


def idempotent(view_method: Callable[..., Response]) -> Callable[..., Response]:
    """Decorate a DRF view method (``post``) to honour ``Idempotency-Key``."""

    @functools.wraps(view_method)
    def wrapper(self: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get(HEADER)
        if not key:
            with request_transaction():
                return view_method(self, request, *args, **kwargs)
        check_key(key)
        fingerprint = _fingerprint(request)
        try:
            with request_transaction():
                response = view_method(self, request, *args, **kwargs)
                if response.status_code >= 300:
                    raise _Refused(response)
                # The key with its answer, last: a concurrent request with this key waits
                # here on our row until we commit, then fails and rolls back.
                IdempotencyRecord.objects.create(
                    user=request.user,
                    key=key,
                    fingerprint=fingerprint,
                    response_status=response.status_code,
                    response_body=response.data,
                )
                return response
        except _Refused as refused:
            replay = _replay(request, key, fingerprint)
            return refused.response if replay is None else replay
        except Exception:
            # Whichever way this request failed (the key's row taken, "acted out of turn",
            # "already settled", ...), if another request with the key has answered
            # meanwhile, this one answers the same.
            replay = _replay(request, key, fingerprint)
            if replay is not None:
                return replay
            raise

    wrapper.idempotent = True  # type: ignore[attr-defined]
    return wrapper


def is_idempotent(handler: Any) -> bool:
    """Whether a view method honours ``Idempotency-Key`` (for the OpenAPI document)."""
    return bool(getattr(handler, "idempotent", False))
