"""Designated-player rotation (brief clauses 15-17) through the table's game API:
``GET /tables/{id}/game/`` shows the position, the legal between-hand actions and the events;
``POST /tables/{id}/game/actions/`` records an accept or a decline."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from payouts.models import AuditEntry
from tables import services
from tables.models import Hand, Table, TableEvent
from tests.conftest import DP_CARDS, P2_CARDS, P3_CARDS

pytestmark = pytest.mark.django_db

BANK_BOUNDS = {"min": 5_000, "max": 1_000_000, "step": 1}  # open_table's bank limits, chip 1


def game_url(table):
    return f"/api/v1/tables/{table.pk}/game/"


def game(client, table):
    response = client.get(game_url(table))
    assert response.status_code == 200, response.json()
    return response.json()


def act(client, table, kind, seat, bank=None, **extra):
    body = {"type": kind, "seat": seat, **extra}
    if bank is not None:
        body["bank"] = bank
    return client.post(f"{game_url(table)}actions/", body, format="json")


def offered(table_actions):
    """The between-hand actions as (type, seat) pairs."""
    return [(a["type"], a["seat"]) for a in table_actions]


def decline_until(client, table, seat):
    """Offered seats decline until the offer reaches ``seat``."""
    for _ in range(10):
        offer = game(client, table)["state"]["offer_seat"]
        if offer == seat:
            return
        response = act(client, table, "decline", offer)
        assert response.status_code == 200, response.json()
    raise AssertionError(f"the offer never reached seat {seat}")


def accept(client, table, seat, bank=50_000):
    response = act(client, table, "accept", seat, bank)
    assert response.status_code == 200, response.json()
    return response.json()


def others(dp_seat):
    """Two players besides ``dp_seat`` among seats 2-4."""
    return tuple(seat for seat in (2, 3, 4) if seat != dp_seat)[:2]


def settle(client, hand, dp_seat, players):
    cards = [P2_CARDS, P3_CARDS]
    data = {
        "designated_player": {"seat": dp_seat, "cards": DP_CARDS},
        "players": [
            {"seat": seat, "cards": cards[i], "ante": 1000, "raise": 1000}
            for i, seat in enumerate(players)
        ],
    }
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", data, format="json")
    assert settled.status_code == 201, settled.json()


def play_hand(client, table, dp_seat, players=(2, 3)):
    """Open and settle one hand with ``dp_seat`` as DP against ``players``."""
    hand = client.post(f"/api/v1/tables/{table.pk}/hands/")
    assert hand.status_code == 201, hand.json()
    assert hand.json()["config"]["designated_player"] == {"seat": dp_seat, "bank": 50_000}
    settle(client, hand.json(), dp_seat, players)
    return hand.json()


def approve_policy(client_for, floor, floor2, table, **policy):
    """Request and approve a rotation policy change (two floor managers)."""
    change = client_for(floor).post(
        f"/api/v1/tables/{table.pk}/changes/",
        {"changes": {"rules": {"rotation_policy": policy}}},
        format="json",
    )
    assert change.status_code == 201, change.json()
    approved = client_for(floor2).post(
        f"/api/v1/changes/{change.json()['id']}/approve/", {}, format="json"
    )
    assert approved.status_code == 200, approved.json()


def snapshot(table):
    """What a refused action must leave as it was: the game state, events and audit."""
    return (
        Table.objects.get(pk=table.pk).game_state,
        TableEvent.objects.filter(table=table).count(),
        AuditEntry.objects.count(),
    )


@pytest.fixture
def clock(monkeypatch):
    """Time as the services read it, moved on by hand: ``clock.advance(minutes=...)``."""

    class Clock:
        now = timezone.now()

        def advance(self, **delta):
            self.now += timedelta(**delta)

    moving = Clock()
    monkeypatch.setattr(timezone, "now", lambda: moving.now)
    return moving


# ---------------------------------------------------------------- clause 15: the offer


def test_clause_15_opening_the_table_offers_the_position_to_the_first_seat(
    open_table, dealer, client_for
):
    view = game(client_for(dealer), open_table)
    assert view["table"] == open_table.pk and view["game"] == "high-card-flush"
    assert view["hand_open"] is False
    state = view["state"]
    assert state["offer_seat"] == 1 and state["offer_round_start"] == 1
    assert state["designated_player"] is None and state["bank"] is None
    assert state["stopped"] is False and state["last_holder"] is None
    assert state["policy"] == {"max_consecutive": 2, "window_minutes": 40, "min_distinct": 2}
    assert state["bank_limits"] == {"min": 5_000, "max": 1_000_000}
    assert [(e["kind"], e["data"]["seat"], e["by"]) for e in view["events"]] == [
        ("rotation_offer", 1, "floor")
    ]


def test_clause_15_declines_pass_the_offer_clockwise_and_are_recorded(
    open_table, dealer, client_for
):
    client = client_for(dealer)
    declined = act(client, open_table, "decline", 1)
    assert declined.status_code == 200, declined.json()
    assert declined.json()["state"]["offer_seat"] == 2
    assert declined.json()["state"]["offer_round_start"] == 1
    state = accept(client, open_table, 2, bank=20_000)["state"]
    assert state["designated_player"] == 2 and state["bank"] == 20_000
    assert state["offer_seat"] is None and state["stopped"] is False
    expected = [
        ("rotation_offer", 1, "floor"),
        ("rotation_decline", 1, "dealer"),
        ("rotation_offer", 2, "dealer"),
        ("rotation_accept", 2, "dealer"),
    ]
    stored = [
        (e.kind, e.data["seat"], e.by.username)
        for e in TableEvent.objects.filter(table=open_table).order_by("at", "id")
    ]
    assert stored == expected
    # The game view lists them newest first.
    events = game(client, open_table)["events"]
    assert [(e["kind"], e["data"]["seat"], e["by"]) for e in events] == expected[::-1]
    assert events[0]["data"]["bank"] == 20_000 and events[0]["hand"] is None
    entry = AuditEntry.objects.get(action="rotation_accept", table=open_table)
    assert entry.actor_name == "dealer"
    assert entry.after["seat"] == 2 and entry.after["designated_player"] == 2
    assert entry.after["bank"] == 20_000
    assert entry.before["offer"] == 2 and entry.before["designated_player"] is None


def test_each_rotation_event_is_a_table_event_and_an_audit_entry(open_table, dealer, client_for):
    """Offer, decline, stop and accept: each is recorded once as a table event and once in
    the audit chain with the same data, actor and table."""
    client = client_for(dealer)
    for seat in (1, 2, 3, 4):
        act(client, open_table, "decline", seat)
    accept(client, open_table, 1, bank=10_000)
    events = list(TableEvent.objects.filter(table=open_table).order_by("at", "id"))
    audit = list(
        AuditEntry.objects.filter(table=open_table, action__startswith="rotation_").order_by("seq")
    )
    assert [e.kind for e in events] == [
        "rotation_offer",
        *["rotation_decline", "rotation_offer"] * 3,
        "rotation_decline",
        "rotation_stop",
        "rotation_offer",
        "rotation_accept",
    ]
    assert [(a.action, a.after, a.actor_name) for a in audit] == [
        (e.kind, e.data, e.by.username) for e in events
    ]
    assert all(a.subject == f"table:{open_table.pk}" for a in audit)
    stop = next(e for e in events if e.kind == "rotation_stop")
    assert stop.data["seat"] == 4 and stop.data["stopped"] is True
    assert stop.data["offer_seat"] == 1


def test_only_the_offered_seat_may_answer(open_table, dealer, client_for):
    before = snapshot(open_table)
    response = act(client_for(dealer), open_table, "accept", 3, bank=20_000)
    assert response.status_code == 409
    assert "offered to seat 1" in response.json()["detail"]
    assert response.json()["errors"][0]["path"] == "seat"
    assert snapshot(open_table) == before


# ---------------------------------------------------------------- the legal actions


def test_the_game_view_lists_exactly_the_legal_between_hand_actions(open_table, dealer, client_for):
    client = client_for(dealer)
    view = game(client, open_table)
    assert view["actions"] == [
        {"type": "accept", "seat": 1, "bank": BANK_BOUNDS},
        {"type": "decline", "seat": 1},
    ]
    # The answer to an action carries the actions legal after it.
    after_decline = act(client, open_table, "decline", 1).json()
    assert after_decline["actions"] == [
        {"type": "accept", "seat": 2, "bank": BANK_BOUNDS},
        {"type": "decline", "seat": 2},
    ]
    decline_until(client, open_table, 1)
    assert accept(client, open_table, 1)["actions"] == []
    assert game(client, open_table)["actions"] == []
    hand = client.post(f"/api/v1/tables/{open_table.pk}/hands/").json()
    during = game(client, open_table)
    assert during["hand_open"] is True and during["actions"] == []
    assert during["state"]["designated_player"] == 1
    settle(client, hand, 1, (2, 3))
    assert offered(game(client, open_table)["actions"]) == [("accept", 2), ("decline", 2)]


def test_after_a_hand_the_next_seat_is_offered_and_listed(dp_table, dealer, client_for):
    client = client_for(dealer)
    hand = play_hand(client, dp_table, 1)
    view = game(client, dp_table)
    assert view["hand_open"] is False
    assert view["state"]["designated_player"] is None and view["state"]["last_holder"] == 1
    assert view["actions"] == [
        {"type": "accept", "seat": 2, "bank": BANK_BOUNDS},
        {"type": "decline", "seat": 2},
    ]
    newest = view["events"][0]
    assert newest["kind"] == "rotation_offer" and newest["data"]["seat"] == 2
    assert newest["hand"] == hand["id"]


def test_a_closed_table_refuses_between_hand_actions(open_table, floor, dealer, client_for):
    services.table_set_status(user=floor, table_id=open_table.pk, status="closed")
    before = snapshot(open_table)
    response = act(client_for(dealer), open_table, "accept", 1, bank=50_000)
    assert response.status_code == 409 and "closed" in response.json()["detail"]
    assert snapshot(open_table) == before


def test_a_closed_table_lists_no_between_hand_actions(open_table, floor, dealer, client_for):
    """Every action listed is one the table takes now; a closed table takes none."""
    services.table_set_status(user=floor, table_id=open_table.pk, status="closed")
    client = client_for(dealer)
    assert game(client, open_table)["actions"] == []


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        pytest.param(
            {"type": "accept", "seat": 2, "bank": 50_000},
            "seat 1 already holds the designated player position",
            id="accept-while-held",
        ),
        pytest.param(
            {"type": "decline", "seat": 1},
            "seat 1 already holds the designated player position",
            id="decline-while-held",
        ),
    ],
)
def test_an_action_the_state_forbids_is_a_409_and_changes_nothing(
    body, detail, dp_table, dealer, client_for
):
    client = client_for(dealer)
    before = snapshot(dp_table)
    response = client.post(f"{game_url(dp_table)}actions/", body, format="json")
    assert response.status_code == 409, response.json()
    assert detail in response.json()["detail"]
    assert snapshot(dp_table) == before
    assert game(client, dp_table)["state"]["designated_player"] == 1


def test_no_answer_while_a_hand_is_in_progress(dp_table, dealer, floor, client_for, void_hand):
    client = client_for(dealer)
    hand = client.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    before = snapshot(dp_table)
    response = act(client, dp_table, "accept", 2, bank=50_000)
    assert response.status_code == 409
    assert "a hand is in progress" in response.json()["detail"]
    assert snapshot(dp_table) == before
    void_hand(hand["id"], asks=dealer, approves=floor)
    assert offered(game(client, dp_table)["actions"]) == [("accept", 2), ("decline", 2)]


@pytest.mark.parametrize(
    ("body", "path"),
    [
        pytest.param({"type": "take", "seat": 1}, "type", id="unknown-type"),
        pytest.param({"seat": 1, "bank": 50_000}, "type", id="no-type"),
        pytest.param({"type": "", "seat": 1}, "type", id="empty-type"),
        pytest.param({"type": "accept", "seat": "one", "bank": 50_000}, "seat", id="bad-seat"),
        pytest.param({"type": "accept", "bank": 50_000}, "seat", id="no-seat"),
        pytest.param({"type": "accept", "seat": 0, "bank": 50_000}, "seat", id="seat-zero"),
        pytest.param({"type": "accept", "seat": 1}, "bank", id="no-bank"),
        pytest.param({"type": "accept", "seat": 1, "bank": "lots"}, "bank", id="bank-not-int"),
        pytest.param({"type": "accept", "seat": 1, "bank": 1_000}, "bank", id="bank-below"),
        pytest.param({"type": "accept", "seat": 1, "bank": 2_000_000}, "bank", id="bank-above"),
        pytest.param(
            {"type": "accept", "seat": 1, "bank": 50_000, "colour": "red"},
            "colour",
            id="unknown-field",
        ),
        pytest.param({"type": "decline", "seat": 1, "bank": 50_000}, "bank", id="decline-bank"),
    ],
)
def test_a_malformed_action_is_a_400_naming_the_field_and_changes_nothing(
    body, path, open_table, dealer, client_for
):
    client = client_for(dealer)
    before = snapshot(open_table)
    response = client.post(f"{game_url(open_table)}actions/", body, format="json")
    assert response.status_code == 400, response.json()
    assert [e["path"] for e in response.json()["errors"]] == [path], response.json()
    assert snapshot(open_table) == before
    assert game(client, open_table)["state"]["offer_seat"] == 1


def test_a_bank_off_the_smallest_chip_is_a_400(open_table, dealer, floor, floor2, client_for):
    change = client_for(floor).post(
        f"/api/v1/tables/{open_table.pk}/changes/",
        {"changes": {"smallest_chip": 25}},
        format="json",
    )
    client_for(floor2).post(f"/api/v1/changes/{change.json()['id']}/approve/", {}, format="json")
    client = client_for(dealer)
    assert game(client, open_table)["actions"][0]["bank"] == {
        "min": 5_000,
        "max": 1_000_000,
        "step": 25,
    }
    response = act(client, open_table, "accept", 1, bank=50_010)
    assert response.status_code == 400
    assert response.json()["errors"][0]["path"] == "bank"
    assert "smallest chip $0.25" in response.json()["detail"]  # amounts in the house currency
    assert accept(client, open_table, 1, bank=50_025)["state"]["bank"] == 50_025


def test_the_same_idempotency_key_replays_the_answer(open_table, dealer, client_for):
    client = client_for(dealer)
    url = f"{game_url(open_table)}actions/"
    body = {"type": "decline", "seat": 1}
    first = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="d-1")
    again = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="d-1")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert again["Idempotent-Replay"] == "true"
    assert AuditEntry.objects.filter(action="rotation_decline").count() == 1
    assert game(client, open_table)["state"]["offer_seat"] == 2


# ---------------------------------------------------------------- clause 16: the stop


def test_clause_16_an_offer_round_without_acceptance_stops_the_game(open_table, dealer, client_for):
    client = client_for(dealer)
    for seat in (1, 2, 3, 4):
        assert act(client, open_table, "decline", seat).status_code == 200
    view = game(client, open_table)
    assert view["state"]["stopped"] is True and view["state"]["offer_seat"] == 1
    assert view["events"][0]["kind"] == "rotation_offer"
    assert view["events"][1]["kind"] == "rotation_stop"
    # The offer keeps going round: seat 1 may still accept or decline.
    assert offered(view["actions"]) == [("accept", 1), ("decline", 1)]
    refused = client.post(f"/api/v1/tables/{open_table.pk}/hands/")
    assert refused.status_code == 409
    assert "rule 16 (" in refused.json()["detail"]
    assert "the offer is with seat 1" in refused.json()["detail"]
    assert Hand.objects.count() == 0
    # An acceptance restarts the game.
    assert accept(client, open_table, 1, bank=10_000)["state"]["stopped"] is False
    assert client.post(f"/api/v1/tables/{open_table.pk}/hands/").status_code == 201


# ---------------------------------------------------------------- clause 17: the policy


def test_clause_17_bank_outside_the_table_limits_is_refused(open_table, dealer, client_for):
    response = act(client_for(dealer), open_table, "accept", 1, bank=1_000)
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["path"] == "bank" and "$50.00-$10,000.00" in error["message"]
    assert error["params"]["low"] == {"money": 5_000}
    assert error["params"]["high"] == {"money": 1_000_000}


def test_clause_17_consecutive_hand_cap(open_table, dealer, client_for):
    client = client_for(dealer)
    accept(client, open_table, 1)
    play_hand(client, open_table, 1)
    # Seats 2, 3, 4 decline; it comes back to seat 1 who accepts a second hand.
    for seat in (2, 3, 4):
        act(client, open_table, "decline", seat)
    accept(client, open_table, 1)
    play_hand(client, open_table, 1)
    for seat in (2, 3, 4):
        act(client, open_table, "decline", seat)
    before = snapshot(open_table)
    third = act(client, open_table, "accept", 1, bank=50_000)
    # The seat is well formed; the table's history forbids it now: a 409.
    assert third.status_code == 409
    assert "2 hands in a row" in third.json()["detail"]
    assert "rule 17 (" in third.json()["detail"]
    assert snapshot(open_table) == before
    # Seat 1 may still pass the position on.
    assert act(client, open_table, "decline", 1).json()["state"]["offer_seat"] == 2


@pytest.mark.parametrize(("second_dp", "allowed"), [(1, False), (2, True)])
def test_clause_17_distinct_holders_in_the_rolling_window(
    second_dp, allowed, open_table, floor, floor2, dealer, client_for, clock
):
    """One player may not hold the position for a whole 40-minute window (K=2)."""
    client = client_for(dealer)
    approve_policy(client_for, floor, floor2, open_table, max_consecutive=9)
    accept(client, open_table, 1)
    play_hand(client, open_table, 1)  # hand 1 begins before the window
    clock.advance(minutes=25)
    decline_until(client, open_table, second_dp)
    accept(client, open_table, second_dp)
    play_hand(client, open_table, second_dp, players=(3, 4))  # hand 2, inside it
    clock.advance(minutes=20)
    decline_until(client, open_table, 1)
    response = act(client, open_table, "accept", 1, bank=50_000)
    if allowed:
        assert response.status_code == 200, response.json()
        assert response.json()["state"]["designated_player"] == 1
    else:
        assert response.status_code == 409
        assert "at least 2 different players" in response.json()["detail"]
        assert "rule 17 (" in response.json()["detail"]
        assert game(client, open_table)["state"]["designated_player"] is None


def test_the_table_refuses_to_open_a_hand_that_breaks_the_policy(
    dp_table, dealer, floor2, client_for, floor
):
    """The policy can tighten after acceptance (approved change): the open is refused."""
    client = client_for(dealer)
    play_hand(client, dp_table, 1)
    for seat in (2, 3, 4):
        act(client, dp_table, "decline", seat)
    accept(client, dp_table, 1)
    approve_policy(client_for, floor, floor2, dp_table, max_consecutive=1)
    assert game(client, dp_table)["state"]["policy"]["max_consecutive"] == 1
    refused = client.post(f"/api/v1/tables/{dp_table.pk}/hands/")
    assert refused.status_code == 409
    assert "at most 1" in refused.json()["detail"]
    assert Hand.objects.filter(table=dp_table).count() == 1


def deal_every_half_hour(client, table, clock, seats):
    """One hand every 30 minutes with each of ``seats`` in turn as DP; their (time, seat)."""
    holders = []
    for seat in seats:
        decline_until(client, table, seat)
        accept(client, table, seat)
        play_hand(client, table, seat, players=others(seat))
        holders.append((clock.now, seat))
        clock.advance(minutes=30)
    return holders


def kept_holdings(table):
    return Table.objects.get(pk=table.pk).game_state["holdings"]


def test_the_consecutive_cap_holds_on_a_bounded_holdings_window(
    open_table, floor, floor2, dealer, client_for, clock
):
    """The holdings kept with the table are only what the policy can still look at (the
    latest ``max_consecutive``, the hands inside the window and the one before it), so
    opening a hand does not read the whole hand history; the cap is still enforced."""
    client = client_for(dealer)
    approve_policy(client_for, floor, floor2, open_table, max_consecutive=3, min_distinct=1)
    holders = deal_every_half_hour(client, open_table, clock, (1, 2, 1, 1, 1))
    # At the last opening (minute 120) the window began at minute 80: the latest three hands
    # (minutes 60, 90, 120) are kept, those of minutes 0 and 30 are gone.
    assert kept_holdings(open_table) == [[at.isoformat(), seat] for at, seat in holders[2:]]
    assert Hand.objects.filter(table=open_table).count() == 5
    # Seat 1 has held three in a row: the cap (3) still applies.
    decline_until(client, open_table, 1)
    before = snapshot(open_table)
    refused = act(client, open_table, "accept", 1, bank=50_000)
    assert refused.status_code == 409
    assert "3 hands in a row" in refused.json()["detail"]
    assert "at most 3" in refused.json()["detail"]
    assert snapshot(open_table) == before
    # Another seat may take it.
    decline_until(client, open_table, 2)
    assert accept(client, open_table, 2)["state"]["designated_player"] == 2


def test_the_rolling_window_holds_on_a_bounded_holdings_window(
    open_table, floor, floor2, dealer, client_for, clock
):
    """The window rule sees the hand before the window and those inside it, even once the
    older hands are no longer kept."""
    client = client_for(dealer)
    approve_policy(client_for, floor, floor2, open_table, max_consecutive=3)
    holders = deal_every_half_hour(client, open_table, clock, (2, 3, 1, 1))
    # At minute 90 the window began at minute 50: the hand of minute 30 (the one before the
    # window) and the later ones are kept; the hand of minute 0 is gone.
    assert kept_holdings(open_table) == [[at.isoformat(), seat] for at, seat in holders[1:]]
    # Minute 120: seat 1 has held since before the window began (minute 60) and would hold
    # it alone for the whole window. Two in a row is within the cap of 3.
    decline_until(client, open_table, 1)
    refused = act(client, open_table, "accept", 1, bank=50_000)
    assert refused.status_code == 409
    assert "at least 2 different players" in refused.json()["detail"]
    assert "hands in a row" not in refused.json()["detail"]
    decline_until(client, open_table, 4)
    assert accept(client, open_table, 4)["state"]["designated_player"] == 4


def test_opening_a_hand_does_not_read_the_hand_history(open_table, dealer, client_for, clock):
    """Opening a hand decides the designated player from the table's state: it reads no past
    hand (only whether one is still open), and costs the same queries at the first hand as
    at the sixth."""
    client = client_for(dealer)
    counts, hand_reads = [], []
    for seat in (1, 2, 1, 2, 1, 2):
        decline_until(client, open_table, seat)
        accept(client, open_table, seat)
        with CaptureQueriesContext(connection) as queries:
            hand = client.post(f"/api/v1/tables/{open_table.pk}/hands/")
        assert hand.status_code == 201, hand.json()
        counts.append(len(queries))
        hand_reads += [
            q["sql"]
            for q in queries.captured_queries
            if q["sql"].startswith("SELECT") and '"tables_hand"' in q["sql"]
        ]
        settle(client, hand.json(), seat, others(seat))
        clock.advance(minutes=30)
    assert counts == [counts[0]] * 6, counts
    assert hand_reads, "the open-hand check reads the hand table"
    # Every read of the hand table asks only whether a hand is open.
    for sql in hand_reads:
        assert re.search(r"""(U0|"tables_hand")\."status" = 'open'""", sql), sql


def test_compliance_cannot_record_rotation_decisions(open_table, compliance, client_for):
    assert act(client_for(compliance), open_table, "decline", 1).status_code == 403
    assert game(client_for(compliance), open_table)["state"]["offer_seat"] == 1


def test_only_the_assigned_dealer_records_rotation_decisions(
    open_table, other_dealer, floor, client_for
):
    refused = act(client_for(other_dealer), open_table, "decline", 1)
    assert refused.status_code == 403
    assert "not the dealer assigned" in refused.json()["detail"]
    assert act(client_for(floor), open_table, "decline", 1).status_code == 200
    assert TableEvent.objects.filter(kind="rotation_decline").get().by.username == "floor"


def test_the_offered_seat_accepts_as_the_hand_opens_in_one_call(open_table, dealer, client_for):
    """The dealer's routine between hands is one request: the acceptance rides on the opening."""
    client = client_for(dealer)
    url = f"/api/v1/tables/{open_table.pk}/hands/"
    wrong = client.post(url, {"accept": {"seat": 2, "bank": 50_000}}, format="json")
    assert wrong.status_code == 409 and wrong.json()["errors"][0]["path"] == "accept.seat"
    poor = client.post(url, {"accept": {"seat": 1, "bank": 1}}, format="json")
    assert poor.status_code == 400 and poor.json()["errors"][0]["path"] == "accept.bank"
    odd = client.post(url, {"accept": {"seat": 1, "bank": 50_000}, "tip": 5}, format="json")
    assert odd.status_code == 400 and odd.json()["errors"][0]["path"] == "tip"
    assert not open_table.hands.exists()
    hand = client.post(url, {"accept": {"seat": 1, "bank": 50_000}}, format="json")
    assert hand.status_code == 201, hand.json()
    assert hand.json()["config"]["designated_player"] == {"seat": 1, "bank": 50_000}
    kinds = [e.kind for e in TableEvent.objects.filter(table=open_table).order_by("id")]
    assert kinds[-1] == "rotation_accept"
    entry = AuditEntry.objects.filter(action="rotation_accept").get()
    assert entry.hand_id == hand.json()["id"] and entry.after["seat"] == 1
