"""The approvals queue says each request in words: a void what each seat has in the hand (all
of it going back), a correction the actions it changes and what it moves, in money; a change
of a game with no theoretical hold says so once."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from approvals.models import Approval
from payouts.models import Settlement
from tests.conftest import record
from tests.desk.helpers import row
from tests.tables.test_paiute_live import DEAL, paiute_table  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor_client(client: Any, floor: Any) -> Any:
    client.force_login(floor)
    return client


def test_a_void_says_what_each_seat_has_in_the_hand_in_money(
    dp_table, dealer, client_for, floor_client
):
    api = client_for(dealer)
    hand = api.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    for seat, ante, bonus in ((2, 1000, 500), (3, 2500, 0)):
        answer = api.post(
            f"/api/v1/hands/{hand['id']}/actions/",
            {"type": "wager", "seat": seat, "ante": ante, "flush_bonus": bonus},
            format="json",
        )
        assert answer.status_code == 200, answer.json()
    api.post(f"/api/v1/hands/{hand['id']}/void/", {"reason": "card exposed"}, format="json")
    void = Approval.objects.get(kind="void")
    shown = row(floor_client.get(reverse("floor-approvals")), void)
    assert "2 actions recorded" in shown and "every wager goes back to its player" in shown
    assert re.search(
        r'data-party="seat 2">Seat 2: \$15\.00 \(ante \$10\.00, flush bonus \$5\.00\)', shown
    )
    assert re.search(r'data-party="seat 3">Seat 3: \$25\.00 \(ante \$25\.00\)', shown)
    # The seats in their order round the table, whatever order the game lists them in.
    listed = [int(seat) for seat in re.findall(r'data-party="seat (\d+)"', shown)]
    assert listed == sorted(listed) and {2, 3} <= set(listed)


def test_a_correction_names_the_actions_it_changes_and_moves_money(
    dp_table, dealer, client_for, floor_client
):
    api = client_for(dealer)
    hand = api.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    api.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    actions = Settlement.objects.get(hand_id=hand["id"]).history["actions"]
    index = next(i for i, a in enumerate(actions) if a["type"] == "wager" and a["seat"] == 2)
    fixed = [dict(a) for a in actions]
    fixed[index]["flush_bonus"] = 0
    asked = api.post(
        f"/api/v1/hands/{hand['id']}/corrections/",
        {"reason": "no bonus bet", "actions": fixed},
        format="json",
    )
    assert asked.status_code == 202, asked.json()
    correction = Approval.objects.get(kind="correction")
    shown = row(floor_client.get(reverse("floor-approvals")), correction)
    assert re.search(
        rf'data-step="{index + 1}"><th scope="row">{index + 1} <small>\(changed\)</small></th>'
        r'<td class="before">seat 2 antes \$10\.00, flush bonus \$5\.00</td>'
        r'<td class="after">seat 2 antes \$10\.00</td>',
        shown,
    )
    assert re.search(r'data-party="seat 2">.*?<td class="num">\+\$5\.00</td></tr>', shown, re.S)
    assert re.search(r'data-party="rake">.*?\$', shown, re.S)


def test_a_change_of_a_game_without_a_theoretical_hold_says_so_once(
    floor, dealer, floor_client, monkeypatch
):
    from hold import selectors
    from tables import services

    table = services.table_create(
        user=floor,
        name="PAI-Q",
        game="paiute",
        seat_count=5,
        dealer=dealer,
        limits={"ante": 500},
        smallest_chip=25,
    )
    monkeypatch.setattr(selectors.theory, "offered", lambda game: False)
    change = services.change_request(
        user=dealer, table_id=table.pk, changes={"ante": 1000}, reason="busy"
    ).approval
    shown = row(floor_client.get(reverse("floor-approvals")), change)
    assert shown.count("has no theoretical hold") == 1
    assert re.search(r'data-key="ante"><th scope="row">Ante</th><td class="before">\$5\.00', shown)


def test_a_void_lists_the_seats_round_the_table_whatever_order_the_game_plays_them(
    dealer, client_for, floor_client, request
):
    """Paiute plays from the dealer's left (seats 2, 3, then the dealer's 1): the request
    lists the seats 1, 2, 3."""
    table = request.getfixturevalue("paiute_table")
    api = client_for(dealer)
    hand = api.post(f"/api/v1/tables/{table.pk}/hands/", DEAL, format="json").json()
    assert hand["config"]["players"] == [2, 3, 1]
    api.post(f"/api/v1/hands/{hand['id']}/void/", {"reason": "misdeal"}, format="json")
    shown = row(floor_client.get(reverse("floor-approvals")), Approval.objects.get(kind="void"))
    assert re.findall(r'data-party="seat (\d+)"', shown) == ["1", "2", "3"]
    assert "Seat 1: $1.00 (ante $1.00)" in shown
