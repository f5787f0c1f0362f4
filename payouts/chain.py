"""The audit chains: sealing, appending and verifying entries.

Entries chain **per table**: every entry about a table (its hands, its seats, its limits, its
requests) links to that table's previous entry, and entries about no table (users, the house's
sign-off limits, audit checks) form the house chain. Tables never wait for each other: an
append locks only its own chain's head, and a table's head lives in its own row
(``Table.audit_seq`` / ``audit_hash``), which the table's writes lock anyway. The house chain's
head is the single :class:`AuditChainHead` row.

Every entry is sealed with HMAC-SHA256 under ``AUDIT_KEY`` (from the environment, never in
the database) over its content, its table, its number in its chain and the previous entry's
seal. Whoever can write the database but does not hold the key cannot edit, insert, move or
re-seal entries without the check noticing.

What the database alone cannot show is that entries were removed from the end of a chain (a
truncated or rolled-back chain re-sealed up to an earlier point is still a valid chain), and
the seals prove nothing to someone without the key. So every chain's head is stated in
**signed checkpoints** kept outside the database too (``payouts/checkpoints.py``), with a
keyless digest of each chain that anyone can recompute (``casino.audit_verify.formats``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max, OuterRef, Subquery
from django.utils import timezone

from tables.models import Table

from .models import AuditChainHead, AuditEntry
from .reads import chain_entries
from .rows import Rows, save_fields

GENESIS_HASH = "0" * 64

SEALED_FIELDS = AuditEntry.SEALED_FIELDS  # what an entry's seal covers


def canonical(data: Any) -> str:
    """The one JSON text of ``data``: sorted keys, no spaces (what every hash covers)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)


def stored_form(data: Any) -> str:
    """The canonical JSON of ``data`` as the database gives it back (object keys become
    strings and sort as strings), so a hash taken before storing matches one taken after."""
    return canonical(json.loads(canonical(data)))


def digest(data: Any) -> str:
    """sha256 of ``data``'s stored form (history and result fingerprints)."""
    return hashlib.sha256(stored_text(data).encode()).hexdigest()


def _mac(text: str) -> str:
    return hmac.new(settings.AUDIT_KEY.encode(), text.encode(), hashlib.sha256).hexdigest()


def _sealed_content(fields: dict[str, Any]) -> dict[str, Any]:
    content = {name: fields[name] for name in SEALED_FIELDS}
    content["at"] = content["at"].isoformat()
    return content


def seal(fields: dict[str, Any]) -> str:
    """HMAC-SHA256 under ``AUDIT_KEY`` over an entry's sealed fields."""
    return _mac(canonical(_sealed_content(fields)))


def _plain(data: Any) -> bool:
    """Whether ``data`` holds only what orjson and :func:`canonical` write alike: objects
    with text keys, arrays (lists, tuples), text, whole numbers, true/false and null (no
    floats, no other types that ``default=str`` or orjson would each write their own way)."""
    stack = [data]
    pop, push = stack.pop, stack.extend
    while stack:
        item = pop()
        kind = type(item)
        if kind is str or kind is int or kind is bool or item is None:
            continue
        if kind is dict:
            for key in item:
                if type(key) is not str and not isinstance(key, str):
                    return False
            push(item.values())
        elif kind is list or kind is tuple:
            push(item)
        elif not isinstance(item, str):  # a text's subclass (a choice) is written as text
            return False
    return True


def _ascii_text(data: Any) -> bytes | None:
    """orjson's sorted compact JSON of plain ``data`` when it is byte for byte
    :func:`canonical`'s (ASCII without DEL, which ``ensure_ascii`` escapes), else None."""
    if not _plain(data):
        return None
    try:
        text = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # a whole number beyond 64 bits
        return None
    if not text.isascii() or b"\x7f" in text:
        return None
    return text


def stored_text(data: Any) -> str:
    """:func:`stored_form` of ``data`` (its canonical JSON as the database gives it back),
    by one orjson call where that writes the same bytes: what an audit entry's ``before`` or
    ``after`` is stored as and sealed with."""
    text = _ascii_text(data)
    return text.decode() if text is not None else stored_form(data)


