"""The compliance desk shows a house-banked game's hand, the house as a party, through the same
pages as every game (the desk's code never names a game)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from casino.core.money import money
from payouts.models import Settlement
from tests.games.test_casino_war import HAND, play, war, war_table  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


def test_the_settlement_page_replays_a_house_banked_hand_and_shows_the_house(
    dealer, compliance, client_for, client, request
):
    api = client_for(dealer)
    hand, _ = play(api, request.getfixturevalue("war_table")["id"], HAND)
    assert api.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json").status_code == 201
    settlement = Settlement.objects.get(hand_id=hand["id"])
    client.force_login(compliance)
    page = client.get(reverse("compliance-settlement", args=[settlement.pk])).content.decode()
    steps = len(settlement.history["actions"]) + 2  # as it opened, each action, settled
    assert re.findall(r'<li data-step="(\d+)">', page) == [str(n) for n in range(steps)]
    assert "Replaying the history gives the stored result exactly." in page
    assert "<h3>The house · house" in page
    house = settlement.seats.get(seat=0)
    assert f'data-net="{house.net}">{money(house.net, True)}<' in page
