"""The Ed25519 key audit checkpoints are signed with, and the public keys that verify them.

The private key is a PEM file (``AUDIT_SIGNING_KEY_FILE``) kept outside the database, on the
hosts that anchor the chains (Celery beat and workers, or cron); whoever holds only the
public key can verify every checkpoint but sign none (``docs/audit-verify.md``). A key is
replaced by a hand-over statement both keys sign (``manage.py audit_key_handover``), so
checkpoints the old key signed stay verifiable.
"""

from __future__ import annotations

import base64
import contextlib
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.conf import settings

from casino.audit_verify import formats


class SigningKeyMissing(RuntimeError):
    """The signing key cannot be read: nothing can be signed until it can."""


def generate(path: str | Path) -> Ed25519PrivateKey:
    """Write a new private key to ``path`` (PEM, readable by its owner only); refuses to
    replace a key."""
    target = Path(path)
    key = Ed25519PrivateKey.generate()
    data = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    target.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(data)
    return key


def load(path: str | Path) -> Ed25519PrivateKey:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise SigningKeyMissing(
            f"the audit signing key {path} cannot be read ({exc.strerror}): set "
            "AUDIT_SIGNING_KEY_FILE to the key's file (manage.py audit_keygen makes one)"
        ) from None
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        raise SigningKeyMissing(f"{path} is not a PEM private key") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SigningKeyMissing(f"{path} is not an Ed25519 key")
    return key


_cache: dict[tuple[str, float], Ed25519PrivateKey] = {}


def signing_key() -> Ed25519PrivateKey:
    """The configured key (made now on a local run, ``AUDIT_SIGNING_KEY_AUTOCREATE``)."""
    path = settings.AUDIT_SIGNING_KEY_FILE
    if not os.path.exists(path) and settings.AUDIT_SIGNING_KEY_AUTOCREATE:
        with contextlib.suppress(FileExistsError):  # made by another process meanwhile
            generate(path)
    try:
        stamp = os.path.getmtime(path)
    except OSError:
        stamp = 0.0
    key = _cache.get((path, stamp))
    if key is None:
        key = _cache[(path, stamp)] = load(path)
    return key


def public_key(key: Ed25519PrivateKey | None = None) -> str:
    """A key's public half as it is published: ``ed25519:`` and base64."""
    raw = (
        (key or signing_key())
        .public_key()
        .public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    )
    return formats.public_key_text(raw)


def sign(statement: dict[str, Any], key: Ed25519PrivateKey | None = None) -> str:
    signature = (key or signing_key()).sign(formats.signed_bytes(statement))
    return base64.b64encode(signature).decode("ascii")


# ---------------------------------------------------------------- which keys verify what


@dataclass(frozen=True)
class TrustedKey:
    public_key: str
    until: datetime | None  # handed over at this time: trusted for statements before it


class KeyRing:
    """The keys whose signatures the system accepts: the configured key, and every key it
    took over from by a hand-over both keys signed (trusted for statements made before that
    hand-over)."""

    def __init__(self, current: str, handovers: list[dict[str, Any]]) -> None:
        self.keys: dict[str, TrustedKey] = {formats.key_id(current): TrustedKey(current, None)}
        changed = True
        while changed:  # follow hand-overs back from the current key
            changed = False
            for record in handovers:
                statement = record.get("statement") or {}
                old, new = statement.get("old_key"), statement.get("new_key")
                if not isinstance(old, str) or not isinstance(new, str):
                    continue
                try:
                    old_id, new_id = formats.key_id(old), formats.key_id(new)
                except formats.KeyError_:
                    continue
                if old_id in self.keys or new_id not in self.keys:
                    continue
                if formats.signature_valid(
                    new, statement, record.get("new_signature", "")
                ) and formats.signature_valid(old, statement, record.get("old_signature", "")):
                    until = formats.parse_moment(statement["at"])
                    self.keys[old_id] = TrustedKey(old, until)
                    changed = True

    def problem(self, record: dict[str, Any]) -> str | None:
        """Why a signed checkpoint record is not to be trusted, or None."""
        statement = record.get("statement")
        if not isinstance(statement, dict):
            return "it holds no statement"
        trusted = self.keys.get(str(statement.get("key")))
        if trusted is None:
            return f"it is signed by key {statement.get('key')}, which this system does not know"
        if not formats.signature_valid(
            trusted.public_key, statement, str(record.get("signature", ""))
        ):
            return "its signature does not verify: it was altered or forged"
        if trusted.until is not None:
            try:
                at = formats.parse_moment(str(statement.get("at")))
            except ValueError:
                return "its time is not a time"
            if at >= trusted.until:
                return f"key {statement['key']} signed it after that key was handed over"
        return None


def key_ring() -> KeyRing:
    from .models import AuditKeyHandover

    return KeyRing(public_key(), [row.record() for row in AuditKeyHandover.objects.all()])
