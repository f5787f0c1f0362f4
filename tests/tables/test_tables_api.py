"""Tables, seats and dealer assignment through the API."""

from __future__ import annotations

import pytest

from payouts.models import AuditEntry
from tables.models import Table, TableEvent

pytestmark = pytest.mark.django_db

NEW_TABLE = {
    "name": "HCF-9",
    "game": "high-card-flush",
    "limits": {"ante_min": 500, "ante_max": 5000, "bank_min": 10_000, "bank_max": 200_000},
    "smallest_chip": 25,
    "rules": {"coverage": "original_bank", "rake": {"scheme": "dp_only", "amount": 100}},
}


@pytest.mark.parametrize(("who", "status"), [("floor", 201), ("dealer", 403), ("compliance", 403)])
def test_only_floor_managers_create_tables(who, status, client_for, request, dealer):
    response = client_for(request.getfixturevalue(who)).post(
        "/api/v1/tables/", NEW_TABLE, format="json"
    )
    assert response.status_code == status, response.json()
    if status == 201:
        body = response.json()
        assert body["status"] == "closed" and len(body["seats"]) == 7
        assert body["rules"]["coverage"] == "original_bank"
        assert body["limits"] == NEW_TABLE["limits"] and body["smallest_chip"] == 25
        assert body["next_hand_number"] == 1 and body["dealer"] is None
        # The game's state between hands is read at /game/, not on the table.
        for removed in ("rotation_policy", "game_state", "dp_seat", "dp_bank", "offer_seat"):
            assert removed not in body
        assert AuditEntry.objects.filter(action="table_create").count() == 1
    else:
        assert Table.objects.count() == 0


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"limits": {**NEW_TABLE["limits"], "ante_min": 6000}}, "ante_max"),
        ({"limits": {**NEW_TABLE["limits"], "ante_min": -5}}, "ante_min"),
        ({"limits": {**NEW_TABLE["limits"], "big_blind": 5}}, "limits.big_blind"),
        ({"limits": {"ante_min": 500}}, "bank_max"),
        ({"rules": {"flush_paytable": {"3": 1}}}, "rules.flush_paytable"),
        ({"rules": {"rake": {"scheme": "everyone", "amount": 5}}}, "rules.rake.scheme"),
        ({"game": "blackjack"}, "game"),
        (
            {"rules": {"rotation_policy": {"max_consecutive": 0}}},
            "rules.rotation_policy.max_consecutive",
        ),
        ({"rules": {"rotation_policy": {"everyone": 2}}}, "rules.rotation_policy.everyone"),
        ({"smallest_chip": 0}, "smallest_chip"),
        ({"seat_count": 8}, "seat_count"),
    ],
)
def test_invalid_tables_are_refused_with_the_field_named(change, path, floor, client_for):
    response = client_for(floor).post("/api/v1/tables/", {**NEW_TABLE, **change}, format="json")
    assert response.status_code == 400, response.json()
    assert any(e["path"].startswith(path) for e in response.json()["errors"]), response.json()
    assert Table.objects.count() == 0


