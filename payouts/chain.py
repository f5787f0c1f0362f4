"""The audit chain: sealing, appending, verifying and anchoring entries.

Every entry is sealed with HMAC-SHA256 under ``AUDIT_KEY`` (from the environment, never in
the database) over its content, its sequence number and the previous entry's seal. Whoever
can write the database but does not hold the key cannot edit, insert or re-seal entries
without the check noticing.

What the database alone cannot show is that entries were removed from the end (a truncated
or rolled-back chain re-sealed up to an earlier point is still a valid chain). So the chain
head is *anchored* outside the database: a periodic Celery beat task (and every passed audit
check) appends ``{"seq", "hash", "at", "mac"}`` as one JSON line to ``AUDIT_ANCHOR_FILE``
(put it on append-only storage, e.g. ``chattr +a`` or a mount of another host) and logs it
to the ``casino.audit.anchor`` logger (route it to syslog or a log collector). The check
requires every anchored entry to still be in the chain with the same seal.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from .models import AuditChainHead, AuditEntry

GENESIS_HASH = "0" * 64
anchor_log = logging.getLogger("casino.audit.anchor")

# The fields an entry's seal covers.
SEALED_FIELDS = (
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


def canonical(data: Any) -> str:
    """The one JSON text of ``data``: sorted keys, no spaces (what every hash covers)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)


def stored_form(data: Any) -> str:
    """The canonical JSON of ``data`` as the database gives it back (object keys become
    strings and sort as strings), so a hash taken before storing matches one taken after."""
    return canonical(json.loads(canonical(data)))


def digest(data: Any) -> str:
    """sha256 of ``data``'s stored form (history and result fingerprints)."""
    return hashlib.sha256(stored_form(data).encode()).hexdigest()


class RunningDigest:
    """A hash of a sequence built one item at a time (a hand's actions, as the chain
    records them one entry each); equal sequences give equal hashes."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256()
        self.count = 0

    def add(self, item: Any) -> None:
        self._hash.update(stored_form(item).encode() + b"\n")
        self.count += 1

    def hexdigest(self) -> str:
        return self._hash.hexdigest()

    @classmethod
    def of(cls, items: Any) -> RunningDigest:
        running = cls()
        for item in items:
            running.add(item)
        return running


def _mac(text: str) -> str:
    return hmac.new(settings.AUDIT_KEY.encode(), text.encode(), hashlib.sha256).hexdigest()


def seal(fields: dict[str, Any]) -> str:
    """HMAC-SHA256 under ``AUDIT_KEY`` over an entry's sealed fields."""
    content = {name: fields[name] for name in SEALED_FIELDS}
    content["at"] = content["at"].isoformat()
    return _mac(canonical(content))


def entry_fields(entry: AuditEntry) -> dict[str, Any]:
    return {name: getattr(entry, name) for name in SEALED_FIELDS}


@transaction.atomic(savepoint=False)
def audit_append(
    *,
    actor: AbstractBaseUser | None,
    action: str,
    subject: str,
    table: Any = None,
    hand: Any = None,
    before: Any = None,
    after: Any = None,
) -> AuditEntry:
    """Append one sealed entry (inside the caller's transaction: it lands with the change
    it records, or not at all)."""
    head, _ = AuditChainHead.objects.select_for_update().get_or_create(pk=1)
    fields = {
        "seq": head.seq + 1,
        "at": timezone.now(),
        "actor_id": actor.pk if actor is not None else None,
        "actor_name": actor.get_username() if actor is not None else "system",
        "action": action,
        "table_id": table.pk if table is not None else None,
        "hand_id": hand.pk if hand is not None else None,
        "subject": subject,
        # Round-trip through JSON so the seal covers exactly what the database stores.
        "before": json.loads(canonical(before)) if before is not None else None,
        "after": json.loads(canonical(after)) if after is not None else None,
        "prev_hash": head.last_hash,
    }
    entry = AuditEntry.objects.create(**fields, hash=seal(fields))
    head.seq, head.last_hash = entry.seq, entry.hash
    head.save(update_fields=["seq", "last_hash"])
    return entry


# ---------------------------------------------------------------- verifying


@dataclass
class ChainReport:
    ok: bool = True
    entries_checked: int = 0
    broken_at: int | None = None  # the seq of the first bad entry
    problem: str | None = None
    last_seq: int = 0
    last_hash: str = GENESIS_HASH

    def fail(self, problem: str, seq: int | None = None) -> None:
        if self.ok:
            self.ok, self.problem, self.broken_at = False, problem, seq

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "entries_checked": self.entries_checked,
            "broken_at": self.broken_at,
            "problem": self.problem,
            "last_seq": self.last_seq,
        }


def _entries() -> Iterator[AuditEntry]:
    return AuditEntry.objects.order_by("seq").iterator(chunk_size=2000)


