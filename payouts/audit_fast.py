"""The audit check's quick paths (PostgreSQL): what they confirm, the full check would find
nothing in; anything they cannot confirm is handed to the full check, which words it.

**A chain's entries** (:func:`chain_verify_quick`). An entry is read as one JSON text built
by PostgreSQL, its sealed fields under their own names and ``at`` already written as Python's
``isoformat()`` writes it, with its seal beside it: the sealed bytes are that text decoded
once by orjson and written again with sorted keys (the bytes ``chain.seal_matches`` tries
first), and the seal's HMAC-SHA256 is taken over them directly, without the datetime, the
per-column conversion or the dict of sealed fields. The walk confirms entries while each is
numbered next, links to the one before and matches its seal; at the first entry it cannot
confirm, ``chain.chain_verify`` takes over from the last confirmed one, so a broken chain is
reported (where, what) exactly as the full walk reports it, and every entry is seen by
``visit`` once, in order.

**The settlements' tree** (``audit_tree``) reads its leaves and each settlement's leaf fields
with plain statements and writes the leaf's text with orjson; :func:`at_text` writes a time
there as the entries' is written here.

A hand's own quick path (the hand read in one row of JSON the database builds, its history
compared with the hand's own and its stored result with the replay's by the database, only
confirming) was tried and left out: it saved this process about a third of a millisecond a
hand and cost PostgreSQL over a millisecond more (``make bench`` shows the backend's CPU).
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from typing import Any

import orjson
from django.conf import settings
from django.db import connection

from .chain import GENESIS_HASH, ChainReport, chain_name, chain_verify
from .models import AuditEntry
from .reads import FETCH_ROWS

#: The quick paths in use (PostgreSQL only). Off, the check takes the full paths alone: the
#: tests compare both on tampered data.
QUICK = True
SORT = orjson.OPT_SORT_KEYS


def at_text(column: str) -> str:
    """SQL writing the time ``column`` as ``datetime.isoformat()`` writes it read back (aware,
    UTC): microseconds only when not 0."""
    return (
        f"CASE WHEN date_trunc('second', {column}) = {column} "
        f"""THEN to_char({column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"') """
        f"""ELSE to_char({column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"') END"""
    )


_AT = at_text("at")


def _entry_sql(key: int | None, through: bool) -> str:
    columns = {
        name: (_AT if name == "at" else connection.ops.quote_name(name))
        for name in AuditEntry.SEALED_FIELDS
    }
    pairs = ", ".join(f"'{name}', {column}" for name, column in columns.items())
    chain = "table_id IS NULL" if key is None else "table_id = %s"
    return (
        f"SELECT CAST(json_build_object({pairs}) AS text), hash "
        f"FROM {connection.ops.quote_name(AuditEntry._meta.db_table)} "
        f"WHERE {chain} AND seq > %s{' AND seq <= %s' if through else ''} ORDER BY seq"
    )


def chain_verify_quick(
    key: int | None,
    *,
    after_seq: int = 0,
    after_hash: str = GENESIS_HASH,
    through_seq: int | None = None,
    visit: Callable[[dict[str, Any]], None] | None = None,
    name: str | None = None,
) -> ChainReport:
    """``chain.chain_verify``'s report, on the quick path where the entries confirm (see the
    module's docstring); elsewhere than PostgreSQL, ``chain_verify`` itself."""
    if not QUICK or connection.vendor != "postgresql":
        return chain_verify(
            key,
            after_seq=after_seq,
            after_hash=after_hash,
            through_seq=through_seq,
            visit=visit,
            name=name,
        )
    mac_key = settings.AUDIT_KEY.encode()
    digest, compare, loads, dumps = hmac.digest, hmac.compare_digest, orjson.loads, orjson.dumps
    params: list[Any] = [] if key is None else [key]
    params.append(after_seq)
    if through_seq is not None:
        params.append(through_seq)
    last_seq, last_hash, confirmed = after_seq, after_hash, 0
    stopped = False
    with connection.chunked_cursor() as cursor:
        cursor.execute(_entry_sql(key, through_seq is not None), params)
        while not stopped and (rows := cursor.fetchmany(FETCH_ROWS)):
            for text, seal_ in rows:
                entry = loads(text)
                if (
                    entry["seq"] != last_seq + 1
                    or entry["prev_hash"] != last_hash
                    or not compare(
                        seal_, digest(mac_key, dumps(entry, option=SORT), "sha256").hex()
                    )
                ):
                    stopped = True
                    break
                entry["hash"] = seal_
                if visit is not None:
                    visit(entry)
                confirmed += 1
                last_seq, last_hash = entry["seq"], seal_
    if not stopped:
        report = ChainReport(table_id=key, last_seq=last_seq, last_hash=last_hash)
        report.entries_checked = confirmed
        if through_seq is not None and last_seq < through_seq:
            where_chain = name or chain_name(key)
            report.fail(
                f"audit entries {last_seq + 1}-{through_seq} of {where_chain} are missing",
                last_seq + 1,
            )
        return report
    # The first entry not confirmed: the full walk from the last confirmed one words it.
    report = chain_verify(
        key,
        after_seq=last_seq,
        after_hash=last_hash,
        through_seq=through_seq,
        visit=visit,
        name=name,
    )
    report.entries_checked += confirmed
    return report
