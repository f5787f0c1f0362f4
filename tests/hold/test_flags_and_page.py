"""The nightly flag and the hold page, on hands settled through the API as a tablet does.

The tables charge 100 per player and nothing to the designated player, so the house's
theoretical hold under the simulated strategy (ante at the table minimum of 100, a 1x raise,
both bonuses at 1x) is 100 / 400 = 25% whatever the cards and the number of players, with no
scatter: a table played that way holds exactly 25%, one played for ten times the ante without
bonuses 100 / 2000 = 5%.
"""

from __future__ import annotations

import random

import pytest

from casino.rules.cards import standard_deck
from hold import services as services_hold
from hold.models import HoldFlag, Theory
from hold.tasks import flag_tables_task
from payouts.figures import gaming_day
from tables import services
from tests.conftest import seat_and_open

pytestmark = pytest.mark.django_db

LIMITS = {"ante_min": 100, "ante_max": 10_000, "bank_min": 5_000, "bank_max": 1_000_000}
RULES = {"rake": {"scheme": "per_player_except_dp", "amount": 100}}
STRATEGY = {"ante": 100, "raise": 100, "flush_bonus": 100, "straight_flush_bonus": 100}
BIG = {"ante": 1000, "raise": 1000, "flush_bonus": 0, "straight_flush_bonus": 0}


@pytest.fixture(autouse=True)
def _small_minimums(settings):
    settings.HOLD_THEORY_HANDS = 200
    settings.HOLD_FLAG_MIN_HANDS = 4
    settings.HOLD_FLAG_MIN_HANDLE = 4_000


def hcf_table(floor, dealer, name):
    table = services.table_create(
        user=floor,
        name=name,
        game="high-card-flush",
        seat_count=7,
        dealer=dealer,
        limits=LIMITS,
        rules=RULES,
    )
    return seat_and_open(floor, table, {1: "Ana", 2: "Bela", 3: "Csilla", 4: "Dani"})


def play(client, dealer, table, hands, wagers, rng):
    """Settle ``hands`` hands through the API; the position goes round the table."""
    for _ in range(hands):
        table.refresh_from_db()
        dp = table.game_state["offer"]
        services.game_act(
            user=dealer,
            table_id=table.pk,
            action={"type": "accept", "seat": dp, "bank": 1_000_000},
        )
        hand = client.post(f"/api/v1/tables/{table.pk}/hands/")
        assert hand.status_code == 201, hand.json()
        deck = [str(card) for card in standard_deck()]
        rng.shuffle(deck)
        players = [seat for seat in (1, 2, 3, 4) if seat != dp]
        record = {
            "designated_player": {"seat": dp, "cards": deck[:7]},
            "players": [
                {"seat": seat, "cards": deck[7 * i + 7 : 7 * i + 14], **wagers}
                for i, seat in enumerate(players)
            ],
        }
        settled = client.post(
            f"/api/v1/hands/{hand.json()['id']}/settle/",
            record,
            format="json",
            HTTP_IDEMPOTENCY_KEY=f"{table.pk}-{hand.json()['id']}",
        )
        assert settled.status_code == 201, settled.json()


def test_the_nightly_flag_marks_a_table_outside_its_interval_and_the_page_shows_it(
    floor, dealer, compliance, client_for, client
):
    rng = random.Random(4)
    api = client_for(dealer)
    steady = hcf_table(floor, dealer, "HCF-STEADY")
    big = hcf_table(floor, dealer, "HCF-BIG")
    quiet = hcf_table(floor, dealer, "HCF-QUIET")
    play(api, dealer, steady, 4, STRATEGY, rng)  # 1200 wagered, 300 kept: 25%
    play(api, dealer, big, 4, BIG, rng)  # 6000 wagered, 300 kept: 5%
    play(api, dealer, quiet, 1, BIG, rng)  # 5% too, but one hand is too little to judge

    day = gaming_day()
    assert flag_tables_task.delay(day.isoformat()).get() == 1
    flag = HoldFlag.objects.get()
    assert flag.table == big and flag.day == day
    assert flag.actual == pytest.approx(0.05) and flag.expected == pytest.approx(0.25)
    assert flag.low == pytest.approx(0.25) and flag.high == pytest.approx(0.25)
    assert (flag.hands, flag.handle, flag.win) == (4, 4 * 3 * 2000, 4 * 300)
    # The three tables play one rules version: one figure, computed once for all of them,
    # the same the floor sees for the table's configuration.
    [figure] = Theory.objects.filter(measure="house")
    assert figure.digest == services_hold.house_spec(services_hold.table_specs(big)).digest
    # Judging the day again gives the same flag, not a second one.
    assert flag_tables_task.delay(day.isoformat()).get() == 1
    assert HoldFlag.objects.count() == 1

    anonymous = client_for(None).get("/desk/compliance/hold/")
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    client.force_login(dealer)
    assert client.get("/desk/compliance/hold/").status_code == 403
    client.force_login(compliance)
    page = client.get("/desk/compliance/hold/")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count('role="img"') == 3 and html.count("<desc id=") == 3
    assert f'<title id="hold-{big.pk}-title">Hold per gaming day at HCF-BIG</title>' in html
    assert "HCF-BIG: actual hold on 1 gaming day; its theoretical hold is 25.00%" in html
    assert html.count('class="flagged"') == 2  # the point on the chart and its table row
    assert html.count("outside the interval</td>") == 1
    assert html.count("inside the interval</td>") == 1
    assert "not judged: fewer than 4 hands</td>" in html
    flags = html[
        html.index('id="hold-flags"') : html.index("</table>", html.index('id="hold-flags"'))
    ]
    assert "HCF-BIG" in flags and "5.000%" in flags and "HCF-STEADY" not in flags
    # The chips wagered are the handle: the flags' and the days' tables and the chart say so.
    assert html.count('<th scope="col" class="num" title="chips wagered">Handle</th>') == 4
    assert "Hold (win / handle)" in html and "$40.00 of handle" in html
    content = html[html.index("<main") : html.index("</main>")]
    assert ">Drop<" not in content and " drop" not in content.lower()


def test_the_flag_runs_for_the_previous_gaming_day_by_default(floor, dealer, client_for):
    table = hcf_table(floor, dealer, "HCF-TODAY")
    play(client_for(dealer), dealer, table, 4, BIG, random.Random(5))
    # Today's hands are not yesterday's: the nightly run finds nothing to flag.
    assert flag_tables_task.delay().get() == 0
    assert flag_tables_task.delay(gaming_day().isoformat()).get() == 1


def test_a_dealer_cannot_open_the_hold_page_and_a_bad_range_is_refused(dealer, floor, client):
    client.force_login(dealer)
    assert client.get("/desk/compliance/hold/").status_code == 403
    client.force_login(floor)
    refused = client.get("/desk/compliance/hold/?from=2026-12-05&to=2026-12-01")
    assert refused.status_code == 400
    assert "the first day is after the last day" in refused.content.decode()
    empty = client.get("/desk/compliance/hold/")
    assert empty.status_code == 200 and "No hands were settled" in empty.content.decode()
