"""Carrying the table forward: GET /tables/{id}/game/ proposes the next opening body
(``proposal``), each player's stack as the last settled hand left it, so the dealer confirms
or corrects it rather than typing every stack again (``Game.opening_proposal``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import DRAW_HANDS
from tests.tables import test_palace_live

pytestmark = pytest.mark.django_db

palace_table = test_palace_live.palace_table  # the fixture: seats 1-3 at limit 500/1000
PLAYERS = test_palace_live.PLAYERS

OPENING = {1: 10_000, 2: 8_000, 3: 12_000}  # 7-A stacks before the blinds, by seat


def game_view(client: Any, table: Any) -> dict[str, Any]:
    response = client.get(f"/api/v1/tables/{table.pk}/game/")
    assert response.status_code == 200, response.json()
    return response.json()


def seat(client: Any, table: Any, number: int, player: str, sitting_out: bool = False) -> None:
    response = client.post(
        f"/api/v1/tables/{table.pk}/seats/{number}/",
        {"player": player, "sitting_out": sitting_out},
        format="json",
    )
    assert response.status_code == 200, response.json()


def stacks(proposal: dict[str, Any], key: str) -> dict[int, int | None]:
    """The proposal's stack by seat (None: a seat proposed with no stack known)."""
    return {entry["seat"]: entry.get("stack") for entry in proposal[key]}


# ---------------------------------------------------------------- Five Card Draw 7-A


