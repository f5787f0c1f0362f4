"""Open and settle hands through the API, as the dealer's tablet does (voids: tests/approvals)."""

from __future__ import annotations

import json

import pytest
from rest_framework.renderers import JSONRenderer

from payouts.models import AuditEntry, PayoutLine, Settlement
from tables.models import Hand, HandAction, Table
from tables.selectors import just_opened
from tables.serializers import HandSerializer
from tests.conftest import record

pytestmark = pytest.mark.django_db


def open_hand(client, table) -> dict:
    response = client.post(f"/api/v1/tables/{table.pk}/hands/")
    assert response.status_code == 201, response.json()
    return response.json()


def test_opening_a_hand_freezes_rules_dp_and_seats(dp_table, dealer, client_for):
    hand = open_hand(client_for(dealer), dp_table)
    assert hand["number"] == 1 and hand["status"] == "open"
    assert hand["game"] == "high-card-flush"
    assert hand["config"] == {
        "designated_player": {"seat": 1, "bank": 50_000},
        "players": [2, 3, 4],
    }
    assert hand["seats"] == [1, 2, 3, 4]
    assert hand["rules"]["rake"]["scheme"] == "per_player"
    assert hand["rules"]["rake"]["amount"] == 100
    assert hand["rules"]["ante_min"] == 100 and hand["rules"]["bank_max"] == 1_000_000
    assert hand["rules"]["flush_paytable"]["4"] == 2
    assert hand["rules"]["rotation_policy"] == {
        "max_consecutive": 2,
        "window_minutes": 40,
        "min_distinct": 2,
    }
    # An open hand shows its state: the players still to bet, with the table's ante bounds.
    state = hand["state"]
    assert state["phase"] == "wagers" and state["complete"] is False
    assert [(a["type"], a["seat"]) for a in state["legal_actions"]] == [
        ("wager", 2),
        ("wager", 3),
        ("wager", 4),
    ]
    assert state["legal_actions"][0]["ante"] == {"min": 100, "max": 10_000}
    entry = AuditEntry.objects.get(action="hand_open", hand_id=hand["id"])
    assert entry.actor_name == "dealer"
    assert set(entry.after) == {"number", "seats", "rules", "config", "setup_sha256"}
    assert entry.after["config"] == hand["config"] and entry.after["seats"] == [1, 2, 3, 4]


def test_the_opening_answer_is_what_the_hand_serializer_shows(dp_table, dealer, client_for):
    """The answer to an opening (``opened_hand_data``, built without the serializer) is the
    hand as ``HandSerializer`` shows it, key for key and in order, and as GET shows it."""
    client = client_for(dealer)
    answer = client.post(f"/api/v1/tables/{dp_table.pk}/hands/")
    assert answer.status_code == 201, answer.json()
    hand = Hand.objects.get(pk=answer.json()["id"])
    shown = HandSerializer(just_opened(hand)).data
    assert list(answer.json()) == list(shown)  # the same fields, in the same order
    assert answer.json() == json.loads(JSONRenderer().render(shown))
    assert answer.json() == client.get(f"/api/v1/hands/{hand.pk}/").json()


@pytest.mark.parametrize(
    ("who", "status"), [("dealer", 201), ("floor", 201), ("other_dealer", 403), ("compliance", 403)]
)
def test_who_may_open_a_hand(who, status, dp_table, client_for, request):
    user = request.getfixturevalue(who)
    response = client_for(user).post(f"/api/v1/tables/{dp_table.pk}/hands/")
    assert response.status_code == status, response.json()


def test_a_second_open_hand_at_the_table_is_refused(dp_table, dealer, client_for):
    client = client_for(dealer)
    first = open_hand(client, dp_table)
    response = client.post(f"/api/v1/tables/{dp_table.pk}/hands/")
    assert response.status_code == 409
    assert f"hand {first['number']} is still open" in response.json()["detail"]


