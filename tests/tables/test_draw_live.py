"""Five Card Draw 7-A at a live table: blinds from the table's history, actions one at a
time, settlement from the hand's own log, and missed blinds (ML/MS) with a returning player's
choice as a between-hand action of the game (``/tables/{id}/game/``)."""

from __future__ import annotations

import pytest

from payouts.audit import audit_report
from payouts.models import AuditEntry, Settlement
from tables import services
from tables.models import HandAction, TableEvent
from tests.conftest import DRAW_HANDS, DRAW_PLAYERS

pytestmark = pytest.mark.django_db


def game_view(client, table):
    response = client.get(f"/api/v1/tables/{table.pk}/game/")
    assert response.status_code == 200, response.json()
    return response.json()


def next_hand(client, table):
    """The next hand's button, blinds, posts, waiting seats and markers, as they stand now."""
    return game_view(client, table)["state"]["next_hand"]


def game_act(client, table, action, **headers):
    return client.post(f"/api/v1/tables/{table.pk}/game/actions/", action, format="json", **headers)


def open_hand(client, table, stacks=None):
    preview = next_hand(client, table)
    seats = [
        {"seat": seat, "stack": (stacks or {}).get(seat, 10_000), "cards": DRAW_HANDS[seat]}
        for seat in preview["dealt_in"]
    ]
    response = client.post(f"/api/v1/tables/{table.pk}/hands/", {"seats": seats}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def act(client, hand_id, action):
    return client.post(f"/api/v1/hands/{hand_id}/actions/", action, format="json")


def play_passively(client, hand):
    """Everyone calls or checks, stands pat at the draw, checks to the showdown."""
    state = hand["state"]
    while state["to_act"] is not None:
        seat = state["to_act"]
        legal = {a["type"]: a for a in state["legal_actions"]}
        if "draw" in legal:
            action = {"seat": seat, "type": "draw", "discard": [], "receive": []}
        elif "check" in legal:
            action = {"seat": seat, "type": "check"}
        else:
            action = {"seat": seat, "type": "call"}
        response = act(client, hand["id"], action)
        assert response.status_code == 200, response.json()
        state = response.json()
    return state


def test_a_live_hand_from_blinds_to_settlement(draw_table, dealer, client_for):
    client = client_for(dealer)
    hand = open_hand(client, draw_table)
    config = hand["config"]
    posts = {p["type"]: p for p in config["posts"]}
    assert posts["small_blind"]["amount"] == 100 and posts["big_blind"]["amount"] == 200
    assert (config["button"], posts["small_blind"]["seat"], posts["big_blind"]["seat"]) == (1, 2, 3)
    assert hand["seats"] == [1, 2, 3]
    assert hand["state"]["to_act"] is not None
    state = play_passively(client, hand)
    assert state["to_act"] is None
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json")
    assert settled.status_code == 201, settled.json()
    body = settled.json()
    seats = {s["seat"]: s for s in body["seats"]}
    # Three players put in 200 each; seat 1's full house wins 600 less the 50 rake.
    assert seats[1]["lines"][0]["wager"] == "pot"
    assert seats[1]["net"] == 400 - seats[1]["rake"]
    assert seats[2]["net"] == seats[3]["net"] == -200
    assert body["rake"] == 50
    assert sum(s["net"] for s in body["seats"]) + body["rake"] == 0
    assert body["pots"][0]["winners"] == [1]
    stored = Settlement.objects.get(hand_id=hand["id"])
    assert stored.history["game"] == "five-card-draw-7a"
    assert stored.history["config"] == hand["config"]
    assert len(stored.history["actions"]) == HandAction.objects.filter(hand_id=hand["id"]).count()
    assert AuditEntry.objects.filter(action="hand_settle", hand_id=hand["id"]).exists()
    # Every live action is in the audit chain as it happened.
    logged = AuditEntry.objects.filter(action="hand_action", hand_id=hand["id"]).order_by("seq")
    assert [e.after["action"] for e in logged] == [
        a.action for a in HandAction.objects.filter(hand_id=hand["id"]).order_by("index")
    ]
    # The stored record re-settles through the engine to the same result (the audit check).
    report = audit_report()
    assert report["ok"], report["findings"]
    assert report["settlements_checked"] == 1
    # The button and blinds move one seat clockwise for the next hand.
    state = game_view(client, draw_table)["state"]
    assert (state["button"], state["small_blind"], state["big_blind"]) == (1, 2, 3)
    upcoming = state["next_hand"]
    assert (upcoming["button"], upcoming["small_blind"], upcoming["big_blind"]) == (2, 3, 1)


def test_an_illegal_action_is_a_400_naming_the_rule_and_nothing_is_stored(
    draw_table, dealer, client_for
):
    client = client_for(dealer)
    hand = open_hand(client, draw_table)
    to_act = hand["state"]["to_act"]
    other = next(s for s in hand["seats"] if s != to_act)
    response = act(client, hand["id"], {"seat": other, "type": "call"})
    assert response.status_code == 400
    assert "turn" in response.json()["detail"]
    assert HandAction.objects.count() == 0
    bad_raise = act(client, hand["id"], {"seat": to_act, "type": "raise", "to": 250})
    assert bad_raise.status_code == 400
    assert HandAction.objects.count() == 0


def test_an_unfinished_hand_cannot_be_settled(draw_table, dealer, client_for):
    client = client_for(dealer)
    hand = open_hand(client, draw_table)
    response = client.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json")
    assert response.status_code == 400
    assert Settlement.objects.count() == 0


def test_the_open_request_must_deal_exactly_the_seats_in_the_hand(draw_table, dealer, client_for):
    client = client_for(dealer)
    seats = [{"seat": 1, "stack": 1000, "cards": DRAW_HANDS[1]}]
    response = client.post(
        f"/api/v1/tables/{draw_table.pk}/hands/", {"seats": seats}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["path"] == "seats"


@pytest.mark.parametrize(("who", "status"), [("other_dealer", 403), ("compliance", 403)])
def test_only_the_tables_dealer_or_a_floor_manager_acts(
    who, status, draw_table, dealer, client_for, request
):
    hand = open_hand(client_for(dealer), draw_table)
    user = request.getfixturevalue(who)
    seat = hand["state"]["to_act"]
    assert act(client_for(user), hand["id"], {"seat": seat, "type": "call"}).status_code == status


def settle_passively(client, hand):
    play_passively(client, hand)
    response = client.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json")
    assert response.status_code == 201, response.json()


def test_a_player_away_when_the_big_blind_passes_gets_ml_and_posts_on_return(
    draw_table, dealer, client_for
):
    client = client_for(dealer)
    services.seat_update(
        user=dealer, table_id=draw_table.pk, number=4, player="Dani", sitting_out=False
    )
    assert game_view(client, draw_table)["state"]["new"] == [1, 2, 3, 4]
    for _ in range(2):
        settle_passively(client, open_hand(client, draw_table))
    state = game_view(client, draw_table)["state"]
    assert state["new"] == []  # everyone has been dealt a hand at their seat
    assert (state["button"], state["small_blind"], state["big_blind"]) == (2, 3, 4)
    # The next big blind goes away and misses it.
    away = state["next_hand"]["big_blind"]
    assert away == 1
    name = {**DRAW_PLAYERS, 4: "Dani"}[away]
    client.post(
        f"/api/v1/tables/{draw_table.pk}/seats/{away}/",
        {"player": name, "sitting_out": True},
        format="json",
    )
    hand = open_hand(client, draw_table)
    assert away not in hand["seats"]
    assert hand["seats"] == [2, 3, 4]
    settle_passively(client, hand)
    view = game_view(client, draw_table)
    assert view["state"]["markers"] == {str(away): ["ML"]}
    # The away player is offered the returning player's choice, owing the big blind.
    offered = [a for a in view["actions"] if a["type"] == "blind_choice"]
    assert offered == [
        {
            "type": "blind_choice",
            "seat": away,
            "owes": ["ML"],
            "choices": ["post_all", "wait"],  # post_small_dead settles MS alone: not offered
            "chosen": None,
        }
    ]
    # Back, choosing to post what is owed rather than wait for the big blind.
    back = client.post(
        f"/api/v1/tables/{draw_table.pk}/seats/{away}/",
        {"player": name, "sitting_out": False},
        format="json",
    )
    assert back.status_code == 200
    assert back.json() == {"number": away, "player": name, "sitting_out": False, "in_play": True}
    chose = game_act(
        client, draw_table, {"type": "blind_choice", "seat": away, "choice": "post_all"}
    )
    assert chose.status_code == 200, chose.json()
    chosen = chose.json()
    assert chosen["state"]["choices"] == {str(away): "post_all"}
    assert next(a for a in chosen["actions"] if a["seat"] == away)["chosen"] == "post_all"
    assert chosen["events"][0]["kind"] == "blind_choice"
    assert chosen["events"][0]["data"] == {"seat": away, "choice": "post_all"}
    # Seat 1 is between the button (4) and the small blind (2): it waits one hand (clause 13),
    # and its choice holds until it is used.
    preview = next_hand(client, draw_table)
    assert away not in preview["dealt_in"]
    assert "rule 13 (" in preview["waiting"][str(away)]
    settle_passively(client, open_hand(client, draw_table))
    assert game_view(client, draw_table)["state"]["choices"] == {str(away): "post_all"}
    preview = next_hand(client, draw_table)
    assert away in preview["dealt_in"]
    owed = {p["type"]: p["amount"] for p in preview["posts"] if p["seat"] == away}
    # Post all (clause 12): the big blind live and the small blind dead.
    assert owed == {"live": 200, "dead": 100}, preview
    hand = open_hand(client, draw_table)
    assert away in hand["seats"]
    assert {"seat": away, "type": "live", "amount": 200} in hand["config"]["posts"]
    entry = AuditEntry.objects.get(action="hand_open", hand_id=hand["id"])
    assert any(p["seat"] == away for p in entry.after["config"]["posts"])
    state = game_view(client, draw_table)["state"]
    assert state["markers"] == {}
    assert state["choices"] == {}  # the choice was used by the post
    choice = AuditEntry.objects.get(action="blind_choice")
    assert choice.after == {"seat": away, "choice": "post_all"}
    assert TableEvent.objects.filter(kind="blind_choice", table=draw_table).count() == 1


def test_a_blind_choice_names_a_seated_player_and_waits_for_the_hand_to_end(
    draw_table, dealer, client_for
):
    client = client_for(dealer)
    empty = game_act(client, draw_table, {"type": "blind_choice", "seat": 5, "choice": "post_all"})
    assert empty.status_code == 400
    assert [e["path"] for e in empty.json()["errors"]] == ["seat"]
    bad = game_act(client, draw_table, {"type": "blind_choice", "seat": 2, "choice": "later"})
    assert bad.status_code == 400
    assert [e["path"] for e in bad.json()["errors"]] == ["choice"]
    hand = open_hand(client, draw_table)
    during = game_act(client, draw_table, {"type": "blind_choice", "seat": 2, "choice": "wait"})
    assert during.status_code == 409
    assert "hand is in progress" in during.json()["detail"]
    view = game_view(client, draw_table)
    assert view["hand_open"] is True and view["actions"] == []
    assert view["state"]["choices"] == {}
    assert not TableEvent.objects.filter(kind="blind_choice").exists()
    assert not AuditEntry.objects.filter(action="blind_choice").exists()
    settle_passively(client, hand)
    after = game_act(client, draw_table, {"type": "blind_choice", "seat": 2, "choice": "wait"})
    assert after.status_code == 200, after.json()
    assert after.json()["state"]["choices"] == {"2": "wait"}


@pytest.mark.parametrize(("who", "status"), [("other_dealer", 403), ("compliance", 403)])
def test_only_the_tables_dealer_or_a_floor_manager_makes_a_blind_choice(
    who, status, draw_table, client_for, request
):
    user = request.getfixturevalue(who)
    action = {"type": "blind_choice", "seat": 2, "choice": "post_all"}
    assert game_act(client_for(user), draw_table, action).status_code == status
    assert not TableEvent.objects.filter(kind="blind_choice").exists()


def test_a_choice_goes_with_a_player_who_leaves(draw_table, dealer, client_for):
    client = client_for(dealer)
    action = {"type": "blind_choice", "seat": 3, "choice": "wait"}
    assert game_act(client, draw_table, action).status_code == 200
    services.seat_update(
        user=dealer, table_id=draw_table.pk, number=3, player="", sitting_out=False
    )
    state = game_view(client, draw_table)["state"]
    assert state["choices"] == {}
    assert state["next_hand"]["dealt_in"] == [1, 2]


def test_an_action_repeated_with_its_idempotency_key_is_applied_once(
    draw_table, dealer, client_for
):
    client = client_for(dealer)
    hand = open_hand(client, draw_table)
    action = {"seat": hand["state"]["to_act"], "type": "call"}
    url = f"/api/v1/hands/{hand['id']}/actions/"
    first = client.post(url, action, format="json", HTTP_IDEMPOTENCY_KEY="tap-1")
    again = client.post(url, action, format="json", HTTP_IDEMPOTENCY_KEY="tap-1")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert HandAction.objects.filter(hand_id=hand["id"]).count() == 1
    # Without the key the same tap would be a second action, here out of turn.
    assert client.post(url, action, format="json").status_code == 400


def test_the_hand_shows_its_live_state_to_every_role(draw_table, dealer, compliance, client_for):
    hand = open_hand(client_for(dealer), draw_table)
    state = client_for(compliance).get(f"/api/v1/hands/{hand['id']}/").json()["state"]
    assert state["phase"] == "predraw"
    assert state["to_act"] == hand["state"]["to_act"]
    assert {a["type"] for a in state["legal_actions"]} >= {"fold", "call", "raise"}
    raise_ = next(a for a in state["legal_actions"] if a["type"] == "raise")
    assert (raise_["min"], raise_["max"]) == (400, 400)  # limit: exactly one small bet more
    assert state["pot"] == 300
