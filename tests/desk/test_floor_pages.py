"""The floor manager's desk through Django's test client: the pit, a new table from the
game's schemas, and the approvals queue, each writing through the services and showing a
service's refusal on the page."""

from __future__ import annotations

import datetime as dt
import html
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from approvals.models import Approval
from approvals.services import approval_decide
from casino.core.money import money
from casino.rules.contract import registry
from desk.floor import selectors
from payouts import figures
from payouts.models import AuditEntry, Settlement, SignoffPolicy
from payouts.signoff import policies_by_table
from tables import services
from tables.models import Hand, Table
from tests.conftest import record
from tests.desk.helpers import row, text
from tests.game_samples import table_config
from tests.payouts.forgery import as_database_superuser

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
PAGES = ["floor-pit", "floor-pit-tiles", "floor-table-new", "floor-approvals"]


def tile(response: Any, table: Table) -> str:
    """The markup of one table's tile on the pit."""
    found = re.search(rf'<li class="tile[^"]*" id="table-{table.pk}".*?</li>', text(response), re.S)
    assert found, f"no tile for {table.name}"
    return found.group(0)


def cell(markup: str, name: str) -> str:
    """A figure of a tile's "today" line, as shown (hands a count, amounts in money)."""
    found = re.search(rf'<span class="{name}">([^<]*)<', markup)
    assert found, f"no {name} figure"
    return found.group(1)


def settle(client_for: Any, dealer: Any, table: Table) -> Any:
    """Open and settle one High Card Flush hand through the API, as the tablet does."""
    api = client_for(dealer)
    hand = api.post(f"/api/v1/tables/{table.pk}/hands/")
    assert hand.status_code == 201, hand.json()
    return api.post(f"/api/v1/hands/{hand.json()['id']}/settle/", record(), format="json")


@pytest.fixture
def floor_client(client: Any, floor: Any) -> Any:
    client.force_login(floor)
    return client


# ---------------------------------------------------------------- who may open the desk


@pytest.mark.parametrize("name", PAGES)
@pytest.mark.parametrize(("who", "status"), [("floor", 200), ("dealer", 403), ("compliance", 403)])
def test_only_floor_managers_open_the_floor_pages(name, who, status, client, request):
    client.force_login(request.getfixturevalue(who))
    assert client.get(reverse(name)).status_code == status


@pytest.mark.parametrize("name", PAGES)
def test_anonymous_visitors_are_sent_to_the_login_page(name, client):
    response = client.get(reverse(name))
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


def test_a_dealer_cannot_close_a_table_or_decide_a_request(client, dealer, dp_table, other_dealer):
    change = services.change_request(user=dealer, table_id=dp_table.pk, changes={"ante_max": 500})
    client.force_login(dealer)
    closing = client.post(reverse("floor-table-status", args=[dp_table.pk]), {"status": "closed"})
    assigning = client.post(
        reverse("floor-table-dealer", args=[dp_table.pk]), {"dealer": other_dealer.pk}
    )
    approving = client.post(reverse("floor-approval-approve", args=[change.approval.pk]))
    assert (closing.status_code, assigning.status_code, approving.status_code) == (403, 403, 403)
    dp_table.refresh_from_db()
    assert (dp_table.status, dp_table.dealer) == ("open", dealer)
    assert Approval.objects.get().status == "pending"


# ---------------------------------------------------------------- the pit


def test_the_pit_shows_each_table_with_todays_figures_from_its_settlements(
    floor_client, dp_table, draw_table, dealer, client_for
):
    settled = settle(client_for, dealer, dp_table)
    assert settled.status_code == 201, settled.json()
    wanted = figures.totals(Settlement.objects.filter(hand__table=dp_table))
    assert wanted.hands == 1 and wanted.handle > 0

    response = floor_client.get(reverse("floor-pit"))
    assert response.status_code == 200
    hcf = tile(response, dp_table)
    assert (cell(hcf, "hands"), cell(hcf, "handle"), cell(hcf, "win")) == (
        str(wanted.hands),
        money(wanted.handle),
        money(wanted.win),
    )
    # The chips wagered are the handle; "drop" is the counted drop box, not a tile's figure.
    assert "· handle <span" in hcf and "drop" not in hcf.lower()
    assert "High Card Flush" in hcf and f'<option value="{dealer.pk}" selected>dealer<' in hcf
    assert "No hand open" in hcf and "Nothing waiting" in hcf
    # After the hand the position is offered on to seat 2 (Bela).
    assert "Position offered to: seat 2 (Bela)" in hcf
    draw = tile(response, draw_table)
    assert (cell(draw, "hands"), cell(draw, "handle"), cell(draw, "win")) == ("0", "$0.00", "$0.00")
    assert "Five Card Draw 7-A" in draw
    assert "Button, next hand: seat 1 (Ana)" in draw  # 7-A's first button
    # The grouped sums are payouts.figures.totals of each table's settlements.
    by_table = figures.by_table(selectors.today_settlements())
    assert by_table == {dp_table.pk: wanted}


