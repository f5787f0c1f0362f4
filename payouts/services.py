"""Writes: storing settlements, appending to the audit log, running audit checks."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from casino.rules.games import GAMES
from casino.rules.settlement import Settlement as EngineSettlement

from .models import (
    AuditChainHead,
    AuditCheck,
    AuditEntry,
    PayoutLine,
    SeatSettlement,
    Settlement,
)

GENESIS_HASH = "0" * 64


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)


# The fields an entry's hash covers, in the order they are stored.
HASHED_FIELDS = (
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


def audit_entry_hash(fields: dict[str, Any]) -> str:
    """sha256 over an entry's hashed fields (``HASHED_FIELDS``), canonical JSON."""
    content = {name: fields[name] for name in HASHED_FIELDS}
    content["at"] = content["at"].isoformat()
    return hashlib.sha256(_canonical(content).encode()).hexdigest()


@transaction.atomic
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
    """Append one entry to the chain. Callers are inside their own transaction."""
    head, _ = AuditChainHead.objects.select_for_update().get_or_create(pk=1)
    fields = {
        "at": timezone.now(),
        "actor_id": actor.pk if actor is not None else None,
        "actor_name": actor.get_username() if actor is not None else "system",
        "action": action,
        "table_id": table.pk if table is not None else None,
        "hand_id": hand.pk if hand is not None else None,
        "subject": subject,
        # Round-trip through JSON so the hash covers exactly what the database stores.
        "before": json.loads(_canonical(before)) if before is not None else None,
        "after": json.loads(_canonical(after)) if after is not None else None,
        "prev_hash": head.last_hash,
    }
    entry = AuditEntry.objects.create(**fields, hash=audit_entry_hash(fields))
    head.last_hash = entry.hash
    head.save(update_fields=["last_hash"])
    return entry


def settlement_store(
    *, hand: Any, record: dict[str, Any], result: EngineSettlement, user: AbstractBaseUser
) -> Settlement:
    """Store a settlement with a row per seat and per payout line (inside the caller's
    transaction)."""
    data = result.to_dict()
    settlement = Settlement.objects.create(
        hand=hand,
        record=record,
        result=data,
        rake=result.rake,
        settled_by=user,
        settled_at=timezone.now(),
    )
    seat_rows = SeatSettlement.objects.bulk_create(
        SeatSettlement(
            settlement=settlement,
            seat=seat["seat"],
            role=seat["role"],
            status=seat["status"],
            hand_description=seat.get("hand") or "",
            rake=seat["rake"],
            net=seat["net"],
        )
        for seat in data["seats"]
    )
    if any(row.pk is None for row in seat_rows):  # backends that return no ids on insert
        seat_rows = list(settlement.seats.order_by("seat"))
    PayoutLine.objects.bulk_create(
        PayoutLine(
            seat=seat_row,
            wager=line["wager"],
            stake=line["stake"],
            outcome=line["outcome"],
            amount=line["amount"],
            odds=line.get("odds") or "",
            against=line.get("against"),
            capped_from=line.get("capped_from"),
        )
        for seat_row, seat in zip(seat_rows, data["seats"], strict=True)
        for line in seat["lines"]
    )
    return settlement


def _stored_lines(settlement: Settlement) -> dict[int, dict[str, Any]]:
    seats: dict[int, dict[str, Any]] = {}
    for seat in settlement.seats.all():
        seats[seat.seat] = {
            "rake": seat.rake,
            "net": seat.net,
            "status": seat.status,
            "lines": [
                (line.wager, line.stake, line.outcome, line.amount, line.against)
                for line in seat.lines.all()
            ],
        }
    return seats


def _result_lines(result: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {
        seat["seat"]: {
            "rake": seat["rake"],
            "net": seat["net"],
            "status": seat["status"],
            "lines": [
                (line["wager"], line["stake"], line["outcome"], line["amount"], line.get("against"))
                for line in seat["lines"]
            ],
        }
        for seat in result["seats"]
    }


def audit_verify_chain() -> dict[str, Any]:
    """Recompute every entry's hash in order; report the first break, if any."""
    prev = GENESIS_HASH
    count = 0
    for entry in AuditEntry.objects.order_by("id").iterator():
        expected = audit_entry_hash({name: getattr(entry, name) for name in HASHED_FIELDS})
        if entry.prev_hash != prev or entry.hash != expected:
            return {
                "ok": False,
                "entries_checked": count,
                "broken_at": entry.pk,
                "problem": f"audit entry {entry.pk} ({entry.action}, {entry.subject}) "
                "does not match its hash chain",
            }
        prev = entry.hash
        count += 1
    head = AuditChainHead.objects.filter(pk=1).first()
    if head is not None and head.last_hash != prev:
        return {
            "ok": False,
            "entries_checked": count,
            "broken_at": None,
            "problem": "the newest audit entries are missing: the chain ends before its head",
        }
    return {"ok": True, "entries_checked": count, "broken_at": None, "problem": None}


def settlements_recheck() -> dict[str, Any]:
    """Re-settle every stored hand through its engine and compare with what is stored."""
    mismatches: list[dict[str, Any]] = []
    checked = 0
    queryset = Settlement.objects.select_related("hand__table").prefetch_related("seats__lines")
    for settlement in queryset.order_by("id").iterator(chunk_size=200):
        checked += 1
        hand = settlement.hand
        where = {
            "settlement": settlement.pk,
            "hand": hand.pk,
            "table": hand.table.name,
            "hand_number": hand.number,
        }
        try:
            recomputed = GAMES[hand.game].evaluate(settlement.record, hand.rules).to_dict()
        except Exception as exc:  # a stored record the engine now refuses is a finding
            mismatches.append({**where, "problem": f"re-settling failed: {exc}"})
            continue
        if recomputed != settlement.result:
            keys = sorted(
                k
                for k in recomputed.keys() | settlement.result.keys()
                if recomputed.get(k) != settlement.result.get(k)
            )
            mismatches.append(
                {**where, "problem": "stored result differs from the engine's", "fields": keys}
            )
        elif _stored_lines(settlement) != _result_lines(recomputed):
            mismatches.append({**where, "problem": "stored payout lines differ from the result"})
        elif settlement.rake != recomputed["rake"]:
            mismatches.append({**where, "problem": "stored rake differs from the result"})
    return {"settlements_checked": checked, "mismatches": mismatches}


def audit_check_run(*, check_id: int) -> AuditCheck:
    """Verify the chain and re-settle every stored hand; store the report on the check."""
    check = AuditCheck.objects.get(pk=check_id)
    chain = audit_verify_chain()
    resettle = settlements_recheck()
    check.report = {"chain": chain, **resettle}
    check.status = (
        AuditCheck.Status.PASSED
        if chain["ok"] and not resettle["mismatches"]
        else AuditCheck.Status.FAILED
    )
    check.finished_at = timezone.now()
    check.save(update_fields=["report", "status", "finished_at"])
    return check


@transaction.atomic
def audit_check_request(*, user: AbstractBaseUser | None) -> AuditCheck:
    """Create a pending check and queue the task once the row is committed."""
    from .tasks import audit_check_task

    check = AuditCheck.objects.create(requested_by=user)
    transaction.on_commit(lambda: audit_check_task.delay(check.pk))
    return check
