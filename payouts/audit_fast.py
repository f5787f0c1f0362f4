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
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass
from hashlib import sha256
from operator import itemgetter
from typing import Any

import orjson
from django.conf import settings
from django.db import connection

from casino.rules.contract import History, game
from tables.models import Hand, HandAction, Table

from .chain import GENESIS_HASH, ChainReport, chain_name, chain_verify
from .models import AuditEntry, PayoutLine, SeatSettlement, Settlement
from .reads import FETCH_ROWS, LINE_FIELDS, HandRow, SeatRow, SettlementRow
from .services import result_nets, result_parties

#: The quick paths in use (PostgreSQL only). Off, the check takes the full paths alone: the
#: tests compare both on tampered data.
QUICK = True
SORT = orjson.OPT_SORT_KEYS
SETTLED = Hand.Status.SETTLED.value
SETTLEMENT = Settlement.Kind.SETTLEMENT.value


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


# ---------------------------------------------------------------- hands


@dataclass(slots=True)
class QuickHand:
    """One hand as one read gives it (:func:`hands_read`): its frozen set-up decoded, the
    rest as the database's text, decoded only where the check needs it."""

    pk: int
    status: str
    table_name: str
    setup: dict[str, Any]  # {game, number, rules, config, seats}: ``services.hand_setup``
    actions: str | None  # JSON array
    count: int  # its settlements
    # Its first settlement: id, kind, corrects, rake, history (JSON text), whether the history
    # is, as text, the hand's own, and its seat rows with their lines (JSON). Its result is
    # compared by the database (:func:`hands_confirmed`), and read for the full check only.
    first: tuple[Any, ...] | None
    others: str | None  # every settlement as JSON, where it has more than one

    def hand_row(self) -> HandRow:
        """The hand as ``reads.hands_load`` gives it: for the full check."""
        setup = self.setup
        hand = HandRow(
            self.pk,
            setup["number"],
            self.status,
            setup["game"],
            setup["rules"],
            setup["config"],
            setup["seats"],
            self.table_name,
        )
        hand.actions = orjson.loads(self.actions) if self.actions is not None else []
        if self.count == 1 and self.first is not None:
            pk, kind, corrects, rake, history, _, seats = self.first
            with connection.cursor() as cursor:  # the result, left to the database before
                cursor.execute(
                    f"SELECT CAST(result AS text) FROM {connection.ops.quote_name(Settlement._meta.db_table)} "
                    "WHERE id = %s",
                    [pk],
                )
                [(result,)] = cursor.fetchall()
            every = [[pk, kind, corrects, orjson.loads(history), orjson.loads(result), rake, seats]]
        else:
            every = orjson.loads(self.others) if self.others is not None else []
        for pk, kind, corrects, history, result, rake, seats in every:
            row = SettlementRow(pk, kind, corrects, history, result, rake)
            if isinstance(seats, str):
                seats = orjson.loads(seats)
            for seat, role, status, description, seat_rake, net, lines in seats or ():
                row.seats.append(
                    SeatRow(
                        seat,
                        role,
                        status,
                        description,
                        seat_rake,
                        net,
                        [tuple(line) for line in lines or ()],
                    )
                )
            hand.settlements.append(row)
        return hand


