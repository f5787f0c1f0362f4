"""A table's money figures, one definition for the pit, the reports and the hold chart.

For settled hands (voided hands move no chips):

- ``hands``: settlements counted;
- ``drop``: the chips players staked on every wager (the tablet records chips at the table,
  not cash at the drop box, so the drop here is the amount wagered);
- ``payouts``: what players' winning wagers paid (each line's amount above 0);
- ``rake``: the house's collection fees;
- ``win``: what the house kept: the rake plus the house's own net where it banks. Chips are
  conserved, so this is also minus the players' nets summed.

A bank's lines (the designated player's or banker's side of each wager, which name the seat
``against``) and the house's mirror the players' wagers and are not counted a second time.
``hold`` is ``win / drop``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass
from typing import Any

from django.conf import settings
from django.db.models import Count, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from .models import PayoutLine, SeatSettlement, Settlement

HOUSE_SEAT = 0


@dataclass(frozen=True)
class Figures:
    hands: int = 0
    drop: int = 0
    payouts: int = 0
    rake: int = 0
    win: int = 0

    @property
    def hold(self) -> float | None:
        """The house's win over the drop (None with no drop)."""
        return self.win / self.drop if self.drop else None

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "hold": self.hold}

    def __add__(self, other: Figures) -> Figures:
        return Figures(
            hands=self.hands + other.hands,
            drop=self.drop + other.drop,
            payouts=self.payouts + other.payouts,
            rake=self.rake + other.rake,
            win=self.win + other.win,
        )


def of_settlement(settlement: Settlement) -> Figures:
    """One settlement's figures, from its stored rows."""
    players = [row for row in settlement.seats.all() if row.seat != HOUSE_SEAT]
    lines = [line for row in players for line in row.lines.all() if line.against is None]
    return Figures(
        hands=1,
        drop=sum(line.stake for line in lines),
        payouts=sum(line.amount for line in lines if line.amount > 0),
        rake=settlement.rake,
        win=-sum(row.net for row in players),
    )


def totals(settlements: QuerySet[Settlement]) -> Figures:
    """The figures of many settlements, summed in the database (three queries)."""
    zero = Value(0)
    ids = settlements.values("pk")
    lines = PayoutLine.objects.filter(seat__settlement__in=ids, against__isnull=True).exclude(
        seat__seat=HOUSE_SEAT
    )
    staked = lines.aggregate(
        drop=Coalesce(Sum("stake"), zero),
        payouts=Coalesce(Sum("amount", filter=Q(amount__gt=0)), zero),
    )
    nets = SeatSettlement.objects.filter(settlement__in=ids).exclude(seat=HOUSE_SEAT)
    won = nets.aggregate(players=Coalesce(Sum("net"), zero))
    counted = settlements.aggregate(hands=Count("pk"), rake=Coalesce(Sum("rake"), zero))
    return Figures(
        hands=counted["hands"],
        drop=staked["drop"],
        payouts=staked["payouts"],
        rake=counted["rake"],
        win=-won["players"],
    )


def _day_start() -> dt.time:
    return dt.time.fromisoformat(settings.GAMING_DAY_START)


def gaming_day(moment: dt.datetime | None = None) -> dt.date:
    """The gaming day a moment belongs to (a moment before the day's start time belongs to the
    day before), in the casino's time zone."""
    local = timezone.localtime(moment or timezone.now())
    day = local.date()
    return day - dt.timedelta(days=1) if local.time() < _day_start() else day


def gaming_day_bounds(day: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """The moments a gaming day runs from (included) and to (excluded)."""
    start = timezone.make_aware(dt.datetime.combine(day, _day_start()))
    end = timezone.make_aware(dt.datetime.combine(day + dt.timedelta(days=1), _day_start()))
    return start, end
