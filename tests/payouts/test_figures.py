"""The money figures of settled hands: summed in the database they equal the settlements'
own rows added up, and the house's win is the rake plus its net (minus the players' nets)."""

from __future__ import annotations

import pytest

from payouts import figures
from payouts.models import Settlement
from tests.conftest import record

pytestmark = pytest.mark.django_db


def test_figures_add_up_both_ways_and_the_win_is_what_players_lost(dp_table, dealer, client_for):
    client = client_for(dealer)
    hand = client.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json").json()
    one = figures.of_settlement(Settlement.objects.get())
    # A player-banked game: the house keeps the rake and nothing else.
    assert one.win == settled["rake"] == one.rake == 300
    # The designated player's lines mirror the players' wagers: counted once, as wagers.
    wagers = [
        line for seat in settled["seats"] if seat["role"] == "player" for line in seat["lines"]
    ]
    stakes = [line["stake"] for line in wagers]
    wins = [line["amount"] for line in wagers if line["amount"] > 0]
    assert sum(stakes) == 1000 + 1000 + 500 + 1000 + 2000
    assert (one.hands, one.handle, one.payouts) == (1, sum(stakes), sum(wins))
    assert figures.totals(Settlement.objects.all()) == one
    assert figures.totals(Settlement.objects.none()) == figures.Figures()
    assert one.hold == one.win / one.handle and figures.Figures().hold is None
    assert (one + one).to_dict()["handle"] == 2 * one.handle
    # The chips wagered are the handle; "drop" is the counted drop box, never a figure here.
    assert "drop" not in one.to_dict() and not hasattr(one, "drop")


def test_a_gaming_day_runs_from_its_start_time_to_the_next_days(settings):
    import datetime as dt

    from django.utils import timezone

    settings.GAMING_DAY_START = "06:00"
    utc = dt.UTC
    assert figures.gaming_day(dt.datetime(2026, 12, 1, 5, 59, tzinfo=utc)) == dt.date(2026, 11, 30)
    assert figures.gaming_day(dt.datetime(2026, 12, 1, 6, 0, tzinfo=utc)) == dt.date(2026, 12, 1)
    start, end = figures.gaming_day_bounds(dt.date(2026, 12, 1))
    assert (timezone.localtime(start).hour, end - start) == (6, dt.timedelta(days=1))


def test_the_theorys_figures_of_a_hand_are_the_stored_figures(
    dp_table, draw_table, dealer, client_for
):
    """``casino.rules.theory`` cannot read the database, so it counts an engine settlement's
    handle and win itself: for stored hands it must agree with ``payouts.figures``."""
    from casino.rules.contract import History, game
    from casino.rules.theory.estimate import hand_figures

    client = client_for(dealer)
    hand = client.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    for stored in Settlement.objects.all():
        history = History.from_dict(stored.history)
        engine = game(history.game).replay(history).settle()
        theirs, ours = hand_figures(engine), figures.of_settlement(stored)
        assert (theirs.handle, theirs.win, theirs.rake) == (ours.handle, ours.win, ours.rake)
