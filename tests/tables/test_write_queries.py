"""The dealer's routine between and during hands costs the same however much the table has
dealt: accepting the designated-player offer, opening a hand and settling it make the same
queries at a table's 3rd hand and its 30th."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.conftest import record
from tests.tables.test_queries import deal

pytestmark = pytest.mark.django_db


def routine(client, table) -> dict[str, int]:
    """One hand's calls from a tablet, each with the queries it made."""
    table.refresh_from_db()
    offered = table.game_state["offer"]
    counts = {}

    def call(name: str, path: str, body: dict | None = None) -> dict:
        with CaptureQueriesContext(connection) as captured:
            response = client.post(path, body or {}, format="json")
        assert response.status_code in (200, 201), response.json()
        counts[name] = len(captured)
        # Audit entries join the service's transaction (no savepoint of their own).
        audit = [q["sql"] for q in captured if "payouts_auditentry" in q["sql"]]
        assert audit and len([q for q in captured if q["sql"].startswith("SAVEPOINT")]) <= 2
        return response.json()

    call(
        "accept",
        f"/api/v1/tables/{table.pk}/game/actions/",
        {"type": "accept", "seat": offered, "bank": 50_000},
    )
    hand = call("open", f"/api/v1/tables/{table.pk}/hands/")
    body = record()
    body["designated_player"]["seat"] = offered
    players = [seat for seat in (1, 2, 3, 4) if seat != offered][:2]
    for player, seat in zip(body["players"], players, strict=True):
        player["seat"] = seat
    call("settle", f"/api/v1/hands/{hand['id']}/settle/", body)
    return counts


def test_accept_open_and_settle_do_not_grow_with_the_hands_dealt(open_table, dealer, client_for):
    client = client_for(dealer)
    deal(open_table, dealer, 2)
    early = routine(client, open_table)
    deal(open_table, dealer, 27)
    late = routine(client, open_table)
    assert late == early, (early, late)
