"""Reports for compliance and the floor: a gaming day's shift report (figures per table and in
total, large payouts with their sign-offs, voids, corrections, limit changes) and one table's
report over a range of days, as pages, CSV and PDF. Their figures are the settlements' own
rows summed, to the chip, wherever they are read."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections import defaultdict
from html import unescape
from html.parser import HTMLParser
from typing import Any

import pytest
from django.utils import timezone
from pypdf import PdfReader

from approvals.models import Approval
from casino.core.money import money
from casino.rules.contract import registry
from payouts import figures
from payouts.models import PayoutLine, SeatSettlement, Settlement, SignoffPolicy
from tables.models import Hand
from tests.conftest import record
from tests.tables.test_draw_live import open_hand as open_draw_hand
from tests.tables.test_draw_live import play_passively

pytestmark = pytest.mark.django_db

REPORTS = "/desk/compliance/reports/"
FIGURES = ("hands", "handle", "payouts", "rake", "win")
AMOUNTS = ("handle", "payouts", "rake", "win")
#: The figures' CSV header, in the default currency (USD, two decimals).
CSV_FIGURES = ["Hands", "Handle (USD)", "Payouts (USD)", "Rake (USD)", "Win (USD)", "Hold %"]
VOID_REASON = "misdeal: seat 3 dealt eight cards"


# ---------------------------------------------------------------- playing a gaming day


def settle_hcf(client: Any, table: Any, body: dict[str, Any]) -> int:
    hand = client.post(f"/api/v1/tables/{table.pk}/hands/")
    assert hand.status_code == 201, hand.json()
    settled = client.post(f"/api/v1/hands/{hand.json()['id']}/settle/", body, format="json")
    assert settled.status_code == 201, settled.json()
    return hand.json()["id"]


def settle_draw(client: Any, table: Any) -> Any:
    """A 7-A hand played through (everyone calls or checks) and settled: 201, or 202 when it
    is held for a sign-off."""
    hand = open_draw_hand(client, table)
    play_passively(client, hand)
    return client.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json")


@pytest.fixture
def gaming_day_played(
    dp_table, draw_table, dealer, floor, floor2, client_for, void_hand, settings
) -> dict[str, Any]:
    """A 7-A hand settled before the gaming day starts (the day's start is moved to just
    after it); then, inside the day, a High Card Flush hand, a 7-A hand and a 7-A hand held
    for a sign-off and signed, a voided High Card Flush hand, an approved limit change and
    a rejected rule change."""
    client = client_for(dealer)
    early = settle_draw(client, draw_table)
    assert early.status_code == 201, early.json()
    before = Settlement.objects.get(hand_id=early.json()["hand"])
    start = timezone.localtime(before.settled_at) + dt.timedelta(microseconds=1)
    settings.GAMING_DAY_START = start.time().isoformat()

    in_day = [settle_hcf(client, dp_table, record())]
    second = settle_draw(client, draw_table)
    assert second.status_code == 201, second.json()
    in_day.append(second.json()["hand"])
    SignoffPolicy.objects.create(
        table=draw_table, tiers=[{"above": 100, "role": "floor_manager", "count": 1}], set_by=floor
    )
    held = settle_draw(client, draw_table)
    assert held.status_code == 202, held.json()
    signed = client_for(floor).post(
        f"/api/v1/approvals/{held.json()['approval']['id']}/approve/",
        {"note": "paid in my presence"},
        format="json",
    )
    assert signed.status_code == 200, signed.json()
    in_day.append(held.json()["approval"]["hand"])

    # The position passes to seat 2, whose hand is voided: it counts for nothing.
    accepted = client.post(
        f"/api/v1/tables/{dp_table.pk}/game/actions/",
        {"type": "accept", "seat": 2, "bank": 50_000},
        format="json",
    )
    assert accepted.status_code == 200, accepted.json()
    voided = client.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    void_hand(voided["id"], asks=dealer, approves=floor, reason=VOID_REASON)

    raised = client.post(
        f"/api/v1/tables/{dp_table.pk}/changes/",
        {"changes": {"ante_max": 20_000}, "reason": "busy night"},
        format="json",
    ).json()
    assert (
        client_for(floor2)
        .post(f"/api/v1/changes/{raised['id']}/approve/", {"note": "ok"}, format="json")
        .status_code
        == 200
    )
    raked = client.post(
        f"/api/v1/tables/{draw_table.pk}/changes/",
        {"changes": {"rules": {"rake": {"fixed": 75}}}, "reason": "more rake"},
        format="json",
    ).json()
    assert (
        client_for(floor)
        .post(f"/api/v1/changes/{raked['id']}/reject/", {"note": "not tonight"}, format="json")
        .status_code
        == 200
    )
    day = figures.gaming_day()
    assert Settlement.objects.filter(hand_id__in=in_day).count() == 3
    assert Hand.objects.get(pk=voided["id"]).status == "voided"
    return {
        "day": day,
        "before": figures.gaming_day(before.settled_at),
        "early_hand": before.hand_id,
        "in_day": in_day,
        "voided": voided["id"],
        "hcf": dp_table,
        "draw": draw_table,
    }


def expected(hand_ids: list[int]) -> dict[str, dict[str, int]]:
    """The figures per table and in total, added up here from the settlements' own rows:
    each wager a player staked (a bank's mirror lines, naming the seat ``against``, are the
    same wagers), each winning line, the rake, and the house's win as what the players' nets
    lost."""
    sums: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(FIGURES, 0))
    for settlement in Settlement.objects.filter(hand_id__in=hand_ids).select_related("hand"):
        own = dict.fromkeys(FIGURES, 0)
        own["hands"], own["rake"] = 1, settlement.rake
        for seat in SeatSettlement.objects.filter(settlement=settlement).exclude(seat=0):
            own["win"] -= seat.net
            for line in PayoutLine.objects.filter(seat=seat, against__isnull=True):
                own["handle"] += line.stake
                own["payouts"] += max(line.amount, 0)
        # The same as the one definition says for this settlement alone.
        assert own == {k: getattr(figures.of_settlement(settlement), k) for k in FIGURES}
        for key in (settlement.hand.table.name, "TOTAL"):
            for name, value in own.items():
                sums[key][name] += value
    return dict(sums)


def hold(numbers: dict[str, int]) -> str:
    return f"{numbers['win'] / numbers['handle'] * 100:.2f}" if numbers["handle"] else ""


def cents(minor: int) -> str:
    """Minor units of a two-decimal currency as a CSV writes them: ``-1205`` -> ``-12.05``."""
    sign = "-" if minor < 0 else ""
    return f"{sign}{abs(minor) // 100}.{abs(minor) % 100:02d}"


def as_shown(numbers: dict[str, int]) -> dict[str, str]:
    """Figures as a page shows them: the count of hands, amounts in money, the hold."""
    return {
        "hands": str(numbers["hands"]),
        **{name: money(numbers[name]) for name in AMOUNTS},
        "hold": hold(numbers),
    }


def as_csv(numbers: dict[str, int]) -> list[str]:
    """Figures as a CSV row writes them: amounts plain numbers in major units."""
    return [str(numbers["hands"]), *(cents(numbers[name]) for name in AMOUNTS), hold(numbers)]


# ---------------------------------------------------------------- reading what users read


class TableCells(HTMLParser):
    """The text of each row's cells of the page's ``<table id=...>``."""

    def __init__(self, table_id: str) -> None:
        super().__init__()
        self.table_id, self.inside, self.cell = table_id, False, None
        self.rows: list[list[str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table" and dict(attrs).get("id") == self.table_id:
            self.inside = True
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.inside = False
        elif self.inside and tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(" ".join(" ".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def page_rows(html: str, table_id: str = "figures") -> list[list[str]]:
    parser = TableCells(table_id)
    parser.feed(html)
    return parser.rows


def numbers(cells: list[str]) -> dict[str, Any]:
    """hands, handle, payouts, rake, win and hold from a row's last six cells, as shown."""
    values = dict(zip(FIGURES, cells[-6:-1], strict=True))
    return {**values, "hold": "" if cells[-1] in ("", "\u2014") else cells[-1]}


def pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def pdf_words(content: bytes) -> str:
    """The PDF's text with every run of spaces and line breaks as one space (a cell's text
    wraps)."""
    return " ".join(pdf_text(content).split())


def in_pdf_row(cells: list[str], text: str) -> bool:
    """Whether the PDF's text has a table row of these cells (its text has a line per
    cell)."""
    return re.search(rf"^{re.escape(chr(10).join(cells))}$", text, re.M) is not None


def signed_in(client: Any, user: Any) -> Any:
    client.force_login(user)
    return client


# ---------------------------------------------------------------- who may read


URLS = {  # each report's page and downloads, with what a reader gets
    REPORTS: "text/html; charset=utf-8",
    f"{REPORTS}shift.csv": "text/csv; charset=utf-8",
    f"{REPORTS}shift.pdf": "application/pdf",
    f"{REPORTS}shift-voids.csv": "text/csv; charset=utf-8",
    f"{REPORTS}table/": "text/html; charset=utf-8",
    f"{REPORTS}table.csv?table={{table}}": "text/csv; charset=utf-8",
    f"{REPORTS}table.pdf?table={{table}}": "application/pdf",
}


@pytest.mark.parametrize("url", URLS)
@pytest.mark.parametrize("who", ["compliance", "floor", "dealer"])
def test_compliance_and_the_floor_read_reports_and_dealers_are_refused(
    url, who, client, open_table, request
):
    user = request.getfixturevalue(who)
    response = signed_in(client, user).get(url.format(table=open_table.pk))
    if who == "dealer":
        assert response.status_code == 403
        assert "Content-Disposition" not in response  # nothing of the report is sent
    else:
        assert response.status_code == 200 and response["Content-Type"] == URLS[url]


