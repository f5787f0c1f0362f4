"""The pit for a real floor, through Django's test client: urgency first (a waiting payout
sign-off or void marked, named with its wait and linked to itself in the queue), filters by
game and status that the 5-second refresh keeps, and closing a table in two steps."""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from approvals.models import Approval
from desk.floor import selectors
from tables import services
from tables.models import Table
from tests.conftest import open_hcf_table
from tests.desk.helpers import text

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
NOW = timezone.now()


def order(response: Any) -> list[str]:
    """The tables' names in the order the pit shows their tiles."""
    return re.findall(r'<li class="tile [^"]*" id="table-\d+" data-table="([^"]+)"', text(response))


def tile(response: Any, table: Table) -> str:
    found = re.search(rf'<li class="tile[^"]*" id="table-{table.pk}".*?</li>', text(response), re.S)
    assert found, f"no tile for {table.name}"
    return found.group(0)


def poll_url(response: Any) -> str:
    """What the tiles ask for every 5 seconds."""
    return re.search(r'<div id="pit-tiles" hx-get="([^"]+)"', text(response)).group(1)


@contextmanager
def asked_minutes_ago(minutes: int) -> Iterator[None]:
    """Requests made inside are asked ``minutes`` before the pit's clock (a request's time is
    written once, when it is asked: PostgreSQL refuses changing it afterwards)."""
    field = Approval._meta.get_field("requested_at")
    at = NOW - dt.timedelta(minutes=minutes)
    with mock.patch.object(field, "_get_default", lambda: at):
        yield


@pytest.fixture
def floor_client(client: Any, floor: Any, monkeypatch: Any) -> Any:
    monkeypatch.setattr(selectors, "clock", lambda: NOW)  # the pit's clock stands still
    client.force_login(floor)
    return client


@pytest.fixture
def busy_floor(floor: Any, dealer: Any, client_for: Any) -> dict[str, Any]:
    """Five High Card Flush tables and a Pontoon one: at HCF-V a void has waited 3 minutes,
    at HCF-P a payout sign-off 7 minutes (and a limit change, older), at HCF-L a limit
    change 20 minutes; HCF-C and the new PON-1 are closed; HCF-A has nothing."""
    tables = {name: open_hcf_table(floor, dealer, name) for name in ("HCF-A", "HCF-C", "HCF-L")}
    for name in ("HCF-P", "HCF-V"):
        tables[name] = open_hcf_table(floor, dealer, name)
        services.game_act(
            user=dealer,
            table_id=tables[name].pk,
            action={"type": "accept", "seat": 1, "bank": 50_000},
        )
    tables["PON-1"] = services.table_create(
        user=floor,
        name="PON-1",
        game="pontoon",
        seat_count=6,
        dealer=dealer,
        limits={"stake_min": 100, "stake_max": 2000},
    )
    services.table_set_status(user=floor, table_id=tables["HCF-C"].pk, status="closed")
    api = client_for(dealer)
    waiting: dict[str, Approval] = {}
    hand = api.post(f"/api/v1/tables/{tables['HCF-V'].pk}/hands/").json()
    with asked_minutes_ago(3):
        asked = api.post(f"/api/v1/hands/{hand['id']}/void/", {"reason": "misdeal"}, format="json")
    assert asked.status_code == 202, asked.json()
    waiting["void"] = Approval.objects.get(pk=asked.json()["id"])
    hand = api.post(f"/api/v1/tables/{tables['HCF-P'].pk}/hands/").json()
    with asked_minutes_ago(7):
        waiting["payout"] = Approval.objects.create(
            kind=Approval.Kind.PAYOUT,
            table=tables["HCF-P"],
            hand_id=hand["id"],
            requested_by=dealer,
        )
    for name, minutes in (("HCF-P", 30), ("HCF-L", 20)):
        with asked_minutes_ago(minutes):
            change = services.change_request(
                user=dealer, table_id=tables[name].pk, changes={"ante_max": 20_000}
            )
        waiting[f"change {name}"] = change.approval
    return {"tables": tables, "waiting": waiting}


