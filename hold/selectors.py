"""Reads for the hold page and the floor's view of a pending change.

* :func:`theory_for_change`: the theoretical figures of a pending limit or rule change,
  before and after (exact ones computed now, simulations queued and shown as computing).
* :func:`hold_charts`: per table, each gaming day's actual hold against its theoretical
  value and interval, with the geometry of a server-drawn SVG chart.
"""

from __future__ import annotations

import copy
import datetime as dt
import math
from dataclasses import dataclass, field
from typing import Any

from approvals.models import Approval
from casino.rules import theory
from casino.rules.errors import RuleError
from payouts.figures import gaming_day
from tables.models import Table

from . import services
from .models import HoldFlag, Theory


@dataclass(frozen=True)
class FigureView:
    """One stored figure as a page shows it."""

    spec: theory.Spec
    row: Theory

    @property
    def computing(self) -> bool:
        return self.row.status == Theory.Status.COMPUTING

    @property
    def failed(self) -> bool:
        return self.row.status == Theory.Status.FAILED

    @property
    def ready(self) -> bool:
        return self.row.ready

    @property
    def exact(self) -> bool:
        return self.spec.method == theory.EXACT

    @property
    def fraction(self) -> str | None:
        """An exact figure as the fraction it is (``detail["fraction"]``, as
        ``casino.rules.theory.compute`` stores it)."""
        value = self.row.detail.get("fraction") if self.exact else None
        return str(value) if value else None


@dataclass(frozen=True)
class ChangePair:
    game: str
    measure: str
    before: FigureView | None
    after: FigureView | None

    @property
    def label(self) -> str:
        """What the figure is, as the game's theory names it."""
        return theory.measure(self.game, self.measure).label

    @property
    def note(self) -> str:
        return theory.measure(self.game, self.measure).note

    @property
    def changed(self) -> bool:
        """The change alters what this figure depends on (a new rules version)."""
        if self.before is None or self.after is None:
            return self.before is not self.after
        return self.before.spec.digest != self.after.spec.digest


@dataclass(frozen=True)
class ChangeTheory:
    """A change's figures before and after. ``offered`` is False for a game with no
    theoretical figures (its package supplies none): the page says so, once."""

    table: Table
    game: str
    pairs: list[ChangePair] = field(default_factory=list)
    error: str = ""
    offered: bool = True

    @property
    def game_name(self) -> str:
        return services.game_name(self.game)

    @property
    def changes_theory(self) -> bool:
        return any(pair.changed for pair in self.pairs)

    @property
    def computing(self) -> bool:
        """Some figure is still being simulated in the background."""
        return any(
            view is not None and view.computing
            for pair in self.pairs
            for view in (pair.before, pair.after)
        )