def test_settle_stores_lines_rake_explanation_and_audit(dp_table, dealer, client_for):
    client = client_for(dealer)
    hand = open_hand(client, dp_table)
    response = client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    seats = {s["seat"]: s for s in body["seats"]}
    # Seat 2's A-K-7-2 loses to the DP's A-K-9-5: ante, raise and the flush bonus lose.
    assert {line["wager"]: line["amount"] for line in seats[2]["lines"]} == {
        "ante": -1000,
        "raise": -1000,
        "flush_bonus": -500,
    }
    # Seat 3's 5-card flush beats it: ante and a 2x raise win even money.
    assert {line["wager"]: line["amount"] for line in seats[3]["lines"]} == {
        "ante": 1000,
        "raise": 2000,
    }
    assert seats[1]["qualifies"] is True
    assert [seats[n]["rake"] for n in (1, 2, 3)] == [100, 100, 100]
    assert body["rake"] == 300
    assert seats[1]["net"] == 2500 - 3000 - 100
    assert sum(s["net"] for s in body["seats"]) + body["rake"] == 0

    settlement = Settlement.objects.get(hand_id=hand["id"])
    assert settlement.result["explanation"] == body["explanation"]
    # The record is kept as the hand's history: its set-up and the actions it made.
    assert settlement.history["game"] == "high-card-flush"
    assert settlement.history["config"] == {
        "designated_player": {"seat": 1, "bank": 50_000},
        "players": [2, 3, 4],
    }
    assert settlement.history["rules"]["rake"]["amount"] == 100
    actions = settlement.history["actions"]
    assert actions == [
        {"type": "wager", "seat": 2, "ante": 1000, "flush_bonus": 500, "straight_flush_bonus": 0},
        {"type": "wager", "seat": 3, "ante": 1000, "flush_bonus": 0, "straight_flush_bonus": 0},
        {"type": "deal", "seat": 2, "cards": record()["players"][0]["cards"]},
        {"type": "deal", "seat": 3, "cards": record()["players"][1]["cards"]},
        {"type": "deal", "seat": 1, "cards": record()["designated_player"]["cards"]},
        {"type": "raise", "seat": 2, "amount": 1000},
        {"type": "raise", "seat": 3, "amount": 2000},
    ]
    stored_actions = list(
        HandAction.objects.filter(hand_id=hand["id"])
        .order_by("index")
        .values_list("action", flat=True)
    )
    assert stored_actions == actions
    # The imported record is one audit entry listing every action, in order.
    [logged] = AuditEntry.objects.filter(action="hand_actions", hand_id=hand["id"])
    assert logged.after == {"from_index": 0, "actions": actions}
    assert settlement.rake == 300
    stored = {
        (line.seat.seat, line.wager): line.amount
        for line in PayoutLine.objects.filter(seat__settlement=settlement)
        if line.against is None
    }
    assert stored[(2, "flush_bonus")] == -500 and stored[(3, "raise")] == 2000
    assert {s.seat: s.rake for s in settlement.seats.all()} == {1: 100, 2: 100, 3: 100}
    assert Hand.objects.get(pk=hand["id"]).status == "settled"
    entry = AuditEntry.objects.get(action="hand_settle", hand_id=hand["id"])
    assert entry.actor_name == "dealer"
    assert entry.before == {"status": "open"}
    assert entry.after["rake"] == 300 and entry.after["nets"]["3"] == 3000 - 100


def test_settlement_is_readable_by_compliance(dp_table, dealer, compliance, client_for):
    client = client_for(dealer)
    hand = open_hand(client, dp_table)
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    response = client_for(compliance).get(f"/api/v1/settlements/{settled.json()['settlement']}/")
    assert response.status_code == 200
    assert response.json()["rake"] == 300
    assert (
        client_for(compliance)
        .post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
        .status_code
        == 403
    )


