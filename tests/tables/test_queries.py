"""Reads cost the same however much a table has dealt: no query per hand."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables import services
from tests.conftest import record

pytestmark = pytest.mark.django_db


def deal(table, dealer, hands: int) -> None:
    for _ in range(hands):
        table.refresh_from_db()
        offered = table.game_state["offer"]
        services.game_act(
            user=dealer,
            table_id=table.pk,
            action={"type": "accept", "seat": offered, "bank": 50_000},
        )
        hand = services.hand_open(user=dealer, table_id=table.pk)
        players = [seat for seat in (1, 2, 3, 4) if seat != offered][:2]
        body = record()
        body["designated_player"]["seat"] = offered
        for player, seat in zip(body["players"], players, strict=True):
            player["seat"] = seat
        services.hand_settle(user=dealer, hand_id=hand.pk, record=body)


def queries(client, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return len(captured)


def test_the_hand_list_and_table_reads_do_not_grow_with_the_hands_dealt(
    open_table, dealer, client_for, settings
):
    settings.DEBUG = False
    client = client_for(dealer)
    deal(open_table, dealer, 2)
    few = {
        path: queries(client, path)
        for path in (
            f"/api/v1/tables/{open_table.pk}/hands/",
            f"/api/v1/tables/{open_table.pk}/game/",
            f"/api/v1/settlements/?table={open_table.pk}",
        )
    }
    deal(open_table, dealer, 6)
    for path, count in few.items():
        assert queries(client, path) == count, path
