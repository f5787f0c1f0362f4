"""Chip custody on the dealer's tablet, by touch, against the API, upright and on its side:
an opener that matches the last closer is one tap, then a floor manager's signature opens
the table; a closer short beyond the report line asks for a reason (the server's refusal
shown at the field), and is stored with its variance; a fill the cage issued is signed at the
table; the dealer signs an opener a floor manager counted, in Greek. Every screen: axe (WCAG
2.2 AA), targets of 44 px and more, no sideways scroll, a screenshot in the test's tmp dir."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from custody.models import Inventory, Signature, Slip
from tables import services
from tables.models import Table
from tests.core.test_tablet_translations import entries
from tests.custody.conftest import OPENER, OPENER_TOTAL, opened, seated
from tests.tablet.dealing import BAR, Dealer

pytestmark = pytest.mark.django_db(transaction=True)

VIEWPORTS = [{"width": 1024, "height": 768}, {"width": 768, "height": 1024}]
GREEK = entries(
    Path(__file__).resolve().parents[2] / "tablet" / "locale" / "el" / "LC_MESSAGES" / "djangojs.po"
)


@pytest.fixture(params=VIEWPORTS, ids=["landscape", "portrait"])
def viewport(request: Any, page: Any) -> dict[str, int]:
    page.set_viewport_size(request.param)
    return request.param


@pytest.fixture
def hcf(chips: Any, floor: Any, dealer: Any) -> Table:
    """A High Card Flush table of a property that keeps chip custody: closed, players seated,
    dealt by ``dealer``."""
    table = services.table_create(
        user=floor,
        name="HCF-C",
        game="high-card-flush",
        seat_count=7,
        dealer=dealer,
        limits={"ante_min": 100, "ante_max": 10_000, "bank_min": 5_000, "bank_max": 1_000_000},
        rules={"rake": {"scheme": "per_player", "amount": 100}},
    )
    return seated(floor, table, {1: "Ana", 2: "Bela", 3: "Csilla", 4: "Dani"})


def close_through_the_api(client_for: Any, table: Table, dealer: Any, floor: Any) -> dict:
    counted = client_for(dealer).post(
        f"/api/v1/tables/{table.pk}/custody/closer/", {"counts": OPENER}, format="json"
    )
    assert counted.status_code == 201, counted.json()
    signed = client_for(floor).post(f"/api/v1/custody/inventories/{counted.json()['id']}/sign/")
    assert signed.status_code == 200, signed.json()
    return signed.json()


def check(tablet: Dealer, where: str, tmp_path: Path | None = None) -> None:
    """The screen as a dealer meets it: in view, accessible, every target 44 px or more, no
    sideways scroll; with ``tmp_path``, a screenshot for the eye."""
    page = tablet.page
    tablet.check_screen(where)
    small = page.evaluate(
        """() => [...document.querySelectorAll("button, input:not([type=hidden]), select, textarea, summary")]
            .filter((n) => n.offsetParent)
            .map((n) => [n.outerHTML.slice(0, 80), n.getBoundingClientRect()])
            .filter(([, r]) => r.width < 44 || r.height < 44)
            .map(([html, r]) => `${html} ${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )
    assert small == [], (where, small)
    widths = page.evaluate(
        """() => [document.documentElement.scrollWidth, innerWidth,
                  document.querySelector('main').scrollWidth, document.querySelector('main').clientWidth,
                  document.querySelector('#bar').scrollWidth, document.querySelector('#bar').clientWidth]"""
    )
    assert widths[0] <= widths[1] and widths[2] <= widths[3] and widths[4] <= widths[5], (
        where,
        widths,
    )
    if tmp_path is not None:
        size = page.viewport_size
        name = f"{where.replace(' ', '-')}-{size['width']}x{size['height']}.png"
        page.screenshot(path=str(tmp_path / name))


def counts_on_screen(page: Any) -> dict[str, int]:
    return {
        row.get_attribute("data-denomination"): int(row.locator("input").input_value() or 0)
        for row in page.locator(".cus-row").all()
    }


def test_an_opener_that_matches_the_last_closer_is_one_tap_then_the_floor_signs_it(
    viewport, hcf, dealer, floor, client_for, live_server, page, tmp_path
):
    opened(client_for, hcf, dealer, floor)
    last = close_through_the_api(client_for, hcf, dealer, floor)
    tablet = Dealer(page, live_server)
    tablet.at_table(dealer, hcf)  # the closed table: it opens with its counted opener
    check(tablet, "table closed with custody", tmp_path)

    tablet.tap(tablet.bar("button[data-action=count-opener]"))
    page.get_by_role("heading", name="Count the opener").wait_for()
    shown = counts_on_screen(page)
    assert {k: v for k, v in shown.items() if v} == OPENER
    assert set(shown) == {"25", "100", "500", "2500", "10000", "50000", "100000"}
    assert page.locator("#custody-total").inner_text() == "$5,600.00"
    row = page.locator(".cus-row[data-denomination='500']")
    assert "$5.00" in row.inner_text() and "red" in row.inner_text()
    assert row.locator("[data-role=row-amount]").inner_text() == "$1,000.00"
    send = tablet.bar("#custody-send")
    assert send.inner_text() == "Counts match the last closer"
    check(tablet, "custody opener", tmp_path)

    # A change shows against the last closer, and one tap brings the proposal back.
    tablet.touch(row.locator("[data-action=more]"))
    assert "last closer: 200" in row.inner_text()
    assert send.inner_text() == "Send the opener: $5,605.00"
    tablet.touch(tablet.bar("[data-action=count-reset]"))
    assert send.inner_text() == "Counts match the last closer"

    tablet.tap(send)
    page.get_by_role("heading", name="Waiting for a floor manager's signature").wait_for()
    assert tablet.taps == 2  # to the count, then "Counts match the last closer"
    counted = Inventory.objects.get(kind="opener", status="counted")
    assert (counted.counts, counted.total, counted.proposed_id) == (
        OPENER,
        OPENER_TOTAL,
        last["id"],
    )
    assert Table.objects.get(pk=hcf.pk).status == "closed"
    check(tablet, "custody opener waiting", tmp_path)

    signed = client_for(floor).post(f"/api/v1/custody/inventories/{counted.pk}/sign/")
    assert signed.status_code == 200, signed.json()
    tablet.touch(tablet.bar("[data-action=recheck]"))
    page.get_by_text("floor signed the opener: the table is open.").wait_for()
    assert Table.objects.get(pk=hcf.pk).status == "open"
    tablet.touch(page.locator("[data-action=back]"))
    assert page.locator("[data-action=custody]").inner_text() == "Chips and slips"


def test_a_closer_short_beyond_the_report_line_is_sent_with_its_reason(
    viewport, hcf, dealer, floor, client_for, live_server, page, tmp_path
):
    opened(client_for, hcf, dealer, floor)
    tablet = Dealer(page, live_server)
    tablet.at_table(dealer, hcf)
    tablet.tap(page.locator("[data-action=custody]"))
    assert page.locator("[data-expected]").get_attribute("data-expected") == str(OPENER_TOTAL)
    tablet.tap(tablet.bar("[data-action=count-closer]"))
    page.get_by_role("heading", name="Count the closer").wait_for()
    reason = page.locator("#custody-reason")
    for value, count in OPENER.items():
        tablet.type(page.locator(f"#count-{value}"), str(count))
    variance = page.locator("#custody-variance")
    assert variance.get_attribute("data-variance") == "0" and not reason.is_visible()
    # Two black chips are missing: the variance follows each tap, and past the report line
    # (25.00) the reason field appears.
    less = page.locator(".cus-row[data-denomination='10000'] [data-action=less]")
    tablet.tap(less)
    assert variance.get_attribute("data-variance") == "-10000" and reason.is_visible()
    tablet.tap(less)
    assert variance.get_attribute("data-variance") == "-20000"
    assert "$200.00 short" in variance.inner_text()
    assert page.locator("#custody-total").inner_text() == "$5,400.00"
    check(tablet, "custody closer", tmp_path)

    # Sent without a reason: the server refuses, and says so at the field.
    tablet.tap(tablet.bar("#custody-send"))
    problem = page.locator("#custody-reason-error")
    assert "needs a reason" in problem.inner_text(), problem.inner_text()
    assert reason.get_attribute("aria-invalid") == "true"
    assert not Inventory.objects.filter(kind="closer").exists()
    check(tablet, "custody closer refused", tmp_path)

    tablet.type(reason, "two black chips missing; surveillance asked")
    assert not problem.inner_text()
    tablet.tap(tablet.bar("#custody-send"))
    page.get_by_role("heading", name="Waiting for a floor manager's signature").wait_for()
    closer = Inventory.objects.get(kind="closer", status="counted")
    assert (closer.total, closer.expected, closer.variance) == (540_000, OPENER_TOTAL, -20_000)
    assert closer.reason == "two black chips missing; surveillance asked"
    assert closer.counts == {**OPENER, "10000": 18}
    assert "-$200.00" in page.locator(".cus-pending").inner_text().replace("−", "-")

    signed = client_for(floor).post(f"/api/v1/custody/inventories/{closer.pk}/sign/")
    assert signed.status_code == 200, signed.json()
    assert Table.objects.get(pk=hcf.pk).status == "closed"
    tablet.touch(tablet.bar("[data-action=recheck]"))
    page.get_by_text("floor signed the closer: the table is closed.").wait_for()
    # The next opener is proposed from this closer.
    assert {k: v for k, v in counts_on_screen(page).items() if v} == closer.counts


def test_a_fill_the_cage_issued_is_signed_at_the_table(
    viewport, hcf, dealer, floor, cage, client_for, live_server, page, tmp_path
):
    opened(client_for, hcf, dealer, floor)
    made = client_for(floor).post(
        f"/api/v1/tables/{hcf.pk}/custody/fills/", {"counts": {"500": 20, "2500": 4}}, format="json"
    )
    assert made.status_code == 201, made.json()
    fill = made.json()
    issued = client_for(cage).post(f"/api/v1/custody/slips/{fill['id']}/sign/", format="json")
    assert issued.json()["status"] == "issued"

    tablet = Dealer(page, live_server)
    tablet.at_table(dealer, hcf)
    way_in = page.locator("[data-action=custody]")
    assert way_in.inner_text() == "Chips and slips (1 to sign)"
    check(tablet, "table with a fill to sign", tmp_path)
    tablet.tap(way_in)
    slip = page.locator(f".cus-slip[data-slip='{fill['id']}']")
    text = slip.inner_text()
    assert fill["label"] in text and fill["label"].startswith("F-")
    assert "20 × $5.00 red" in text and "4 × $25.00 green" in text and "$200.00" in text
    assert "Signed: cage (cage)" in text and "On its way" in text
    check(tablet, "custody fill", tmp_path)

    sign = slip.locator("button[data-action=sign-slip]")
    tablet.tap(sign)
    assert sign.inner_text() == "Tap again: $200.00 received"
    assert not Signature.objects.filter(slip_id=fill["id"], signed_by=dealer).exists()
    tablet.tap(sign)
    page.get_by_text(f"You signed {fill['label']}.").wait_for()
    assert Signature.objects.get(slip_id=fill["id"], signed_by=dealer).step == "dealer"
    assert Slip.objects.get(pk=fill["id"]).status == "issued"  # the floor manager's is next
    assert "Signed: cage (cage), dealer (dealer)" in slip.inner_text()
    assert not slip.locator("button").count()

    received = client_for(floor).post(f"/api/v1/custody/slips/{fill['id']}/sign/", format="json")
    assert received.json()["status"] == "received"
    tablet.touch(tablet.bar("[data-action=recheck]"))
    page.get_by_text("No fill or credit is on its way.").wait_for()
    assert page.locator(".cus-fact", has_text="Fills").inner_text().endswith("$200.00")
    assert page.locator("[data-expected]").get_attribute("data-expected") == str(
        OPENER_TOTAL + 20_000
    )
    assert not page.locator(f"{BAR} button[data-action=sign-slip]").count()


def test_the_dealer_signs_an_opener_a_floor_manager_counted_in_greek(
    viewport, hcf, dealer, floor, client_for, live_server, page, tmp_path
):
    counted = client_for(floor).post(
        f"/api/v1/tables/{hcf.pk}/custody/opener/", {"counts": OPENER}, format="json"
    )
    assert counted.status_code == 201, counted.json()
    tablet = Dealer(page, live_server)
    tablet.at_table(dealer, hcf)
    page.context.add_cookies([{"name": "django_language", "value": "el", "url": live_server.url}])
    page.reload()
    page.wait_for_function("() => document.documentElement.lang === 'el'")
    opener = tablet.bar("[data-action=count-opener]")
    opener.wait_for()
    assert opener.inner_text() == GREEK["See the opener"]

    tablet.tap(opener)
    heading = GREEK["Sign the opener counted by %(who)s"].replace("%(who)s", "floor")
    page.get_by_role("heading", name=heading).wait_for()
    rows = page.locator(".cus-counts tbody tr")
    assert rows.count() == len(OPENER)
    assert GREEK["red"] in page.locator(".cus-counts tr[data-denomination='500']").inner_text()
    check(tablet, "custody sign in greek", tmp_path)
    sign = tablet.bar("[data-action=sign-count]")
    tablet.tap(sign)
    assert sign.inner_text() == GREEK["Tap again to sign: the table opens"]
    assert Table.objects.get(pk=hcf.pk).status == "closed"
    tablet.tap(sign)
    page.get_by_text(GREEK["You signed the opener: the table is open."]).wait_for()
    assert tablet.taps == 3  # to the count, and the signature's two taps
    assert Table.objects.get(pk=hcf.pk).status == "open"
    signed = Inventory.objects.get(pk=counted.json()["id"])
    assert signed.status == "signed"
    assert {(s.signed_by.username, s.step) for s in signed.signatures.all()} == {
        ("floor", "floor"),
        ("dealer", "dealer"),
    }
