"""Chip custody's test steps: a table opened the way custody opens one (counted, signed by
its dealer and a floor manager). The chip set, the cage and the counters are fixtures of
tests/conftest.py (tests elsewhere use them too)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tables import services

OPENER = {"100": 100, "500": 200, "2500": 100, "10000": 20}  # 100 + 1,000 + 2,500 + 2,000
OPENER_TOTAL = 560_000


def opened(client_for: Callable[[Any], Any], table: Any, dealer: Any, floor: Any) -> Any:
    """``table`` opened through the API with :data:`OPENER`: the dealer counts, the floor
    manager signs. Returns the signed opener's body."""
    counted = client_for(dealer).post(
        f"/api/v1/tables/{table.pk}/custody/opener/",
        {"counts": OPENER, "total": OPENER_TOTAL},
        format="json",
    )
    assert counted.status_code == 201, counted.json()
    signed = client_for(floor).post(
        f"/api/v1/custody/inventories/{counted.json()['id']}/sign/", format="json"
    )
    assert signed.status_code == 200, signed.json()
    table.refresh_from_db()
    assert table.status == "open"
    return signed.json()


def seated(floor: Any, table: Any, players: dict[int, str]) -> Any:
    for number, name in players.items():
        services.seat_update(
            user=floor, table_id=table.pk, number=number, player=name, sitting_out=False
        )
    return table
