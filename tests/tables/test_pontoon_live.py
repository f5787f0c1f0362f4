"""Pontoon at a live table: the bank as the game's table state (``/tables/{id}/game/``),
actions one at a time, the bank passing after a pontoon or sold, and the Shoot Pontoon kitty
carried between hands (but never an empty one)."""

from __future__ import annotations

import pytest

from payouts.audit import audit_report
from payouts.models import AuditEntry, Settlement
from tables import services
from tables.models import HandAction, TableEvent

pytestmark = pytest.mark.django_db


def make_table(floor, dealer, *, shoot=False):
    limits = {"stake_min": 100, "stake_max": 1000, "kitty_min": None, "kitty_max": None}
    if shoot:
        limits.update(kitty_min=1000, kitty_max=10_000)
    table = services.table_create(
        user=floor,
        name="PON-1",
        game="pontoon",
        seat_count=6,
        dealer=dealer,
        limits=limits,
    )
    for number, name in {1: "Ana", 2: "Bela", 3: "Csilla"}.items():
        services.seat_update(
            user=floor, table_id=table.pk, number=number, player=name, sitting_out=False
        )
    return services.table_set_status(user=floor, table_id=table.pk, status="open")


@pytest.fixture
def pontoon_table(db, floor, dealer):
    return make_table(floor, dealer)


def assign(client, table, seat, **headers):
    """Choose the first banker (a between-hand action of the game)."""
    return client.post(
        f"/api/v1/tables/{table.pk}/game/actions/",
        {"type": "choose_banker", "seat": seat},
        format="json",
        **headers,
    )


def game_view(client, table):
    response = client.get(f"/api/v1/tables/{table.pk}/game/")
    assert response.status_code == 200, response.json()
    return response.json()


def bank_moves(view):
    """The bank's moves in the game view, newest first: (kind, from_seat, to_seat)."""
    return [
        (e["kind"], e["data"]["from_seat"], e["data"]["to_seat"])
        for e in view["events"]
        if e["kind"].startswith("bank_")
    ]


def play(client, hand, cards, stakes, decisions=None, shoots=None):
    """Drive a hand from its legal actions: deal ``cards[seat]`` in order, stake ``stakes``,
    shoot ``shoots[seat]`` (or decline), stick (or ``decisions[seat]``) on every player hand,
    the banker stands when allowed."""
    cards = {seat: list(values) for seat, values in cards.items()}
    decisions = decisions or {}
    shoots = dict(shoots or {})
    state = hand["state"]
    while state["to_act"] is not None and not state["complete"]:
        seat = state["to_act"]
        legal = {a["type"]: a for a in state["legal_actions"]}
        if "deal" in legal:
            action = {"seat": seat, "type": "deal", "card": cards[seat].pop(0)}
        elif "stake" in legal:
            action = {"seat": seat, "type": "stake", "amount": stakes[seat]}
        elif "shoot" in legal and seat in shoots:
            action = {"seat": seat, "type": "shoot", "hand": 0, "amount": shoots.pop(seat)}
        elif "no_shoot" in legal:
            action = {"seat": seat, "type": "no_shoot"}
        elif "stand" in legal:
            action = {"seat": seat, "type": "stand"}
        elif "draw" in legal:
            action = {"seat": seat, "type": "draw", "card": cards[seat].pop(0)}
        elif seat in decisions and decisions[seat]:
            action = {"seat": seat, **decisions[seat].pop(0)}
            if action["type"] in ("twist", "buy"):
                action["card"] = cards[seat].pop(0)
        else:
            action = {"seat": seat, "type": "stick", "hand": legal["stick"]["hand"]}
        response = client.post(f"/api/v1/hands/{hand['id']}/actions/", action, format="json")
        assert response.status_code == 200, (action, response.json())
        state = response.json()
    return state


