"""Large-payout sign-off at a desk (Chromium, 1280x800 and 768 px wide): the floor sets a
table's tiers without typing minor units or JSON; a $6,019 win waits for a floor manager and
then a shift manager, and its W-2G before either; compliance reads the records, masked. Each
page and each refused form passes axe-core (WCAG 2.2 AA) and never scrolls sideways."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from approvals.models import Approval
from payouts.models import Settlement
from payouts.signoff import policies_by_table
from tests.approvals import signoff_fixtures
from tests.approvals.signoff_fixtures import IDENTITY, SEVEN_SF, big_table, bonus_record, held
from tests.browser import assert_accessible
from tests.desk.helpers import log_in

pytestmark = pytest.mark.django_db(transaction=True)
ARTEFACTS = Path(__file__).resolve().parents[2] / "test-artefacts"
NARROW = {"width": 768, "height": 1024}
shift = signoff_fixtures.shift  # the fixture: a shift manager


def fits(page: Any, where: str) -> None:
    """No sideways scroll, and axe finds nothing, at the page's current width."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.evaluate("document.documentElement.clientWidth"), where
    assert_accessible(page, where)


def at_both_widths(page: Any, where: str) -> None:
    ARTEFACTS.mkdir(exist_ok=True)
    fits(page, f"{where} at 1280")
    page.screenshot(path=str(ARTEFACTS / f"signoff-{where}-1280.png"), full_page=True)
    page.set_viewport_size(NARROW)
    fits(page, f"{where} at 768")
    page.screenshot(path=str(ARTEFACTS / f"signoff-{where}-768.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})


def test_the_floor_sets_a_tables_tiers_in_money(dp_table, floor, live_server, page):
    log_in(page, live_server, floor, "/desk/floor/signoff-limits/")
    row = page.locator('tr[data-table="HCF-T"]')
    expect(row).to_contain_text("above $1,199.99: 1 floor manager")
    expect(row).to_contain_text("the built-in default")
    at_both_widths(page, "tiers")

    row.get_by_role("link", name="Edit the tiers of HCF-T").click()
    expect(page.get_by_role("heading", name="Set the tiers of table HCF-T")).to_be_visible()
    page.get_by_label("A win above (USD)").first.fill("2,500.005")
    page.get_by_role("button", name="Set these tiers").click()
    above = page.locator("#tier-1-above")
    expect(above).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#tier-1-above-error")).to_contain_text("at most 2 decimals")
    expect(above).to_have_value("2,500.005")
    at_both_widths(page, "tiers-refused")

    above.fill("2,500")
    page.locator("#tier-1-count").fill("2")
    page.locator("#tier-2-above").fill("")
    page.locator("#tier-2-role").select_option("")
    page.get_by_role("button", name="Set these tiers").click()
    expect(page.get_by_text("Tiers set for table HCF-T.")).to_be_visible()
    expect(row).to_contain_text("above $2,500.00: 2 floor managers")
    expect(row).to_contain_text("the table's own")
    policy = policies_by_table([dp_table])[dp_table.pk]
    assert [(t.above, t.role, t.count) for t in policy.tiers] == [(250_000, "floor_manager", 2)]


def test_a_two_tier_win_is_signed_by_two_people_after_its_w2g(
    dealer, floor, shift, compliance, client_for, live_server, page, browser
):
    table = big_table(floor, dealer)
    request = held(client_for(dealer), table, bonus_record(SEVEN_SF, 600))
    log_in(page, live_server, floor, "/desk/floor/approvals/")
    card = page.locator(f"#approval-{request['id']}")
    expect(card.get_by_role("heading", name="Signatures: 0 of 2")).to_be_visible()
    expect(card).to_contain_text("seat 2: a W-2G (the winner's name, ID, address and taxpayer id)")
    at_both_widths(page, "payout")

    # The W-2G's address and taxpayer id are missing: said next to each field.
    card.get_by_label("Name").fill(IDENTITY["name"])
    card.get_by_label("Government ID").select_option(IDENTITY["id_kind"])
    card.get_by_label("ID number").fill(IDENTITY["id_number"])
    card.get_by_role("button", name="Sign (1 of 2)").click()
    expect(card.locator('[id$="-2-address-error"]')).to_have_text(
        "seat 2: a W-2G or a CTR needs the address"
    )
    expect(card.get_by_label("ID number")).to_have_value(IDENTITY["id_number"])
    at_both_widths(page, "payout-refused")
    assert not Approval.objects.get(pk=request["id"]).signatures.exists()

    card.get_by_label("Address").fill(IDENTITY["address"])
    card.get_by_label("Taxpayer id").fill(IDENTITY["tin"])
    card.get_by_role("button", name="Sign (1 of 2)").click()
    expect(card).to_contain_text("Signed. The settlement of hand 1 is stored once 1 shift manager")
    expect(card.get_by_role("heading", name="Signatures: 1 of 2")).to_be_visible()
    expect(card).to_contain_text("•••• 6789")
    expect(card).not_to_contain_text("123-45-6789")
    expect(card.get_by_role("button", name="Sign (2 of 2)")).to_have_count(0)
    assert not Settlement.objects.exists()
    at_both_widths(page, "payout-one-signed")

    other = browser.new_page(viewport={"width": 1280, "height": 800})
    log_in(other, live_server, shift, "/desk/floor/approvals/")
    theirs = other.locator(f"#approval-{request['id']}")
    theirs.get_by_role("button", name="Sign (2 of 2)").click()
    expect(theirs).to_contain_text("Signed: the settlement of hand 1 is stored.")
    expect(theirs.locator(".badge")).to_have_text("approved")
    settlement = Settlement.objects.get()
    other.close()

    reader = browser.new_page(viewport={"width": 1280, "height": 800})
    log_in(reader, live_server, compliance, "/desk/compliance/filings/")
    records = reader.locator("#records")
    expect(records).to_contain_text("Ana Kovacs")
    expect(records).to_contain_text("$6,000.00")
    expect(records).to_contain_text("•••• 6789")
    expect(records).not_to_contain_text("D123")
    expect(records.get_by_role("link", name=f"{table.name} hand 1")).to_have_attribute(
        "href", f"/desk/compliance/settlements/{settlement.pk}/"
    )
    at_both_widths(reader, "records")
    reader.get_by_role("link", name="MTL entries").click()
    expect(reader.locator("#records")).to_contain_text("$6,019.00")
    # The settlement's page says who signed which tier, and its records, masked.
    reader.locator("#records").get_by_role("link", name=f"{table.name} hand 1").click()
    reader.locator("#signoffs-fold summary").click()
    signed = reader.locator("#settlement-signoff")
    expect(signed).to_contain_text("Large-payout signatures: 2 of 2")
    expect(signed).to_contain_text("A win above $5,000.00 (1 shift manager): shift at")
    expect(signed).to_contain_text("driver's licence •••• 6789")
    assert_accessible(reader, "settlement with its sign-off")
    reader.close()
