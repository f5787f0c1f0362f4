"""What the audit log's signed statements, bundles and proofs are made of, byte for byte:
shared by the system that writes them and the standalone verifier that checks them
(``docs/audit-verify.md`` describes every record).

Standard library and ``cryptography`` only: no Django, no database, no secret.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from datetime import datetime
from typing import Any

from . import merkle

CHECKPOINT = "casino-audit-checkpoint/1"
HANDOVER = "casino-audit-key-handover/1"
BUNDLE = "casino-audit-bundle/1"
INCLUSION_PROOF = "casino-audit-inclusion-proof/1"

GENESIS = "0" * 64  # the link before a chain's first entry, and its digest
HOUSE = "house"  # the chain of entries about no table

#: The fields of an audit entry its seal and its digest cover (all but ``hash`` itself).
ENTRY_FIELDS = (
    "seq",
    "at",
    "actor_id",
    "actor_name",
    "action",
    "table_id",
    "hand_id",
    "subject",
    "before",
    "after",
    "prev_hash",
)

#: What a settlement's leaf in the tree states about it.
LEAF_FIELDS = (
    "settlement",
    "kind",
    "corrects",
    "hand",
    "table",
    "hand_number",
    "game",
    "settled_at",
    "settled_by",
    "rake",
    "history_sha256",
    "result_sha256",
)


def canonical(value: Any) -> str:
    """The one JSON text of ``value``: sorted keys, no spaces, ASCII (non-ASCII escaped)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def sha256_hex(text: str | bytes) -> str:
    data = text.encode("ascii") if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()


def json_digest(value: Any) -> str:
    """The SHA-256 of ``value``'s canonical JSON (a settlement's history and result)."""
    return sha256_hex(canonical(value))


# ---------------------------------------------------------------- audit entries


def entry_content(entry: dict[str, Any]) -> dict[str, Any]:
    """An entry's sealed fields, with ``at`` as its ISO 8601 text."""
    content = {name: entry[name] for name in ENTRY_FIELDS}
    if isinstance(content["at"], datetime):
        content["at"] = content["at"].isoformat()
    return content


def entry_digest(previous: str, content_text: str) -> str:
    """The chain's keyless digest after an entry: SHA-256 over the previous digest (hex) and
    the entry's canonical sealed content. Anyone can recompute it; a signed checkpoint states
    it for each chain's head."""
    return sha256_hex(previous + content_text)


def chain_key(table_id: int | None) -> str:
    return HOUSE if table_id is None else str(table_id)


# ---------------------------------------------------------------- settlements


def leaf_data(leaf: dict[str, Any]) -> bytes:
    return canonical({name: leaf[name] for name in LEAF_FIELDS}).encode("ascii")


def settlement_leaf_hash(leaf: dict[str, Any]) -> bytes:
    return merkle.leaf_hash(leaf_data(leaf))


# ---------------------------------------------------------------- corrections


def reversed_result(result: dict[str, Any], settlement_id: int) -> dict[str, Any]:
    """What the reversal of a settlement states: its result with every chip moving back (each
    party's net and rake, each line's stake, amount and capped amount, and the rake negated,
    the explanation saying so). The system stores exactly this when it corrects a settlement,
    and the verifier holds a reversal to it."""

    def party(seat: dict[str, Any]) -> dict[str, Any]:
        lines = []
        for line in seat["lines"]:
            moved = {**line, "stake": -line["stake"], "amount": -line["amount"]}
            if line.get("capped_from") is not None:
                moved["capped_from"] = -line["capped_from"]
            lines.append(moved)
        return {**seat, "net": -seat["net"], "rake": -seat["rake"], "lines": lines}

    reversed_ = {
        **result,
        "seats": [party(seat) for seat in result["seats"]],
        "rake": -result["rake"],
        "explanation": [f"reversal of settlement {settlement_id}: every amount moves back"],
    }
    if isinstance(result.get("house"), dict):
        reversed_["house"] = party(result["house"])
    return reversed_


# ---------------------------------------------------------------- keys and signatures


class KeyError_(ValueError):
    """A public key or signature that is not one."""


def public_key_text(raw: bytes) -> str:
    """How a public key is written: ``ed25519:`` and its 32 bytes in base64."""
    return "ed25519:" + base64.b64encode(raw).decode("ascii")


def public_key_raw(text: str) -> bytes:
    text = text.strip()
    if not text.startswith("ed25519:"):
        raise KeyError_(f"a public key is written ed25519:<base64>, not {text[:20]!r}")
    try:
        raw = base64.b64decode(text[len("ed25519:") :], validate=True)
    except (binascii.Error, ValueError):
        raise KeyError_("the public key's base64 does not decode") from None
    if len(raw) != 32:
        raise KeyError_(f"an Ed25519 public key is 32 bytes, this one is {len(raw)}")
    return raw


def key_id(public_key: str) -> str:
    """A public key's short name: the first 16 hex digits of the SHA-256 of its bytes."""
    return hashlib.sha256(public_key_raw(public_key)).hexdigest()[:16]


def read_public_key_file(text: str) -> str:
    """The public key in a key file's text: its first line that is not blank or a ``#``
    comment."""
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            public_key_raw(line)
            return line.strip()
    raise KeyError_("the file holds no public key (a line ed25519:<base64>)")


def signed_bytes(statement: dict[str, Any]) -> bytes:
    """What a signature covers: the statement's canonical JSON."""
    return canonical(statement).encode("ascii")


def statement_hash(statement: dict[str, Any]) -> str:
    """How the next checkpoint names this one (``previous``)."""
    return sha256_hex(signed_bytes(statement))


def signature_valid(public_key: str, statement: dict[str, Any], signature: str) -> bool:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        key = Ed25519PublicKey.from_public_bytes(public_key_raw(public_key))
        key.verify(base64.b64decode(signature, validate=True), signed_bytes(statement))
    except (InvalidSignature, KeyError_, binascii.Error, ValueError, TypeError):
        return False
    return True


def parse_moment(text: str) -> datetime:
    return datetime.fromisoformat(text)
