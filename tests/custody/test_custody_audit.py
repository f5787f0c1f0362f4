"""The audit check covers chip custody (``custody/audit.py``): a clean day passes, and what an
insider writes past the services is found and named: a gap in the slip numbers, a
signature by a role its step does not allow, one person signing a record twice, a total
changed in SQL, a slip inserted without its audit entry."""

from __future__ import annotations

import os
import re
import time
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import connection

from custody.models import DropCount, Inventory, Signature, Slip, SlipSeries
from payouts import services as payout_services
from payouts.audit import audit_report
from payouts.models import AuditCheck
from tests.payouts.forgery import as_database_superuser

from .conftest import OPENER, opened
from .test_custody_day_api import _close, _count_drop, _hcf, _sign_slip, _slip

pytestmark = pytest.mark.django_db


def _day(client_for: Any, floor: Any, dealer: Any, cage: Any, counter: Any, counter2: Any):
    """A gaming day at one table through the API, with every kind of custody entry: an
    opener counted twice (the first withdrawn), a fill and a credit received, the fill
    printed twice, a fill issued then voided, a closer, a drop count and its correction."""
    table = _hcf(floor, dealer)
    first = client_for(dealer).post(
        f"/api/v1/tables/{table.pk}/custody/opener/", {"counts": {"100": 1}}, format="json"
    )
    assert first.status_code == 201, first.json()
    opener = opened(client_for, table, dealer, floor)  # counted again: the first withdrawn
    fill = _slip(client_for, floor, table, "fill", {"500": 20})
    _sign_slip(client_for, fill, cage, dealer, floor)
    for _ in range(2):
        assert (
            client_for(dealer).post(f"/api/v1/custody/slips/{fill['id']}/print/").status_code == 200
        )
    credit = _slip(client_for, floor, table, "credit", {"2500": 10})
    assert _sign_slip(client_for, credit, dealer, floor, cage)["status"] == "received"
    void = _slip(client_for, floor, table, "fill", {"100": 5})
    _sign_slip(client_for, void, cage)
    voided = client_for(floor).post(
        f"/api/v1/custody/slips/{void['id']}/void/", {"reason": "the wrong table"}, format="json"
    )
    assert voided.json()["status"] == "void"
    tray = {**OPENER, "500": OPENER["500"] + 20, "2500": OPENER["2500"] - 10}
    closer = _close(client_for, table, dealer, floor, tray)
    drop = _count_drop(client_for, table, counter, counter2, {"5000": 1}, {"100": 3})
    corrected = client_for(counter2).post(
        f"/api/v1/tables/{table.pk}/custody/drop/",
        {"cash": {"5000": 2}, "chips": {"100": 3}, "corrects": drop["id"], "reason": "stuck"},
        format="json",
    )
    assert corrected.status_code == 201, corrected.json()
    signed = client_for(counter).post(f"/api/v1/custody/drops/{corrected.json()['id']}/sign/")
    assert signed.json()["signed"] is True
    return SimpleNamespace(
        table=table,
        opener=Inventory.objects.get(pk=opener["id"]),
        closer=Inventory.objects.get(pk=closer["id"]),
        fill=Slip.objects.get(pk=fill["id"]),
        drop=DropCount.objects.get(pk=drop["id"]),
    )


@pytest.fixture
def day(chips, floor, dealer, cage, counter, counter2, client_for):
    return _day(client_for, floor, dealer, cage, counter, counter2)


def _problems(report: dict[str, Any]) -> list[str]:
    return [finding["problem"] for finding in report["findings"]]


def _found(report: dict[str, Any], wanted: str) -> dict[str, Any]:
    """The one finding whose problem is ``wanted`` (a regular expression, matched whole)."""
    hits = [f for f in report["findings"] if re.fullmatch(wanted, f["problem"])]
    assert len(hits) == 1, (wanted, _problems(report))
    return hits[0]


def test_a_clean_day_passes_and_the_report_says_what_custody_it_checked(day):
    report = audit_report()
    assert _problems(report) == []
    assert report["ok"] is True
    assert report["custody"] == {
        "series_checked": 2,  # the fills and the credits of the year
        "slips_checked": 3,
        "inventories_checked": 3,  # the withdrawn opener, the opener, the closer
        "drops_checked": 2,  # the count and its correction
        "signatures_checked": Signature.objects.count(),
    }
    # Openers and the closer 1 + 2 + 2, the slips 3 + 3 + 1, the drop counts 2 + 2.
    assert report["custody"]["signatures_checked"] == 16


def test_the_check_as_the_workers_run_it_counts_custody_in_its_progress(
    day, compliance, django_capture_on_commit_callbacks
):
    check = AuditCheck.objects.create(requested_by=compliance)
    with django_capture_on_commit_callbacks(execute=True):
        payout_services.audit_check_run(check_id=check.pk)
    check.refresh_from_db()
    assert (check.status, check.report["findings"]) == ("passed", [])
    assert check.report["custody"]["slips_checked"] == 3
    assert check.checked == check.total