def test_the_pit_counts_only_todays_gaming_day(
    floor_client, dp_table, dealer, client_for, monkeypatch
):
    settle(client_for, dealer, dp_table)
    yesterday = figures.gaming_day() - dt.timedelta(days=1)
    monkeypatch.setattr(selectors, "gaming_day", lambda: yesterday)
    hcf = tile(floor_client.get(reverse("floor-pit")), dp_table)
    assert (cell(hcf, "hands"), cell(hcf, "handle"), cell(hcf, "win")) == ("0", "$0.00", "$0.00")


def test_a_tile_shows_the_open_hand_and_the_pending_requests(
    floor_client, dp_table, dealer, client_for
):
    api = client_for(dealer)
    hand = api.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    api.post(f"/api/v1/hands/{hand['id']}/void/", {"reason": "misdeal"}, format="json")
    with as_database_superuser():  # twelve minutes ago (what a hand froze stays frozen)
        Hand.objects.filter(pk=hand["id"]).update(
            opened_at=Hand.objects.get(pk=hand["id"]).opened_at - dt.timedelta(minutes=12)
        )
    hcf = tile(floor_client.get(reverse("floor-pit")), dp_table)
    assert "Hand 1 open for 12 min" in hcf
    void = Approval.objects.get(kind="void")
    link = f'href="/desk/floor/approvals/?table={dp_table.pk}#approval-{void.pk}"'
    assert link in hcf and '<span class="what">Void</span>' in hcf
    assert "Designated player: seat 1 (Ana) · bank $500.00" in hcf


def test_a_pontoon_tile_names_the_banker(floor_client, floor, dealer):
    table = services.table_create(
        user=floor,
        name="PON-T",
        game="pontoon",
        seat_count=6,
        dealer=dealer,
        limits={"stake_min": 100, "stake_max": 2000},
    )
    for seat, name in {1: "Ana", 2: "Bela"}.items():
        services.seat_update(
            user=floor, table_id=table.pk, number=seat, player=name, sitting_out=False
        )
    services.table_set_status(user=floor, table_id=table.pk, status="open")
    services.game_act(user=dealer, table_id=table.pk, action={"type": "choose_banker", "seat": 2})
    pontoon = tile(floor_client.get(reverse("floor-pit")), table)
    assert "Pontoon" in pontoon and "Banker: seat 2 (Bela)" in pontoon


def test_the_pit_reads_in_the_same_number_of_queries_however_many_tables(
    floor_client, floor, dealer, dp_table, client_for, django_assert_max_num_queries
):
    settle(client_for, dealer, dp_table)

    def counted() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert floor_client.get(reverse("floor-pit")).status_code == 200
        return len(queries)

    few = counted()
    for number in range(6):
        table = services.table_create(
            user=floor,
            name=f"PAI-{number}",
            game="paiute",
            seat_count=5,
            dealer=dealer,
            limits={"ante": 100},
        )
        services.change_request(user=dealer, table_id=table.pk, changes={"ante": 200})
    assert counted() == few
    with django_assert_max_num_queries(20):
        floor_client.get(reverse("floor-pit-tiles"), **HTMX)


def test_the_tiles_render_alone_for_htmx_polling(floor_client, dp_table, draw_table):
    response = floor_client.get(reverse("floor-pit-tiles"), **HTMX)
    assert response.status_code == 200
    body = text(response)
    used = [template.name for template in response.templates]
    assert "desk/floor/_tiles.html" in used and "desk/base.html" not in used
    assert "<html" not in body
    assert 'id="pit-tiles"' in body and 'hx-trigger="every 5s"' in body
    assert "HCF-T" in body and "7A-1" in body
    # The full page holds the same partial.
    page = text(floor_client.get(reverse("floor-pit")))
    assert "<html" in page and 'hx-get="/desk/floor/tiles/"' in page


