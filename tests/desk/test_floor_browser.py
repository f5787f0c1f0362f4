"""A floor manager at a desk (Chromium at 1280x800) approves a dealer's limit change and
signs a large payout from the approvals queue, one tap each, and the pit's tiles follow the
floor live (htmx polling, under the Content-Security-Policy)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from approvals.models import Approval
from payouts.models import AuditEntry, Settlement, SignoffPolicy
from tables import services
from tables.models import Hand
from tests.browser import PATIENCE_MS
from tests.conftest import record
from tests.desk.helpers import log_in

pytestmark = pytest.mark.django_db(transaction=True)
ARTEFACTS = Path(__file__).resolve().parents[2] / "test-artefacts"


@pytest.fixture
def waiting(dp_table: Any, dealer: Any, floor: Any, client_for: Any) -> dict[str, Approval]:
    """What the dealer asked the floor for at HCF-T: a higher ante maximum, and the signature
    of a hand that pays above the table's sign-off limits (held, answered 202)."""
    change = services.change_request(
        user=dealer,
        table_id=dp_table.pk,
        changes={"ante_max": 20_000, "rules": {"coverage": "original_bank"}},
        reason="high rollers at 10",
    )
    SignoffPolicy.objects.create(
        table=dp_table, tiers=[{"above": 1, "role": "floor_manager", "count": 1}], set_by=floor
    )
    api = client_for(dealer)
    hand = api.post(f"/api/v1/tables/{dp_table.pk}/hands/")
    assert hand.status_code == 201, hand.json()
    held = api.post(f"/api/v1/hands/{hand.json()['id']}/settle/", record(), format="json")
    assert held.status_code == 202, held.json()
    return {
        "change": change.approval,
        "payout": Approval.objects.get(pk=held.json()["approval"]["id"]),
    }


def test_the_floor_approves_a_limit_change_and_signs_a_large_payout(
    waiting, dp_table, dealer, floor, client_for, live_server, page
):
    blocked: list[str] = []
    page.on(
        "console",
        lambda message: (
            blocked.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    log_in(page, live_server, floor)
    tile = page.locator(f"#table-{dp_table.pk}")
    expect(tile.locator(".hand")).to_have_text("Hand 1 open for 0 min")
    # The held payout is what the tile names (a payout before a limit change), with the other.
    expect(tile.locator(".waiting")).to_have_text("Payout sign-off waiting 0 min · 1 more")
    expect(tile.locator(".hands")).to_have_text("0")
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / "floor-pit.png"), full_page=True)

    tile.get_by_role("link", name="Payout sign-off waiting 0 min").click()
    page.get_by_role("heading", name="Approvals").wait_for()
    change = page.locator(f"#approval-{waiting['change'].pk}")
    payout = page.locator(f"#approval-{waiting['payout'].pk}")
    expect(change.locator("tr[data-key='ante_max'] .after")).to_have_text("$200.00")
    expect(payout.get_by_role("button", name="Send back")).to_be_visible()
    for button in page.get_by_role("button").all():
        if button.is_visible():
            assert button.bounding_box()["height"] >= 48
    page.screenshot(path=str(ARTEFACTS / "floor-approvals.png"), full_page=True)

    change.get_by_role("button", name="Approve").click()
    expect(change).to_contain_text("Approved: the change applies at HCF-T from hand 2.")
    payout.get_by_label("Note (the reason, to send back)").fill("paid in my presence")
    payout.get_by_role("button", name="Sign (1 of 1)").click()
    expect(payout).to_contain_text("Signed: the settlement of hand 1 is stored.")
    expect(payout.locator(".badge")).to_have_text("approved")
    page.screenshot(path=str(ARTEFACTS / "floor-approvals-decided.png"), full_page=True)

    # The change is approved and applied from the next hand.
    change_request = Approval.objects.get(pk=waiting["change"].pk)
    assert (change_request.status, change_request.decided_by) == ("approved", floor)
    dp_table.refresh_from_db()
    assert dp_table.limits["ante_max"] == 20_000 and dp_table.rules["coverage"] == "original_bank"
    assert change_request.change.applies_from_hand == 2
    # The held settlement is stored as it was shown: the dealer's, signed by the floor.
    signed = Approval.objects.get(pk=waiting["payout"].pk)
    assert (signed.status, signed.decided_by, signed.note) == (
        "approved",
        floor,
        "paid in my presence",
    )
    settlement = Settlement.objects.get()
    assert settlement.result == signed.detail["result"] and settlement.settled_by == dealer
    assert Hand.objects.get(pk=signed.hand_id).status == "settled"
    entry = AuditEntry.objects.get(action="hand_settle")
    assert entry.after["signed_off_by"] == "floor"

    # Back on the pit, the tile counts the hand; it follows the floor by itself.
    page.get_by_role("link", name="Pit").click()
    expect(tile.locator(".hands")).to_have_text("1")
    expect(tile.locator(".waiting")).to_have_text("Nothing waiting")
    services.game_act(
        user=dealer, table_id=dp_table.pk, action={"type": "accept", "seat": 2, "bank": 50_000}
    )
    opened = client_for(dealer).post(f"/api/v1/tables/{dp_table.pk}/hands/")
    assert opened.status_code == 201, opened.json()
    expect(tile.locator(".hand")).to_have_text("Hand 2 open for 0 min", timeout=PATIENCE_MS)
    assert blocked == []