def fast_text(data: Any) -> bytes | None:
    """orjson's sorted compact JSON of ``data``: the same bytes as :func:`canonical` for the
    values the chain holds when their text is ASCII, several times faster. Only ever used to
    *confirm* a seal or a hash: a match proves the texts equal, and a mismatch is decided
    again with :func:`canonical` itself."""
    try:
        return orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return None


def seal_matches(fields: dict[str, Any], sealed: str) -> bool:
    """Whether an entry's sealed fields carry the seal ``sealed`` (the check's test)."""
    content = _sealed_content(fields)
    fast = fast_text(content)
    if fast is not None:
        mac = hmac.digest(settings.AUDIT_KEY.encode(), fast, "sha256").hex()  # one-shot, in C
        if hmac.compare_digest(sealed, mac):
            return True
    return hmac.compare_digest(sealed, _mac(canonical(content)))


def digest_matches(data: Any, expected: Any, text: bytes | None = None) -> bool:
    """Whether ``digest(data)`` is ``expected``, for data read back from the database (its
    stored form already); ``text`` is ``fast_text(data)`` when the caller has it."""
    if not isinstance(expected, str):
        return False
    fast = text if text is not None else fast_text(data)
    if fast is not None and hashlib.sha256(fast).hexdigest() == expected:
        return True
    return digest(data) == expected


def entry_fields(entry: AuditEntry) -> dict[str, Any]:
    return {name: getattr(entry, name) for name in SEALED_FIELDS}


# ---------------------------------------------------------------- appending

HEAD_FIELDS = ("audit_seq", "audit_hash")  # a table's chain head, in its own row


@dataclass
class _Pending:
    actor: Any
    action: str
    subject: str
    table: Any
    hand: Any
    before: Any
    after: Any


class AuditTrail:
    """The audit entries of one piece of work, appended together at its end: one insert for
    all of them, and each chain's head moved once.

    ``write(table)`` takes the chain head of ``table`` from the instance: the caller holds the
    table's row lock (``select_for_update``) and the instance is current. The table's row is
    then written once, with its new head and the ``fields`` the caller changed (its game
    state, say). Any other chain's head is locked and moved here. Two writers can never fork
    a chain: ``(table, seq)`` is unique, so a stale head fails the transaction."""

    def __init__(self) -> None:
        self._pending: list[_Pending] = []

    def add(
        self,
        *,
        actor: AbstractBaseUser | None,
        action: str,
        subject: str,
        table: Any = None,
        hand: Any = None,
        before: Any = None,
        after: Any = None,
    ) -> None:
        self._pending.append(_Pending(actor, action, subject, table, hand, before, after))

    def write(self, table: Any = None, fields: tuple[str, ...] = ()) -> list[AuditEntry]:
        """Append every entry added (in the caller's transaction) and return them in order.
        ``table`` is locked by the caller; its row is saved with its head and ``fields``.

        The entries go in one statement (``payouts.rows``), each sealed over one canonical
        text of its content whose ``before`` and ``after`` texts are what is stored."""
        pending, self._pending = self._pending, []
        chains: dict[int | None, list[_Pending]] = {}
        for item in pending:
            chains.setdefault(item.table.pk if item.table is not None else None, []).append(item)
        rows: list[tuple[Any, ...]] = []
        moved: list[tuple[int | None, int, str]] = []
        for key, items in chains.items():
            if table is not None and key == table.pk:
                seq, last = table.audit_seq, table.audit_hash
            else:
                seq, last = _locked_head(key)
            for item in items:
                seq += 1
                row = _entry_row(item, seq, last)
                rows.append(row)
                last = row[-1]
            moved.append((key, seq, last))
            for item in items:  # instances the caller holds stay current
                if item.table is not None:
                    item.table.audit_seq, item.table.audit_hash = seq, last
        ids = _ENTRY_ROWS.insert(list(zip(*rows, strict=True))) if rows else []
        for key, seq, last in moved:
            if table is not None and key == table.pk:
                table.audit_seq, table.audit_hash = seq, last
                save_fields(table, (*HEAD_FIELDS, *fields))
            elif key is None:
                AuditChainHead.objects.filter(pk=1).update(seq=seq, last_hash=last)
            else:
                Table.objects.filter(pk=key).update(audit_seq=seq, audit_hash=last)
        if table is not None and table.pk not in chains and fields:
            save_fields(table, fields)
        return [_entry(pk, row) for pk, row in zip(ids, rows, strict=True)]


