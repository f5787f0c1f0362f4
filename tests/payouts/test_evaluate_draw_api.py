"""POST /api/v1/games/five-card-draw-7a/evaluate/: replay a whole hand, store nothing."""

from __future__ import annotations

import pytest

from payouts.models import AuditEntry

pytestmark = pytest.mark.django_db
URL = "/api/v1/games/five-card-draw-7a/evaluate/"


def hand(actions, **extra):
    """Button 1, small blind seat 2, big blind seat 3; seat 1 acts first."""
    return {
        "structure": "limit",
        "small_blind": 100,
        "big_blind": 200,
        "big_bet": 400,
        "button": 1,
        "seats": [
            {"seat": 1, "stack": 10_000, "cards": ["As", "Ad", "Ac", "Kh", "Kd"]},
            {"seat": 2, "stack": 10_000, "cards": ["7s", "8d", "9c", "Jh", "Qd"]},
            {"seat": 3, "stack": 10_000, "cards": ["7h", "8c", "9d", "Js", "Qc"]},
        ],
        "actions": actions,
        **extra,
    }


PASSIVE = [
    {"seat": 1, "type": "call"},
    {"seat": 2, "type": "call"},
    {"seat": 3, "type": "check"},
    {"seat": 2, "type": "draw", "discard": ["7s"], "receive": ["Ts"]},
    {"seat": 3, "type": "draw", "discard": [], "receive": []},
    {"seat": 1, "type": "draw", "discard": [], "receive": []},
    {"seat": 2, "type": "check"},
    {"seat": 3, "type": "check"},
    {"seat": 1, "type": "bet", "to": 400},
    {"seat": 2, "type": "fold"},
    {"seat": 3, "type": "call"},
]


@pytest.mark.parametrize("role", ["dealer", "floor_manager", "compliance"])
def test_a_whole_hand_replays_to_its_settlement(role, make_user, client_for):
    before = AuditEntry.objects.count()
    data = hand(PASSIVE, rules={"rake": {"percent": 5, "cap": 300}})
    response = client_for(make_user(role)).post(URL, data, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    seats = {s["seat"]: s for s in body["seats"]}
    # Pot: 3 x 200 pre-draw + 2 x 400 post-draw = 1400; 5% rake = 70.
    assert body["rake"] == 70
    assert seats[1]["net"] == 1400 - 600 - 70
    assert seats[2]["net"] == -200 and seats[2]["status"] == "folded"
    assert seats[3]["net"] == -600
    assert seats[1]["lines"] == [
        {"wager": "pot", "stake": 600, "outcome": "win", "amount": 800, "odds": None}
    ]
    assert body["pots"][0]["winners"] == [1]
    assert body["showdown_order"] == [1, 3]
    assert AuditEntry.objects.count() == before


@pytest.mark.parametrize(
    ("actions", "index", "words"),
    [
        pytest.param([{"seat": 2, "type": "call"}], 0, "turn", id="out-of-turn"),
        pytest.param([{"seat": 1, "type": "raise", "to": 300}], 0, "$4.00", id="raise-too-small"),
        pytest.param(
            [*PASSIVE[:3], {"seat": 2, "type": "draw", "discard": ["Ah"], "receive": ["Ts"]}],
            3,
            "Ah",
            id="card-not-in-hand",
        ),
        pytest.param(
            [*PASSIVE[:3], {"seat": 2, "type": "draw", "discard": ["7s"], "receive": ["As"]}],
            3,
            "As",
            id="card-already-seen",
        ),
        pytest.param(
            [
                {"seat": 1, "type": "raise", "to": 400},
                {"seat": 2, "type": "raise", "to": 600},
                {"seat": 3, "type": "raise", "to": 800},
                {"seat": 1, "type": "raise", "to": 1000},
            ],
            3,
            "capped",
            id="raise-after-the-cap",
        ),
    ],
)
def test_an_illegal_action_is_a_400_naming_its_index(actions, index, words, client_for, dealer):
    response = client_for(dealer).post(URL, hand(actions), format="json")
    assert response.status_code == 400, response.json()
    errors = response.json()["errors"]
    assert errors[0]["path"].startswith(f"actions[{index}]"), errors
    assert words in errors[0]["message"], errors


def test_an_unfinished_hand_is_a_400(client_for, dealer):
    response = client_for(dealer).post(URL, hand(PASSIVE[:2]), format="json")
    assert response.status_code == 400
    assert "not finished" in response.json()["detail"]
