"""Reads for chip custody: a table's custody window, what its tray should hold, and the
gaming day's reconciliation of custody against the hands.

A **window** runs from a table's signed opener to its signed closer (or now, while the table
is open). Its **expected tray** is the opener, plus the fills and minus the credits received
in it, plus the house's net of every hand settled in it where the house banks (the win less
the collection fee: the fee goes to the drop box, and chips sold for cash at the table leave
the tray for the cash in the box).

A table's gaming day is the windows whose opener was signed that day. Its **statistical win**
is the regulators' ``closer − opener + credits − fills + drop`` (summed window by window, so
a table closed and opened again in a day counts each tray once), beside the **hand win** the
hands give (the house's net plus the collection fee). Their difference is exactly the tray's
variance at close, plus the cash in the drop box (chips sold at the table), plus the chips in
the box less the collection fee recorded: each part has its own line, and the hands of each
window are one click away.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet, Sum
from django.utils import timezone

from payouts.figures import Figures, gaming_day_bounds, totals
from payouts.models import Settlement
from tables.models import Table

from .models import ChipSet, DropCount, Inventory, Slip


def last_closer(table: Table) -> Inventory | None:
    """The table's latest signed closer: the opener's proposal ("auto-roll")."""
    return (
        table.inventories.filter(kind=Inventory.Kind.CLOSER, status=Inventory.Status.SIGNED)
        .order_by("-signed_at", "-pk")
        .first()
    )


def _slips(table: Table, kind: str, start: dt.datetime, end: dt.datetime | None) -> int:
    """The chips a window's slips of ``kind`` moved at the table: fills once received there,
    credits once they left it (signed by the table; the cage receives them later)."""
    if kind == Slip.Kind.FILL:
        at, moved = "completed_at", [Slip.Status.RECEIVED]
    else:
        at, moved = "issued_at", [Slip.Status.ISSUED, Slip.Status.RECEIVED]
    rows = Slip.objects.filter(table=table, kind=kind, status__in=moved, **{f"{at}__gte": start})
    if end is not None:
        rows = rows.filter(**{f"{at}__lt": end})
    return int(rows.aggregate(total=Sum("total"))["total"] or 0)


def hands_of(table: Table, start: dt.datetime, end: dt.datetime | None) -> QuerySet[Settlement]:
    """The settlements stored at ``table`` in a window (corrections included, as the
    figures count them)."""
    rows = Settlement.objects.filter(hand__table=table, settled_at__gte=start)
    return rows.filter(settled_at__lt=end) if end is not None else rows


@dataclass
class Window:
    table: Table
    opener: Inventory | None
    closer: Inventory | None = None
    fills: int = 0
    credits: int = 0
    figures: Figures = field(default_factory=Figures)

    @property
    def start(self) -> dt.datetime | None:
        return self.opener.signed_at if self.opener else None

    @property
    def end(self) -> dt.datetime | None:
        return self.closer.signed_at if self.closer else None

    @property
    def house_net(self) -> int:
        """What the house won or lost banking hands (zero where players bank)."""
        return self.figures.win - self.figures.rake

    @property
    def expected_tray(self) -> int:
        opened = self.opener.total if self.opener else 0
        return opened + self.fills - self.credits + self.house_net

    @property
    def tray_change(self) -> int | None:
        """closer − opener, once closed."""
        if self.opener is None or self.closer is None:
            return None
        return self.closer.total - self.opener.total


def _window(table: Table, opener: Inventory | None, closer: Inventory | None) -> Window:
    if opener is None or opener.signed_at is None:
        return Window(table, None)
    start, end = opener.signed_at, closer.signed_at if closer else None
    return Window(
        table,
        opener,
        closer,
        fills=_slips(table, Slip.Kind.FILL, start, end),
        credits=_slips(table, Slip.Kind.CREDIT, start, end),
        figures=totals(hands_of(table, start, end)),
    )


def window(table: Table) -> Window:
    """The table's current window: its last signed opener and what followed it (an open
    table's, or a closed table's last)."""
    opener = (
        table.inventories.filter(kind=Inventory.Kind.OPENER, status=Inventory.Status.SIGNED)
        .order_by("-signed_at", "-pk")
        .first()
    )
    closer = None
    if opener is not None:
        closer = opener.closers.filter(status=Inventory.Status.SIGNED).first()
    return _window(table, opener, closer)


def windows_of_day(table: Table, day: dt.date) -> list[Window]:
    """The table's windows whose opener was signed on gaming day ``day``, in order."""
    openers = table.inventories.filter(
        kind=Inventory.Kind.OPENER, status=Inventory.Status.SIGNED, gaming_day=day
    ).order_by("signed_at", "pk")
    return [
        _window(table, opener, opener.closers.filter(status=Inventory.Status.SIGNED).first())
        for opener in openers
    ]