@pytest.mark.parametrize("url", URLS)
def test_a_visitor_who_is_not_signed_in_is_sent_to_the_login_page(url, client, open_table):
    response = client.get(url.format(table=open_table.pk))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


# ---------------------------------------------------------------- reconciliation


def test_the_shift_reports_page_csv_and_pdf_are_the_settlements_rows_summed(
    gaming_day_played, client, compliance
):
    played = gaming_day_played
    day = played["day"]
    want = expected(played["in_day"])
    hcf, draw = played["hcf"].name, played["draw"].name
    # The voided hand and the hand settled before the day count for nothing.
    assert want[hcf]["hands"] == 1 and want[draw]["hands"] == 2 and want["TOTAL"]["hands"] == 3
    assert want["TOTAL"]["win"] == sum(want[name]["win"] for name in (hcf, draw))
    games = {hcf: registry()["high-card-flush"].name, draw: registry()["five-card-draw-7a"].name}
    signed_in(client, compliance)

    # The page: by default the current gaming day, the same as the day named.
    page = client.get(REPORTS)
    assert page.status_code == 200
    html = page.content.decode()
    named = client.get(REPORTS, {"day": day.isoformat()}).content.decode()
    assert page_rows(html) == page_rows(named) and len(page_rows(html)) == 4
    start, end = figures.gaming_day_bounds(day)
    assert f"Shift report: gaming day {day.isoformat()}" in html
    assert timezone.localtime(start).strftime("%Y-%m-%d %H:%M") in html
    assert timezone.localtime(end).strftime("%Y-%m-%d %H:%M") in html
    rows = page_rows(html)
    assert rows[0] == ["Table", "Game", "Hands", "Handle", "Payouts", "Rake", "Win", "Hold %"]
    shown = {cells[0]: (cells[1], numbers(cells)) for cells in rows[1:]}
    assert set(shown) == {hcf, draw, "TOTAL"}
    for name, numbers_ in want.items():
        game, got = shown[name]
        assert game == games.get(name, "")
        assert got == as_shown(numbers_), name

    # The CSV: a header row, a row per table, the TOTAL row.
    download = client.get(f"{REPORTS}shift.csv", {"day": day.isoformat()})
    assert download.status_code == 200
    assert download["Content-Type"] == "text/csv; charset=utf-8"
    assert download["Content-Disposition"] == f'attachment; filename="shift-{day}.csv"'
    table = list(csv.reader(io.StringIO(download.content.decode())))
    assert table[0] == ["Table", "Game", *CSV_FIGURES]
    assert [row[0] for row in table[1:]] == sorted([hcf, draw]) + ["TOTAL"]
    for row in table[1:]:
        numbers_ = want[row[0]]
        assert row[1] == games.get(row[0], "")
        assert row[2:] == as_csv(numbers_)

    # The PDF: the title, the day and its bounds, a line per table and the TOTAL line.
    pdf = client.get(f"{REPORTS}shift.pdf", {"day": day.isoformat()})
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert pdf["Content-Disposition"] == f'attachment; filename="shift-{day}.pdf"'
    text = pdf_text(pdf.content)
    assert f"Shift report, gaming day {day}" in text
    assert (
        f"from {timezone.localtime(start):%Y-%m-%d %H:%M:%S} "
        f"to {timezone.localtime(end):%Y-%m-%d %H:%M:%S}"
    ) in text
    assert "amounts in USD" in text and "minor units" not in text
    for name, numbers_ in want.items():
        cells = [name, *([games[name]] if name in games else [])]
        cells += [*list(as_shown(numbers_).values())[:-1], hold(numbers_) or "\u2014"]
        assert in_pdf_row(cells, text), (name, text)


