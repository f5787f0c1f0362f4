"""Designated-player rotation (brief clauses 15-17) through the table API."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from payouts.models import AuditEntry
from tables.models import Hand, RotationEvent
from tests.conftest import DP_CARDS, P2_CARDS, P3_CARDS

pytestmark = pytest.mark.django_db


def rotation_url(table):
    return f"/api/v1/tables/{table.pk}/rotation/"


def decide(client, table, seat, decision, bank=None):
    body = {"seat": seat, "decision": decision}
    if bank is not None:
        body["bank"] = bank
    return client.post(rotation_url(table), body, format="json")


def decline_until(client, table, seat):
    """Offered seats decline until the offer reaches ``seat``."""
    for _ in range(10):
        offered = client.get(rotation_url(table)).json()["offer_seat"]
        if offered == seat:
            return
        assert decide(client, table, offered, "decline").status_code == 200
    raise AssertionError(f"the offer never reached seat {seat}")


def play_hand(client, table, dp_seat, players=(2, 3)):
    """Open and settle one hand with ``dp_seat`` as DP against ``players``."""
    hand = client.post(f"/api/v1/tables/{table.pk}/hands/")
    assert hand.status_code == 201, hand.json()
    cards = [P2_CARDS, P3_CARDS]
    data = {
        "designated_player": {"seat": dp_seat, "cards": DP_CARDS},
        "players": [
            {"seat": seat, "cards": cards[i], "ante": 1000, "raise": 1000}
            for i, seat in enumerate(players)
        ],
    }
    settled = client.post(f"/api/v1/hands/{hand.json()['id']}/settle/", data, format="json")
    assert settled.status_code == 201, settled.json()
    return hand.json()


def test_clause_15_opening_the_table_offers_the_position_to_the_first_seat(
    open_table, dealer, client_for
):
    state = client_for(dealer).get(rotation_url(open_table)).json()
    assert state["offer_seat"] == 1 and state["designated_player"] is None
    assert [(e["kind"], e["seat"]) for e in state["events"]] == [("offer", 1)]


def test_clause_15_declines_pass_the_offer_clockwise_and_are_recorded(
    open_table, dealer, client_for
):
    client = client_for(dealer)
    assert decide(client, open_table, 1, "decline").json()["offer_seat"] == 2
    state = decide(client, open_table, 2, "accept", bank=20_000).json()
    assert state["designated_player"] == 2 and state["bank"] == 20_000
    kinds = list(
        RotationEvent.objects.filter(table=open_table).values_list("kind", "seat", "by__username")
    )
    assert kinds == [
        ("offer", 1, "floor"),
        ("decline", 1, "dealer"),
        ("offer", 2, "dealer"),
        ("accept", 2, "dealer"),
    ]
    assert AuditEntry.objects.filter(action="rotation_accept", table=open_table).count() == 1


def test_only_the_offered_seat_may_answer(open_table, dealer, client_for):
    response = decide(client_for(dealer), open_table, 3, "accept", bank=20_000)
    assert response.status_code == 409
    assert "offered to seat 1" in response.json()["detail"]


def test_clause_16_an_offer_round_without_acceptance_stops_the_game(open_table, dealer, client_for):
    client = client_for(dealer)
    for seat in (1, 2, 3, 4):
        assert decide(client, open_table, seat, "decline").status_code == 200
    state = client.get(rotation_url(open_table)).json()
    assert state["stopped"] is True and state["offer_seat"] == 1
    refused = client.post(f"/api/v1/tables/{open_table.pk}/hands/")
    assert refused.status_code == 409
    assert "clause 16" in refused.json()["detail"]
    assert Hand.objects.count() == 0
    # The offer keeps going round; an acceptance restarts the game.
    assert decide(client, open_table, 1, "accept", bank=10_000).json()["stopped"] is False
    assert client.post(f"/api/v1/tables/{open_table.pk}/hands/").status_code == 201


def test_clause_17_bank_outside_the_table_limits_is_refused(open_table, dealer, client_for):
    response = decide(client_for(dealer), open_table, 1, "accept", bank=1_000)
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["path"] == "bank" and "5000-1000000" in error["message"]


def test_clause_17_consecutive_hand_cap(open_table, dealer, client_for):
    client = client_for(dealer)
    decide(client, open_table, 1, "accept", bank=50_000)
    play_hand(client, open_table, 1)
    # Seats 2, 3, 4 decline; it comes back to seat 1 who accepts a second hand.
    for seat in (2, 3, 4):
        decide(client, open_table, seat, "decline")
    assert decide(client, open_table, 1, "accept", bank=50_000).status_code == 200
    play_hand(client, open_table, 1)
    for seat in (2, 3, 4):
        decide(client, open_table, seat, "decline")
    third = decide(client, open_table, 1, "accept", bank=50_000)
    assert third.status_code == 400
    assert "2 hands in a row" in third.json()["detail"]
    assert "clause 17" in third.json()["detail"]


def _age_hands(minutes_ago):
    now = timezone.now()
    for hand, minutes in zip(Hand.objects.order_by("number"), minutes_ago, strict=True):
        Hand.objects.filter(pk=hand.pk).update(opened_at=now - timedelta(minutes=minutes))


@pytest.mark.parametrize(("second_dp", "allowed"), [(1, False), (2, True)])
def test_clause_17_distinct_holders_in_the_rolling_window(
    second_dp, allowed, open_table, floor, floor2, dealer, client_for
):
    """One player may not hold the position for a whole 40-minute window (K=2)."""
    client = client_for(dealer)
    change = client_for(floor).post(
        f"/api/v1/tables/{open_table.pk}/changes/",
        {"changes": {"rotation_policy": {"max_consecutive": 9}}},
        format="json",
    )
    client_for(floor2).post(f"/api/v1/changes/{change.json()['id']}/approve/", {}, format="json")
    decide(client, open_table, 1, "accept", bank=50_000)
    play_hand(client, open_table, 1)
    decline_until(client, open_table, second_dp)
    decide(client, open_table, second_dp, "accept", bank=50_000)
    play_hand(client, open_table, second_dp, players=(3, 4))
    _age_hands([45, 20])  # hand 1 began before the window, hand 2 inside it
    decline_until(client, open_table, 1)
    response = decide(client, open_table, 1, "accept", bank=50_000)
    if allowed:
        assert response.status_code == 200, response.json()
    else:
        assert response.status_code == 400
        assert "at least 2 different players" in response.json()["detail"]
        assert "clause 17" in response.json()["detail"]


def test_the_table_refuses_to_open_a_hand_that_breaks_the_policy(
    dp_table, dealer, floor2, client_for, floor
):
    """The policy can tighten after acceptance (approved change): the open is refused."""
    client = client_for(dealer)
    play_hand(client, dp_table, 1)
    for seat in (2, 3, 4):
        decide(client, dp_table, seat, "decline")
    decide(client, dp_table, 1, "accept", bank=50_000)
    change = client_for(floor).post(
        f"/api/v1/tables/{dp_table.pk}/changes/",
        {"changes": {"rotation_policy": {"max_consecutive": 1}}},
        format="json",
    )
    client_for(floor2).post(f"/api/v1/changes/{change.json()['id']}/approve/", {}, format="json")
    refused = client.post(f"/api/v1/tables/{dp_table.pk}/hands/")
    assert refused.status_code == 409
    assert "at most 1" in refused.json()["detail"]


def test_compliance_cannot_record_rotation_decisions(open_table, compliance, client_for):
    assert decide(client_for(compliance), open_table, 1, "decline").status_code == 403
