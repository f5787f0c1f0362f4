"""PostgreSQL connections are health-checked without a query (casino/core/postgresql/base.py):
no ``SELECT 1`` per request, and a connection the server ended (a restart) is closed and
reopened before a request uses it, so the request succeeds."""

from __future__ import annotations

import time

import psycopg
import pytest
from django.conf import settings
from django.db import close_old_connections, connection

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


def test_the_settings_use_the_backend_with_the_quiet_check():
    assert settings.DATABASES["default"]["ENGINE"] == "casino.core.postgresql"
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True


def test_a_request_start_checks_the_connection_without_a_query(monkeypatch):
    backend_pid()  # connected
    sent = []
    raw = type(connection.connection)
    original = raw.execute
    monkeypatch.setattr(raw, "cursor", lambda *a, **k: sent.append("cursor"))
    monkeypatch.setattr(raw, "execute", lambda *a, **k: sent.append("execute"))
    assert connection.is_usable()
    monkeypatch.setattr(raw, "execute", original)
    assert sent == []


def test_a_connection_the_server_ended_is_reopened_before_the_next_request():
    close_old_connections()
    pid = backend_pid()
    with psycopg.connect(**connection.get_connection_params(), autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    deadline = time.monotonic() + 10
    while connection.is_usable() and time.monotonic() < deadline:
        time.sleep(0.05)  # the server's goodbye reaches the socket
    assert not connection.is_usable()
    connection.health_check_done = False  # what a new request does (request_started)
    close_old_connections()
    assert backend_pid() != pid  # a new connection, and the query worked


def test_an_idle_healthy_connection_is_kept():
    close_old_connections()
    pid = backend_pid()
    close_old_connections()  # a new request
    assert backend_pid() == pid


def test_a_connection_lost_mid_request_fails_that_request_and_the_next_reconnects():
    """A connection whose loss is found by a query (no word from the server before it): that
    query fails; at the request's end the connection is closed; the next request reconnects."""
    from django.db import OperationalError

    close_old_connections()
    pid = backend_pid()
    with psycopg.connect(**connection.get_connection_params(), autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    time.sleep(0.2)
    connection.health_check_done = True  # the request's check already ran, before the loss
    with pytest.raises(OperationalError):
        backend_pid()
    close_old_connections()  # the request's end (request_finished)
    assert connection.connection is None
    close_old_connections()  # the next request
    assert backend_pid() != pid
