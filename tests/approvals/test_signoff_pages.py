"""The sign-off on the desks, through Django's test client: the tiers page (amounts in major
units, each problem next to its control), a payout's sign form in the approvals queue (the
records it needs, who has signed, why one's signature cannot count), and the compliance
desk's records, on the page and in CSV, the patrons masked."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from approvals.models import Approval
from payouts.models import AuditEntry, Settlement, SignoffPolicy
from payouts.signoff import policies_by_table
from tests.approvals.signoff_fixtures import IDENTITY, SEVEN_SF, big_table, bonus_record, held
from tests.desk.helpers import text

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def words(page: str) -> str:
    """A page's text as a person reads it: no tags, one space between words."""
    return " ".join(re.sub(r"<[^>]+>", " ", page).split()).replace(" ,", ",").replace(" .", ".")


def as_user(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def field_error(page: str, control: str) -> str:
    found = re.search(rf'id="{re.escape(control)}-error">([^<]*)<', page)
    return found.group(1) if found else ""


# ---------------------------------------------------------------- the tiers page


def test_the_tiers_are_set_in_major_units_with_each_problem_by_its_control(floor, dp_table):
    client = as_user(floor)
    url = reverse("floor-signoff-limits")
    page = text(client.get(url, {"for": f"table:{dp_table.pk}"}))
    assert "Set the tiers of table HCF-T" in page
    assert 'value="1199.99"' in page and 'value="5000.00"' in page and 'value="100000.00"' in page
    assert "300 times its wager" in page and "$600.00" in page and "$3,000.00" in page
    bad = client.post(
        url + f"?for=table:{dp_table.pk}",
        {
            "scope": f"table:{dp_table.pk}",
            "tier-1-above": "1,200.505",
            "tier-1-role": "floor_manager",
            "tier-1-count": "1",
            "tier-2-above": "1000",
            "tier-2-role": "",
            "tier-2-count": "9",
            "notice": "a lot",
        },
    )
    assert bad.status_code == 400
    page = text(bad)
    assert "Nothing was set" in page
    assert "at most 2 decimals" in field_error(page, "tier-1-above")
    assert field_error(page, "tier-2-role") == "Tier 2: choose who signs."
    assert field_error(page, "tier-2-count") == "Tier 2: the signatures are 1 to 5 people."
    assert "regulator-notice line" in field_error(page, "notice")
    assert 'value="1,200.505"' in page  # what was typed stays
    assert not SignoffPolicy.objects.exists()
    lower = client.post(
        url,
        {
            "scope": f"table:{dp_table.pk}",
            "tier-1-above": "5000",
            "tier-1-role": "floor_manager",
            "tier-2-above": "1200",
            "tier-2-role": "shift_manager",
        },
    )
    assert "each threshold is above the one before ($5,000.00)" in field_error(
        text(lower), "tier-2-above"
    )
    good = client.post(
        url,
        {
            "scope": f"table:{dp_table.pk}",
            "tier-1-above": "$1,200.50",
            "tier-1-role": "floor_manager",
            "tier-1-count": "2",
            "tier-2-above": "",
            "tier-2-role": "",
            "notice": "",
        },
    )
    assert good.status_code == 302
    policy = policies_by_table([dp_table])[dp_table.pk]
    assert (policy.source, policy.tiers[0].above, policy.tiers[0].count, policy.notice) == (
        "table",
        120_050,
        2,
        None,
    )
    page = text(client.get(url))
    assert re.search(
        r'data-table="HCF-T">.*?above \$1,200\.50: 2 floor managers.*?no notice.*?the table\'s own',
        page,
        re.S,
    )
    dropped = client.post(url, {"scope": f"table:{dp_table.pk}", "action": "clear"})
    assert dropped.status_code == 302
    assert policies_by_table([dp_table])[dp_table.pk].source == "default"
    assert AuditEntry.objects.filter(action="signoff_policy_cleared").count() == 1


def test_the_house_takes_nevadas_preset(floor, dp_table):
    client = as_user(floor)
    url = reverse("floor-signoff-limits")
    assert client.post(url, {"scope": "house", "action": "preset:nevada"}).status_code == 302
    page = text(client.get(url))
    assert "A win above $1,199.99: 2 floor managers" in page and "No regulator notice." in page
    assert re.search(r'data-table="HCF-T">.*?the house\'s', page, re.S)


def test_only_floor_managers_open_the_tiers_page(dealer, compliance):
    for who in (dealer, compliance):
        assert as_user(who).get(reverse("floor-signoff-limits")).status_code == 403


# ---------------------------------------------------------------- a payout in the queue


@pytest.fixture
def big_payout(dealer, floor, client_for) -> Approval:
    table = big_table(floor, dealer)
    return Approval.objects.get(
        pk=held(client_for(dealer), table, bonus_record(SEVEN_SF, 600))["id"]
    )


def row_of(page: str, approval: Approval) -> str:
    found = re.search(rf'<article[^>]*id="approval-{approval.pk}".*?</article>', page, re.S)
    assert found, page
    return found.group(0)


def test_a_payout_shows_its_tiers_its_records_and_what_is_missing(big_payout, floor):
    shown = row_of(text(as_user(floor).get(reverse("floor-approvals"))), big_payout)
    assert "Signatures: 0 of 2" in shown
    assert "A win above $1,199.99: 1 floor manager" in shown
    assert "A win above $5,000.00: 1 shift manager" in shown
    assert "W-2G for the straight flush bonus win of $6,000.00 on $6.00" in shown
    assert "an MTL entry" in shown and "patron not named yet" in shown
    assert "seat 2: a W-2G (the winner's name, ID, address and taxpayer id)" in shown
    assert "Seat 2's patron, for the W-2G" in shown and ">Sign (1 of 2)</button>" in shown
    assert "+$6,019.00" in shown  # the settlement it would store, in money


def test_signing_without_the_w2g_is_refused_next_to_the_fields(big_payout, floor, shift):
    url = reverse("floor-approval-approve", args=[big_payout.pk])
    refused = as_user(floor).post(
        url,
        {"p-2-name": "Ana Kovacs", "p-2-id_kind": "passport", "p-2-id_number": "P-998877"},
        **HTMX,
    )
    shown = text(refused)
    assert "Not signed: see the fields below." in shown
    prefix = f"p{big_payout.pk}-2"
    assert field_error(shown, f"{prefix}-address") == "seat 2: a W-2G or a CTR needs the address"
    assert field_error(shown, f"{prefix}-tin") == "seat 2: a W-2G or a CTR needs the taxpayer id"
    assert 'value="P-998877"' in shown and "patrons." not in shown
    assert not big_payout.signatures.exists()

    signed = as_user(floor).post(
        url, {f"p-2-{key}": value for key, value in IDENTITY.items()}, **HTMX
    )
    shown = text(signed)
    assert "Signed. The settlement of hand 1 is stored once 1 shift manager signs." in shown
    assert "Signatures: 1 of 2" in shown and "signed by floor" in shown
    assert "patron Ana Kovacs, driver's licence •••• 6789, taxpayer id •••• 6789" in words(shown)
    assert "You signed this. It waits for 1 shift manager." in shown
    assert "D123-456-789" not in shown and "123-45-6789" not in shown
    assert ">Sign (" not in shown

    done = text(as_user(shift).post(url, {"note": "ID seen"}, **HTMX))
    assert "Signed: the settlement of hand 1 is stored." in done
    assert "Signed by floor, shift; stored" in done
    assert Settlement.objects.get().settled_by.username == "dealer"


def test_a_floor_manager_sees_why_their_signature_cannot_count(big_payout, floor, floor2):
    client = as_user(floor)
    client.post(
        reverse("floor-approval-approve", args=[big_payout.pk]),
        {f"p-2-{key}": value for key, value in IDENTITY.items()},
    )
    second = as_user(floor2)
    shown = row_of(text(second.get(reverse("floor-approvals"))), big_payout)
    assert "Your signature cannot count here: it waits for 1 shift manager." in shown
    assert ">Sign (" not in shown and ">Send back</button>" in shown
    refused = second.post(reverse("floor-approval-approve", args=[big_payout.pk]))
    assert refused.status_code == 302  # without htmx: the queue again, with the refusal
    page = text(second.get(reverse("floor-approvals")))
    assert "your signature cannot count: what is still needed is 1 shift manager" in page


def test_the_records_are_saved_without_signing(big_payout, floor):
    saved = as_user(floor).post(
        reverse("floor-approval-approve", args=[big_payout.pk]),
        {"action": "save", **{f"p-2-{key}": value for key, value in IDENTITY.items()}},
        **HTMX,
    )
    shown = text(saved)
    assert "Records saved." in shown and "Signatures: 0 of 2" in shown
    assert not big_payout.signatures.exists() and big_payout.patron_payouts.count() == 1


# ---------------------------------------------------------------- the records, for compliance


def test_compliance_lists_the_records_masked_on_the_page_and_in_csv(
    big_payout, floor, shift, compliance, dealer, settings
):
    url = reverse("floor-approval-approve", args=[big_payout.pk])
    as_user(floor).post(url, {f"p-2-{key}": value for key, value in IDENTITY.items()})
    as_user(shift).post(url)
    settlement = Settlement.objects.get()
    reader = as_user(compliance)
    page = text(reader.get(reverse("filings-records"), {"kind": "w2g"}))
    assert "1 record, newest first." in page
    assert f'href="/desk/compliance/settlements/{settlement.pk}/"' in page
    assert "Ana Kovacs" in page and "•••• 6789" in page and "$6,000.00" in page
    assert "D123" not in page and "123-45" not in page
    mtl = text(reader.get(reverse("filings-records"), {"kind": "mtl"}))
    assert "$6,019.00" in mtl
    answer = reader.get(reverse("filings-records-csv", args=["w2g"]))
    assert answer["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(answer.content.decode())))
    assert rows[0][7:9] == ["wager (USD)", "won (USD)"]
    assert rows[1][2:9] == [
        big_payout.table.name, "1", "2", str(settlement.pk), "straight flush bonus", "6.00", "6000.00"
    ]  # fmt: skip
    assert rows[1][9:13] == ["Ana Kovacs", "driver's licence", "•••• 6789", "•••• 6789"]
    assert "D123" not in answer.content.decode() and "123-45" not in answer.content.decode()
    assert as_user(dealer).get(reverse("filings-records")).status_code == 403
    odd = reader.get(reverse("filings-records"), {"kind": "x", "start": "yesterday"})
    assert "There is no such kind of record" in text(odd) and "The first day is a date" in text(odd)


def test_the_settlement_page_says_who_signed_and_that_the_regulator_is_notified(
    dealer, floor, floor2, compliance, client_for
):
    table = big_table(floor, dealer)
    client_for(floor).post(
        "/api/v1/signoff-limits/",
        {"table": table.pk, "tiers": [{"above": 1, "role": "floor_manager"}], "notice": 600_000},
        format="json",
    )
    request = held(client_for(dealer), table, bonus_record(SEVEN_SF, 600))
    assert request["signoff"]["regulator_notice"]
    as_user(floor2).post(
        reverse("floor-approval-approve", args=[request["id"]]),
        {"note": "ID seen", **{f"p-2-{key}": value for key, value in IDENTITY.items()}},
    )
    settlement = Settlement.objects.get()
    page = text(as_user(compliance).get(reverse("compliance-settlement", args=[settlement.pk])))
    said = words(page)
    assert (
        "Regulator notice: a win of $6,019.00, at or above the $6,000.00 notice line; the "
        "regulator is notified of this settlement." in said
    )
    assert "Large-payout signatures: 1 of 1" in said
    assert re.search(
        r"A win above \$0\.01 \(1 floor manager\): floor2 at [-0-9: ]+\( ID seen \)", said
    )
    assert "Seat 2 (Ana Kovacs, driver's licence •••• 6789): W-2G for $6,000.00 on $6.00" in said
    assert "D123" not in page


def test_a_ctr_is_recorded_with_a_tick_once_the_gaming_day_goes_above_its_line(
    dealer, floor, floor2, shift, client_for
):
    first = held(client_for(dealer), big_table(floor, dealer, "HCF-A"), bonus_record(SEVEN_SF, 600))
    url = reverse("floor-approval-approve", args=[first["id"]])
    as_user(floor).post(url, {f"p-2-{key}": value for key, value in IDENTITY.items()})
    as_user(shift).post(url)
    second = held(
        client_for(dealer), big_table(floor, dealer, "HCF-B"), bonus_record(SEVEN_SF, 600)
    )
    url = reverse("floor-approval-approve", args=[second["id"]])
    by_id = {"p-2-id_kind": IDENTITY["id_kind"], "p-2-id_number": IDENTITY["id_number"]}
    client = as_user(floor2)
    shown = text(client.post(url, {"action": "save", **by_id}, **HTMX))
    assert "Gaming day so far: $12,038.00, above the $10,000.00 CTR line: a CTR is needed." in (
        words(shown)
    )
    ctr = f'id="ctr{second["id"]}-2"'
    assert ctr in shown and "Record the CTR: Ana Kovacs's gaming day comes to $12,038.00" in shown
    refused = text(client.post(url, {}, **HTMX))
    assert "not signed: first enter seat 2: a CTR (Ana Kovacs's gaming day comes to $12,038.00" in (
        refused
    )
    signed = text(client.post(url, {"ctr-2": "yes"}, **HTMX))
    assert "Signatures: 1 of 2" in signed and "CTR recorded" in signed and ctr not in signed
