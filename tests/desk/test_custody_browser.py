"""Chip custody in a browser (Chromium, 1280x800 and 768 px wide): a floor manager requests a
fill by denomination, watching its total as they type; the cage signs it on its queue and
prints its slip; the table's page shows it on its way, waiting for the table. The count team
counts a drop box with live totals, a second counter signs it and then corrects it (the
original struck through, the correction and its reason beneath). Each screen is kept as a
screenshot at both widths, never scrolls sideways, and passes every WCAG 2.2 AA rule axe has."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from custody.models import DropCount, Slip
from tables import services
from tests.browser import assert_accessible
from tests.custody.conftest import opened, seated
from tests.desk.helpers import log_in
from tests.desk.test_desk_layout_browser import sideways

pytestmark = pytest.mark.django_db(transaction=True)
ARTEFACTS = Path(__file__).resolve().parents[2] / "test-artefacts"


@pytest.fixture
def open_hcf(chips: Any, floor: Any, dealer: Any, client_for: Any) -> Any:
    table = services.table_create(
        user=floor,
        name="HCF-1",
        game="high-card-flush",
        seat_count=7,
        dealer=dealer,
        limits={"ante_min": 100, "ante_max": 10_000, "bank_min": 5_000, "bank_max": 1_000_000},
        rules={"rake": {"scheme": "per_player", "amount": 100}},
    )
    seated(floor, table, {1: "Ana", 2: "Bela", 3: "Csilla"})
    opened(client_for, table, dealer, floor)
    return table


def shoot(page: Any, name: str) -> None:
    """The screen at 1280x800 and at 768 px wide, kept as screenshots; neither scrolls
    sideways and both pass axe's WCAG 2.2 AA rules."""
    ARTEFACTS.mkdir(exist_ok=True)
    for size in ({"width": 1280, "height": 800}, {"width": 768, "height": 1024}):
        page.set_viewport_size(size)
        where = f"{name} at {size['width']} px"
        assert sideways(page) == "", where
        page.screenshot(path=str(ARTEFACTS / f"custody-{name}-{size['width']}.png"), full_page=True)
        assert_accessible(page, where, rules=None)
    page.set_viewport_size({"width": 1280, "height": 800})


def test_a_fill_requested_on_the_floor_is_signed_at_the_cage_and_waits_for_the_table(
    open_hcf, floor, cage, live_server, browser
):
    table_url = f"/desk/floor/tables/{open_hcf.pk}/"
    floor_context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en")
    page = floor_context.new_page()
    log_in(page, live_server, floor, table_url)
    page.get_by_role("link", name="Request a fill…").click()
    page.get_by_role("heading", name="Request a fill for HCF-1").wait_for()
    page.get_by_label("$5.00 red chips: how many").fill("20")
    page.get_by_label("$25.00 green chips: how many").fill("4")
    # The total follows what is typed.
    expect(page.locator('output[data-total="all"]')).to_have_text("$200.00")
    expect(page.locator("#id-counts-500 + output")).to_have_text("$100.00")
    shoot(page, "fill-form")
    page.get_by_role("button", name="Request the fill").click()
    slip = Slip.objects.get()
    expect(page.locator(".messages")).to_contain_text(
        f"Fill {slip.label} of $200.00 requested for HCF-1: it waits for the cage."
    )
    card = page.locator(f"#slip-{slip.pk}")
    expect(card).to_contain_text("Waiting for the cage")
    shoot(page, "table")
    # The pit's tile says it too, one tap from the slip.
    page.goto(f"{live_server.url}/desk/floor/")
    note = page.locator(f"#table-{open_hcf.pk} .fact.custody")
    expect(note).to_have_text(f"Fill F-…{slip.number} waiting for the cage")
    expect(
        page.locator(f"#table-{open_hcf.pk}").get_by_role(
            "link", name="Close table HCF-1: count its closer"
        )
    ).to_be_visible()
    shoot(page, "pit")
    note.get_by_role("link").click()
    page.wait_for_url(f"**/desk/floor/tables/{open_hcf.pk}/#slip-{slip.pk}")

    cage_context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en")
    cashier = cage_context.new_page()
    log_in(cashier, live_server, cage, "/desk/cage/")
    cage_card = cashier.locator(f"#slip-{slip.pk}")
    expect(cage_card).to_contain_text("20 × $5.00")
    expect(cage_card).to_contain_text("4 × $25.00")
    expect(cage_card.locator(".slip-total")).to_have_text("$200.00")
    shoot(cashier, "cage")
    cage_card.get_by_role("button", name=f"Sign: $200.00 left the cage (fill {slip.label})").click()
    expect(cashier.locator(".messages")).to_contain_text(
        f"Signed: fill {slip.label} of $200.00 left the cage for HCF-1"
    )
    expect(cashier.locator("#fills-title + p + .empty")).to_have_text("No fill waits for the cage.")
    # The slip prints from the cage: the first print is no reprint, the second says so.
    cashier.get_by_role("link", name=f"Print… fill {slip.label}").click()
    cashier.get_by_role("button", name=f"Print {slip.label}").click()
    cashier.wait_for_url(f"**/desk/slips/{slip.pk}/print/?copy=1")
    expect(cashier.locator(".reprint-mark")).to_have_count(0)
    expect(cashier.locator(".slip-doc")).to_contain_text("the chips left the cage")
    cashier.goto(f"{live_server.url}/desk/slips/{slip.pk}/print/")
    cashier.get_by_role("button", name=f"Reprint {slip.label}").click()
    cashier.wait_for_url(f"**/desk/slips/{slip.pk}/print/?copy=2")
    expect(cashier.locator(".reprint-mark")).to_have_text("REPRINT")
    shoot(cashier, "slip-reprint")
    # On paper: the slip alone (no header, no buttons), REPRINT across its top.
    cashier.emulate_media(media="print")
    expect(cashier.locator(".print-bar")).to_be_hidden()
    expect(cashier.locator("header.bar")).to_be_hidden()
    expect(cashier.locator(".reprint-mark")).to_be_visible()
    cashier.screenshot(path=str(ARTEFACTS / "custody-slip-reprint-paper.png"), full_page=True)
    cashier.emulate_media(media="screen")
    slip.refresh_from_db()
    assert (slip.status, slip.prints) == ("issued", 2)

    page.reload()
    card = page.locator(f"#slip-{slip.pk}")
    expect(card).to_contain_text(
        "On its way: waiting for the dealer and a floor manager at the table"
    )
    expect(
        card.get_by_role("button", name=f"Sign: received at the table (fill {slip.label})")
    ).to_be_visible()
    shoot(page, "table-fill-on-its-way")
    floor_context.close()
    cage_context.close()


