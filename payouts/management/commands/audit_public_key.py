"""Print the public key of the configured audit signing key (``AUDIT_SIGNING_KEY_FILE``),
as the file to hand a regulator::

    manage.py audit_public_key > casino-audit.pub
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from casino.audit_verify import formats
from casino.core.identity import database_id
from payouts import signing


class Command(BaseCommand):
    help = "Print the public key audit checkpoints are verified with."

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            public = signing.public_key()
        except signing.SigningKeyMissing as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(
            f"# casino audit checkpoints, database {database_id()}, key {formats.key_id(public)}"
        )
        self.stdout.write(public)
