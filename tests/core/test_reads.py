"""Every read endpoint: any role may read, anonymous users may not."""

from __future__ import annotations

import pytest

from tests.conftest import record

pytestmark = pytest.mark.django_db


@pytest.fixture
def urls(dp_table, dealer, client_for):
    client = client_for(dealer)
    hand = client.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json").json()
    change = client.post(
        f"/api/v1/tables/{dp_table.pk}/changes/", {"changes": {"ante_max": 9000}}, format="json"
    ).json()
    return {
        "tables": "/api/v1/tables/",
        "table": f"/api/v1/tables/{dp_table.pk}/",
        "hands": f"/api/v1/tables/{dp_table.pk}/hands/",
        "hand": f"/api/v1/hands/{hand['id']}/",
        "changes": f"/api/v1/tables/{dp_table.pk}/changes/",
        "game": f"/api/v1/tables/{dp_table.pk}/game/",
        "settlements": f"/api/v1/settlements/?table={dp_table.pk}",
        "settlement": f"/api/v1/settlements/{settled['settlement']}/",
        "audit": f"/api/v1/audit/entries/?table={dp_table.pk}",
        "checks": "/api/v1/audit/checks/",
        "games": "/api/v1/games/",
        "_hand_id": hand["id"],
        "_change_id": change["id"],
    }


READS = [
    "tables",
    "table",
    "hands",
    "hand",
    "changes",
    "game",
    "settlements",
    "settlement",
    "audit",
    "checks",
    "games",
]


@pytest.mark.parametrize("role", ["dealer", "floor_manager", "compliance"])
def test_every_role_reads_everything(role, urls, make_user, client_for):
    client = client_for(make_user(role))
    for name in READS:
        response = client.get(urls[name])
        assert response.status_code == 200, (name, response.content)


def test_anonymous_reads_are_refused(urls, client_for):
    for name in READS:
        assert client_for(None).get(urls[name]).status_code == 401, name


def test_reads_show_what_happened(urls, make_user, client_for):
    client = client_for(make_user("compliance"))
    hand = client.get(urls["hand"]).json()
    assert hand["status"] == "settled" and hand["settlement"] is not None
    hands = client.get(urls["hands"]).json()["results"]
    assert [h["id"] for h in hands] == [urls["_hand_id"]]
    settlement = client.get(urls["settlement"]).json()
    seats = {s["seat"]: s for s in settlement["seats"]}
    assert seats[3]["net"] == 2900 and seats[3]["rake"] == 100
    assert {line["wager"] for line in seats[3]["lines"]} == {"ante", "raise"}
    assert settlement["result"]["explanation"]
    changes = client.get(urls["changes"]).json()["results"]
    assert [c["id"] for c in changes] == [urls["_change_id"]]
    actions = [e["action"] for e in client.get(urls["audit"]).json()["results"]]
    assert actions[-4:] == [
        "hand_actions",
        "hand_settle",
        "rotation_offer",
        "table_change_requested",
    ]
    game = client.get(urls["game"]).json()
    # After the hand the position is offered to the next seat clockwise from the holder.
    assert game["state"]["offer_seat"] == 2 and game["state"]["designated_player"] is None
    assert [a["type"] for a in game["actions"]] == ["accept", "decline"]
    assert game["events"][0]["kind"] == "rotation_offer" and game["events"][0]["hand"] is not None
