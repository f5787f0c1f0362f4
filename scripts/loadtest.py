#!/usr/bin/env python
"""Load test: dealer tablets playing real hands against gunicorn, next to a bare endpoint.

What it does (docs/loadtest.md says how to read the figures)
------------------------------------------------------------
* A throwaway PostgreSQL database (``casino_loadtest`` on the server of ``DATABASE_URL``) is
  created, migrated with ``casino.settings_loadtest`` (production settings, ``DEBUG`` off,
  plus the test-only ``POST /bare/``) and dropped at the end (``--keep-db`` keeps it).
* The floor is set up through the project's own code: users by ``manage.py create_user``
  (a floor manager, and one dealer per table), tables by ``tables.services.table_create``,
  seats filled and the table opened by the services, one knox token per dealer.
* gunicorn serves it (``casino.wsgi``, ``--workers``/``--threads``, by default ``make
  serve``'s ``WEB_CONCURRENCY=4`` and ``GUNICORN_THREADS=1``) on a free loopback port; the
  run waits for ``/health/`` and stops it at the end.
* Each simulated tablet plays hands at its own table through the API, as its dealer, with
  a fresh ``Idempotency-Key`` on every POST (a request that never got an answer is sent
  again with the same key, as the tablet does):

  - High Card Flush: ``POST /tables/{id}/hands/`` with ``{"accept": {"seat", "bank"}}`` for
    the seat offered the position, then ``POST /hands/{id}/settle/`` with the dealer's paper
    record (7 cards each, antes, raises within clause 6, bonus bets).
  - Five Card Draw 7-A, Pontoon, Paiute, Palace Poker: the opening body with the cards dealt,
    then one ``POST /hands/{id}/actions/`` per step, each chosen from the legal actions (and
    their bounds) the previous answer listed, then ``POST /hands/{id}/settle/`` ``{}``.

  What a tablet learns between hands (the seat offered the position, the seats dealt in,
  the next dealer) it reads once from ``GET /tables/{id}/game/`` and then follows from its
  own hands; after any refused request it reads the table again (and the open hand, if any)
  and carries on. ``--reads tablet`` adds every read the real tablet's screens make (the
  table and its game before each hand, the hand after each write, the preview before
  settling).

Scenarios
---------
* ``closed`` (saturation): ``--tablets`` High Card Flush tablets loop as fast as answers
  come for ``--seconds``; then as many clients loop on ``POST /bare/`` against the same
  server. Prints each endpoint's figures and settle throughput / bare throughput.
* ``open`` (a busy floor): ``--tablets`` tablets spread over every game, each sending one
  request every ``--interval`` seconds on a fixed schedule; latency counts from the
  scheduled time, so time spent queuing behind a slow answer counts.
* ``scale``: the closed loop against one gunicorn master, then against two masters on two
  ports (tablets split between them), each of ``--scale-workers`` workers (1: one app
  process against two); throughput of each and the ratio.

Requests started during ``--warmup`` are not counted. A request counts in the figures of
the window it started in; throughput counts the answers received inside the window. Each
phase also prints the CPU the machine spent in its window, read from ``/proc`` (Linux): the
gunicorn processes, PostgreSQL's, the load test's own and the rest, in cores and per hand
settled or bare insert (:class:`CpuMeter`).

Run: ``make loadtest`` or ``.venv/bin/python scripts/loadtest.py --seconds 5 --tablets 8``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import math
import os
import platform
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
VENV_BIN = Path(sys.executable).parent
SETTINGS = "casino.settings_loadtest"
API = "/api/v1"

HCF, DRAW, PONTOON, PAIUTE, PALACE = (
    "high-card-flush",
    "five-card-draw-7a",
    "pontoon",
    "paiute",
    "palace-poker",
)
GAMES = (HCF, DRAW, PONTOON, PAIUTE, PALACE)
SHORT = {HCF: "HCF", DRAW: "7A", PONTOON: "PON", PAIUTE: "PAI", PALACE: "PAL"}

# The tables' set-up: amounts well below the house's sign-off limits (3,000.00 a line or a
# net), so no settlement waits for a floor manager.
TABLES: dict[str, dict[str, Any]] = {
    HCF: {
        "seat_count": 7,
        "limits": {"ante_min": 100, "ante_max": 10_000, "bank_min": 5_000, "bank_max": 1_000_000},
        "smallest_chip": 25,
        "rules": {"rake": {"scheme": "per_player", "amount": 100}},
    },
    DRAW: {
        "seat_count": 5,
        "limits": {"structure": "limit", "small_blind": 100, "big_blind": 200, "big_bet": 400},
        "smallest_chip": 25,
        "rules": {"rake": {"percent": 5, "cap": 300}},
    },
    PONTOON: {  # plain Pontoon (no kitty); the first banker is chosen between hands
        "seat_count": 6,
        "limits": {"stake_min": 100, "stake_max": 2_000, "kitty_min": None, "kitty_max": None},
        "smallest_chip": 25,
        "between_hands": [{"type": "choose_banker", "seat": 1}],
    },
    PAIUTE: {"seat_count": 5, "limits": {"ante": 500}, "smallest_chip": 25},
    PALACE: {
        "seat_count": 7,
        "limits": {"structure": "limit", "small_bet": 500, "big_bet": 1_000},
        "smallest_chip": 25,
    },
}
# Every other table of these games uses another betting structure.
STRUCTURES = {DRAW: ["limit", "pot_limit", "no_limit"], PALACE: ["limit", "no_limit"]}

BANK = 50_000  # the High Card Flush designated player's bank
ANTE = 1_000
DRAW_STACK = 10_000
PALACE_STACK = 20_000
RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = [rank + suit for rank in RANKS for suit in SUITS]
SHOWN_ERRORS = 5

# Issue 25's targets, each judged on figures measured in the same run (README "Benchmarks").
HAND_BARE_TARGET = 4.0  # closed loop: a hand's machine CPU, in bare inserts, at most
OPEN_CORES_TARGET = 0.5  # open loop: gunicorn + PostgreSQL, in cores, at most (0 errors)
SCALE_TARGET = 1.8  # scale: two app processes' settles over one's, at least


def verdict(
    name: str, figure: str, target: str, met: bool | None, unjudged: str = "not measured"
) -> tuple[str, str]:
    """Print one target's line (figure, target, met / not met) and return it for the summary;
    ``met`` None when the run could not judge it (``unjudged`` says why)."""
    word = unjudged if met is None else "met" if met else "not met"
    print(f"  target: {name}: {figure} (target {target}): {word}")
    return name, f"{figure} (target {target}): {word}"


# ================================================================ the database and the floor


def database_url(base: str, name: str) -> str:
    parts = urlsplit(base)
    return urlunsplit(parts._replace(path=f"/{name}"))


def create_database(base: str, name: str) -> str:
    import psycopg

    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return database_url(base, name)


def drop_database(base: str, name: str) -> None:
    import psycopg

    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@dataclass
class TableInfo:
    id: int
    game: str
    name: str
    dealer: str
    token: str
    seats: list[int]  # the seats in play, ascending


def set_up_floor(url: str, counts: dict[str, int]) -> list[TableInfo]:
    """Migrate the throwaway database and set up ``counts[game]`` open tables of each game,
    each with a dealer of its own (and a token), every seat taken."""
    os.environ["DATABASE_URL"] = url
    os.environ["DJANGO_SETTINGS_MODULE"] = SETTINGS
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connections
    from django.test.utils import override_settings
    from knox.models import AuthToken

    from casino.core.roles import DEALER, FLOOR_MANAGER
    from tables import services

    call_command("migrate", verbosity=0, interactive=False)
    User = get_user_model()

    def create_user(username: str, role: str) -> Any:
        # manage.py create_user, with a random password on its standard input; nobody logs
        # in with it (the tablets hold tokens), so it is hashed with a fast hasher here only.
        stdin, sys.stdin = sys.stdin, io.StringIO(f"lt-{uuid.uuid4().hex}\n")
        try:
            with override_settings(
                PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]
            ):
                call_command(
                    "create_user", username, role=role, password_stdin=True, stdout=io.StringIO()
                )
        finally:
            sys.stdin = stdin
        return User.objects.get(username=username)

    floor = create_user("lt-floor", FLOOR_MANAGER)
    tables = []
    for game, count in counts.items():
        for index in range(count):
            name = f"LT-{SHORT[game]}-{index + 1:03d}"
            spec = dict(TABLES[game])
            between_hands = spec.pop("between_hands", [])
            if game in STRUCTURES:
                structures = STRUCTURES[game]
                spec["limits"] = {
                    **spec["limits"],
                    "structure": structures[index % len(structures)],
                }
            dealer = create_user(f"lt-dealer-{SHORT[game].lower()}-{index + 1:03d}", DEALER)
            table = services.table_create(user=floor, name=name, game=game, dealer=dealer, **spec)
            for number in range(1, table.seat_count + 1):
                services.seat_update(
                    user=floor,
                    table_id=table.pk,
                    number=number,
                    player=f"P{number}",
                    sitting_out=False,
                )
            services.table_set_status(user=floor, table_id=table.pk, status="open")
            for action in between_hands:
                services.game_act(user=floor, table_id=table.pk, action=action)
            _, token = AuthToken.objects.create(user=dealer)
            tables.append(
                TableInfo(
                    table.pk,
                    game,
                    name,
                    dealer.username,
                    token,
                    list(range(1, table.seat_count + 1)),
                )
            )
    # A first audit checkpoint, as make serve signs one after migrating: /health/ answers
    # 200 only once the anchor job has run (no beat runs here).
    call_command("audit_anchor", stdout=io.StringIO())
    connections.close_all()
    return tables


# ================================================================ gunicorn


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """One gunicorn master serving ``casino.wsgi`` with the load test's settings."""

    def __init__(self, env: dict[str, str], workers: int, threads: int, logdir: Path, access: bool):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.workers, self.threads = workers, threads
        self.log_path = logdir / f"gunicorn-{self.port}.log"
        command = [
            str(VENV_BIN / "gunicorn"),
            "casino.wsgi",
            "--bind",
            f"127.0.0.1:{self.port}",
            "--workers",
            str(workers),
            "--threads",
            str(threads),
        ]
        if access:
            command += ["--access-logfile", str(logdir / f"access-{self.port}.log")]
        self.log = self.log_path.open("w")
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: stopped as one
        )

    def wait_healthy(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        answer = "no answer"
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"gunicorn exited ({self.process.returncode}):\n{self.tail()}")
            try:
                with urllib.request.urlopen(self.base + "/health/", timeout=2) as response:
                    if response.status == 200:
                        return
            except urllib.error.HTTPError as exc:  # 503: the database or Redis is not there
                answer = f"{exc.code} {exc.read().decode(errors='replace')}"
            except (urllib.error.URLError, OSError) as exc:
                answer = str(exc)
            time.sleep(0.2)
        self.stop()
        raise SystemExit(
            f"gunicorn did not answer /health/ with 200 in {timeout:.0f} s (last: {answer}):\n"
            f"{self.tail()}"
        )

    def tail(self, lines: int = 30) -> str:
        self.log.flush()
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # graceful: the master stops its workers
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()

    def __str__(self) -> str:
        return f"gunicorn :{self.port} ({self.workers} workers x {self.threads} threads)"


