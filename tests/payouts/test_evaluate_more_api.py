"""Evaluate for Paiute and Palace Poker: a whole record settled, nothing stored."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_paiute_caller_takes_the_pot(client_for, compliance):
    record = {
        "dealer": 3,
        "ante": 500,
        "wild_card": "3c",
        "players": [
            {"seat": 1, "cards": ["Ks", "Kh", "Kd", "3s", "7s", "7d"]},  # four/two with a wild
            {"seat": 2, "cards": ["2c", "4d", "6h", "8s", "Tc"]},
            {"seat": 3, "cards": ["2d", "4h", "6s", "8d", "Jc"]},
        ],
        "caller": 1,
    }
    response = client_for(compliance).post("/api/v1/games/paiute/evaluate/", record, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert {s["seat"]: s["net"] for s in body["seats"]} == {1: 1000, 2: -500, 3: -500}
    assert body["winners"] == [1]


def test_paiute_caller_without_a_combination_is_a_400(client_for, dealer):
    record = {
        "dealer": 2,
        "ante": 500,
        "wild_card": "3c",
        "players": [
            {"seat": 1, "cards": ["2c", "4d", "6h", "8s", "Tc"]},
            {"seat": 2, "cards": ["2d", "4h", "6s", "8d", "Jc"]},
        ],
        "caller": 1,
    }
    response = client_for(dealer).post("/api/v1/games/paiute/evaluate/", record, format="json")
    assert response.status_code == 400
    assert "winning combination" in response.json()["detail"]


def test_palace_poker_replays_a_hand(client_for, floor):
    record = {
        "structure": "limit",
        "small_bet": 500,
        "big_bet": 1000,
        "dealer": 1,
        "players": [
            {"seat": 1, "stack": 20_000, "banner": "2c", "palace": ["As", "Ad", "Ac"]},
            {"seat": 2, "stack": 20_000, "banner": "7h", "palace": ["3d", "4d", "9c"]},
        ],
        "actions": [
            {"seat": 2, "type": "battle", "target": 1, "amount": 500},
            {"seat": 1, "type": "call"},
        ],
    }
    response = client_for(floor).post("/api/v1/games/palace-poker/evaluate/", record, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["winners"] == [1]
    assert sum(s["net"] for s in body["seats"]) + body["rake"] == 0
    bad = {**record, "actions": [{"seat": 1, "type": "stay"}]}
    refused = client_for(floor).post("/api/v1/games/palace-poker/evaluate/", bad, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["path"].startswith("actions[0]")