def test_the_hand_settled_before_the_day_is_in_the_day_before(gaming_day_played, client, floor):
    played = gaming_day_played
    want = expected([played["early_hand"]])
    draw = played["draw"].name
    assert played["before"] < played["day"]
    page = signed_in(client, floor).get(REPORTS, {"day": played["before"].isoformat()})
    shown = {cells[0]: numbers(cells) for cells in page_rows(page.content.decode())[1:]}
    assert shown == {draw: as_shown(want[draw]), "TOTAL": as_shown(want["TOTAL"])}
    assert "No hand was voided in this gaming day." in page.content.decode()


def test_the_table_report_has_a_row_per_gaming_day_and_the_total(
    gaming_day_played, client, compliance
):
    played = gaming_day_played
    table = played["draw"]
    first, last = played["before"], played["day"]
    earlier, today = expected([played["early_hand"]]), expected(played["in_day"])
    both = expected([played["early_hand"], *played["in_day"]])[table.name]
    query = {"table": table.pk, "from": first.isoformat(), "to": last.isoformat()}
    signed_in(client, compliance)

    page = client.get(f"{REPORTS}table/", query)
    assert page.status_code == 200
    html = page.content.decode()
    assert f"Table report: {table.name} ({registry()[table.game].name})" in html
    rows = page_rows(html)
    assert rows[0] == ["Gaming day", "Hands", "Handle", "Payouts", "Rake", "Win", "Hold %"]
    days = [first + dt.timedelta(days=n) for n in range((last - first).days + 1)]
    assert [cells[0] for cells in rows[1:]] == [d.isoformat() for d in days] + ["TOTAL"]
    by_day = {first.isoformat(): earlier[table.name], last.isoformat(): today[table.name]}
    zero = dict.fromkeys(FIGURES, 0)
    for cells in rows[1:-1]:
        want = by_day.get(cells[0], zero)
        assert numbers(cells) == as_shown(want)
    assert numbers(rows[-1]) == as_shown(both)

    download = client.get(f"{REPORTS}table.csv", query)
    assert download["Content-Type"] == "text/csv; charset=utf-8"
    assert download["Content-Disposition"] == (
        f'attachment; filename="table-7a-1-{first}-to-{last}.csv"'
    )
    lines = list(csv.reader(io.StringIO(download.content.decode())))
    assert lines[0] == ["Gaming day", "Table", "Game", *CSV_FIGURES]
    total = lines[-1]
    assert total[:3] == ["TOTAL", table.name, registry()[table.game].name]
    assert total[3:] == as_csv(both)
    assert [line[0] for line in lines[1:-1]] == [d.isoformat() for d in days]

    pdf = client.get(f"{REPORTS}table.pdf", query)
    assert pdf["Content-Type"] == "application/pdf"
    text = pdf_text(pdf.content)
    assert f"Table report, {table.name}" in text and f"Gaming days {first} to {last}" in text
    for label, want in [(first.isoformat(), earlier[table.name]), ("TOTAL", both)]:
        cells = [label, *as_shown(want).values()]
        assert in_pdf_row(cells, text), (label, text)


# ---------------------------------------------------------------- the sections


