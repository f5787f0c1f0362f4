"""A settlement's sign-off for any page that shows one: ``{% load signoff %}`` then
``{% settlement_signoff settlement %}`` renders the regulator notice, who signed for which
tier, and its W-2G, MTL and CTR records (patrons masked), or nothing for a settlement that
needed no sign-off."""

from __future__ import annotations

from typing import Any

from django import template

from approvals.models import Approval
from approvals.selectors import signoff_status

from ..models import CTR, PatronPayout, RegulatorNotice

register = template.Library()


@register.inclusion_tag("filings/_settlement_signoff.html")
def settlement_signoff(settlement: Any) -> dict[str, Any]:
    approval = (
        Approval.objects.filter(
            kind=Approval.Kind.PAYOUT, status=Approval.Status.APPROVED, hand_id=settlement.hand_id
        )
        .order_by("-decided_at", "-id")
        .first()
        if getattr(settlement, "kind", "settlement") == "settlement"
        else None
    )
    if approval is None:
        return {"status": None}
    payouts = list(
        PatronPayout.objects.filter(settlement=settlement)
        .select_related("patron")
        .prefetch_related("w2g")
    )
    return {
        "status": signoff_status(approval),
        "approval": approval,
        "payouts": payouts,
        "ctrs": list(CTR.objects.filter(settlement=settlement).select_related("patron")),
        "notice": RegulatorNotice.objects.filter(settlement=settlement).first(),
    }


@register.inclusion_tag("filings/_settlement_notice.html")
def settlement_notice(settlement: Any) -> dict[str, Any]:
    """The regulator notice of a settlement at or above its notice line (else nothing)."""
    return {"notice": RegulatorNotice.objects.filter(settlement_id=settlement.pk).first()}
