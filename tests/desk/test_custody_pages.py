"""Chip custody through the desk's pages (Django's test client): a table opened and closed
through its counted tray from the pit; a fill from the floor's request through the cage's
queue to the table; a credit the other way; a slip voided with a reason and printed (every
print after the first a REPRINT); the count team's sheet, its second signature and a
correction that keeps the original; a closer's variance in words in the approvals queue.
Every refusal is said in words, and a refused form writes nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from approvals.models import Approval
from custody.models import DropCount, Inventory, Slip
from tables import services
from tables.models import Table
from tests.custody.conftest import OPENER, OPENER_TOTAL, opened, seated
from tests.desk.helpers import row, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def hcf(chips: Any, floor: Any, dealer: Any) -> Table:
    """A closed High Card Flush table HCF-1 dealt by ``dealer``, where custody is kept."""
    table = services.table_create(
        user=floor,
        name="HCF-1",
        game="high-card-flush",
        seat_count=7,
        dealer=dealer,
        limits={"ante_min": 100, "ante_max": 10_000, "bank_min": 5_000, "bank_max": 1_000_000},
        rules={"rake": {"scheme": "per_player", "amount": 100}},
    )
    return seated(floor, table, {1: "Ana", 2: "Bela", 3: "Csilla"})


@pytest.fixture
def open_hcf(hcf: Table, client_for: Any, dealer: Any, floor: Any) -> Table:
    """HCF-1 opened with :data:`OPENER` (the dealer counted, the floor manager signed)."""
    opened(client_for, hcf, dealer, floor)
    return hcf


def as_user(client: Any, user: Any) -> Any:
    client.force_login(user)
    return client


def form_counts(prefix: str, counts: dict[str, int]) -> dict[str, str]:
    """A count form's fields as typed: ``{prefix}-{value}`` for each denomination."""
    return {f"{prefix}-{value}": str(count) for value, count in counts.items()}


def followed_messages(response: Any) -> str:
    return " ".join(str(m) for m in response.context["messages"])


def slip_card(response: Any, slip: Slip) -> str:
    """The markup of one slip's card."""
    found = re.search(
        rf'<li class="slip [^"]*" id="slip-{slip.pk}".*?\n</li>', text(response), re.S
    )
    assert found, f"no card for {slip.label}"
    return found.group(0)


