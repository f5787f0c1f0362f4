"""A compliance officer at a desk (Chromium at 1280x800) filters the settlements, opens one
and reads its lines and its hand step by step, then runs the audit check from the audit log
and watches it pass; a check still running is followed live (htmx polling, under the
Content-Security-Policy) until it passes, without reloading the page."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from casino.core.money import money
from payouts.models import AuditCheck, Settlement
from payouts.tasks import audit_check_task
from tests.browser import PATIENCE_MS
from tests.conftest import record
from tests.tables.test_draw_live import open_hand as open_draw_hand
from tests.tables.test_draw_live import play_passively

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "a compliance officer's password 42"
ARTEFACTS = Path(__file__).resolve().parents[2] / "test-artefacts"


@pytest.fixture
def floor_settled(dp_table: Any, draw_table: Any, dealer: Any, client_for: Any) -> dict[str, Any]:
    """A High Card Flush hand settled from the dealer's record at HCF-T and a Five Card Draw
    7-A hand played action by action at 7A-1."""
    api = client_for(dealer)
    hand = api.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    response = api.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    assert response.status_code == 201, response.json()
    draw = open_draw_hand(api, draw_table)
    play_passively(api, draw)
    response = api.post(f"/api/v1/hands/{draw['id']}/settle/", {}, format="json")
    assert response.status_code == 201, response.json()
    return {
        "hcf": Settlement.objects.get(hand_id=hand["id"]),
        "draw": Settlement.objects.get(hand_id=draw["id"]),
    }


def log_in(page: Any, live_server: Any, user: Any) -> None:
    """Open the desk; the login page comes first and sends the officer back to it."""
    user.set_password(PASSWORD)
    user.save()
    page.goto(f"{live_server.url}/desk/compliance/")
    page.get_by_role("heading", name="Log in").wait_for()
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("heading", name="Settlements").wait_for()


def watch_csp(page: Any) -> list[str]:
    blocked: list[str] = []
    page.on(
        "console",
        lambda message: (
            blocked.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return blocked


def assert_controls_are_large_and_labelled(page: Any) -> None:
    """Every visible control in the page's main part is at least 48 px high and has a name."""
    page.wait_for_load_state("load")  # the style sheet applied
    controls = page.locator("main").locator("button, input, select, a, summary")
    assert controls.count() > 0
    for index in range(controls.count()):
        control = controls.nth(index)
        if not control.is_visible():
            continue
        box = control.bounding_box()
        assert box["height"] >= 48, (control.evaluate("e => e.outerHTML"), box)
        name = control.evaluate(
            "e => (e.labels && e.labels.length ? e.labels[0].innerText : e.innerText).trim()"
        )
        assert name, control.evaluate("e => e.outerHTML")


