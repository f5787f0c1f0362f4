"""Writing as an attacker with the database's superuser rights would."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction


@contextmanager
def as_database_superuser() -> Iterator[None]:
    """Inside the block, writes bypass the append-only triggers, as PostgreSQL's superuser
    can by switching triggers off for a transaction; on SQLite there are none to bypass."""
    if connection.vendor != "postgresql":
        yield
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            # What the test wrote so far is checked now, as a commit would check it (the
            # forgery below must not be blamed on it when the test's transaction ends).
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
            cursor.execute("SET LOCAL session_replication_role = replica")
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL session_replication_role = origin")
