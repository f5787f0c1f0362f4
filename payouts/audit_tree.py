"""The audit check's part for the settlements' Merkle tree (``payouts/checkpoints.py``).

From the size a passed check verified (starting from the right edge it signed, so nothing
below it is read again) to the size now: the leaves are numbered without gaps, each leaf's
hash is its settlement's (its row as stored now, with the history's and result's hashes its
sealed entry states: the hand's own check holds the stored history and result to those),
and the root at every checkpoint's size in between is the signed one. Every settlement stored since the last check, and stored well before the
newest checkpoint (``TREE_GRACE``), is in the tree.
"""

from __future__ import annotations

from hashlib import sha256
from typing import Any, NamedTuple

import orjson
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils.dateparse import parse_datetime

from casino.audit_verify import formats, merkle
from tables.models import Hand

from . import audit_fast
from .audit_fast import at_text
from .checkpoints import leaf_rows, stated_hashes
from .models import AuditEntry, AuditLeaf, Settlement

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
    quick = audit_fast.QUICK and connection.vendor == "postgresql"
    for start in range(begin, end, BATCH):
        rows = _leaves(start, min(start + BATCH, end))
        ids = [row.settlement_id for row in rows]
        hashes = _leaf_hashes(ids) if quick else {}
        # The full reading for every leaf the quick one does not confirm.
        unconfirmed = [
            row.settlement_id for row in rows if hashes.get(row.settlement_id) != row.hash
        ]
        settled = leaf_rows(unconfirmed) if unconfirmed else {}
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
            if (
                hashes.get(leaf.settlement_id) != leaf.hash
                and formats.settlement_leaf_hash(settled[leaf.settlement_id]).hex() != leaf.hash
            ):
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


# ---------------------------------------------------------------- quick reads


class Leaf(NamedTuple):
    position: int
    settlement_id: int
    hash: str


def _leaves(start: int, stop: int) -> list[Leaf]:
    """The tree's leaves at ``start`` to ``stop - 1`` (those there are), in order."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT position, settlement_id, hash FROM "
            f"{connection.ops.quote_name(AuditLeaf._meta.db_table)} "
            "WHERE position >= %s AND position < %s ORDER BY position",
            [start, stop],
        )
        return [Leaf(*row) for row in cursor.fetchall()]


def _leaf_hashes(ids: list[int]) -> dict[int, str]:
    """The leaf hash (hex) of each settlement ``ids`` whose entries state its history's and
    result's hashes, as ``checkpoints.leaf_rows`` and ``formats.settlement_leaf_hash`` make it:
    two statements (PostgreSQL), the entries' JSON decoded by orjson, the leaf's sorted text
    written by orjson. It only ever *confirms* a leaf: one it does not give, or gives
    otherwise than the leaf states (text orjson writes otherwise than ``json``, say), is
    worked out by the full reading."""
    if not ids:
        return {}
    q = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT s.id, s.kind, s.corrects_id, s.hand_id, h.table_id, h.number, h.game, "
            f"{at_text('s.settled_at')}, u.{q(get_user_model().USERNAME_FIELD)}, s.rake "
            f"FROM {q(Settlement._meta.db_table)} s JOIN {q(Hand._meta.db_table)} h "
            f"ON h.id = s.hand_id LEFT JOIN {q(get_user_model()._meta.db_table)} u "
            "ON u.id = s.settled_by_id WHERE s.id = ANY(%s)",
            [ids],
        )
        rows = cursor.fetchall()
        cursor.execute(
            f"SELECT action, CAST(after AS text) FROM {q(AuditEntry._meta.db_table)} "
            "WHERE hand_id = ANY(%s) AND action IN ('hand_settle', 'hand_correct') ORDER BY id",
            [sorted({row[3] for row in rows})],
        )
        entries = cursor.fetchall()
    bound = stated_hashes(  # as ``checkpoints.bound_hashes`` finds them
        (action, orjson.loads(text) if text is not None else None) for action, text in entries
    )
    hashes: dict[int, str] = {}
    for pk, kind, corrects, hand, table, number, game, at, by, rake in rows:
        if pk not in bound:
            continue
        leaf = {
            "settlement": pk,
            "kind": kind,
            "corrects": corrects,
            "hand": hand,
            "table": table,
            "hand_number": number,
            "game": game,
            "settled_at": at,
            "settled_by": by,
            "rake": rake,
            "history_sha256": bound[pk][0],
            "result_sha256": bound[pk][1],
        }
        hashes[pk] = sha256(b"\x00" + orjson.dumps(leaf, option=orjson.OPT_SORT_KEYS)).hexdigest()
    return hashes
