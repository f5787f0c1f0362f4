"""``manage.py chip_set``: the property's chip set shown, made and extended, audited."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from custody.models import Denomination
from payouts.models import AuditEntry

pytestmark = pytest.mark.django_db


def _run(*args: str) -> str:
    out = io.StringIO()
    call_command("chip_set", *args, stdout=out)
    return out.getvalue()


def test_a_property_without_chips_says_so_and_gets_the_standard_set():
    assert "No chip set: tables open and close without counts." in _run("--show")
    shown = _run("--standard")
    assert "Chip set of Main floor (USD):" in shown
    assert "chip      25.00  green #1e8449" in shown
    assert "note     100.00" in shown
    assert "reported above 25.00 and notified above 100.00" in shown


def test_denominations_are_added_and_the_lines_set_audited():
    _run("--standard")
    shown = _run("--chip", "250000:pink:#ff69b4", "--note", "200", "--report-above", "5000")
    assert "chip    2500.00  pink #ff69b4" in shown
    assert "reported above 50.00" in shown
    assert Denomination.objects.filter(form="cash", value=200).exists()
    entry = AuditEntry.objects.filter(action="chip_set").latest("pk")
    assert entry.before["report_above"] == 2500 and entry.after["report_above"] == 5000
    assert entry.after["chips"]["250000"] == "pink"


def test_a_notify_line_below_the_report_line_is_refused_and_nothing_changes():
    _run("--standard")
    with pytest.raises(CommandError, match="the notify line is below the report line"):
        _run("--notify-above", "100")
    assert "notified above 100.00" in _run("--show")
    with pytest.raises(CommandError, match="VALUE"):
        _run("--chip", "red")