def test_the_sections_show_the_sign_offs_voids_and_changes_of_the_day(
    gaming_day_played, client, floor
):
    played = gaming_day_played
    day = played["day"].isoformat()
    signed_in(client, floor)
    html = client.get(REPORTS, {"day": day}).content.decode()

    signoff = Approval.objects.get(kind="payout")
    result = signoff.detail["result"]
    winner = max(result["seats"], key=lambda seat: seat["net"])
    pot = max(winner["lines"], key=lambda line: line["amount"])
    [payout] = page_rows(html, "payouts")[1:]
    assert payout[:2] == [played["draw"].name, str(signoff.hand.number)]
    # The winner's line and net are both over the limits of 100 it was held under.
    assert payout[2] == (
        f"seat {winner['seat']}: {pot['wager']} {money(pot['amount'])} "
        f"seat {winner['seat']}: net on the hand {money(winner['net'])}"
    )
    assert payout[3] == "$1.00, $1.00"
    assert payout[4].startswith("dealer ") and payout[5].startswith("floor ")
    assert payout[6] == "paid in my presence"

    [void] = page_rows(html, "voids")[1:]
    assert void[:3] == [played["hcf"].name, "2", VOID_REASON]
    assert void[3].startswith("dealer ") and void[4] == "floor"

    changes = page_rows(html, "changes")[1:]
    # Each limit or rule named and written as people read it (the game's schemas): no keys,
    # no JSON, money in money.
    assert [row[:3] for row in changes][0] == [
        played["hcf"].name,
        "approved",
        "ante maximum: $100.00 \u2192 $200.00",
    ]
    assert changes[1][:2] == [played["draw"].name, "rejected"]
    assert changes[1][2].startswith("rake: ") and "{" not in changes[1][2]
    assert changes[0][3] == "busy night" and changes[0][5].startswith("floor2 ")
    assert changes[0][6] == "3"  # from the table's next hand, after hand 1 and voided 2
    assert changes[1][4].startswith("dealer ") and changes[1][5].startswith("floor ")
    # No correction was asked for: the section says so.
    assert "No correction was asked for or decided in this gaming day." in html

    # Each section is a CSV of its own.
    payouts = client.get(f"{REPORTS}shift-payouts.csv", {"day": day})
    assert payouts["Content-Disposition"] == f'attachment; filename="shift-{day}-payouts.csv"'
    rows = list(csv.reader(io.StringIO(payouts.content.decode())))
    assert rows[0][:8] == [
        "Table",
        "Hand",
        "Seat",
        "Over the limit",
        "Amount (USD)",
        "Line limit (USD)",
        "Net limit (USD)",
        "Asked by",
    ]
    assert [row[2:7] for row in rows[1:]] == [
        [str(winner["seat"]), pot["wager"], cents(pot["amount"]), "1.00", "1.00"],
        [str(winner["seat"]), "net on the hand", cents(winner["net"]), "1.00", "1.00"],
    ]
    assert {(row[7], row[9]) for row in rows[1:]} == {("dealer", "floor")}
    voids = list(
        csv.reader(
            io.StringIO(client.get(f"{REPORTS}shift-voids.csv", {"day": day}).content.decode())
        )
    )
    assert voids[1][:4] == [played["hcf"].name, "2", VOID_REASON, "dealer"]
    assert voids[1][5] == "floor"
    changed = list(
        csv.reader(
            io.StringIO(client.get(f"{REPORTS}shift-changes.csv", {"day": day}).content.decode())
        )
    )
    assert changed[1][2:6] == ["approved", "ante maximum", "$100.00", "$200.00"]
    assert changed[2][2:4] == ["rejected", "rake"] and "{" not in changed[2][4] + changed[2][5]
    corrections = client.get(f"{REPORTS}shift-corrections.csv", {"day": day}).content.decode()
    assert list(csv.reader(io.StringIO(corrections))) == [
        [
            "Table",
            "Hand",
            "Status",
            "Reason",
            "Asked by",
            "Asked at",
            "Decided by",
            "Decided at",
            "Note",
        ]
    ]

    text = pdf_words(client.get(f"{REPORTS}shift.pdf", {"day": day}).content)
    assert VOID_REASON in text and "paid in my presence" in text
    assert f"seat {winner['seat']}: net on the hand {money(winner['net'])}" in text
    assert "ante maximum: $100.00 \u2192 $200.00" in text and "ante_max" not in text
    assert "No correction was asked for or decided in this gaming day." in text


def test_a_correction_in_the_queue_is_listed_with_its_state(
    dp_table, dealer, floor, client, compliance, client_for
):
    hand_id = settle_hcf(client_for(dealer), dp_table, record())
    Approval.objects.create(
        kind=Approval.Kind.CORRECTION,
        table=dp_table,
        hand_id=hand_id,
        reason="seat 3's raise was keyed as 2000, it was 1000",
        requested_by=floor,
    )
    html = signed_in(client, compliance).get(REPORTS).content.decode()
    [row] = page_rows(html, "corrections")[1:]
    assert row[:4] == [
        dp_table.name,
        "1",
        "pending",
        "seat 3's raise was keyed as 2000, it was 1000",
    ]
    assert row[4].startswith("floor ") and row[5] == ""
    text = pdf_words(client.get(f"{REPORTS}shift.pdf").content)
    assert "seat 3's raise was keyed as 2000, it was 1000" in text


