"""Paiute at a live table: the deal passes clockwise, each draw, discard and call is recorded
as it happens, and the final turns run to the dealer."""

from __future__ import annotations

import pytest

from payouts.audit import audit_report
from payouts.models import Settlement
from tables import services
from tables.models import HandAction

pytestmark = pytest.mark.django_db

DEAL = {
    "hands": {
        "1": ["2c", "4d", "6h", "8s", "Tc"],
        "2": ["Ks", "Kh", "Kd", "3s", "7s"],
        "3": ["2d", "4h", "6s", "8d", "Jc"],
    },
    "upcard": "3c",  # threes are wild
}


@pytest.fixture
def paiute_table(db, floor, dealer):
    table = services.table_create(
        user=floor, name="PAI-1", game="paiute", seat_count=5, dealer=dealer, limits={"ante": 100}
    )
    for number, name in {1: "Ana", 2: "Bela", 3: "Csilla"}.items():
        services.seat_update(
            user=floor, table_id=table.pk, number=number, player=name, sitting_out=False
        )
    return services.table_set_status(user=floor, table_id=table.pk, status="open")


STEPS = [  # seat 2 calls at once; the others have their final turns up to the dealer
    {"seat": 2, "type": "draw", "source": "stock", "card": "7d"},
    {"seat": 2, "type": "call", "discard": None},  # four kings (a wild three) and sevens
    {"seat": 3, "type": "draw", "source": "stock", "card": "9c"},
    {"seat": 3, "type": "discard", "card": "9c"},
    {"seat": 1, "type": "draw", "source": "discard"},
    {"seat": 1, "type": "discard", "card": "2c"},
]


def act(client, hand, action):
    response = client.post(f"/api/v1/hands/{hand['id']}/actions/", action, format="json")
    return response


def game_view(client, table):
    response = client.get(f"/api/v1/tables/{table.pk}/game/")
    assert response.status_code == 200, response.json()
    return response.json()


def test_a_call_the_final_turns_and_the_pot(paiute_table, dealer, client_for):
    client = client_for(dealer)
    assert game_view(client, paiute_table)["state"] == {"last_dealer": None, "next_dealer": None}
    opened = client.post(f"/api/v1/tables/{paiute_table.pk}/hands/", DEAL, format="json")
    assert opened.status_code == 201, opened.json()
    hand = opened.json()
    assert hand["config"]["dealer"] == 1 and hand["state"]["to_act"] == 2  # left of the dealer
    assert hand["config"]["players"] == [2, 3, 1]  # in play order, the dealer last
    assert hand["config"]["ante"] == 100 and hand["seats"] == [1, 2, 3]
    assert hand["state"]["wild_rank"] == "3"
    steps = [
        {"seat": 2, "type": "draw", "source": "stock", "card": "7d"},
        {"seat": 2, "type": "call", "discard": None},  # four kings (a wild three) and sevens
        {"seat": 3, "type": "draw", "source": "stock", "card": "9c"},
        {"seat": 3, "type": "discard", "card": "9c"},
        {"seat": 1, "type": "draw", "source": "discard"},
    ]
    for step in steps:
        response = act(client, hand, step)
        assert response.status_code == 200, (step, response.json())
    state = response.json()
    assert state["caller"] == 2 and state["final_turns"] == [1]
    refused = act(client, hand, {"seat": 1, "type": "discard", "card": "9c"})
    assert refused.status_code == 400  # not the card just taken from the discard pile
    assert act(client, hand, {"seat": 1, "type": "discard", "card": "2c"}).status_code == 200
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json")
    assert settled.status_code == 201, settled.json()
    body = settled.json()
    nets = {s["seat"]: s["net"] for s in body["seats"]}
    assert nets == {1: -100, 2: 200, 3: -100}
    assert body["winners"] == [2]
    report = audit_report()
    assert report["ok"], report["findings"]
    assert report["settlements_checked"] == 1
    # The deal moves one seat clockwise.
    view = game_view(client, paiute_table)
    assert view["state"] == {"last_dealer": 1, "next_dealer": 2} and view["actions"] == []
    nxt = client.post(
        f"/api/v1/tables/{paiute_table.pk}/hands/",
        {**DEAL, "upcard": "5c"},
        format="json",
    )
    assert nxt.status_code == 201 and nxt.json()["config"]["dealer"] == 2
    assert nxt.json()["state"]["to_act"] == 3


