"""Writes: storing settlements, appending to the audit chain, running audit checks.

A settlement is bound into the audit chain: the ``hand_settle`` entry carries a hash of the
hand's history (its game, frozen rules and set-up, and its actions) and a hash of the result, next to the nets and the rake. The audit check (``audit.py``) holds the
stored rows to those hashes, so rewriting a settlement consistently in SQL is still found.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from casino.rules.settlement import Settlement as EngineSettlement

from .chain import anchor_write, audit_append, digest
from .models import AuditCheck, PayoutLine, SeatSettlement, Settlement

__all__ = [
    "audit_append",
    "audit_check_request",
    "audit_check_run",
    "hand_setup_digest",
    "settlement_binding",
    "settlement_store",
]


def hand_setup_digest(hand: Any) -> str:
    """What a hand froze when it opened, as one hash (in its ``hand_open`` audit entry)."""
    return digest(
        {
            "game": hand.game,
            "number": hand.number,
            "rules": hand.rules,
            "config": hand.config,
            "seats": hand.seats,
        }
    )


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
    transaction)."""
    data = result if isinstance(result, dict) else result.to_dict()
    parties = result_parties(data)
    settlement = Settlement.objects.create(
        hand=hand,
        kind=kind,
        corrects=corrects,
        history=history,
        result=data,
        rake=data["rake"],
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
        for seat in parties
    )
    if any(row.pk is None for row in seat_rows):  # backends that return no ids on insert
        seat_rows = list(settlement.seats.order_by("id"))
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
        for seat_row, seat in zip(seat_rows, parties, strict=True)
        for line in seat["lines"]
    )
    return settlement


def reversed_result(result: dict[str, Any], settlement_id: int) -> dict[str, Any]:
    """A stored result with every chip moving back: each party's net and rake, each line's
    stake, amount and capped amount, and the rake, negated (still summing to zero)."""

    def party(seat: dict[str, Any]) -> dict[str, Any]:
        lines = []
        for line in seat["lines"]:
            moved = {**line, "stake": -line["stake"], "amount": -line["amount"]}
            if line.get("capped_from") is not None:
                moved["capped_from"] = -line["capped_from"]
            lines.append(moved)
        return {**seat, "net": -seat["net"], "rake": -seat["rake"], "lines": lines}

    reversed_ = {
        **result,
        "seats": [party(seat) for seat in result["seats"]],
        "rake": -result["rake"],
        "explanation": [f"reversal of settlement {settlement_id}: every amount moves back"],
    }
    if isinstance(result.get("house"), dict):
        reversed_["house"] = party(result["house"])
    return reversed_


def audit_check_run(*, check_id: int) -> AuditCheck:
    """Verify the chain, its anchors and every hand; store the report on the check, record
    the check in the chain, and anchor the head once a check has passed."""
    from .audit import Progress, audit_report

    check = AuditCheck.objects.select_related("requested_by").get(pk=check_id)
    report = audit_report(Progress(check_id))  # how far it got, on the check's row
    check.report = report
    check.status = AuditCheck.Status.PASSED if report["ok"] else AuditCheck.Status.FAILED
    check.finished_at = timezone.now()
    with transaction.atomic():
        check.save(update_fields=["report", "status", "finished_at"])
        audit_append(
            actor=check.requested_by,
            action="audit_check",
            subject=f"audit_check:{check.pk}",
            after={
                "status": check.status,
                "entries_checked": report["chain"]["entries_checked"],
                "hands_checked": report["hands_checked"],
                "findings": report["findings_total"],
            },
        )
    if report["ok"]:
        anchor_write()
    return check


@transaction.atomic
def audit_check_request(*, user: AbstractBaseUser | None) -> AuditCheck:
    """Create a pending check and queue the task once the row is committed."""
    from .tasks import audit_check_task

    check = AuditCheck.objects.create(requested_by=user)
    transaction.on_commit(lambda: audit_check_task.delay(check.pk))
    return check