def test_an_officer_filters_opens_a_settlement_and_runs_the_audit_check(
    floor_settled, compliance, live_server, page
):
    blocked = watch_csp(page)
    log_in(page, live_server, compliance)
    rows = page.locator("#settlements tbody tr")
    expect(rows).to_have_count(2)
    expect(page.locator("#settlement-count")).to_have_text(re.compile(r"^2 settlements match"))
    assert_controls_are_large_and_labelled(page)

    # Only the draw game's hands.
    page.get_by_label("Game").select_option(label="Five Card Draw 7-A")
    page.get_by_role("button", name="Search").click()
    expect(page.locator("#settlement-count")).to_have_text(re.compile(r"^1 settlement matches"))
    expect(rows).to_have_count(1)
    assert "game=five-card-draw-7a" in page.url
    draw = floor_settled["draw"]
    expect(page.locator("[data-total=hands]")).to_have_text("1")
    expect(page.locator("[data-total=rake]")).to_have_text(money(draw.rake))
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / "compliance-settlements.png"), full_page=True)

    # A date range that ends before it starts is named, and nothing is listed.
    page.get_by_label("From (date)").fill("2026-03-05")
    page.get_by_label("To (date, included)").fill("2026-03-01")
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_role("alert")).to_contain_text(
        "To (date, included): the range ends (2026-03-01) before it starts (2026-03-05)"
    )
    expect(rows).to_have_count(0)
    page.get_by_label("From (date)").fill("")
    page.get_by_label("To (date, included)").fill("")
    page.get_by_role("button", name="Search").click()
    expect(rows).to_have_count(1)

    # Its page: every party's lines, and the hand step by step.
    page.get_by_role("link", name="7A-1 hand 1").click()
    page.get_by_role("heading", name=re.compile(r"^Settlement \d+: 7A-1 hand 1")).wait_for()
    page.locator("#payouts-fold > summary").click()
    for row in draw.seats.all():
        party = page.locator(f".party[data-seat='{row.seat}']")
        expect(party.locator(".net")).to_have_text(money(row.net, True))
        lines = list(row.lines.all())
        expect(party.locator("tbody tr")).to_have_count(len(lines))
        for index, line in enumerate(lines):
            cells = party.locator(f"tr[data-line='{index}'] td")
            expect(cells.nth(0)).to_have_text(line.wager)
            expect(cells.nth(3)).to_have_text(money(line.amount))
    expect(page.locator("#replay-title")).to_have_text("The hand as it opened")
    expect(page.locator("#replay-felt .seat-view")).to_have_count(len(draw.hand.seats))
    page.locator("#step-list-fold > summary").click()
    steps = page.locator("#step-list > li")
    expect(steps).to_have_count(len(draw.history["actions"]) + 2)
    expect(steps.first).to_contain_text("The hand as it opened")
    expect(steps.last).to_contain_text("The hand settled: ")
    expect(steps.last).to_contain_text("the hand is complete")
    expect(page.locator("#replay-verdict")).to_have_text(
        "Replaying the history gives the stored result exactly."
    )
    page.locator("#entries-fold > summary").click()
    opened = page.locator("#audit-entries tbody tr[data-action=hand_open]")
    expect(opened).to_contain_text("hand 1 opened (seats 1-3)")
    expect(page.locator("#audit-entries tbody tr").last).to_contain_text("hand settled: rake")
    assert_controls_are_large_and_labelled(page)
    page.screenshot(path=str(ARTEFACTS / "compliance-settlement.png"), full_page=True)

    # The audit log: run the check; it reports in place and passes.
    page.locator("nav").get_by_role("link", name="Audit log").click()
    page.get_by_role("heading", name="Audit log").wait_for()
    page.get_by_role("button", name="Run the audit check").click()
    check = page.locator("#audit-check-slot #audit-check")
    expect(check.locator("#check-status")).to_have_text("passed", timeout=PATIENCE_MS)
    expect(check).to_contain_text("every hand checked (2 hands, 2 settlements) matches")
    stored = AuditCheck.objects.get()
    assert stored.status == "passed" and stored.checked == stored.total > 0
    expect(check).to_contain_text(f"Checked {stored.total} of {stored.total} audit entries")
    assert_controls_are_large_and_labelled(page)
    page.screenshot(path=str(ARTEFACTS / "compliance-audit-check.png"), full_page=True)
    assert blocked == []


def test_a_running_check_is_followed_live_until_it_passes(
    floor_settled, compliance, live_server, page
):
    blocked = watch_csp(page)
    log_in(page, live_server, compliance)
    check = AuditCheck.objects.create(requested_by=compliance)  # queued, not yet run
    page.goto(f"{live_server.url}/desk/compliance/audit/checks/{check.pk}/")
    expect(page.locator("#check-status")).to_have_text("running")
    expect(page.locator("#check-stage")).to_have_text("Waiting for a worker.")
    page.evaluate("window.notReloaded = true")
    audit_check_task(check.pk)  # the worker picks it up while the page watches
    expect(page.locator("#check-status")).to_have_text("passed", timeout=PATIENCE_MS)
    assert page.evaluate("window.notReloaded") is True
    check.refresh_from_db()
    expect(page.locator("#check-progress-words")).to_have_text(
        f"Checked {check.total} of {check.total} audit entries, hands and tree leaves"
    )
    page.screenshot(path=str(ARTEFACTS / "compliance-check-followed.png"), full_page=True)
    assert blocked == []
