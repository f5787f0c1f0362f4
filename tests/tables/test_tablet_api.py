"""What the dealer tablet reads besides the tables: who is logged in, the deck a card picker
offers, and a settlement's preview before it is sent."""

from __future__ import annotations

import pytest

from payouts.models import Settlement
from tests.conftest import record

pytestmark = pytest.mark.django_db


def test_me_names_the_user_and_their_roles(dealer, client_for):
    me = client_for(dealer).get("/api/v1/auth/me/")
    assert me.status_code == 200
    assert me.json() == {"username": dealer.username, "roles": ["dealer"]}
    assert client_for(None).get("/api/v1/auth/me/").status_code == 401


def test_the_game_view_offers_the_game_s_own_deck(dp_table, draw_table, floor, client_for):
    client = client_for(floor)
    hcf = client.get(f"/api/v1/tables/{dp_table.pk}/game/").json()
    assert len(hcf["deck"]) == 52
    seven_a = client.get(f"/api/v1/tables/{draw_table.pk}/game/").json()
    assert len(seven_a["deck"]) == 32 and "6s" not in seven_a["deck"]  # three dealt in
    for seat, name in ((4, "Dani"), (5, "Eva")):
        client.post(
            f"/api/v1/tables/{draw_table.pk}/seats/{seat}/", {"player": name}, format="json"
        )
    five = client.get(f"/api/v1/tables/{draw_table.pk}/game/").json()
    # Before the first hand every present seat is dealt in: five players, the sixes added.
    assert five["state"]["next_hand"]["dealt_in"] == [1, 2, 3, 4, 5]
    assert len(five["deck"]) == 36 and "6s" in five["deck"]


def test_a_finished_hand_previews_its_settlement_and_stores_nothing(dp_table, dealer, client_for):
    client = client_for(dealer)
    hand = client.post(f"/api/v1/tables/{dp_table.pk}/hands/", {}, format="json").json()
    assert hand["state"]["deck"][:2] == ["2c", "2d"]
    unfinished = client.get(f"/api/v1/hands/{hand['id']}/preview/")
    assert unfinished.status_code == 409
    body = record()
    actions = [
        {"type": "wager", "seat": 2, "ante": 1000, "flush_bonus": 500},
        {"type": "wager", "seat": 3, "ante": 1000},
        {"type": "deal", "seat": 2, "cards": body["players"][0]["cards"]},
        {"type": "deal", "seat": 3, "cards": body["players"][1]["cards"]},
        {"type": "deal", "seat": 1, "cards": body["designated_player"]["cards"]},
        {"type": "raise", "seat": 2, "amount": 1000},
        {"type": "raise", "seat": 3, "amount": 2000},
    ]
    for action in actions:
        assert (
            client.post(f"/api/v1/hands/{hand['id']}/actions/", action, format="json").status_code
            == 200
        )
    preview = client.get(f"/api/v1/hands/{hand['id']}/preview/")
    assert preview.status_code == 200
    assert Settlement.objects.count() == 0
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json").json()
    assert {s["seat"]: s["net"] for s in preview.json()["seats"]} == {
        s["seat"]: s["net"] for s in settled["seats"]
    }
    assert client.get(f"/api/v1/hands/{hand['id']}/preview/").status_code == 409
