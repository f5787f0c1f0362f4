"""The shift report carries the gaming day's chip custody, as a page, CSV files and the PDF: per
table the trays, fills, credits and the counted drop, the statistical win beside the hands'
win and the parts of their difference, each window linked to exactly its hands; the slips by
number (a void one with its reason) and the numbers a series skipped (none); the variances
at close above the report line with their reasons, reviews and whether the regulator is told.

The day is made through the API, as the pit makes it (tests/custody/test_custody_day_api.py):
a High Card Flush table (players bank: the house earns the collection) opened, filled, played,
credited and closed to the chip, then opened again, played and closed 200.00 short (notify);
a second one played and closed 50.00 short for the chips a player bought for cash at the table
(report; the cash is in its drop box), its variance accepted; a fill voided; both drop boxes
counted and signed."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from html import unescape
from typing import Any

import pytest
from django.urls import reverse

from casino.core.money import money
from custody.models import Slip
from payouts.figures import gaming_day
from payouts.models import Settlement
from tables import services
from tests.conftest import record
from tests.custody.conftest import OPENER, OPENER_TOTAL, opened, seated
from tests.custody.test_custody_day_api import _close, _count_drop, _sign_slip, _slip
from tests.reports.test_reports import page_rows, pdf_text, pdf_words

pytestmark = pytest.mark.django_db

REPORTS = "/desk/compliance/reports/"
SOLD = 5_000  # 50.00 of chips sold for cash at HCF-D: over the report line (25.00)
SHORT = 20_000  # 200.00 missing from HCF's second closer: over the notify line (100.00)
SOLD_REASON = "50.00 of chips sold for cash at the table"
SHORT_REASON = "two 100.00 chips missing; recounted twice, surveillance asked"
VOID_REASON = "requested for the wrong table"
NOTE = "cash in the box matches"
NONE = "No chip custody recorded this day."


@dataclass
class Day:
    """What the day's custody should show, worked out from the records made."""

    day: str
    hcf: Any
    rake: int  # each hand's collection
    hands: dict[str, list[int]]  # settlement ids per window: hcf-1, hcf-2, hcf-d
    slips: dict[str, str]  # label by role: fill, void, credit

    @property
    def hcf_row(self) -> dict[str, int]:
        closer1 = OPENER_TOTAL + 10_000 - 25_000
        closer2 = closer1 - SHORT
        drop = 2 * self.rake
        return {
            "hands": 2,
            "opener": OPENER_TOTAL,
            "fills": 10_000,
            "credits": 25_000,
            "closer": closer2,
            "drop_cash": 0,
            "drop_chips": drop,
            "drop": drop,
            "statistical_win": (closer1 - OPENER_TOTAL)
            + (closer2 - closer1)
            + 25_000
            - 10_000
            + drop,
            "hand_win": drop,
            "win_difference": -SHORT,
            "tray_variance": -SHORT,
            "collection": drop,
            "collection_difference": 0,
        }

    @property
    def sold_row(self) -> dict[str, int]:
        """HCF-D: the chips sold leave the tray, their cash is in the box."""
        return {
            "hands": 1,
            "opener": OPENER_TOTAL,
            "fills": 0,
            "credits": 0,
            "closer": OPENER_TOTAL - SOLD,
            "drop_cash": SOLD,
            "drop_chips": self.rake,
            "drop": SOLD + self.rake,
            "statistical_win": self.rake,
            "hand_win": self.rake,
            "win_difference": 0,
            "tray_variance": -SOLD,
            "collection": self.rake,
            "collection_difference": 0,
        }

    @property
    def total(self) -> dict[str, int]:
        return {name: self.hcf_row[name] + self.sold_row[name] for name in self.hcf_row}


def _open(client_for: Any, table: Any, dealer: Any, floor: Any, counts: dict[str, int]) -> None:
    counted = client_for(dealer).post(
        f"/api/v1/tables/{table.pk}/custody/opener/", {"counts": counts}, format="json"
    )
    assert counted.status_code == 201, counted.json()
    signed = client_for(floor).post(f"/api/v1/custody/inventories/{counted.json()['id']}/sign/")
    assert signed.status_code == 200, signed.json()


