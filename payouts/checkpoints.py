"""Signed checkpoints: the audit chains' heads and the settlements' Merkle tree, stated under
the Ed25519 signing key, so that anyone holding only the public key can verify the log
(``docs/audit-verify.md`` is the format; ``casino.audit_verify`` the standalone verifier).

**The anchor job** (:func:`anchor_run`: Celery beat every ``AUDIT_ANCHOR_INTERVAL`` seconds,
``manage.py audit_anchor`` from cron) takes every settlement stored since into the tree, walks
every chain from where the last checkpoint left it (each entry's seal and link verified, the
keyless digest extended), and signs a new checkpoint when anything moved. It refuses, in
words, to sign over a chain shorter than the last checkpoint states, an entry whose seal
fails, a last checkpoint whose signature does not verify, or an anchor file that holds later
checkpoints than the database (a database rolled back) or another database's.

**A passed audit check** writes a checkpoint too, stating what it verified (``verified``):
where each chain was verified to, how much of the tree, and per audited table the highest row
id and the number of rows verified. The next incremental check starts there.

Checkpoints are stored in the database (numbered, each naming the one before by its hash),
appended to ``AUDIT_ANCHOR_FILE`` after they commit (a file behind the database is caught up
by the next run) and logged to ``casino.audit.anchor``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from casino.audit_verify import formats, merkle
from casino.core.identity import database_id
from tables.models import Table

from . import anchorfile, signing
from .chain import chain_heads, chain_name, seal_matches
from .models import (
    AuditAnchorRun,
    AuditCheckpoint,
    AuditEntry,
    AuditKeyHandover,
    AuditLeaf,
    AuditTreeNode,
    Settlement,
)
from .reads import chain_entries

anchor_log = logging.getLogger("casino.audit.anchor")

#: A settlement commits moments after its id is taken, so one taken before the newest in the
#: tree may still arrive; the anchor job looks this many ids back for those.
SCAN_MARGIN = 10_000
BATCH = 2_000


class AnchorRefused(RuntimeError):
    """The anchor job will not sign: what it found is named in the message."""


# ---------------------------------------------------------------- the settlements' tree


def leaf_fields(row: dict[str, Any], bound: tuple[str, str] | None = None) -> dict[str, Any]:
    """A settlement's leaf (``formats.LEAF_FIELDS``) from its row's values (:data:`LEAF_ROW`,
    or :data:`SHALLOW_ROW` with ``bound``). ``bound`` is the history's and the result's hash
    as the settlement's sealed entry states them (:func:`bound_hashes`): the same hashes of
    the same stored values, taken when it was settled, and checked against the rows by the
    audit check; without it they are taken from the row."""
    history, result = bound or (
        formats.json_digest(row["history"]),
        formats.json_digest(row["result"]),
    )
    return {
        "settlement": row["id"],
        "kind": row["kind"],
        "corrects": row["corrects_id"],
        "hand": row["hand_id"],
        "table": row["hand__table_id"],
        "hand_number": row["hand__number"],
        "game": row["hand__game"],
        "settled_at": row["settled_at"].isoformat(),
        "settled_by": row["settled_by__username"],
        "rake": row["rake"],
        "history_sha256": history,
        "result_sha256": result,
    }


def bound_hashes(hand_ids: Iterable[int]) -> dict[int, tuple[str, str]]:
    """Each settlement of ``hand_ids``, by id: its history's and result's hash as the entry
    that stored it states (``hand_settle``; ``hand_correct`` for a reversal and a correction)."""
    entries = AuditEntry.objects.filter(
        hand_id__in=set(hand_ids), action__in=("hand_settle", "hand_correct")
    ).values_list("action", "after")
    return stated_hashes(entries)


def stated_hashes(entries: Iterable[tuple[str, Any]]) -> dict[int, tuple[str, str]]:
    """The settlements' history and result hashes that ``(action, after)`` of ``hand_settle``
    and ``hand_correct`` entries state, by settlement id (a later entry's statement wins)."""
    found: dict[int, tuple[str, str]] = {}
    for action, after in entries:
        parts = (
            [after]
            if action == "hand_settle"
            else [(after or {}).get("reversal"), (after or {}).get("correction")]
        )
        for part in parts:
            if not isinstance(part, dict):
                continue
            pk, history, result = (
                part.get("settlement"),
                part.get("history_sha256"),
                part.get("result_sha256"),
            )
            if isinstance(pk, int) and isinstance(history, str) and isinstance(result, str):
                found[pk] = (history, result)
    return found


def leaf_rows(ids: list[int]) -> dict[int, dict[str, Any]]:
    """The settlements ``ids`` with their leaves' fields: the hashes from their entries where
    those state them, else from the rows (read only for those)."""
    rows = {row["id"]: row for row in Settlement.objects.filter(pk__in=ids).values(*SHALLOW_ROW)}
    bound = bound_hashes(row["hand_id"] for row in rows.values())
    rest = [pk for pk in rows if pk not in bound]
    full = (
        {row["id"]: row for row in Settlement.objects.filter(pk__in=rest).values(*LEAF_ROW)}
        if rest
        else {}
    )
    return {pk: leaf_fields(full.get(pk, row), bound.get(pk)) for pk, row in rows.items()}


SHALLOW_ROW = (
    "id",
    "kind",
    "corrects_id",
    "hand_id",
    "hand__table_id",
    "hand__number",
    "hand__game",
    "settled_at",
    "settled_by__username",
    "rake",
)
LEAF_ROW = (*SHALLOW_ROW, "history", "result")


def tree_size() -> int:
    last = AuditLeaf.objects.aggregate(last=Max("position"))["last"]
    return 0 if last is None else last + 1


def tree_nodes(keys: Iterable[merkle.Key]) -> dict[merkle.Key, bytes]:
    """The stored perfect subtrees ``keys`` (level 0: leaves), in one or two queries."""
    keys = set(keys)
    found: dict[merkle.Key, bytes] = {}
    leaves = [index for level, index in keys if level == 0]
    if leaves:
        for position, value in AuditLeaf.objects.filter(position__in=leaves).values_list(
            "position", "hash"
        ):
            found[(0, position)] = bytes.fromhex(value)
    inner = [key for key in keys if key[0] > 0]
    if inner:
        query = Q()
        for level, index in inner:
            query |= Q(level=level, index=index)
        for level, index, value in AuditTreeNode.objects.filter(query).values_list(
            "level", "index", "hash"
        ):
            found[(level, index)] = bytes.fromhex(value)
    return found


def tree_root(size: int) -> bytes:
    nodes = tree_nodes(merkle.decomposition(0, size))
    return merkle.root(merkle.from_mapping(nodes), size)


def _untreed() -> Iterator[dict[str, Any]]:
    """The leaves of the settlements not in the tree yet, oldest first."""
    newest = AuditLeaf.objects.aggregate(newest=Max("settlement_id"))["newest"] or 0
    ids = list(
        Settlement.objects.filter(pk__gt=newest - SCAN_MARGIN, leaf__isnull=True)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    for start in range(0, len(ids), BATCH):
        batch = ids[start : start + BATCH]
        fields = leaf_rows(batch)
        yield from (fields[pk] for pk in batch)


def _tree_extend() -> tuple[int, bytes]:
    """Take every settlement stored since into the tree; its size and root now."""
    size = tree_size()
    frontier = merkle.Frontier.at(
        merkle.from_mapping(tree_nodes(merkle.decomposition(0, size))), size
    )
    leaves: list[AuditLeaf] = []
    nodes: list[AuditTreeNode] = []

    def flush() -> None:
        AuditLeaf.objects.bulk_create(leaves)
        AuditTreeNode.objects.bulk_create(nodes)
        leaves.clear()
        nodes.clear()

    for fields in _untreed():
        value = formats.settlement_leaf_hash(fields)
        for level, index, made in frontier.append(value):
            if level == 0:
                leaves.append(
                    AuditLeaf(position=index, settlement_id=fields["settlement"], hash=made.hex())
                )
            else:
                nodes.append(AuditTreeNode(level=level, index=index, hash=made.hex()))
        if len(leaves) >= BATCH:
            flush()
    flush()
    return frontier.size, frontier.root()


# ---------------------------------------------------------------- the chains


def _chain_states(base: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every chain's head, size and digest now, walked on from what ``base`` (the last
    checkpoint's ``chains``) states: each new entry's link and seal verified."""
    states: dict[str, dict[str, Any]] = {}
    heads = chain_heads()
    names = dict(Table.objects.values_list("pk", "name"))
    gone = set(base) - {formats.chain_key(key) for key in heads}
    if gone:
        raise AnchorRefused(
            f"chains {', '.join(sorted(gone))} are in the last checkpoint but not in the "
            "database: their tables or entries were removed"
        )
    for key, (seq, last) in heads.items():
        name = formats.chain_key(key)
        known = base.get(name) or {"size": 0, "head": formats.GENESIS, "digest": formats.GENESIS}
        if seq < known["size"]:
            raise AnchorRefused(
                f"{chain_name(key, names)} ends at entry {seq}, but the last checkpoint states "
                f"{known['size']} entries: entries were removed (truncated or rolled back)"
            )
        if seq == known["size"]:
            if last != known["head"]:
                raise AnchorRefused(
                    f"the head of {chain_name(key, names)} (entry {seq}) is not the one the last "
                    "checkpoint states: the chain was rewritten"
                )
            if seq:
                states[name] = dict(known)
            continue
        size, head, chain_digest = known["size"], known["head"], known["digest"]
        for entry in chain_entries(key, size, seq):
            where = f"audit entry {entry['seq']} of {chain_name(key, names)}"
            if entry["seq"] != size + 1:
                raise AnchorRefused(
                    f"audit entries {size + 1}-{entry['seq'] - 1} of {chain_name(key, names)} are missing"
                )
            if entry["prev_hash"] != head:
                raise AnchorRefused(f"{where} does not link to the entry before it")
            if not seal_matches(entry, entry["hash"]):
                raise AnchorRefused(f"{where} does not match its seal: it was altered")
            content = formats.canonical(formats.entry_content(entry))
            size, head = entry["seq"], entry["hash"]
            chain_digest = formats.entry_digest(chain_digest, content)
        if size != seq or head != last:
            raise AnchorRefused(
                f"{chain_name(key, names)}'s head says entry {seq}, but its entries end at {size}"
            )
        states[name] = {"size": size, "head": head, "digest": chain_digest}
    return states


# ---------------------------------------------------------------- writing a checkpoint


def _lock() -> AuditAnchorRun:
    """The anchor run's row, locked: checkpoints are written one at a time, in order."""
    AuditAnchorRun.objects.get_or_create(pk=1)
    return AuditAnchorRun.objects.select_for_update().get(pk=1)


def _last_checkpoint(ring: signing.KeyRing, database: str) -> AuditCheckpoint | None:
    last = AuditCheckpoint.objects.order_by("-number").first()
    if last is None:
        return None
    problem = ring.problem(last.record())
    if problem is None and last.statement.get("database") != database:
        problem = f"it is of database {last.statement.get('database')}, not this one ({database})"
    if problem:
        raise AnchorRefused(f"the last checkpoint ({last.number}) does not hold: {problem}")
    return last


def _file_agrees(last: AuditCheckpoint | None, database: str) -> None:
    """The anchor file holds no checkpoint the database lacks, nor another database's."""
    file = anchorfile.path()
    line = anchorfile.last_checkpoint(file) if file is not None else None
    if line is None:
        return
    statement = (line.record or {}).get("statement") or {}
    other = statement.get("database")
    if other != database:
        raise AnchorRefused(
            f"the anchor file {file} holds checkpoints of another database ({other}); this "
            f"database is {database}. Give each database its own AUDIT_ANCHOR_FILE (an old "
            "file carried over from a database that was replaced, say)"
        )
    number = anchorfile.statement_number(line) or 0
    mine = last.number if last is not None else 0
    if number > mine:
        raise AnchorRefused(
            f"the anchor file holds checkpoint {number}, but the database's last is {mine}: "
            "the database was rolled back or restored from a backup since"
        )


def _catch_up_file() -> None:
    """Append to the anchor file every checkpoint the database has and it lacks."""
    file = anchorfile.path()
    if file is None:
        return
    line = anchorfile.last_checkpoint(file)
    after = anchorfile.statement_number(line) if line is not None else 0
    anchorfile.append(
        [row.record() for row in AuditCheckpoint.objects.filter(number__gt=after or 0)]
    )


def checkpoint_write(verified: dict[str, Any] | None = None) -> AuditCheckpoint | None:
    """Sign and store a checkpoint of everything now (with ``verified``, a passed check's
    statement of what it verified). Without ``verified``, nothing is written when nothing
    moved since the last checkpoint. Raises :class:`AnchorRefused` when it will not sign."""
    ring = signing.key_ring()
    key = signing.signing_key()
    with transaction.atomic():
        run = _lock()
        database = database_id()
        last = _last_checkpoint(ring, database)
        _file_agrees(last, database)
        base = last.statement if last is not None else {}
        size, root = _tree_extend()
        chains = _chain_states(base.get("chains") or {})
        settlements = {"size": size, "root": root.hex()}
        moved = chains != base.get("chains") or settlements != base.get("settlements")
        now = timezone.now()
        run.at, run.problem = now, ""
        run.save(update_fields=["at", "problem"])
        if not moved and verified is None:
            checkpoint = None
        else:
            statement = {
                "type": formats.CHECKPOINT,
                "database": database,
                "number": (last.number if last else 0) + 1,
                "previous": formats.statement_hash(last.statement) if last else None,
                "at": now.isoformat(),
                "key": formats.key_id(signing.public_key(key)),
                "chains": chains,
                "settlements": settlements,
                "verified": verified,
            }
            checkpoint = AuditCheckpoint.objects.create(
                number=statement["number"],
                at=now,
                verified=verified is not None,
                statement=statement,
                signature=signing.sign(statement, key),
            )
    _catch_up_file()
    if checkpoint is not None:
        anchor_log.info("audit checkpoint %s", formats.canonical(checkpoint.record()))
    return checkpoint


def anchor_run() -> AuditCheckpoint | None:
    """The anchor job: a checkpoint when anything moved. A refusal is recorded on the run's
    row (``GET /health/`` shows it) and logged, then raised."""
    try:
        return checkpoint_write()
    except (AnchorRefused, signing.SigningKeyMissing) as exc:
        anchor_log.error("audit anchor refused: %s", exc)
        AuditAnchorRun.objects.update_or_create(pk=1, defaults={"problem": str(exc)[:2000]})
        raise


def last_run() -> AuditAnchorRun | None:
    return AuditAnchorRun.objects.filter(pk=1).first()


# ---------------------------------------------------------------- key hand-over


def key_handover(new_key: Any) -> AuditKeyHandover:
    """The configured key hands over to ``new_key``: a statement naming both, signed by
    both, stored and appended to the anchor file. Point ``AUDIT_SIGNING_KEY_FILE`` at the new
    key afterwards."""
    old_key = signing.signing_key()
    old_public, new_public = signing.public_key(old_key), signing.public_key(new_key)
    if old_public == new_public:
        raise AnchorRefused("the new key is the key in use: nothing to hand over")
    now = timezone.now()
    statement = {
        "type": formats.HANDOVER,
        "database": database_id(),
        "at": now.isoformat(),
        "old_key": old_public,
        "new_key": new_public,
    }
    with transaction.atomic():
        _lock()
        row = AuditKeyHandover.objects.create(
            at=now,
            statement=statement,
            old_signature=signing.sign(statement, old_key),
            new_signature=signing.sign(statement, new_key),
        )
    anchorfile.append([row.record()])
    anchor_log.info("audit key hand-over %s", formats.canonical(row.record()))
    return row


# ---------------------------------------------------------------- a settlement's proof


@dataclass(frozen=True)
class Inclusion:
    """A settlement's place in the tree and its proof against the latest checkpoint."""

    position: int
    leaf: dict[str, Any]
    leaf_hash: str
    checkpoint: AuditCheckpoint
    first: AuditCheckpoint  # the first checkpoint that covers it
    path: list[str]
    verified: bool  # the proof checked here against the signed root

    def document(self, history: Any, result: Any) -> dict[str, Any]:
        """The proof as a file the standalone verifier checks (``--proof``)."""
        return {
            "type": formats.INCLUSION_PROOF,
            "settlement": {
                "position": self.position,
                "leaf": self.leaf,
                "history": history,
                "result": result,
            },
            "tree_size": self.checkpoint.statement["settlements"]["size"],
            "path": self.path,
            "checkpoint": self.checkpoint.record(),
            "key_handovers": [row.record() for row in AuditKeyHandover.objects.all()],
        }


def inclusion(settlement_id: int) -> Inclusion | None:
    """The proof that a settlement is in the latest checkpoint's tree; None while no
    checkpoint covers it yet."""
    leaf = AuditLeaf.objects.filter(settlement_id=settlement_id).first()
    if leaf is None:
        return None
    latest = AuditCheckpoint.objects.order_by("-number").first()
    if latest is None or latest.statement["settlements"]["size"] <= leaf.position:
        return None
    first = (
        AuditCheckpoint.objects.filter(number__lte=latest.number)
        .order_by("number")
        .filter(statement__settlements__size__gt=leaf.position)
        .first()
    ) or latest
    size = latest.statement["settlements"]["size"]
    ranges = merkle.inclusion_ranges(leaf.position, size)
    lookup = merkle.from_mapping(tree_nodes(merkle.needed(ranges)))
    path = [merkle.subtree(lookup, a, b) for a, b in ranges]
    fields = leaf_rows([settlement_id])[settlement_id]
    value = formats.settlement_leaf_hash(fields)
    good = value.hex() == leaf.hash and merkle.verify_inclusion(
        value, leaf.position, size, path, bytes.fromhex(latest.statement["settlements"]["root"])
    )
    return Inclusion(
        position=leaf.position,
        leaf=fields,
        leaf_hash=value.hex(),
        checkpoint=latest,
        first=first,
        path=[step.hex() for step in path],
        verified=good,
    )


def checkpoint_age(now: datetime | None = None) -> float | None:
    """Seconds since the anchor job last ran (None: it never has)."""
    run = last_run()
    if run is None or run.at is None:
        return None
    return ((now or timezone.now()) - run.at).total_seconds()


# ---------------------------------------------------------------- what the check reads


@dataclass
class Anchored:
    """The checkpoints an audit check starts from, as the anchor file holds them: the newest
    one (every chain's head the check must still find), the newest one a passed check wrote
    (where an incremental check starts), and what is wrong with the file or the database's
    copies."""

    configured: bool
    problems: list[str]
    latest: dict[str, Any] | None = None  # statements
    verified: dict[str, Any] | None = None
    count: int = 0  # records read

    def heads(self, name: str) -> list[tuple[int, str, str]]:
        """Every anchored head of the chain ``name``: ``(size, head, at)``."""
        found = []
        for statement, part in ((self.latest, "chains"), (self.verified, None)):
            if statement is None:
                continue
            chains = (
                statement["chains"] if part else (statement.get("verified") or {}).get("chains", {})
            )
            head = chains.get(name)
            if isinstance(head, dict):
                found.append((int(head["size"]), str(head["head"]), str(statement["at"])))
        return found

    def chain_names(self) -> set[str]:
        return {
            name
            for statement in (self.latest, self.verified)
            if statement is not None
            for name in statement.get("chains", {})
        }


def _record_problem(ring: signing.KeyRing, record: dict[str, Any] | None) -> str | None:
    if record is None:
        return "it is not a JSON record"
    kind = record.get("type")
    if kind == "checkpoint":
        return ring.problem(record)
    if kind == "key_handover":
        statement = record.get("statement") or {}
        good = all(
            formats.signature_valid(
                str(statement.get(side)), statement, str(record.get(f"{part}_signature", ""))
            )
            for side, part in (("old_key", "old"), ("new_key", "new"))
        )
        return None if good else "it is a key hand-over whose signatures do not verify"
    return f"it is not a checkpoint or a key hand-over (type {kind!r})"


def anchored_read(*, full: bool) -> Anchored:
    """Read the anchor file (whole for a full check; from the end back to the newest
    verified checkpoint otherwise) and hold it against the database's checkpoints."""
    file = anchorfile.path()
    if file is None:
        return Anchored(configured=False, problems=[])
    found = Anchored(configured=True, problems=[])
    if not file.exists():
        if AuditCheckpoint.objects.exists():
            found.problems.append(
                f"the anchor file {file} is missing, though the database holds checkpoints"
            )
        return found
    ring, database = signing.key_ring(), database_id()
    foreign: dict[str, int] = {}
    statements: list[dict[str, Any]] = []
    lines = anchorfile.lines(file) if full else anchorfile.lines_backwards(file)
    for line in lines:
        found.count += 1
        problem = _record_problem(ring, line.record)
        record = line.record or {}
        statement = record.get("statement") if isinstance(record.get("statement"), dict) else {}
        if problem is None and statement.get("database") != database:
            foreign[str(statement.get("database"))] = (
                foreign.get(str(statement.get("database")), 0) + 1
            )
            continue
        if problem is not None:
            found.problems.append(f"{line.where}: {problem}")
            continue
        if record.get("type") != "checkpoint":
            continue
        statements.append(statement)
        if found.latest is None or statement["number"] > found.latest["number"]:
            found.latest = statement
        if statement.get("verified") and (
            found.verified is None or statement["number"] > found.verified["number"]
        ):
            found.verified = statement
            if not full:
                break
    for other, count in sorted(foreign.items()):
        found.problems.append(
            f"the anchor file {file} holds {count} checkpoint(s) of another database ({other}); "
            f"this database is {database}. The file belongs to that database (one carried over "
            "from a database since replaced, say): give each database its own AUDIT_ANCHOR_FILE"
        )
    found.problems.extend(_against_database(statements, ring, database, full=full))
    return found


def _against_database(
    statements: list[dict[str, Any]], ring: signing.KeyRing, database: str, *, full: bool
) -> list[str]:
    """The file's checkpoints against the database's: each in both, the same; and the
    database's own checkpoints signed and linked."""
    problems: list[str] = []
    numbers = [s["number"] for s in statements]
    since = 0 if full else min(numbers, default=0)
    rows = {row.number: row for row in AuditCheckpoint.objects.filter(number__gte=since)}
    for statement in statements:
        row = rows.get(statement["number"])
        if row is None:
            problems.append(
                f"checkpoint {statement['number']} (of {statement['at']}) is in the anchor file "
                "but not in the database: the database was rolled back or restored since"
            )
        elif formats.canonical(row.statement) != formats.canonical(statement):
            problems.append(
                f"checkpoint {statement['number']} in the database differs from the anchor "
                "file's: it was rewritten"
            )
    previous: AuditCheckpoint | None = None
    for number in sorted(rows):
        row = rows[number]
        problem = ring.problem(row.record())
        if problem is None and row.statement.get("database") != database:
            problem = f"it is of database {row.statement.get('database')}"
        if (
            problem is None
            and previous is not None
            and (
                number != previous.number + 1
                or row.statement.get("previous") != formats.statement_hash(previous.statement)
            )
        ):
            problem = f"it does not follow checkpoint {previous.number}"
        if problem:
            problems.append(f"checkpoint {number} in the database does not hold: {problem}")
        previous = row
    return problems
