"""Reads for settlements and the audit log."""

from __future__ import annotations

from django.db.models import QuerySet

from .models import AuditCheck, AuditEntry, Settlement


def settlement_list(*, table_id: int | None = None) -> QuerySet[Settlement]:
    queryset = Settlement.objects.select_related("hand", "settled_by").prefetch_related(
        "seats__lines"
    )
    if table_id is not None:
        queryset = queryset.filter(hand__table_id=table_id)
    return queryset


def audit_entry_list(
    *, table_id: int | None = None, hand_id: int | None = None, action: str | None = None
) -> QuerySet[AuditEntry]:
    queryset = AuditEntry.objects.all()
    if table_id is not None:
        queryset = queryset.filter(table_id=table_id)
    if hand_id is not None:
        queryset = queryset.filter(hand_id=hand_id)
    if action:
        queryset = queryset.filter(action=action)
    return queryset.order_by("id")


def audit_check_list() -> QuerySet[AuditCheck]:
    return AuditCheck.objects.select_related("requested_by")
