"""Anchor the audit chain's head outside the database now (what Celery beat does every
``AUDIT_ANCHOR_INTERVAL`` seconds), e.g. from cron where beat does not run."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from payouts.chain import anchor_write


class Command(BaseCommand):
    help = "Append the audit chain's head to AUDIT_ANCHOR_FILE and the anchor log."

    def handle(self, *args: Any, **options: Any) -> None:
        anchor = anchor_write()
        if anchor is None:
            self.stdout.write("the audit chain is empty: nothing to anchor")
        else:
            self.stdout.write(f"anchored entry {anchor['seq']} at {anchor['at']}")
