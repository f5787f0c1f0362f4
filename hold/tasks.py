"""Celery tasks: thin, each calls one service."""

from __future__ import annotations

import datetime as dt
from typing import Any

from celery import shared_task

from casino.rules.theory import Spec

from . import services


@shared_task(name="hold.compute_theory", time_limit=1800, soft_time_limit=1700)
def compute_theory_task(spec: dict[str, Any]) -> int:
    """Work out one theoretical figure in the background (a simulation takes seconds to
    minutes) and store it; returns the row's id."""
    return int(services.compute_theory(Spec.from_dict(spec)).pk)


@shared_task(name="hold.flag_tables", time_limit=3600, soft_time_limit=3500)
def flag_tables_task(day: str | None = None) -> int:
    """Celery beat, nightly: flag the tables whose hold on the previous gaming day (or
    ``day``, ``YYYY-MM-DD``) lies outside its theoretical interval; returns how many."""
    chosen = dt.date.fromisoformat(day) if day else None
    return len(services.flag_tables(chosen))
