"""Deciding what waits for a second person.

A request is made where its subject lives (a limit change or a void in ``tables.services``);
here a floor manager other than the requester approves or rejects it, or the requester
withdraws it. Each kind says what approving and closing it do to its subject; the decision,
the subject's change and their audit entries land in one transaction.

A large-payout sign-off is approved by signatures (``payouts/signoff.py``): each is one
person's, with a role the request's tiers ask for, audited in the table's chain; the one that
completes the tiers stores the settlement. A signature is refused while a record the payout
needs (a W-2G, an MTL entry, a CTR: ``filings``) is missing; the signer may enter them with
it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from casino.core.errors import ApplicationError, Conflict, Forbidden, NotFound
from casino.core.roles import SIGNING_ROLES, user_roles
from casino.core.transactions import atomic_service
from casino.rules.errors import Problem
from filings import services as filings
from payouts.services import audit_append
from payouts.signoff import Signer, assign, still_needed
from tables import services as tables
from tables.models import Hand, TableChange

from .models import Approval, Signature
from .selectors import request_tiers


@dataclass(frozen=True)
class Kind:
    """What approving a request does (True: it is decided; False: it waits for more, as a
    payout waits for its next signature), and what rejecting or withdrawing it does."""

    approve: Callable[[Any, Approval, str], bool]
    close: Callable[[Any, Approval, str, str], None]


def _approve_change(user: Any, approval: Approval, note: str) -> bool:
    tables.change_apply(user=user, change=approval.change, note=note)  # type: ignore[arg-type]
    return True


def _close_change(user: Any, approval: Approval, status: str, note: str) -> None:
    tables.change_close(user=user, change=approval.change, status=status, note=note)  # type: ignore[arg-type]


def _approve_void(user: Any, approval: Approval, note: str) -> bool:
    tables.hand_void(user=user, approval=approval)
    return True


def _approve_payout(user: Any, approval: Approval, note: str) -> bool:
    """One signature; the last one the tiers need stores the settlement."""
    if not payout_sign(user, approval, note):
        return False
    settlement = tables.settle_signed_off(user=user, approval=approval)
    filings.records_stored(approval=approval, settlement=settlement)
    return True


def _approve_correction(user: Any, approval: Approval, note: str) -> bool:
    tables.correction_apply(user=user, approval=approval)
    return True


# ---------------------------------------------------------------- payout signatures


def signers_of(approval: Approval) -> list[Signer]:
    return [
        Signer(s.signed_by_id, frozenset(s.roles))
        for s in approval.signatures.all()  # in signing order
    ]


def _refuse_missing(approval: Approval) -> None:
    missing = filings.missing_records(approval)
    if missing:
        raise ApplicationError(
            "not signed: first enter " + "; ".join(missing),
            problems=[Problem("records", f"not signed: first enter {word}") for word in missing],
        )


def payout_sign(user: Any, approval: Approval, note: str) -> bool:
    """``user`` signs the payout request (locked by the caller); True when every tier it
    reaches is signed. Refused: a second signature by the same person, a signature that no
    tier still missing can count (the wrong role), a request whose records are missing."""
    if approval.signatures.filter(signed_by=user).exists():
        raise Conflict(
            f"you already signed {approval.get_kind_display()} {approval.pk}; each signature "
            "is a different person's"
        )
    tiers = request_tiers(approval)
    signers = signers_of(approval)
    roles = frozenset(user_roles(user))
    mine = Signer(user.pk, roles)
    counted = assign(tiers, [*signers, mine])
    if len(signers) not in counted:  # a maximum matching with it leaves it out
        missing = still_needed(tiers, signers)
        asked = ", ".join(tier.who for tier in missing) or "nobody"
        held = ", ".join(SIGNING_ROLES[r] for r in sorted(roles) if r in SIGNING_ROLES)
        raise Forbidden(
            f"your signature cannot count: what is still needed is {asked} (you are "
            f"{held or 'no signing role'})"
        )
    _refuse_missing(approval)
    tier = counted[len(signers)]
    signature = Signature.objects.create(
        approval=approval,
        signed_by=user,
        roles=sorted(roles),
        tier=tier,
        note=note,
    )
    left = still_needed(tiers, [*signers, mine])
    needed = sum(t.count for t in tiers)
    audit_append(
        actor=user,
        action="hand_settle_signed",
        subject=f"hand:{approval.hand_id}",
        table=approval.table,
        hand=approval.hand,
        after={
            "approval": approval.pk,
            "signature": signature.pk,
            "tier": tier + 1,
            "role": tiers[tier].role,
            "signed": needed - sum(t.count for t in left),
            "needed": needed,
            "note": note,
        },
    )
    return not left


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


def _approve_variance(user: Any, approval: Approval, note: str) -> bool:
    from custody.services import variance_reviewed

    variance_reviewed(user, approval, Approval.Status.APPROVED, note)
    return True


def _close_variance(user: Any, approval: Approval, status: str, note: str) -> None:
    from custody.services import variance_reviewed

    variance_reviewed(user, approval, status, note)


KINDS: dict[str, Kind] = {
    Approval.Kind.LIMIT_CHANGE: Kind(_approve_change, _close_change),
    Approval.Kind.VOID: Kind(_approve_void, _closed_on_hand("hand_void")),
    Approval.Kind.PAYOUT: Kind(_approve_payout, _closed_on_hand("hand_settle")),
    Approval.Kind.CORRECTION: Kind(_approve_correction, _closed_on_hand("hand_correction")),
    # A closer beyond its report line: reviewed (approved) or sent back for investigation.
    Approval.Kind.VARIANCE: Kind(_approve_variance, _close_variance),
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
    *,
    user: AbstractBaseUser,
    approval_id: int,
    approve: bool,
    note: str = "",
    patrons: dict[str, Any] | None = None,
    ctr: list[Any] | None = None,
) -> Approval:
    """A floor manager approves or rejects someone else's request. A payout is approved by
    signatures: this one is recorded, and the settlement stored once the tiers are signed
    (the request stays pending until then). ``patrons`` and ``ctr`` enter a payout's
    records first (:func:`filings.services.records_enter`)."""
    approval = _lock_pending(approval_id)
    _refuse_own(user, approval)
    kind = KINDS[approval.kind]
    if not approve and approval.kind == Approval.Kind.PAYOUT and not note.strip():
        raise ApplicationError(
            "a payout is sent back with a reason (the note), for the dealer to correct",
            path="note",
        )
    if patrons or ctr:
        if not approve:
            raise ApplicationError("records are entered to sign, not to send back", path="patrons")
        filings.records_enter(user=user, approval=approval, patrons=patrons, ctr=ctr)
    if approve:
        if not kind.approve(user, approval, note):
            return approval
        return _close(approval, Approval.Status.APPROVED, user, note)
    kind.close(user, approval, Approval.Status.REJECTED, note)
    return _close(approval, Approval.Status.REJECTED, user, note)


def _refuse_own(user: Any, approval: Approval) -> None:
    if approval.kind == Approval.Kind.VARIANCE:
        from custody.models import Signature as CustodySignature

        signed = CustodySignature.objects.filter(
            inventory_id=approval.detail.get("inventory"), signed_by=user
        ).exists()
        if signed or approval.requested_by_id == user.pk:
            raise Forbidden(
                f"you signed this closer ({approval.get_kind_display()} {approval.pk}): its "
                "variance is reviewed by a floor manager who did not count or sign it"
            )
        return
    if approval.requested_by_id == user.pk:
        if approval.kind == Approval.Kind.PAYOUT:
            raise Forbidden(
                f"you asked for this sign-off ({approval.get_kind_display()} {approval.pk}): "
                "the signatures are other people's"
            )
        raise Forbidden(
            f"a floor manager cannot decide their own request ({approval.get_kind_display()} "
            f"{approval.pk}); another floor manager decides it"
        )


@atomic_service
def payout_records(
    *,
    user: AbstractBaseUser,
    approval_id: int,
    patrons: dict[str, Any] | None = None,
    ctr: list[Any] | None = None,
) -> Approval:
    """Enter a held payout's records without signing (a floor manager other than the one
    who asked)."""
    approval = _lock_pending(approval_id)
    _refuse_own(user, approval)
    filings.records_enter(user=user, approval=approval, patrons=patrons, ctr=ctr)
    return approval


@atomic_service
def approval_withdraw(*, user: AbstractBaseUser, approval_id: int, note: str = "") -> Approval:
    """Whoever asked takes the request back; nothing it asked for happens."""
    approval = _lock_pending(approval_id)
    if approval.kind == Approval.Kind.VARIANCE:
        raise Conflict(
            f"a closer's variance is reviewed, not withdrawn ({approval.get_kind_display()} "
            f"{approval.pk}): another floor manager accepts it or sends it back"
        )
    if approval.requested_by_id != user.pk:
        raise Forbidden(
            f"only {approval.requested_by.get_username()}, who asked, can withdraw "
            f"{approval.get_kind_display()} {approval.pk}"
        )
    KINDS[approval.kind].close(user, approval, Approval.Status.WITHDRAWN, note)
    return _close(approval, Approval.Status.WITHDRAWN, user, note)


def change_decide(
    *,
    user: AbstractBaseUser,
    change_id: int,
    approve: bool,
    note: str = "",
    patrons: dict[str, Any] | None = None,
    ctr: list[Any] | None = None,
) -> TableChange:
    """Decide a limit or rule change by its own number (``/changes/{id}/approve/``; a
    payout's records, ``patrons`` and ``ctr``, are refused here)."""
    approval = Approval.objects.filter(change_id=change_id).only("pk").first()
    if approval is None:
        raise NotFound(f"change request {change_id} does not exist")
    decided = approval_decide(
        user=user, approval_id=approval.pk, approve=approve, note=note, patrons=patrons, ctr=ctr
    )
    assert decided.change is not None
    return decided.change