def _hands_sql() -> str:
    q = connection.ops.quote_name
    hand, table, action = (
        q(Hand._meta.db_table),
        q(Table._meta.db_table),
        q(HandAction._meta.db_table),
    )
    settlement, seat_row, line = (
        q(Settlement._meta.db_table),
        q(SeatSettlement._meta.db_table),
        q(PayoutLine._meta.db_table),
    )
    index = q("index")
    lines = (
        f"SELECT json_agg(json_build_array({', '.join(f'l.{q(f)}' for f in LINE_FIELDS)}) "
        f"ORDER BY l.id) FROM {line} l WHERE l.seat_id = r.id"
    )

    def seats(of: str) -> str:
        return (
            "SELECT json_agg(json_build_array(r.seat, r.role, r.status, r.hand_description, "
            f"r.rake, r.net, ({lines})) ORDER BY r.seat, r.id) FROM {seat_row} r "
            f"WHERE r.settlement_id = {of}.id"
        )

    own = (
        "jsonb_build_object('game', h.game, 'rules', h.rules, 'config', h.config, 'actions', "
        f"COALESCE((SELECT jsonb_agg(a.action ORDER BY a.{index}) FROM {action} a "
        "WHERE a.hand_id = h.id), '[]'::jsonb))"
    )
    return (
        "SELECT h.id, h.status, t.name, CAST(json_build_object('game', h.game, 'number', "
        "h.number, 'rules', h.rules, 'config', h.config, 'seats', h.seats) AS text), "
        f"(SELECT CAST(json_agg(a.action ORDER BY a.{index}) AS text) FROM {action} a "
        "WHERE a.hand_id = h.id), "
        f"(SELECT count(*) FROM {settlement} c WHERE c.hand_id = h.id) AS n, "
        "s.id, s.kind, s.corrects_id, s.rake, CAST(s.history AS text), "
        f"CAST(s.history AS text) = CAST({own} AS text), CAST(({seats('s')}) AS text), "
        "CASE WHEN (SELECT count(*) FROM {settlement} c WHERE c.hand_id = h.id) > 1 THEN "
        "(SELECT CAST(json_agg(json_build_array(o.id, o.kind, o.corrects_id, o.history, "
        f"o.result, o.rake, ({seats('o')})) ORDER BY o.id) AS text) FROM {settlement} o "
        "WHERE o.hand_id = h.id) END "
        f"FROM {hand} h JOIN {table} t ON t.id = h.table_id "
        f"LEFT JOIN LATERAL (SELECT * FROM {settlement} f WHERE f.hand_id = h.id ORDER BY f.id "
        "LIMIT 1) s ON true WHERE h.id = ANY(%s)"
    ).replace("{settlement}", settlement)


def hands_read(ids: list[int]) -> dict[int, QuickHand]:
    """The hands ``ids`` with their actions, settlements, seat rows and payout lines: one
    statement (PostgreSQL), a row a hand, what ``reads.hands_load`` reads."""
    with connection.cursor() as cursor:
        cursor.execute(_hands_sql(), [list(ids)])
        rows = cursor.fetchall()
    loads = orjson.loads
    return {
        row[0]: QuickHand(
            row[0],
            row[1],
            row[2],
            loads(row[3]),
            row[4],
            row[5],
            None if row[6] is None else tuple(row[6:13]),
            row[13],
        )
        for row in rows
    }


def hands_confirmed(hands: dict[int, QuickHand], chain_hands: dict[int, Any]) -> set[int]:
    """Of ``hands``, those the full check (``audit._check_hand``, the chain whole) would find
    nothing in, confirmed on the quick path: each a settled hand with one settlement whose
    history is, as text, the hand's own; the chain's open, actions and one settle agreeing
    with the set-up, history and replayed result by the digests of their sorted bytes; every
    seat row and payout line the replayed result's, paired in seat order; and the stored
    result's text the replayed result's as PostgreSQL writes it (compared there, in one
    statement for all of them: the stored result is never decoded here).

    Why the last is the full check's comparison: equal texts are one stored value, which orjson
    decodes to the replayed result's values, so the stored result's sorted bytes (what the
    full check hashes and compares) are the replayed result's, ``fresh``, and the seat rows
    compared with the one are compared with the other. The one number PostgreSQL writes so
    that it decodes to another type is a whole float orjson writes with an exponent (1e16,
    written back 10000000000000000, an int); its bytes are not what the settle entry hashed
    (``json`` writes 1e+16), so such a hand is never confirmed here. Anything else is left to
    the full check, which decides and words it."""
    pending: list[tuple[int, int, bytes]] = []  # hand, settlement, the replayed result
    for pk, hand in hands.items():
        fresh = _replayed(hand, chain_hands.get(pk))
        if fresh is not None:
            pending.append((pk, hand.first[0], fresh))  # type: ignore[index]
    if not pending:
        return set()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT v.id FROM unnest(%s::bigint[]) WITH ORDINALITY AS v(id, n) "
            "JOIN jsonb_array_elements(CAST(%s AS jsonb)) WITH ORDINALITY AS u(e, n) "
            f"ON u.n = v.n JOIN {connection.ops.quote_name(Settlement._meta.db_table)} s "
            "ON s.id = v.id WHERE CAST(s.result AS text) = CAST(u.e AS text)",
            [
                [settlement for _, settlement, _ in pending],
                (b"[" + b",".join(fresh for _, _, fresh in pending) + b"]").decode(),
            ],
        )
        matched = {settlement for (settlement,) in cursor.fetchall()}
    return {pk for pk, settlement, _ in pending if settlement in matched}


