"""The audit bundle (``manage.py audit_export``): the whole log as JSON Lines, for a regulator
to verify offline with the public key alone (``python -m casino.audit_verify``; every record
is in ``docs/audit-verify.md``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

from django.utils import timezone

from casino.audit_verify import formats, merkle
from casino.core.identity import database_id

from .chain import chain_heads
from .checkpoints import leaf_rows, tree_nodes
from .models import AuditCheckpoint, AuditKeyHandover, AuditLeaf, Settlement
from .reads import chain_entries

BATCH = 1_000


def _consistency(checkpoints: list[AuditCheckpoint]) -> Iterator[dict[str, Any]]:
    """The proof between each checkpoint's tree and the next one's."""
    for old, new in zip(checkpoints, checkpoints[1:], strict=False):
        m, n = old.statement["settlements"]["size"], new.statement["settlements"]["size"]
        ranges = merkle.consistency_ranges(m, n)
        lookup = merkle.from_mapping(tree_nodes(merkle.needed(ranges)))
        yield {
            "type": "consistency",
            "from": old.number,
            "to": new.number,
            "proof": [merkle.subtree(lookup, a, b).hex() for a, b in ranges],
        }


def _entries() -> Iterator[dict[str, Any]]:
    keys = sorted(chain_heads(), key=lambda key: (key is not None, key or 0))
    for key in keys:
        for entry in chain_entries(key):
            content = formats.entry_content(entry)
            yield {
                "type": "entry",
                "chain": formats.chain_key(key),
                **content,
                "hash": entry["hash"],
            }


def _settlements() -> Iterator[dict[str, Any]]:
    leaves = AuditLeaf.objects.order_by("position").values_list("position", "settlement_id")
    batch: list[tuple[int, int]] = []

    def flush() -> Iterator[dict[str, Any]]:
        ids = [pk for _, pk in batch]
        leaves = leaf_rows(ids)  # the leaves as the tree holds them
        stored = {
            pk: (history, result)
            for pk, history, result in Settlement.objects.filter(pk__in=ids).values_list(
                "pk", "history", "result"
            )
        }
        for position, pk in batch:
            yield {
                "type": "settlement",
                "position": position,
                "leaf": leaves[pk],
                "history": stored[pk][0],
                "result": stored[pk][1],
            }
        batch.clear()

    for item in leaves.iterator(chunk_size=BATCH):
        batch.append(item)
        if len(batch) >= BATCH:
            yield from flush()
    yield from flush()


def bundle_write(out: IO[str]) -> dict[str, int]:
    """Write the bundle to ``out``; how many records of each kind it holds."""
    counts = {"key_handovers": 0, "checkpoints": 0, "consistency": 0, "entries": 0}
    counts["settlements"] = 0

    def write(record: dict[str, Any]) -> None:
        out.write(formats.canonical(record) + "\n")

    write(
        {
            "type": "bundle",
            "format": formats.BUNDLE,
            "database": database_id(),
            "exported_at": timezone.now().isoformat(),
        }
    )
    for handover in AuditKeyHandover.objects.all():
        write(handover.record())
        counts["key_handovers"] += 1
    checkpoints = list(AuditCheckpoint.objects.order_by("number"))
    for checkpoint in checkpoints:
        write(checkpoint.record())
        counts["checkpoints"] += 1
    for proof in _consistency(checkpoints):
        write(proof)
        counts["consistency"] += 1
    for entry in _entries():
        write(entry)
        counts["entries"] += 1
    for settlement in _settlements():
        write(settlement)
        counts["settlements"] += 1
    write({"type": "end", **counts})
    return counts
