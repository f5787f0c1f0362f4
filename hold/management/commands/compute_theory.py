"""Compute the theoretical figures still waiting for their simulation.

With a Celery worker (``REDIS_URL`` set) the worker computes them in the background; the
embedded set-up (no worker) computes them with this command::

    .venv/bin/python manage.py compute_theory
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from hold.services import compute_waiting


class Command(BaseCommand):
    help = "Compute every theoretical figure still waiting for its simulation."

    def handle(self, *args: Any, **options: Any) -> None:
        done = compute_waiting()
        for row in done:
            self.stdout.write(f"{row.game} {row.measure}: {row.status} {row.value}")
        self.stdout.write(self.style.SUCCESS(f"{len(done)} figure(s) computed"))
