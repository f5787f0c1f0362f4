"""What the sign-off tests share (the API's and the browser's): a shift manager, High Card
Flush tables whose designated player banks enough for a big win, records that win a chosen
amount on a straight flush bonus, and a hand settled and held."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group

from casino.core.roles import give_role
from tables import services
from tests.conftest import open_hcf_table, record

#: The bank the designated player puts up: enough to pay a straight flush bonus of $6,000.
BANK = 1_000_000

# A 7-card straight flush J-T-9-8-7-6-5 of hearts: the straight flush bonus pays 1000:1.
SEVEN_SF = ["Jh", "Th", "9h", "8h", "7h", "6h", "5h"]
# A 5-card straight flush 9-8-7-6-5 of hearts (100:1), the rest off-suit.
FIVE_SF = ["9h", "8h", "7h", "6h", "5h", "Qc", "Td"]


def shift_manager(make_user: Any, username: str) -> Any:
    """A shift manager (and so a floor manager too), given the role as every user is. (A
    browser test's database is emptied between tests, the role's group with it.)"""
    Group.objects.get_or_create(name="shift_manager")
    user = make_user(username=username)
    give_role(user, "shift_manager")
    return user


@pytest.fixture
def shift(make_user: Any) -> Any:
    return shift_manager(make_user, "shift")


@pytest.fixture
def shift2(make_user: Any) -> Any:
    return shift_manager(make_user, "shift2")


def big_table(floor: Any, dealer: Any, name: str = "HCF-BIG") -> Any:
    """An open High Card Flush table dealt by ``dealer``, seat 1 holding the position with a
    bank of :data:`BANK`."""
    table = open_hcf_table(floor, dealer, name)
    services.game_act(
        user=dealer, table_id=table.pk, action={"type": "accept", "seat": 1, "bank": BANK}
    )
    table.refresh_from_db()
    return table


def bonus_record(cards: list[str], bonus: int) -> dict[str, Any]:
    """:func:`tests.conftest.record` with seat 2 holding ``cards`` and a straight flush bonus
    of ``bonus``; the designated player banks :data:`BANK`."""
    body = record()
    body["designated_player"]["bank"] = BANK
    body["players"][0].update(cards=list(cards), straight_flush_bonus=bonus, flush_bonus=0)
    return body


def settle(client: Any, table: Any, body: dict[str, Any]) -> Any:
    """Open the table's next hand and settle it with ``body``; the answer."""
    hand = client.post(f"/api/v1/tables/{table.pk}/hands/")
    assert hand.status_code == 201, hand.json()
    return client.post(f"/api/v1/hands/{hand.json()['id']}/settle/", body, format="json")


def held(client: Any, table: Any, body: dict[str, Any]) -> dict[str, Any]:
    """Settle a hand that must wait for the floor; the request (the approval)."""
    answer = settle(client, table, body)
    assert answer.status_code == 202, answer.json()
    return answer.json()["approval"]


IDENTITY = {
    "name": "Ana Kovacs",
    "id_kind": "drivers_licence",
    "id_number": "D123-456-789",
    "address": "12 Main St, Tunica MS 38664",
    "tin": "123-45-6789",
}