@contextlib.contextmanager
def serving(
    env: dict[str, str], masters: list[tuple[int, int]], logdir: Path, access: bool
) -> Iterator[list[Server]]:
    servers: list[Server] = []
    try:
        for workers, threads in masters:
            servers.append(Server(env, workers, threads, logdir, access))
        for server in servers:
            server.wait_healthy()
        yield servers
    finally:
        for server in servers:
            server.stop()


# ================================================================ where the CPU goes


#: One reading of the meter: each process's part of the run and its CPU seconds so far.
Reading = dict[int, tuple[str, float]]


class CpuMeter:
    """The CPU each part of the run uses on this machine, from ``/proc`` (Linux only;
    elsewhere :meth:`read` gives None): the gunicorn masters with their workers (each
    master's own process group), PostgreSQL's processes (by name: every process of a server
    on this machine, its background writers and other databases' connections included; none
    when the database is on another machine), this process (the tablets) and the rest.

    Read at the start and the end of a measured window; :meth:`used` counts what each
    process used in between (a process started meanwhile from nothing). A process that ends
    within the window takes its CPU with it, so it counts nothing rather than less than
    nothing; the processes that matter live through the window (a phase's workers and
    database connections last as long as its server)."""

    PARTS = ("gunicorn", "PostgreSQL", "load test", "rest")

    def __init__(self, servers: list[Server]) -> None:
        self.groups = {server.process.pid for server in servers}
        self.tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

    def read(self) -> Reading | None:
        if not os.path.isdir("/proc/self"):
            return None
        reading: Reading = {}
        me = os.getpid()
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat") as stat:
                    text = stat.read()
            except OSError:  # ended meanwhile
                continue
            pid, name = int(entry.name), text[text.index("(") + 1 : text.rindex(")")]
            fields = text[text.rindex(")") + 2 :].split()
            if pid == me:
                part = "load test"
            elif int(fields[2]) in self.groups:
                part = "gunicorn"
            elif name == "postgres":
                part = "PostgreSQL"
            else:
                part = "rest"
            reading[pid] = (part, (int(fields[11]) + int(fields[12])) / self.tick)  # user+system
        return reading

    def used(self, first: Reading, last: Reading) -> dict[str, float]:
        """CPU seconds each part used from ``first`` to ``last``."""
        used = dict.fromkeys(self.PARTS, 0.0)
        for pid, (part, seconds) in last.items():
            before = first.get(pid)
            used[part] += seconds - (before[1] if before and before[0] == part else 0.0)
        return used


async def metered(rec: Recorder, meter: CpuMeter | None) -> None:
    """Read ``meter`` as the measured window opens and as it closes, into ``rec.machine``."""
    if meter is None:
        return
    await asyncio.sleep(max(0.0, rec.start - time.perf_counter()))
    first = meter.read()
    await asyncio.sleep(max(0.0, rec.end - time.perf_counter()))
    last = meter.read()
    if first is not None and last is not None:
        rec.machine = meter.used(first, last)


def cpu_per(rec: Recorder, rate: float) -> dict[str, float]:
    """Milliseconds of CPU each part used per unit done at ``rate`` a second in ``rec``'s
    window (empty when not measured)."""
    if not rec.machine or not rate:
        return {}
    return {part: 1000 * used / (rate * rec.seconds) for part, used in rec.machine.items()}


def cpu_total(rec: Recorder, rate: float) -> float:
    """The machine's milliseconds of CPU (every part) per unit; NaN when not measured."""
    return sum(cpu_per(rec, rate).values()) or math.nan