def chain_verify(visit: Callable[[AuditEntry], None] | None = None) -> ChainReport:
    """Walk the chain in order: sequence without gaps, each seal and link; the stored head
    agrees. ``visit`` sees every entry that verified (the settlement check collects what
    the chain says about each hand). Stops at the first broken entry."""
    report = ChainReport()
    for entry in _entries():
        expected_seq = report.last_seq + 1
        where = f"audit entry {entry.seq} ({entry.action}, {entry.subject})"
        if entry.seq != expected_seq:
            report.fail(
                f"audit entries {expected_seq}-{entry.seq - 1} are missing before {where}",
                expected_seq,
            )
            break
        if entry.prev_hash != report.last_hash:
            report.fail(f"{where} does not link to the entry before it", entry.seq)
            break
        if not hmac.compare_digest(entry.hash, seal(entry_fields(entry))):
            report.fail(f"{where} does not match its seal: it was altered", entry.seq)
            break
        if visit is not None:
            visit(entry)
        report.entries_checked += 1
        report.last_seq, report.last_hash = entry.seq, entry.hash
    if report.ok:
        head = AuditChainHead.objects.filter(pk=1).first()
        if head is not None and (head.seq, head.last_hash) != (report.last_seq, report.last_hash):
            report.fail(
                f"the chain ends at entry {report.last_seq} but its head says {head.seq}: "
                "the newest audit entries are missing"
            )
    return report


# ---------------------------------------------------------------- anchors


def _anchor_path() -> Path | None:
    path = settings.AUDIT_ANCHOR_FILE
    return Path(path) if path else None


def _anchor_mac(seq: int, hash_: str, at: str) -> str:
    return _mac(canonical({"seq": seq, "hash": hash_, "at": at}))


def anchor_write() -> dict[str, Any] | None:
    """Anchor the newest entry outside the database: one sealed JSON line appended to
    ``AUDIT_ANCHOR_FILE`` and one log record. Only an entry whose seal verifies is anchored.
    Returns the anchor, or None while the chain is empty."""
    entry = AuditEntry.objects.order_by("-seq").first()
    if entry is None:
        return None
    if not hmac.compare_digest(entry.hash, seal(entry_fields(entry))):
        raise RuntimeError(f"audit entry {entry.seq} does not match its seal; not anchoring it")
    at = timezone.now().isoformat()
    anchor = {"seq": entry.seq, "hash": entry.hash, "at": at}
    anchor["mac"] = _anchor_mac(entry.seq, entry.hash, at)
    path = _anchor_path()
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as file:
            file.write(canonical(anchor) + "\n")
    anchor_log.info("audit chain anchor %s", canonical(anchor))
    return anchor


@dataclass(frozen=True)
class Anchors:
    found: list[dict[str, Any]]
    problems: list[str]
    configured: bool


def anchors_read() -> Anchors:
    """Every anchor in ``AUDIT_ANCHOR_FILE``; a line that is not a sealed anchor is a
    problem (it was edited or forged)."""
    path = _anchor_path()
    if path is None:
        return Anchors([], [], configured=False)
    if not path.exists():
        return Anchors([], [], configured=True)
    found: list[dict[str, Any]] = []
    problems: list[str] = []
    with path.open(encoding="utf-8") as file:
        for number, line in enumerate(file, start=1):
            if not line.strip():
                continue
            try:
                anchor = json.loads(line)
                good = hmac.compare_digest(
                    str(anchor["mac"]),
                    _anchor_mac(int(anchor["seq"]), str(anchor["hash"]), str(anchor["at"])),
                )
            except (ValueError, KeyError, TypeError):
                good = False
            if good:
                found.append(anchor)
            else:
                problems.append(f"anchor file line {number} is not a sealed anchor")
    return Anchors(found, problems, configured=True)


def anchors_compare(anchors: Anchors, seals: dict[int, str], report: ChainReport) -> dict[str, Any]:
    """Compare the chain with its anchors: every anchored entry must still be there with the
    same seal. ``seals`` maps each anchored seq to the seal the chain has for it now."""
    problems = list(anchors.problems)
    latest = max(anchors.found, key=lambda a: a["seq"], default=None)
    for anchor in anchors.found:
        seq = anchor["seq"]
        if seq > report.last_seq:
            if report.ok:
                problems.append(
                    f"the chain ends at entry {report.last_seq}, but entry {seq} was anchored "
                    f"at {anchor['at']}: entries were removed (truncated or rolled back)"
                )
        elif seq in seals and seals[seq] != anchor["hash"]:
            problems.append(
                f"audit entry {seq} differs from the one anchored at {anchor['at']}: "
                "the chain was rewritten"
            )
    return {
        "ok": not problems,
        "configured": anchors.configured,
        "anchors": len(anchors.found),
        "latest": latest,
        "problems": problems,
    }