def test_closing_and_opening_a_table_from_its_tile_is_audited(floor_client, dp_table):
    url = reverse("floor-table-status", args=[dp_table.pk])
    response = floor_client.post(url, {"status": "closed"}, **HTMX)
    assert response.status_code == 200
    assert "Table HCF-T is now closed." in text(response)
    assert 'hx-swap-oob="true"' in text(response)  # the outcome goes beside the tiles
    assert 'aria-label="Open table HCF-T"' in tile(response, dp_table)
    dp_table.refresh_from_db()
    assert dp_table.status == "closed"
    entry = AuditEntry.objects.get(action="table_closed")
    assert (entry.actor_name, entry.before, entry.after) == (
        "floor",
        {"status": "open"},
        {"status": "closed"},
    )
    # Without htmx: the pit again, with the outcome as a message.
    again = floor_client.post(url, {"status": "open"}, follow=True)
    assert again.redirect_chain == [(reverse("floor-pit"), 302)]
    assert "Table HCF-T is now open." in text(again)
    dp_table.refresh_from_db()
    assert dp_table.status == "open"
    reopened = AuditEntry.objects.filter(action="table_open").order_by("-pk")
    assert reopened.count() == 2  # the fixture opened it first
    assert (reopened[0].actor_name, reopened[0].after) == ("floor", {"status": "open"})


def test_a_table_with_an_open_hand_is_not_closed_and_the_page_says_why(
    floor_client, dp_table, dealer, client_for
):
    client_for(dealer).post(f"/api/v1/tables/{dp_table.pk}/hands/")
    entries = AuditEntry.objects.count()
    response = floor_client.post(
        reverse("floor-table-status", args=[dp_table.pk]), {"status": "closed"}, **HTMX
    )
    assert response.status_code == 200
    assert '<p role="alert">table HCF-T has an open hand; settle or void it first</p>' in text(
        response
    )
    dp_table.refresh_from_db()
    assert dp_table.status == "open" and AuditEntry.objects.count() == entries
    already = floor_client.post(
        reverse("floor-table-status", args=[dp_table.pk]), {"status": "open"}, follow=True
    )
    assert "table HCF-T is already open" in text(already)
    bogus = floor_client.post(
        reverse("floor-table-status", args=[dp_table.pk]), {"status": "ajar"}, **HTMX
    )
    assert "'ajar' is not a table state" in text(bogus)
    huge = floor_client.post(
        "/desk/floor/tables/9999999999999999999999/status/", {"status": "open"}
    )
    assert huge.status_code == 404
    missing = floor_client.post(reverse("floor-table-status", args=[99999]), {"status": "open"})
    assert missing.status_code == 302
    assert "table 99999 does not exist" in text(floor_client.get(reverse("floor-pit")))


def test_the_plain_forms_carry_the_csrf_token(floor, dp_table):
    """Without htmx too: the tile's form (closing's second step) posts with its token (and is
    refused without)."""
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(floor)
    page = text(browser.get(reverse("floor-pit"), {"confirm": dp_table.pk}))
    form = re.search(
        r'<form method="post" action="/desk/floor/tables/\d+/status/".*?</form>', page, re.S
    )
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.group(0)).group(1)
    url = reverse("floor-table-status", args=[dp_table.pk])
    assert browser.post(url, {"status": "closed"}).status_code == 403
    dp_table.refresh_from_db()
    assert dp_table.status == "open"
    answer = browser.post(url, {"status": "closed", "csrfmiddlewaretoken": token})
    assert answer.status_code == 302
    dp_table.refresh_from_db()
    assert dp_table.status == "closed"


def test_assigning_a_dealer_from_the_tile_is_audited(
    floor_client, dp_table, other_dealer, compliance
):
    url = reverse("floor-table-dealer", args=[dp_table.pk])
    page = text(floor_client.get(reverse("floor-pit")))
    assert f'<option value="{other_dealer.pk}">other_dealer</option>' in page
    assert f'<option value="{compliance.pk}"' not in page  # only dealers are offered

    response = floor_client.post(url, {"dealer": other_dealer.pk}, **HTMX)
    assert "Table HCF-T is dealt by other_dealer." in text(response)
    assert f'<option value="{other_dealer.pk}" selected>other_dealer<' in tile(response, dp_table)
    dp_table.refresh_from_db()
    assert dp_table.dealer == other_dealer
    entry = AuditEntry.objects.get(action="table_dealer")
    assert (entry.actor_name, entry.before, entry.after) == (
        "floor",
        {"dealer": "dealer"},
        {"dealer": "other_dealer"},
    )

    floor_client.post(url, {"dealer": ""}, **HTMX)
    dp_table.refresh_from_db()
    assert dp_table.dealer is None
    refused = floor_client.post(url, {"dealer": compliance.pk}, **HTMX)
    assert "Choose a dealer from the list" in text(refused)
    dp_table.refresh_from_db()
    assert dp_table.dealer is None and AuditEntry.objects.filter(action="table_dealer").count() == 2


# ---------------------------------------------------------------- a new table