def test_calling_without_a_winning_combination_is_refused(paiute_table, dealer, client_for):
    client = client_for(dealer)
    hand = client.post(f"/api/v1/tables/{paiute_table.pk}/hands/", DEAL, format="json").json()
    drew = act(client, hand, {"seat": 2, "type": "draw", "source": "stock", "card": "Qd"})
    assert drew.status_code == 200
    response = act(client, hand, {"seat": 2, "type": "call", "discard": "Qd"})
    assert response.status_code == 400
    assert HandAction.objects.count() == 1
    unfinished = client.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json")
    assert unfinished.status_code == 400 and Settlement.objects.count() == 0


def test_the_deal_must_be_complete_and_distinct(paiute_table, dealer, client_for):
    client = client_for(dealer)
    bad = {**DEAL, "hands": {**DEAL["hands"], "3": ["Ks", "4h", "6s", "8d", "Jc"]}}
    response = client.post(f"/api/v1/tables/{paiute_table.pk}/hands/", bad, format="json")
    assert response.status_code == 400
    assert "Ks" in response.json()["detail"]
    missing = client.post(f"/api/v1/tables/{paiute_table.pk}/hands/", {}, format="json")
    assert missing.status_code == 400


def test_the_first_dealer_may_be_named_and_the_deal_wraps_round(
    paiute_table, dealer, floor, client_for, void_hand
):
    client = client_for(dealer)
    url = f"/api/v1/tables/{paiute_table.pk}/hands/"
    nobody = client.post(url, {**DEAL, "dealer": 5}, format="json")
    assert nobody.status_code == 400 and nobody.json()["errors"][0]["path"] == "dealer"
    hand = client.post(url, {**DEAL, "dealer": 3}, format="json").json()
    assert hand["config"]["dealer"] == 3 and hand["config"]["players"] == [1, 2, 3]
    assert hand["state"]["to_act"] == 1
    void_hand(hand["id"], asks=dealer, approves=floor)
    assert game_view(client, paiute_table)["state"] == {"last_dealer": 3, "next_dealer": 1}
    nxt = client.post(url, {**DEAL, "dealer": 2}, format="json").json()
    assert nxt["config"]["dealer"] == 1  # after the first hand the deal just moves on


def test_a_hand_played_at_the_table_is_stored_as_its_history_and_re_evaluates_the_same(
    paiute_table, dealer, compliance, client_for
):
    client = client_for(dealer)
    hand = client.post(f"/api/v1/tables/{paiute_table.pk}/hands/", DEAL, format="json").json()
    for step in STEPS:
        response = act(client, hand, step)
        assert response.status_code == 200, (step, response.json())
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json")
    assert settled.status_code == 201, settled.json()
    result = {k: v for k, v in settled.json().items() if k not in ("hand", "settlement")}
    stored = client_for(compliance).get(f"/api/v1/settlements/{settled.json()['settlement']}/")
    assert stored.status_code == 200, stored.json()
    history = stored.json()["history"]
    assert set(history) == {"game", "rules", "config", "actions"}
    assert history["game"] == "paiute"
    assert history["rules"] == hand["rules"]
    assert history["config"] == hand["config"]
    assert history["config"]["dealer"] == 1 and history["config"]["upcard"] == "3c"
    assert history["actions"] == STEPS
    assert stored.json()["result"]["winners"] == [2]
    # The stored history settles the same way through the game's evaluation.
    again = client_for(compliance).post(
        "/api/v1/games/paiute/evaluate/",
        {**history["config"], "actions": history["actions"], "rules": history["rules"]},
        format="json",
    )
    assert again.status_code == 200, again.json()
    assert again.json() == result
    assert {s["seat"]: s["net"] for s in again.json()["seats"]} == {1: -100, 2: 200, 3: -100}
    # Cut short before the final turns are over, the history does not settle.
    short = client_for(compliance).post(
        "/api/v1/games/paiute/evaluate/",
        {**history["config"], "actions": history["actions"][:-1], "rules": history["rules"]},
        format="json",
    )
    assert short.status_code == 400
