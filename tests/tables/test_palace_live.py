"""Palace Poker at a live table: banners and palace cards entered at the deal, battles
fought one action at a time, the pot to the last player standing."""

from __future__ import annotations

import pytest

from payouts.audit import audit_report
from payouts.models import Settlement
from tables import services
from tables.models import HandAction

pytestmark = pytest.mark.django_db

PLAYERS = [
    {"seat": 1, "stack": 20_000, "banner": "2c", "palace": ["As", "Ad", "Ac"]},
    {"seat": 2, "stack": 20_000, "banner": "7h", "palace": ["3d", "4d", "9c"]},
    {"seat": 3, "stack": 20_000, "banner": "Ks", "palace": ["5s", "6d", "8c"]},
]


@pytest.fixture
def palace_table(db, floor, dealer):
    table = services.table_create(
        user=floor,
        name="PAL-1",
        game="palace-poker",
        seat_count=6,
        dealer=dealer,
        limits={"structure": "limit", "small_bet": 500, "big_bet": 1000},
    )
    for number, name in {1: "Ana", 2: "Bela", 3: "Csilla"}.items():
        services.seat_update(
            user=floor, table_id=table.pk, number=number, player=name, sitting_out=False
        )
    return services.table_set_status(user=floor, table_id=table.pk, status="open")


def test_battles_to_the_last_player_standing(palace_table, dealer, client_for):
    client = client_for(dealer)
    opened = client.post(
        f"/api/v1/tables/{palace_table.pk}/hands/", {"players": PLAYERS}, format="json"
    )
    assert opened.status_code == 201, opened.json()
    hand = opened.json()
    state = hand["state"]
    assert hand["config"]["dealer"] == 1 and state["to_act"] == 2
    battle = next(a for a in state["legal_actions"] if a["type"] == "battle")
    assert battle["targets"] == [1, 3] and battle["min"] == 500  # (0 soldiers + 1) x 500
    url = f"/api/v1/hands/{hand['id']}/actions/"
    steps = [
        {"seat": 2, "type": "battle", "target": 3, "amount": 500},
        {"seat": 3, "type": "fold"},  # seat 2 takes seat 3's banner as a soldier
        {"seat": 1, "type": "battle", "target": 2, "amount": 500},
        {"seat": 2, "type": "call"},  # (1 soldier + 1) x 500
    ]
    for step in steps:
        response = client.post(url, step, format="json")
        assert response.status_code == 200, (step, response.json())
    assert response.json()["phase"] == "complete"
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json")
    assert settled.status_code == 201, settled.json()
    body = settled.json()
    seats = {s["seat"]: s for s in body["seats"]}
    # Antes 3 x 250, battles 500 and 500 + 1000: seat 1's aces beat seat 2's king high
    # (seat 2's clubs, seat 1's banner suit, do not count).
    assert seats[1]["net"] == 2750 - 250 - 500
    assert seats[2]["net"] == -1750 and seats[2]["status"] == "out"
    assert (
        seats[3]["net"] == -250 and seats[3]["status"] == "out"
    )  # folded in a battle: out (clause 9)
    assert body["winners"] == [1]
    assert [b["winner"] for b in body["battles"]][-1] == 1
    report = audit_report()
    assert report["ok"], report["findings"]
    assert report["settlements_checked"] == 1
    # The deal passes one seat clockwise.
    view = client.get(f"/api/v1/tables/{palace_table.pk}/game/").json()
    assert view["state"] == {"last_dealer": 1, "next_dealer": 2} and view["actions"] == []


