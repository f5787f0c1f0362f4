"""Reading the approvals queue."""

from __future__ import annotations

from django.db.models import QuerySet

from .models import Approval


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
