"""The audit check replays every stored hand through its game, Paiute included: a result
rewritten with its rows, so that they agree, is still found by the replay."""

from __future__ import annotations

import json

import pytest

from payouts.audit import audit_report
from payouts.models import SeatSettlement, Settlement
from tables import live, services
from tests.payouts.forgery import as_database_superuser
from tests.tables.test_paiute_live import DEAL, STEPS, paiute_table  # noqa: F401 (fixture)
from tests.tables.test_palace_live import PLAYERS, palace_table  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

PALACE_STEPS = [
    {"seat": 2, "type": "battle", "target": 3, "amount": 500},
    {"seat": 3, "type": "fold"},
    {"seat": 1, "type": "battle", "target": 2, "amount": 500},
    {"seat": 2, "type": "call"},
]


def play(dealer, table, body, steps) -> Settlement:
    hand = services.hand_open(user=dealer, table_id=table.pk, body=body)
    for step in steps:
        live.hand_act(user=dealer, hand_id=hand.pk, action=step)
    return services.hand_settle(user=dealer, hand_id=hand.pk, record={})


def forge_net(settlement: Settlement, seat: int, delta: int) -> None:
    """Move ``delta`` from seat ``seat`` to the next seat in the result and in the rows,
    keeping chips conserved and the rows in line with the result."""
    result = json.loads(json.dumps(settlement.result))
    seats = result["seats"]
    [mine] = [s for s in seats if s["seat"] == seat]
    other = next(s for s in seats if s["seat"] != seat)
    mine["net"] += delta
    other["net"] -= delta
    with as_database_superuser():
        Settlement.objects.filter(pk=settlement.pk).update(result=result)
        for entry in (mine, other):
            SeatSettlement.objects.filter(settlement=settlement, seat=entry["seat"]).update(
                net=entry["net"]
            )


@pytest.mark.parametrize("game", ["paiute", "palace-poker"])
def test_a_rewritten_result_is_found_by_replaying_the_history(game, dealer, request):
    if game == "paiute":
        table, body, steps = request.getfixturevalue("paiute_table"), DEAL, STEPS
    else:
        table, body, steps = (
            request.getfixturevalue("palace_table"),
            {"players": PLAYERS},
            PALACE_STEPS,
        )
    settlement = play(dealer, table, body, steps)
    assert settlement.history["game"] == game
    assert settlement.history["actions"] == steps
    clean = audit_report()
    assert clean["ok"], clean["findings"]
    assert clean["settlements_checked"] == 1

    winner = max(settlement.result["seats"], key=lambda s: s["net"])["seat"]
    forge_net(settlement, winner, 100)
    report = audit_report()
    assert report["ok"] is False
    problems = [f["problem"] for f in report["findings"] if f.get("seat") == winner]
    assert any(p.startswith(f"seat {winner}: re-settling gives a different net") for p in problems)
