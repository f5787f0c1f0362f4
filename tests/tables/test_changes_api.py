"""Limit and rule changes: requested, decided by another floor manager, applied from the
next hand."""

from __future__ import annotations

import pytest

from payouts.models import AuditEntry
from tables.models import Table, TableChange
from tests.conftest import record

pytestmark = pytest.mark.django_db


def request_change(client, table, changes, reason="busy night"):
    return client.post(
        f"/api/v1/tables/{table.pk}/changes/", {"changes": changes, "reason": reason}, format="json"
    )


def test_approved_change_applies_from_the_next_hand_never_the_open_one(
    dp_table, dealer, floor, client_for
):
    client = client_for(dealer)
    hand = client.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    change = request_change(
        client,
        dp_table,
        {"ante_min": 500, "rules": {"rake": {"scheme": "per_player", "amount": 200}}},
    )
    assert change.status_code == 201, change.json()
    assert change.json()["status"] == "pending"
    approved = client_for(floor).post(
        f"/api/v1/changes/{change.json()['id']}/approve/", {"note": "ok"}, format="json"
    )
    assert approved.status_code == 200
    assert approved.json()["applies_from_hand"] == 2
    # The open hand keeps its frozen rake (100) and ante minimum (100).
    small = record()
    small["players"][0].update({"ante": 200, "raise": 200})
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", small, format="json")
    assert settled.status_code == 201, settled.json()
    assert settled.json()["rake"] == 300
    # The next hand has the new values.
    accepted = client.post(
        f"/api/v1/tables/{dp_table.pk}/game/actions/",
        {"type": "accept", "seat": 2, "bank": 50_000},
        format="json",
    )
    assert accepted.status_code == 200, accepted.json()
    nxt = client.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    assert nxt["number"] == 2 and nxt["config"]["designated_player"] == {"seat": 2, "bank": 50_000}
    assert nxt["rules"]["rake"]["amount"] == 200 and nxt["rules"]["ante_min"] == 500
    entry = AuditEntry.objects.get(action="table_change_approved")
    assert entry.before["ante_min"] == 100 and entry.after["ante_min"] == 500
    assert entry.actor_name == "floor"


def test_a_floor_manager_cannot_approve_their_own_request(open_table, floor, client_for):
    client = client_for(floor)
    change = request_change(client, open_table, {"ante_max": 20_000}).json()
    response = client.post(f"/api/v1/changes/{change['id']}/approve/", {}, format="json")
    assert response.status_code == 403
    assert "their own" in response.json()["detail"]
    assert TableChange.objects.get(pk=change["id"]).approval.status == "pending"


@pytest.mark.parametrize("who", ["dealer", "compliance"])
def test_only_floor_managers_decide(who, open_table, floor, client_for, request):
    change = request_change(client_for(floor), open_table, {"ante_max": 20_000}).json()
    user = request.getfixturevalue(who)
    for verb in ("approve", "reject"):
        assert (
            client_for(user)
            .post(f"/api/v1/changes/{change['id']}/{verb}/", {}, format="json")
            .status_code
            == 403
        )


def test_rejection_is_recorded_and_changes_nothing(open_table, dealer, floor, client_for):
    change = request_change(client_for(dealer), open_table, {"ante_max": 20_000}).json()
    response = client_for(floor).post(
        f"/api/v1/changes/{change['id']}/reject/", {"note": "not tonight"}, format="json"
    )
    assert response.status_code == 200 and response.json()["status"] == "rejected"
    assert Table.objects.get(pk=open_table.pk).limits["ante_max"] == 10_000
    again = client_for(floor).post(f"/api/v1/changes/{change['id']}/approve/", {}, format="json")
    assert again.status_code == 409
    assert AuditEntry.objects.filter(action="table_change_rejected").count() == 1


