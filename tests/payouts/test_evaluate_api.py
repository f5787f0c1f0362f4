"""POST /api/v1/games/high-card-flush/evaluate/: settle a record, store nothing."""

from __future__ import annotations

import copy

import pytest

from payouts.models import AuditEntry, Settlement
from tests.conftest import record

pytestmark = pytest.mark.django_db
URL = "/api/v1/games/high-card-flush/evaluate/"


def example_1() -> dict:
    """Brief, worked example 1 (ante 10): A-K-7-2 beats the DP's K-Q-J-T."""
    return {
        "designated_player": {
            "seat": 1,
            "bank": 1000,
            "cards": ["Kh", "Qh", "Jh", "Th", "3s", "5d", "6c"],
        },
        "players": [
            {
                "seat": 2,
                "cards": ["As", "Ks", "7s", "2s", "Qc", "9d", "4c"],
                "ante": 10,
                "raise": 10,
            }
        ],
    }


@pytest.mark.parametrize("role", ["dealer", "floor_manager", "compliance"])
def test_every_role_may_evaluate_and_nothing_is_stored(role, make_user, client_for):
    before = AuditEntry.objects.count()
    response = client_for(make_user(role)).post(URL, example_1(), format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["game"] == "high-card-flush"
    player = next(s for s in body["seats"] if s["seat"] == 2)
    dp = next(s for s in body["seats"] if s["seat"] == 1)
    assert player["role"] == "player" and player["status"] == "settled"
    assert {line["wager"]: line["amount"] for line in player["lines"]} == {"ante": 10, "raise": 10}
    assert player["net"] == 20
    assert dp["role"] == "designated_player" and dp["qualifies"] is True
    assert dp["net"] == -20
    assert body["order"] == [2]
    assert body["explanation"]
    assert sum(s["net"] for s in body["seats"]) + body["rake"] == 0
    assert AuditEntry.objects.count() == before
    assert Settlement.objects.count() == 0


def test_rules_in_the_request_override_the_defaults(client_for, dealer):
    data = record()
    data["rules"] = {
        "rake": {"scheme": "dp_only", "amount": 250},
        "flush_paytable": {"5": 20, "4": 3},
    }
    body = client_for(dealer).post(URL, data, format="json").json()
    assert body["rules"]["rake"]["scheme"] == "dp_only"
    seats = {s["seat"]: s for s in body["seats"]}
    assert seats[1]["rake"] == 250 and seats[2]["rake"] == 0 and seats[3]["rake"] == 0
    assert body["rake"] == 250


def test_anonymous_evaluate_is_401(client_for):
    assert client_for(None).post(URL, example_1(), format="json").status_code == 401


def test_unknown_game_is_404(client_for, dealer):
    response = client_for(dealer).post(
        "/api/v1/games/blackjack/evaluate/", example_1(), format="json"
    )
    assert response.status_code == 404
    assert "blackjack" in response.json()["detail"]


def _bad(mutate):
    data = copy.deepcopy(record())
    mutate(data)
    return data


def _set(path, value):
    def mutate(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return mutate


BAD_INPUT = [
    pytest.param(
        _set(["players", 1, "cards", 0], "As"), "players[1].cards", "As", id="duplicate-card"
    ),
    pytest.param(
        _set(["players", 0, "cards"], ["Ah", "Kh", "7h", "2h", "Qd", "9c"]),
        "players[0].cards",
        "7",
        id="wrong-card-count",
    ),
    pytest.param(
        _set(["players", 0, "cards", 2], "Xz"), "players[0].cards[2]", "Xz", id="unknown-card"
    ),
    pytest.param(
        _set(["players", 0, "raise"], 2000),
        "players[0].raise",
        "$20.00",
        id="raise-above-1x-for-4-card-flush",
    ),
    pytest.param(
        _set(["players", 0, "raise"], 500), "players[0].raise", "$5.00", id="raise-below-ante"
    ),
    pytest.param(_set(["players", 1, "seat"], 2), "players[1].seat", "2", id="seat-twice"),
    pytest.param(_set(["players", 1, "seat"], 1), "players[1].seat", "1", id="player-in-dp-seat"),
    pytest.param(
        _set(["players", 0, "flush_bonus"], -5),
        "players[0].flush_bonus",
        "\N{MINUS SIGN}$0.05",
        id="negative-money",
    ),
    pytest.param(
        _set(["designated_player", "bank"], -1),
        "designated_player.bank",
        "\N{MINUS SIGN}$0.01",
        id="negative-bank",
    ),
    pytest.param(
        lambda d: d.update(rules={"bank_min": 60_000}),
        "designated_player.bank",
        "$600.00",
        id="dp-bank-below-minimum",
    ),
    pytest.param(
        lambda d: d.update(rules={"coverage": "sometimes"}),
        "rules.coverage",
        "sometimes",
        id="unknown-coverage",
    ),
]


@pytest.mark.parametrize(("mutate", "path", "word"), BAD_INPUT)
def test_bad_input_is_a_400_naming_the_problem(mutate, path, word, client_for, dealer):
    response = client_for(dealer).post(URL, _bad(mutate), format="json")
    assert response.status_code == 400, response.json()
    errors = response.json()["errors"]
    match = [e for e in errors if e["path"].startswith(path)]
    assert match, errors
    assert any(word in e["message"] for e in match), errors


def test_every_problem_is_named_at_once(client_for, dealer):
    data = record()
    data["players"][0]["cards"][0] = "Zz"
    data["players"][1]["raise"] = 99_999
    response = client_for(dealer).post(URL, data, format="json")
    assert response.status_code == 400
    paths = {e["path"] for e in response.json()["errors"]}
    assert any(p.startswith("players[0].cards") for p in paths)
    assert "players[1].raise" in paths


def test_a_body_that_is_not_an_object_is_a_400(client_for, dealer):
    response = client_for(dealer).post(URL, [1, 2], format="json")
    assert response.status_code == 400