def test_the_count_team_counts_a_box_a_second_counter_signs_and_corrects_it(
    open_hcf, counter, counter2, live_server, browser
):
    box = f"#box-{open_hcf.pk}"
    first_context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en")
    first = first_context.new_page()
    log_in(first, live_server, counter, "/desk/count/")
    panel = first.locator(box)
    panel.get_by_label("$20.00 notes: how many").fill("3")
    panel.get_by_label("$5.00 notes: how many").fill("2")
    panel.get_by_label("$1.00 white chips: how many").fill("3")
    expect(panel.locator('[data-group^="cash"] output[data-total="group"]')).to_have_text("$70.00")
    expect(panel.locator('[data-group^="chips"] output[data-total="group"]')).to_have_text("$3.00")
    expect(panel.locator('output[data-total="all"]')).to_have_text("$73.00")
    shoot(first, "count-form")
    panel.get_by_role("button", name="Enter the count of HCF-1").click()
    expect(first.locator(".messages")).to_contain_text("HCF-1's drop box is counted: $73.00")
    expect(first.locator(box)).to_contain_text("You signed it: another counter signs second.")
    drop = DropCount.objects.get()

    second_context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en")
    second = second_context.new_page()
    log_in(second, live_server, counter2, "/desk/count/")
    second.locator(box).get_by_role("button", name="Sign: $73.00 the count of HCF-1").click()
    expect(second.locator(f"{box} .box-head .state")).to_have_text("counted and signed: $73.00")
    panel = second.locator(box)
    panel.locator("summary").click()
    panel.get_by_label("$1.00 white chips: how many").fill("4")
    expect(panel.locator('output[data-total="all"]')).to_have_text("$74.00")
    panel.get_by_role("button", name="Enter the correction of HCF-1").click()
    # No reason: said at the field, nothing entered, what was typed kept.
    panel = second.locator(box)
    expect(panel.get_by_text("say why the count is corrected")).to_be_visible()
    expect(panel.get_by_label("$1.00 white chips: how many")).to_have_value("4")
    assert DropCount.objects.count() == 1
    panel.get_by_label("Why is it corrected?").fill("a chip stuck in the box")
    panel.get_by_role("button", name="Enter the correction of HCF-1").click()
    expect(second.locator(".messages")).to_contain_text("$73.00 becomes $74.00")
    correction = DropCount.objects.get(corrects=drop)
    expect(second.locator(f"#drop-{drop.pk} del")).to_contain_text("$73.00")
    expect(second.locator(f"#drop-{correction.pk}")).to_contain_text("Correction by counter2")
    expect(second.locator(f"#drop-{correction.pk} q")).to_have_text("a chip stuck in the box")
    shoot(second, "count-corrected")
    first.reload()
    first.locator(box).get_by_role("button", name="Sign: $74.00 the count of HCF-1").click()
    expect(first.locator(f"{box} .box-head .state")).to_have_text("counted and signed: $74.00")
    first_context.close()
    second_context.close()
