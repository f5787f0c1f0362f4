"""The chips wagered are the **handle**. To a regulator the drop is the counted contents of a
table's drop box (cash and chips, counted by the count team), which the tablets do not
record, so no report, page, export or API field calls the chips wagered "drop": a report
filed under the wrong name is refused."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import reverse
from pypdf import PdfReader
from rest_framework.test import APIClient

from casino.core.money import money
from payouts import figures
from payouts.models import Settlement
from tests.conftest import record

pytestmark = pytest.mark.django_db

REPORTS = "/desk/compliance/reports/"
#: An API field named drop in the fold sense (a rake option: "no draw, no drop"), not chips.
FOLD_SENSE = {"no_draw_no_drop"}


@pytest.fixture
def played(dp_table: Any, dealer: Any, client_for: Any) -> figures.Figures:
    """One High Card Flush hand settled today."""
    api = client_for(dealer)
    hand = api.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    settled = api.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    assert settled.status_code == 201, settled.json()
    found = figures.of_settlement(Settlement.objects.get())
    assert found.handle > 0
    return found


def headers(html: str, table_id: str) -> list[str]:
    """The column headers of a page's table, as read."""
    found = re.search(rf'<table[^>]* id="{table_id}".*?<thead>(.*?)</thead>', html, re.S)
    assert found, f"no table {table_id}"
    return [
        re.sub(r"<[^>]+>", "", cell).strip()
        for cell in re.findall(r"<th[^>]*>.*?</th>", found.group(1), re.S)
    ]


def main(html: str) -> str:
    """The page's own content (not the desk's navigation)."""
    return html[html.index("<main") : html.index("</main>")]


def pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def test_the_shift_report_page_csv_and_pdf_say_handle_for_the_chips_wagered(
    played, client, compliance
):
    client.force_login(compliance)
    html = main(client.get(REPORTS).content.decode())
    shown = headers(html, "figures")
    assert shown[:4] == ["Table", "Game", "Hands", "Handle"] and "Drop" not in shown
    assert f'<td class="num">{money(played.handle)}</td>' in html  # under Handle
    assert "Handle is the chips staked on every wager" in html
    assert "over the drop" not in html and "Drop" not in html

    rows = list(csv.reader(io.StringIO(client.get(f"{REPORTS}shift.csv").content.decode())))
    assert rows[0][2:4] == ["Hands", "Handle (USD)"]
    assert not any("drop" in cell.lower() for cell in rows[0])
    assert rows[-1][0] == "TOTAL" and rows[-1][3] == "55.00" == f"{played.handle / 100:.2f}"

    text = pdf_text(client.get(f"{REPORTS}shift.pdf").content)
    assert "\nHands\nHandle\nPayouts\n" in text and "drop" not in text.lower()


def test_the_table_report_page_csv_and_pdf_say_handle(played, client, floor, dp_table):
    client.force_login(floor)
    query = {"table": dp_table.pk}
    html = main(client.get(f"{REPORTS}table/", query).content.decode())
    shown = headers(html, "figures")
    assert shown[:3] == ["Gaming day", "Hands", "Handle"] and "Drop" not in shown
    assert "Handle is the chips staked on every wager" in html and "Drop" not in html

    rows = list(csv.reader(io.StringIO(client.get(f"{REPORTS}table.csv", query).content.decode())))
    assert rows[0][3:5] == ["Hands", "Handle (USD)"]
    assert not any("drop" in cell.lower() for cell in rows[0])

    text = pdf_text(client.get(f"{REPORTS}table.pdf", query).content)
    assert "\nHands\nHandle\nPayouts\n" in text and "drop" not in text.lower()


def test_the_settlements_list_says_handle(played, client, compliance):
    client.force_login(compliance)
    html = main(client.get(reverse("compliance-settlements")).content.decode())
    assert headers(html, "totals")[:2] == ["Hands", "Handle (staked)"]
    assert "Handle" in headers(html, "settlements") and "Drop" not in headers(html, "settlements")
    assert f'data-total="handle">{money(played.handle)}<' in html
    assert "drop" not in html.lower()


def properties(node: Any, where: str = "") -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """Every property of every schema in an OpenAPI document: (where, its schema, its
    siblings)."""
    if isinstance(node, dict):
        own = node.get("properties")
        if isinstance(own, dict):
            for name, schema in own.items():
                if isinstance(schema, dict):
                    yield f"{where}.{name}", schema, own
        for key, value in node.items():
            yield from properties(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from properties(value, f"{where}[{index}]")


def test_no_api_field_says_drop_for_the_chips_wagered_unless_a_deprecated_alias():
    """In the OpenAPI document, a field named ``drop`` (``mean_drop``, ``drop_total``, ...)
    beside its ``handle`` twin is the old name of the chips wagered, kept one release: it must
    be marked deprecated and say it is an alias. ``mean_drop`` was only ever the wagered
    figure, so it appears as such an alias or not at all. Any other ``drop`` is the drop box's
    count (chip custody), and must not describe itself as chips wagered or staked."""
    document = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    seen = list(properties(document))
    # The walk reaches the games' own schemas (where a rake option says drop for fold).
    assert any(where.endswith(".no_draw_no_drop") for where, _, _ in seen)
    for where, schema, siblings in seen:
        name = where.rsplit(".", 1)[1]
        if name in FOLD_SENSE or "drop" not in name.split("_"):
            continue
        twin = "_".join("handle" if part == "drop" else part for part in name.split("_"))
        words = str(schema.get("description", "")).lower()
        if twin in siblings or name == "mean_drop":
            assert twin in siblings, f"{where}: no {twin} beside it"
            assert schema.get("deprecated") is True, f"{where}: not marked deprecated"
            assert f"deprecated alias of {twin}" in words, where
        else:
            assert "wager" not in words and "staked" not in words, (where, words)