def test_a_gap_in_the_slip_numbers_is_found_and_named(day, floor, dealer, client_for):
    opened(client_for, day.table, dealer, floor)  # the next day's opener
    made = [_slip(client_for, floor, day.table, "fill", {"500": 1}) for _ in range(3)]
    gone = Slip.objects.get(pk=made[1]["id"])
    with as_database_superuser(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM custody_slip WHERE id = %s", [gone.pk])
    report = audit_report()
    assert report["ok"] is False
    missing = _found(report, f"fill slips of {gone.year}: number {gone.number} is missing")
    assert missing["table"] is None and missing["record"].endswith(f"/fill/{gone.year}")
    removed = _found(
        report,
        rf"audit entry \d+ of table HCF-C's chain records slip {gone.pk} \({gone.label}\) "
        r"\(custody_fill_request\), but it is missing: removed outside the system",
    )
    assert (removed["table"], removed["record"]) == ("HCF-C", f"slip:{gone.pk}")
    assert report["findings_total"] == 2


def test_a_slip_inserted_without_its_audit_entry_is_found(day, floor):
    last = SlipSeries.objects.get(kind="fill")
    slip = Slip.objects.create(  # past the service: the series untouched, no audit entry
        kind="fill",
        property_name=last.property_name,
        year=last.year,
        number=last.last + 2,
        table=day.table,
        gaming_day=day.fill.gaming_day,
        counts={"500": 20},
        total=10_000,
        requested_by=floor,
    )
    report = audit_report()
    series = f"fill slips of {last.year}"
    _found(report, f"{series}: number {last.last + 1} is missing")
    _found(
        report,
        f"{series}: the series' last number is {last.last}, but the highest slip is number "
        f"{slip.number}",
    )
    unrecorded = _found(
        report,
        rf"fill slip {slip.label} is not in the audit log \(table HCF-C's chain\): it was "
        "written outside the system",
    )
    assert (unrecorded["table"], unrecorded["record"]) == ("HCF-C", f"slip:{slip.pk}")
    assert report["findings_total"] == 3


def test_a_signature_by_a_role_its_step_does_not_allow_is_found(day, floor, dealer, client_for):
    opened(client_for, day.table, dealer, floor)
    fill = _slip(client_for, floor, day.table, "fill", {"500": 2})
    slip = Slip.objects.get(pk=fill["id"])
    # The dealer signs for the cage, written straight into the table.
    Signature.objects.create(slip=slip, step="cage", signed_by=dealer, roles=["dealer"])
    report = audit_report()
    wrong = _found(
        report,
        f"fill slip {slip.label}: dealer signed the cage step holding the roles dealer; the "
        "cage step is signed by the cage",
    )
    assert (wrong["table"], wrong["record"]) == ("HCF-C", f"slip:{slip.pk}")
    _found(
        report,
        f"fill slip {slip.label} \\(requested\\) has the signatures cage; a requested fill "
        "has none",
    )
    _found(
        report,
        f"fill slip {slip.label}: dealer's cage signature is not in the audit log: it was "
        "written outside the system",
    )
    assert report["findings_total"] == 3


def _unique_dropped(model: Any, name: str) -> None:
    """The insider's first step: the unique constraint ``name`` dropped, in the test's
    transaction (rolled back with it). SQLite cannot drop a table's constraint: the table is
    made again without it, as its schema editor would."""
    table = model._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # The foreign keys checked now, as a commit would: none left pending on the table.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
            cursor.execute(f'ALTER TABLE "{table}" DROP CONSTRAINT "{name}"')
            return
        cursor.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = %s", [table])
        (create,) = cursor.fetchone()
        clause = re.compile(rf', CONSTRAINT "{name}" UNIQUE \([^)]*\)')
        assert clause.search(create), create
        cursor.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = %s "
            "AND sql IS NOT NULL",
            [table],
        )
        indexes = [sql for (sql,) in cursor.fetchall()]
        cursor.execute(clause.sub("", create).replace(f'"{table}"', f'"{table}_new"', 1))
        cursor.execute(f'INSERT INTO "{table}_new" SELECT * FROM "{table}"')
        cursor.execute(f'DROP TABLE "{table}"')
        cursor.execute(f'ALTER TABLE "{table}_new" RENAME TO "{table}"')
        for index in indexes:
            cursor.execute(index)


