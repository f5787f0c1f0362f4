"""POST /api/v1/games/pontoon/evaluate/: settle a whole Pontoon hand, store nothing."""

from __future__ import annotations

import pytest

URL = "/api/v1/games/pontoon/evaluate/"
pytestmark = pytest.mark.django_db


def test_worked_example_6_banker_busts(client_for, compliance):
    """P1 K-8 +10; P2 A-Q pontoon +20; P3 K-7-9 bust -10; banker K-6-8 bust."""
    record = {
        "banker": {"seat": 5, "cards": ["Kh", "6h", "8h"]},
        "players": [
            {
                "seat": 1,
                "stake": 10,
                "hands": [{"cards": ["Ks", "8s"], "actions": [{"type": "stick"}]}],
            },
            {"seat": 2, "stake": 10, "hands": [{"cards": ["Ad", "Qd"], "actions": []}]},
            {
                "seat": 3,
                "stake": 10,
                "hands": [{"cards": ["Kc", "7c", "9c"], "actions": [{"type": "twist"}]}],
            },
        ],
    }
    response = client_for(compliance).post(URL, record, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    nets = {s["seat"]: s["net"] for s in body["seats"]}
    assert nets == {1: 10, 2: 20, 3: -10, 5: -20}
    assert body["next_banker"] == 2  # a pontoon on an unsplit hand takes the bank
    statuses = {s["seat"]: s["status"] for s in body["seats"]}
    assert statuses[3] == "bust"


def test_buying_after_a_twist_is_a_400_naming_the_hand(client_for, dealer):
    record = {
        "banker": {"seat": 5, "cards": ["Th", "7h"]},
        "players": [
            {
                "seat": 1,
                "stake": 10,
                "hands": [
                    {
                        "cards": ["2s", "3s", "4s", "5s"],
                        "actions": [{"type": "twist"}, {"type": "buy", "amount": 10}],
                    }
                ],
            }
        ],
    }
    response = client_for(dealer).post(URL, record, format="json")
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["path"].startswith("players[0].hands[0].actions[1]")
    assert "twist" in error["message"]
