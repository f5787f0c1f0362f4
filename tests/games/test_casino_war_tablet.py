"""The suite's sixth game, house-banked and registered by the tests alone, on the dealer
tablet: the house's own cards show through the presentation view, with no tablet change."""

from __future__ import annotations

from typing import Any

import pytest

from payouts.models import Settlement
from tests.browser import CHROMIUM, browser_type_launch_args  # noqa: F401
from tests.games.test_casino_war import war, war_table  # noqa: F401
from tests.tablet.dealing import Dealer

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not CHROMIUM,
        reason="no Chromium found: install Debian's (apt-get install chromium) to run the "
        "browser tests",
    ),
]


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_context_args,
        "viewport": {"width": 1024, "height": 768},
        "has_touch": True,
        "locale": "en",
    }


def test_a_house_banked_game_shows_the_dealers_cards_with_no_tablet_change(
    war_table,  # noqa: F811
    dealer,
    live_server,
    page,
):
    """Casino War, registered by the test suite alone: the house's own card shows on the
    house's place through the presentation view."""
    from tables.models import Table

    table = Table.objects.get(pk=war_table["id"])
    tablet = Dealer(page, live_server)
    tablet.at_table(dealer, table)
    tablet.act("open")
    cards = iter(["Kh", "4c", "9s", "7d"])  # seats 1-3, then the house
    for _ in range(10):
        kinds = {a[0] for a in tablet.actions()}
        if "settle" in kinds:
            break
        if "bet" in kinds:
            seat = next(a[1] for a in tablet.actions() if a[0] == "bet")
            tablet.act("bet", int(seat), "min")
        else:
            tablet.card(next(cards))
    house = page.locator("[data-seat-view='0']")
    assert house.locator("[data-face='7d']").count() == 1
    assert "House" in house.inner_text()
    tablet.shot("casino-war-complete")
    tablet.check_screen("casino war complete")
    tablet.settle()
    assert Settlement.objects.count() == 1
