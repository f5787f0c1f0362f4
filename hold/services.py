"""Theoretical figures, got or computed once per rules version, and the nightly hold flags.

* :func:`prepare` has every figure of a new rules version ready or on its way the moment the
  version is created (a table created, a limit or rule change requested: ``tables.services``
  calls :func:`prepare_after_commit` once the request commits; the demo's tables when
  ``load_demo`` loads them): exact figures are computed at once; a simulation is queued to the
  Celery task ``hold.compute_theory`` when a worker runs, and **where none runs** (tasks run
  eagerly, the embedded set-up) simulated there and then with ``HOLD_THEORY_INLINE_HANDS``
  hands (1000: about a second), so a floor manager is not kept waiting half a minute on
  "Create the table" for the full run. The figure records how many hands it was made from.
* :func:`get_or_compute` returns the stored figure of a spec, computing it now if it has none
  (a simulation plays ``HOLD_THEORY_HANDS`` hands). A figure is stored once per (game,
  measure, digest): a second call, at this table or any other with the same rules, reads the
  row.
* :func:`figure_or_queue` is what pages use: a missing exact figure is computed, a missing
  simulation is stored as ``computing`` and handed to the Celery task once the transaction
  commits; with no worker, the first request that asks simulates it with
  ``HOLD_THEORY_INLINE_HANDS`` hands, as :func:`prepare` does (``manage.py compute_theory``
  computes any still waiting).
* :func:`flag_tables` judges one gaming day (by default the previous one) at every table:
  see its docstring for the rule.

A game whose package supplies no theory (``Game.theory()`` is None) has no figures: its
specs are empty and its days are not judged.

Settings read (all optional): ``HOLD_THEORY_HANDS`` (20000), ``HOLD_THEORY_INLINE_HANDS``
(1000), ``HOLD_THEORY_SEED``, ``HOLD_FLAG_MIN_HANDS`` (30) and ``HOLD_FLAG_MIN_HANDLE``
(100000 minor units, 1,000.00, of chips wagered). ``HOLD_FLAG_MIN_DROP``, its name until
the handle was called the drop, is still honoured when ``HOLD_FLAG_MIN_HANDLE`` is not set
(deprecated: it goes in the next release).
"""

from __future__ import annotations

import copy
import datetime as dt
import functools
import logging
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from casino.rules import theory
from casino.rules.contract import game as registered_game
from casino.rules.errors import RuleError
from casino.rules.theory.estimate import Z95
from payouts.figures import Figures, gaming_day, gaming_day_bounds, totals
from payouts.models import Settlement
from tables.models import Table

from .models import HoldFlag, Theory

log = logging.getLogger(__name__)

#: A flag's interval is compared with a little slack, so a hold equal to a theoretical
#: value (a game whose hold does not vary, e.g. a fixed fee on fixed wagers) is inside it
#: whatever the last bit of floating point.
TOLERANCE = 1e-9
#: A simulation still ``computing`` this long after it was asked for is queued again.
STALE_AFTER = dt.timedelta(hours=1)


def theory_hands() -> int:
    return int(getattr(settings, "HOLD_THEORY_HANDS", 20_000))


def theory_inline_hands() -> int:
    """Hands a simulation plays where no worker runs (computed in the process that created
    the rules version)."""
    return int(getattr(settings, "HOLD_THEORY_INLINE_HANDS", 1_000))


def theory_seed() -> int:
    return int(getattr(settings, "HOLD_THEORY_SEED", theory.DEFAULT_SEED))


def min_hands() -> int:
    return int(getattr(settings, "HOLD_FLAG_MIN_HANDS", 30))


def min_handle() -> int:
    """The least handle (chips wagered, minor units) a day needs to be judged:
    ``HOLD_FLAG_MIN_HANDLE``, else the deprecated ``HOLD_FLAG_MIN_DROP`` (logged once), else
    100000."""
    value = getattr(settings, "HOLD_FLAG_MIN_HANDLE", None)
    if value is None:
        value = getattr(settings, "HOLD_FLAG_MIN_DROP", None)
        if value is not None:
            _deprecated_min_drop()
    return int(100_000 if value is None else value)


@functools.cache
def _deprecated_min_drop() -> None:
    log.warning(
        "HOLD_FLAG_MIN_DROP is deprecated and goes in the next release: "
        "set HOLD_FLAG_MIN_HANDLE (the least handle, chips wagered) instead"
    )


# ---------------------------------------------------------------- theoretical figures


