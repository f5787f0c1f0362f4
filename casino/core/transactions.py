"""Transactions of the API's writes: one per request, with no savepoint inside it.

Every state-changing API request runs in one transaction (``casino.core.idempotency``), which
rolls back whole on any failure. A service called inside it joins it without a savepoint of
its own (a savepoint is two more round trips, and nothing inside a request needs to survive
the failure of its service). Called anywhere else (a page, a task, a test, a management
command), a service keeps its own transaction, or a savepoint inside the caller's, so the
caller can catch a refusal and carry on.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from django.db import transaction

F = TypeVar("F", bound=Callable[..., Any])

_in_request = ContextVar("casino_request_transaction", default=False)


@contextmanager
def request_transaction() -> Iterator[None]:
    """The one transaction of an API write; services inside it add no savepoint."""
    with transaction.atomic():
        token = _in_request.set(True)
        try:
            yield
        finally:
            _in_request.reset(token)


def atomic_service(func: F) -> F:
    """Run a service all or nothing: inside the request's transaction as part of it,
    elsewhere in a transaction (or savepoint) of its own."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with transaction.atomic(savepoint=not _in_request.get()):
            return func(*args, **kwargs)

    return wrapper  # type: ignore[return-value]
