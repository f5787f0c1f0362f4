"""The handle, not the drop, on the hold side: the least handle a day needs to be judged
(``HOLD_FLAG_MIN_HANDLE``, the old ``HOLD_FLAG_MIN_DROP`` still honoured for one release), and
the migration that renames the stored columns keeping their values."""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from hold import services
from hold.models import HoldFlag, Theory
from tests.conftest import open_hcf_table

OLD = ("hold", "0001_initial")


@pytest.fixture(autouse=True)
def _neither_set(settings: Any) -> None:
    for name in ("HOLD_FLAG_MIN_HANDLE", "HOLD_FLAG_MIN_DROP"):
        if hasattr(settings, name):
            delattr(settings, name)
    services._deprecated_min_drop.cache_clear()


def test_the_least_handle_defaults_to_1000_00_and_is_read_from_its_setting(settings):
    assert services.min_handle() == 100_000
    settings.HOLD_FLAG_MIN_HANDLE = 2_500
    assert services.min_handle() == 2_500


def test_the_old_setting_is_honoured_when_the_new_is_not_set_and_says_it_is_deprecated(
    settings, caplog
):
    settings.HOLD_FLAG_MIN_DROP = 4_000
    with caplog.at_level(logging.WARNING, logger="hold.services"):
        assert services.min_handle() == 4_000
        assert services.min_handle() == 4_000
    warned = [r.getMessage() for r in caplog.records if "HOLD_FLAG_MIN_DROP" in r.getMessage()]
    assert len(warned) == 1  # once, not once a day judged
    assert "deprecated" in warned[0] and "HOLD_FLAG_MIN_HANDLE" in warned[0]
    # Both set: the new name wins, and nothing is said of the old one.
    caplog.clear()
    services._deprecated_min_drop.cache_clear()
    settings.HOLD_FLAG_MIN_HANDLE = 9_000
    assert services.min_handle() == 9_000 and "HOLD_FLAG_MIN_DROP" not in caplog.text


def test_the_models_say_handle():
    names = {field.name for field in Theory._meta.get_fields()}
    assert "mean_handle" in names and "mean_drop" not in names
    names = {field.name for field in HoldFlag._meta.get_fields()}
    assert "handle" in names and "drop" not in names


@pytest.mark.django_db(transaction=True)
def test_the_migration_renames_the_columns_and_keeps_their_values(floor, dealer):
    table = open_hcf_table(floor, dealer, "HCF-RENAMED")
    executor = MigrationExecutor(connection)
    latest = [node for node in executor.loader.graph.leaf_nodes() if node[0] == "hold"]
    executor.migrate([OLD])
    try:
        old = executor.loader.project_state([OLD]).apps
        theory = old.get_model("hold", "Theory").objects.create(
            game="high-card-flush",
            measure="house",
            digest="f" * 64,
            method="simulation",
            inputs={},
            status="ready",
            value=0.25,
            mean_drop=1234.5,
        )
        old.get_model("hold", "HoldFlag").objects.create(
            table_id=table.pk,
            day=dt.date(2026, 12, 1),
            theory_id=theory.pk,
            actual=0.05,
            expected=0.25,
            low=0.2,
            high=0.3,
            hands=4,
            drop=24_000,
            win=1_200,
        )
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(latest)
    assert Theory.objects.get(digest="f" * 64).mean_handle == 1234.5
    assert HoldFlag.objects.values_list("handle", "win").get() == (24_000, 1_200)


def test_the_hold_settings_the_readme_lists_are_read_from_the_environment():
    import os
    import subprocess
    import sys
    from pathlib import Path

    names = {
        "HOLD_THEORY_HANDS": "1234",
        "HOLD_THEORY_INLINE_HANDS": "56",
        "HOLD_THEORY_SEED": "7",
        "HOLD_FLAG_MIN_HANDS": "12",
        "HOLD_FLAG_MIN_HANDLE": "3456",
    }
    shown = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings; "
            f"print(*(getattr(settings, n) for n in {list(names)!r}))",
        ],
        cwd=Path(__file__).resolve().parents[2],
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "casino.settings_test", **names},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert shown == list(names.values())