def test_one_person_signing_a_record_twice_past_the_service_is_found(day, counter, client_for):
    counted = client_for(counter).post(
        f"/api/v1/tables/{day.table.pk}/custody/drop/",
        {"cash": {"5000": 3}, "chips": {}, "gaming_day": "2020-01-02"},
        format="json",
    )
    assert counted.status_code == 201, counted.json()
    drop = DropCount.objects.get(pk=counted.json()["id"])
    _unique_dropped(Signature, "one_signature_per_drop_person")
    Signature.objects.create(drop=drop, step="count", signed_by=counter, roles=["count_team"])
    report = audit_report()
    what = f"drop count {drop.pk} of 2020-01-02"
    twice = _found(
        report,
        f"{what}: counter signed it 2 times \\(count, count\\): each signature is another person's",
    )
    assert (twice["table"], twice["record"]) == ("HCF-C", f"drop:{drop.pk}")
    # The second signature was written past the service: it has no audit entry.
    _found(report, f"{what}: counter's count signature is not in the audit log: .*")
    assert report["findings_total"] == 2


def test_a_total_changed_in_sql_is_found(day):
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE custody_inventory SET total = total + 100 WHERE id = %s", [day.opener.pk]
        )
    with as_database_superuser(), connection.cursor() as cursor:  # drop counts are append-only
        cursor.execute(
            "UPDATE custody_dropcount SET cash_total = 0, total = chips_total WHERE id = %s",
            [day.drop.pk],
        )
    report = audit_report()
    opener, drop = f"opener {day.opener.pk}", f"drop count {day.drop.pk} of {day.drop.gaming_day}"
    found = _found(report, f"{opener}: its total is 5601.00, but its chip counts add up to 5600.00")
    assert (found["table"], found["record"]) == ("HCF-C", f"inventory:{day.opener.pk}")
    _found(
        report,
        rf"{opener}: its total differs from what audit entry \d+ of table HCF-C's chain "
        "recorded: total 5601.00, recorded 5600.00",
    )
    _found(report, f"{drop}: its cash total is 0.00, but its cash note counts add up to 50.00")
    _found(report, f"{drop}: its total is 3.00, but its cash and chips add up to 53.00")
    _found(
        report,
        rf"{drop}: its total differs from what audit entry \d+ of table HCF-C's chain "
        "recorded: total 3.00, recorded 53.00",
    )
    assert report["findings_total"] == 5, _problems(report)


# ---------------------------------------------------------------- the way production runs it

REDIS_URL = os.environ.get("REDIS_URL", "")


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not REDIS_URL, reason="needs REDIS_URL: a real broker and worker")
def test_the_worker_finds_a_closer_variance_changed_in_sql(
    chips, floor, dealer, cage, counter, counter2, client_for, compliance, redis_worker
):
    day = _day(client_for, floor, dealer, cage, counter, counter2)
    Inventory.objects.filter(pk=day.closer.pk).update(variance=-500)
    check = payout_services.audit_check_request(user=compliance)  # queued once it commits
    deadline = time.monotonic() + 300  # a guard against hanging, not a figure
    while check.status == "pending" and time.monotonic() < deadline:
        time.sleep(0.2)
        check.refresh_from_db()
    assert check.status == "failed", check.report
    what = f"closer {day.closer.pk}"
    problems = _problems(check.report)
    assert problems == [
        f"{what}: its variance is -5.00, but its total less the expected tray is 0.00",
        f"{what}: its variance differs from what audit entry "
        f"{_entry_seq(day.closer)} of table HCF-C's chain recorded",
    ], problems
    assert check.report["custody"]["inventories_checked"] == 3


def _entry_seq(closer: Inventory) -> int:
    from payouts.models import AuditEntry

    return AuditEntry.objects.get(action="custody_closer", subject=f"inventory:{closer.pk}").seq


# ---------------------------------------------------------------- on the compliance desk


def test_the_desk_shows_what_custody_the_check_covered_and_names_a_custody_finding(
    day, client, compliance, django_capture_on_commit_callbacks
):
    from django.urls import reverse

    from tests.desk.helpers import text

    client.force_login(compliance)
    with django_capture_on_commit_callbacks(execute=True):
        started = client.post(reverse("compliance-audit-check-start"))
    page = text(client.get(started["Location"]))
    assert (
        "chip custody whole (3 tray counts, 3 slips numbered without gaps, 2 drop counts, "
        "16 signatures by allowed roles and different people)" in page
    )
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE custody_inventory SET total = total + 100 WHERE id = %s", [day.opener.pk]
        )
    with django_capture_on_commit_callbacks(execute=True):
        started = client.post(reverse("compliance-audit-check-start"))
    page = text(client.get(started["Location"]))
    assert "findings about hands and chip custody" in page
    row = re.search(r'<tr data-hand="None">.*?</tr>', page, re.S)
    assert row is not None
    assert f"HCF-C · inventory:{day.opener.pk}" in row.group(0)
    assert "hand None" not in page
