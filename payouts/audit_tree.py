"""The audit check's part for the settlements' Merkle tree (``payouts/checkpoints.py``).

From the size a passed check verified (starting from the right edge it signed, so nothing
below it is read again) to the size now: the leaves are numbered without gaps, each leaf's
hash is its settlement's (its row as stored now, with the history's and result's hashes its
sealed entry states: the hand's own check holds the stored history and result to those),
and the root at every checkpoint's size in between is the signed one. Every settlement stored since the last check, and stored well before the
newest checkpoint (``TREE_GRACE``), is in the tree.
"""

from __future__ import annotations

from typing import Any

from django.utils.dateparse import parse_datetime

from casino.audit_verify import formats, merkle

from .checkpoints import leaf_rows
from .models import AuditLeaf, Settlement

BATCH = 1_000


def _frontier(tree: dict[str, Any]) -> merkle.Frontier:
    begin = int(tree["from"])
    edge = [bytes.fromhex(value) for value in tree.get("frontier") or []]
    levels = [level for level, _ in merkle.decomposition(0, begin)]
    return merkle.Frontier(begin, list(zip(levels, edge, strict=True)))


def tree_check(tree: dict[str, Any], progress: Any) -> dict[str, Any]:
    from .audit import Findings

    findings = Findings()
    begin, end = int(tree["from"]), int(tree["to"])
    try:
        frontier = _frontier(tree)
    except ValueError:
        findings.add(None, "the tree's right edge the last check signed does not fit its size")
        frontier = merkle.Frontier()
        begin = 0
    roots = {int(size): (int(number), root) for number, size, root in tree["checkpoints"]}
    position = begin
    checked = 0
    leaves = AuditLeaf.objects.filter(position__gte=begin, position__lt=end).order_by("position")
    for start in range(begin, end, BATCH):
        rows = list(leaves.filter(position__lt=start + BATCH).filter(position__gte=start))
        settled = leaf_rows([row.settlement_id for row in rows])
        for leaf in rows:
            if leaf.position != position:
                findings.add(
                    None,
                    f"the settlements' tree has no leaf {position} (the next is {leaf.position}):"
                    " leaves were removed",
                    table="tree",
                )
                position = leaf.position
            value = bytes.fromhex(leaf.hash)
            if formats.settlement_leaf_hash(settled[leaf.settlement_id]).hex() != leaf.hash:
                findings.add(
                    None,
                    f"settlement {leaf.settlement_id} is not what its leaf ({leaf.position}) in "
                    "the signed tree states: it was changed after it was taken in",
                    table="tree",
                )
            frontier.append(value)
            position += 1
            checked += 1
            progress.step()
            stated = roots.get(frontier.size)
            if stated is not None and frontier.root().hex() != stated[1]:
                findings.add(
                    None,
                    f"the settlements' tree of {frontier.size} leaves does not have the root "
                    f"checkpoint {stated[0]} signed: the tree was rewritten",
                    table="tree",
                )
    if position < end:
        findings.add(
            None, f"the settlements' tree ends at leaf {position}, not {end}", table="tree"
        )
    _missing(tree, findings)
    progress.flush()
    return {
        "chain": {
            "table": None,
            "ok": True,
            "entries_checked": 0,
            "broken_at": None,
            "problem": None,
            "last_seq": 0,
        },
        "in_play": 0,
        "last_hash": "",
        "anchor_problems": [],
        "hands_checked": 0,
        "settlements_checked": 0,
        "leaves_checked": checked,
        "tree": {"size": frontier.size, "frontier": [value.hex() for _, value in frontier.edge]},
        "findings": findings.items,
        "findings_total": findings.total,
    }


def _missing(tree: dict[str, Any], findings: Any) -> None:
    """Settlements stored since the last check, well before the newest checkpoint, that the
    tree does not hold: never taken in (the anchor job skipped them, or they were written
    with an id from long ago)."""
    before = tree.get("settled_before")
    if not before:
        return
    missing = Settlement.objects.filter(
        pk__gt=int(tree.get("settlements_after") or 0),
        settled_at__lt=parse_datetime(before),
        leaf__isnull=True,
    ).values_list("pk", "hand_id")
    for pk, hand_id in missing[:100]:
        findings.add(
            hand_id,
            f"settlement {pk} was stored before the newest checkpoint but is not in its tree",
        )