#: An entry's columns as :func:`_entry_row` gives them (its JSON as stored text).
ENTRY_COLUMNS = (*SEALED_FIELDS, "hash")
_ENTRY_ROWS = Rows(AuditEntry, [name.removesuffix("_id") for name in ENTRY_COLUMNS])


def _locked_head(key: int | None) -> tuple[int, str]:
    if key is None:
        head, _ = AuditChainHead.objects.select_for_update().get_or_create(pk=1)
        return head.seq, head.last_hash
    return tuple(  # type: ignore[return-value]
        Table.objects.select_for_update().filter(pk=key).values_list(*HEAD_FIELDS).get()
    )


def _entry_row(item: _Pending, seq: int, prev_hash: str) -> tuple[Any, ...]:
    """One entry's columns (``ENTRY_COLUMNS``), ``before`` and ``after`` as their stored
    text, sealed. The seal's text is built once: orjson writes it when it is byte for byte
    :func:`canonical`'s (plain ASCII content), else :func:`seal` does as it always has."""
    actor = item.actor
    at = timezone.now()
    before = stored_text(item.before) if item.before is not None else None
    after = stored_text(item.after) if item.after is not None else None
    fields = {
        "seq": seq,
        "at": at,
        "actor_id": actor.pk if actor is not None else None,
        "actor_name": actor.get_username() if actor is not None else "system",
        "action": item.action,
        "table_id": item.table.pk if item.table is not None else None,
        "hand_id": item.hand.pk if item.hand is not None else None,
        "subject": item.subject,
        "before": before,
        "after": after,
        "prev_hash": prev_hash,
    }
    scalars = {name: value for name, value in fields.items() if name not in _JSON_FIELDS}
    scalars["at"] = at.isoformat()
    text = None
    if _plain(scalars):
        for name in _JSON_FIELDS:  # the stored texts as they are (canonical's, ASCII)
            value = fields[name]
            scalars[name] = orjson.Fragment(value) if value is not None else None
        text = orjson.dumps(scalars, option=orjson.OPT_SORT_KEYS)
        if not text.isascii() or b"\x7f" in text:
            text = None
    if text is not None:
        sealed = hmac.digest(settings.AUDIT_KEY.encode(), text, "sha256").hex()
    else:
        sealed = seal(
            {
                **fields,
                **{
                    name: json.loads(fields[name]) if fields[name] is not None else None
                    for name in _JSON_FIELDS
                },
            }
        )
    return (*(fields[name] for name in SEALED_FIELDS), sealed)


_JSON_FIELDS = ("before", "after")


def _entry(pk: int, row: tuple[Any, ...]) -> AuditEntry:
    """The entry written from ``row`` (its JSON read back from the stored text, whole
    numbers beyond 64 bits kept whole)."""
    values = dict(zip(ENTRY_COLUMNS, row, strict=True))
    for name in _JSON_FIELDS:
        if values[name] is not None:
            values[name] = json.loads(values[name])
    return AuditEntry(pk=pk, **values)


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
    """Append one sealed entry to its chain now (inside the caller's transaction: it lands
    with the change it records, or not at all), locking the chain's head."""
    trail = AuditTrail()
    trail.add(
        actor=actor,
        action=action,
        subject=subject,
        table=table,
        hand=hand,
        before=before,
        after=after,
    )
    [entry] = trail.write()
    return entry


# ---------------------------------------------------------------- verifying


def chain_name(key: int | None, names: dict[int, str] | None = None) -> str:
    """How a report names a chain."""
    if key is None:
        return "the house chain"
    name = (names or {}).get(key)
    return f"table {name}'s chain" if name else f"table {key}'s chain"