def test_settle_with_the_same_key_and_body_replays_the_first_answer(dp_table, dealer, client_for):
    client = client_for(dealer)
    hand = open_hand(client, dp_table)
    url = f"/api/v1/hands/{hand['id']}/settle/"
    first = client.post(url, record(), format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    again = client.post(url, record(), format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert Settlement.objects.filter(hand_id=hand["id"]).count() == 1
    assert AuditEntry.objects.filter(action="hand_settle").count() == 1


def test_same_key_with_another_body_is_a_409(dp_table, dealer, client_for):
    client = client_for(dealer)
    hand = open_hand(client, dp_table)
    url = f"/api/v1/hands/{hand['id']}/settle/"
    client.post(url, record(), format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    other = record()
    other["players"][0]["raise"] = 0
    response = client.post(url, other, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert response.status_code == 409
    assert "different request" in response.json()["detail"]


def test_a_second_settle_with_another_key_is_a_409(dp_table, dealer, client_for):
    client = client_for(dealer)
    hand = open_hand(client, dp_table)
    url = f"/api/v1/hands/{hand['id']}/settle/"
    assert client.post(url, record(), format="json", HTTP_IDEMPOTENCY_KEY="k-1").status_code == 201
    response = client.post(url, record(), format="json", HTTP_IDEMPOTENCY_KEY="k-2")
    assert response.status_code == 409
    assert "already settled" in response.json()["detail"]
    assert Settlement.objects.count() == 1


def _with(path, value):
    data = record()
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("data", "path"),
    [
        pytest.param(
            _with(["players", 1, "cards", 0], "Ah"), "players[1].cards", id="duplicate-card"
        ),
        pytest.param(
            _with(["players", 1, "cards"], ["Jd", "9d"]), "players[1].cards", id="wrong-card-count"
        ),
        pytest.param(
            _with(["players", 1, "cards", 0], "1x"), "players[1].cards[0]", id="unknown-card"
        ),
        pytest.param(
            _with(["players", 1, "raise"], 3000), "players[1].raise", id="raise-out-of-bounds"
        ),
        pytest.param(_with(["players", 1, "seat"], 2), "players[1].seat", id="seat-twice"),
        pytest.param(_with(["players", 0, "ante"], -100), "players[0].ante", id="negative-money"),
        pytest.param(
            _with(["players", 0, "ante"], 50), "players[0].ante", id="ante-below-table-minimum"
        ),
        pytest.param(_with(["players", 1, "seat"], 6), "players[1].seat", id="seat-not-in-play"),
        pytest.param(
            _with(["designated_player", "seat"], 4),
            "designated_player.seat",
            id="wrong-designated-player",
        ),
        pytest.param(
            _with(["designated_player", "bank"], 1000),
            "designated_player.bank",
            id="bank-differs-from-posted",
        ),
    ],
)
def test_bad_settle_is_a_400_and_nothing_is_written(data, path, dp_table, dealer, client_for):
    client = client_for(dealer)
    hand = open_hand(client, dp_table)
    entries = AuditEntry.objects.count()
    response = client.post(
        f"/api/v1/hands/{hand['id']}/settle/", data, format="json", HTTP_IDEMPOTENCY_KEY="bad-1"
    )
    assert response.status_code == 400, response.json()
    assert any(e["path"].startswith(path) for e in response.json()["errors"]), response.json()
    assert Settlement.objects.count() == 0
    assert HandAction.objects.count() == 0
    assert Hand.objects.get(pk=hand["id"]).status == "open"
    assert AuditEntry.objects.count() == entries
    # The key was not used up: the corrected record settles with it.
    fixed = client.post(
        f"/api/v1/hands/{hand['id']}/settle/", record(), format="json", HTTP_IDEMPOTENCY_KEY="bad-1"
    )
    assert fixed.status_code == 201


def test_after_a_hand_the_position_is_offered_to_the_next_seat(dp_table, dealer, client_for):
    client = client_for(dealer)
    hand = open_hand(client, dp_table)
    client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    game = client.get(f"/api/v1/tables/{dp_table.pk}/game/").json()
    assert game["state"]["designated_player"] is None and game["state"]["bank"] is None
    assert game["state"]["offer_seat"] == 2 and game["state"]["last_holder"] == 1
    assert [(a["type"], a["seat"]) for a in game["actions"]] == [("accept", 2), ("decline", 2)]
    assert (game["events"][0]["kind"], game["events"][0]["hand"]) == ("rotation_offer", hand["id"])
    refused = client.post(f"/api/v1/tables/{dp_table.pk}/hands/")
    assert refused.status_code == 409
    assert "rule 15 (" in refused.json()["detail"]
    assert "the offer is with seat 2" in refused.json()["detail"]


def test_settling_an_unfinished_hand_is_a_400_and_nothing_is_written(dp_table, dealer, client_for):
    """An empty body settles a hand from its own actions; a new HCF hand has none yet."""
    client = client_for(dealer)
    hand = open_hand(client, dp_table)
    entries = AuditEntry.objects.count()
    response = client.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json")
    assert response.status_code == 400, response.json()
    assert "not finished" in response.json()["detail"]
    assert Settlement.objects.count() == 0 and HandAction.objects.count() == 0
    assert Hand.objects.get(pk=hand["id"]).status == "open"
    assert AuditEntry.objects.count() == entries
    # The record still settles it.
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    assert settled.status_code == 201, settled.json()


def test_a_hand_played_action_by_action_settles_like_its_record(dp_table, dealer, client_for):
    """The same hand entered live, one action at a time, then settled with ``{}``, pays as
    the posted record does."""
    client = client_for(dealer)
    hand = open_hand(client, dp_table)
    url = f"/api/v1/hands/{hand['id']}/actions/"
    actions = [
        {"type": "wager", "seat": 2, "ante": 1000, "flush_bonus": 500},
        {"type": "wager", "seat": 3, "ante": 1000},
        {"type": "deal", "seat": 1, "cards": record()["designated_player"]["cards"]},
        {"type": "deal", "seat": 2, "cards": record()["players"][0]["cards"]},
        {"type": "deal", "seat": 3, "cards": record()["players"][1]["cards"]},
        {"type": "raise", "seat": 2, "amount": 1000},
        {"type": "raise", "seat": 3, "amount": 2000},
    ]
    for action in actions:
        step = client.post(url, action, format="json")
        assert step.status_code == 200, (action, step.json())
    assert step.json()["phase"] == "complete"
    # A record on top of recorded actions is refused.
    twice = client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    assert twice.status_code == 409
    assert "already has recorded actions; settle it from them" in twice.json()["detail"]
    assert not Settlement.objects.filter(hand_id=hand["id"]).exists()
    assert HandAction.objects.filter(hand_id=hand["id"]).count() == len(actions)
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json")
    assert settled.status_code == 201, settled.json()
    nets = {s["seat"]: s["net"] for s in settled.json()["seats"]}
    assert nets == {1: 2500 - 3000 - 100, 2: -2500 - 100, 3: 3000 - 100}
    assert settled.json()["rake"] == 300
    assert Table.objects.get(pk=dp_table.pk).game_state["offer"] == 2
