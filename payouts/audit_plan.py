"""Dividing an audit check into chunks: what each chain, each audited table and the
settlements' tree hold since the last passed check, and where every part of the check
starts (``payouts/audit.py`` checks the chunks).

**Incremental by default.** The newest checkpoint a passed check signed (read from the
anchor file: ``checkpoints.anchored_read``) states where it verified each chain to, how much
of the settlements' tree, and for every audited table the highest row id and the number of
rows at or below it. The next check starts there:

- each chain from the head that checkpoint states (the anchored entry must still carry its
  seal and the next entry link to it);
- every row of every audited table written since (ids above the mark) is verified: the hand
  it belongs to is checked again, whatever entries it has; a table event must be in its
  table's chain;
- the rows at or below each mark are counted: rows added among them (an id taken from a gap)
  or removed are found without reading them;
- an entry numbered past its chain's head is a finding (it was written outside the system);
- the tree from the size the checkpoint verified, each new leaf held to its settlement, and
  the root at every later checkpoint's size recomputed.

A ``full`` check verifies everything from the start. Without an anchor file, or without a
checkpoint of a passed check in it, every check is full.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import connection
from django.db.models import Count, Max, Model, Sum
from django.utils import timezone

from casino.audit_verify import formats
from tables.models import Hand, HandAction, Table, TableEvent

from .chain import GENESIS_HASH, chain_name, chain_tops
from .checkpoints import AnchorRefused, anchored_read, checkpoint_write, tree_size
from .models import AuditCheckpoint, AuditEntry, PayoutLine, SeatSettlement, Settlement
from .signing import SigningKeyMissing

CHUNK_ENTRIES = 20_000  # audit entries of one chain a worker verifies at a time
#: How long a check waits for the transactions writing when it starts, so that the rows at or
#: below its marks are all there; past it, only rows older than :data:`SETTLED` are counted.
SETTLE_WAIT = 10.0
SETTLED = timedelta(minutes=1)
#: A settlement stored this long before a checkpoint must be in that checkpoint's tree.
TREE_GRACE = timedelta(minutes=5)
TREE = "tree"  # the key of the chunk that checks the settlements' tree
CUSTODY = "custody"  # the key of the chunk that checks chip custody (``custody/audit.py``)
#: The parts that check the whole database once, beside the chains' stretches.
WHOLE = (TREE, CUSTODY)


@dataclass(frozen=True)
class RowTable:
    """An audited table: its rows' time, and the hand and table each row belongs to (lookup
    paths from the row)."""

    model: type[Model]
    label: str  # what its rows are, plural
    moment: str
    hand: str | None
    table: str | None


ROW_TABLES = {
    spec.model._meta.db_table: spec
    for spec in (
        RowTable(Hand, "hands", "opened_at", "pk", "table_id"),
        RowTable(HandAction, "hand actions", "at", "hand_id", "hand__table_id"),
        RowTable(TableEvent, "table events", "at", None, "table_id"),
        RowTable(Settlement, "settlements", "settled_at", "hand_id", "hand__table_id"),
        RowTable(
            SeatSettlement,
            "settlement seat rows",
            "settlement__settled_at",
            "settlement__hand_id",
            "settlement__hand__table_id",
        ),
        RowTable(
            PayoutLine,
            "payout lines",
            "seat__settlement__settled_at",
            "seat__settlement__hand_id",
            "seat__settlement__hand__table_id",
        ),
        RowTable(AuditEntry, "audit entries", "at", None, None),
    )
}


@dataclass
class Chunk:
    """One part of a check. A chain's stretch: entries ``after_seq + 1`` to ``through_seq``
    of the table's chain (no table: the house chain), whose part of the check runs from
    ``chain_start`` to ``chain_end``; its ``last`` chunk also checks the hands ``recheck``
    (rows written since the last check, with no entry in the check's stretch of the chain),
    the table events ``events``, and in a full check every hand no entry opened. The tree's
    chunk (``part`` "tree") checks the settlements' tree (``tree``); the custody chunk
    (``part`` "custody") every chip-custody record (``custody/audit.py``)."""

    table_id: int | None
    after_seq: int
    after_hash: str
    through_seq: int
    chain_end: int
    last: bool
    chain_start: int = 0
    anchored: list[list[Any]] = field(default_factory=list)  # [seq, seal, at] inside it
    recheck: list[int] = field(default_factory=list)
    events: list[int] = field(default_factory=list)
    unopened: bool = False
    part: str = "chain"
    tree: dict[str, Any] = field(default_factory=dict)

    def work(self) -> dict[str, Any]:
        """What a chunk's row keeps besides its stretch."""
        return {
            "chain_start": self.chain_start,
            "recheck": self.recheck,
            "events": self.events,
            "unopened": self.unopened,
            "part": self.part,
            "tree": self.tree,
        }

    @classmethod
    def of_row(cls, row: Any, plan: dict[str, Any]) -> Chunk:
        work = dict(row.work or {})
        end = 0 if work.get("part") in WHOLE else plan["heads"][formats.chain_key(row.table_id)][0]
        return cls(
            table_id=row.table_id,
            after_seq=row.after_seq,
            after_hash=row.after_hash,
            through_seq=row.through_seq,
            chain_end=end,
            last=row.last,
            anchored=row.anchored,
            **work,
        )


@dataclass
class Plan:
    full: bool
    chunks: list[Chunk]
    problems: list[str]  # found while planning: anchors, rows, entries past a head
    anchors: dict[str, Any]  # configured, count, latest, note
    heads: dict[str, list[Any]]  # chain key -> [head seq]: where each chain's part ends
    chains: dict[str, dict[str, Any]]  # chain key -> {size, head}: verified if it passes
    rows: dict[str, dict[str, int]]  # audited table -> {max_id, count}: the next marks
    total: int  # audit entries and tree leaves to verify
    hands: int  # hands to check (an estimate: the new hand rows)

    def to_dict(self) -> dict[str, Any]:
        return {
            "full": self.full,
            "problems": self.problems,
            "anchors": self.anchors,
            "heads": self.heads,
            "chains": self.chains,
            "rows": self.rows,
            "total": self.total,
            "hands": self.hands,
        }


# ---------------------------------------------------------------- the audited tables


@dataclass
class RowsPlan:
    problems: list[str] = field(default_factory=list)
    recheck: dict[int, set[int]] = field(default_factory=dict)  # table id -> hand ids
    events: dict[int, list[int]] = field(default_factory=dict)  # table id -> event ids
    marks: dict[str, dict[str, int]] = field(default_factory=dict)
    new_hands: int = 0


def _in_flight() -> set[tuple[int, str]]:
    """The other transactions writing to this database now: ``(backend pid, xid)``."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, backend_xid::text FROM pg_stat_activity WHERE datname = "
            "current_database() AND backend_xid IS NOT NULL AND pid <> pg_backend_pid()"
        )
        return {(pid, xid) for pid, xid in cursor.fetchall()}


def _highest_settled() -> tuple[dict[str, int], bool]:
    """Every audited table's highest row id, once every row at or below it is there for
    good: the transactions that were writing when the ids were read have ended (a row's id
    is taken before it commits, so one below the highest may still arrive). False when some
    of them are still running after :data:`SETTLE_WAIT` seconds."""
    highest = {
        name: spec.model._default_manager.aggregate(top=Max("pk"))["top"] or 0
        for name, spec in ROW_TABLES.items()
    }
    if connection.vendor != "postgresql":
        return highest, True  # one writer at a time
    # A transaction takes its row's id a moment before it becomes a writer: let it.
    time.sleep(0.05)
    writing = _in_flight()
    deadline = time.monotonic() + SETTLE_WAIT
    while writing:
        if time.monotonic() > deadline:
            return highest, False
        time.sleep(0.02)
        writing &= _in_flight()
    return highest, True


def _rows_plan(
    marks: dict[str, Any] | None, started: datetime, verified_at: str | None
) -> RowsPlan:
    """Every audited table: its rows at or below the last mark still counted as verified,
    the hands and events its rows since belong to, and the marks this check leaves."""
    plan = RowsPlan()
    tops, settled_all = _highest_settled()
    for name, spec in ROW_TABLES.items():
        rows = spec.model._default_manager.order_by()
        highest = tops[name]
        old = (marks or {}).get(name)
        after = 0
        if old is not None:
            after = int(old["max_id"])
            count, id_sum = _tally(rows, after)
            if count != old["count"]:
                change = "added" if count > old["count"] else "removed"
                moved = abs(count - old["count"])
                rows_were = (
                    f"{moved} {spec.label} were" if moved > 1 else f"1 of the {spec.label} was"
                )
                plan.problems.append(
                    f"{rows_were} {change} among those the check of {verified_at} verified "
                    f"(ids up to {after}): rows written outside the system; a full check "
                    "names them"
                )
            elif id_sum != old.get("id_sum", id_sum):
                plan.problems.append(
                    f"{spec.label.capitalize()} among those the check of {verified_at} verified "
                    f"(ids up to {after}) were removed and others written in their place: rows "
                    "written outside the system; a full check names them"
                )
        new = rows.filter(pk__gt=after, pk__lte=highest)
        if marks is not None and spec.hand is not None:
            for table_id, hand_id in new.values_list(spec.table, spec.hand).distinct():
                plan.recheck.setdefault(table_id, set()).add(hand_id)
        if spec.model is TableEvent:
            for table_id, pk in new.values_list("table_id", "pk"):
                plan.events.setdefault(table_id, []).append(pk)
        if spec.model is Hand:
            plan.new_hands = new.count()
        if settled_all:
            mark = max(after, highest)
        else:  # a writer still running: only rows old enough to have settled count
            settled = rows.filter(pk__lte=highest, **{f"{spec.moment}__lt": started - SETTLED})
            mark = max(after, settled.aggregate(top=Max("pk"))["top"] or 0)
        count, id_sum = _tally(rows, mark)
        plan.marks[name] = {"max_id": mark, "count": count, "id_sum": id_sum}
    return plan


def _tally(rows: Any, mark: int) -> tuple[int, int]:
    """How many rows there are at or below ``mark``, and the sum of their ids (one scan of
    the primary key): a row slipped in or removed changes the first, one removed and another
    written in its place the second."""
    found = rows.filter(pk__lte=mark).aggregate(count=Count("pk"), id_sum=Sum("pk"))
    return int(found["count"]), int(found["id_sum"] or 0)


def _seen_in_stretch(key: int | None, start: int, head: int, hand_ids: set[int]) -> set[int]:
    """Of ``hand_ids``, those with an entry in the check's stretch of the chain (the chunk
    holding their last entry checks them)."""
    if not hand_ids or head <= start:
        return set()
    queryset = AuditEntry.objects.filter(seq__gt=start, seq__lte=head, hand_id__in=hand_ids)
    queryset = queryset.filter(table__isnull=True) if key is None else queryset.filter(table=key)
    return set(queryset.values_list("hand_id", flat=True).distinct())


def _boundary_hashes(key: int | None, seqs: list[int]) -> dict[int, str]:
    if not seqs:
        return {}
    queryset = AuditEntry.objects.filter(seq__in=seqs)
    queryset = queryset.filter(table__isnull=True) if key is None else queryset.filter(table=key)
    return dict(queryset.values_list("seq", "hash"))


# ---------------------------------------------------------------- the tree


def _tree_work(verified: dict[str, Any] | None, settlements_after: int) -> dict[str, Any]:
    """The tree's part: from the size a passed check verified (its frontier, as it signed
    it) to the size now, and the checkpoints whose roots fall in between."""
    start = (verified or {}).get("settlements") or {}
    begin = int(start.get("size", 0))
    end = tree_size()
    checkpoints = [
        [row.number, row.statement["settlements"]["size"], row.statement["settlements"]["root"]]
        for row in AuditCheckpoint.objects.filter(
            statement__settlements__size__gt=begin, statement__settlements__size__lte=end
        ).order_by("number")
    ]
    latest = AuditCheckpoint.objects.order_by("-number").values_list("at", flat=True).first()
    return {
        "from": begin,
        "frontier": list(start.get("frontier") or []),
        "to": end,
        "checkpoints": checkpoints,
        "settled_before": (latest - TREE_GRACE).isoformat() if latest else None,
        "settlements_after": settlements_after,
    }


# ---------------------------------------------------------------- the plan


def check_plan(*, full: bool) -> Plan:
    """Divide a check: every chain from its start to its head now, :data:`CHUNK_ENTRIES`
    entries at a time; the hands and events written since the last check; the tree."""
    started = timezone.now()
    # The check covers everything up to a checkpoint signed now: the settlements stored
    # since the last anchor are taken into the tree first.
    signed_now = ""
    try:
        checkpoint_write()
    except (AnchorRefused, SigningKeyMissing) as exc:
        signed_now = f"no checkpoint could be signed before the check: {exc}"
    anchored = anchored_read(full=full)
    problems = [*([signed_now] if signed_now else []), *anchored.problems]
    verified_statement = anchored.verified
    verified = (verified_statement or {}).get("verified") or None
    incremental = not full and anchored.configured and verified is not None
    note = ""
    if not full and not anchored.configured:
        note = "no AUDIT_ANCHOR_FILE holds where the last check stopped: checked in full"
    elif not full and verified is None:
        note = "no passed check has signed a checkpoint yet: checked in full"
    # The chains' heads first, then the rows: a row the marks cover whose transaction ended
    # after the heads were read has its entries past them (in play), never before, so what
    # the next check reads after these heads holds every entry of the rows past these marks.
    tops = chain_tops()
    rows = _rows_plan(
        verified.get("rows") if incremental and verified else None,
        started,
        verified_statement["at"] if verified_statement else None,
    )
    problems.extend(rows.problems)
    names = dict(Table.objects.values_list("pk", "name"))
    numbered = set(Hand.objects.order_by().values_list("table_id").annotate(n=Count("pk")))
    with_hands = {table_id for table_id, _ in numbered}
    for name in sorted(anchored.chain_names() - {formats.chain_key(key) for key in tops}):
        problems.append(f"chain {name} was anchored but is gone: its entries were removed")
    chunks: list[Chunk] = []
    heads: dict[str, list[Any]] = {}
    chains: dict[str, dict[str, Any]] = {}
    total = 0
    for key, (head_seq, head_hash, top) in sorted(
        tops.items(), key=lambda kv: (kv[0] is not None, kv[0] or 0)
    ):
        name, label = formats.chain_key(key), chain_name(key, names)
        if top > head_seq:
            problems.append(
                f"{label} ends at entry {head_seq}, but holds entries up to {top}: entries "
                f"{head_seq + 1}-{top} were written past its head, outside the system"
            )
        anchored_heads = anchored.heads(name)
        for size, _head, at in anchored_heads:
            if size > head_seq:
                problems.append(
                    f"{label} ends at entry {head_seq}, but entry {size} was anchored at {at}: "
                    "entries were removed (truncated or rolled back)"
                )
                break
        start_seq, start_hash = 0, GENESIS_HASH
        start = (verified.get("chains") or {}).get(name) if incremental and verified else None
        if start is not None and start["size"] <= head_seq:
            start_seq, start_hash = int(start["size"]), str(start["head"])
        if head_seq:
            chains[name] = {"size": head_seq, "head": head_hash}
        recheck = rows.recheck.get(key, set()) if key is not None else set()
        recheck -= _seen_in_stretch(key, start_seq, head_seq, recheck)
        events = rows.events.get(key, []) if key is not None else []
        unopened = not incremental and key in with_hands
        if (head_seq, head_hash) == (start_seq, start_hash) and not (recheck or events or unopened):
            continue  # nothing new since it was verified (or an empty chain)
        bounds = list(range(start_seq, head_seq, CHUNK_ENTRIES))[1:]
        hashes = _boundary_hashes(key, bounds)
        edges = [start_seq, *bounds, head_seq] if head_seq > start_seq else [start_seq] * 2
        for index, (after, through) in enumerate(zip(edges, edges[1:], strict=False)):
            last = through == head_seq
            chunks.append(
                Chunk(
                    table_id=key,
                    after_seq=after,
                    after_hash=start_hash if index == 0 else hashes.get(after, ""),
                    through_seq=through,
                    chain_end=head_seq,
                    last=last,
                    chain_start=start_seq,
                    anchored=[
                        [seq, seal_, at]
                        for seq, seal_, at in anchored_heads
                        if after < seq <= through or (index == 0 and seq == after and seq > 0)
                    ],
                    recheck=sorted(recheck) if last else [],
                    events=sorted(events) if last else [],
                    unopened=unopened and last,
                )
            )
        heads[name] = [head_seq]
        total += head_seq - start_seq
    marks = (verified or {}).get("rows") or {} if incremental else {}
    settlements_mark = int((marks.get(Settlement._meta.db_table) or {}).get("max_id", 0))
    tree = _tree_work(verified if incremental else None, settlements_mark)
    chunks.append(
        Chunk(
            table_id=None,
            after_seq=0,
            after_hash="",
            through_seq=0,
            chain_end=0,
            last=False,
            part=TREE,
            tree=tree,
        )
    )
    total += tree["to"] - tree["from"]  # the tree's leaves
    # Chip custody: every slip, opener, closer, drop count and signature, in every check.
    from custody.audit import records_count

    chunks.append(
        Chunk(
            table_id=None,
            after_seq=0,
            after_hash="",
            through_seq=0,
            chain_end=0,
            last=False,
            part=CUSTODY,
        )
    )
    total += records_count()
    latest = anchored.latest["at"] if anchored.latest else None
    return Plan(
        full=not incremental,
        chunks=chunks,
        problems=problems,
        anchors={
            "configured": anchored.configured,
            "anchors": anchored.count,
            "latest": latest,
            "verified_from": verified_statement["number"]
            if incremental and verified_statement
            else None,
            "note": note,
        },
        heads=heads,
        chains=chains,
        rows=rows.marks,
        total=total,
        hands=rows.new_hands,
    )
