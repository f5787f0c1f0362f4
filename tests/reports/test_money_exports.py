"""Money in one format on the reports, their exports and the settlements list, in whatever
currency the house runs (``CURRENCY``, ``CURRENCY_EXPONENT``): the pages and the PDF write an
amount as people read it, a CSV writes it as a plain, exact number in major units (a
spreadsheet sums the column) under a header naming the currency."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from typing import Any

import pytest
from django.test import override_settings
from django.urls import reverse
from pypdf import PdfReader

from desk.compliance.forms import SettlementFilterForm
from payouts import figures
from payouts.models import Settlement
from reports import as_csv
from tests.conftest import record

pytestmark = pytest.mark.django_db

REPORTS = "/desk/compliance/reports/"
AMOUNTS = ("handle", "payouts", "rake", "win")
# Each house's currency, how a page writes 5,500 minor units of it, and how a CSV writes them.
HOUSES = [
    ({"CURRENCY": "USD", "CURRENCY_EXPONENT": 2}, "$55.00", "55.00"),
    ({"CURRENCY": "EUR", "CURRENCY_EXPONENT": 0}, "€5,500", "5500"),
    ({"CURRENCY": "BHD", "CURRENCY_EXPONENT": 3}, "BHD\u00a05.500", "5.500"),
]


@pytest.fixture
def played(dp_table: Any, dealer: Any, client_for: Any) -> figures.Figures:
    """One High Card Flush hand settled today: its figures, each amount distinct."""
    api = client_for(dealer)
    hand = api.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    settled = api.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    assert settled.status_code == 201, settled.json()
    found = figures.of_settlement(Settlement.objects.get())
    assert found.handle == 5500 and found.hands == 1  # the example amounts below
    return found


def rows(response: Any) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode())))


@pytest.mark.parametrize(("house", "page_handle", "csv_handle"), HOUSES)
def test_every_export_and_page_writes_the_house_currency(
    house, page_handle, csv_handle, played, client, compliance, dp_table
):
    client.force_login(compliance)
    code, exponent = house["CURRENCY"], house["CURRENCY_EXPONENT"]
    with override_settings(**house):
        shift = rows(client.get(f"{REPORTS}shift.csv"))
        table = rows(client.get(f"{REPORTS}table.csv", {"table": dp_table.pk}))
        page = client.get(REPORTS).content.decode()
        pdf = client.get(f"{REPORTS}shift.pdf").content
        settlements = client.get(reverse("compliance-settlements")).content.decode()

    # The CSV: the currency in each amount's header, the amount a plain exact number.
    assert shift[0] == [
        "Table",
        "Game",
        "Hands",
        f"Handle ({code})",
        f"Payouts ({code})",
        f"Rake ({code})",
        f"Win ({code})",
        "Hold %",
    ]
    assert table[0][:3] == ["Gaming day", "Table", "Game"] and table[0][3:] == shift[0][2:]
    table_row, total = shift[1], shift[-1]
    assert table_row[3] == csv_handle and total[3] == csv_handle
    for index, name in enumerate(AMOUNTS, start=3):
        minor = getattr(played, name)
        cell = table_row[index]
        # Exact: the number is the minor units over 10^exponent, with that many decimals.
        assert Decimal(cell) * 10**exponent == minor, (name, cell)
        assert len(cell.partition(".")[2]) == exponent and "," not in cell
        assert table[-1][index + 1] == cell  # the table report's total (after its day)
    # A spreadsheet summing the column gets the total.
    assert sum(Decimal(row[3]) for row in shift[1:-1]) == Decimal(total[3])

    # The page and the PDF: as people read it, never minor units.
    assert f'<td class="num">{page_handle}</td>' in page and f"Amounts are in {code}." in page
    pdf_text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert page_handle.replace("\u00a0", " ") in pdf_text.replace("\u00a0", " ")
    assert f"amounts in {code}" in pdf_text and "minor units" not in pdf_text
    # The settlements list and its totals.
    assert f'data-total="handle">{page_handle}<' in settlements
    assert "minor units" not in settlements


def test_a_negative_amount_is_a_number_a_spreadsheet_reads_not_quoted_text():
    written = as_csv.download("x.csv", [["Win (USD)"], [as_csv.major(-5)], ["-not a number"]])
    assert rows(written) == [["Win (USD)"], ["-0.05"], ["'-not a number"]]
    assert as_csv.major(None) is None
    with override_settings(CURRENCY_EXPONENT=0):
        assert str(as_csv.major(-1250)) == "-1250"


@pytest.mark.parametrize(
    ("house", "typed", "minor"),
    [
        ({"CURRENCY": "USD", "CURRENCY_EXPONENT": 2}, "12.5", 1250),
        ({"CURRENCY": "USD", "CURRENCY_EXPONENT": 2}, "$1,250.00", 125000),
        ({"CURRENCY": "EUR", "CURRENCY_EXPONENT": 0}, "1 250", 1250),
        ({"CURRENCY": "EUR", "CURRENCY_EXPONENT": 0}, "€55", 55),
    ],
)
def test_the_settlement_filters_take_amounts_in_the_house_currency(house, typed, minor):
    with override_settings(**house):
        form = SettlementFilterForm({"min_payout": typed})
        assert form.is_valid(), form.errors
        assert form.filters()["min_payout"] == minor
        assert (
            form.fields["min_payout"].label == f"A payout line paid at least ({house['CURRENCY']})"
        )


@pytest.mark.parametrize(
    ("house", "typed", "words"),
    [
        (
            {"CURRENCY": "USD", "CURRENCY_EXPONENT": 2},
            "12.505",
            "an amount is written in USD with at most 2 decimals, from $0.01 to",
        ),
        (
            {"CURRENCY": "EUR", "CURRENCY_EXPONENT": 0},
            "12.5",
            "an amount is written in EUR as a whole number, from €1 to",
        ),
        ({"CURRENCY": "USD", "CURRENCY_EXPONENT": 2}, "0", "from $0.01"),
        ({"CURRENCY": "USD", "CURRENCY_EXPONENT": 2}, "twelve", "e.g. 12.50"),
    ],
)
def test_an_amount_the_filters_cannot_take_is_named_in_words(house, typed, words, client, floor):
    client.force_login(floor)
    with override_settings(**house):
        response = client.get(reverse("compliance-settlements"), {"min_net": typed})
    assert response.status_code == 400
    assert words in response.content.decode()
