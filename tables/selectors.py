"""Reads for tables and hands."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from casino.rules.rotation import RotationPolicy

from .models import Hand, RotationEvent, Table, TableChange


def table_list() -> QuerySet[Table]:
    return Table.objects.select_related("dealer").prefetch_related("seats")


def hand_list(*, table_id: int | None = None) -> QuerySet[Hand]:
    queryset = Hand.objects.select_related("table")
    if table_id is not None:
        queryset = queryset.filter(table_id=table_id)
    return queryset.order_by("-opened_at", "-id")


def change_list(*, table_id: int | None = None) -> QuerySet[TableChange]:
    queryset = TableChange.objects.select_related("table", "requested_by", "decided_by")
    if table_id is not None:
        queryset = queryset.filter(table_id=table_id)
    return queryset


def rotation_state(*, table: Table, recent: int = 20) -> dict[str, Any]:
    events = RotationEvent.objects.filter(table=table).select_related("by").order_by("-at", "-id")
    return {
        "designated_player": table.dp_seat,
        "bank": table.dp_bank,
        "offer_seat": table.offer_seat,
        "offer_round_start": table.offer_round_start,
        "stopped": table.stopped,
        "policy": RotationPolicy.from_dict(table.rotation_policy).to_dict(),
        "events": [
            {
                "kind": e.kind,
                "seat": e.seat,
                "bank": e.bank,
                "at": e.at.isoformat(),
                "by": e.by.get_username() if e.by else None,
            }
            for e in events[:recent]
        ],
    }