def _row(spec: theory.Spec) -> tuple[Theory, bool]:
    """The spec's row, created (``computing``) if there is none, and whether it was created
    now; safe against a race (the row is unique per game, measure and digest)."""
    lookup = {"game": spec.game, "measure": spec.measure, "digest": spec.digest}
    found = Theory.objects.filter(**lookup).first()
    if found is not None:
        return found, False
    try:
        with transaction.atomic():
            return Theory.objects.create(**lookup, method=spec.method, inputs=spec.inputs), True
    except IntegrityError:
        return Theory.objects.get(**lookup), False


def _store(row: Theory, figure: theory.Figure) -> Theory:
    row.value, row.low, row.high = figure.value, figure.low, figure.high
    row.spread, row.mean_handle = figure.spread, figure.mean_handle
    row.hands, row.seed, row.detail = figure.hands, figure.seed, figure.detail
    row.status, row.error, row.computed_at = Theory.Status.READY, "", timezone.now()
    row.save()
    return row


def compute_theory(spec: theory.Spec, *, hands: int | None = None) -> Theory:
    """Work the figure out now and store it (the Celery task's body). A row already ready is
    returned as it is: the figure is computed once per rules version."""
    row, _ = _row(spec)
    if row.ready:
        return row
    try:
        figure = theory.compute(spec, hands=hands or theory_hands(), seed=theory_seed())
    except (RuleError, ValueError, RuntimeError) as exc:
        row.status, row.error = Theory.Status.FAILED, str(exc)
        row.save(update_fields=["status", "error"])
        log.exception("theoretical figure %s failed", spec.digest)
        return row
    return _store(row, figure)


def get_or_compute(spec: theory.Spec, *, hands: int | None = None) -> Theory:
    """The stored figure of ``spec``, computed now if it has none yet."""
    row, _ = _row(spec)
    return row if row.ready else compute_theory(spec, hands=hands)


def figure_or_queue(spec: theory.Spec) -> Theory:
    """The stored figure; a missing exact one is computed now, a missing simulation is queued
    (the row says ``computing`` until the task has stored it). Where no worker runs it is
    simulated now with :func:`theory_inline_hands` hands by the request that first asks (a
    change form's preview of a rules version nobody has played yet), as :func:`prepare`
    does for a new version: a page never waits for a figure that nothing computes."""
    row, created = _row(spec)
    if row.ready:
        return row
    if spec.method == theory.EXACT:
        return compute_theory(spec)
    if not _worker_runs():
        if created or _stale(row):
            return compute_theory(spec, hands=theory_inline_hands())
        return row  # another request is simulating it now
    if row.status == Theory.Status.COMPUTING and (created or _stale(row)):
        from .tasks import compute_theory_task

        data = spec.to_dict()
        transaction.on_commit(lambda: compute_theory_task.delay(data))
    return row


def _worker_runs() -> bool:
    """A Celery worker takes the simulations (tasks are not run eagerly, in the request: a
    page would wait half a minute for one)."""
    from casino.celery import app

    return not app.conf.task_always_eager


def compute_waiting() -> list[Theory]:
    """Compute every figure still waiting for its simulation (``manage.py compute_theory``,
    where no worker runs)."""
    done = []
    for row in Theory.objects.filter(status=Theory.Status.COMPUTING).order_by("id"):
        spec = theory.Spec(row.game, row.measure, row.method, row.inputs)
        done.append(compute_theory(spec))
    return done


def prepare(specs: Iterable[theory.Spec]) -> list[Theory]:
    """Every figure of a rules version ready, or on its way to a worker: exact ones computed
    now; a missing simulation queued to ``hold.compute_theory`` when a worker runs, computed
    now with :func:`theory_inline_hands` hands when none does. Called once the version's
    transaction has committed (never inside a request's transaction: a queued task must find
    the row)."""
    rows = []
    for spec in specs:
        row, created = _row(spec)
        if row.ready:
            rows.append(row)
        elif spec.method == theory.EXACT:
            rows.append(compute_theory(spec))
        elif not _worker_runs():
            rows.append(compute_theory(spec, hands=theory_inline_hands()))
        else:
            if created or row.status == Theory.Status.FAILED or _stale(row):
                _queue(spec)
            rows.append(row)
    return rows


def _queue(spec: theory.Spec) -> None:
    from .tasks import compute_theory_task

    try:
        compute_theory_task.delay(spec.to_dict())
    except Exception:  # a broker down must not fail what has committed; pages queue it again
        log.exception("theoretical figure %s could not be queued", spec.digest)