def open_hand(client, table, **body):
    response = client.post(f"/api/v1/tables/{table.pk}/hands/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_no_hand_without_a_banker(pontoon_table, dealer, client_for):
    response = client_for(dealer).post(f"/api/v1/tables/{pontoon_table.pk}/hands/")
    assert response.status_code == 409 and "bank" in response.json()["detail"]


def test_a_player_pontoon_is_paid_double_and_takes_the_bank(pontoon_table, dealer, client_for):
    client = client_for(dealer)
    chosen = assign(client, pontoon_table, 3)
    assert chosen.status_code == 200, chosen.json()
    assert chosen.json()["state"] == {"banker": 3, "kitty": None, "shoot": False}
    assert chosen.json()["actions"] == []  # the bank is held: nothing to choose any more
    hand = open_hand(client, pontoon_table)
    assert hand["config"]["banker"] == 3 and hand["config"]["players"] == [1, 2]
    state = play(
        client,
        hand,
        cards={1: ["As", "Kc"], 2: ["9h", "9c"], 3: ["Td", "7d"]},
        stakes={1: 100, 2: 200},
    )
    assert state["complete"] and state["next_banker"] == 1
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json")
    assert settled.status_code == 201, settled.json()
    body = settled.json()
    seats = {s["seat"]: s for s in body["seats"]}
    assert seats[1]["net"] == 200  # pontoon paid double
    assert seats[2]["net"] == 200  # 18 beats the banker's 17
    assert seats[3]["role"] == "banker" and seats[3]["net"] == -400
    assert body["next_banker"] == 1
    view = game_view(client, pontoon_table)
    assert view["state"]["banker"] == 1
    assert bank_moves(view) == [("bank_pass", 3, 1), ("bank_assign", None, 3)]
    passed = view["events"][0]
    assert passed["hand"] == hand["id"] and passed["data"]["hand"] == hand["number"]
    assert passed["by"] == "dealer"
    entry = AuditEntry.objects.get(action="bank_pass", hand_id=hand["id"])
    assert entry.before["banker"] == 3 and entry.after["to_seat"] == 1
    # The stored record re-settles through the engine (what the audit check does).
    report = audit_report()
    assert report["ok"], report["findings"]
    assert report["settlements_checked"] == 1


def test_a_sale_of_the_bank_is_settled_and_recorded(pontoon_table, dealer, client_for):
    client = client_for(dealer)
    assign(client, pontoon_table, 3)
    hand = open_hand(client, pontoon_table)
    state = play(
        client,
        hand,
        cards={1: ["Ts", "6c"], 2: ["9h", "8h"], 3: ["Td", "9d"]},
        stakes={1: 100, 2: 200},
    )
    assert any(a["type"] == "sell_bank" for a in state["legal_actions"])
    sold = client.post(
        f"/api/v1/hands/{hand['id']}/actions/",
        {"seat": 3, "type": "sell_bank", "buyer": 2, "price": 500},
        format="json",
    )
    assert sold.status_code == 200, sold.json()
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json").json()
    seats = {s["seat"]: s for s in settled["seats"]}
    assert sum(s["net"] for s in settled["seats"]) + settled["rake"] == 0
    assert settled["bank_sale"] == {"buyer": 2, "price": 500}
    assert seats[2]["net"] == -200 - 500  # 17 loses 200 to the banker's 19; 500 for the bank
    event = TableEvent.objects.get(kind="bank_sale")
    assert event.hand_id == hand["id"]
    assert (event.data["from_seat"], event.data["to_seat"], event.data["price"]) == (3, 2, 500)
    view = game_view(client, pontoon_table)
    assert view["state"]["banker"] == 2
    assert bank_moves(view) == [("bank_sale", 3, 2), ("bank_assign", None, 3)]
    assert view["events"][0]["data"]["price"] == 500
    entry = AuditEntry.objects.get(action="bank_sale")
    assert entry.before["banker"] == 3 and entry.after["to_seat"] == 2
    assert entry.after["price"] == 500


def test_sticking_on_14_is_refused(pontoon_table, dealer, client_for):
    client = client_for(dealer)
    assign(client, pontoon_table, 3)
    hand = open_hand(client, pontoon_table)
    url = f"/api/v1/hands/{hand['id']}/actions/"
    for action in (
        {"seat": 1, "type": "deal", "card": "Ts"},
        {"seat": 2, "type": "deal", "card": "9h"},
        {"seat": 3, "type": "deal", "card": "Td"},
        {"seat": 1, "type": "stake", "amount": 100},
        {"seat": 2, "type": "stake", "amount": 100},
        {"seat": 1, "type": "deal", "card": "4c"},
        {"seat": 2, "type": "deal", "card": "8h"},
        {"seat": 3, "type": "deal", "card": "7d"},
    ):
        assert client.post(url, action, format="json").status_code == 200, action
    before = HandAction.objects.count()
    response = client.post(url, {"seat": 1, "type": "stick", "hand": 0}, format="json")
    assert response.status_code == 400
    assert "15" in response.json()["detail"]
    assert HandAction.objects.count() == before
    too_much = client.post(
        url, {"seat": 1, "type": "buy", "hand": 0, "amount": 500, "card": "2c"}, format="json"
    )
    assert too_much.status_code == 400 and "$2.00" in too_much.json()["detail"]  # the currency


def test_shoot_pontoon_needs_a_kitty_and_carries_it_over(db, floor, dealer, client_for):
    table = make_table(floor, dealer, shoot=True)
    client = client_for(dealer)
    assign(client, table, 3)
    missing = client.post(f"/api/v1/tables/{table.pk}/hands/", {}, format="json")
    assert missing.status_code == 400 and missing.json()["errors"][0]["path"] == "kitty"
    hand = open_hand(client, table, kitty=5000)
    play(
        client,
        hand,
        cards={1: ["Ts", "6c"], 2: ["9h", "8h"], 3: ["Td", "9d"]},
        stakes={1: 100, 2: 200},
    )
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json").json()
    assert settled["kitty_after"] == 5000  # nobody shot
    assert game_view(client, table)["state"] == {"banker": 3, "kitty": 5000, "shoot": True}
    nxt = open_hand(client, table)
    assert nxt["config"]["kitty"] == 5000 and nxt["config"]["kitty_carried"] is True


@pytest.mark.parametrize(("who", "status"), [("compliance", 403), ("other_dealer", 403)])
def test_who_may_choose_the_banker(who, status, pontoon_table, client_for, request):
    user = request.getfixturevalue(who)
    assert assign(client_for(user), pontoon_table, 3).status_code == status
    assert not TableEvent.objects.exists()
    assert game_view(client_for(user), pontoon_table)["state"]["banker"] is None


def test_the_first_banker_is_chosen_once(pontoon_table, dealer, client_for):
    client = client_for(dealer)
    assign(client, pontoon_table, 3)
    again = assign(client, pontoon_table, 1)
    assert again.status_code == 409 and "holds the bank" in again.json()["detail"]
    assert Settlement.objects.count() == 0
    assert game_view(client, pontoon_table)["state"]["banker"] == 3
    assert TableEvent.objects.filter(kind="bank_assign").count() == 1


def test_an_emptied_kitty_is_not_carried_the_banker_puts_up_a_new_one(
    db, floor, dealer, client_for
):
    table = make_table(floor, dealer, shoot=True)
    client = client_for(dealer)
    assign(client, table, 3)
    hand = open_hand(client, table, kitty=1000)
    assert hand["config"]["kitty"] == 1000 and hand["config"]["kitty_carried"] is False
    state = play(
        client,
        hand,
        cards={1: ["Ts", "9c"], 2: ["9h", "8h"], 3: ["Td", "7d"]},
        stakes={1: 100, 2: 200},
        shoots={1: 1000},  # the whole kitty against seat 1's first card
    )
    assert state["complete"]
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json")
    assert settled.status_code == 201, settled.json()
    body = settled.json()
    nets = {s["seat"]: s["net"] for s in body["seats"]}
    # Seat 1's 19 beats the banker's 17: its stake and its shoot bet win; 17 against 17 loses.
    assert nets == {1: 100 + 1000, 2: -200, 3: 200 - 100 - 1000}
    assert body["kitty_after"] == 0 and body["next_banker"] == 3
    assert game_view(client, table)["state"] == {"banker": 3, "kitty": 0, "shoot": True}
    # The empty kitty is not carried: the banker puts up a new one when the next hand opens.
    missing = client.post(f"/api/v1/tables/{table.pk}/hands/", {}, format="json")
    assert missing.status_code == 400 and missing.json()["errors"][0]["path"] == "kitty"
    nxt = open_hand(client, table, kitty=2000)
    assert nxt["config"]["kitty"] == 2000 and nxt["config"]["kitty_carried"] is False
    assert nxt["config"]["banker"] == 3 and nxt["config"]["players"] == [1, 2]


def test_the_first_banker_is_offered_among_the_seats_in_play(pontoon_table, dealer, client_for):
    client = client_for(dealer)
    view = game_view(client, pontoon_table)
    assert view["state"] == {"banker": None, "kitty": None, "shoot": False}
    assert view["actions"] == [{"type": "choose_banker", "seats": [1, 2, 3]}]
    empty = assign(client, pontoon_table, 5)
    assert empty.status_code == 400
    assert [e["path"] for e in empty.json()["errors"]] == ["seat"]
    wrong = client.post(
        f"/api/v1/tables/{pontoon_table.pk}/game/actions/",
        {"type": "blind_choice", "seat": 3, "choice": "post_all"},
        format="json",
    )
    assert wrong.status_code == 400 and wrong.json()["errors"][0]["path"] == "type"
    assert not TableEvent.objects.exists()
    assert game_view(client, pontoon_table)["state"]["banker"] is None


def test_choosing_the_banker_repeated_with_its_idempotency_key_is_applied_once(
    pontoon_table, dealer, client_for
):
    client = client_for(dealer)
    first = assign(client, pontoon_table, 2, HTTP_IDEMPOTENCY_KEY="cut-1")
    again = assign(client, pontoon_table, 2, HTTP_IDEMPOTENCY_KEY="cut-1")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert TableEvent.objects.filter(kind="bank_assign").count() == 1
    assert AuditEntry.objects.filter(action="bank_assign").count() == 1
    # Without the key the same tap is a second choice, refused: the bank is held.
    assert assign(client, pontoon_table, 2).status_code == 409
