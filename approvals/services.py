"""Deciding what waits for a second person.

A request is made where its subject lives (a limit change or a void in ``tables.services``);
here a floor manager other than the requester approves or rejects it, or the requester
withdraws it. Each kind says what approving and closing it do to its subject; the decision,
the subject's change and their audit entries land in one transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from casino.core.errors import ApplicationError, Conflict, Forbidden, NotFound
from casino.core.transactions import atomic_service
from payouts.services import audit_append
from tables import services as tables
from tables.models import Hand, TableChange

from .models import Approval


@dataclass(frozen=True)
class Kind:
    """What approving a request does, and what rejecting or withdrawing it does."""

    approve: Callable[[Any, Approval, str], None]
    close: Callable[[Any, Approval, str, str], None]


def _approve_change(user: Any, approval: Approval, note: str) -> None:
    tables.change_apply(user=user, change=approval.change, note=note)  # type: ignore[arg-type]


def _close_change(user: Any, approval: Approval, status: str, note: str) -> None:
    tables.change_close(user=user, change=approval.change, status=status, note=note)  # type: ignore[arg-type]


def _approve_void(user: Any, approval: Approval, note: str) -> None:
    tables.hand_void(user=user, approval=approval)


def _approve_payout(user: Any, approval: Approval, note: str) -> None:
    tables.settle_signed_off(user=user, approval=approval)


def _approve_correction(user: Any, approval: Approval, note: str) -> None:
    tables.correction_apply(user=user, approval=approval)


def _closed_on_hand(action: str) -> Callable[[Any, Approval, str, str], None]:
    """Closing a request on a hand changes nothing on it: the hand goes on (a payout sent back
    is settled again, corrected or as it was); the decision is audited on the hand."""

    def close(user: Any, approval: Approval, status: str, note: str) -> None:
        hand = approval.hand
        assert hand is not None
        audit_append(
            actor=user,
            action=f"{action}_{status}",
            subject=f"hand:{hand.pk}",
            table=approval.table,
            hand=hand,
            after={"approval": approval.pk, "reason": approval.reason, "note": note},
        )

    return close


KINDS: dict[str, Kind] = {
    Approval.Kind.LIMIT_CHANGE: Kind(_approve_change, _close_change),
    Approval.Kind.VOID: Kind(_approve_void, _closed_on_hand("hand_void")),
    Approval.Kind.PAYOUT: Kind(_approve_payout, _closed_on_hand("hand_settle")),
    Approval.Kind.CORRECTION: Kind(_approve_correction, _closed_on_hand("hand_correction")),
}


def _lock_pending(approval_id: int) -> Approval:
    approval = (
        Approval.objects.select_for_update(of=("self",))
        .select_related("table", "hand", "change", "requested_by")
        .filter(pk=approval_id)
        .first()
    )
    if approval is None:
        raise NotFound(f"approval {approval_id} does not exist")
    if approval.status != Approval.Status.PENDING:
        raise Conflict(f"{approval.get_kind_display()} {approval.pk} was already {approval.status}")
    return approval


def _close(approval: Approval, status: str, user: Any, note: str) -> Approval:
    """The request decided or withdrawn; a hand it held goes on (``Hand.held``)."""
    approval.status = status
    approval.decided_by = user
    approval.decided_at = timezone.now()
    approval.note = note
    approval.save(update_fields=["status", "decided_by", "decided_at", "note"])
    if approval.hand_id is not None:
        Hand.objects.filter(pk=approval.hand_id).update(held=False)
    return approval


@atomic_service
def approval_decide(
    *, user: AbstractBaseUser, approval_id: int, approve: bool, note: str = ""
) -> Approval:
    """A floor manager approves or rejects someone else's request."""
    approval = _lock_pending(approval_id)
    if approval.requested_by_id == user.pk:
        raise Forbidden(
            f"a floor manager cannot decide their own request ({approval.get_kind_display()} "
            f"{approval.pk}); another floor manager decides it"
        )
    kind = KINDS[approval.kind]
    if not approve and approval.kind == Approval.Kind.PAYOUT and not note.strip():
        raise ApplicationError(
            "a payout is sent back with a reason (the note), for the dealer to correct",
            path="note",
        )
    if approve:
        kind.approve(user, approval, note)
        return _close(approval, Approval.Status.APPROVED, user, note)
    kind.close(user, approval, Approval.Status.REJECTED, note)
    return _close(approval, Approval.Status.REJECTED, user, note)


@atomic_service
def approval_withdraw(*, user: AbstractBaseUser, approval_id: int, note: str = "") -> Approval:
    """Whoever asked takes the request back; nothing it asked for happens."""
    approval = _lock_pending(approval_id)
    if approval.requested_by_id != user.pk:
        raise Forbidden(
            f"only {approval.requested_by.get_username()}, who asked, can withdraw "
            f"{approval.get_kind_display()} {approval.pk}"
        )
    KINDS[approval.kind].close(user, approval, Approval.Status.WITHDRAWN, note)
    return _close(approval, Approval.Status.WITHDRAWN, user, note)


def change_decide(
    *, user: AbstractBaseUser, change_id: int, approve: bool, note: str = ""
) -> TableChange:
    """Decide a limit or rule change by its own number (``/changes/{id}/approve/``)."""
    approval = Approval.objects.filter(change_id=change_id).only("pk").first()
    if approval is None:
        raise NotFound(f"change request {change_id} does not exist")
    decided = approval_decide(user=user, approval_id=approval.pk, approve=approve, note=note)
    assert decided.change is not None
    return decided.change
