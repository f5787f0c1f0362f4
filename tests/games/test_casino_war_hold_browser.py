"""The hold page at a compliance desk (Chromium, 1280x800 and 768 wide): a game with a
theoretical hold drawn against it, a game whose package supplies none said so once, money in
the one format, WCAG 2.2 AA (axe-core) and no sideways scroll."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from casino.core.money import money
from casino.rules.contract import register, unregister
from tests.browser import CHROMIUM, assert_accessible, browser_type_launch_args  # noqa: F401
from tests.conftest import record
from tests.desk.test_compliance_browser import (
    assert_controls_are_large_and_labelled,
    log_in,
    watch_csp,
)
from tests.games.test_casino_war_theory import PlainWar, play_hands, war_table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not CHROMIUM,
        reason="no Chromium found: install Debian's (apt-get install chromium) to run the "
        "browser tests",
    ),
]
ARTEFACTS = Path(__file__).resolve().parents[2] / "test-artefacts"


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """A desk's screen (as ``tests/desk/conftest.py`` has it)."""
    return {**browser_context_args, "viewport": {"width": 1280, "height": 800}, "locale": "en"}


@pytest.fixture
def plain() -> Any:
    game = register(PlainWar())
    yield game
    unregister(game.code)


def test_the_hold_page_draws_each_table_against_its_theory_or_says_it_has_none(
    plain, dp_table, floor, dealer, compliance, client_for, live_server, page
):
    api = client_for(dealer)
    hand = api.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    assert (
        api.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json").status_code == 201
    )
    table = war_table(floor, dealer, "PLAIN-1", {}, game=plain.code)
    play_hands(dealer, table, 2, seed=5)

    blocked = watch_csp(page)
    log_in(page, live_server, compliance)
    page.goto(f"{live_server.url}/desk/compliance/hold/")
    hcf = page.locator("section.hold-table", has_text="HCF-T")
    war = page.locator("section.hold-table", has_text="PLAIN-1")
    # High Card Flush: its theoretical hold (computed when the table was created) drawn
    # as the dashed line, and its day's figures in the currency.
    expect(hcf.locator("polyline.expected")).to_have_count(1)
    expect(hcf.locator("table.hold-days tbody tr")).to_have_count(1)
    expect(page.get_by_text("A day is judged with at least")).to_contain_text(money(100_000))
    # The game with no theory: said once, no line, nothing "computing".
    expect(war.locator("p.no-theory")).to_have_text(
        "Plain War has no theoretical hold, so its days are not judged against one."
    )
    assert page.locator("main").inner_text().count("no theoretical hold") == 1
    expect(war.locator("polyline.expected")).to_have_count(0)
    expect(page.locator("main")).not_to_contain_text("computing")
    expect(war.locator("table.hold-days tbody tr td").last).to_have_text("not judged")
    assert_controls_are_large_and_labelled(page)
    assert_accessible(page, "hold page")
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / "hold-1280.png"), full_page=True)

    page.set_viewport_size({"width": 768, "height": 1024})
    page.reload()
    assert page.evaluate("document.documentElement.scrollWidth") <= 768
    assert_accessible(page, "hold page at 768 px")
    page.screenshot(path=str(ARTEFACTS / "hold-768.png"), full_page=True)
    assert blocked == []
