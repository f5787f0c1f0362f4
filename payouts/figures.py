"""A table's money figures, one definition for the pit, the reports and the hold chart.

For settled hands (voided hands move no chips), corrections included: a correction's reversal
moves back every amount of the settlement it cancels (its wagers, payouts, rake and nets count
negated) and its corrected settlement counts like any other, so a corrected hand adds up to
its corrected settlement, in the gaming day the correction was made.

- ``hands``: hands settled (a correction adds none);
- ``handle``: the chips players staked on every wager (the amount wagered: the tablet
  records chips at the table, not cash);
- ``payouts``: what players' winning wagers paid (each line's amount above 0);
- ``rake``: the house's collection fees;
- ``win``: what the house kept: the rake plus the house's own net where it banks. Chips are
  conserved, so this is also minus the players' nets summed.

A bank's lines (the designated player's or banker's side of each wager, which name the seat
``against``) and the house's mirror the players' wagers and are not counted a second time.
``hold`` is ``win / handle``.

These figures never say "drop": to a regulator the drop is the counted contents of a table's
drop box (cash and chips, counted by the count team), not anything the hands record; the word
is kept for that count alone.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass
from typing import Any

from django.conf import settings
from django.db.models import Count, F, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from .models import PayoutLine, SeatSettlement, Settlement

HOUSE_SEAT = 0


@dataclass(frozen=True)
class Figures:
    hands: int = 0
    handle: int = 0
    payouts: int = 0
    rake: int = 0
    win: int = 0

    @property
    def hold(self) -> float | None:
        """The house's win over the handle (None with no handle)."""
        return self.win / self.handle if self.handle else None

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "hold": self.hold}

    def __add__(self, other: Figures) -> Figures:
        return Figures(
            hands=self.hands + other.hands,
            handle=self.handle + other.handle,
            payouts=self.payouts + other.payouts,
            rake=self.rake + other.rake,
            win=self.win + other.win,
        )


def of_settlement(settlement: Settlement) -> Figures:
    """One settlement's figures, from its stored rows."""
    players = [row for row in settlement.seats.all() if row.seat != HOUSE_SEAT]
    lines = [line for row in players for line in row.lines.all() if line.against is None]
    moved_back = settlement.kind == Settlement.Kind.REVERSAL
    return Figures(
        hands=int(settlement.kind == Settlement.Kind.SETTLEMENT),
        handle=sum(line.stake for line in lines),
        payouts=sum(
            line.amount for line in lines if (line.amount < 0 if moved_back else line.amount > 0)
        ),
        rake=settlement.rake,
        win=-sum(row.net for row in players),
    )


def totals(settlements: QuerySet[Settlement]) -> Figures:
    """The figures of many settlements, summed in the database (three queries)."""
    return _summed(settlements, None).get(None, Figures())


def by_table(settlements: QuerySet[Settlement]) -> dict[int, Figures]:
    """:func:`totals` of each table's share of ``settlements``, keyed by table id, in the same
    three queries for all the tables together."""
    return _summed(settlements, "hand__table_id")  # type: ignore[return-value]


def _summed(settlements: QuerySet[Settlement], group: str | None) -> dict[Any, Figures]:
    """The sums behind the figures, in three queries, by ``group`` (a path from a settlement,
    e.g. ``hand__table_id``) or all together (``None``)."""
    zero = Value(0)
    ids = settlements.values("pk")

    def summed(rows: QuerySet[Any], path: str, **sums: Any) -> dict[Any, dict[str, Any]]:
        if group is None:
            return {None: rows.aggregate(**sums)}
        grouped = rows.order_by().values(key=F(f"{path}{group}")).annotate(**sums)
        return {row["key"]: row for row in grouped}

    lines = PayoutLine.objects.filter(seat__settlement__in=ids, against__isnull=True).exclude(
        seat__seat=HOUSE_SEAT
    )
    moved_back = Q(seat__settlement__kind=Settlement.Kind.REVERSAL)
    staked = summed(
        lines,
        "seat__settlement__",
        handle=Coalesce(Sum("stake"), zero),
        # A reversal takes back what its settlement paid: its winning lines, negated.
        payouts=Coalesce(Sum("amount", filter=Q(amount__gt=0) & ~moved_back), zero)
        + Coalesce(Sum("amount", filter=Q(amount__lt=0) & moved_back), zero),
    )
    nets = SeatSettlement.objects.filter(settlement__in=ids).exclude(seat=HOUSE_SEAT)
    won = summed(nets, "settlement__", players=Coalesce(Sum("net"), zero))
    counted = summed(
        settlements,
        "",
        hands=Count("pk", filter=Q(kind=Settlement.Kind.SETTLEMENT)),
        rake=Coalesce(Sum("rake"), zero),
    )
    return {
        key: Figures(
            hands=row["hands"],
            handle=staked.get(key, {}).get("handle", 0),
            payouts=staked.get(key, {}).get("payouts", 0),
            rake=row["rake"],
            win=-won.get(key, {}).get("players", 0),
        )
        for key, row in counted.items()
    }


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