def test_a_waiting_payout_or_void_comes_first_then_open_tables_then_closed(
    floor_client, busy_floor
):
    response = floor_client.get(reverse("floor-pit"))
    assert response.status_code == 200
    # The longest wait first among the urgent ones; a limit change waits at an open table.
    assert order(response) == ["HCF-P", "HCF-V", "HCF-A", "HCF-L", "HCF-C", "PON-1"]
    tables, waiting = busy_floor["tables"], busy_floor["waiting"]

    payout = tile(response, tables["HCF-P"])
    assert 'class="tile open urgent"' in payout  # marked in colour ...
    link = re.search(r'<a class="waiting urgent" href="([^"]+)">(.*?)</a>', payout, re.S)
    words = " ".join(re.sub(r"<[^>]+>", "", link.group(2)).split())
    assert words == "Payout sign-off waiting 7 min · 1 more"  # ... and in words
    assert link.group(1) == (
        f"/desk/floor/approvals/?table={tables['HCF-P'].pk}#approval-{waiting['payout'].pk}"
    )
    void = tile(response, tables["HCF-V"])
    assert 'Void</span> <span class="age">waiting 3 min' in void
    assert f"#approval-{waiting['void'].pk}" in void
    change = tile(response, tables["HCF-L"])
    assert 'class="tile open"' in change and 'class="waiting"' in change
    assert 'Limit change</span> <span class="age">waiting 20 min' in change
    quiet = tile(response, tables["HCF-A"])
    assert "Nothing waiting" in quiet and "urgent" not in quiet
    assert 'class="tile closed"' in tile(response, tables["HCF-C"])
    # The link leads to the request, shown in the queue filtered to its table.
    queue = floor_client.get(link.group(1).split("#")[0])
    assert f'id="approval-{waiting["payout"].pk}"' in text(queue)


def test_a_wait_of_hours_reads_in_hours(floor_client, busy_floor, monkeypatch):
    later = NOW + dt.timedelta(minutes=132)  # the void was asked 3 minutes before NOW
    monkeypatch.setattr(selectors, "clock", lambda: later)
    response = floor_client.get(reverse("floor-pit"))
    assert order(response)[:2] == ["HCF-P", "HCF-V"]
    assert "waiting 2 h 15 min" in tile(response, busy_floor["tables"]["HCF-V"])
    assert "waiting 2 h 19 min" in tile(response, busy_floor["tables"]["HCF-P"])


@pytest.mark.parametrize(
    ("query", "shown"),
    [
        ({"game": "pontoon"}, ["PON-1"]),
        ({"status": "closed"}, ["HCF-C", "PON-1"]),
        ({"status": "open"}, ["HCF-P", "HCF-V", "HCF-A", "HCF-L"]),
        ({"status": "waiting"}, ["HCF-P", "HCF-V", "HCF-L"]),
        ({"game": "high-card-flush", "status": "waiting"}, ["HCF-P", "HCF-V", "HCF-L"]),
        ({"game": "pontoon", "status": "open"}, []),
    ],
)
def test_the_filters_keep_their_tables_and_the_refresh_keeps_the_filters(
    query, shown, floor_client, busy_floor
):
    page = floor_client.get(reverse("floor-pit"), query)
    assert order(page) == shown
    # The tiles poll with the same filters, and what they get back is filtered the same.
    url = poll_url(page)
    assert url.startswith("/desk/floor/tiles/?")
    for name, value in query.items():
        assert f"{name}={value}" in url
    again = floor_client.get(html.unescape(url), **HTMX)
    assert order(again) == shown and poll_url(again) == url
    # The form shows what is chosen; the way back to every table is offered.
    body = text(page)
    for name, value in query.items():
        assert re.search(rf'<option value="{value}" selected>', body), name
    assert '<a class="button" href="/desk/floor/">Show every table</a>' in body
    if not shown:
        assert "No table matches these filters." in body