def specs_of_config(game: str, config: Mapping[str, Any]) -> list[theory.Spec]:
    """The figures of a table configuration as ``tables.selectors.table_config`` gives it
    (its limits, ``smallest_chip`` and ``rules`` in one object)."""
    fields = registered_game(game).limit_fields
    limits = {name: config.get(name) for name in fields if config.get(name) is not None}
    return config_specs(
        game, limits, int(config.get("smallest_chip") or 1), config.get("rules") or {}
    )


def prepare_configs(game: str, *configs: Mapping[str, Any]) -> list[Theory]:
    """:func:`prepare` for the figures of table configurations (``table_config``'s shape);
    none for a game without theory, or a configuration its game cannot rate."""
    specs: dict[str, theory.Spec] = {}
    for config in configs:
        try:
            found = specs_of_config(game, config)
        except (RuleError, KeyError, TypeError, ValueError):
            log.exception("no theoretical figures for a %s configuration", game)
            continue
        specs.update((spec.digest, spec) for spec in found)
    return prepare(specs.values())


def prepare_after_commit(game: str, *configs: Mapping[str, Any]) -> None:
    """Once the caller's transaction commits, :func:`prepare_configs`: a rules version was
    created (a table, a requested change). What goes wrong is logged, never raised: the
    table or the request has committed and stays; a page queues a missing figure again."""
    frozen = [copy.deepcopy(dict(config)) for config in configs]

    def run() -> None:
        try:
            prepare_configs(game, *frozen)
        except Exception:
            log.exception("theoretical figures of a new %s rules version failed", game)

    transaction.on_commit(run)


def _stale(row: Theory) -> bool:
    """A simulation asked for over an hour ago and still not stored (its task was lost):
    claim it again, once, by moving its request time on."""
    now = timezone.now()
    if now - row.requested_at < STALE_AFTER:
        return False
    claimed = Theory.objects.filter(pk=row.pk, requested_at=row.requested_at).update(
        requested_at=now
    )
    return bool(claimed)


def config_specs(
    game: str, limits: Mapping[str, Any], smallest_chip: int, rules: Mapping[str, Any]
) -> list[theory.Spec]:
    """The figures of a table configuration (its limits, smallest chip and rule overrides)."""
    return theory.specs(game, limits, smallest_chip, rules)


def table_specs(table: Table) -> list[theory.Spec]:
    return config_specs(table.game, table.limits, table.smallest_chip, table.rules)


def hand_spec(game: str, rules: Mapping[str, Any], config: Mapping[str, Any]) -> theory.Spec | None:
    """The house figure a hand was played under, from what it froze (its effective rules and
    the limits its set-up carries): the same spec as :func:`table_specs` gives for the
    table's configuration at the time. None for a game without a strategy."""
    return theory.hand_house_spec(game, rules, config)


def house_spec(specs: Iterable[theory.Spec]) -> theory.Spec:
    return next(spec for spec in specs if spec.measure == theory.HOUSE)


# ---------------------------------------------------------------- actual hold by day


@dataclass(frozen=True)
class DayHold:
    """One table's settlements of one gaming day under one rules version, with the figure
    they are judged against (None while it is not computed)."""

    table_id: int
    day: dt.date
    spec: theory.Spec | None
    figures: Figures
    theory: Theory | None

    @property
    def hold(self) -> float | None:
        return self.figures.hold

    @property
    def interval(self) -> tuple[float, float] | None:
        """Where this day's hold should lie: the figure's 95% interval widened by the
        scatter of ``hands`` hands (``Estimate.interval_for``)."""
        row = self.theory
        if row is None or not row.ready or row.value is None or row.high is None:
            return None
        error = (row.high - row.value) / Z95
        hands = max(self.figures.hands, 1)
        width = Z95 * (error**2 + row.spread**2 / hands) ** 0.5
        return row.value - width, row.value + width

    @property
    def judged(self) -> bool:
        """Enough play to judge: at least ``HOLD_FLAG_MIN_HANDS`` hands and
        ``HOLD_FLAG_MIN_HANDLE`` of handle (chips wagered), and a figure to judge against."""
        return (
            self.interval is not None
            and self.figures.hands >= min_hands()
            and self.figures.handle >= min_handle()
        )

    @property
    def outside(self) -> bool:
        interval, hold = self.interval, self.hold
        if not self.judged or interval is None or hold is None:
            return False
        return hold < interval[0] - TOLERANCE or hold > interval[1] + TOLERANCE

    @property
    def theory_state(self) -> str:
        """``none`` (the game has no theoretical hold), ``computing``, ``failed`` or
        ``ready``."""
        row = self.theory
        if self.spec is None:
            return "none"
        if row is None or row.status == Theory.Status.COMPUTING:
            return "computing"
        return "ready" if row.ready else "failed"

    @property
    def verdict(self) -> str:
        """The day in words, as the hold page's table says it (for a game with no theoretical
        hold, the chart above the table says why, once)."""
        state = self.theory_state
        if state == "none":
            return "not judged"
        if state == "computing":
            return "not judged: the theoretical hold is being computed"
        if state == "failed":
            return "not judged: the theoretical hold could not be computed"
        if self.figures.hands < min_hands():
            return f"not judged: fewer than {min_hands()} hands"
        if self.figures.handle < min_handle():
            return "not judged: less handle than the minimum"
        return "outside the interval" if self.outside else "inside the interval"