def hcf_post(**overrides: Any) -> dict[str, Any]:
    """The new High Card Flush table form as posted: amounts in dollars, the rules as the
    form draws them (the game's defaults, field by field)."""
    from desk.floor.forms import NewTableForm
    from tests.desk.test_schema_fields import posted

    found = registry()["high-card-flush"]
    data = posted(NewTableForm(found).form)
    data.update(
        {
            "game": "high-card-flush",
            "name": "HCF-9",
            "seat_count": "7",
            "smallest_chip": "0.25",
            "dealer": "",
            "limits.ante_min": "5.00",
            "limits.ante_max": "100.00",
            "limits.bank_min": "200.00",
            "limits.bank_max": "5,000.00",
        }
    )
    data.update(overrides)
    return data


def test_the_new_table_form_is_built_from_the_games_schemas(floor_client):
    chooser = text(floor_client.get(reverse("floor-table-new")))
    for found in registry().values():
        assert f'<option value="{found.code}"' in chooser
    page = text(floor_client.get(reverse("floor-table-new"), {"game": "high-card-flush"}))
    for limit in ("ante_min", "ante_max", "bank_min", "bank_max"):
        assert f'name="limits.{limit}"' in page
    assert re.search(r'<label for="f-limits-ante_max">Ante maximum</label>', page)
    assert 'name="seat_count"' in page and "From 2 to 7." in page
    assert '<option value="running" selected>' in page
    # A pay table is a line a row, in odds to 1, prefilled with the game's defaults; no JSON.
    assert re.search(
        r'<label for="f-rules-flush_paytable-7">7 cards</label>.*?value="200".*?to 1', page, re.S
    )
    shown = re.sub(r"<[^>]+>", " ", page.split("<main>")[1])  # the words on the screen
    assert "<textarea" not in page
    for developer in ("docs/rules", "ante_max", "flush_paytable", "{", "minor units"):
        assert developer not in shown
    assert 'name="rules.ante_min"' not in page  # a limit is set as a limit, not as a rule
    draw = text(floor_client.get(reverse("floor-table-new"), {"game": "five-card-draw-7a"}))
    assert '<option value="pot_limit">Pot limit</option>' in draw
    assert 'name="rules.heads_up_uncapped"' in draw


def test_a_good_post_creates_the_table_with_only_the_rules_that_differ(floor_client, floor, dealer):
    response = floor_client.post(
        reverse("floor-table-new"),
        hcf_post(
            dealer=str(dealer.pk),
            **{"rules.coverage": "original_bank", "rules.rake.amount": "1.00"},
        ),
        follow=True,
    )
    assert response.redirect_chain == [(reverse("floor-pit"), 302)]
    assert "Table HCF-9 (High Card Flush, 7 seats) created." in text(response)
    table = Table.objects.get(name="HCF-9")
    assert (table.game, table.seat_count, table.smallest_chip, table.dealer, table.status) == (
        "high-card-flush",
        7,
        25,
        dealer,
        "closed",
    )
    assert table.limits == {
        "ante_min": 500,
        "ante_max": 10000,
        "bank_min": 20000,
        "bank_max": 500000,
    }
    rake = {"scheme": "per_player", "amount": 100, "bands": []}
    assert table.rules == {"coverage": "original_bank", "rake": rake}
    assert table.seats.count() == 7
    entry = AuditEntry.objects.get(action="table_create")
    assert entry.actor_name == "floor" and entry.after["name"] == "HCF-9"
    assert f'id="table-{table.pk}"' in text(response)  # on the pit at once


def test_a_bad_limit_shows_the_services_message_and_creates_nothing(floor_client):
    response = floor_client.post(
        reverse("floor-table-new"),
        hcf_post(**{"limits.ante_min": "50.00", "limits.ante_max": "1"}),
    )
    assert response.status_code == 400
    body = text(response)
    message = "ante maximum $1.00 is below the minimum $50.00"
    assert re.search(
        r'<div class="field sf-field sf-money invalid">\s*<label for="f-limits-ante_max"', body
    )
    assert f'<span class="error" id="f-limits-ante_max-error">{message}</span>' in body
    assert 'aria-invalid="true"' in body and 'role="alert"' in body
    assert 'value="50.00"' in body  # what was typed stays in the form
    assert not Table.objects.exists() and not AuditEntry.objects.exists()


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"seat_count": "9"}, "must be from 2 to 7"),
        ({"rules.flush_paytable.7": "lots"}, "not odds: write the N of N to 1, like 200"),
        ({"rules.rake.scheme": "everyone"}, "choose one of the choices"),
        ({"limits.bank_min": ""}, "needed"),
        ({"limits.bank_min": "1.001"}, "at most 2 decimals: the smallest amount is $0.01"),
        ({"rules.rake.amount": "0.10"}, "is not a multiple of the smallest chip $0.25"),
        ({"game": "roulette"}, "That game is not played on this floor"),
    ],
)
def test_refused_tables_are_explained_and_not_created(floor_client, overrides, message):
    response = floor_client.post(reverse("floor-table-new"), hcf_post(**overrides))
    assert response.status_code == 400
    assert message in text(response) and 'role="alert"' in text(response)
    assert not Table.objects.exists()