# ================================================================ figures


@dataclass
class Sample:
    latency: float  # seconds, from the request's scheduled (or actual) start
    done: float
    ok: bool


class Recorder:
    """Every request of one measured window, by endpoint and by game."""

    def __init__(self, start: float, seconds: float) -> None:
        self.start, self.end, self.seconds = start, start + seconds, seconds
        self.samples: dict[tuple[str, str, str], list[Sample]] = defaultdict(list)
        self.errors: dict[str, list[int]] = {}  # error -> [in the window, in the warm-up]
        self.error_count = 0
        self.warmup_errors = 0  # not in the figures, but shown
        self.unsent = 0  # open loop: requests scheduled in the window and never sent
        self.cpu = 0.0  # the load test's own CPU seconds while the phase ran
        self.wall = 0.0
        self.machine: dict[str, float] = {}  # CPU seconds of each part, in the window

    def counts(self, started: float) -> bool:
        return self.start <= started < self.end

    def add(
        self, endpoint: str, game: str, server: str, started: float, done: float, ok: bool
    ) -> None:
        if self.counts(started):
            self.samples[(endpoint, game, server)].append(Sample(done - started, done, ok))

    def error(self, started: float, text: str) -> None:
        """Count an error (those alike together, ``text`` naming no object by its id)."""
        if self.counts(started):
            self.error_count += 1
            self.errors.setdefault(text, [0, 0])[0] += 1
        elif started < self.start:
            self.warmup_errors += 1
            self.errors.setdefault(text, [0, 0])[1] += 1

    def rows(self, by_game: bool = False) -> list[tuple[str, list[Sample]]]:
        grouped: dict[str, list[Sample]] = defaultdict(list)
        for (endpoint, game, _), samples in self.samples.items():
            grouped[f"{endpoint}  [{SHORT.get(game, game)}]" if by_game else endpoint] += samples
        return sorted(grouped.items(), key=lambda item: order_key(item[0]))

    def throughput(self, endpoint: str, server: str | None = None) -> float:
        """Answers (2xx) received inside the window, per second; of one server's, if named."""
        done = [
            s
            for (name, _, where), samples in self.samples.items()
            if name == endpoint and server in (None, where)
            for s in samples
        ]
        return sum(1 for s in done if s.ok and s.done <= self.end) / self.seconds

    def total(self) -> float:
        return (
            sum(
                1
                for samples in self.samples.values()
                for s in samples
                if s.ok and s.done <= self.end
            )
            / self.seconds
        )


ENDPOINT_ORDER = [
    "GET /tables/{id}/",
    "GET /tables/{id}/game/",
    "GET /tables/{id}/hands/",
    "POST /tables/{id}/hands/",
    "POST /hands/{id}/actions/",
    "GET /hands/{id}/",
    "GET /hands/{id}/preview/",
    "POST /hands/{id}/settle/",
    "POST /bare/",
]


def order_key(name: str) -> tuple[int, str]:
    endpoint = name.split("  [")[0]
    index = ENDPOINT_ORDER.index(endpoint) if endpoint in ENDPOINT_ORDER else len(ENDPOINT_ORDER)
    return index, name


def percentile(sorted_values: list[float], fraction: float) -> float:
    if not sorted_values:
        return math.nan
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


def table_text(rec: Recorder, by_game: bool = False) -> str:
    width = 44 if by_game else 30
    head = (
        f"  {'endpoint':<{width}} {'requests':>8} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} "
        f"{'p99 ms':>8} {'errors':>6}"
    )
    lines = [head]
    for name, samples in rec.rows(by_game):
        latencies = sorted(s.latency * 1000 for s in samples)
        done = sum(1 for s in samples if s.ok and s.done <= rec.end)
        errors = sum(1 for s in samples if not s.ok)
        lines.append(
            f"  {name:<{width}} {len(samples):>8} {done / rec.seconds:>8.1f} "
            f"{percentile(latencies, 0.50):>8.1f} {percentile(latencies, 0.95):>8.1f} "
            f"{percentile(latencies, 0.99):>8.1f} {errors:>6}"
        )
    return "\n".join(lines)


def run_phase(phase: Any) -> Recorder:
    """Run one phase's event loop, noting the CPU the load test itself used meanwhile."""
    cpu, wall = time.process_time(), time.perf_counter()
    rec: Recorder = asyncio.run(phase)
    rec.cpu, rec.wall = time.process_time() - cpu, time.perf_counter() - wall
    return rec


def print_notes(rec: Recorder, unit: str = "", rate: float = 0.0) -> None:
    """The CPU the phase used: each part's cores while measured and, given a ``unit`` done
    at ``rate`` a second, its milliseconds per unit; without ``/proc``, the load test's own."""
    if not rec.machine:
        print(
            f"  (the load test's own process: {rec.cpu:.1f} s CPU in {rec.wall:.1f} s, "
            f"{100 * rec.cpu / rec.wall:.0f}% of one core)"
        )
    else:
        cores = ", ".join(f"{part} {used / rec.seconds:.2f}" for part, used in rec.machine.items())
        print(f"  CPU while measured, in cores of {os.cpu_count()}: {cores}")
        if unit and rate:
            each = ", ".join(f"{part} {ms:.1f}" for part, ms in cpu_per(rec, rate).items())
            print(f"  CPU ms per {unit}: {each}; {cpu_total(rec, rate):.1f} in all")
    if rec.unsent:
        print(
            f"  {rec.unsent} scheduled requests never sent: their tablets were still waiting "
            "for earlier answers when the window closed"
        )
    if rec.error_count or rec.warmup_errors:
        warm = f" (and {rec.warmup_errors} during the warm-up)" if rec.warmup_errors else ""
        print(f"  {rec.error_count} errors{warm}:")
        for text, (counted, warming) in list(rec.errors.items())[:SHOWN_ERRORS]:
            when = ", ".join(
                f"{n} {where}" for n, where in ((counted, "measured"), (warming, "warm-up")) if n
            )
            print(f"    {when}: {text}")
        if len(rec.errors) > SHOWN_ERRORS:
            print(f"    ... and {len(rec.errors) - SHOWN_ERRORS} other errors")


# ================================================================ how a tablet plays


def next_clockwise(seats: list[int], after: int) -> int:
    """The first seat clockwise (ascending, wrapping) after ``after``."""
    return next((seat for seat in seats if seat > after), seats[0])


def cards_in(value: Any, into: set[str]) -> set[str]:
    """Every card named anywhere in a JSON value, as the tablet's card picker marks taken
    ones (the deck and the legal actions aside)."""
    if isinstance(value, str):
        if len(value) == 2 and value[0] in RANKS and value[1] in SUITS:
            into.add(value)
    elif isinstance(value, list):
        for item in value:
            cards_in(item, into)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in ("deck", "legal_actions"):
                cards_in(item, into)
    return into


class Pool:
    """The cards of one hand's deck still to come, as the dealer sees them."""

    def __init__(self, deck: list[str], rng: random.Random) -> None:
        self.deck, self.rng = list(deck), rng
        self.taken: set[str] = set()

    def take(self, count: int = 1) -> list[str]:
        left = [card for card in self.deck if card not in self.taken]
        cards = self.rng.sample(left, count)
        self.taken.update(cards)
        return cards

    def one(self) -> str:
        return self.take(1)[0]

    def left(self) -> list[str]:
        return [card for card in self.deck if card not in self.taken]


