"""A gaming day of chip custody through the API, at two tables: a player-banked High Card
Flush table (the house earns the collection fee) and a house-banked Casino War table (the
house's net moves the tray). Both are opened counted, filled and credited on numbered
slips, played, closed counted and their drop boxes counted; the day's report reconciles
custody and hands to the chip. (Here because Casino War, the suite's house-banked game,
is named only under tests/games/.)"""

from __future__ import annotations

from typing import Any

import pytest

from tables import services
from tests.conftest import record
from tests.custody.conftest import OPENER, OPENER_TOTAL, opened, seated
from tests.custody.test_custody_day_api import _close, _count_drop, _hcf, _sign_slip, _slip

from .casino_war.samples import TABLE as WAR_TABLE
from .casino_war.samples import short_hand

pytestmark = pytest.mark.django_db


def _war(floor: Any, dealer: Any) -> Any:
    table = services.table_create(user=floor, dealer=dealer, game="casino-war", **WAR_TABLE)
    return seated(floor, table, {1: "Ana", 2: "Bela"})


def test_a_gaming_day_at_two_tables_reconciles_custody_and_hands_to_the_chip(
    chips, floor, dealer, cage, counter, counter2, client_for
):
    hcf, war = _hcf(floor, dealer), _war(floor, dealer)
    opened(client_for, hcf, dealer, floor)
    opened(client_for, war, dealer, floor)
    client = client_for(dealer)

    # HCF: a fill of 10,000 (cage, then the table), one hand (rake 300), a credit of 25,000.
    fill = _slip(client_for, floor, hcf, "fill", {"500": 20})
    assert fill["label"].startswith("F-") and fill["status"] == "requested"
    assert _sign_slip(client_for, fill, cage)["status"] == "issued"
    assert _sign_slip(client_for, fill, dealer, floor)["status"] == "received"
    services.game_act(
        user=dealer, table_id=hcf.pk, action={"type": "accept", "seat": 1, "bank": 50_000}
    )
    hand = client.post(f"/api/v1/tables/{hcf.pk}/hands/").json()
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    assert settled.status_code == 201, settled.json()
    rake = settled.json()["rake"]
    assert rake == 300
    credit = _slip(client_for, floor, hcf, "credit", {"2500": 10})
    assert credit["label"].startswith("C-")
    assert _sign_slip(client_for, credit, dealer, floor)["status"] == "issued"
    assert _sign_slip(client_for, credit, cage)["status"] == "received"

    state = client.get(f"/api/v1/tables/{hcf.pk}/custody/").json()
    assert state["window"]["fills"] == 10_000 and state["window"]["credits"] == 25_000
    assert state["window"]["house_net"] == 0  # players bank: the house earns the fee only
    expected = OPENER_TOTAL + 10_000 - 25_000
    assert state["window"]["expected_tray"] == expected
    tray = {**OPENER, "500": OPENER["500"] + 20, "2500": OPENER["2500"] - 10}
    closer = _close(client_for, hcf, dealer, floor, tray)
    assert (closer["expected"], closer["variance"]) == (expected, 0)
    # The collection fee went to the drop box as chips.
    _count_drop(client_for, hcf, counter, counter2, {}, {"100": 3})

    # Casino War: the house banks; one hand, and a player buys 50.00 of chips for cash at the
    # table (the chips leave the tray, the cash goes to the drop box).
    hand = client.post(f"/api/v1/tables/{war.pk}/hands/", {}, format="json").json()
    for action in short_hand()[1]:
        acted = client.post(f"/api/v1/hands/{hand['id']}/actions/", action, format="json")
        assert acted.status_code == 200, acted.json()
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json").json()
    house = -sum(seat["net"] for seat in settled["seats"]) - settled["rake"]
    assert house != 0
    state = client.get(f"/api/v1/tables/{war.pk}/custody/").json()
    assert state["window"]["house_net"] == house
    assert state["window"]["expected_tray"] == OPENER_TOTAL + house
    sold = 5_000
    left = OPENER_TOTAL + house - sold
    quarters, rest = divmod(left - 500_000, 25)
    assert rest == 0
    tray = {"10000": 50, "25": quarters}
    refused = client.post(
        f"/api/v1/tables/{war.pk}/custody/closer/", {"counts": tray}, format="json"
    )
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["path"] == "reason"
    closer = _close(
        client_for, war, dealer, floor, tray, reason="50.00 of chips sold for cash at the table"
    )
    assert closer["variance"] == -sold
    _count_drop(client_for, war, counter, counter2, {"5000": 1}, {})

    # The variance above the report line waits for review in the approvals queue.
    queue = client_for(floor).get("/api/v1/approvals/", {"kind": "variance"}).json()["results"]
    assert [(row["table"], row["detail"]["variance"]) for row in queue] == [(war.pk, -sold)]

    day = {row["table_name"]: row for row in client_for(counter).get("/api/v1/custody/day/").json()}
    hcf_day, war_day = day["HCF-C"], day["WAR-1"]
    assert hcf_day["statistical_win"] == hcf_day["hand_win"] == rake
    assert hcf_day["win_difference"] == 0 and hcf_day["collection_difference"] == 0
    assert (hcf_day["fills"], hcf_day["credits"], hcf_day["drop"]) == (10_000, 25_000, rake)
    assert war_day["hand_win"] == house
    assert war_day["statistical_win"] == house  # the cash drop makes up the chips sold
    assert war_day["tray_variance"] == -sold and war_day["drop_cash"] == sold
