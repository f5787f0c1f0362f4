"""Hand the audit signing key over to a new one: a statement naming both public keys, signed
by both, stored and appended to the anchor file. Then point ``AUDIT_SIGNING_KEY_FILE`` at
the new key (and restart the workers and beat)::

    manage.py audit_keygen /etc/casino/audit-signing-key-2027.pem
    manage.py audit_key_handover /etc/casino/audit-signing-key-2027.pem
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from casino.audit_verify import formats
from payouts import checkpoints, signing


class Command(BaseCommand):
    help = "Sign a hand-over from the configured audit signing key to a new one."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("new_key", help="the new key's PEM file (manage.py audit_keygen)")

    def handle(self, *args: Any, new_key: str, **options: Any) -> None:
        try:
            key = signing.load(new_key)
            row = checkpoints.key_handover(key)
        except (signing.SigningKeyMissing, checkpoints.AnchorRefused) as exc:
            raise CommandError(str(exc)) from None
        statement = row.statement
        self.stdout.write(
            f"key {formats.key_id(statement['old_key'])} handed over to "
            f"{formats.key_id(statement['new_key'])} at {statement['at']}; now set "
            f"AUDIT_SIGNING_KEY_FILE={new_key} and restart the workers and beat"
        )