def test_a_band_is_added_without_creating_anything(floor_client):
    response = floor_client.post(
        reverse("floor-table-new"), hcf_post(_edit="add:rules.rake.bands", name="")
    )
    assert response.status_code == 200
    body = text(response)
    assert 'name="rules.rake.bands.0.up_to"' in body and "autofocus" in body
    assert "needed" not in body  # a form still being filled in is not judged
    assert not Table.objects.exists()


def test_a_second_table_of_the_same_name_is_refused(floor_client, dp_table):
    response = floor_client.post(reverse("floor-table-new"), hcf_post(name="HCF-T"))
    assert response.status_code == 400
    assert "a table named 'HCF-T' already exists" in text(response)
    assert Table.objects.count() == 1


@pytest.mark.parametrize("code", sorted(registry()))
def test_every_games_defaults_round_trip_through_the_form(floor_client, code):
    """The form prefilled with a game's defaults and its demo limits creates a table that
    overrides nothing."""
    from desk.floor.forms import NewTableForm
    from desk.floor.schema_fields import major
    from tests.desk.test_schema_fields import posted

    found = registry()[code]
    assert floor_client.get(reverse("floor-table-new"), {"game": code}).status_code == 200
    data: dict[str, Any] = posted(NewTableForm(found).form)
    data.update({"game": code, "name": f"T-{code}", "seat_count": "5", "smallest_chip": "0.01"})
    for name, value in table_config(found)["limits"].items():  # demo or sample limits
        if value is None:
            continue
        schema = found.limits_schema["properties"][name]
        data[f"limits.{name}"] = str(value) if schema.get("enum") else major(value)
    response = floor_client.post(reverse("floor-table-new"), data)
    assert response.status_code == 302, text(response)[-3000:]
    table = Table.objects.get(name=f"T-{code}")
    assert table.rules == {} and table.game == code


# ---------------------------------------------------------------- the approvals queue


@pytest.fixture
def limit_change(dp_table, dealer):
    change = services.change_request(
        user=dealer,
        table_id=dp_table.pk,
        changes={"ante_max": 20_000, "rules": {"coverage": "original_bank"}},
        reason="high rollers at 10",
    )
    return change.approval


@pytest.fixture
def held_payout(dp_table, dealer, floor, client_for):
    SignoffPolicy.objects.create(
        table=dp_table, tiers=[{"above": 1, "role": "floor_manager", "count": 1}], set_by=floor
    )
    held = settle(client_for, dealer, dp_table)
    assert held.status_code == 202, held.json()
    return Approval.objects.get(pk=held.json()["approval"]["id"])


def test_the_queue_shows_a_limit_change_before_and_after(floor_client, limit_change):
    response = floor_client.get(reverse("floor-approvals"))
    shown = row(response, limit_change)
    assert "Limit or rule change" in shown and "HCF-T" in shown
    assert "Asked by <strong>dealer</strong>" in shown and "high rollers at 10" in shown
    assert re.search(
        r'data-key="ante_max"><th scope="row">Ante maximum</th>'
        r'<td class="before">\$100\.00</td><td class="after">\$200\.00<',
        shown,
    )
    # coverage was not overridden at the table: it was at the game's default.
    assert re.search(
        r'data-key="rules.coverage"><th scope="row">Bank coverage</th><td class="before">the '
        r"bank and what it collects as the hand settles <small>\(the game's default\)</small>"
        r'.*?class="after">only the bank posted before the hand<',
        shown,
        re.S,
    )
    assert "hand 1 at the earliest" in shown
    assert 'id="change-theory-' in shown  # the edge, always
    assert ">Approve</button>" in shown and ">Reject</button>" in shown


def test_approving_a_limit_change_replaces_the_row_and_applies_it(
    floor_client, limit_change, dp_table
):
    response = floor_client.post(
        reverse("floor-approval-approve", args=[limit_change.pk]),
        {"note": "ok by pit boss"},
        **HTMX,
    )
    assert response.status_code == 200
    shown = text(response)
    assert shown.lstrip().startswith(
        f'<article class="approval panel approved" id="approval-{limit_change.pk}"'
    )
    assert "Approved: the change applies at HCF-T from hand 1." in shown
    assert "Approved by floor" in shown and "ok by pit boss" in shown
    assert ">Approve</button>" not in shown
    dp_table.refresh_from_db()
    assert dp_table.limits["ante_max"] == 20_000 and dp_table.rules["coverage"] == "original_bank"
    limit_change.refresh_from_db()
    assert (limit_change.status, limit_change.decided_by.username, limit_change.note) == (
        "approved",
        "floor",
        "ok by pit boss",
    )


