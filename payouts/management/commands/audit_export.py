"""Write the audit bundle: every key hand-over, checkpoint, audit entry and settlement of the
tree, for a regulator to verify offline with the public key alone::

    manage.py audit_export casino-audit.jsonl
    python -m casino.audit_verify casino-audit.jsonl --public-key casino-audit.pub

A checkpoint is signed first (where the signing key is here), so the bundle covers everything
stored until now."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from payouts.checkpoints import AnchorRefused, checkpoint_write
from payouts.export import bundle_write
from payouts.signing import SigningKeyMissing


class Command(BaseCommand):
    help = "Write the audit log as a bundle the standalone verifier checks (JSON Lines)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("path", help="the bundle's file ('-': standard output)")
        parser.add_argument(
            "--no-checkpoint",
            action="store_true",
            help="do not sign a checkpoint first (the bundle ends at the last one)",
        )

    def handle(self, *args: Any, path: str, no_checkpoint: bool, **options: Any) -> None:
        if not no_checkpoint:
            try:
                checkpoint_write()
            except (AnchorRefused, SigningKeyMissing) as exc:
                self.stderr.write(f"no checkpoint signed first: {exc}")
        if path == "-":
            counts = bundle_write(sys.stdout)
            return
        target = Path(path)
        if target.exists():
            raise CommandError(f"{target} exists: give the bundle a new file")
        with target.open("w", encoding="utf-8") as out:
            counts = bundle_write(out)
        self.stdout.write(
            f"wrote {target}: {counts['checkpoints']} checkpoints, {counts['entries']} audit "
            f"entries, {counts['settlements']} settlements, {counts['key_handovers']} key "
            "hand-overs"
        )