def merged(config: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """A change applied as ``tables.services`` applies it: limits and the chip replace,
    ``rules`` merge by key (a nested option such as a pay table is replaced whole)."""
    out = copy.deepcopy(config)
    for key, value in changes.items():
        if key == "rules" and isinstance(value, dict):
            out["rules"] = {**(out.get("rules") or {}), **value}
        else:
            out[key] = value
    return out


def _specs(game: str, config: dict[str, Any]) -> list[theory.Spec]:
    return services.specs_of_config(game, config)


def theory_for_change(approval: Approval) -> ChangeTheory | None:
    """The theoretical figures before and after a limit or rule change (None for any other
    request). Exact figures are computed now; a simulation not yet stored is queued and shown
    as computing. A game with no theoretical figures gets one saying so (``offered`` False)."""
    if approval.kind != Approval.Kind.LIMIT_CHANGE:
        return None
    if not theory.offered(approval.table.game):
        return ChangeTheory(approval.table, approval.table.game, offered=False)
    detail = approval.detail or {}
    before_config = detail.get("before")
    if not isinstance(before_config, dict):
        return None
    return theory_for_proposal(approval.table, before_config, detail.get("changes") or {})


def theory_for_proposal(
    table: Table, before_config: dict[str, Any], changes: dict[str, Any]
) -> ChangeTheory | None:
    """The theoretical figures of a table's configuration (``tables.selectors.table_config``)
    before and after ``changes`` (as a change request would apply them): what a form asking
    for a change shows, and what the queue shows of a pending one. None for a game with no
    theoretical figures."""
    after_config = merged(before_config, changes)
    try:
        before = {spec.measure: spec for spec in _specs(table.game, before_config)}
        after = {spec.measure: spec for spec in _specs(table.game, after_config)}
    except RuleError as exc:
        return ChangeTheory(table, table.game, error=f"No theoretical figures: {exc}")
    except (KeyError, TypeError, ValueError):
        return ChangeTheory(
            table,
            table.game,
            error="No theoretical figures: these limits and rules are incomplete.",
        )
    if not before and not after:
        return None  # a game with no theoretical figures
    measures = list(before) + [measure for measure in after if measure not in before]
    pairs = []
    for measure in measures:
        views = []
        for specs in (before, after):
            spec = specs.get(measure)
            views.append(FigureView(spec, services.figure_or_queue(spec)) if spec else None)
        pairs.append(ChangePair(table.game, measure, views[0], views[1]))
    return ChangeTheory(table, table.game, pairs)


# ---------------------------------------------------------------- the chart

WIDTH, HEIGHT = 720, 280
LEFT, RIGHT, TOP, BOTTOM = 72, 40, 20, 56
TICK_GAP = 60  # pixels between two day labels on the chart ("30 Nov" is about 45)
LONE_DAY = 8.0  # half the width of a lone day's band and dash, so they can be seen


@dataclass(frozen=True)
class Point:
    """One day on the chart (and one row of the table beside it)."""

    entry: services.DayHold
    x: float
    y: float | None
    expected_y: float | None
    low_y: float | None
    high_y: float | None
    flagged: bool

    @property
    def interval(self) -> tuple[float, float] | None:
        return self.entry.interval


@dataclass(frozen=True)
class Tick:
    position: float
    label: str


@dataclass(frozen=True)
class TableChart:
    table: Table
    points: list[Point]
    y_ticks: list[Tick]
    x_ticks: list[Tick]
    band: str  # SVG polygon points: the interval of each day
    expected: str  # SVG polyline points: the theoretical value of each day
    figure: Theory | None
    computing: bool
    #: The game has a theoretical hold (its package supplies a strategy).
    offered: bool = True

    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM

    @property
    def slug(self) -> str:
        return f"hold-{self.table.pk}"

    @property
    def game_name(self) -> str:
        return services.game_name(self.table.game)

    @property
    def x_middle(self) -> float:
        return (self.left + self.right) / 2

    @property
    def y_middle(self) -> float:
        return (self.top + self.bottom) / 2

    @property
    def flagged(self) -> list[Point]:
        return [point for point in self.points if point.flagged]

    @property
    def summary(self) -> str:
        """The chart in words (its ``<desc>``)."""
        days = len(self.points)
        outside = len(self.flagged)
        figure = self.figure
        if not self.offered:
            expected = "no theoretical line to judge it against"
        elif figure is not None and figure.status == Theory.Status.FAILED:
            expected = "its theoretical hold could not be computed"
        elif figure is None or not figure.ready or figure.value is None:
            expected = "its theoretical hold is still being computed"
        else:
            expected = (
                f"its theoretical hold is {figure.value:.2%} "
                f"(95% interval {figure.low:.2%} to {figure.high:.2%})"
            )
        return (
            f"{self.table.name}: actual hold on {days} gaming day{'s' * (days != 1)}; "
            f"{expected}; {outside} day{'s' * (outside != 1)} outside the interval."
        )


def _nice_step(span: float) -> float:
    raw = span / 5
    magnitude = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


def _chart(
    table: Table, entries: list[services.DayHold], first: dt.date, last: dt.date
) -> TableChart:
    values: list[float] = []
    for entry in entries:
        if entry.hold is not None:
            values.append(entry.hold)
        if entry.interval is not None:
            values.extend(entry.interval)
        if entry.theory is not None and entry.theory.value is not None:
            values.append(entry.theory.value)
    low = min(values, default=0.0)
    high = max(values, default=0.1)
    if high - low < 1e-6:
        low, high = low - 0.01, high + 0.01
    pad = (high - low) * 0.08
    low, high = low - pad, high + pad
    step = _nice_step(high - low)
    low = step * math.floor(low / step)
    high = step * math.ceil(high / step)
    inner_w = WIDTH - LEFT - RIGHT
    inner_h = HEIGHT - TOP - BOTTOM
    days = (last - first).days

    def x_of(day: dt.date) -> float:
        share = (day - first).days / days if days else 0.5
        return round(LEFT + inner_w * share, 1)

    def y_of(value: float | None) -> float | None:
        if value is None:
            return None
        return round(TOP + inner_h * (high - value) / (high - low), 1)

    points = []
    for entry in entries:
        interval = entry.interval
        figure = entry.theory
        points.append(
            Point(
                entry=entry,
                x=x_of(entry.day),
                y=y_of(entry.hold),
                expected_y=y_of(figure.value if figure is not None and figure.ready else None),
                low_y=y_of(interval[0]) if interval else None,
                high_y=y_of(interval[1]) if interval else None,
                flagged=entry.outside,
            )
        )
    banded = [p for p in points if p.low_y is not None and p.high_y is not None]
    band = ""
    if banded:
        # A lone day gets a band a few pixels wide, so it can be seen.
        edge = LONE_DAY if len(banded) == 1 else 0.0
        upper = [f"{p.x - edge},{p.high_y}" for p in banded] + (
            [f"{banded[0].x + edge},{banded[0].high_y}"] if edge else []
        )
        lower = [f"{p.x + edge},{p.low_y}" for p in reversed(banded)] + (
            [f"{banded[0].x - edge},{banded[0].low_y}"] if edge else []
        )
        band = " ".join(upper + lower)
    lined = [p for p in points if p.expected_y is not None]
    expected = " ".join(f"{p.x},{p.expected_y}" for p in lined)
    if len(lined) == 1:  # a lone day's theoretical value: a short dash across its point
        lone = lined[0]
        expected = f"{lone.x - LONE_DAY},{lone.expected_y} {lone.x + LONE_DAY},{lone.expected_y}"
    ticks = []
    value = low
    while value <= high + step / 2:
        position = y_of(value)
        assert position is not None
        ticks.append(Tick(position, f"{value:.1%}"))
        value += step
    x_ticks: list[Tick] = []
    for point in points:  # a label at least TICK_GAP pixels from the one before
        if not x_ticks or point.x - x_ticks[-1].position >= TICK_GAP:
            x_ticks.append(Tick(point.x, point.entry.day.strftime("%d %b")))
    figure = entries[-1].theory if entries else None
    return TableChart(
        table=table,
        points=points,
        y_ticks=ticks,
        x_ticks=x_ticks,
        band=band,
        expected=expected,
        figure=figure,
        computing=any(entry.theory_state == "computing" for entry in entries),
        offered=any(entry.spec is not None for entry in entries),
    )


MAX_DAYS = 92


def default_range() -> tuple[dt.date, dt.date]:
    last = gaming_day()
    return last - dt.timedelta(days=13), last


def hold_charts(first: dt.date, last: dt.date, *, table_id: int | None = None) -> list[TableChart]:
    """One chart per table that settled hands between ``first`` and ``last``."""
    entries = services.day_holds(first, last, table_id=table_id)
    by_table: dict[int, list[services.DayHold]] = {}
    for entry in entries:
        by_table.setdefault(entry.table_id, []).append(entry)
    tables = Table.objects.in_bulk(list(by_table))
    charts = [_chart(tables[pk], rows, first, last) for pk, rows in by_table.items()]
    return sorted(charts, key=lambda chart: chart.table.name)


def recent_flags(first: dt.date, last: dt.date, *, table_id: int | None = None) -> list[HoldFlag]:
    flags = HoldFlag.objects.filter(day__gte=first, day__lte=last).select_related("table", "theory")
    if table_id is not None:
        flags = flags.filter(table_id=table_id)
    return list(flags.order_by("-day", "table__name"))