def test_a_held_payout_shows_the_settlement_and_is_sent_back(floor_client, held_payout, dp_table):
    shown = row(floor_client.get(reverse("floor-approvals")), held_payout)
    assert "Large-payout sign-off" in shown and "hand 1" in shown
    over = held_payout.detail["over"]
    assert over and all(html.unescape(why) in shown for why in over)
    for party in held_payout.detail["result"]["seats"]:
        assert f'data-seat="{party["seat"]}"' in shown
        assert re.search(rf'class="num net"[^>]*>{re.escape(money(party["net"], True))}<', shown)
        for line in party["lines"]:
            assert line["wager"].replace("_", " ") in shown
    assert ">Send back</button>" in shown

    response = floor_client.post(
        reverse("floor-approval-reject", args=[held_payout.pk]), {"note": "recount"}, **HTMX
    )
    body = text(response)
    assert "Sent back to the dealer: nothing is stored; hand 1 is settled again" in body
    assert '<span class="badge rejected">sent back</span>' in body
    assert "Sent back by floor" in body
    held_payout.refresh_from_db()
    assert held_payout.status == "rejected" and not Settlement.objects.exists()
    assert Hand.objects.get(table=dp_table).status == "open"


def test_signing_a_held_payout_stores_the_settlement(floor_client, held_payout):
    response = floor_client.post(reverse("floor-approval-approve", args=[held_payout.pk]), **HTMX)
    assert "Signed: the settlement of hand 1 is stored." in text(response)
    settlement = Settlement.objects.get()
    assert settlement.result == held_payout.detail["result"]
    assert settlement.settled_by.username == "dealer"


def test_a_void_request_is_shown_and_approved(floor_client, dp_table, dealer, client_for):
    api = client_for(dealer)
    hand = api.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    api.post(f"/api/v1/hands/{hand['id']}/void/", {"reason": "card exposed"}, format="json")
    void = Approval.objects.get(kind="void")
    shown = row(floor_client.get(reverse("floor-approvals")), void)
    assert "Void of an open hand" in shown and "card exposed" in shown
    assert "Void hand 1: 0 actions recorded, seats 1, 2, 3, 4 dealt in." in shown
    response = floor_client.post(reverse("floor-approval-approve", args=[void.pk]), **HTMX)
    assert "Approved: hand 1 is voided." in text(response)
    assert Hand.objects.get(pk=hand["id"]).status == "voided"


def test_a_floor_manager_cannot_decide_their_own_request(floor_client, floor, dp_table):
    own = services.change_request(
        user=floor, table_id=dp_table.pk, changes={"ante_max": 500}
    ).approval
    # Their own request offers no decision, only taking it back.
    listed = row(floor_client.get(reverse("floor-approvals")), own)
    assert ">Approve</button>" not in listed and ">Reject</button>" not in listed
    assert "You asked for this: another floor manager decides it." in listed
    assert ">Withdraw</button>" in listed
    # A decision posted anyway is refused in words, and the request still waits.
    response = floor_client.post(reverse("floor-approval-approve", args=[own.pk]), **HTMX)
    assert response.status_code == 200
    shown = row(response, own)
    assert '<p role="alert">a floor manager cannot decide their own request' in shown
    assert ">Withdraw</button>" in shown  # still pending, for another floor manager
    own.refresh_from_db()
    dp_table.refresh_from_db()
    assert own.status == "pending" and dp_table.limits["ante_max"] == 10_000


def test_a_floor_manager_withdraws_their_own_request(floor_client, floor, floor2, dp_table):
    own = services.change_request(
        user=floor, table_id=dp_table.pk, changes={"ante_max": 500}
    ).approval
    # Someone else cannot take it back.
    other = Client()
    other.force_login(floor2)
    refused = other.post(reverse("floor-approval-withdraw", args=[own.pk]), **HTMX)
    assert "only floor, who asked, can withdraw" in text(refused)
    response = floor_client.post(reverse("floor-approval-withdraw", args=[own.pk]), **HTMX)
    shown = row(response, own)
    assert "Withdrawn: nothing it asked for happens." in shown
    assert "Withdrawn by floor" in shown
    own.refresh_from_db()
    dp_table.refresh_from_db()
    assert own.status == "withdrawn" and dp_table.limits["ante_max"] == 10_000


