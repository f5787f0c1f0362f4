"""Make a new Ed25519 key for signing audit checkpoints (a PEM file readable by its owner
only) and print its public key, the line to publish::

    manage.py audit_keygen /etc/casino/audit-signing-key.pem
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from casino.audit_verify import formats
from payouts import signing


class Command(BaseCommand):
    help = "Make an Ed25519 audit signing key and print its public key."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("path", help="where to write the private key (must not exist)")

    def handle(self, *args: Any, path: str, **options: Any) -> None:
        try:
            key = signing.generate(path)
        except FileExistsError:
            raise CommandError(f"{path} exists: a key is never overwritten") from None
        public = signing.public_key(key)
        self.stdout.write(f"# audit signing key {formats.key_id(public)}, private key in {path}")
        self.stdout.write(public)
