"""A compliance officer opens the shift report in a browser, picks the gaming day, and downloads
its CSV and its PDF; both carry the day's totals, which are the settlements' own figures."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from casino.core.money import money
from payouts import figures
from payouts.models import Settlement
from tests.browser import assert_accessible
from tests.conftest import record
from tests.reports.test_shift_custody import (  # noqa: F401 (custody_day: a fixture)
    VOID_REASON,
    custody_day,
)
from tests.tables.test_draw_live import open_hand as open_draw_hand
from tests.tables.test_draw_live import play_passively

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "a compliance officer's password 7"
ARTEFACTS = Path(__file__).resolve().parents[2] / "test-artefacts"
AMOUNTS = ("handle", "payouts", "rake", "win")


@pytest.fixture
def officer(compliance: Any) -> Any:
    compliance.set_password(PASSWORD)
    compliance.save()
    return compliance


@pytest.fixture
def played(dp_table: Any, draw_table: Any, dealer: Any, client_for: Any) -> dict[str, Any]:
    """A High Card Flush hand and a 7-A hand settled today; the day's totals added up from
    each settlement's own figures."""
    client = client_for(dealer)
    hand = client.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    assert settled.status_code == 201, settled.json()
    draw = open_draw_hand(client, draw_table)
    play_passively(client, draw)
    settled = client.post(f"/api/v1/hands/{draw['id']}/settle/", {}, format="json")
    assert settled.status_code == 201, settled.json()
    total = sum((figures.of_settlement(s) for s in Settlement.objects.all()), figures.Figures())
    assert total.hands == 2
    return {"day": figures.gaming_day(), "total": total}


def total_cells(total: figures.Figures) -> list[str]:
    """The totals as the page and the PDF write them: amounts in money."""
    amounts = [money(getattr(total, name)) for name in AMOUNTS]
    return [str(total.hands), *amounts, f"{total.hold * 100:.2f}"]


def csv_cells(total: figures.Figures) -> list[str]:
    """The totals as the CSV writes them: amounts plain numbers in dollars and cents."""
    amounts = [getattr(total, name) for name in AMOUNTS]
    plain = [f"{'-' if a < 0 else ''}{abs(a) // 100}.{abs(a) % 100:02d}" for a in amounts]
    return [str(total.hands), *plain, f"{total.hold * 100:.2f}"]


def test_a_compliance_officer_downloads_the_shift_report_as_csv_and_pdf(
    page: Any, live_server: Any, officer: Any, played: dict[str, Any]
) -> None:
    day, total = played["day"].isoformat(), played["total"]
    page.goto(f"{live_server.url}/desk/compliance/reports/")
    page.get_by_label("Username").fill(officer.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("heading", name=f"Shift report: gaming day {day}").wait_for()

    # The day is picked with the date field and shown again.
    page.get_by_label("Gaming day").fill(day)
    page.get_by_role("button", name="Show the report").click()
    page.wait_for_url(f"**/desk/compliance/reports/?day={day}")
    footer = page.locator("#figures tfoot tr td.num")
    assert footer.all_inner_texts() == total_cells(total)

    # Every control is at least 48 px high.
    for control in page.locator("main a.button, main button, main input, main select").all():
        assert control.bounding_box()["height"] >= 48, control.inner_text()

    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / "reports-shift.png"), full_page=True)

    with page.expect_download() as download_info:
        page.get_by_role("link", name="Figures (CSV)").click()
    download = download_info.value
    assert download.suggested_filename == f"shift-{day}.csv"
    rows = list(csv.reader(io.StringIO(Path(download.path()).read_text(encoding="utf-8"))))
    assert rows[0] == [
        "Table",
        "Game",
        "Hands",
        "Handle (USD)",
        "Payouts (USD)",
        "Rake (USD)",
        "Win (USD)",
        "Hold %",
    ]
    assert rows[-1] == ["TOTAL", "", *csv_cells(total)]
    assert len(rows) == 4  # the header, a row per table, the total

    with page.expect_download() as download_info:
        page.get_by_role("link", name="Whole report (PDF)").click()
    download = download_info.value
    assert download.suggested_filename == f"shift-{day}.pdf"
    pdf = Path(download.path()).read_bytes()
    (ARTEFACTS / f"reports-shift-{day}.pdf").write_bytes(pdf)
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert f"Shift report, gaming day {day}" in text
    assert "\n".join(["TOTAL", *total_cells(total)]) in text


def test_the_shift_report_with_chip_custody_reads_at_a_desk_and_at_768_px(
    page: Any,
    live_server: Any,
    officer: Any,
    custody_day: Any,  # noqa: F811
) -> None:
    """The custody part of the report (two tables, a void slip, two variances) passes axe at
    1280x800 and at 768 px wide without the page scrolling sideways; a window's link lists
    exactly its hands."""
    d = custody_day
    page.goto(f"{live_server.url}/desk/compliance/reports/?day={d.day}")
    page.get_by_label("Username").fill(officer.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("heading", name="Chip custody").wait_for()
    for header in ("Drop", "Statistical win", "Win (hands)"):
        assert page.get_by_role("columnheader", name=header, exact=True).count() >= 1, header
    assert page.locator("#slips tr.void").inner_text().count(VOID_REASON) == 1
    assert page.locator("#custody-win .mark.notify").inner_text() == "notify"
    for link in page.locator("#custody td a").all():
        assert link.bounding_box()["height"] >= 48, link.inner_text()
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / "reports-shift-custody-1280.png"), full_page=True)
    assert_accessible(page, "the shift report with chip custody at 1280x800")

    page.set_viewport_size({"width": 768, "height": 1024})
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    page.screenshot(path=str(ARTEFACTS / "reports-shift-custody-768.png"), full_page=True)
    assert_accessible(page, "the shift report with chip custody at 768 px")
    page.set_viewport_size({"width": 1280, "height": 800})

    # The first window of HCF-C: exactly its hand.
    page.locator("#custody tbody tr", has_text="HCF-C").locator("td a").first.click()
    page.get_by_role("heading", name="Settlements").wait_for()
    shown = page.locator("#settlements tbody tr").evaluate_all(
        "(rows) => rows.map((row) => Number(row.dataset.settlement))"
    )
    assert shown == d.hands["hcf-1"]