def test_a_request_already_decided_shows_the_conflict(floor_client, floor2, limit_change):
    approval_decide(user=floor2, approval_id=limit_change.pk, approve=True, note="")
    response = floor_client.post(reverse("floor-approval-reject", args=[limit_change.pk]), **HTMX)
    shown = row(response, limit_change)
    assert (
        f'<p role="alert">limit or rule change {limit_change.pk} was already approved</p>' in shown
    )
    assert "Approved by floor2" in shown
    limit_change.refresh_from_db()
    assert (limit_change.status, limit_change.decided_by) == ("approved", floor2)
    # Without htmx: the queue again, with the same message.
    again = floor_client.post(
        reverse("floor-approval-approve", args=[limit_change.pk]), follow=True
    )
    assert again.redirect_chain == [(reverse("floor-approvals"), 302)]
    assert f"limit or rule change {limit_change.pk} was already approved" in text(again)
    gone = floor_client.post(reverse("floor-approval-approve", args=[987654]), **HTMX)
    assert "approval 987654 does not exist" in text(gone)


def test_the_queue_filters_and_ignores_bad_filter_values(
    floor_client, limit_change, held_payout, floor2, dp_table, draw_table
):
    url = reverse("floor-approvals")
    both = text(floor_client.get(url))
    # Newest first: the payout was asked for after the change.
    assert both.index(f'id="approval-{held_payout.pk}"') < both.index(
        f'id="approval-{limit_change.pk}"'
    )
    only_payouts = text(floor_client.get(url, {"kind": "payout"}))
    assert f'id="approval-{held_payout.pk}"' in only_payouts
    assert f'id="approval-{limit_change.pk}"' not in only_payouts
    other_table = text(floor_client.get(url, {"table": draw_table.pk}))
    assert "Nothing waits for the floor." in other_table
    approval_decide(user=floor2, approval_id=limit_change.pk, approve=False, note="")
    pending = text(floor_client.get(url))
    assert f'id="approval-{limit_change.pk}"' not in pending
    rejected = text(floor_client.get(url, {"state": "rejected"}))
    assert f'id="approval-{limit_change.pk}"' in rejected and "Rejected by floor2" in rejected
    assert f'id="approval-{held_payout.pk}"' in text(floor_client.get(url, {"state": "all"}))
    for query, message in [
        ({"kind": "bribe"}, "There is no kind 'bribe'; showing every kind."),
        ({"state": "lost"}, "There is no state 'lost'; showing the pending requests."),
        ({"table": "x1"}, "There is no table 'x1'; showing every table."),
        ({"table": "99999999999999999999999"}, "There is no table"),
        ({"table": "424242"}, "There is no table '424242'"),
        ({"table": "\u00b2"}, "There is no table"),
    ]:
        response = floor_client.get(url, query)
        assert response.status_code == 200
        assert message in text(response)
        assert f'id="approval-{held_payout.pk}"' in text(response)


def test_a_correction_shows_what_it_moves_and_approving_stores_the_reversal_and_the_fix(
    floor_client, dp_table, dealer, client_for
):
    client = client_for(dealer)
    hand = client.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    fixed = record()
    fixed["players"][0]["flush_bonus"] = 0  # seat 2 had made no flush bonus bet
    asked = client.post(
        f"/api/v1/hands/{hand['id']}/corrections/",
        {"reason": "seat 2 made no bonus bet", "record": fixed},
        format="json",
    )
    assert asked.status_code == 202, asked.json()
    correction = Approval.objects.get(pk=asked.json()["id"])
    shown = row(floor_client.get(reverse("floor-approvals")), correction)
    assert 'data-party="seat 2"' in shown and "Approve" in shown
    # Seat 2 gets its $5.00 back from the designated player (seat 1).
    assert re.search(r'data-party="seat 2">.*?<td class="num">\+\$5\.00</td></tr>', shown, re.S)
    response = floor_client.post(reverse("floor-approval-approve", args=[correction.pk]), **HTMX)
    assert "Approved by floor" in text(response)
    kinds = list(
        Settlement.objects.filter(hand_id=hand["id"]).order_by("id").values_list("kind", flat=True)
    )
    assert kinds == ["settlement", "reversal", "correction"]


def test_a_long_note_is_refused_and_nothing_is_decided(floor_client, limit_change):
    response = floor_client.post(
        reverse("floor-approval-approve", args=[limit_change.pk]), {"note": "x" * 501}, **HTMX
    )
    assert "A note is at most 500 characters; nothing was decided." in text(response)
    limit_change.refresh_from_db()
    assert limit_change.status == "pending"