def test_a_filter_value_that_is_not_one_is_named_and_ignored(floor_client, busy_floor):
    response = floor_client.get(reverse("floor-pit"), {"game": "snap", "status": "ajar"})
    assert response.status_code == 200
    body = text(response)
    assert "There is no game 'snap' on this server; showing every game." in body
    assert "There is no table status 'ajar'; showing every table." in body
    assert len(order(response)) == 6 and poll_url(response) == "/desk/floor/tiles/"


def test_closing_a_table_takes_a_second_step_that_names_it(floor_client, busy_floor):
    table = busy_floor["tables"]["HCF-A"]
    close_form = rf'<form method="post" action="/desk/floor/tables/{table.pk}/status/'
    first = floor_client.get(reverse("floor-pit"), {"game": "high-card-flush"})
    # One click cannot close it: the tile's button only asks.
    assert not re.search(close_form, tile(first, table))
    assert f'aria-label="Close table {table.name}">Close table</button>' in tile(first, table)

    asking = floor_client.get(
        reverse("floor-pit-tiles"),
        {"game": "high-card-flush", "confirm": table.pk, "ask": "1"},
        **HTMX,
    )
    question = tile(asking, table)
    assert "<strong>Close HCF-A?</strong> No hand can start until it is opened again." in question
    assert re.search(close_form + r"\?game=high-card-flush\"", question)
    assert ">Close HCF-A</button>" in question and ">Keep it open</button>" in question
    assert "autofocus" in question  # the answer is where the keyboard is
    # The refresh keeps asking (without taking the focus again); nothing has changed yet.
    assert "confirm=" in poll_url(asking)
    polled = floor_client.get(html.unescape(poll_url(asking)), **HTMX)
    assert ">Close HCF-A</button>" in tile(polled, table) and "autofocus" not in tile(polled, table)
    table.refresh_from_db()
    assert table.status == "open"

    # The second step closes it; the tiles come back with the filters, asking nothing.
    closed = floor_client.post(
        reverse("floor-table-status", args=[table.pk]) + "?game=high-card-flush",
        {"status": "closed"},
        **HTMX,
    )
    assert "Table HCF-A is now closed." in text(closed)
    assert poll_url(closed) == "/desk/floor/tiles/?game=high-card-flush"
    assert order(closed)[-2:] == ["HCF-A", "HCF-C"]  # the closed tables last, by name
    table.refresh_from_db()
    assert table.status == "closed"
    # Without htmx the pit comes back with its filters.
    reopened = floor_client.post(
        reverse("floor-table-status", args=[table.pk]) + "?status=open", {"status": "open"}
    )
    assert reopened["Location"] == "/desk/floor/?status=open"


def test_a_table_with_an_open_hand_says_why_it_cannot_close_and_offers_no_close(
    floor_client, busy_floor
):
    table = busy_floor["tables"]["HCF-V"]  # a hand is open, its void waiting
    asking = floor_client.get(reverse("floor-pit"), {"confirm": table.pk})
    question = tile(asking, table)
    assert "HCF-V cannot close: hand 1 is open. Settle or void it first." in question
    assert "/status/" not in question and ">Back</button>" in question
    # Asked anyway, the service refuses with its reason.
    refused = floor_client.post(
        reverse("floor-table-status", args=[table.pk]), {"status": "closed"}, **HTMX
    )
    assert "table HCF-V has an open hand; settle or void it first" in text(refused)
    table.refresh_from_db()
    assert table.status == "open"


def test_the_pit_reads_in_the_same_number_of_queries_with_requests_waiting(
    floor_client, busy_floor, floor, dealer
):
    def counted(**query: str) -> int:
        with CaptureQueriesContext(connection) as queries:
            assert floor_client.get(reverse("floor-pit-tiles"), query, **HTMX).status_code == 200
        return len(queries)

    few, filtered = counted(), counted(game="high-card-flush", status="waiting")
    for number in range(5):
        table = open_hcf_table(floor, dealer, f"MORE-{number}")
        services.change_request(user=dealer, table_id=table.pk, changes={"ante_max": 500})
    assert (counted(), counted(game="high-card-flush", status="waiting")) == (few, filtered)