def test_banners_differ_within_a_group_and_a_battle_bet_has_a_minimum(
    palace_table, dealer, client_for
):
    client = client_for(dealer)
    players = [dict(p) for p in PLAYERS]
    players[0]["banner"] = "2h"  # seat 1 would share hearts with seat 2 in one group of three
    refused = client.post(
        f"/api/v1/tables/{palace_table.pk}/hands/", {"players": players}, format="json"
    )
    assert refused.status_code == 400  # clause 4: banners in a group are different suits
    hand = client.post(
        f"/api/v1/tables/{palace_table.pk}/hands/", {"players": PLAYERS}, format="json"
    ).json()
    low = client.post(
        f"/api/v1/hands/{hand['id']}/actions/",
        {"seat": 2, "type": "battle", "target": 3, "amount": 100},
        format="json",
    )
    assert low.status_code == 400 and "$5.00" in low.json()["detail"]  # the house currency
    assert HandAction.objects.count() == 0


def test_the_deal_must_name_every_seat_in_play(palace_table, dealer, client_for):
    response = client_for(dealer).post(
        f"/api/v1/tables/{palace_table.pk}/hands/", {"players": PLAYERS[:2]}, format="json"
    )
    assert response.status_code == 400 and response.json()["errors"][0]["path"] == "players"


def test_a_table_with_a_player_in_seat_10_opens_and_plays_a_hand(
    db, floor, floor2, dealer, client_for, void_hand
):
    """Seats sort as numbers: 2, 9, 10 (as text "10" would come before "2")."""
    table = services.table_create(
        user=floor,
        name="PAL-10",
        game="palace-poker",
        seat_count=10,
        dealer=dealer,
        limits={"structure": "limit", "small_bet": 500, "big_bet": 1000},
    )
    for number, name in {2: "Ana", 9: "Bela", 10: "Csilla"}.items():
        services.seat_update(
            user=floor, table_id=table.pk, number=number, player=name, sitting_out=False
        )
    services.table_set_status(user=floor, table_id=table.pk, status="open")
    client = client_for(dealer)
    seats = {1: 2, 2: 9, 3: 10}  # PLAYERS' seats moved round the table
    players = [{**p, "seat": seats[p["seat"]]} for p in reversed(PLAYERS)]  # any order
    opened = client.post(f"/api/v1/tables/{table.pk}/hands/", {"players": players}, format="json")
    assert opened.status_code == 201, opened.json()
    hand = opened.json()
    assert hand["seats"] == [2, 9, 10]
    assert hand["config"]["dealer"] == 2 and hand["state"]["to_act"] == 9
    battle = next(a for a in hand["state"]["legal_actions"] if a["type"] == "battle")
    assert battle["targets"] == [2, 10]
    url = f"/api/v1/hands/{hand['id']}/actions/"
    for step in (
        {"seat": 9, "type": "battle", "target": 10, "amount": 500},
        {"seat": 10, "type": "fold"},
        {"seat": 2, "type": "battle", "target": 9, "amount": 500},
        {"seat": 9, "type": "call"},
    ):
        response = client.post(url, step, format="json")
        assert response.status_code == 200, (step, response.json())
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json")
    assert settled.status_code == 201, settled.json()
    body = settled.json()
    nets = {s["seat"]: s["net"] for s in body["seats"]}
    assert nets == {2: 2750 - 250 - 500, 9: -1750, 10: -250}
    assert body["winners"] == [2]
    assert Settlement.objects.get(hand_id=hand["id"]).history["config"]["dealer"] == 2
    # The deal goes 2 -> 9 -> 10 and wraps round to 2.
    game = f"/api/v1/tables/{table.pk}/game/"
    assert client.get(game).json()["state"] == {"last_dealer": 2, "next_dealer": 9}
    for dealer_seat, after in ((9, 10), (10, 2)):
        nxt = client.post(f"/api/v1/tables/{table.pk}/hands/", {"players": players}, format="json")
        assert nxt.status_code == 201, nxt.json()
        assert nxt.json()["config"]["dealer"] == dealer_seat
        void_hand(nxt.json()["id"], asks=floor, approves=floor2, reason="test: next deal")
        state = client.get(game).json()["state"]
        assert state == {"last_dealer": dealer_seat, "next_dealer": after}