def open_draw(client: Any, table: Any, stacks_by_seat: dict[int, int]) -> dict[str, Any]:
    dealt_in = game_view(client, table)["next_seats"]
    body = {
        "seats": [{"seat": s, "stack": stacks_by_seat[s], "cards": DRAW_HANDS[s]} for s in dealt_in]
    }
    response = client.post(f"/api/v1/tables/{table.pk}/hands/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def settle_draw(client: Any, hand: dict[str, Any]) -> dict[str, Any]:
    """Everyone calls or checks and stands pat; the hand is settled from its actions."""
    state = hand["state"]
    while state["to_act"] is not None:
        seat_ = state["to_act"]
        legal = {a["type"] for a in state["legal_actions"]}
        if "draw" in legal:
            action = {"seat": seat_, "type": "draw", "discard": [], "receive": []}
        else:
            action = {"seat": seat_, "type": "check" if "check" in legal else "call"}
        response = client.post(f"/api/v1/hands/{hand['id']}/actions/", action, format="json")
        assert response.status_code == 200, response.json()
        state = response.json()
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json")
    assert settled.status_code == 201, settled.json()
    return settled.json()


def test_a_fresh_7a_table_proposes_its_seats_with_no_stacks(draw_table, dealer, client_for):
    view = game_view(client_for(dealer), draw_table)
    assert view["proposal"] == {"seats": [{"seat": 1}, {"seat": 2}, {"seat": 3}]}
    assert [entry["seat"] for entry in view["proposal"]["seats"]] == view["next_seats"]


def test_a_settled_7a_hand_carries_every_stack_forward(draw_table, dealer, client_for):
    client = client_for(dealer)
    hand = open_draw(client, draw_table, OPENING)
    result = settle_draw(client, hand)
    nets = {s["seat"]: s["net"] for s in result["seats"]}
    assert result["rake"] == 50 and nets[1] > 0  # seat 1's full house wins
    view = game_view(client, draw_table)
    proposal = stacks(view["proposal"], "seats")
    assert proposal == {s: OPENING[s] + nets[s] for s in OPENING}
    # Chips are conserved: the table holds what it held, less the rake.
    assert sum(proposal.values()) == sum(OPENING.values()) - result["rake"]
    assert [entry["seat"] for entry in view["proposal"]["seats"]] == view["next_seats"]
    # The proposal is a body the next hand opens with, once the cards are added.
    confirmed = open_draw(client, draw_table, proposal)
    assert {s["seat"]: s["stack"] for s in confirmed["config"]["seats"]} == proposal
    # The table view is as it was: the stacks are in the proposal only.
    assert "stacks" not in view["state"]


def test_a_voided_7a_hand_keeps_the_earlier_proposal(
    draw_table, dealer, floor, client_for, void_hand
):
    client = client_for(dealer)
    settle_draw(client, open_draw(client, draw_table, OPENING))
    before = game_view(client, draw_table)["proposal"]
    corrected = {s: stack + 5_000 for s, stack in stacks(before, "seats").items()}  # rebuys
    hand = open_draw(client, draw_table, corrected)
    assert game_view(client, draw_table)["proposal"] == before  # while the hand is open
    void_hand(hand["id"], asks=dealer, approves=floor)
    assert game_view(client, draw_table)["proposal"] == before


def test_a_voided_first_7a_hand_proposes_no_stacks(
    draw_table, dealer, floor, client_for, void_hand
):
    client = client_for(dealer)
    hand = open_draw(client, draw_table, OPENING)
    void_hand(hand["id"], asks=dealer, approves=floor)
    assert all("stack" not in entry for entry in game_view(client, draw_table)["proposal"]["seats"])


def test_a_7a_player_who_leaves_takes_the_stack_and_sitting_out_keeps_it(
    draw_table, dealer, client_for
):
    client = client_for(dealer)
    settle_draw(client, open_draw(client, draw_table, OPENING))
    carried = stacks(game_view(client, draw_table)["proposal"], "seats")
    # Seat 3 sits out and comes back: still Csilla's stack.
    seat(client, draw_table, 3, "Csilla", sitting_out=True)
    assert 3 not in stacks(game_view(client, draw_table)["proposal"], "seats")
    seat(client, draw_table, 3, "Csilla")
    assert stacks(game_view(client, draw_table)["proposal"], "seats")[3] == carried[3]
    # Ana gives seat 1 to Zoltan, who takes the big blind with no stack of his own; Ana coming
    # back to the seat later starts afresh too (her chips left with her).
    seat(client, draw_table, 1, "Zoltan")
    view = game_view(client, draw_table)
    assert view["state"]["next_hand"]["big_blind"] == 1 and 1 in view["next_seats"]
    assert stacks(view["proposal"], "seats") == {1: None, 2: carried[2], 3: carried[3]}
    seat(client, draw_table, 1, "")
    seat(client, draw_table, 1, "Ana")
    assert stacks(game_view(client, draw_table)["proposal"], "seats").get(1) is None


def test_a_between_hand_action_answers_with_the_proposal(draw_table, dealer, client_for):
    client = client_for(dealer)
    settle_draw(client, open_draw(client, draw_table, OPENING))
    carried = game_view(client, draw_table)["proposal"]
    seat(client, draw_table, 2, "Bela", sitting_out=True)
    answer = client.post(
        f"/api/v1/tables/{draw_table.pk}/game/actions/",
        {"type": "blind_choice", "seat": 2, "choice": "wait"},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    assert stacks(answer.json()["proposal"], "seats") == {
        s: stack for s, stack in stacks(carried, "seats").items() if s != 2
    }


# ---------------------------------------------------------------- Palace Poker

BATTLES = [  # seat 1's aces take the pot: nets +2000, -1750, -250 (test_palace_live)
    {"seat": 2, "type": "battle", "target": 3, "amount": 500},
    {"seat": 3, "type": "fold"},
    {"seat": 1, "type": "battle", "target": 2, "amount": 500},
    {"seat": 2, "type": "call"},
]


def open_palace(client: Any, table: Any, stacks_by_seat: dict[int, int]) -> dict[str, Any]:
    players = [{**p, "stack": stacks_by_seat[p["seat"]]} for p in PLAYERS]
    response = client.post(f"/api/v1/tables/{table.pk}/hands/", {"players": players}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def settle_palace(client: Any, hand: dict[str, Any]) -> dict[str, Any]:
    for step in BATTLES:
        response = client.post(f"/api/v1/hands/{hand['id']}/actions/", step, format="json")
        assert response.status_code == 200, (step, response.json())
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json")
    assert settled.status_code == 201, settled.json()
    return settled.json()


def test_a_settled_palace_hand_carries_every_stack_forward(palace_table, dealer, client_for):
    client = client_for(dealer)
    opening = {1: 20_000, 2: 15_000, 3: 9_000}
    assert game_view(client, palace_table)["proposal"] == {
        "players": [{"seat": 1}, {"seat": 2}, {"seat": 3}]
    }
    result = settle_palace(client, open_palace(client, palace_table, opening))
    nets = {s["seat"]: s["net"] for s in result["seats"]}
    assert nets == {1: 2000, 2: -1750, 3: -250}
    view = game_view(client, palace_table)
    proposal = stacks(view["proposal"], "players")
    assert proposal == {1: 22_000, 2: 13_250, 3: 8_750}
    assert sum(proposal.values()) == sum(opening.values()) - result["rake"]
    # The table view is the dealer button, as before.
    assert view["state"] == {"last_dealer": 1, "next_dealer": 2}
    # The next hand opens with the proposal confirmed.
    confirmed = open_palace(client, palace_table, proposal)
    assert {p["seat"]: p["stack"] for p in confirmed["config"]["players"]} == proposal


def test_a_voided_palace_hand_keeps_the_earlier_proposal(
    palace_table,
    dealer,
    floor,
    client_for,
    void_hand,
):
    client = client_for(dealer)
    settle_palace(client, open_palace(client, palace_table, {1: 20_000, 2: 20_000, 3: 20_000}))
    before = game_view(client, palace_table)["proposal"]
    hand = open_palace(client, palace_table, {1: 30_000, 2: 30_000, 3: 30_000})
    void_hand(hand["id"], asks=dealer, approves=floor)
    assert game_view(client, palace_table)["proposal"] == before


def test_a_new_palace_player_in_a_seat_gets_no_carried_stack(palace_table, dealer, client_for):
    client = client_for(dealer)
    settle_palace(client, open_palace(client, palace_table, {1: 20_000, 2: 20_000, 3: 20_000}))
    seat(client, palace_table, 3, "Zoltan")  # Csilla's seat, taken over between hands
    proposal = stacks(game_view(client, palace_table)["proposal"], "players")
    assert proposal == {1: 22_000, 2: 18_250, 3: None}


# ---------------------------------------------------------------- games without stacks


def test_a_game_without_stacks_proposes_nothing(open_table, dealer, client_for):
    assert game_view(client_for(dealer), open_table)["proposal"] == {}


def test_the_api_document_shows_the_proposal(client_for, dealer):
    document = client_for(dealer).get("/api/schema/", HTTP_ACCEPT="application/json").json()
    schema = document["components"]["schemas"]["GameState"]
    assert schema["properties"]["proposal"]["type"] == "object"
    assert "proposal" in schema["required"]
