"""Reading the records: W-2Gs, MTL entries, CTRs and notices to the regulator, each with
the settlement it belongs to; patrons always masked."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet, Sum

from casino.core.money import major_text
from payouts.figures import gaming_day, gaming_day_bounds

from .models import CTR, W2G, PatronPayout, RegulatorNotice

KINDS = {
    "w2g": "W-2G records",
    "mtl": "MTL entries",
    "ctr": "CTRs",
    "notice": "Notices to the regulator",
}


def major(minor: int | None) -> str:
    """Minor units as a plain number in major units (``1250.00``), for a CSV column."""
    return major_text(minor)


@dataclass(frozen=True)
class Record:
    """One record as a page row and a CSV row."""

    kind: str
    pk: int
    gaming_day: dt.date
    at: dt.datetime
    table: str
    hand: int
    seat: int | None
    settlement: int
    amount: int  # the win, the W-2G line's amount, the CTR's total, the notice's win
    wager: int | None  # a W-2G's wager
    what: str  # the wager's name, "MTL", the CTR's day, the notice line
    patron: dict[str, Any] | None  # masked
    by: str


def _window(
    queryset: QuerySet[Any], field: str, start: dt.date | None, end: dt.date | None
) -> QuerySet[Any]:
    if start is not None:
        queryset = queryset.filter(**{f"{field}__gte": start})
    if end is not None:
        queryset = queryset.filter(**{f"{field}__lte": end})
    return queryset


def records(
    kind: str, *, start: dt.date | None = None, end: dt.date | None = None
) -> QuerySet[Any]:
    """The stored records of ``kind`` in the gaming days ``start`` to ``end``, newest first."""
    if kind == "w2g":
        return _window(
            W2G.objects.filter(payout__settlement__isnull=False).select_related(
                "payout__patron", "payout__table", "payout__hand", "payout__entered_by"
            ),
            "payout__gaming_day",
            start,
            end,
        ).order_by("-payout__entered_at", "-id")
    if kind == "mtl":
        return _window(
            PatronPayout.objects.filter(mtl=True, settlement__isnull=False).select_related(
                "patron", "table", "hand", "entered_by"
            ),
            "gaming_day",
            start,
            end,
        ).order_by("-entered_at", "-id")
    if kind == "ctr":
        return _window(
            CTR.objects.filter(settlement__isnull=False).select_related(
                "patron", "approval__table", "approval__hand", "filed_by"
            ),
            "gaming_day",
            start,
            end,
        ).order_by("-filed_at", "-id")
    if kind == "notice":
        queryset = RegulatorNotice.objects.select_related("table", "hand", "approval")
        if start is not None:
            queryset = queryset.filter(at__gte=gaming_day_bounds(start)[0])
        if end is not None:
            queryset = queryset.filter(at__lt=gaming_day_bounds(end)[1])
        return queryset.order_by("-at", "-id")
    raise ValueError(kind)


def day_totals(ctrs: list[CTR]) -> dict[int, int]:
    """Each CTR's patron's recorded wins in its gaming day, as they stand now."""
    totals = {}
    for ctr in ctrs:
        total = PatronPayout.objects.filter(
            patron_id=ctr.patron_id, gaming_day=ctr.gaming_day, settlement__isnull=False
        ).aggregate(total=Sum("amount"))["total"]
        totals[ctr.pk] = int(total or 0)
    return totals


def as_record(kind: str, row: Any) -> Record:
    if kind == "w2g":
        payout = row.payout
        return Record(
            kind, row.pk, payout.gaming_day, payout.entered_at, payout.table.name,
            payout.hand.number, payout.seat, payout.settlement_id, row.amount, row.wager,
            row.name.replace("_", " "), payout.patron.shown(), payout.entered_by.get_username(),
        )  # fmt: skip
    if kind == "mtl":
        return Record(
            kind, row.pk, row.gaming_day, row.entered_at, row.table.name, row.hand.number,
            row.seat, row.settlement_id, row.amount, None, "payout", row.patron.shown(),
            row.entered_by.get_username(),
        )  # fmt: skip
    if kind == "ctr":
        return Record(
            kind, row.pk, row.gaming_day, row.filed_at, row.approval.table.name,
            row.approval.hand.number, None, row.settlement_id, row.total, None,
            "gaming day's wins", row.patron.shown(), row.filed_by.get_username(),
        )  # fmt: skip
    return Record(
        kind, row.pk, gaming_day(row.at), row.at, row.table.name, row.hand.number, None,
        row.settlement_id, row.win, None, f"notice line {major(row.line)}", None, "",
    )  # fmt: skip
