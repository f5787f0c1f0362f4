"""Writes: storing settlements, appending to the audit chain, running audit checks.

A settlement is bound into the audit chain: the ``hand_settle`` entry carries a hash of the
hand's history (its game, frozen rules and set-up, and its actions) and a hash of the result, next to the nets and the rake. The audit check (``audit.py``) holds the
stored rows to those hashes, so rewriting a settlement consistently in SQL is still found.
"""

from __future__ import annotations

import hashlib
from functools import cache
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.utils import timezone

from casino.audit_verify.formats import reversed_result
from casino.core.transactions import atomic_service
from casino.rules.settlement import Settlement as EngineSettlement

from .chain import audit_append, digest, stored_text
from .models import AuditCheck, AuditCheckChunk, PayoutLine, SeatSettlement, Settlement
from .rows import bound_cursor, on_postgresql

__all__ = [
    "audit_append",
    "audit_check_request",
    "audit_check_run",
    "hand_setup",
    "hand_setup_digest",
    "reversed_result",
    "settlement_binding",
    "settlement_store",
]


def hand_setup(hand: Any) -> dict[str, Any]:
    """What a hand froze when it opened."""
    return {
        "game": hand.game,
        "number": hand.number,
        "rules": hand.rules,
        "config": hand.config,
        "seats": hand.seats,
    }


def hand_setup_digest(hand: Any) -> str:
    """What a hand froze when it opened, as one hash (in its ``hand_open`` audit entry)."""
    return digest(hand_setup(hand))


def settlement_binding(*, history: dict[str, Any], result: dict[str, Any]) -> dict[str, str]:
    """The hashes a ``hand_settle`` entry carries: the hand's history (game, rules, set-up
    and actions) and the result."""
    return {"history_sha256": digest(history), "result_sha256": digest(result)}