class Play:
    """A game as a tablet plays it: the opening body, each action from the legal actions,
    the settle body, and what it follows of the table between hands."""

    by_record = False  # settles with the dealer's record instead of actions

    def __init__(self, table: TableInfo, rng: random.Random) -> None:
        self.table, self.rng = table, rng
        self.pool = Pool(DECK, rng)
        self.resumed = False

    def learn(self, view: dict[str, Any]) -> None:
        """The table's game state between hands (``GET /tables/{id}/game/``)."""

    def opening(self) -> dict[str, Any]:
        return {}

    def begin(self, hand: dict[str, Any], resumed: bool) -> None:
        """A hand opened (or found open): the cards already out are taken."""
        self.resumed = resumed
        if resumed:
            state = hand.get("state") or {}
            self.pool = Pool(state.get("deck") or DECK, self.rng)
            cards_in(hand.get("config"), self.pool.taken)
            cards_in(state, self.pool.taken)
        elif (hand.get("state") or {}).get("deck"):
            # the deck the hand is dealt from: keep what the opening body took
            taken = self.pool.taken
            self.pool = Pool(hand["state"]["deck"], self.rng)
            self.pool.taken = taken

    def action(self, state: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def applied(self, action: dict[str, Any], state: dict[str, Any]) -> None:
        """The server took ``action``; ``state`` is the hand after it."""

    def record(self, hand: dict[str, Any]) -> dict[str, Any]:
        return {}

    def settled(self, hand: dict[str, Any], result: dict[str, Any]) -> None:
        """The hand is settled: follow the table's state to the next hand."""


class HighCardFlushPlay(Play):
    by_record = True

    def __init__(self, table: TableInfo, rng: random.Random) -> None:
        super().__init__(table, rng)
        self.offer: int | None = None

    def learn(self, view: dict[str, Any]) -> None:
        state = view["state"]
        self.offer = state.get("offer_seat") if state.get("designated_player") is None else None

    def opening(self) -> dict[str, Any]:
        if self.offer is None:
            return {}
        return {"accept": {"seat": self.offer, "bank": BANK}}

    def record(self, hand: dict[str, Any]) -> dict[str, Any]:
        config = hand["config"]
        deck = list(DECK)
        self.rng.shuffle(deck)
        dp_cards, deck = deck[:7], deck[7:]
        players = []
        for seat in config["players"]:
            cards, deck = deck[:7], deck[7:]
            longest = max(sum(1 for card in cards if card[1] == suit) for suit in SUITS)
            most = 3 if longest >= 6 else 2 if longest == 5 else 1  # clause 6
            players.append(
                {
                    "seat": seat,
                    "cards": cards,
                    "ante": ANTE,
                    "raise": 0 if self.rng.random() < 0.1 else ANTE * self.rng.randint(1, most),
                    "flush_bonus": 100 if self.rng.random() < 0.5 else 0,
                    "straight_flush_bonus": 100 if self.rng.random() < 0.3 else 0,
                }
            )
        dp = config["designated_player"]
        return {"designated_player": {"seat": dp["seat"], "cards": dp_cards}, "players": players}

    def settled(self, hand: dict[str, Any], result: dict[str, Any]) -> None:
        # The position is offered clockwise from this hand's designated player (clause 15).
        self.offer = next_clockwise(self.table.seats, hand["config"]["designated_player"]["seat"])


class DrawPlay(Play):
    """Five Card Draw 7-A: stacks and five cards for the seats dealt in; check or call
    mostly, bet or raise within the bounds sometimes, fold seldom; draw 0-3 cards."""

    def __init__(self, table: TableInfo, rng: random.Random) -> None:
        super().__init__(table, rng)
        self.dealt_in: list[int] = list(table.seats)
        self.deck: list[str] = []
        self.held: dict[int, list[str]] = {}

    def learn(self, view: dict[str, Any]) -> None:
        self.dealt_in = list(view["next_seats"])
        self.deck = list(view["deck"])

    def opening(self) -> dict[str, Any]:
        self.pool = Pool(self.deck, self.rng)
        self.held = {seat: self.pool.take(5) for seat in self.dealt_in}
        return {
            "seats": [
                {"seat": seat, "stack": DRAW_STACK, "cards": cards}
                for seat, cards in self.held.items()
            ]
        }

    def begin(self, hand: dict[str, Any], resumed: bool) -> None:
        super().begin(hand, resumed)
        if resumed:  # the cards drawn so far are not shown: stand pat from here on
            self.held = {s["seat"]: list(s["cards"]) for s in hand["config"]["seats"]}

    def action(self, state: dict[str, Any]) -> dict[str, Any]:
        seat = state["to_act"]
        legal = {a["type"]: a for a in state["legal_actions"]}
        roll = self.rng.random()
        if "draw" in legal:
            room = max(0, state.get("stub", 0) - 1)
            count = 0 if self.resumed else min(self.rng.randint(0, 3), room)
            discard = self.rng.sample(self.held[seat], count)
            return {
                "seat": seat,
                "type": "draw",
                "discard": discard,
                "receive": self.pool.take(count),
            }
        if "call" in legal and roll < 0.08:
            return {"seat": seat, "type": "fold"}
        wager = legal.get("bet") or legal.get("raise")
        if wager is not None and roll > 0.8:
            low, high = wager["min"], wager["max"]
            to = low if high <= low else self.rng.choice([low, low, high, (low + high) // 2])
            return {"seat": seat, "type": wager["type"], "to": to}
        return {"seat": seat, "type": "check" if "check" in legal else "call"}

    def applied(self, action: dict[str, Any], state: dict[str, Any]) -> None:
        if action["type"] == "draw":
            seat = action["seat"]
            kept = [card for card in self.held[seat] if card not in action["discard"]]
            self.held[seat] = kept + action["receive"]

    def settled(self, hand: dict[str, Any], result: dict[str, Any]) -> None:
        # Every seat stays in play, so the same seats are dealt in next hand.
        self.dealt_in = list(hand["seats"])


class PontoonPlay(Play):
    """Pontoon: deal from the deck, the least stake, twist until 15 or more then stick
    mostly (buy now and then), the banker stands when allowed."""

    def begin(self, hand: dict[str, Any], resumed: bool) -> None:
        self.pool = Pool(hand["state"].get("deck") or DECK, self.rng)
        self.resumed = resumed
        cards_in(hand["state"], self.pool.taken)

    def action(self, state: dict[str, Any]) -> dict[str, Any]:
        cards_in(state, self.pool.taken)
        seat = state["to_act"]
        legal = {a["type"]: a for a in state["legal_actions"]}
        if "deal" in legal:
            deal = {"seat": seat, "type": "deal", "card": self.pool.one()}
            if legal["deal"].get("hand") is not None:
                deal["hand"] = legal["deal"]["hand"]
            return deal
        if "stake" in legal:
            return {"seat": seat, "type": "stake", "amount": legal["stake"]["min"]}
        if "no_shoot" in legal:
            return {"seat": seat, "type": "no_shoot"}
        if "stand" in legal:
            return {"seat": seat, "type": "stand"}
        if "draw" in legal:
            return {"seat": seat, "type": "draw", "card": self.pool.one()}
        roll = self.rng.random()
        if "stick" in legal and roll < 0.75:
            return {"seat": seat, "type": "stick", "hand": legal["stick"]["hand"]}
        if "buy" in legal and roll > 0.9:
            buy = legal["buy"]
            return {
                "seat": seat,
                "type": "buy",
                "hand": buy["hand"],
                "amount": buy["min"],
                "card": self.pool.one(),
            }
        return {
            "seat": seat,
            "type": "twist",
            "hand": legal["twist"]["hand"],
            "card": self.pool.one(),
        }


class PaiutePlay(Play):
    """Paiute: five cards each and the upcard; draw from the stock (the card the dealer
    turns) or now and then the discard pile, call whenever a call is legal, else discard."""

    def opening(self) -> dict[str, Any]:
        self.pool = Pool(DECK, self.rng)
        hands = {str(seat): self.pool.take(5) for seat in self.table.seats}
        return {"hands": hands, "upcard": self.pool.one()}

    def action(self, state: dict[str, Any]) -> dict[str, Any]:
        legal = {a["type"]: a for a in state["legal_actions"]}
        if "draw" in legal:
            draw = legal["draw"]
            seat = draw.get("seat", state["to_act"])
            if "discard" in draw["sources"] and self.rng.random() < 0.25:
                return {"seat": seat, "type": "draw", "source": "discard"}
            card = draw.get("stock_card")
            if card is None:  # the stock is what nobody can see
                seen = cards_in(state, set())
                card = self.rng.choice([c for c in self.pool.deck if c not in seen])
            return {"seat": seat, "type": "draw", "source": "stock", "card": card}
        if "call" in legal:
            call = legal["call"]
            return {
                "seat": call.get("seat", state["to_act"]),
                "type": "call",
                "discard": call["discards"][0],
            }
        discard = legal["discard"]
        seat = discard.get("seat", state["to_act"])
        return {"seat": seat, "type": "discard", "card": self.rng.choice(discard["cards"])}


class PalacePlay(Play):
    """Palace Poker: banners of different suits in each group of four from the dealer's
    left, three palace cards each; battles at the least bet, stays, a buy now and then,
    calls mostly in a battle."""

    def __init__(self, table: TableInfo, rng: random.Random) -> None:
        super().__init__(table, rng)
        self.dealer: int | None = None  # this coming hand's dealer, once known

    def learn(self, view: dict[str, Any]) -> None:
        self.dealer = view["state"].get("next_dealer")

    def opening(self) -> dict[str, Any]:
        seats = self.table.seats
        dealer = self.dealer if self.dealer is not None else seats[0]
        order = sorted(seats, key=lambda seat: (seat <= dealer, seat))  # from the dealer's left
        self.pool = Pool(DECK, self.rng)
        players = []
        for position, seat in enumerate(order):
            suit = SUITS[position % 4]  # clause 4: a group of four has each suit once
            banner = self.rng.choice([c for c in self.pool.left() if c[1] == suit])
            self.pool.taken.add(banner)
            players.append(
                {"seat": seat, "stack": PALACE_STACK, "banner": banner, "palace": self.pool.take(3)}
            )
        body: dict[str, Any] = {"players": sorted(players, key=lambda p: p["seat"])}
        if self.dealer is None:
            body["dealer"] = dealer  # the first hand's dealer (later: one seat clockwise)
        return body

    def action(self, state: dict[str, Any]) -> dict[str, Any]:
        seat = state["to_act"]
        legal = {a["type"]: a for a in state["legal_actions"]}
        roll = self.rng.random()
        if "call" in legal or "raise" in legal:  # answering a battle
            if "raise" in legal and roll > 0.92:
                return {"seat": seat, "type": "raise", "amount": legal["raise"]["min"]}
            if "call" in legal and roll > 0.15:
                return {"seat": seat, "type": "call"}
            return {"seat": seat, "type": "fold"}
        buy = legal.get("buy")
        if (
            buy is not None
            and not self.resumed
            and not buy["reshuffle"]
            and not buy["must_discard"]
            and roll < 0.1
        ):
            return {"seat": seat, "type": "buy", "card": self.pool.one()}
        if "battle" in legal and roll < 0.55:
            battle = legal["battle"]
            target = self.rng.choice(battle["targets"])
            return {"seat": seat, "type": "battle", "target": target, "amount": battle["min"]}
        if "stay" in legal and roll < 0.95:
            return {"seat": seat, "type": "stay"}
        if "battle" in legal:
            battle = legal["battle"]
            target = self.rng.choice(battle["targets"])
            return {"seat": seat, "type": "battle", "target": target, "amount": battle["min"]}
        return {"seat": seat, "type": "fold"}

    def settled(self, hand: dict[str, Any], result: dict[str, Any]) -> None:
        self.dealer = next_clockwise(self.table.seats, hand["config"]["dealer"])


PLAYS: dict[str, type[Play]] = {
    HCF: HighCardFlushPlay,
    DRAW: DrawPlay,
    PONTOON: PontoonPlay,
    PAIUTE: PaiutePlay,
    PALACE: PalacePlay,
}


@dataclass
class Request:
    method: str
    path: str
    endpoint: str  # the path as a template, for the figures
    body: Any = None
    then: Callable[[int, Any], None] | None = None
    key: str | None = None  # kept when the request is sent again
    tries: int = 0


class Client:
    """One device: its own connection(s) and token; sends a request, times it, counts it."""

    game = ""

    def __init__(self, token: str, timeout: float) -> None:
        self.token, self.timeout = token, timeout
        self.session: aiohttp.ClientSession | None = None
        self.base = ""
        self.rec: Recorder | None = None

    async def connect(self, base: str, rec: Recorder) -> None:
        self.base, self.rec = base, rec
        self.session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=1, keepalive_timeout=1.5),  # below gunicorn's 2 s
            timeout=aiohttp.ClientTimeout(total=self.timeout),
            headers={"Authorization": f"Token {self.token}", "Accept": "application/json"},
        )

    async def close(self) -> None:
        if self.session is not None:
            await self.session.close()
            self.session = None

    async def send(self, request: Request, scheduled: float | None) -> tuple[int | None, Any]:
        """Send and time one request; ``(None, reason)`` when no answer came."""
        assert self.session is not None and self.rec is not None
        headers = {}
        data = None
        if request.method == "POST":
            request.key = request.key or uuid.uuid4().hex
            headers = {"Idempotency-Key": request.key, "Content-Type": "application/json"}
            data = json.dumps(request.body if request.body is not None else {})
        started = scheduled if scheduled is not None else time.perf_counter()
        status: int | None = None
        try:
            async with self.session.request(
                request.method, self.base + request.path, data=data, headers=headers
            ) as response:
                raw = await response.read()
                status = response.status
        except TimeoutError:
            raw = f"timeout after {self.timeout:.0f} s".encode()
        except aiohttp.ClientError as exc:
            raw = f"{type(exc).__name__}: {exc}".encode()
        done = time.perf_counter()
        ok = status is not None and 200 <= status < 300
        self.rec.add(request.endpoint, self.game, self.base, started, done, ok)
        if not ok:
            text = raw.decode(errors="replace")[:300]
            self.rec.error(
                started,
                f"{request.endpoint} -> {status or 'no answer'}: {text}",
            )
        try:
            body = json.loads(raw) if ok and raw else None
        except ValueError:
            body = None
        return status, body


class Tablet(Client):
    """A dealer's tablet at one table: a state machine that sends one request per step."""

    def __init__(self, table: TableInfo, seed: int, timeout: float, reads: str) -> None:
        super().__init__(table.token, timeout)
        self.table, self.game = table, table.game
        self.play = PLAYS[table.game](table, random.Random(seed * 1_000_003 + table.id))
        self.tablet_reads = reads == "tablet"
        self.need_sync = True  # read the table's game state before the next hand
        self.need_hand = False  # a hand is open: fetch it
        self.hand: dict[str, Any] | None = None
        self.reads: list[Request] = []
        self.retry: Request | None = None
        self.held = False  # a settlement waits for a floor manager: nothing more to do
        self.hands = 0

    # ---------------------------------------------------------------- what to send next

    def plan(self) -> Request:
        t = self.table.id
        if self.retry is not None:
            return self.retry
        if self.reads:
            return self.reads.pop(0)
        if self.need_sync:
            return Request(
                "GET", f"{API}/tables/{t}/game/", "GET /tables/{id}/game/", then=self._synced
            )
        if self.need_hand:
            return Request(
                "GET",
                f"{API}/tables/{t}/hands/?limit=1",
                "GET /tables/{id}/hands/",
                then=self._found,
            )
        if self.hand is None:
            body = self.play.opening()
            return Request(
                "POST", f"{API}/tables/{t}/hands/", "POST /tables/{id}/hands/", body, self._opened
            )
        hand_id, state = self.hand["id"], self.hand["state"]
        if self.play.by_record or state.get("complete"):
            body = self.play.record(self.hand) if self.play.by_record else {}
            return Request(
                "POST",
                f"{API}/hands/{hand_id}/settle/",
                "POST /hands/{id}/settle/",
                body,
                self._settled,
            )
        action = self.play.action(state)
        return Request(
            "POST",
            f"{API}/hands/{hand_id}/actions/",
            "POST /hands/{id}/actions/",
            action,
            lambda status, data: self._acted(action, data),
        )

    async def step(self, scheduled: float | None = None) -> None:
        request = self.plan()
        status, data = await self.send(request, scheduled)
        if status is None:  # no answer: the tablet sends it again, with the same key
            request.tries += 1
            self.retry = request if request.method == "POST" and request.tries < 3 else None
            if self.retry is None:
                self._lost()
            return
        self.retry = None
        if 200 <= status < 300:
            if request.then is not None:
                request.then(status, data)
        else:  # refused (the error is counted): read the table again and carry on
            self._lost()

    def _lost(self) -> None:
        """Refused or unanswered: read the table (and its open hand) again."""
        self.need_sync, self.need_hand, self.hand, self.reads = True, False, None, []

    # ---------------------------------------------------------------- answers

    def _synced(self, status: int, view: dict[str, Any]) -> None:
        self.need_sync = False
        self.play.learn(view)
        self.need_hand = bool(view["hand_open"])

    def _found(self, status: int, page: dict[str, Any]) -> None:
        self.need_hand = False
        hands = page["results"]
        if hands and hands[0]["status"] == "open":
            if hands[0]["waiting_for"]:
                self.held = True
                return
            self._begin(hands[0], resumed=True)
        else:
            self.need_sync = True

    def _opened(self, status: int, hand: dict[str, Any]) -> None:
        self._begin(hand, resumed=False)

    def _begin(self, hand: dict[str, Any], resumed: bool) -> None:
        self.hand = {
            "id": hand["id"],
            "config": hand["config"],
            "seats": hand["seats"],
            "state": hand["state"],
        }
        self.play.begin(hand, resumed)
        self._read_hand()

    def _acted(self, action: dict[str, Any], state: dict[str, Any]) -> None:
        assert self.hand is not None
        self.hand["state"] = state
        self.play.applied(action, state)
        self._read_hand()

    def _read_hand(self) -> None:
        if self.tablet_reads and self.hand is not None:
            hand_id = self.hand["id"]
            self.reads.append(Request("GET", f"{API}/hands/{hand_id}/", "GET /hands/{id}/"))
            if self.hand["state"].get("complete"):
                self.reads.append(
                    Request("GET", f"{API}/hands/{hand_id}/preview/", "GET /hands/{id}/preview/")
                )

    def _settled(self, status: int, result: dict[str, Any]) -> None:
        assert self.hand is not None
        if status == 202:  # above the sign-off limits: the hand waits for the floor
            self.held = True
            assert self.rec is not None
            self.rec.error(
                time.perf_counter(),
                f"hand {self.hand['id']} is waiting for a floor manager's sign-off",
            )
            return
        self.play.settled(self.hand, result)
        self.hand = None
        self.hands += 1
        if self.tablet_reads:
            self.need_sync = True
            t = self.table.id
            self.reads.append(Request("GET", f"{API}/tables/{t}/", "GET /tables/{id}/"))


class BareClient(Client):
    game = "bare"

    async def step(self, scheduled: float | None = None) -> None:
        await self.send(Request("POST", "/bare/", "POST /bare/", {}), scheduled)


# ================================================================ scenarios


@dataclass
class Settings:
    env: dict[str, str]
    workers: int
    threads: int
    scale_workers: int
    seconds: float
    warmup: float
    interval: float
    timeout: float
    logdir: Path
    access_log: bool
    verdicts: list[tuple[str, str]] = field(default_factory=list)  # each target's line


@dataclass
class Figures:
    """One scenario's headline numbers, for the summary over ``--repeat`` runs."""

    values: dict[str, float] = field(default_factory=dict)


async def closed_loop(
    clients: list[Any],
    bases: list[str],
    warmup: float,
    seconds: float,
    meter: CpuMeter | None = None,
) -> Recorder:
    """Every client sends its next request as soon as the last one is answered."""
    begin = time.perf_counter() + 0.2
    rec = Recorder(begin + warmup, seconds)
    try:
        for index, client in enumerate(clients):
            await client.connect(bases[index % len(bases)], rec)

        async def loop(client: Any) -> None:
            while time.perf_counter() < rec.end:
                if getattr(client, "held", False):
                    await asyncio.sleep(0.5)
                    continue
                await client.step()

        await asyncio.gather(metered(rec, meter), *(loop(client) for client in clients))
    finally:
        for client in clients:
            await client.close()
    return rec


async def open_loop(
    clients: list[Tablet],
    base: str,
    warmup: float,
    seconds: float,
    interval: float,
    timeout: float,
    meter: CpuMeter | None = None,
) -> Recorder:
    """Each tablet sends one request every ``interval`` seconds, on a fixed schedule
    (staggered across the tablets); a late answer makes the next request late, and its
    latency counts from its scheduled time. A tablet still behind its schedule some time
    after the window closes stops; the requests it never sent are counted as unsent."""
    begin = time.perf_counter() + 0.5
    rec = Recorder(begin + warmup, seconds)
    give_up = rec.end + min(timeout, 10.0)
    try:
        for client in clients:
            await client.connect(base, rec)

        async def loop(index: int, client: Tablet) -> None:
            first = begin + interval * index / len(clients)
            tick = 0
            while True:
                at = first + tick * interval
                if at >= rec.end:
                    return
                if time.perf_counter() > give_up:  # too far behind: count what is left unsent
                    while at < rec.end:
                        if rec.counts(at):
                            rec.unsent += 1
                        tick += 1
                        at = first + tick * interval
                    return
                delay = at - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                if not client.held:
                    await client.step(scheduled=at)
                tick += 1

        await asyncio.gather(
            metered(rec, meter), *(loop(i, client) for i, client in enumerate(clients))
        )
    finally:
        for client in clients:
            await client.close()
    return rec


def tablets_for(tables: list[TableInfo], tablets: dict[int, Tablet]) -> list[Tablet]:
    return [tablets[t.id] for t in tables]


def scenario_closed(s: Settings, hcf: list[Tablet]) -> dict[str, float]:
    print(f"\n== closed loop: {len(hcf)} High Card Flush tablets, then {len(hcf)} bare clients")
    with serving(s.env, [(s.workers, s.threads)], s.logdir, s.access_log) as [server]:
        print(f"   {server}; {s.warmup:g} s warm-up, {s.seconds:g} s measured each")
        meter = CpuMeter([server])
        rec = run_phase(closed_loop(hcf, [server.base], s.warmup, s.seconds, meter))
        bare = [BareClient(t.token, s.timeout) for t in hcf]
        bare_rec = run_phase(closed_loop(bare, [server.base], min(s.warmup, 1.0), s.seconds, meter))
    settle = rec.throughput("POST /hands/{id}/settle/")
    bare_rate = bare_rec.throughput("POST /bare/")
    print(table_text(rec))
    print_notes(rec, "hand (open and settle)", settle)
    print(table_text(bare_rec).split("\n", 1)[1])
    print_notes(bare_rec, "bare insert", bare_rate)
    ratio = settle / bare_rate if bare_rate else math.nan
    print(
        f"  hands settled: {settle:.1f}/s; all tablet requests {rec.total():.1f}/s; "
        f"bare {bare_rate:.1f}/s"
    )
    print(f"  settle throughput / bare throughput = {ratio:.3f}")
    hand_ms, bare_ms = cpu_total(rec, settle), cpu_total(bare_rec, bare_rate)
    if not math.isnan(hand_ms + bare_ms):
        print(
            f"  a hand used {hand_ms:.1f} ms of the machine's CPU, a bare insert {bare_ms:.1f} ms: "
            f"a hand costs {hand_ms / bare_ms:.1f} bare inserts (a hand is two requests, each "
            "doing at least what a bare insert does, so the ratio stays under 0.5)"
        )
    hand_parts, bare_parts = cpu_per(rec, settle), cpu_per(bare_rec, bare_rate)
    if not math.isnan(hand_ms + bare_ms) and hand_parts.get("PostgreSQL"):
        # The floor the product's design sets: a hand's two requests, each at least a bare
        # insert, plus what PostgreSQL spends storing the hand beyond two bare inserts' share
        # (its rows, audit entries and their triggers); the app's own work comes on top.
        # Only where this machine's PostgreSQL was measured (not a server elsewhere).
        storing = hand_parts["PostgreSQL"] - 2 * bare_parts["PostgreSQL"]
        app = hand_parts["gunicorn"] - 2 * bare_parts["gunicorn"]
        print(
            f"  floor: two requests (2 bare inserts) + PostgreSQL storing the hand beyond "
            f"them {storing:.1f} ms ({storing / bare_ms:.1f} bare inserts) = "
            f"{2 + storing / bare_ms:.1f} bare inserts before the app's own work for the hand "
            f"({app:.1f} ms of gunicorn beyond two bare inserts', {app / bare_ms:.1f} more)"
        )
    s.verdicts.append(
        verdict(
            "a hand in bare inserts of machine CPU",
            f"{hand_ms / bare_ms:.1f}" if not math.isnan(hand_ms + bare_ms) else "-",
            f"at most {HAND_BARE_TARGET:g}",
            None if math.isnan(hand_ms + bare_ms) else hand_ms / bare_ms <= HAND_BARE_TARGET,
        )
    )
    return {
        "closed: settle req/s": settle,
        "closed: bare req/s": bare_rate,
        "closed: settle/bare": ratio,
        "closed: CPU ms a hand": hand_ms,
        "closed: CPU ms a bare insert": bare_ms,
        "closed: errors": rec.error_count + bare_rec.error_count,
    }


def scenario_open(s: Settings, floor: list[Tablet]) -> dict[str, float]:
    games = sorted({t.game for t in floor}, key=GAMES.index)
    print(
        f"\n== open loop: {len(floor)} tablets over {', '.join(SHORT[g] for g in games)}, "
        f"one request each every {s.interval:g} s (offered {len(floor) / s.interval:.1f} req/s)"
    )
    with serving(s.env, [(s.workers, s.threads)], s.logdir, s.access_log) as [server]:
        print(f"   {server}; {s.warmup:g} s warm-up, {s.seconds:g} s measured")
        rec = run_phase(
            open_loop(
                floor, server.base, s.warmup, s.seconds, s.interval, s.timeout, CpuMeter([server])
            )
        )
    print(table_text(rec))
    print("  by game:")
    print(table_text(rec, by_game=True))
    print_notes(rec)
    worst = max(
        (percentile(sorted(x.latency * 1000 for x in samples), 0.99) for _, samples in rec.rows()),
        default=math.nan,
    )
    print(f"  answered {rec.total():.1f} req/s; worst endpoint p99 {worst:.1f} ms")
    stack = (
        (rec.machine["gunicorn"] + rec.machine["PostgreSQL"]) / rec.seconds
        if rec.machine
        else math.nan
    )
    s.verdicts.append(
        verdict(
            f"open loop over every game, app + PostgreSQL, {rec.error_count} errors",
            f"{stack:.2f} cores" if not math.isnan(stack) else "-",
            f"at most {OPEN_CORES_TARGET:g} of one core, 0 errors",
            None
            if math.isnan(stack) or (len(floor), s.interval) != (64, 2)
            else stack <= OPEN_CORES_TARGET and not rec.error_count,
            "not judged: the target's load is 64 tablets, one request each every 2 s",
        )
    )
    return {
        "open: app + PostgreSQL cores": stack,
        "open: req/s": rec.total(),
        "open: worst p99 ms": worst,
        "open: unsent": rec.unsent,
        "open: errors": rec.error_count,
    }


def scenario_scale(s: Settings, hcf: list[Tablet]) -> dict[str, float]:
    print(f"\n== scaling: {len(hcf)} High Card Flush tablets, closed loop, one master vs two")
    with serving(s.env, [(s.scale_workers, s.threads)], s.logdir, s.access_log) as [server]:
        print(f"   one: {server}")
        one = run_phase(closed_loop(hcf, [server.base], s.warmup, s.seconds, CpuMeter([server])))
    masters = [(s.scale_workers, s.threads)] * 2
    with serving(s.env, masters, s.logdir, s.access_log) as servers:
        print(f"   two: {servers[0]} and {servers[1]}, tablets split between them")
        two = run_phase(
            closed_loop(hcf, [x.base for x in servers], s.warmup, s.seconds, CpuMeter(servers))
        )
    settle = "POST /hands/{id}/settle/"
    a, b = one.throughput(settle), two.throughput(settle)
    print("  one master:")
    print(table_text(one))
    print_notes(one, "hand", a)
    print("  two masters:")
    print(table_text(two))
    print_notes(two, "hand", b)
    each = [two.throughput(settle, server.base) for server in servers]
    ratio = b / a if a else math.nan
    print(
        f"  settles/s: one master {a:.1f}; two masters {b:.1f} "
        f"({' + '.join(f'{x:.1f}' for x in each)}); two / one = {ratio:.2f}"
    )
    print(f"  all tablet requests/s: one master {one.total():.1f}, two masters {two.total():.1f}")
    if one.machine:
        # What the machine allows, whatever the code: two masters can settle at most as many
        # more hands as the cores one master's hands left idle, at the same CPU per hand.
        cores, machine = sum(one.machine.values()) / one.seconds, os.cpu_count() or 1
        print(
            f"  one master's hands kept {cores:.2f} of this machine's {machine} cores busy "
            f"(app, PostgreSQL, tablets): two masters can reach at most {machine / cores:.2f}x "
            "here at the same CPU per hand"
        )
    s.verdicts.append(
        verdict(
            f"two masters of {s.scale_workers} process(es) against one, settles",
            f"{ratio:.2f}x",
            f"at least {SCALE_TARGET:g}x",
            None if math.isnan(ratio) else ratio >= SCALE_TARGET,
        )
    )
    return {
        "scale: one master settle req/s": a,
        "scale: two masters settle req/s": b,
        "scale: two/one": ratio,
        "scale: errors": one.error_count + two.error_count,
    }


# ================================================================ main


def table_counts(scenario: str, tablets: int) -> dict[str, int]:
    per_game = math.ceil(tablets / len(GAMES))
    counts = {game: 0 for game in GAMES}
    if scenario in ("all", "open"):
        counts = {game: per_game for game in GAMES}
    if scenario in ("all", "closed", "scale"):
        counts[HCF] = max(counts[HCF], tablets)
    return {game: n for game, n in counts.items() if n}


def open_floor(tables: list[TableInfo], tablets: int) -> list[TableInfo]:
    """``tablets`` tables, taken from each game in turn."""
    by_game = {game: [t for t in tables if t.game == game] for game in GAMES}
    return [by_game[GAMES[i % len(GAMES)]][i // len(GAMES)] for i in range(tablets)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tablets", type=int, default=64, help="simulated tablets (default 64)")
    parser.add_argument("--seconds", type=float, default=20, help="measured seconds per phase")
    parser.add_argument("--warmup", type=float, default=3, help="unmeasured seconds first")
    parser.add_argument(
        "--workers",
        type=int,
        default=int(os.environ.get("WEB_CONCURRENCY", 4)),
        help="gunicorn workers (default WEB_CONCURRENCY or 4, as make serve)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=int(os.environ.get("GUNICORN_THREADS", 1)),
        help="threads per worker (default GUNICORN_THREADS or 1, as make serve)",
    )
    parser.add_argument(
        "--scale-workers",
        type=int,
        default=1,
        help="workers of each master in the scale scenario: one app process against two by default",
    )
    parser.add_argument("--scenario", choices=["all", "closed", "open", "scale"], default="all")
    parser.add_argument("--repeat", type=int, default=1, help="run the scenarios this many times")
    parser.add_argument(
        "--interval", type=float, default=2.0, help="open loop: seconds between a tablet's requests"
    )
    parser.add_argument(
        "--timeout", type=float, default=30, help="seconds before a request counts as unanswered"
    )
    parser.add_argument(
        "--reads",
        choices=["lean", "tablet"],
        default="lean",
        help="lean: the writes of a hand (reads only to recover); tablet: also every read the tablet's screens make",
    )
    parser.add_argument(
        "--access-log", action="store_true", help="gunicorn writes an access log (off: not timed)"
    )
    parser.add_argument(
        "--database", default="casino_loadtest", help="the throwaway database's name"
    )
    parser.add_argument(
        "--keep-db", action="store_true", help="do not drop the database at the end"
    )
    parser.add_argument(
        "--seed", type=int, default=1, help="seed of the cards dealt and choices made"
    )
    args = parser.parse_args()

    base = os.environ.get("DATABASE_URL", "")
    if not base.startswith(("postgres", "pgsql")):
        raise SystemExit("set DATABASE_URL to a PostgreSQL server (make loadtest does)")
    if args.tablets < 1 or args.seconds <= 0:
        raise SystemExit("--tablets and --seconds must be positive")

    print(
        f"Load test · Python {platform.python_version()} · {platform.machine()} · "
        f"{os.cpu_count()} CPUs · aiohttp {aiohttp.__version__}"
    )
    print(
        f"{args.tablets} tablets · {args.seconds:g} s measured (+{args.warmup:g} s warm-up) · "
        f"gunicorn {args.workers} workers x {args.threads} threads · reads: {args.reads} · "
        f"scenario {args.scenario} x {args.repeat}"
    )
    url = create_database(base, args.database)
    logdir = Path(tempfile.mkdtemp(prefix="casino-loadtest-"))
    # The throwaway database's checkpoints go to a file of this run's own (the set-up and the
    # servers read it alike), never a deployment's or the last run's.
    os.environ["AUDIT_ANCHOR_FILE"] = str(logdir / "audit-anchors.jsonl")
    clean = False
    try:
        started = time.perf_counter()
        counts = table_counts(args.scenario, args.tablets)
        tables = set_up_floor(url, counts)
        print(
            f"set-up: database {args.database}, {len(tables)} tables ("
            + ", ".join(f"{n} {SHORT[g]}" for g, n in counts.items())
            + f"), each with its dealer and token, in {time.perf_counter() - started:.1f} s"
        )
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": SETTINGS,
            "DATABASE_URL": url,
            "WEB_CONCURRENCY": str(args.workers),
            "GUNICORN_THREADS": str(args.threads),
        }
        s = Settings(
            env=env,
            workers=args.workers,
            threads=args.threads,
            scale_workers=args.scale_workers,
            seconds=args.seconds,
            warmup=args.warmup,
            interval=args.interval,
            timeout=args.timeout,
            logdir=logdir,
            access_log=args.access_log,
        )
        tablets = {t.id: Tablet(t, args.seed, args.timeout, args.reads) for t in tables}
        hcf = [tablets[t.id] for t in tables if t.game == HCF][: args.tablets]
        runs: list[dict[str, float]] = []
        for run in range(args.repeat):
            if args.repeat > 1:
                print(f"\n######## run {run + 1} of {args.repeat}")
            figures: dict[str, float] = {}
            if args.scenario in ("all", "closed"):
                figures.update(scenario_closed(s, hcf))
            if args.scenario in ("all", "open"):
                floor = tablets_for(open_floor(tables, args.tablets), tablets)
                figures.update(scenario_open(s, floor))
            if args.scenario in ("all", "scale"):
                figures.update(scenario_scale(s, hcf))
            runs.append(figures)
        if s.verdicts:
            print("\ntargets (issue 25; each figure and its yardstick from the same run):")
            for name, line in s.verdicts:
                print(f"  {name}: {line}")
        hands = {game: sum(t.hands for t in tablets.values() if t.game == game) for game in GAMES}
        print(
            "\nhands settled in all: "
            + ", ".join(f"{SHORT[g]} {n}" for g, n in hands.items() if g in counts)
        )
        if args.repeat > 1:
            print("\nsummary over the runs (median, min, max):")
            for name in runs[0]:
                values = [r[name] for r in runs]
                print(
                    f"  {name:<34} {statistics.median(values):>10.2f} {min(values):>10.2f} "
                    f"{max(values):>10.2f}"
                )
        clean = not any(r[k] for r in runs for k in r if k.endswith("errors"))
        if not clean:
            sys.exit(1)
    finally:
        with contextlib.suppress(Exception):
            from django.db import connections

            connections.close_all()
        if clean:
            shutil.rmtree(logdir, ignore_errors=True)
        else:
            print(f"gunicorn's logs are kept in {logdir}")
        if args.keep_db:
            print(f"database {args.database} kept ({url})")
        else:
            drop_database(base, args.database)


if __name__ == "__main__":
    main()