def test_a_day_without_play_shows_zero_totals_and_empty_sections(client, compliance):
    html = signed_in(client, compliance).get(REPORTS, {"day": "2025-06-15"}).content.decode()
    rows = page_rows(html)
    assert rows[1] == ["No hand was settled or voided in this gaming day."]
    assert numbers(rows[-1]) == as_shown(dict.fromkeys(FIGURES, 0))
    for empty in ("large payout was signed off", "hand was voided", "limit or rule change"):
        assert f"No {empty}" in html
    download = client.get(f"{REPORTS}shift.csv", {"day": "2025-06-15"})
    assert download["Content-Disposition"] == 'attachment; filename="shift-2025-06-15.csv"'
    assert list(csv.reader(io.StringIO(download.content.decode()))) == [
        ["Table", "Game", *CSV_FIGURES],
        ["TOTAL", "", "0", "0.00", "0.00", "0.00", "0.00", ""],
    ]


def test_text_a_spreadsheet_would_run_as_a_formula_is_written_quoted(
    dp_table, dealer, floor, client, compliance, client_for, void_hand
):
    client_api = client_for(dealer)
    hand = client_api.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    void_hand(hand["id"], asks=dealer, approves=floor, reason='=HYPERLINK("http://x")')
    voids = signed_in(client, compliance).get(f"{REPORTS}shift-voids.csv").content.decode()
    assert list(csv.reader(io.StringIO(voids)))[1][2] == '\'=HYPERLINK("http://x")'


# ---------------------------------------------------------------- parameters it cannot use


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"day": "2026-13-45"}, "day must be a calendar date written YYYY-MM-DD"),
        ({"day": "yesterday"}, "day must be a calendar date written YYYY-MM-DD"),
        ({"day": "2026-W49-2"}, "day must be a calendar date written YYYY-MM-DD"),
        ({"day": "9999-12-31"}, "day must be between 1900-01-01 and 9998-12-31"),
        ({"day": "0001-01-01"}, "day must be between 1900-01-01 and 9998-12-31"),
    ],
)
def test_a_day_it_cannot_read_is_a_400_saying_why(query, message, client, compliance):
    signed_in(client, compliance)
    page = client.get(REPORTS, query)
    assert page.status_code == 400
    assert message in page.content.decode() and 'role="alert"' in page.content.decode()
    for download in ("shift.csv", "shift.pdf", "shift-voids.csv"):
        response = client.get(f"{REPORTS}{download}", query)
        assert response.status_code == 400 and message in response.content.decode()


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"from": "2025-06-20", "to": "2025-06-15"}, "the first gaming day (2025-06-20) is after"),
        ({"from": "2025-01-01", "to": "2025-06-15"}, "at most 92 gaming days; 2025-01-01 to"),
        ({"to": "2026-02-30"}, "to must be a calendar date written YYYY-MM-DD"),
        ({"table": "abc"}, "table must be a table's number"),
        ({"table": "999999"}, "there is no table 999999"),
    ],
)
def test_a_table_report_it_cannot_make_is_a_400_saying_why(
    query, message, client, compliance, open_table
):
    signed_in(client, compliance)
    query = {"table": open_table.pk, **query}
    page = client.get(f"{REPORTS}table/", query)
    assert page.status_code == 400 and message in unescape(page.content.decode())
    for download in ("table.csv", "table.pdf"):
        response = client.get(f"{REPORTS}{download}", query)
        assert response.status_code == 400 and message in response.content.decode()


def test_a_download_without_a_table_or_of_no_section_is_a_400(client, compliance):
    signed_in(client, compliance)
    response = client.get(f"{REPORTS}table.csv")
    assert response.status_code == 400 and "name the table" in response.content.decode()
    response = client.get(f"{REPORTS}shift-tips.csv")
    assert response.status_code == 400 and "no section 'tips'" in response.content.decode()
    page = client.get(f"{REPORTS}table/")
    assert page.status_code == 200 and "Choose a table to see its figures." in page.content.decode()