def drop_in_force(table: Table, day: dt.date) -> DropCount | None:
    """The box's count in force: the latest of its counts (a correction replaces the one it
    corrects) once both counters signed it; None until then."""
    counts = list(
        DropCount.objects.filter(table=table, gaming_day=day)
        .prefetch_related("signatures")
        .order_by("pk")
    )
    latest = [row for row in counts if not hasattr(row, "correction")]
    signed = [row for row in latest if len(row.signatures.all()) >= 2]
    return signed[-1] if signed else None


@dataclass
class DayRow:
    """One table's gaming day of custody, reconciled both ways."""

    table: Table
    windows: list[Window]
    drop: DropCount | None
    counts_pending: bool = False

    @property
    def opener(self) -> int | None:
        return self.windows[0].opener.total if self.windows and self.windows[0].opener else None

    @property
    def closer(self) -> int | None:
        last = self.windows[-1] if self.windows else None
        return last.closer.total if last and last.closer else None

    @property
    def closed(self) -> bool:
        return bool(self.windows) and all(w.closer is not None for w in self.windows)

    @property
    def fills(self) -> int:
        return sum(w.fills for w in self.windows)

    @property
    def credits(self) -> int:
        return sum(w.credits for w in self.windows)

    @property
    def figures(self) -> Figures:
        return sum((w.figures for w in self.windows), Figures())

    @property
    def tray_change(self) -> int | None:
        changes = [w.tray_change for w in self.windows]
        return None if not changes or None in changes else sum(c for c in changes if c)

    @property
    def tray_variance(self) -> int | None:
        if not self.closed:
            return None
        return sum(w.closer.variance or 0 for w in self.windows if w.closer)

    @property
    def statistical_win(self) -> int | None:
        """closer − opener + credits − fills + drop (None until closed and counted)."""
        if self.tray_change is None or self.drop is None:
            return None
        return self.tray_change + self.credits - self.fills + self.drop.total

    @property
    def hand_win(self) -> int:
        return self.figures.win

    @property
    def win_difference(self) -> int | None:
        won = self.statistical_win
        return None if won is None else won - self.hand_win

    @property
    def collection_difference(self) -> int | None:
        """Chips in the drop box less the collection fee the hands recorded."""
        return None if self.drop is None else self.drop.chips_total - self.figures.rake


@dataclass
class DayReport:
    day: dt.date
    chip_set: ChipSet | None
    rows: list[DayRow]
    slips: list[Slip]

    def total(self, name: str) -> int | None:
        values = [getattr(row, name) for row in self.rows]
        return None if any(v is None for v in values) else sum(values)


def day_report(day: dt.date) -> DayReport:
    """Every table's custody on gaming day ``day``, and the day's slips (void ones too)."""
    chips = ChipSet.objects.filter(property_name=settings.CASINO_PROPERTY).first()
    start, end = gaming_day_bounds(day)
    busy = set(
        Inventory.objects.filter(gaming_day=day, status=Inventory.Status.SIGNED).values_list(
            "table_id", flat=True
        )
    ) | set(DropCount.objects.filter(gaming_day=day).values_list("table_id", flat=True))
    rows = []
    for table in Table.objects.filter(pk__in=busy).order_by("name"):
        rows.append(
            DayRow(
                table,
                windows_of_day(table, day),
                drop_in_force(table, day),
                counts_pending=DropCount.objects.filter(table=table, gaming_day=day).exists()
                and drop_in_force(table, day) is None,
            )
        )
    slips = list(
        Slip.objects.filter(Q(gaming_day=day) | Q(requested_at__gte=start, requested_at__lt=end))
        .select_related("table", "requested_by")
        .order_by("kind", "number")
    )
    return DayReport(day, chips, rows, slips)


def unused_numbers(slips: list[Slip]) -> dict[str, list[int]]:
    """Numbers missing between the lowest and highest slip of each kind and year listed:
    a gap the audit check reports."""
    found: dict[tuple[str, int], set[int]] = {}
    for slip in slips:
        found.setdefault((slip.kind, slip.year), set()).add(slip.number)
    return {
        f"{kind} {year}": sorted(set(range(min(nums), max(nums) + 1)) - nums)
        for (kind, year), nums in found.items()
    }


def state(table: Table) -> dict[str, Any]:
    """What the custody screen of a table shows: the set's denominations, the proposal for
    the next opener, the count waiting for its second signature, the current window and its
    expected tray, the table's open slips."""
    now = timezone.now()
    current = window(table)
    return {
        "now": now,
        "window": current,
        "proposal": last_closer(table),
        "pending": table.inventories.filter(status=Inventory.Status.COUNTED).first(),
        "slips": list(
            table.slips.filter(status__in=[Slip.Status.REQUESTED, Slip.Status.ISSUED]).order_by(
                "requested_at"
            )
        ),
    }
