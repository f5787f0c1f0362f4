"""POST /api/v1/tables/{id}/changes/preview/: what a limit or rule change would do, asked
before it is requested (the dealer's tablet and the floor's form read it); nothing is stored."""

from __future__ import annotations

import pytest

from approvals.models import Approval
from tables.models import TableChange

pytestmark = pytest.mark.django_db


def preview(client, table, changes, **extra):
    return client.post(
        f"/api/v1/tables/{table.pk}/changes/preview/", {"changes": changes, **extra}, format="json"
    )


def test_a_valid_change_says_each_option_before_and_after_the_edge_and_the_hand(
    dp_table, dealer, client_for
):
    answer = preview(
        client_for(dealer),
        dp_table,
        {"ante_max": 20_000, "rules": {"flush_paytable": {"7": 500, "6": 50, "5": 10, "4": 2}}},
        reason="high rollers",
    )
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["valid"] is True and body["errors"] == []
    assert body["applies_from_hand"] == dp_table.next_hand_number == 1
    by_path = {option["path"]: option for option in body["changes"]}
    ante = by_path["ante_max"]
    assert (ante["title"], ante["before"], ante["after"]) == ("ante maximum", 10_000, 20_000)
    assert (ante["before_words"], ante["after_words"]) == ("$100.00", "$200.00")
    paytable = by_path["rules.flush_paytable"]
    assert paytable["title"] == "flush pay table" and paytable["was_default"] is True
    # Of a pay table, only the lines that change.
    assert (paytable["before_words"], paytable["after_words"]) == ("7 cards 200:1", "7 cards 500:1")
    theory = body["theory"]
    assert theory["offered"] is True and theory["error"] == ""
    figures = {figure["measure"]: figure for figure in theory["figures"]}
    flush = figures["flush_bonus"]
    assert flush["changes"] is True
    # The flush bonus is worked out exactly, at once: a longer payout returns more.
    assert flush["before"]["status"] == flush["after"]["status"] == "ready"
    assert flush["after"]["value"] > flush["before"]["value"]
    assert figures["straight_flush_bonus"]["changes"] is False
    # Nothing was asked for.
    assert not TableChange.objects.exists() and not Approval.objects.exists()


def test_a_refused_change_names_each_problem_at_its_option_in_money(dp_table, floor, client_for):
    answer = preview(client_for(floor), dp_table, {"ante_max": 50, "colour": "red"})
    assert answer.status_code == 200
    body = answer.json()
    assert body["valid"] is False
    assert [error["path"] for error in body["errors"]] == ["changes.colour"]
    answer = preview(client_for(floor), dp_table, {"ante_max": 50})
    body = answer.json()
    assert body["valid"] is False
    [error] = body["errors"]
    assert error["path"] == "ante_max"
    assert "$0.50" in error["message"] and "$1.00" in error["message"]
    # What would change is still said, and the edge waits for a valid change.
    assert body["changes"][0]["after_words"] == "$0.50"
    assert body["theory"]["offered"] is None and body["theory"]["figures"] == []


def test_only_the_table_s_dealer_or_the_floor_may_ask(
    dp_table, other_dealer, compliance, client_for
):
    assert preview(client_for(other_dealer), dp_table, {"ante_max": 500}).status_code == 403
    assert preview(client_for(compliance), dp_table, {"ante_max": 500}).status_code == 403
    assert preview(client_for(None), dp_table, {"ante_max": 500}).status_code == 401


def test_a_body_without_changes_is_a_400(dp_table, floor, client_for):
    answer = client_for(floor).post(
        f"/api/v1/tables/{dp_table.pk}/changes/preview/", {"reason": "x"}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["path"] == "changes"