def squeezed(response: Any) -> str:
    """A page's text without its tags, its spaces run together."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text(response)))


# ---------------------------------------------------------------- who opens which page


@pytest.mark.parametrize(
    ("who", "page", "words"),
    [
        ("cage", "count-sheet", "This page is for the count team only."),
        ("counter", "cage-queue", "This page is for the cage only."),
        ("dealer", "cage-queue", "This page is for the cage only."),
        ("floor", "cage-queue", "This page is for the cage only."),
        ("floor", "count-sheet", "This page is for the count team only."),
        ("cage", "floor-pit", "This page is for floor managers only."),
        ("counter", "floor-approvals", "This page is for floor managers only."),
    ],
)
def test_the_cage_and_the_count_team_open_their_own_pages_only(
    who, page, words, client, request, chips
):
    response = as_user(client, request.getfixturevalue(who)).get(reverse(page))
    assert response.status_code == 403
    assert words in text(response)


def test_each_role_sees_its_own_pages_in_the_navigation(client, cage, counter, floor, chips):
    cage_home = as_user(client, cage).get(reverse("cage-queue"))
    assert cage_home.status_code == 200
    nav = re.search(r'<nav aria-label="Desks">(.*?)</nav>', text(cage_home), re.S).group(1)
    assert "Cage" in nav and "Drop count" not in nav and "Pit" not in nav
    assert 'href="/desk/cage/"' in text(client.get("/"))
    count_page = as_user(client, counter).get(reverse("count-sheet"))
    nav = re.search(r'<nav aria-label="Desks">(.*?)</nav>', text(count_page), re.S).group(1)
    assert "Drop count" in nav and "Cage" not in nav
    assert 'href="/desk/count/"' in text(client.get("/"))
    pit = as_user(client, floor).get(reverse("floor-pit"))
    nav = re.search(r'<nav aria-label="Desks">(.*?)</nav>', text(pit), re.S).group(1)
    assert "Cage" not in nav and "Drop count" not in nav


# ---------------------------------------------------------------- the pit and the count


def test_the_pit_leads_open_and_close_to_the_count(client, floor, hcf, client_for, dealer):
    pit = as_user(client, floor).get(reverse("floor-pit"))
    count_url = reverse("floor-custody-count", args=[hcf.pk])
    assert f'href="{count_url}" aria-label="Open table HCF-1: count its opener"' in text(pit)
    assert reverse("floor-table-status", args=[hcf.pk]) not in text(pit)
    opened(client_for, hcf, dealer, floor)
    pit = client.get(reverse("floor-pit"))
    assert f'href="{count_url}" aria-label="Close table HCF-1: count its closer"' in text(pit)
    # The plain status change says why it is refused.
    refused = client.post(
        reverse("floor-table-status", args=[hcf.pk]), {"status": "closed"}, follow=True
    )
    assert "count the closer by denomination" in followed_messages(refused)


def test_a_floor_manager_counts_the_opener_and_the_dealer_signs_it(
    client, floor, dealer, hcf, client_for
):
    client = as_user(client, floor)
    url = reverse("floor-custody-count", args=[hcf.pk])
    page = client.get(url)
    assert "Count the opener of HCF-1" in text(page)
    assert "No closer to start from" in text(page)
    # One row a chip, with its colour, smallest first.
    assert re.findall(r'name="counts-(\d+)"', text(page)) == [
        "25",
        "100",
        "500",
        "2500",
        "10000",
        "50000",
        "100000",
    ]
    assert (
        '<span class="swatch chip-500" aria-hidden="true"></span> <span class="value">$5.00</span> <span class="colour">red</span>'
        in text(page)
    )
    assert ".chip-500{background-color:#c0392b}" in text(page)
    done = client.post(url, form_counts("counts", OPENER), follow=True)
    assert (
        "The opener of HCF-1 is counted: $5,600.00. It waits for the dealer's signature"
        in followed_messages(done)
    )
    pending = Inventory.objects.get(status="counted")
    assert (pending.kind, pending.total, pending.counted_by) == ("opener", OPENER_TOTAL, floor)
    assert "You counted it: the dealer signs it second" in text(done)
    # The same person signing twice is refused, in words; the table stays closed.
    twice = client.post(reverse("floor-inventory-sign", args=[pending.pk]), follow=True)
    assert (
        "you already signed this opener; the second signature is another person's"
        in followed_messages(twice)
    )
    hcf.refresh_from_db()
    assert hcf.status == "closed"
    signed = client_for(dealer).post(f"/api/v1/custody/inventories/{pending.pk}/sign/")
    assert signed.status_code == 200, signed.json()
    page = client.get(reverse("floor-table", args=[hcf.pk]))
    hcf.refresh_from_db()
    assert hcf.status == "open"
    words = squeezed(page)
    assert "Opener $5,600.00 signed at" in words and "by floor and dealer" in words
    assert "Expected tray $5,600.00" in words


def test_a_floor_manager_signs_the_opener_the_dealer_counted(
    client, floor, dealer, hcf, client_for
):
    counted = client_for(dealer).post(
        f"/api/v1/tables/{hcf.pk}/custody/opener/", {"counts": OPENER}, format="json"
    )
    assert counted.status_code == 201
    client = as_user(client, floor)
    page = client.get(reverse("floor-table", args=[hcf.pk]))
    assert "The opener is counted: it waits for a floor manager's signature" in text(page)
    assert "Sign the opener: open HCF-1" in text(page)
    # The pit says so too.
    assert "Opener counted: waiting for a floor manager" in text(client.get(reverse("floor-pit")))
    done = client.post(reverse("floor-inventory-sign", args=[counted.json()["id"]]), follow=True)
    assert "HCF-1 is open: its opener of $5,600.00 is signed." in followed_messages(done)
    hcf.refresh_from_db()
    assert hcf.status == "open"


def test_a_bad_count_is_said_at_its_row_and_counts_nothing(client, floor, hcf):
    client = as_user(client, floor)
    url = reverse("floor-custody-count", args=[hcf.pk])
    refused = client.post(url, {"counts-500": "twenty", "counts-100": "-3", "counts-2500": "4"})
    assert refused.status_code == 400
    page = text(refused)
    assert "Nothing was counted: see the fields marked below." in page
    assert (
        'id="id-counts-500-error">the count of $5.00 chips is a whole number, such as 20</p>'
        in page
    )
    assert 'id="id-counts-100-error">the count of $1.00 chips is a whole number' in page
    assert 'value="twenty"' in page and 'value="4"' in page  # as typed
    assert not Inventory.objects.exists()


def test_a_closer_beyond_the_report_line_needs_a_reason_at_its_field(client, floor, open_hcf):
    client = as_user(client, floor)
    url = reverse("floor-custody-count", args=[open_hcf.pk])
    page = client.get(url)
    assert "Count the closer of HCF-1" in text(page)
    assert "Expected in the tray: <strong>$5,600.00</strong>" in text(page)
    short = {**OPENER, "10000": OPENER["10000"] - 2}
    refused = client.post(url, form_counts("counts", short))
    assert refused.status_code == 400
    assert re.search(
        r'id="reason-error">the closer is -200.00 from the expected 5600.00: above 25.00 it needs a reason',
        text(refused),
    )
    assert not Inventory.objects.filter(kind="closer").exists()
    done = client.post(
        url, {**form_counts("counts", short), "reason": "recounted twice"}, follow=True
    )
    assert "$200.00 short of the expected $5,600.00" in followed_messages(done)


# ---------------------------------------------------------------- a fill, from request to received


def test_a_fill_goes_from_the_floors_request_through_the_cage_to_the_table(
    client, floor, dealer, cage, open_hcf, client_for
):
    floor_client = as_user(client, floor)
    form = floor_client.get(reverse("floor-custody-fill", args=[open_hcf.pk]))
    assert "Request a fill for HCF-1" in text(form)
    done = floor_client.post(
        reverse("floor-custody-fill", args=[open_hcf.pk]),
        {"counts-500": "20", "counts-2500": "4", "counts-100": ""},
        follow=True,
    )
    slip = Slip.objects.get()
    assert slip.label.startswith("F-") and slip.label.endswith("-000001")
    assert (slip.counts, slip.total) == ({"500": 20, "2500": 4}, 20_000)
    assert (
        f"Fill {slip.label} of $200.00 requested for HCF-1: it waits for the cage."
        in followed_messages(done)
    )
    card = slip_card(done, slip)
    assert "Waiting for the cage" in card and "20 × $5.00" in card and "4 × $25.00" in card
    assert 'class="primary"' not in card  # nothing for the floor to sign yet
    pit = floor_client.get(reverse("floor-pit"))
    assert f'Fill <abbr title="{slip.label}">F-…1</abbr> waiting for the cage' in text(pit)

    cage_client = as_user(type(client)(), cage)
    queue = cage_client.get(reverse("cage-queue"))
    card = slip_card(queue, slip)
    assert "Fill " + slip.label in card and "HCF-1" in card and "$200.00" in card
    assert "Sign: $200.00 left the cage" in card
    assert reverse("slip-print", args=[slip.pk]) in card
    signed = cage_client.post(reverse("cage-slip-sign", args=[slip.pk]), follow=True)
    assert (
        f"Signed: fill {slip.label} of $200.00 left the cage for HCF-1; it waits for the "
        "dealer and a floor manager at the table." in followed_messages(signed)
    )
    assert f'id="slip-{slip.pk}"' not in text(signed).split('id="done-title"')[0]
    # The cage signing again is refused in words.
    again = cage_client.post(reverse("cage-slip-sign", args=[slip.pk]), follow=True)
    assert f"you already signed {slip.label}" in followed_messages(again)

    page = floor_client.get(reverse("floor-table", args=[open_hcf.pk]))
    card = slip_card(page, slip)
    assert "On its way: waiting for the dealer and a floor manager at the table" in card
    assert "Sign: received at the table" in card
    signed = floor_client.post(reverse("floor-slip-sign", args=[slip.pk]), follow=True)
    assert (
        f"You signed {slip.label}: on its way: waiting for the dealer at the table."
        in followed_messages(signed)
    )
    twice = floor_client.post(reverse("floor-slip-sign", args=[slip.pk]), follow=True)
    assert (
        f"you already signed {slip.label}; each signature is another person's"
        in followed_messages(twice)
    )
    answer = client_for(dealer).post(f"/api/v1/custody/slips/{slip.pk}/sign/")
    assert answer.status_code == 200 and answer.json()["status"] == "received"
    words = squeezed(floor_client.get(reverse("floor-table", args=[open_hcf.pk])))
    assert "Fills received +$200.00" in words and "Expected tray $5,800.00" in words


def test_a_credit_goes_from_the_table_to_the_cage(
    client, floor, dealer, cage, open_hcf, client_for
):
    floor_client = as_user(client, floor)
    floor_client.post(reverse("floor-custody-credit", args=[open_hcf.pk]), {"counts-10000": "5"})
    slip = Slip.objects.get()
    assert slip.label.startswith("C-") and slip.total == 50_000
    cage_client = as_user(type(client)(), cage)
    assert f'id="slip-{slip.pk}"' not in text(cage_client.get(reverse("cage-queue")))
    floor_client.post(reverse("floor-slip-sign", args=[slip.pk]))
    client_for(dealer).post(f"/api/v1/custody/slips/{slip.pk}/sign/")
    queue = cage_client.get(reverse("cage-queue"))
    card = slip_card(queue, slip)
    assert "On its way: waiting for the cage" in card and "Sign: $500.00 arrived" in card
    done = cage_client.post(reverse("cage-slip-sign", args=[slip.pk]), follow=True)
    assert (
        f"credit {slip.label} of $500.00 from HCF-1 is received at the cage"
        in followed_messages(done)
    )
    slip.refresh_from_db()
    assert slip.status == "received"
    done_table = text(done).split('id="done-title"')[1]
    assert slip.label in done_table and "Received at the cage" in done_table


def test_a_fill_of_nothing_or_of_a_bad_count_is_refused_at_the_field(client, floor, open_hcf):
    client = as_user(client, floor)
    url = reverse("floor-custody-fill", args=[open_hcf.pk])
    nothing = client.post(url, {"counts-500": "0"})
    assert nothing.status_code == 400
    assert 'id="counts-error">count at least one chip: a fill moves chips</p>' in text(nothing)
    bad = client.post(url, {"counts-500": "2.5"})
    assert bad.status_code == 400
    assert 'id="id-counts-500-error">the count of $5.00 chips is a whole number' in text(bad)
    assert not Slip.objects.exists()


def test_a_closed_table_takes_no_fill(client, floor, hcf):
    refused = as_user(client, floor).post(
        reverse("floor-custody-fill", args=[hcf.pk]), {"counts-500": "2"}
    )
    assert refused.status_code == 400
    assert "table HCF-1 is closed: fills and credits go to an open table" in text(refused)
    assert not Slip.objects.exists()


# ---------------------------------------------------------------- void and print


def test_a_slip_is_voided_only_with_a_reason_and_keeps_its_number(client, floor, open_hcf):
    client = as_user(client, floor)
    client.post(reverse("floor-custody-fill", args=[open_hcf.pk]), {"counts-500": "4"})
    slip = Slip.objects.get()
    refused = client.post(reverse("floor-slip-void", args=[slip.pk]), {"reason": "  "})
    assert refused.status_code == 400
    card = slip_card(refused, slip)
    assert '<details class="void" open>' in card
    assert (
        f'id="void-reason-{slip.pk}-error">say why {slip.label} is voided: a slip is voided with a reason</p>'
        in card
    )
    slip.refresh_from_db()
    assert slip.status == "requested"
    done = client.post(
        reverse("floor-slip-void", args=[slip.pk]), {"reason": "wrong table"}, follow=True
    )
    assert (
        f"{slip.label} is void (wrong table); its number stays on the day's slips."
        in followed_messages(done)
    )
    card = slip_card(done, slip)
    assert "Void by floor: <q>wrong table</q>" in card
    slip.refresh_from_db()
    assert (slip.status, slip.number) == ("void", 1)
    # The next fill takes the next number.
    client.post(reverse("floor-custody-fill", args=[open_hcf.pk]), {"counts-500": "4"})
    assert Slip.objects.order_by("-pk").first().number == 2


def test_every_print_after_the_first_says_reprint(client, floor, cage, open_hcf):
    client = as_user(client, floor)
    client.post(
        reverse("floor-custody-fill", args=[open_hcf.pk]), {"counts-500": "20", "counts-2500": "4"}
    )
    slip = Slip.objects.get()
    url = reverse("slip-print", args=[slip.pk])
    preview = client.get(url)
    assert preview.status_code == 200 and "has not been printed yet" in text(preview)
    slip.refresh_from_db()
    assert slip.prints == 0  # looking is not printing
    first = client.post(url)
    assert first["Location"] == f"{url}?copy=1"
    page = client.get(first["Location"])
    assert "REPRINT" not in text(page).split("<article")[1]
    assert f'data-autoprint="{slip.pk}-1"' in text(page)
    doc = squeezed(page)
    assert f"Fill slip {slip.label} $200.00" in doc
    assert "Table HCF-1" in doc and "20 $100.00" in doc and "Total $200.00" in doc
    # The signatures still to come are blank lines.
    assert text(page).count('<td class="blank">') == 9
    assert "Cage the chips left the cage" in doc
    cage_client = as_user(type(client)(), cage)
    cage_client.post(reverse("cage-slip-sign", args=[slip.pk]))
    second = cage_client.post(url)
    assert second["Location"] == f"{url}?copy=2"
    page = cage_client.get(second["Location"])
    assert '<p class="reprint-mark">REPRINT</p>' in text(page)
    assert "Print 2 of " + slip.label + " is recorded: it says REPRINT" in text(page)
    assert text(page).count('<td class="blank">') == 6
    assert "signed on the system" in text(page) and "cage" in squeezed(page)
    slip.refresh_from_db()
    assert slip.prints == 2
    # A copy not printed yet is no copy.
    assert "REPRINT</p>" not in text(client.get(f"{url}?copy=3"))


# ---------------------------------------------------------------- the count team


def test_the_count_team_counts_a_box_signs_it_and_corrects_it(
    client, counter, counter2, open_hcf, floor
):
    other = services.table_create(
        user=floor,
        name="HCF-0",
        game="high-card-flush",
        seat_count=7,
        limits={"ante_min": 100, "ante_max": 10_000, "bank_min": 5_000, "bank_max": 1_000_000},
    )
    first = as_user(client, counter)
    sheet = first.get(reverse("count-sheet"))
    assert sheet.status_code == 200
    assert 'data-table="HCF-1"' in text(sheet) and 'data-table="HCF-0"' not in text(sheet)
    assert other.status == "closed"
    assert re.findall(rf'name="cash-{open_hcf.pk}-(\d+)"', text(sheet)) == [
        "100",
        "500",
        "1000",
        "2000",
        "5000",
        "10000",
    ]
    typed = {
        f"cash-{open_hcf.pk}-2000": "3",
        f"cash-{open_hcf.pk}-500": "2",
        f"chips-{open_hcf.pk}-100": "3",
    }
    done = first.post(reverse("count-drop", args=[open_hcf.pk]), typed, follow=True)
    assert (
        "HCF-1's drop box is counted: $73.00 (cash $70.00, chips $3.00). It waits for a second counter's signature."
        in followed_messages(done)
    )
    drop = DropCount.objects.get()
    assert (drop.cash, drop.chips, drop.counted_by) == ({"500": 2, "2000": 3}, {"100": 3}, counter)
    assert "You signed it: another counter signs second." in text(done)
    # The same counter signing twice is refused in words.
    twice = first.post(reverse("count-drop-sign", args=[drop.pk]), follow=True)
    assert (
        "you already signed this drop count; the next signature is another person's"
        in followed_messages(twice)
    )

    second = as_user(type(client)(), counter2)
    signed = second.post(reverse("count-drop-sign", args=[drop.pk]), follow=True)
    assert (
        "Signed: HCF-1's drop box count of $73.00 is signed by two counters."
        in followed_messages(signed)
    )
    assert "counted and signed: $73.00" in text(signed)
    # A correction without its reason is refused at the field, and nothing is entered.
    correct = reverse("count-drop-correct", args=[drop.pk])
    fixed = {**typed, f"chips-{open_hcf.pk}-100": "4"}
    refused = second.post(correct, fixed)
    assert refused.status_code == 400
    assert f'id="reason-{open_hcf.pk}-error">say why the count is corrected' in text(refused)
    assert re.search(r'<details class="correct" open>', text(refused))
    assert DropCount.objects.count() == 1
    done = second.post(
        correct, {**fixed, f"reason-{open_hcf.pk}": "a chip stuck in the box"}, follow=True
    )
    assert "HCF-1's count is corrected: $73.00 becomes $74.00" in followed_messages(done)
    correction = DropCount.objects.get(corrects=drop)
    page = text(done)
    original = re.search(
        rf'<li class="entry corrected" id="drop-{drop.pk}".*?</li>', page, re.S
    ).group(0)
    assert "<del>" in original and "$73.00" in original
    beneath = re.search(rf'<li class="entry" id="drop-{correction.pk}".*?</li>', page, re.S).group(
        0
    )
    assert 'Correction by <strong class="initials">counter2</strong>' in beneath
    assert '<q class="reason">a chip stuck in the box</q>' in beneath and "$74.00" in beneath
    assert page.index(f'id="drop-{drop.pk}"') < page.index(f'id="drop-{correction.pk}"')
    assert "waiting for a second counter" in page
    signed = first.post(reverse("count-drop-sign", args=[correction.pk]), follow=True)
    assert "counted and signed: $74.00" in text(signed)


def test_a_bad_count_on_the_sheet_is_said_at_its_row(client, counter, open_hcf):
    client = as_user(client, counter)
    refused = client.post(
        reverse("count-drop", args=[open_hcf.pk]), {f"cash-{open_hcf.pk}-2000": "3x"}
    )
    assert refused.status_code == 400
    assert (
        f'id="id-cash-{open_hcf.pk}-2000-error">the count of $20.00 notes is a whole number'
        in text(refused)
    )
    assert 'value="3x"' in text(refused)
    assert not DropCount.objects.exists()
    odd = client.get(reverse("count-sheet"), {"day": "yesterday"})
    assert "'yesterday' is not a day (YYYY-MM-DD): showing today's." in text(odd)


# ---------------------------------------------------------------- a variance in the queue


def test_a_closers_variance_is_said_in_words_and_reviewed_by_another_floor_manager(
    client, floor, floor2, dealer, open_hcf, client_for
):
    short = {**OPENER, "10000": OPENER["10000"] - 2}
    counted = client_for(dealer).post(
        f"/api/v1/tables/{open_hcf.pk}/custody/closer/",
        {"counts": short, "reason": "recounted twice; surveillance asked"},
        format="json",
    )
    floor_client = as_user(client, floor)
    done = floor_client.post(
        reverse("floor-inventory-sign", args=[counted.json()["id"]]), follow=True
    )
    assert (
        "HCF-1 is closed: its closer of $5,400.00 is $200.00 short of the expected $5,600.00. "
        "The variance waits for review by another floor manager in the approvals queue."
        in followed_messages(done)
    )
    review = Approval.objects.get(kind="variance")
    queue = floor_client.get(reverse("floor-approvals"))
    mine = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row(queue, review)))
    assert (
        "Table HCF-1's closer is $200.00 short of the expected $5,600.00 (report above $25.00; "
        "the regulator is notified above $100.00)." in mine
    )
    assert "the regulator is notified of it" in mine
    assert "Reason given at the count: recounted twice; surveillance asked" in mine
    assert "signed by dealer and floor" in mine
    assert f'href="/desk/floor/tables/{open_hcf.pk}/#custody"' in row(queue, review)
    assert "You signed this closer: another floor manager reviews its variance." in mine
    assert "Accept the variance" not in mine and "Withdraw" not in mine
    # Posted anyway, it is refused in words and nothing is decided.
    own = floor_client.post(reverse("floor-approval-approve", args=[review.pk]), follow=True)
    assert "You signed this closer" in followed_messages(own)
    review.refresh_from_db()
    assert review.status == "pending"

    other = as_user(type(client)(), floor2)
    theirs = row(other.get(reverse("floor-approvals")), review)
    assert "Accept the variance" in theirs and "Send back for investigation" in theirs
    decided = other.post(
        reverse("floor-approval-approve", args=[review.pk]), {"note": "seen"}, follow=True
    )
    assert "Accepted: the variance of HCF-1's closer is reviewed." in followed_messages(decided)
    review.refresh_from_db()
    assert (review.status, review.decided_by) == ("approved", floor2)


def test_a_closer_the_tray_moved_under_is_counted_again_not_signed(
    client, floor, dealer, open_hcf, client_for
):
    counted = client_for(dealer).post(
        f"/api/v1/tables/{open_hcf.pk}/custody/closer/", {"counts": OPENER}, format="json"
    )
    assert counted.status_code == 201, counted.json()
    floor_client = as_user(client, floor)
    floor_client.post(reverse("floor-custody-credit", args=[open_hcf.pk]), {"counts-10000": "5"})
    credit = Slip.objects.get()
    floor_client.post(reverse("floor-slip-sign", args=[credit.pk]))
    client_for(dealer).post(f"/api/v1/custody/slips/{credit.pk}/sign/")
    page = floor_client.get(reverse("floor-table", args=[open_hcf.pk]))
    words = squeezed(page)
    assert (
        "The tray expected moved since this closer was counted (now $5,100.00, not $5,600.00"
        in words
    )
    assert "Sign the closer" not in words
    assert "Credits sent −$500.00" in words
    # A credit whose chips left the table is no longer voided: the cage receives it.
    assert f'action="{reverse("floor-slip-void", args=[credit.pk])}"' not in text(page)
    refused = floor_client.post(
        reverse("floor-inventory-sign", args=[counted.json()["id"]]), follow=True
    )
    assert "the expected tray moved since the closer was counted" in followed_messages(refused)