def result_parties(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Every party of a stored result (``Settlement.to_dict()``): the seats, and the house
    (seat 0) where it banks."""
    house = result.get("house")
    return [*(result.get("seats") or []), *([house] if isinstance(house, dict) else [])]


def result_nets(result: dict[str, Any]) -> dict[str, int]:
    """Each party's net of a stored result, by seat (as text, as JSON keeps it)."""
    return {str(party["seat"]): party["net"] for party in result_parties(result)}


def settlement_store(
    *,
    hand: Any,
    history: dict[str, Any],
    result: EngineSettlement | dict[str, Any],
    user: AbstractBaseUser,
    kind: str = Settlement.Kind.SETTLEMENT,
    corrects: Settlement | None = None,
) -> Settlement:
    """Store a settlement (or a correction's reversal or corrected settlement) with a row per
    party (each seat, and the house where it banks) and per payout line (inside the caller's
    transaction).

    The settlement's ``binding`` (an attribute of the instance answered, not a column) holds
    what a ``hand_settle`` entry states of it (:func:`settlement_binding`), hashed over the
    same texts that were stored. On PostgreSQL the three tables' rows go in one statement
    (:data:`_STORE`), the history and result as their stored text."""
    data = result if isinstance(result, dict) else result.to_dict()
    parties = result_parties(data)
    history_text, result_text = stored_text(history), stored_text(data)
    settlement = Settlement(
        hand=hand,
        kind=kind,
        corrects=corrects,
        history=history,
        result=data,
        rake=data["rake"],
        settled_by=user,
        settled_at=timezone.now(),
    )
    if on_postgresql():
        _store_raw(settlement, history_text, result_text, parties)
    else:
        _store_orm(settlement, parties)
    settlement.binding = {  # type: ignore[attr-defined]
        "history_sha256": hashlib.sha256(history_text.encode()).hexdigest(),
        "result_sha256": hashlib.sha256(result_text.encode()).hexdigest(),
    }
    return settlement


def _seat_values(seat: dict[str, Any]) -> tuple[Any, ...]:
    return (
        seat["seat"],
        seat["role"],
        seat["status"],
        seat.get("hand") or "",
        seat["rake"],
        seat["net"],
    )


def _line_values(line: dict[str, Any]) -> tuple[Any, ...]:
    return (
        line["wager"],
        line["stake"],
        line["outcome"],
        line["amount"],
        line.get("odds") or "",
        line.get("against"),
        line.get("capped_from"),
    )


_SEAT_FIELDS = ("seat", "role", "status", "hand_description", "rake", "net")
_LINE_FIELDS = ("wager", "stake", "outcome", "amount", "odds", "against", "capped_from")


def _store_orm(settlement: Settlement, parties: list[dict[str, Any]]) -> None:
    settlement.save(force_insert=True)
    seat_rows = SeatSettlement.objects.bulk_create(
        SeatSettlement(
            settlement=settlement, **dict(zip(_SEAT_FIELDS, _seat_values(seat), strict=True))
        )
        for seat in parties
    )
    if any(row.pk is None for row in seat_rows):  # backends that return no ids on insert
        seat_rows = list(settlement.seats.order_by("id"))
    PayoutLine.objects.bulk_create(
        PayoutLine(seat=seat_row, **dict(zip(_LINE_FIELDS, _line_values(line), strict=True)))
        for seat_row, seat in zip(seat_rows, parties, strict=True)
        for line in seat["lines"]
    )


def _columns(model: type[Any], names: tuple[str, ...]) -> tuple[str, str]:
    """Quoted column names and ``%b::type[]`` arrays for ``names`` of ``model``."""
    quote = connection.ops.quote_name
    fields = [model._meta.get_field(name) for name in names]
    return (
        ", ".join(quote(field.column) for field in fields),
        ", ".join(f"%b::{field.db_type(connection)}[]" for field in fields),
    )


@cache
def _store_sql() -> str:
    """The settlement, its parties' rows and their payout lines in one statement: the
    parties joined to their lines by seat number (one row per seat and settlement), the
    lines inserted in their order (``ORDER BY`` their place: a seat's lines read by id)."""
    seat_columns, seat_arrays = _columns(SeatSettlement, _SEAT_FIELDS)
    line_columns, line_arrays = _columns(PayoutLine, _LINE_FIELDS)
    seat_names = ", ".join(f"s{index}" for index in range(len(_SEAT_FIELDS)))
    line_names = ", ".join(f"l{index}" for index in range(len(_LINE_FIELDS)))
    return (
        'WITH made AS (INSERT INTO "payouts_settlement" ("hand_id", "kind", "corrects_id", '
        '"history", "result", "rake", "settled_by_id", "settled_at") VALUES (%b, %b, %b, '
        "(%b::text)::jsonb, (%b::text)::jsonb, %b, %b, %b) RETURNING id), "
        f'parties AS (INSERT INTO "payouts_seatsettlement" ("settlement_id", {seat_columns}) '
        f"SELECT made.id, {seat_names} FROM made, unnest({seat_arrays}) AS r({seat_names}) "
        'RETURNING "id", "seat"), '
        f'lines AS (INSERT INTO "payouts_payoutline" ("seat_id", {line_columns}) '
        f"SELECT parties.id, {line_names} FROM unnest(%b::smallint[], {line_arrays}) "
        f"WITH ORDINALITY AS l(party, {line_names}, place) "
        "JOIN parties ON parties.seat = l.party ORDER BY l.place RETURNING 1) "
        "SELECT id, (SELECT count(*) FROM parties), (SELECT count(*) FROM lines) FROM made"
    )


def _store_raw(
    settlement: Settlement, history: str, result: str, parties: list[dict[str, Any]]
) -> None:
    seats = [_seat_values(seat) for seat in parties]
    lines = [(seat["seat"], *_line_values(line)) for seat in parties for line in seat["lines"]]
    seat_columns = [list(column) for column in zip(*seats, strict=True)] or [
        [] for _ in _SEAT_FIELDS
    ]
    line_columns = [list(column) for column in zip(*lines, strict=True)] or [
        [] for _ in range(len(_LINE_FIELDS) + 1)
    ]
    params = [
        settlement.hand_id,
        settlement.kind,
        settlement.corrects_id,
        history,
        result,
        settlement.rake,
        settlement.settled_by_id,
        settlement.settled_at,
        *seat_columns,
        *line_columns,
    ]
    with bound_cursor() as cursor:
        cursor.execute(_store_sql(), params)
        settlement_id, seat_count, line_count = cursor.fetchone()
    if (seat_count, line_count) != (len(seats), len(lines)):  # a party's lines lost: never
        raise RuntimeError(
            f"settlement {settlement_id}: {seat_count} of {len(seats)} parties and "
            f"{line_count} of {len(lines)} payout lines stored"
        )
    settlement.pk = settlement_id
    settlement._state.adding = False
    settlement._state.db = connection.alias


def audit_check_run(*, check_id: int) -> AuditCheck:
    """Divide a queued check into chunks and queue them for the workers (``audit_chunk_run``
    each); a check already divided has the chunks it has not finished queued again (a
    worker lost, a broker restarted: the check resumes). The last chunk done finishes it."""
    from .audit_plan import check_plan
    from .tasks import audit_chunk_task

    with transaction.atomic():
        check = AuditCheck.objects.select_for_update().get(pk=check_id)
        if check.stage == AuditCheck.Stage.DONE:
            return check
        if check.stage == AuditCheck.Stage.QUEUED:
            check.stage = AuditCheck.Stage.PLANNING
            check.save(update_fields=["stage"])
    if check.stage == AuditCheck.Stage.PLANNING:
        plan = check_plan(full=check.full)
        with transaction.atomic():
            AuditCheckChunk.objects.filter(audit_check=check).delete()  # a plan cut short
            AuditCheckChunk.objects.bulk_create(
                AuditCheckChunk(
                    audit_check=check,
                    table_id=chunk.table_id,
                    after_seq=chunk.after_seq,
                    after_hash=chunk.after_hash,
                    through_seq=chunk.through_seq,
                    last=chunk.last,
                    anchored=chunk.anchored,
                    work=chunk.work(),
                )
                for chunk in plan.chunks
            )
            check.plan = plan.to_dict()
            check.total = plan.total + plan.hands
            check.stage = AuditCheck.Stage.CHECKING
            check.save(update_fields=["plan", "total", "stage"])
    waiting = list(
        AuditCheckChunk.objects.filter(audit_check=check, done=False).values_list("pk", flat=True)
    )
    if not waiting:
        _check_finish(check.pk)
    for chunk_id in waiting:
        transaction.on_commit(lambda chunk_id=chunk_id: audit_chunk_task.delay(chunk_id))
    check.refresh_from_db()
    return check


def audit_chunk_run(*, chunk_id: int) -> None:
    """Check one chunk (once), then finish the check if it was the last."""
    from .audit import Progress, chunk_check
    from .audit_plan import Chunk

    row = AuditCheckChunk.objects.select_related("audit_check").get(pk=chunk_id)
    if row.done:
        return
    result = chunk_check(Chunk.of_row(row, row.audit_check.plan), Progress(row.audit_check_id))
    with transaction.atomic():
        AuditCheckChunk.objects.filter(pk=row.pk).update(done=True, result=result)
    _check_finish(row.audit_check_id)


def verdict(check: AuditCheck) -> dict[str, Any]:
    """What a finished check's sealed ``audit_check`` entry (house chain) says: its status,
    whether the stored report is the one it sealed, and the entry. The API and the desk show
    this verdict; a row changed behind it shows as not matching its seal."""
    from .chain import seal_matches
    from .models import AuditEntry

    if check.stage != AuditCheck.Stage.DONE:
        return {"status": check.status, "sealed": None, "problem": None}
    entry = (
        AuditEntry.objects.filter(
            table__isnull=True, action="audit_check", subject=f"audit_check:{check.pk}"
        )
        .values(*AuditEntry.SEALED_FIELDS, "hash")
        .first()
    )
    if entry is None or not seal_matches(entry, entry["hash"]):
        problem = (
            "the check has no sealed verdict in the audit log"
            if entry is None
            else f"audit entry {entry['seq']} of the house chain, its verdict, does not match its seal"
        )
        return {"status": "unsealed", "sealed": None, "problem": problem}
    after = entry["after"] or {}
    sealed = {"entry": entry["seq"], "status": after.get("status"), "at": entry["at"]}
    stated = after.get("report_sha256")
    if after.get("status") != check.status or (stated and stated != digest(check.report)):
        return {
            "status": after.get("status"),
            "sealed": sealed,
            "problem": f"the stored verdict or report differs from what audit entry "
            f"{entry['seq']} of the house chain sealed: it was changed after the check",
        }
    return {"status": check.status, "sealed": sealed, "problem": None}


def _check_finish(check_id: int) -> None:
    """Once every chunk is done: the report, the verdict sealed in the house chain, and (a
    passed check) a signed checkpoint of what it verified, where the next incremental check
    starts."""
    from .audit import report_combine, verified_statement
    from .audit_plan import Chunk
    from .checkpoints import checkpoint_write

    with transaction.atomic():
        check = (
            AuditCheck.objects.select_for_update(of=("self",))
            .select_related("requested_by")
            .get(pk=check_id)
        )
        if check.stage == AuditCheck.Stage.DONE or check.chunks.filter(done=False).exists():
            return
        rows = list(check.chunks.order_by("id"))
        report = report_combine(check.plan, [(Chunk.of_row(r, check.plan), r.result) for r in rows])
        check.report = report
        check.status = AuditCheck.Status.PASSED if report["ok"] else AuditCheck.Status.FAILED
        check.finished_at = timezone.now()
        check.stage = AuditCheck.Stage.DONE
        check.total = check.checked = max(check.total, check.checked)
        check.save(update_fields=["report", "status", "finished_at", "stage", "total", "checked"])
        audit_append(
            actor=check.requested_by,
            action="audit_check",
            subject=f"audit_check:{check.pk}",
            after={
                "status": check.status,
                "full": report["full"],
                "entries_checked": report["chain"]["entries_checked"],
                "hands_checked": report["hands_checked"],
                "findings": report["findings_total"],
                "report_sha256": digest(report),
            },
        )
    if report["ok"]:
        checkpoint_write(verified_statement(check.pk, check.plan, report))


@atomic_service
def audit_check_request(*, user: AbstractBaseUser | None, full: bool = False) -> AuditCheck:
    """Create a pending check (incremental unless ``full``) and queue the task once the row
    is committed."""
    from .tasks import audit_check_task

    check = AuditCheck.objects.create(requested_by=user, full=full)
    transaction.on_commit(lambda: audit_check_task.delay(check.pk))
    return check
