"""Reading the approvals queue."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from filings.services import SeatRecords, records_of
from payouts.signoff import Signer, Tier, assign, tiers_of

from .models import Approval, Signature


def approval_list(
    *,
    kind: str | None = None,
    status: str | None = None,
    table_id: int | None = None,
    hand_id: int | None = None,
) -> QuerySet[Approval]:
    """The queue, newest first, narrowed by whichever filters are given."""
    queryset = Approval.objects.select_related("table", "hand", "requested_by", "decided_by")
    if kind:
        queryset = queryset.filter(kind=kind)
    if status:
        queryset = queryset.filter(status=status)
    if table_id is not None:
        queryset = queryset.filter(table_id=table_id)
    if hand_id is not None:
        queryset = queryset.filter(hand_id=hand_id)
    return queryset


# ---------------------------------------------------------------- a payout's sign-off


@dataclass(frozen=True)
class TierStatus:
    """One tier of a payout request: who it asks for, and who signed for it."""

    number: int  # 1, 2, ...
    tier: Tier
    signed_by: list[Signature]

    @property
    def missing(self) -> int:
        return max(self.tier.count - len(self.signed_by), 0)


@dataclass
class SignoffStatus:
    """Where a payout request stands: each tier's signatures, the records, the notice."""

    approval: Approval
    tiers: list[TierStatus]
    signatures: list[Signature]
    records: list[SeatRecords]
    reached: int  # how many tiers the win reaches (0: only a prompt holds it)
    win: int
    notice: bool
    notice_line: int | None
    prompts: dict[str, int]

    @property
    def needed(self) -> int:
        return sum(t.tier.count for t in self.tiers)

    @property
    def signed(self) -> int:
        return sum(min(len(t.signed_by), t.tier.count) for t in self.tiers)

    @property
    def missing_signatures(self) -> list[str]:
        return [
            f"{t.missing} {t.tier.role_words}{'s' if t.missing != 1 else ''} (tier {t.number})"
            for t in self.tiers
            if t.missing
        ]

    @property
    def missing_records(self) -> list[str]:
        return [word for row in self.records for word in row.missing]

    @property
    def missing(self) -> list[str]:
        """Everything still missing, in words: signatures, then records."""
        signatures = self.missing_signatures
        head = [f"signatures: {', '.join(signatures)}"] if signatures else []
        return head + self.missing_records


def request_tiers(approval: Approval) -> tuple[Tier, ...]:
    """The tiers of signatures a payout request asks for, as frozen when it was asked (one
    floor manager for a request asked before tiers)."""
    stored = ((approval.detail or {}).get("signoff") or {}).get("tiers")
    return tiers_of(stored or [{"above": 0, "role": "floor_manager", "count": 1}])


def signoff_status(approval: Approval) -> SignoffStatus | None:
    """A payout request's sign-off as it stands (None for any other kind)."""
    if approval.kind != Approval.Kind.PAYOUT:
        return None
    signoff = (approval.detail or {}).get("signoff") or {}
    tiers = request_tiers(approval)
    signatures = list(approval.signatures.select_related("signed_by"))
    counted = assign(tiers, [Signer(s.signed_by_id, frozenset(s.roles)) for s in signatures])
    policy = signoff.get("policy") or {}
    return SignoffStatus(
        approval=approval,
        tiers=[
            TierStatus(
                index + 1,
                tier,
                [s for place, s in enumerate(signatures) if counted.get(place) == index],
            )
            for index, tier in enumerate(tiers)
        ],
        signatures=signatures,
        records=records_of(approval),
        reached=int(signoff.get("tiers_reached", len(tiers))),
        win=int(signoff.get("win") or 0),
        notice=bool(signoff.get("notice")),
        notice_line=policy.get("notice"),
        prompts=signoff.get("prompts") or {},
    )
