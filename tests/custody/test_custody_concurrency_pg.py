"""Fill requests racing on real PostgreSQL connections: the slips are numbered 1, 2, 3, ...
with no gap and no number twice, at one table and across tables (where only the series' row
lock orders them), and a request rolled back after taking its number gives it back."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections, transaction

from custody import services as custody
from custody.models import Slip, SlipSeries
from payouts.audit import audit_report
from tables import services

from .conftest import OPENER

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

AT_ONCE = 8


def _race(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads released together, each on its own connection; a call's
    exception is its result."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[index] = call()
        except Exception as exc:  # reported as the call's result
            results[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def _open_table(name: str, floor: Any, dealer: Any) -> Any:
    table = services.table_create(
        user=floor,
        name=name,
        game="high-card-flush",
        seat_count=7,
        dealer=dealer,
        limits={"ante_min": 100, "ante_max": 10_000, "bank_min": 5_000, "bank_max": 1_000_000},
    )
    counted = custody.inventory_count(user=dealer, table_id=table.pk, kind="opener", counts=OPENER)
    custody.inventory_sign(user=floor, inventory_id=counted.pk)
    return table


def _fill(floor: Any, table_id: int) -> Callable[[], int]:
    def call() -> int:
        return custody.slip_request(
            user=floor, table_id=table_id, kind="fill", counts={"500": 1}
        ).number

    return call


class _GivenBack(Exception):
    pass


def _fill_rolled_back(floor: Any, table_id: int) -> Callable[[], int]:
    """A fill whose transaction rolls back after the slip took its number."""

    def call() -> int:
        try:
            with transaction.atomic():
                number = _fill(floor, table_id)()
                raise _GivenBack(number)
        except _GivenBack:
            return 0

    return call


def test_fills_requested_at_once_at_one_table_are_numbered_without_gaps(chips, floor, dealer):
    assert connection.vendor == "postgresql"
    table = _open_table("HCF-1", floor, dealer)
    numbers = _race([_fill(floor, table.pk) for _ in range(AT_ONCE)])
    assert sorted(numbers) == list(range(1, AT_ONCE + 1)), numbers
    assert SlipSeries.objects.get(kind="fill").last == AT_ONCE
    assert sorted(Slip.objects.values_list("number", flat=True)) == list(range(1, AT_ONCE + 1))
    report = audit_report()
    assert report["findings"] == [] and report["custody"]["slips_checked"] == AT_ONCE


def test_fills_racing_at_four_tables_with_some_rolled_back_leave_no_gap(chips, floor, dealer):
    tables = [_open_table(f"HCF-{n}", floor, dealer) for n in range(1, 5)]
    calls = [
        (_fill_rolled_back if index % 3 == 2 else _fill)(floor, tables[index % 4].pk)
        for index in range(AT_ONCE * 2)
    ]
    results = _race(calls)
    kept = sorted(n for n in results if n)
    assert all(isinstance(n, int) for n in results), results
    assert kept == list(range(1, len(kept) + 1)) and len(kept) == AT_ONCE * 2 - 5
    assert SlipSeries.objects.get(kind="fill").last == len(kept)
    assert audit_report()["findings"] == []