@pytest.mark.parametrize(
    ("changes", "path"),
    [
        ({"ante_min": 20_000}, "ante_max"),
        ({"bank_max": 0}, "bank_max"),
        ({"seat_count": 9}, "changes.seat_count"),
        ({"rules": {"coverage": "maybe"}}, "rules.coverage"),
        ({"rules": {"ante_min": 5}}, "rules.ante_min"),
        (
            {"rules": {"rotation_policy": {"max_consecutive": 0}}},
            "rules.rotation_policy.max_consecutive",
        ),
        (
            {"rules": {"rotation_policy": {"window_minutes": "long"}}},
            "rules.rotation_policy.window_minutes",
        ),
        ({"rules": {"rotation_policy": {"everyone": 1}}}, "rules.rotation_policy.everyone"),
        # The policy is a rule now, not a table field of its own.
        ({"rotation_policy": {"max_consecutive": 3}}, "changes.rotation_policy"),
    ],
)
def test_invalid_change_requests_are_400_and_not_stored(
    changes, path, open_table, floor, client_for
):
    response = request_change(client_for(floor), open_table, changes)
    assert response.status_code == 400, response.json()
    assert any(e["path"] == path for e in response.json()["errors"]), response.json()
    assert TableChange.objects.count() == 0


def test_a_dealer_requests_only_for_their_own_table(open_table, other_dealer, client_for):
    response = request_change(client_for(other_dealer), open_table, {"ante_max": 20_000})
    assert response.status_code == 403
    assert "not the dealer assigned" in response.json()["detail"]


def test_compliance_cannot_request_changes(open_table, compliance, client_for):
    assert (
        request_change(client_for(compliance), open_table, {"ante_max": 20_000}).status_code == 403
    )


def test_an_approved_rotation_policy_change_shows_in_the_game_and_the_next_hand(
    dp_table, dealer, floor, client_for
):
    client = client_for(dealer)
    change = request_change(
        client, dp_table, {"rules": {"rotation_policy": {"max_consecutive": 4, "min_distinct": 3}}}
    )
    assert change.status_code == 201, change.json()
    approved = client_for(floor).post(
        f"/api/v1/changes/{change.json()['id']}/approve/", {}, format="json"
    )
    assert approved.status_code == 200, approved.json()
    policy = {"max_consecutive": 4, "window_minutes": 40, "min_distinct": 3}
    game = client.get(f"/api/v1/tables/{dp_table.pk}/game/").json()
    assert game["state"]["policy"] == policy
    table = client.get(f"/api/v1/tables/{dp_table.pk}/").json()
    assert table["rules"]["rotation_policy"] == {"max_consecutive": 4, "min_distinct": 3}
    assert "rotation_policy" not in table
    hand = client.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    assert hand["rules"]["rotation_policy"] == policy
    entry = AuditEntry.objects.get(action="table_change_approved")
    assert entry.after["rules"]["rotation_policy"] == {"max_consecutive": 4, "min_distinct": 3}


def test_a_rotation_policy_change_replaces_the_whole_policy(open_table, dealer, floor, client_for):
    """Like every nested rules object, a rotation_policy override replaces the whole policy
    (docs/rules/high-card-flush.md): settings it leaves out take the defaults, not the values
    of an earlier change."""
    client = client_for(dealer)
    for policy in ({"max_consecutive": 4}, {"min_distinct": 3}):
        change = request_change(client, open_table, {"rules": {"rotation_policy": policy}})
        assert change.status_code == 201, change.json()
        approved = client_for(floor).post(
            f"/api/v1/changes/{change.json()['id']}/approve/", {}, format="json"
        )
        assert approved.status_code == 200, approved.json()
    state = client.get(f"/api/v1/tables/{open_table.pk}/game/").json()["state"]
    assert state["policy"] == {"max_consecutive": 2, "window_minutes": 40, "min_distinct": 3}
    assert Table.objects.get(pk=open_table.pk).rules["rotation_policy"] == {"min_distinct": 3}


def test_a_tables_changes_filter_by_state_and_a_bad_state_is_named(
    open_table, floor, floor2, client_for
):
    client = client_for(floor)
    first = request_change(client, open_table, {"ante_max": 20_000}).json()
    request_change(client, open_table, {"ante_max": 30_000})
    client_for(floor2).post(f"/api/v1/changes/{first['id']}/approve/", {}, format="json")
    url = f"/api/v1/tables/{open_table.pk}/changes/"
    approved = client.get(f"{url}?status=approved").json()["results"]
    pending = client.get(f"{url}?status=pending").json()["results"]
    assert [c["id"] for c in approved] == [first["id"]]
    assert [c["changes"] for c in pending] == [{"ante_max": 30_000}]
    bad = client.get(f"{url}?status=waiting")
    assert bad.status_code == 400 and bad.json()["errors"][0]["path"] == "status"
