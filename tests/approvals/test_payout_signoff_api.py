"""Large payouts wait for a second person: a settlement above the table's sign-off limits is
held in the approvals queue until a floor manager other than the dealer signs it."""

from __future__ import annotations

import pytest

from approvals.models import Approval
from casino.rules.contract import registry
from payouts.models import AuditEntry, Settlement, SignoffLimit
from tables.models import Hand, HandAction
from tests.conftest import record

pytestmark = pytest.mark.django_db


def engine(body: dict) -> dict:
    rules = {"rake": {"scheme": "per_player", "amount": 100}}
    return registry()["high-card-flush"].evaluate(body, rules).to_dict()


def biggest(result: dict) -> tuple[int, int]:
    """The largest line paid and the largest net won by a seat."""
    lines = [line["amount"] for seat in result["seats"] for line in seat["lines"]]
    return max(lines), max(seat["net"] for seat in result["seats"])


@pytest.fixture
def low_limits(dp_table, floor):
    """Limits just under what ``record()`` pays, set on the table."""
    line, net = biggest(engine(record()))
    assert line > 0 and net > 0
    SignoffLimit.objects.create(table=dp_table, line=line - 1, net=net + 1, set_by=floor)
    return line - 1, net + 1


def open_hand(client, table) -> dict:
    response = client.post(f"/api/v1/tables/{table.pk}/hands/")
    assert response.status_code == 201, response.json()
    return response.json()


def test_a_large_payout_waits_for_another_floor_manager_and_then_settles(
    dp_table, low_limits, dealer, floor, compliance, client_for, django_capture_on_commit_callbacks
):
    client = client_for(dealer)
    hand = open_hand(client, dp_table)
    held = client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    assert held.status_code == 202, held.json()
    body = held.json()
    expected = engine(record())
    assert body["status"] == "pending_signoff" and body["seats"] == expected["seats"]
    request = body["approval"]
    assert (request["kind"], request["status"], request["requested_by"]) == (
        "payout",
        "pending",
        "dealer",
    )
    line, _ = biggest(expected)
    assert f"pays {line} (sign-off above {low_limits[0]} a line)" in request["reason"]
    assert request["detail"]["limits"] == {
        "line": low_limits[0],
        "net": low_limits[1],
        "source": "table",
    }
    # Nothing is paid yet: no settlement, no imported actions; the hand waits, frozen.
    assert not Settlement.objects.exists() and not HandAction.objects.exists()
    shown = client.get(f"/api/v1/hands/{hand['id']}/").json()
    assert shown["status"] == "open" and shown["waiting_for"][0]["kind"] == "payout"
    again = client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    assert again.status_code == 409 and "waits for the floor" in again.json()["detail"]
    nxt = client.post(f"/api/v1/tables/{dp_table.pk}/hands/")
    assert nxt.status_code == 409 and "still open" in nxt.json()["detail"]
    held_entry = AuditEntry.objects.get(action="hand_settle_held")
    assert held_entry.actor_name == "dealer" and held_entry.after["approval"] == request["id"]

    signed = client_for(floor).post(
        f"/api/v1/approvals/{request['id']}/approve/",
        {"note": "paid in my presence"},
        format="json",
    )
    assert signed.status_code == 200, signed.json()
    settlement = Settlement.objects.get(hand_id=hand["id"])
    assert settlement.result["seats"] == expected["seats"] and settlement.rake == expected["rake"]
    assert settlement.settled_by.username == "dealer"
    assert Hand.objects.get(pk=hand["id"]).status == "settled"
    assert HandAction.objects.filter(hand_id=hand["id"]).count() > 0
    entry = AuditEntry.objects.get(action="hand_settle")
    assert entry.actor_name == "floor"
    assert entry.after["signed_off_by"] == "floor" and entry.after["approval"] == request["id"]
    # The table moves on as after any settled hand: the position is offered to seat 2.
    state = client.get(f"/api/v1/tables/{dp_table.pk}/game/").json()["state"]
    assert state["offer_seat"] == 2
    # The audit check replays the signed settlement and finds the chain whole.
    with django_capture_on_commit_callbacks(execute=True):
        check = client_for(compliance).post("/api/v1/audit/checks/").json()
    report = client_for(compliance).get(f"/api/v1/audit/checks/{check['id']}/").json()
    assert report["status"] == "passed", report["report"]["findings"]