@dataclass
class ChainReport:
    """One chain (or a stretch of it) verified: sequence without gaps, seals and links."""

    table_id: int | None = None
    ok: bool = True
    entries_checked: int = 0
    broken_at: int | None = None  # the seq (in its chain) of the first bad entry
    problem: str | None = None
    last_seq: int = 0
    last_hash: str = GENESIS_HASH

    def fail(self, problem: str, seq: int | None = None) -> None:
        if self.ok:
            self.ok, self.problem, self.broken_at = False, problem, seq

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.table_id,
            "ok": self.ok,
            "entries_checked": self.entries_checked,
            "broken_at": self.broken_at,
            "problem": self.problem,
            "last_seq": self.last_seq,
        }


def chain_verify(
    key: int | None,
    *,
    after_seq: int = 0,
    after_hash: str = GENESIS_HASH,
    through_seq: int | None = None,
    visit: Callable[[dict[str, Any]], None] | None = None,
    name: str | None = None,
) -> ChainReport:
    """Walk one chain from the entry after ``after_seq`` (whose seal is ``after_hash``) to
    ``through_seq`` (or its end): sequence without gaps, each seal and link. ``visit`` sees
    every entry that verified. Stops at the first broken entry; entries missing before
    ``through_seq`` are a break too."""
    where_chain = name or chain_name(key)
    report = ChainReport(table_id=key, last_seq=after_seq, last_hash=after_hash)

    def where(entry: dict[str, Any]) -> str:
        return (
            f"audit entry {entry['seq']} of {where_chain} ({entry['action']}, {entry['subject']})"
        )

    for entry in chain_entries(key, after_seq, through_seq):
        expected_seq = report.last_seq + 1
        if entry["seq"] != expected_seq:
            report.fail(
                f"audit entries {expected_seq}-{entry['seq'] - 1} of {where_chain} are missing "
                f"before {where(entry)}",
                expected_seq,
            )
            break
        if entry["prev_hash"] != report.last_hash:
            report.fail(f"{where(entry)} does not link to the entry before it", entry["seq"])
            break
        if not seal_matches(entry, entry["hash"]):
            report.fail(f"{where(entry)} does not match its seal: it was altered", entry["seq"])
            break
        if visit is not None:
            visit(entry)
        report.entries_checked += 1
        report.last_seq, report.last_hash = entry["seq"], entry["hash"]
    if report.ok and through_seq is not None and report.last_seq < through_seq:
        report.fail(
            f"audit entries {report.last_seq + 1}-{through_seq} of {where_chain} are missing",
            report.last_seq + 1,
        )
    return report


def chain_heads() -> dict[int | None, tuple[int, str]]:
    """Every chain's head as its rows say (``None``: the house chain): ``(seq, seal)``."""
    heads: dict[int | None, tuple[int, str]] = {
        pk: (seq, last) for pk, seq, last in Table.objects.values_list("pk", *HEAD_FIELDS)
    }
    house = AuditChainHead.objects.filter(pk=1).values_list("seq", "last_hash").first()
    heads[None] = tuple(house) if house else (0, GENESIS_HASH)  # type: ignore[assignment]
    return heads


def chain_tops() -> dict[int | None, tuple[int, str, int]]:
    """Every chain's head as its rows say, with the highest entry number the chain holds
    (read in the same statement, so an append between them cannot show): ``(seq, seal,
    top)``. An entry numbered past its chain's head was written outside the system."""

    def top(**where: Any) -> Subquery:
        return Subquery(AuditEntry.objects.filter(**where).order_by("-seq").values("seq")[:1])

    tops: dict[int | None, tuple[int, str, int]] = {
        pk: (seq, last, highest or 0)
        for pk, seq, last, highest in Table.objects.annotate(
            top=top(table=OuterRef("pk"))
        ).values_list("pk", *HEAD_FIELDS, "top")
    }
    house = (
        AuditChainHead.objects.filter(pk=1)
        .annotate(top=top(table__isnull=True))
        .values_list("seq", "last_hash", "top")
        .first()
    )
    if house is None:
        highest = AuditEntry.objects.filter(table__isnull=True).aggregate(top=Max("seq"))["top"]
        tops[None] = (0, GENESIS_HASH, highest or 0)
    else:
        tops[None] = (house[0], house[1], house[2] or 0)
    return tops
