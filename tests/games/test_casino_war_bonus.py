"""A settlement line that is a bonus with no stake of its own (``Outcome.BONUS``), end to end
with Casino War's tie bonus: the engine settles it, storage keeps it, the audit check re-settles
it, the figures count it as a payout without a stake to divide by, and the API and the
compliance page show it. Nothing here names a game outside the test package."""

from __future__ import annotations

import pytest
from django.urls import reverse

from casino.rules.errors import RuleError
from casino.rules.settlement import Line, Outcome, Role, SeatResult, SeatStatus, Settlement
from payouts.figures import of_settlement, totals
from payouts.models import PayoutLine
from payouts.models import Settlement as StoredSettlement
from tests.games.test_casino_war import HAND, play, war, war_table  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


def seat(lines: tuple[Line, ...], number: int = 1) -> SeatResult:
    return SeatResult(number, Role.PLAYER, (), None, SeatStatus.SETTLED, lines, 0)


def test_a_bonus_has_no_stake_of_its_own_and_is_paid_on_a_wager_the_seat_staked() -> None:
    ante = Line("ante", 400, Outcome.PUSH, 0)
    bonus = Line("ante", 0, Outcome.BONUS, 800, "2:1")
    house = SeatResult(
        0,
        Role.HOUSE,
        (),
        None,
        SeatStatus.SETTLED,
        (
            Line("ante vs seat 1", 400, Outcome.PUSH, 0, None, {"against": 1}),
            Line("ante vs seat 1", 0, Outcome.BONUS, -800, "2:1", {"against": 1}),
        ),
        0,
    )
    good = Settlement("x", {}, (seat((ante, bonus)),), (), house=house)
    good.check_conserved()
    assert bonus.is_bonus and good.seat(1).staked("ante") == 400
    assert good.to_dict()["seats"][0]["lines"][1] == {
        "wager": "ante",
        "stake": 0,
        "outcome": "bonus",
        "amount": 800,
        "odds": "2:1",
    }
    staked = Line("ante", 400, Outcome.BONUS, 800)
    orphan = Line("raise", 0, Outcome.BONUS, 800)
    for lines in ((ante, staked), (ante, orphan)):
        wrong = Settlement(
            "x", {}, (seat(lines), seat((Line("ante", 800, Outcome.LOSE, -800),), 2)), ()
        )
        with pytest.raises(RuleError, match="bonus must have no stake of its own"):
            wrong.check_conserved()


def test_the_tie_bonus_is_stored_audited_counted_and_shown(
    request, dealer, compliance, client_for, client, django_capture_on_commit_callbacks
):
    api = client_for(dealer)
    table = request.getfixturevalue("war_table")
    hand, _ = play(api, table["id"], HAND)  # seat 3 ties twice: the ante's bonus is 2 x 400
    settled = api.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json")
    assert settled.status_code == 201, settled.json()
    lines = {s["seat"]: s["lines"] for s in settled.json()["seats"]}
    assert lines[3] == [
        {"wager": "ante", "stake": 400, "outcome": "push", "amount": 0, "odds": None},
        {"wager": "raise", "stake": 400, "outcome": "win", "amount": 400, "odds": "1:1"},
        {"wager": "ante", "stake": 0, "outcome": "bonus", "amount": 800, "odds": "2:1"},
    ]
    stored = StoredSettlement.objects.get(hand_id=hand["id"])
    rows = PayoutLine.objects.filter(seat__settlement=stored, outcome="bonus")
    assert sorted((row.seat.seat, row.stake, row.amount, row.against) for row in rows) == [
        (0, 0, -800, 3),
        (3, 0, 800, None),
    ]

    # The API's settlement: the stored rows and the result, the bonus in both.
    served = client_for(compliance).get(f"/api/v1/settlements/{stored.pk}/").json()
    seat3 = next(s for s in served["seats"] if s["seat"] == 3)
    assert {"wager": "ante", "stake": 0, "outcome": "bonus", "amount": 800}.items() <= (
        seat3["lines"][-1].items()
    )

    # The figures: the bonus is a payout with nothing staked; the handle is the stakes alone.
    figures = of_settlement(stored)
    assert figures == totals(StoredSettlement.objects.filter(pk=stored.pk))
    assert figures.handle == 1000 + 500 + 400 + 400
    assert figures.payouts == 1000 + 400 + 800 and figures.win == -1700
    assert figures.hold == pytest.approx(-1700 / 2300)

    # The audit check re-settles the hand through the game: the same lines, nothing wrong.
    with django_capture_on_commit_callbacks(execute=True):
        check = client_for(compliance).post("/api/v1/audit/checks/")
    report = client_for(compliance).get(f"/api/v1/audit/checks/{check.json()['id']}/").json()
    assert report["status"] == "passed", report["report"]["findings"]

    # The compliance page lists the line, and the hold page takes the day in its stride.
    client.force_login(compliance)
    page = client.get(reverse("compliance-settlement", args=[stored.pk])).content.decode()
    assert page.count(">bonus<") >= 2  # the seat's line and the house's mirror
    hold = client.get(reverse("compliance-hold"))
    assert hold.status_code == 200 and "WAR-1" in hold.content.decode()


def test_the_api_document_names_the_bonus_outcome(client_for, compliance):
    document = client_for(compliance).get("/api/schema/", HTTP_ACCEPT="application/json").json()
    text = str(document)
    assert "'bonus'" in text and "a payout with no stake of its own" in text