def _replayed(hand: QuickHand, chain_hand: Any) -> bytes | None:
    """The replayed result's sorted bytes, where everything but the stored result's text is
    confirmed (see :func:`hands_confirmed`); None where anything is not."""
    first = hand.first
    if (
        first is None
        or hand.count != 1
        or chain_hand is None
        or not chain_hand.opened
        or hand.status != SETTLED
        or len(chain_hand.settles) != 1
        or chain_hand.voids
        or chain_hand.corrections
        or not isinstance(chain_hand.setup, str)
        or sha256(orjson.dumps(hand.setup, option=SORT)).hexdigest() != chain_hand.setup
    ):
        return None
    pk, kind, _, rake, history_text, own, seats = first
    if kind != SETTLEMENT or own is not True:
        return None
    try:
        history = orjson.loads(history_text)
        if history["actions"] != chain_hand.actions:
            return None
        entry = chain_hand.settles[0]
        if entry.get("settlement") != pk or sha256(
            orjson.dumps(history, option=SORT)
        ).hexdigest() != entry.get("history_sha256"):
            return None
        replayed = History.from_dict(history)
        result = game(replayed.game).replay(replayed).settle().to_dict()
        fresh = orjson.dumps(result, option=SORT)
        if (
            sha256(fresh).hexdigest() != entry.get("result_sha256")
            or entry.get("nets") != result_nets(result)
            or entry.get("rake") != result.get("rake")
            or rake != result.get("rake")
            or not _rows_are(orjson.loads(seats) if seats is not None else [], result)
        ):
            return None
        return fresh
    except Exception:  # anything unusual: the full check decides (and words it)
        return None


def _rows_are(rows: list[list[Any]], result: dict[str, Any]) -> bool:
    """Whether the stored seat rows (in seat order) are the result's parties, with their
    lines, as ``audit._compare_rows`` compares them (no seat twice)."""
    parties = sorted(result_parties(result), key=itemgetter("seat"))
    if len(parties) != len(rows) or len({row[0] for row in rows}) != len(rows):
        return False
    for row, party in zip(rows, parties, strict=True):
        lines = party.get("lines", [])
        stored = row[6] or ()
        if (
            row[0] != party["seat"]
            or row[1] != party["role"]
            or row[2] != party["status"]
            or row[3] != (party.get("hand") or "")
            or row[4] != party["rake"]
            or row[5] != party["net"]
            or len(stored) != len(lines)
        ):
            return False
        for a, b in zip(stored, lines, strict=True):
            if tuple(a) != line_key(b):
                return False
    return True


def line_key(line: dict[str, Any]) -> tuple[Any, ...]:
    """A result's payout line as its stored row's fields (:data:`reads.LINE_FIELDS`)."""
    return (
        line.get("wager"),
        line.get("stake"),
        line.get("outcome"),
        line.get("amount"),
        line.get("odds") or "",
        line.get("against"),
        line.get("capped_from"),
    )