def _hcf_hand(client: Any, dealer: Any, table: Any, dp_seat: int = 1) -> int:
    """A High Card Flush hand with the designated player at ``dp_seat`` (the position moves
    on after a hand), the other two of seats 1-3 playing."""
    services.game_act(
        user=dealer, table_id=table.pk, action={"type": "accept", "seat": dp_seat, "bank": 50_000}
    )
    body = record()
    body["designated_player"]["seat"] = dp_seat
    for player, seat in zip(body["players"], [s for s in (1, 2, 3) if s != dp_seat], strict=True):
        player["seat"] = seat
    hand = client.post(f"/api/v1/tables/{table.pk}/hands/").json()
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", body, format="json")
    assert settled.status_code == 201, settled.json()
    return Settlement.objects.get(hand_id=hand["id"]).pk


def _table(floor: Any, dealer: Any, name: str) -> Any:
    table = services.table_create(
        user=floor,
        name=name,
        game="high-card-flush",
        seat_count=7,
        dealer=dealer,
        limits={"ante_min": 100, "ante_max": 10_000, "bank_min": 5_000, "bank_max": 1_000_000},
        rules={"rake": {"scheme": "per_player", "amount": 100}},
    )
    return seated(floor, table, {1: "Ana", 2: "Bela", 3: "Csilla", 4: "Dani"})


