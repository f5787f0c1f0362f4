"""Django's PostgreSQL backend with a health check that costs no round trip.

Persistent connections (``CONN_MAX_AGE``) with ``CONN_HEALTH_CHECKS`` are checked before a
request first uses them. Django checks with a ``SELECT 1`` sent to the server, on every
request. This backend answers from the client side instead (:meth:`DatabaseWrapper.is_usable`):

* a connection psycopg knows to be closed or broken, or not idle (a transaction left open or
  failed), is not usable;
* an idle connection has nothing to read from the server. If its socket is readable, the
  server has written to it unasked, which it does when it ends the connection (a restart, a
  shutdown, ``pg_terminate_backend``, an idle timeout): libpq reads what came, and the
  connection is usable only if it is still open after that.

An unusable connection is closed and the request opens a new one, so after a database
restart every server process reconnects on its next request, with no error. A connection
lost without a word (a network cut, a crash of the database's host) is found by the
request's first query, which fails (that request is a 500); Django then closes the
connection at the end of the request and the next one reconnects.

``casino.settings`` uses this backend for every ``postgres://`` ``DATABASE_URL``.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql.base import DatabaseWrapper as PostgreSQLDatabaseWrapper
from psycopg import pq


class DatabaseWrapper(PostgreSQLDatabaseWrapper):
    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        pgconn = connection.pgconn
        if pgconn.transaction_status != pq.TransactionStatus.IDLE:
            return False
        try:
            readable, _, _ = select.select([pgconn.socket], [], [], 0)
            if readable:
                pgconn.consume_input()
        except Exception:  # the socket gone, or libpq refusing to read it: not usable
            return False
        return bool(pgconn.status == pq.ConnStatus.OK)