def test_a_refreshing_part_of_a_page_after_the_session_ended_sends_the_page_to_the_login(client):
    """The pit's tiles poll every few seconds; once the session has ended, the answer tells
    htmx to take the whole page to the login page, not to swap the login form into the tiles."""
    response = client.get(
        reverse("floor-pit-tiles"),
        HTTP_HX_REQUEST="true",
        HTTP_HX_CURRENT_URL="http://testserver/desk/floor/",
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == "/accounts/login/?next=%2Fdesk%2Ffloor%2F"


# ---------------------------------------------------------------- a table's hands


def test_the_floor_asks_for_a_void_and_a_correction_from_the_tables_hands(
    floor_client, dp_table, dealer, client_for
):
    client = client_for(dealer)
    first = client.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    client.post(f"/api/v1/hands/{first['id']}/settle/", record(), format="json")
    client.post(
        f"/api/v1/tables/{dp_table.pk}/game/actions/",
        {"type": "accept", "seat": 2, "bank": 50_000},
        format="json",
    )
    second = client.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    page = text(floor_client.get(reverse("floor-table-hands", args=[dp_table.pk])))
    assert "Ask to void" in page and "Correct…" in page

    # The open hand: a void asked for with a reason waits for another floor manager.
    missing = floor_client.post(reverse("floor-hand-void", args=[second["id"]]), {"reason": " "})
    assert "a void needs a reason" in text(floor_client.get(missing["Location"]))
    floor_client.post(reverse("floor-hand-void", args=[second["id"]]), {"reason": "misdeal"})
    void = Approval.objects.get(kind="void")
    assert (void.hand_id, void.requested_by.username, void.reason) == (
        second["id"],
        "floor",
        "misdeal",
    )

    # The settled hand: its actions, as settled, a row each to edit.
    from desk.floor.forms import CorrectionForm
    from tests.desk.test_schema_fields import posted

    url = reverse("floor-hand-correct", args=[first["id"]])
    form = text(floor_client.get(url))
    actions = Settlement.objects.get(hand_id=first["id"]).history["actions"]
    assert "<textarea" not in form
    assert f'name="actions.rows" value="{len(actions)}"' in form
    hand = Hand.objects.get(pk=first["id"])
    drawn = posted(CorrectionForm(registry()[hand.game], hand, actions).form)
    bad = floor_client.post(url, {**drawn, "reason": "typo", "actions.2.cards": "Ah Kh"})
    assert bad.status_code == 400 and "give 7 cards, not 2" in text(bad)
    unchanged = floor_client.post(url, {**drawn, "reason": "typo"})
    assert unchanged.status_code == 400 and "nothing to correct" in text(unchanged)
    missing = floor_client.post(url, drawn)
    assert missing.status_code == 400 and "Give the reason" in text(missing)
    assert not Approval.objects.filter(kind="correction").exists()
    index = next(i for i, a in enumerate(actions) if a["type"] == "wager" and a["seat"] == 2)
    asked = floor_client.post(
        url, {**drawn, "reason": "no bonus bet", f"actions.{index}.flush_bonus": "0"}
    )
    assert asked.status_code == 302 and asked["Location"].startswith(reverse("floor-approvals"))
    correction = Approval.objects.get(kind="correction")
    assert (
        correction.detail["differences"]["2"] == 500 and correction.requested_by.username == "floor"
    )


def test_the_floor_sets_sign_off_tiers_for_a_table_or_a_game(floor_client, dp_table):
    url = reverse("floor-signoff-limits")
    page = text(floor_client.get(url))
    assert re.search(
        r'data-table="HCF-T">.*?above \$1,199\.99: 1 floor manager.*?above \$5,000\.00: '
        r"1 shift manager.*?\$100,000\.00.*?the built-in default",
        page,
        re.S,
    )
    game = floor_client.post(
        url,
        {
            "scope": "game:high-card-flush",
            "tier-1-above": "1,200",
            "tier-1-role": "floor_manager",
            "tier-1-count": "2",
            "notice": "",
        },
    )
    assert game.status_code == 302
    page = text(floor_client.get(url))
    assert re.search(
        r'data-table="HCF-T">.*?above \$1,200\.00: 2 floor managers.*?no notice.*?the game\'s own',
        page,
        re.S,
    )
    floor_client.post(url, {"scope": f"table:{dp_table.pk}", "action": "preset:nevada"})
    assert policies_by_table([dp_table])[dp_table.pk].source == "table"
    entry = AuditEntry.objects.filter(action="signoff_policy_set").last()
    assert entry.actor_name == "floor" and entry.after == {
        "tiers": [{"above": 119_999, "role": "floor_manager", "count": 2}],
        "notice": None,
    }
    for bad in (
        {"scope": "table:999999", "tier-1-above": "1", "tier-1-role": "floor_manager"},
        {"scope": "house", "tier-1-above": "0.001", "tier-1-role": "floor_manager"},
    ):
        refused = floor_client.post(url, bad)
        assert refused.status_code == 400 and "Nothing was set" in text(refused)
    assert policies_by_table([dp_table])[dp_table.pk].tiers[0].count == 2