@pytest.fixture
def custody_day(chips, floor, floor2, dealer, cage, counter, counter2, client_for) -> Day:
    client = client_for(dealer)
    hcf, sold = _table(floor, dealer, "HCF-C"), _table(floor, dealer, "HCF-D")
    opened(client_for, hcf, dealer, floor)
    opened(client_for, sold, dealer, floor)

    # HCF, first window: a fill, a hand, a credit, closed to the chip.
    fill = _slip(client_for, floor, hcf, "fill", {"500": 20})
    _sign_slip(client_for, fill, cage)
    assert _sign_slip(client_for, fill, dealer, floor)["status"] == "received"
    first = _hcf_hand(client, dealer, hcf)
    rake = Settlement.objects.get(pk=first).rake
    credit = _slip(client_for, floor, hcf, "credit", {"2500": 10})
    _sign_slip(client_for, credit, dealer, floor)
    assert _sign_slip(client_for, credit, cage)["status"] == "received"
    tray = {**OPENER, "500": OPENER["500"] + 20, "2500": OPENER["2500"] - 10}
    assert _close(client_for, hcf, dealer, floor, tray)["variance"] == 0

    # HCF, second window: opened with the last closer, a hand, closed 200.00 short.
    _open(client_for, hcf, dealer, floor, tray)
    second = _hcf_hand(client, dealer, hcf, dp_seat=2)
    short = {**tray, "10000": tray["10000"] - 2}
    assert _close(client_for, hcf, dealer, floor, short, SHORT_REASON)["variance"] == -SHORT
    _count_drop(client_for, hcf, counter, counter2, {}, {"100": 2 * rake // 100})

    # HCF-D: a fill requested by mistake and voided; a hand; two 25.00 chips sold for cash.
    void = _slip(client_for, floor, sold, "fill", {"500": 10})
    voided = client_for(floor).post(
        f"/api/v1/custody/slips/{void['id']}/void/", {"reason": VOID_REASON}, format="json"
    )
    assert voided.status_code == 200 and voided.json()["status"] == "void", voided.json()
    third = _hcf_hand(client, dealer, sold)
    tray = {**OPENER, "2500": OPENER["2500"] - 2}
    assert _close(client_for, sold, dealer, floor, tray, SOLD_REASON)["variance"] == -SOLD
    _count_drop(client_for, sold, counter, counter2, {"5000": 1}, {"100": rake // 100})

    # HCF-D's variance is accepted by the other floor manager; HCF-C's waits.
    queue = client_for(floor2).get("/api/v1/approvals/", {"kind": "variance"}).json()["results"]
    [review] = [row for row in queue if row["table"] == sold.pk]
    accepted = client_for(floor2).post(
        f"/api/v1/approvals/{review['id']}/approve/", {"note": NOTE}, format="json"
    )
    assert accepted.status_code == 200, accepted.json()

    labels = {s.pk: s.label for s in Slip.objects.all()}
    return Day(
        day=gaming_day().isoformat(),
        hcf=hcf,
        rake=rake,
        hands={"hcf-1": [first], "hcf-2": [second], "hcf-d": [third]},
        slips={
            "fill": labels[fill["id"]],
            "void": labels[void["id"]],
            "credit": labels[credit["id"]],
        },
    )


@pytest.fixture
def reader(client: Any, compliance: Any) -> Any:
    client.force_login(compliance)
    return client


AMOUNTS = ("opener", "fills", "credits", "closer", "drop_cash", "drop_chips", "drop")
WIN = (
    "statistical_win",
    "hand_win",
    "win_difference",
    "tray_variance",
    "drop_cash",
    "drop_chips",
    "collection",
    "collection_difference",
)


def plain(minor: int) -> str:
    """As the CSV writes an amount: 1250.00, -50.00."""
    return f"{'-' if minor < 0 else ''}{abs(minor) // 100}.{abs(minor) % 100:02d}"


def main(html: str) -> str:
    return html[html.index("<main") : html.index("</main>")]


def headers(html: str, table_id: str) -> list[str]:
    found = re.search(rf'<table[^>]* id="{table_id}".*?<thead>(.*?)</thead>', html, re.S)
    assert found, f"no table {table_id}"
    return [
        re.sub(r"<[^>]+>", "", cell).strip()
        for cell in re.findall(r"<th[^>]*>.*?</th>", found.group(1), re.S)
    ]


def hands_links(html: str, table_name: str) -> list[str]:
    """The links of a table's windows in the custody table, in order."""
    row = re.search(
        rf'<th scope="row"><span class="name">{re.escape(table_name)}<.*?</tr>',
        html.split('id="custody"')[1],
        re.S,
    )
    assert row, table_name
    return [unescape(href) for href in re.findall(r'<a href="([^"]+)"', row.group(0))]


def listed(client: Any, url: str) -> list[int]:
    page = client.get(url)
    assert page.status_code == 200, page.content.decode()[:2000]
    return [int(pk) for pk in re.findall(r'<tr data-settlement="(\d+)"', page.content.decode())]


# ---------------------------------------------------------------- the page


def test_the_page_shows_each_tables_custody_both_wins_and_the_total(custody_day, reader):
    d = custody_day
    html = main(reader.get(REPORTS, {"day": d.day}).content.decode())
    assert NONE not in html
    assert headers(html, "custody") == [
        "Table",
        "Opener",
        "Fills",
        "Credits",
        "Closer",
        "Drop: cash",
        "Drop: chips",
        "Drop",
        "Windows: the hands of each",
    ]
    assert headers(html, "custody-win")[1:4] == ["Statistical win", "Win (hands)", "Difference"]
    assert "Handle" in headers(html, "figures")  # the chips wagered keep their own name

    rows = {cells[0].split(" ")[0]: cells for cells in page_rows(html, "custody")[1:]}
    for name, want in (("HCF-C", d.hcf_row), ("HCF-D", d.sold_row), ("TOTAL", d.total)):
        assert rows[name][1:-1] == [money(want[a]) for a in AMOUNTS], name
    assert rows["TOTAL"][-1] == "3 hands"
    window = r"\d\d:\d\d:\d\d → \d\d:\d\d:\d\d ?: 1 hand"  # the parser spaces each run of text
    assert re.fullmatch(rf"{window} {window}", rows["HCF-C"][-1]), rows["HCF-C"]

    wins = {cells[0]: cells for cells in page_rows(html, "custody-win")[1:]}
    assert (
        wins["HCF-C"][1:]
        == [
            money(d.hcf_row["statistical_win"]),
            money(d.hcf_row["hand_win"]),
            money(-SHORT),
            f"{money(-SHORT)} notify",  # over the notify line
            *(money(d.hcf_row[name]) for name in WIN[4:]),
        ]
    )
    assert wins["HCF-D"][4] == f"{money(-SOLD)} report"  # over the report line only
    assert wins["TOTAL"][1:] == [money(d.total[name]) for name in WIN]
    # The difference is the sum of its parts, row by row.
    for want in (d.hcf_row, d.sold_row, d.total):
        parts = want["tray_variance"] + want["drop_cash"] + want["collection_difference"]
        assert want["win_difference"] == parts


def test_the_page_lists_the_slips_a_void_one_with_its_reason_and_no_unused_number(
    custody_day, reader
):
    d = custody_day
    html = main(reader.get(REPORTS, {"day": d.day}).content.decode())
    rows = {cells[0]: cells for cells in page_rows(html, "slips")[1:]}
    assert list(rows) == [d.slips["fill"], d.slips["void"], d.slips["credit"]]  # fills first
    assert rows[d.slips["fill"]][1:4] == ["HCF-C", money(10_000), "received"]
    assert rows[d.slips["credit"]][1:4] == ["HCF-C", money(25_000), "received"]
    assert rows[d.slips["void"]][1:4] == [
        "HCF-D",
        money(5_000),
        f"void Reason: {VOID_REASON} (voided by floor)",
    ]
    assert rows[d.slips["void"]][4].startswith("floor ")  # who requested it
    assert re.match(r"^[FC]-\d{4}-\d{6}$", d.slips["void"]) and d.slips["void"].endswith("02")
    series = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html.split('id="slip-series"')[1]))
    year = d.slips["fill"][2:6]
    assert series.index(
        f"Fill slips {year}: F-{year}-000001 to F-{year}-000002, 2 slips (1 void): no unused"
    ) < series.index(f"Credit slips {year}: C-{year}-000001 to C-{year}-000001, 1 slip: no unused")
    assert "unused number " not in series


def test_the_page_lists_the_variances_with_reasons_reviews_and_the_regulator(custody_day, reader):
    d = custody_day
    html = main(reader.get(REPORTS, {"day": d.day}).content.decode())
    rows = {cells[0]: cells for cells in page_rows(html, "variances")[1:]}
    assert set(rows) == {"HCF-C", "HCF-D"}
    hcf, sold = rows["HCF-C"], rows["HCF-D"]
    closer = d.hcf_row["closer"]
    assert hcf[1:7] == [
        money(closer),
        money(closer + SHORT),
        money(-SHORT),
        "notify",
        SHORT_REASON,
        "Waiting for review",
    ]
    assert hcf[7].startswith("dealer, floor ")  # the closer's two signers, then when
    assert sold[3:6] == [money(-SOLD), "no", SOLD_REASON]
    assert sold[6].startswith("Accepted by floor2 ") and sold[6].endswith(f"“{NOTE}”")


def test_each_windows_link_lists_exactly_that_windows_hands(custody_day, reader):
    d = custody_day
    html = main(reader.get(REPORTS, {"day": d.day}).content.decode())
    first, second = hands_links(html, "HCF-C")
    [sold] = hands_links(html, "HCF-D")
    assert first.startswith(reverse("compliance-settlements") + "?")
    assert "settled_from=" in first and "settled_to=" in first
    assert listed(reader, first) == d.hands["hcf-1"]
    assert listed(reader, second) == d.hands["hcf-2"]
    assert listed(reader, sold) == d.hands["hcf-d"]
    # The table alone lists both windows' hands: the moments are what parts them.
    assert sorted(listed(reader, f"{reverse('compliance-settlements')}?table={d.hcf.pk}")) == (
        sorted(d.hands["hcf-1"] + d.hands["hcf-2"])
    )


def test_the_page_links_the_custody_files_and_the_api(custody_day, reader):
    d = custody_day
    html = main(reader.get(REPORTS, {"day": d.day}).content.decode())
    for section in ("custody", "slips", "variances"):
        assert f'download="shift-{d.day}-{section}.csv"' in html
    assert f'href="/api/v1/custody/day/?day={d.day}"' in html
    api = reader.get("/api/v1/custody/day/", {"day": d.day}).json()
    assert {row["table_name"]: row["statistical_win"] for row in api} == {
        "HCF-C": d.hcf_row["statistical_win"],
        "HCF-D": d.sold_row["statistical_win"],
    }


# ---------------------------------------------------------------- the CSV files


def _csv(client: Any, section: str, day: str) -> list[list[str]]:
    response = client.get(f"{REPORTS}shift-{section}.csv", {"day": day})
    assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="shift-{day}-{section}.csv"'
    return list(csv.reader(io.StringIO(response.content.decode())))


def test_the_custody_csv_has_a_row_per_table_and_the_total(custody_day, reader):
    d = custody_day
    rows = _csv(reader, "custody", d.day)
    assert rows[0] == [
        "Table",
        "Windows (opener to closer)",
        "Hands",
        "Opener (USD)",
        "Fills (USD)",
        "Credits (USD)",
        "Closer (USD)",
        "Drop: cash (USD)",
        "Drop: chips (USD)",
        "Drop (USD)",
        "Statistical win (USD)",
        "Win (hands) (USD)",
        "Difference (USD)",
        "Tray variance at close (USD)",
        "Over the line",
        "Collection recorded (USD)",
        "Chips in the drop less collection (USD)",
        "Not known yet",
    ]
    names = [
        "opener",
        "fills",
        "credits",
        "closer",
        "drop_cash",
        "drop_chips",
        "drop",
        "statistical_win",
        "hand_win",
        "win_difference",
        "tray_variance",
    ]
    by_table = {row[0]: row for row in rows[1:]}
    assert list(by_table) == ["HCF-C", "HCF-D", "TOTAL"]
    for name, want, line in (
        ("HCF-C", d.hcf_row, "notify"),
        ("HCF-D", d.sold_row, "report"),
        ("TOTAL", d.total, ""),
    ):
        row = by_table[name]
        assert row[2] == str(want["hands"])
        assert row[3:14] == [plain(want[n]) for n in names], name
        assert row[14:] == [line, plain(want["collection"]), plain(0), ""], name
    assert by_table["HCF-C"][1].count(" to ") == 2  # two windows


def test_the_slips_and_variances_csv_files(custody_day, reader):
    d = custody_day
    rows = _csv(reader, "slips", d.day)
    assert rows[0][:6] == ["Slip", "Kind", "Table", "Total (USD)", "Status", "Void reason"]
    by_label = {row[0]: row for row in rows[1:]}
    assert list(by_label) == [d.slips["fill"], d.slips["void"], d.slips["credit"]]  # no unused
    assert by_label[d.slips["void"]][1:8] == [
        "fill",
        "HCF-D",
        "50.00",
        "void",
        VOID_REASON,
        "floor",
        "floor",
    ]
    assert by_label[d.slips["fill"]][3:5] == ["100.00", "received"]

    rows = _csv(reader, "variances", d.day)
    assert rows[0][3:5] == ["Variance (USD)", "Reason"] and rows[0][-1] == "Notify the regulator"
    by_table = {row[0]: row for row in rows[1:]}
    assert by_table["HCF-C"][3:6] == [plain(-SHORT), SHORT_REASON, "dealer, floor"]
    assert by_table["HCF-C"][7] == "waiting for review" and by_table["HCF-C"][-1] == "yes"
    assert by_table["HCF-D"][3:5] == [plain(-SOLD), SOLD_REASON]
    assert by_table["HCF-D"][7:9] == ["accepted", "floor2"] and by_table["HCF-D"][-1] == "no"
    assert by_table["HCF-D"][10] == NOTE


# ---------------------------------------------------------------- the PDF


def test_the_pdf_has_the_same_tables(custody_day, reader):
    d = custody_day
    response = reader.get(f"{REPORTS}shift.pdf", {"day": d.day})
    assert response.status_code == 200
    text, words = pdf_text(response.content), pdf_words(response.content)
    assert NONE not in words
    for heading in (
        "Chip custody",
        "Trays and drop per table",
        "Win both ways",
        "Fill and credit slips",
        "Variances at close above the report line",
    ):
        assert f"\n{heading}\n" in text, heading
    assert "\nDrop: cash\nDrop: chips\nDrop\n" in text
    assert "Statistical win Win (hands) Difference" in words
    total = [money(d.total[name]) for name in AMOUNTS]
    assert "\n".join(["TOTAL", "3 hands", *total]) in text
    wins = [money(d.total[name]) for name in WIN]
    assert "\n".join(["TOTAL", *wins]) in text
    assert f"{money(-SHORT)} notify" in text and f"{money(-SOLD)} report" in text
    assert (
        f"{d.slips['void']} HCF-D {money(5_000)} void. Reason: {VOID_REASON} (voided by floor)"
        in words
    )
    year = d.slips["fill"][2:6]
    assert f"F-{year}-000001 to F-{year}-000002, 2 slips (1 void): no unused number." in words
    assert "unused F-" not in words and "unused C-" not in words
    assert SHORT_REASON in words and SOLD_REASON in words
    assert "Accepted by floor2" in words and NOTE in words


# ---------------------------------------------------------------- a day without custody


def test_a_day_without_custody_says_so_once(custody_day, reader):
    day = "2001-01-01"
    html = main(reader.get(REPORTS, {"day": day}).content.decode())
    assert html.count(NONE) == 1 and 'id="custody"' not in html and "Drop" not in html
    assert "custody.csv" not in html
    words = pdf_words(reader.get(f"{REPORTS}shift.pdf", {"day": day}).content)
    assert words.count(NONE) == 1 and "drop" not in words.lower()
    assert _csv(reader, "custody", day)[1:] == [] and _csv(reader, "slips", day)[1:] == []
