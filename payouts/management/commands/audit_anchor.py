"""Sign an audit checkpoint now (what Celery beat does every ``AUDIT_ANCHOR_INTERVAL``
seconds), e.g. from cron where beat does not run. Exits 0 with one line saying what it did,
or 1 with the reason it would not sign."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from payouts.checkpoints import AnchorRefused, anchor_run
from payouts.signing import SigningKeyMissing


class Command(BaseCommand):
    help = (
        "Sign a checkpoint of every audit chain's head and the settlements' Merkle root, "
        "store it and append it to AUDIT_ANCHOR_FILE."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            checkpoint = anchor_run()
        except (AnchorRefused, SigningKeyMissing) as exc:
            raise CommandError(f"not anchored: {exc}") from None
        if checkpoint is None:
            self.stdout.write("nothing moved since the last checkpoint: nothing to anchor")
            return
        statement = checkpoint.statement
        chains = statement["chains"]
        self.stdout.write(
            f"checkpoint {checkpoint.number} at {statement['at']}: {len(chains)} chains, "
            f"{sum(c['size'] for c in chains.values())} entries, "
            f"{statement['settlements']['size']} settlements"
        )
