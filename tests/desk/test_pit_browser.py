"""A floor manager runs a busy pit at a 1280x800 desk (Chromium): fourteen tables, twelve and
more in sight at once below the header; a waiting void first, saying what and for how long,
one tap from the request; filters that the 5-second refresh keeps; a table closed only after
a second step naming it. axe-core finds nothing at 1280 and 768 px wide."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from approvals.models import Approval
from desk.floor import selectors
from tables import services
from tables.models import Table
from tests.browser import PATIENCE_MS, assert_accessible
from tests.conftest import open_hcf_table
from tests.desk.helpers import log_in
from tests.desk.test_pit_pages import NOW, asked_minutes_ago

pytestmark = pytest.mark.django_db(transaction=True)
ARTEFACTS = Path(__file__).resolve().parents[2] / "test-artefacts"


@pytest.fixture
def busy_pit(floor: Any, dealer: Any, client_for: Any, monkeypatch: Any) -> dict[str, Any]:
    """Fourteen tables: thirteen High Card Flush ones (HCF-01 to HCF-13) and a Pontoon one,
    closed; at HCF-09 a void has waited 6 minutes by the pit's clock."""
    monkeypatch.setattr(selectors, "clock", lambda: NOW)
    tables = {f"HCF-{n:02d}": open_hcf_table(floor, dealer, f"HCF-{n:02d}") for n in range(1, 14)}
    tables["PON-1"] = services.table_create(
        user=floor,
        name="PON-1",
        game="pontoon",
        seat_count=6,
        dealer=dealer,
        limits={"stake_min": 100, "stake_max": 2000},
    )
    voided = tables["HCF-09"]
    services.game_act(
        user=dealer, table_id=voided.pk, action={"type": "accept", "seat": 1, "bank": 50_000}
    )
    api = client_for(dealer)
    hand = api.post(f"/api/v1/tables/{voided.pk}/hands/").json()
    with asked_minutes_ago(6):
        asked = api.post(f"/api/v1/hands/{hand['id']}/void/", {"reason": "misdeal"}, format="json")
    assert asked.status_code == 202, asked.json()
    return {"tables": tables, "void": Approval.objects.get(pk=asked.json()["id"])}


def next_refresh(page: Any) -> Any:
    """Wait for the tiles' next refresh (every 5 seconds) and return the request it made."""
    with page.expect_response(
        lambda r: "/desk/floor/tiles/" in r.url, timeout=PATIENCE_MS
    ) as found:
        pass
    return found.value


def test_a_busy_pit_shows_twelve_tiles_urgency_first_and_the_void_one_tap_away(
    busy_pit, floor, live_server, page
):
    log_in(page, live_server, floor)
    tiles = page.locator("#pit-tiles li.tile")
    expect(tiles).to_have_count(14)
    header = page.locator("header.bar").bounding_box()
    viewport = page.viewport_size
    assert viewport == {"width": 1280, "height": 800}
    # At least twelve whole tiles inside the 1280x800 window, below the header.
    inside = 0
    for index in range(tiles.count()):
        box = tiles.nth(index).bounding_box()
        if (
            box["y"] >= header["y"] + header["height"]
            and box["y"] + box["height"] <= viewport["height"]
            and box["x"] >= 0
            and box["x"] + box["width"] <= viewport["width"]
        ):
            inside += 1
    assert inside >= 12, f"only {inside} tiles are in sight"
    # Every control of a tile is at least 48 px high.
    for control in page.locator("#pit-tiles button, #pit-tiles select, #pit-tiles a.waiting").all():
        assert control.bounding_box()["height"] >= 48

    # The waiting void comes first, marked in words, with its wait.
    first = tiles.first
    expect(first).to_have_attribute("data-table", "HCF-09")
    expect(first).to_have_class("tile open urgent")
    expect(first.locator("a.waiting")).to_have_text("Void waiting 6 min")
    expect(tiles.last).to_have_attribute("data-table", "PON-1")  # the closed one last
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / "pit-busy-1280.png"))
    assert_accessible(page, "the pit at 1280x800")

    # At 768 px wide: two columns, nothing sideways.
    page.set_viewport_size({"width": 768, "height": 1024})
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    page.screenshot(path=str(ARTEFACTS / "pit-busy-768.png"), full_page=True)
    assert_accessible(page, "the pit at 768 px")
    page.set_viewport_size({"width": 1280, "height": 800})

    # One tap on it opens the queue at that request.
    first.get_by_role("link", name="Void waiting 6 min").click()
    page.get_by_role("heading", name="Approvals").wait_for()
    assert page.url.endswith(f"#approval-{busy_pit['void'].pk}")
    expect(page.locator(f"#approval-{busy_pit['void'].pk}")).to_be_visible()


def test_the_filters_survive_the_refresh_and_closing_asks_first(busy_pit, floor, live_server, page):
    log_in(page, live_server, floor)
    page.get_by_label("Game").select_option(label="High Card Flush")
    page.get_by_label("Show").select_option(label="open")
    page.get_by_role("button", name="Filter").click()
    page.wait_for_url("**/desk/floor/?game=high-card-flush&status=open")
    tiles = page.locator("#pit-tiles li.tile")
    expect(tiles).to_have_count(13)
    # The refresh asks for the same tables, and they stay the same.
    refresh = next_refresh(page)
    assert "game=high-card-flush" in refresh.url and "status=open" in refresh.url
    expect(tiles).to_have_count(13)
    expect(page.get_by_label("Game")).to_have_value("high-card-flush")

    # Closing asks first, naming the table, and the refresh keeps asking.
    table = busy_pit["tables"]["HCF-03"]
    tile = page.locator(f"#table-{table.pk}")
    tile.get_by_role("button", name="Close table HCF-03").click()
    confirm = tile.get_by_role("button", name="Close HCF-03")
    expect(confirm).to_be_focused()
    expect(tile).to_contain_text("Close HCF-03? No hand can start until it is opened again.")
    assert_accessible(page, "the pit asking to close a table")
    page.screenshot(path=str(ARTEFACTS / "pit-close-asks.png"))
    next_refresh(page)
    expect(confirm).to_be_visible()
    assert Table.objects.get(pk=table.pk).status == "open"
    # "Keep it open" takes the question back; asked again, the second step closes it.
    tile.get_by_role("button", name="Keep it open").click()
    expect(confirm).to_have_count(0)
    assert Table.objects.get(pk=table.pk).status == "open"
    tile.get_by_role("button", name="Close table HCF-03").click()
    tile.get_by_role("button", name="Close HCF-03").click()
    expect(page.locator("#pit-notice")).to_have_text("Table HCF-03 is now closed.")
    assert Table.objects.get(pk=table.pk).status == "closed"
    # The filter still holds: the closed table has left the open ones.
    expect(tiles).to_have_count(12)
    expect(page.locator(f"#table-{table.pk}")).to_have_count(0)

    # A table with an open hand says why it cannot close, and offers no close.
    voided = busy_pit["tables"]["HCF-09"]
    tile = page.locator(f"#table-{voided.pk}")
    tile.get_by_role("button", name="Close table HCF-09").click()
    expect(tile).to_contain_text("HCF-09 cannot close: hand 1 is open. Settle or void it first.")
    expect(tile.get_by_role("button", name="Close HCF-09")).to_have_count(0)
    tile.get_by_role("button", name="Back").click()
    expect(tile.get_by_role("button", name="Close table HCF-09")).to_be_visible()