def test_the_dealer_who_settled_and_other_roles_cannot_sign(
    dp_table, low_limits, dealer, floor, compliance, client_for
):
    # A floor manager settling a large hand also needs another floor manager.
    hand = open_hand(client_for(dealer), dp_table)
    request = (
        client_for(floor)
        .post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
        .json()["approval"]
    )
    for who, status in ((floor, 403), (dealer, 403), (compliance, 403)):
        response = client_for(who).post(
            f"/api/v1/approvals/{request['id']}/approve/", {}, format="json"
        )
        assert response.status_code == status
    assert not Settlement.objects.exists()


def test_a_payout_sent_back_lets_the_dealer_settle_the_corrected_record(
    dp_table, low_limits, dealer, floor, client_for
):
    client = client_for(dealer)
    hand = open_hand(client, dp_table)
    request = client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json").json()
    silent = client_for(floor).post(
        f"/api/v1/approvals/{request['approval']['id']}/reject/", {}, format="json"
    )
    assert silent.status_code == 400 and silent.json()["errors"][0]["path"] == "note"
    sent_back = client_for(floor).post(
        f"/api/v1/approvals/{request['approval']['id']}/reject/",
        {"note": "seat 2 bet 100, not 1000"},
        format="json",
    )
    assert sent_back.status_code == 200 and sent_back.json()["status"] == "rejected"
    assert AuditEntry.objects.get(action="hand_settle_rejected").after["note"] == (
        "seat 2 bet 100, not 1000"
    )
    corrected = record()
    corrected["players"][0].update({"ante": 100, "raise": 100, "flush_bonus": 0})
    corrected["players"][1].update({"ante": 100, "raise": 200})
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", corrected, format="json")
    assert settled.status_code == 201, settled.json()  # below the limits: no sign-off
    assert Settlement.objects.get().result["seats"] == engine(corrected)["seats"]


def test_the_limits_in_force_are_the_tables_then_the_games_then_the_house_default(
    dp_table, dealer, floor, floor2, client_for, settings, void_hand
):
    line, net = biggest(engine(record()))
    settings.PAYOUT_SIGNOFF_LINE, settings.PAYOUT_SIGNOFF_NET = line - 1, 10**9
    writer = client_for(floor)

    def settle() -> int:
        """Settle the next hand (the seat the position is offered to takes it); a payout
        held for a signature is withdrawn and the hand voided, clearing the way."""
        dp_table.refresh_from_db()
        body = record()
        offered = dp_table.game_state.get("offer")
        if offered is not None:
            client_for(dealer).post(
                f"/api/v1/tables/{dp_table.pk}/game/actions/",
                {"type": "accept", "seat": offered, "bank": 50_000},
                format="json",
            )
            body["designated_player"]["seat"] = offered
            others = [seat for seat in (1, 2, 3, 4) if seat != offered]
            for player, seat in zip(body["players"], others, strict=False):
                player["seat"] = seat
        hand = open_hand(client_for(dealer), dp_table)
        status = (
            client_for(dealer)
            .post(f"/api/v1/hands/{hand['id']}/settle/", body, format="json")
            .status_code
        )
        pending = Approval.objects.filter(status="pending").first()
        if pending:
            client_for(dealer).post(f"/api/v1/approvals/{pending.pk}/withdraw/", {}, format="json")
            void_hand(hand["id"], floor, floor2)
        return status

    assert settle() == 202  # the house default
    game = writer.post(
        "/api/v1/signoff-limits/",
        {"game": "high-card-flush", "line": line, "net": 10**9},
        format="json",
    )
    assert game.status_code == 200, game.json()
    assert settle() == 201  # the game's limits allow it
    table = writer.post(
        "/api/v1/signoff-limits/",
        {"table": dp_table.pk, "line": line - 1, "net": 10**9},
        format="json",
    )
    assert table.status_code == 200 and table.json()["table"] == dp_table.pk
    entry = AuditEntry.objects.filter(action="signoff_limit_set").last()
    assert entry.actor_name == "floor" and entry.after == {"line": line - 1, "net": 10**9}
    listed = writer.get("/api/v1/signoff-limits/").json()["results"]
    assert {(row["game"], row["table"]) for row in listed} == {
        ("high-card-flush", None),
        ("", dp_table.pk),
    }


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"line": 100, "net": 100}, "table"),
        ({"game": "blackjack", "line": 100, "net": 100}, "game"),
        ({"game": "pontoon", "line": 0, "net": 100}, "line"),
        ({"game": "pontoon", "line": 100}, "net"),
    ],
)
def test_bad_limits_are_refused_naming_the_field(body, path, floor, dealer, client_for):
    response = client_for(floor).post("/api/v1/signoff-limits/", body, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["path"] == path
    assert (
        client_for(dealer).post("/api/v1/signoff-limits/", body, format="json").status_code == 403
    )
    assert not SignoffLimit.objects.exists()