def test_a_table_is_created_with_its_rotation_policy(floor, client_for):
    client = client_for(floor)
    rules = {**NEW_TABLE["rules"], "rotation_policy": {"max_consecutive": 3}}
    response = client.post("/api/v1/tables/", {**NEW_TABLE, "rules": rules}, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["rules"]["rotation_policy"] == {"max_consecutive": 3}
    game = client.get(f"/api/v1/tables/{response.json()['id']}/game/").json()
    assert game["game"] == "high-card-flush"
    assert game["state"]["policy"] == {
        "max_consecutive": 3,
        "window_minutes": 40,
        "min_distinct": 2,
    }
    assert game["state"]["bank_limits"] == {"min": 10_000, "max": 200_000}
    # A closed table offers the position to nobody.
    assert game["state"]["offer_seat"] is None and game["events"] == []


def test_floor_manager_opens_and_closes_a_table(open_table, floor, dealer, client_for):
    url = f"/api/v1/tables/{open_table.pk}/status/"
    assert client_for(dealer).post(url, {"status": "closed"}, format="json").status_code == 403
    again = client_for(floor).post(url, {"status": "open"}, format="json")
    assert again.status_code == 409 and "already open" in again.json()["detail"]
    closed = client_for(floor).post(url, {"status": "closed"}, format="json")
    assert closed.status_code == 200 and closed.json()["status"] == "closed"
    refused = client_for(dealer).post(f"/api/v1/tables/{open_table.pk}/hands/")
    assert refused.status_code == 409 and "closed" in refused.json()["detail"]


def test_a_table_with_an_open_hand_cannot_close(dp_table, floor, dealer, client_for):
    client_for(dealer).post(f"/api/v1/tables/{dp_table.pk}/hands/")
    response = client_for(floor).post(
        f"/api/v1/tables/{dp_table.pk}/status/", {"status": "closed"}, format="json"
    )
    assert response.status_code == 409 and "open hand" in response.json()["detail"]


def test_assigning_the_dealer_moves_who_may_deal(
    open_table, floor, dealer, other_dealer, client_for
):
    url = f"/api/v1/tables/{open_table.pk}/dealer/"
    assert (
        client_for(dealer).post(url, {"dealer": "other_dealer"}, format="json").status_code == 403
    )
    response = client_for(floor).post(url, {"dealer": "other_dealer"}, format="json")
    assert response.status_code == 200 and response.json()["dealer"] == "other_dealer"
    seat_url = f"/api/v1/tables/{open_table.pk}/seats/5/"
    assert client_for(dealer).post(seat_url, {"player": "Eva"}, format="json").status_code == 403
    assert (
        client_for(other_dealer).post(seat_url, {"player": "Eva"}, format="json").status_code == 200
    )
    not_dealer = client_for(floor).post(url, {"dealer": "floor"}, format="json")
    assert not_dealer.status_code == 400 and not_dealer.json()["errors"][0]["path"] == "dealer"


def test_seating_players_and_sitting_out(open_table, dealer, client_for):
    client = client_for(dealer)
    response = client.post(
        f"/api/v1/tables/{open_table.pk}/seats/5/",
        {"player": "Eva", "sitting_out": False},
        format="json",
    )
    assert response.json() == {"number": 5, "player": "Eva", "sitting_out": False, "in_play": True}
    # Seat 1 is offered the position; sitting out passes the offer to seat 2.
    client.post(
        f"/api/v1/tables/{open_table.pk}/seats/1/",
        {"player": "Ana", "sitting_out": True},
        format="json",
    )
    game = client.get(f"/api/v1/tables/{open_table.pk}/game/").json()
    assert game["state"]["offer_seat"] == 2
    assert [(a["type"], a["seat"]) for a in game["actions"]] == [("accept", 2), ("decline", 2)]
    assert (game["events"][0]["kind"], game["events"][0]["data"]["seat"]) == ("rotation_offer", 2)
    missing = client.post(
        f"/api/v1/tables/{open_table.pk}/seats/9/", {"player": "X"}, format="json"
    )
    assert missing.status_code == 400 and "seats 1-7" in missing.json()["detail"]
    entry = AuditEntry.objects.filter(action="seat_update").last()
    assert entry.before == {"player": "Ana", "sitting_out": False}
    assert entry.after == {"player": "Ana", "sitting_out": True}


def test_the_designated_player_leaving_passes_the_position_on(dp_table, dealer, client_for):
    client = client_for(dealer)
    left = client.post(f"/api/v1/tables/{dp_table.pk}/seats/1/", {"player": ""}, format="json")
    assert left.status_code == 200, left.json()
    state = client.get(f"/api/v1/tables/{dp_table.pk}/game/").json()["state"]
    assert state["designated_player"] is None and state["bank"] is None
    assert state["offer_seat"] == 2
    offer = TableEvent.objects.filter(table=dp_table).order_by("at", "id").last()
    assert (offer.kind, offer.data["seat"], offer.by.username) == ("rotation_offer", 2, "dealer")
    audited = AuditEntry.objects.filter(action="rotation_offer").last()
    assert audited.after == offer.data and audited.before["designated_player"] == 1
    refused = client.post(f"/api/v1/tables/{dp_table.pk}/hands/")
    assert refused.status_code == 409 and "rule 15 (" in refused.json()["detail"]


def test_a_player_in_an_open_hand_cannot_leave(dp_table, dealer, client_for):
    client = client_for(dealer)
    client.post(f"/api/v1/tables/{dp_table.pk}/hands/")
    response = client.post(f"/api/v1/tables/{dp_table.pk}/seats/2/", {"player": ""}, format="json")
    assert response.status_code == 409 and "hand 1" in response.json()["detail"]


def test_table_creation_is_idempotent_with_a_key(floor, client_for):
    client = client_for(floor)
    first = client.post("/api/v1/tables/", NEW_TABLE, format="json", HTTP_IDEMPOTENCY_KEY="t")
    second = client.post("/api/v1/tables/", NEW_TABLE, format="json", HTTP_IDEMPOTENCY_KEY="t")
    assert first.status_code == second.status_code == 201
    assert second.json()["id"] == first.json()["id"]
    assert second["Idempotent-Replay"] == "true"
    assert Table.objects.count() == 1


def test_a_table_needs_at_least_two_seats_whoever_creates_it(floor):
    """The API's serializer says so, and so does the service behind every page."""
    from casino.rules.errors import RuleError
    from tables import services
    from tables.models import Table

    with pytest.raises(RuleError) as refused:
        services.table_create(
            user=floor, name="X", game="pontoon", seat_count=1, limits={"stake_min": 100}
        )
    problem = refused.value.problems[0]
    assert problem.path == "seat_count" and "at least 2 seats" in problem.message
    assert not Table.objects.filter(name="X").exists()