def day_holds(
    first: dt.date, last: dt.date, *, table_id: int | None = None, queue: bool = True
) -> list[DayHold]:
    """Every table's actual hold per gaming day from ``first`` to ``last`` (both included),
    split by the rules version the hands were played under: ``payouts.figures.totals`` over
    the settlements settled in the day (``gaming_day_bounds``). Missing simulations are
    queued (``queue``) or computed now."""
    start, end = gaming_day_bounds(first)[0], gaming_day_bounds(last)[1]
    settled: QuerySet[Settlement] = Settlement.objects.filter(
        settled_at__gte=start, settled_at__lt=end
    )
    if table_id is not None:
        settled = settled.filter(hand__table_id=table_id)
    groups: dict[tuple[int, dt.date, str], list[int]] = defaultdict(list)
    specs: dict[str, theory.Spec | None] = {"": None}
    memo: dict[tuple[str, str, str], theory.Spec | None] = {}
    rows = settled.values_list(
        "pk", "settled_at", "hand__table_id", "hand__game", "hand__rules", "hand__config"
    )
    for pk, settled_at, table, game, rules, config in rows.iterator():
        key = (game, theory.canonical(rules), theory.canonical(config))
        if key not in memo:
            memo[key] = hand_spec(game, rules, config)
        spec = memo[key]
        digest = spec.digest if spec is not None else ""
        specs[digest] = spec
        groups[(table, gaming_day(settled_at), digest)].append(pk)
    figures_of: dict[str, Theory | None] = {}
    for digest, spec in specs.items():
        if spec is None:
            figures_of[digest] = None
        else:
            figures_of[digest] = figure_or_queue(spec) if queue else get_or_compute(spec)
    out = [
        DayHold(
            table_id=table,
            day=day,
            spec=specs[digest],
            figures=totals(Settlement.objects.filter(pk__in=ids)),
            theory=figures_of[digest],
        )
        for (table, day, digest), ids in groups.items()
    ]
    return sorted(out, key=lambda d: (d.table_id, d.day, d.spec.digest if d.spec else ""))


# ---------------------------------------------------------------- the nightly flag


def previous_gaming_day() -> dt.date:
    return gaming_day() - dt.timedelta(days=1)


def flag_tables(day: dt.date | None = None) -> list[HoldFlag]:
    """Judge gaming day ``day`` (by default the previous one) at every table that settled
    hands in it, per rules version, and store a :class:`HoldFlag` for each whose hold
    (``win / handle``) lies outside the interval its figure gives for that many hands.

    A day is judged only with at least ``HOLD_FLAG_MIN_HANDS`` hands (30: the normal
    approximation) and ``HOLD_FLAG_MIN_HANDLE`` of handle (1,000.00): with less, a hold says
    little. A missing figure is computed first (this runs in the background). Running the
    task again for the same day gives the same flags: a flag no longer warranted goes."""
    day = day or previous_gaming_day()
    flagged: list[HoldFlag] = []
    for entry in day_holds(day, day, queue=False):
        row = entry.theory
        if row is None or not row.ready:
            continue
        if not entry.outside:
            HoldFlag.objects.filter(table_id=entry.table_id, day=day, theory=row).delete()
            continue
        low, high = entry.interval or (0.0, 0.0)
        flag, _ = HoldFlag.objects.update_or_create(
            table_id=entry.table_id,
            day=day,
            theory=row,
            defaults={
                "actual": entry.hold or 0.0,
                "expected": row.value or 0.0,
                "low": low,
                "high": high,
                "hands": entry.figures.hands,
                "handle": entry.figures.handle,
                "win": entry.figures.win,
            },
        )
        flagged.append(flag)
    return flagged


def game_name(code: str) -> str:
    try:
        return registered_game(code).name
    except RuleError:
        return code
