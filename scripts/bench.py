#!/usr/bin/env python
"""Benchmarks: High Card Flush settlements, Five Card Draw 7-A replays and hand evaluations.

Method
------
* Hands are dealt from a seeded RNG: a designated player and six players, 7 cards each
  from one shuffled 52-card deck; each player folds one time in ten, otherwise raises a
  random legal amount (clause 6) and places each bonus bet half the time. Rules: the
  defaults plus a 100 per-player rake.
* **Engine**: ``evaluate(record, rules)`` on pre-dealt records (parsing and validation
  included, as the API does). Three timed rounds of ``--hands`` hands; the best and the
  median round are printed.
* **Settle endpoint** (only with ``DATABASE_URL`` pointing at PostgreSQL): a throwaway
  database (``--database``, default ``casino_bench``) is created and dropped. Each hand is
  opened through the services, then ``POST /api/v1/hands/{id}/settle/`` goes through the full Django/DRF stack
  in-process (token auth, role check, Idempotency-Key, row lock, engine, storage of the
  settlement and its lines, audit entry, rotation) using DRF's test client, so no HTTP
  server or network is timed. Only the settle calls are timed.
* **History** (on the same throwaway database): does the dealer's routine cost more at a table
  with a long past? Two High Card Flush tables set up alike (seven players, the rules
  above); one is given ``--history`` past hands (default 5,000) played through the services
  in-process (``hand_open`` with the offered seat's acceptance in the body, ``hand_settle``
  with a dealt record, and one hand in seven after a ``decline`` through ``game_act``), so
  it holds their hands, actions, settlements, table events and audit entries; the other has
  none. Then ``--timed`` hands (default 200) of each routine are played at both tables,
  alternating between them, every call through DRF's test client as above with its own
  Idempotency-Key: routine A is ``POST /tables/{id}/hands/`` with the acceptance in the
  body, routine B ``POST /tables/{id}/game/actions/`` (``accept``) then
  ``POST /tables/{id}/hands/`` with no body; every hand is then settled with
  ``POST /hands/{id}/settle/``. Each call is timed alone (``perf_counter``) and its SQL
  queries counted (a connection execute wrapper); the median and 95th percentile of each
  call at each table are printed with the history/fresh ratio (target: at most 1.2). A
  warm-up table plays 20 untimed hands first. Time as the services read it
  (``django.utils.timezone.now``) is simulated: it moves on two minutes between a table's
  hands, so the rotation window (clause 17, 40 minutes) holds the holdings it would on a
  real floor rather than all 5,000 (played in a couple of minutes of wall time). The fresh
  table ends the run with the timed hands as its only past (2 x ``--timed``).

* **Audit check** (on the same throwaway database): how many stored hands are re-verified a
  second. High Card Flush hands are played through the services as for the history section,
  spread over ``--audit-tables`` tables (default 4), until ``--audit-hands`` hands (default
  5,000, the history section's included) are stored; then ``VACUUM ANALYZE`` (the tables as
  autovacuum keeps them, and no autovacuum run during the timings). Two timings of a full check, each after an untimed one:
  - in this one process (``payouts.audit.audit_report(full=True)``: the plan, then every
    chunk one after another): every chain's seals and links, every hand's entries, rows,
    replay through its game and the comparisons. Printed: hands and entries per second, and
    the process's own CPU per hand (``time.process_time``: without the waits on PostgreSQL)
    against the engine's on the same stored hands: every stored settlement's history, read
    once before the timing, re-settled as the check's replay step does (``History.from_dict``,
    ``replay``, ``settle().to_dict()``, the cycle collector paused as the check pauses it).
    Three rounds, engine then check in each; the best of each per hand, the ratio per round,
    and the median ratio against the target (issue 25: at most 1.25x the engine's CPU).
    The check leaves some comparisons to PostgreSQL (``payouts/audit_fast.py``): the CPU of
    the connection's backend during the check is printed apart, per hand, where ``/proc``
    shows it (the server on this machine); it is not in the ratio;
  - with ``REDIS_URL`` set, by one real Celery worker (``celery worker --pool=prefork
    --concurrency=--audit-concurrency``, default one process per CPU, started on the
    throwaway database): the check requested as the desk requests it
    (``audit_check_request``), timed from the request to the stored report, chunks spread
    over the worker's processes, on a queue of the benchmark's own (``CELERY_QUEUE``).
    PostgreSQL shares the machine's cores.
  The check must pass. Target: at least 3,300 hands a second per worker.

* **7-A replays**: seeded random legal hands (2-5 players, random structure, stacks and
  blinds) are played once through ``legal_actions()`` to produce records (random folds,
  calls, bets/raises within the given bounds, draws of 0-5 cards), then timed: ``evaluate``
  (parse, replay every action through the state machine, settle) over all records, three
  rounds; best and median printed.
* **7-A hand evaluations**: ``hand_value`` on 50,000 pre-dealt random 5-card hands, half
  from the 32-card and half from the 36-card deck, against treys' ``Evaluator().evaluate(hand,
  [])`` on the same hands as pre-converted ``Card.new`` ints, and eval7's ``evaluate`` on
  ``eval7.Card`` lists where eval7 is installed (both are in requirements-dev.txt; without
  treys the section says so and measures ours alone). One untimed pass each (ours fills its
  rank-pattern tables as hands come, treys builds its own when made), then three rounds
  timing each evaluator in turn with ``time.process_time``: hands per CPU-second, best and
  median, and ours/treys (target ≥ 1.0×, judged on the best rounds).
* **Paiute combinations**: ``best_combination`` on seeded random holdings of 5 and 6 cards
  from the 52-card deck, each with a random wild rank, three rounds; holdings per CPU-second
  of this process (best and median) and CPU µs per holding.

Run: ``make bench`` (or ``.venv/bin/python scripts/bench.py --hands 2000 --settles 300``);
one section alone with ``--only`` (e.g. ``--only history --history 5000``; repeatable).
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import platform
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
# The endpoint benchmark runs on a throwaway database with the test suite's settings (fixed
# keys); set before ``casino`` is imported, as its Celery app names the default settings.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings_test")
# A check of the throwaway database anchors its heads: never in a real anchor file; and its
# tasks go to a queue of its own, never to a worker of a real deployment on the same Redis.
os.environ["CELERY_QUEUE"] = f"bench-{os.getpid()}"
os.environ["AUDIT_ANCHOR_FILE"] = os.path.join(tempfile.mkdtemp(prefix="bench-"), "anchors.jsonl")

from casino.rules import five_card_draw  # noqa: E402
from casino.rules.cards import (  # noqa: E402
    parse_cards,
    short_deck,  # noqa: E402
    standard_deck,
)
from casino.rules.high_card_flush import Rules, best_flush, evaluate, raise_bounds  # noqa: E402
from casino.rules.paiute import best_combination  # noqa: E402
from casino.rules.poker_hands import hand_value  # noqa: E402

RULES = Rules.from_dict({"rake": {"scheme": "per_player", "amount": 100}})


def deal(
    rng: random.Random, dp_seat: int, seats: list[int], ante: int = 1000, bank: int = 200_000
) -> dict[str, Any]:
    deck = [str(card) for card in standard_deck()]
    rng.shuffle(deck)
    hands = [deck[i * 7 : (i + 1) * 7] for i in range(len(seats) + 1)]
    players = []
    for seat, cards in zip(seats, hands[1:], strict=False):
        length = best_flush(parse_cards(cards, path="cards")).length
        low, high = raise_bounds(ante, length)
        players.append(
            {
                "seat": seat,
                "cards": cards,
                "ante": ante,
                "raise": 0 if rng.random() < 0.1 else rng.choice(range(low, high + 1, ante)),
                "flush_bonus": 200 if rng.random() < 0.5 else 0,
                "straight_flush_bonus": 100 if rng.random() < 0.5 else 0,
            }
        )
    return {
        "designated_player": {"seat": dp_seat, "bank": bank, "cards": hands[0]},
        "players": players,
    }


def bench_engine(hands: int, rounds: int = 3) -> None:
    rng = random.Random(7)
    records = [deal(rng, 1, [2, 3, 4, 5, 6, 7]) for _ in range(hands)]
    rates = []
    for _ in range(rounds):
        start = time.perf_counter()
        for record in records:
            evaluate(record, RULES)
        rates.append(hands / (time.perf_counter() - start))
    print(
        f"engine:  {max(rates):>9,.0f} settlements/s best, {statistics.median(rates):,.0f} "
        f"median ({rounds} rounds x {hands} hands, DP + 6 players)"
    )


def _timed(label: str, unit: str, count: int, run: Any, rounds: int = 3) -> None:
    rates = []
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        rates.append(count / (time.perf_counter() - start))
    print(
        f"{label} {max(rates):>9,.0f} {unit}/s best, {statistics.median(rates):,.0f} median "
        f"({rounds} rounds x {count})"
    )


def draw_record(rng: random.Random) -> dict[str, Any]:
    """One random legal 7-A hand, played through the engine's legal actions."""
    players = rng.randint(2, 5)
    deck = [str(card) for card in short_deck(players == 5)]
    rng.shuffle(deck)
    seats = sorted(rng.sample(range(1, 7), players))
    record: dict[str, Any] = {
        "structure": rng.choice(["limit", "pot_limit", "no_limit"]),
        "small_blind": 100,
        "big_blind": 200,
        "big_bet": 400,
        "button": rng.choice(seats),
        "seats": [
            {
                "seat": seat,
                "stack": rng.choice([1_000, 5_000, 20_000]),
                "cards": deck[i * 5 : (i + 1) * 5],
            }
            for i, seat in enumerate(seats)
        ],
        "actions": [],
    }
    rules = five_card_draw.DrawRules.from_dict({"rake": {"percent": 5, "cap": 300}})
    hand = five_card_draw.DrawHand(five_card_draw.parse_config(record, rules), rules)
    while not hand.complete:
        seat = hand.to_act
        legal = {action["type"]: action for action in hand.legal_actions()}
        roll = rng.random()
        if roll < 0.1:
            action: dict[str, Any] = {"seat": seat, "type": "fold"}
        elif "draw" in legal:
            held = [str(card) for card in hand.cards(seat)]
            stub = [str(card) for card in hand.stub()]
            count = min(rng.randint(0, 3), len(stub) - 1)
            action = {
                "seat": seat,
                "type": "draw",
                "discard": rng.sample(held, count),
                "receive": rng.sample(stub[:-1], count),
            }
        elif roll > 0.75 and ("bet" in legal or "raise" in legal):
            kind = "bet" if "bet" in legal else "raise"
            action = {
                "seat": seat,
                "type": kind,
                "to": rng.randint(legal[kind]["min"], legal[kind]["max"]),
            }
        else:
            action = {"seat": seat, "type": "check" if "check" in legal else "call"}
        hand.apply(action)
        record["actions"].append(action)
    return record


def bench_draw(hands: int) -> None:
    rng = random.Random(5)
    records = [draw_record(rng) for _ in range(hands)]
    rules = five_card_draw.DrawRules.from_dict({"rake": {"percent": 5, "cap": 300}})
    actions = sum(len(r["actions"]) for r in records)

    def replay_all() -> None:
        for record in records:
            five_card_draw.evaluate(record, rules)

    _timed("7-A:     ", "hand replays", hands, replay_all)
    print(f"          ({actions / hands:.1f} actions per hand on average)")
    # 7-A hand evaluations per CPU-second: ours against treys (and eval7) on the same hands.
    dealt = []
    for index in range(50_000):
        with_sixes = index % 2 == 1
        dealt.append((rng.sample(list(short_deck(with_sixes)), 5), with_sixes))

    def ours() -> None:
        for cards, with_sixes in dealt:
            hand_value(cards, with_sixes=with_sixes)

    runs: dict[str, Any] = {"ours": ours}
    try:
        from treys import Card as TreysCard
        from treys import Evaluator
    except ImportError:
        pass
    else:
        treys_hands = [[TreysCard.new(str(card)) for card in cards] for cards, _ in dealt]
        treys_evaluate = Evaluator().evaluate

        def treys() -> None:
            for hand in treys_hands:
                treys_evaluate(hand, [])

        runs["treys"] = treys
    try:
        import eval7
    except ImportError:
        pass
    else:
        eval7_hands = [[eval7.Card(str(card)) for card in cards] for cards, _ in dealt]
        eval7_evaluate = eval7.evaluate

        def eval7_run() -> None:
            for hand in eval7_hands:
                eval7_evaluate(hand)

        runs["eval7"] = eval7_run
    for run in runs.values():  # untimed: ours fills its pattern tables as the hands come
        run()
    rates: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(3):  # each round times every evaluator in turn, on this process's CPU
        for name, run in runs.items():
            start = time.process_time()
            run()
            rates[name].append(len(dealt) / (time.process_time() - start))
    print(
        f"7-A:      hand evaluations per CPU-second, the same {len(dealt):,} five-card hands "
        "(32- and 36-card decks, half each), 3 rounds"
    )
    for name, figures in rates.items():
        print(
            f"          {name:<6} {max(figures):>10,.0f} best, {statistics.median(figures):>10,.0f} "
            "median"
        )
    if "treys" not in rates:
        print("          treys not installed: pip install -r requirements-dev.txt")
    else:
        best = max(rates["ours"]) / max(rates["treys"])
        median = statistics.median(rates["ours"]) / statistics.median(rates["treys"])
        verdict = "met" if best >= 1.0 else "not met"
        print(
            f"          ours/treys {best:.2f}x best, {median:.2f}x median: "
            f"target ≥ 1.0× treys: {verdict}"
        )


def bench_paiute(holdings: int, rounds: int = 3) -> None:
    """Paiute's combination evaluator per CPU-second (what a call and every settlement run)."""
    rng = random.Random(11)
    deck = list(standard_deck())
    dealt = [
        (tuple(rng.sample(deck, rng.choice((5, 6)))), rng.randint(2, 14)) for _ in range(holdings)
    ]
    rates = []
    for _ in range(rounds):
        start = time.process_time()
        for cards, wild in dealt:
            best_combination(cards, wild)
        rates.append(holdings / (time.process_time() - start))
    print(
        f"Paiute:  {max(rates):>9,.0f} holdings/CPU-s best, {statistics.median(rates):,.0f} "
        f"median, {1e6 / max(rates):,.0f} CPU µs a holding ({rounds} rounds x {holdings})"
    )


@contextlib.contextmanager
def throwaway_database(label: str = "endpoint", name: str = "casino_bench") -> Iterator[bool]:
    """The throwaway PostgreSQL database ``name`` (created, then dropped), or False
    with the reason printed when there is no PostgreSQL to use."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres", "pgsql")):
        print(f"{label}: skipped (set DATABASE_URL to a PostgreSQL server to measure it)")
        yield False
        return
    import warnings

    import django

    django.setup()
    # WhiteNoise looks for collected static files the in-process client never asks for.
    warnings.filterwarnings("ignore", message="No directory at")
    from django.db import OperationalError, connection
    from django.test.utils import setup_test_environment

    connection.settings_dict["TEST"]["NAME"] = name
    setup_test_environment()
    try:
        connection.ensure_connection()
    except OperationalError as exc:
        print(f"{label}: skipped (PostgreSQL unreachable: {exc})")
        yield False
        return
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        yield True
    finally:
        # A worker the bench started may still be closing its connections after its warm
        # shutdown: end them, or dropping the database is refused ("being accessed by other
        # users").
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        connection.creation.destroy_test_db(old_name, verbosity=0)


def _staff() -> tuple[Any, Any]:
    """The benchmark's floor manager and dealer (made once per database)."""
    from django.contrib.auth.models import Group, User

    floor, made = User.objects.get_or_create(username="bench-floor")
    if made:
        floor.groups.add(Group.objects.get(name="floor_manager"))
    dealer, made = User.objects.get_or_create(username="bench-dealer")
    if made:
        dealer.groups.add(Group.objects.get(name="dealer"))
    return floor, dealer


def _hcf_table(floor: Any, dealer: Any, name: str) -> Any:
    """An open High Card Flush table with seven players, seat 1 offered the position."""
    from tables import services

    table = services.table_create(
        user=floor,
        name=name,
        game="high-card-flush",
        limits={"ante_min": 100, "ante_max": 10_000, "bank_min": 1_000, "bank_max": 1_000_000},
        dealer=dealer,
        rules={"rake": {"scheme": "per_player", "amount": 100}},
    )
    for seat in range(1, 8):
        services.seat_update(
            user=floor, table_id=table.pk, number=seat, player=f"P{seat}", sitting_out=False
        )
    services.table_set_status(user=floor, table_id=table.pk, status="open")
    return table


def _client(user: Any) -> Any:
    """DRF's in-process test client with a token for ``user``."""
    from knox.models import AuthToken
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user=user)[1]}")
    return client


def _run_endpoint(settles: int) -> None:
    from tables import services

    floor, dealer = _staff()
    table = _hcf_table(floor, dealer, "bench")
    client = _client(dealer)
    rng = random.Random(11)
    elapsed = 0.0
    for index in range(settles):
        table.refresh_from_db()
        dp_seat = table.game_state["offer"]
        services.game_act(
            user=dealer,
            table_id=table.pk,
            action={"type": "accept", "seat": dp_seat, "bank": 200_000},
        )
        hand = services.hand_open(user=dealer, table_id=table.pk)
        record = deal(rng, dp_seat, [s for s in range(1, 8) if s != dp_seat])
        start = time.perf_counter()
        response = client.post(
            f"/api/v1/hands/{hand.pk}/settle/",
            record,
            format="json",
            HTTP_IDEMPOTENCY_KEY=f"bench-{index}",
        )
        elapsed += time.perf_counter() - start
        if response.status_code != 201:
            raise SystemExit(f"settle failed: {response.status_code} {response.content!r}")
    print(
        f"endpoint: {settles / elapsed:>8,.1f} settlements/s ({settles} settles through "
        f"POST /api/v1/hands/{{id}}/settle/ on PostgreSQL, {elapsed / settles * 1000:.1f} "
        "ms each)"
    )


# ------------------------------------------------------------------ cost against history

BANK = 200_000
CALLS = (
    ("open", "open (accept in the call)"),
    ("accept", "accept (game action)"),
    ("open_after", "open (after accept)"),
    ("settle", "settle"),
)


class SimulatedClock:
    """``django.utils.timezone.now`` while the section runs: it starts ``minutes`` ago and is
    moved on by hand (a microsecond a reading, so readings stay in order)."""

    def __init__(self, minutes: int) -> None:
        from django.utils import timezone

        self._real = timezone.now
        self.at = timezone.now() - timedelta(minutes=minutes)

    def __call__(self) -> Any:
        self.at += timedelta(microseconds=1)
        return self.at

    def advance(self, minutes: int) -> None:
        self.at += timedelta(minutes=minutes)

    def __enter__(self) -> SimulatedClock:
        from django.utils import timezone

        timezone.now = self  # type: ignore[assignment]
        return self

    def __exit__(self, *exc: object) -> None:
        from django.utils import timezone

        timezone.now = self._real  # type: ignore[method-assign]


def _offer(table: Any) -> int:
    """The seat the table's designated-player position is offered to now."""
    from tables.models import Table

    return Table.objects.values_list("game_state", flat=True).get(pk=table.pk)["offer"]


def _others(dp_seat: int) -> list[int]:
    return [seat for seat in range(1, 8) if seat != dp_seat]


def _play_past_hands(table: Any, dealer: Any, count: int, clock: SimulatedClock) -> None:
    """``count`` real hands at ``table`` through the services (no HTTP), with progress."""
    from approvals.models import Approval
    from tables import services

    rng = random.Random(13)
    start = time.perf_counter()
    for index in range(count):
        seat = _offer(table)
        if index % 7 == 3:  # now and then the offered seat passes
            services.game_act(
                user=dealer, table_id=table.pk, action={"type": "decline", "seat": seat}
            )
            seat = _offer(table)
        hand = services.hand_open(
            user=dealer, table_id=table.pk, body={"accept": {"seat": seat, "bank": BANK}}
        )
        settled = services.hand_settle(
            user=dealer, hand_id=hand.pk, record=deal(rng, seat, _others(seat))
        )
        if isinstance(settled, Approval):
            raise SystemExit(f"history: hand {hand.number} waits for a sign-off")
        clock.advance(2)
        done = index + 1
        if done % 250 == 0 or done == count:
            took = time.perf_counter() - start
            print(
                f"\r  filling: {done:,}/{count:,} hands ({done / took:,.0f} hands/s)",
                end="" if done < count else "\n",
                flush=True,
            )


class Routine:
    """One table's timed calls: each call through the client, timed and its queries counted."""

    def __init__(self, table: Any, client: Any, rng: random.Random, label: str) -> None:
        self.table, self.client, self.rng, self.label = table, client, rng, label
        self.times: dict[str, list[float]] = {name: [] for name, _ in CALLS}
        self.queries: dict[str, list[int]] = {name: [] for name, _ in CALLS}
        self.calls = 0

    def post(self, name: str, path: str, body: Any, status: int) -> Any:
        from django.db import connection

        counted = [0]

        def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
            counted[0] += 1
            return execute(sql, params, many, context)

        self.calls += 1
        key = f"history-{self.label}-{self.calls}"
        with connection.execute_wrapper(count):
            start = time.perf_counter()
            response = self.client.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
            took = time.perf_counter() - start
        if response.status_code != status:
            raise SystemExit(f"{name} failed: {response.status_code} {response.content!r}")
        self.times[name].append(took)
        self.queries[name].append(counted[0])
        return response.json()

    def hand(self, in_the_call: bool) -> None:
        """Routine A (the acceptance in the opening call) or B (accept, then open), then
        settle."""
        table = self.table.pk
        seat = _offer(self.table)
        accept = {"seat": seat, "bank": BANK}
        if in_the_call:
            hand = self.post("open", f"/api/v1/tables/{table}/hands/", {"accept": accept}, 201)
        else:
            action = {"type": "accept", **accept}
            self.post("accept", f"/api/v1/tables/{table}/game/actions/", action, 200)
            hand = self.post("open_after", f"/api/v1/tables/{table}/hands/", {}, 201)
        record = deal(self.rng, seat, _others(seat))
        self.post("settle", f"/api/v1/hands/{hand['id']}/settle/", record, 201)


def _ms(samples: list[float], at: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(at * len(ordered)))] * 1000


def _queries(counts: list[int]) -> str:
    low, high = min(counts), max(counts)
    return str(low) if low == high else f"{low}-{high}"


def _run_history(history: int, timed: int) -> None:
    from django.db import connection

    from tables.models import Hand

    floor, dealer = _staff()
    client = _client(dealer)  # made at the real time: its expiry is ahead of the clock
    warm_up = 20
    with SimulatedClock(2 * (history + 2 * timed + warm_up) + 60) as clock:
        fresh = _hcf_table(floor, dealer, "history-fresh")
        old = _hcf_table(floor, dealer, "history-old")
        warm = _hcf_table(floor, dealer, "history-warm-up")
        print(f"history: filling table {old.name} with {history:,} past hands (services)")
        _play_past_hands(old, dealer, history, clock)
        # The planner's statistics as autovacuum keeps them on a floor that has been running
        # (its analyze follows a table's growth within a minute or so); without it, plans
        # made while the tables were empty (a connection's cached trigger plans among them)
        # would scan what an index finds once there is a history.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        warming = Routine(warm, client, random.Random(17), "warm")
        for index in range(warm_up):
            warming.hand(index % 2 == 0)
            clock.advance(2)
        routines = [
            Routine(fresh, client, random.Random(19), "fresh"),
            Routine(old, client, random.Random(19), "old"),
        ]
        before = {r.label: Hand.objects.filter(table=r.table).count() for r in routines}
        for index in range(2 * timed):  # A and B in turn, one table then the other
            for routine in routines:
                routine.hand(index % 2 == 0)
                clock.advance(1)
    fresh_run, old_run = routines
    print(
        f"history: the dealer's routine at a fresh table ({before['fresh']} past hands) and at "
        f"one with {before['old']:,} (ms; {timed} timed calls each, settle {2 * timed})"
    )
    header = (
        f"  {'call':<27} {'fresh med':>9} {'p95':>6}  {'history med':>11} {'p95':>6}  "
        f"{'ratio med':>9} {'p95':>5}  queries fresh/history"
    )
    print(header)
    worst = 0.0
    for name, label in CALLS:
        a, b = fresh_run.times[name], old_run.times[name]
        med_a, med_b = statistics.median(a) * 1000, statistics.median(b) * 1000
        p95_a, p95_b = _ms(a, 0.95), _ms(b, 0.95)
        worst = max(worst, med_b / med_a)
        print(
            f"  {label:<27} {med_a:>9.2f} {p95_a:>6.2f}  {med_b:>11.2f} {p95_b:>6.2f}  "
            f"{med_b / med_a:>8.2f}x {p95_b / p95_a:>4.2f}x  "
            f"{_queries(fresh_run.queries[name])} / {_queries(old_run.queries[name])}"
        )
    verdict = "within" if worst <= 1.2 else "ABOVE"
    print(f"  worst median ratio {worst:.2f}x: {verdict} the 1.2x target")


def _run_audit(hands: int, tables: int, concurrency: int) -> None:
    import gc

    from django.db import connection

    from casino.rules.contract import History, game
    from payouts.audit import audit_report
    from payouts.models import Settlement
    from tables.models import Hand, Table

    stored = Hand.objects.count()
    if stored < hands:
        floor, dealer = _staff()
        share = -(-(hands - stored) // tables)
        for number in range(1, tables + 1):
            name = f"bench-audit-{number}"
            table = Table.objects.filter(name=name).first() or _hcf_table(floor, dealer, name)
            count = min(share, hands - Hand.objects.count())
            with SimulatedClock(2 * count + 10) as clock:
                _play_past_hands(table, dealer, count, clock)
    with connection.cursor() as cursor:  # as autovacuum leaves the tables (not during the timing)
        cursor.execute("VACUUM ANALYZE")
    # The engine's share, on the same stored hands: every settlement the check replays, read
    # once here (not timed), then re-settled from its stored history as the check's replay
    # step does (``payouts.audit._check_replay``), with the cycle collector paused as the
    # check pauses it.
    histories = list(
        Settlement.objects.filter(kind__in=(Settlement.Kind.SETTLEMENT, Settlement.Kind.CORRECTION))
        .order_by("pk")
        .values_list("history", flat=True)
    )

    def engine() -> float:
        gc.disable()
        try:
            cpu = time.process_time()
            for stored in histories:
                history = History.from_dict(stored)
                game(history.game).replay(history).settle().to_dict()
            return time.process_time() - cpu
        finally:
            gc.enable()

    engine()
    audit_report(full=True)  # warm: the engines' imports and caches
    rounds: list[tuple[float, float, float]] = []  # (engine CPU, check CPU, check wall)
    backend: list[float] = []  # PostgreSQL's CPU serving the check, where it can be read
    for _ in range(3):  # interleaved, so a busy spell of the machine hits both alike
        engine_cpu = engine()
        server = _backend_cpu()
        start, cpu = time.perf_counter(), time.process_time()
        report = audit_report(full=True)
        took, cpu = time.perf_counter() - start, time.process_time() - cpu
        if server is not None and (after := _backend_cpu()) is not None:
            backend.append(after - server)
        rounds.append((engine_cpu, cpu, took))
        if not report["ok"]:
            raise SystemExit(f"audit check failed: {report['findings'][:3]} {report['chain']}")
    checked, entries = report["hands_checked"], report["chain"]["entries_checked"]
    took = min(wall for _, _, wall in rounds)
    print(
        f"audit check, one process: {checked:,} hands and {entries:,} audit entries of "
        f"{report['chain']['chains']} chains in {took:.2f} s (best of 3): "
        f"{checked / took:,.0f} hands/s, {entries / took:,.0f} entries/s; passed"
    )
    ratios = [check / eng for eng, check, _ in rounds]
    best_engine, best_check = min(r[0] for r in rounds), min(r[1] for r in rounds)
    print(
        f"  CPU per hand, this process (process_time; PostgreSQL's own time is not in it), "
        f"best of 3:\n"
        f"    the check  {best_check / checked * 1e6:7.0f} µs ({checked / best_check:,.0f} "
        "hands per CPU-second)\n"
        f"    the engine {best_engine / checked * 1e6:7.0f} µs ({checked / best_engine:,.0f} "
        f"hands per CPU-second), re-settling the {len(histories):,} stored settlements\n"
        f"  check/engine {best_check / best_engine:.2f}x on the best rounds; per round "
        f"{', '.join(f'{r:.2f}x' for r in ratios)}, median {statistics.median(ratios):.2f}x "
        f"(target ≤ 1.25x: {'met' if statistics.median(ratios) <= 1.25 else 'not met'})"
    )
    reading = _audit_reading_cpu()
    print(
        f"  reading alone (every chain's entries with their seals checked, every hand's rows "
        f"loaded and decoded), best of 3: {reading / checked * 1e6:.0f} µs per hand, "
        f"{reading / best_engine:.2f}x the engine: the check's floor with nothing compared is "
        f"{1 + reading / best_engine:.2f}x"
    )
    if backend:  # the comparisons the check leaves to the database are not free: shown apart
        print(
            f"  PostgreSQL's backend serving the check (not in the ratio): "
            f"{min(backend) / checked * 1e6:.0f} µs CPU per hand, best of {len(backend)}"
        )
    _run_audit_worker(concurrency)


def _audit_reading_cpu() -> float:
    """This process's CPU reading what the audit check reads, compared with nothing: each
    chain's entries through the check's own quick path (their seals and links verified), and
    every stored hand's rows through the check's loader, in its batches (best of 3)."""
    import gc

    from django.db import transaction

    from payouts.audit import HAND_BATCH
    from payouts.audit_fast import chain_verify_quick
    from payouts.chain import chain_heads
    from payouts.reads import hands_load
    from tables.models import Hand

    keys = list(chain_heads())  # every table's chain and the house chain
    ids = list(Hand.objects.order_by("pk").values_list("pk", flat=True))
    best = math.inf
    gc.disable()
    try:
        for _ in range(3):
            cpu = time.process_time()
            with transaction.atomic():
                for key in keys:
                    if not chain_verify_quick(key).ok:
                        raise SystemExit(f"reading: chain {key} does not verify")
            for start in range(0, len(ids), HAND_BATCH):
                hands_load(ids[start : start + HAND_BATCH])
            best = min(best, time.process_time() - cpu)
    finally:
        gc.enable()
    return best


def _backend_cpu() -> float | None:
    """The CPU seconds (user + system) of this connection's PostgreSQL backend so far, read
    from ``/proc`` where the server runs on this machine; None where it cannot be read."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        [(pid,)] = cursor.fetchall()
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _drop_queued_theory() -> None:
    """Creating the benchmark's tables queued their theoretical-hold simulations on the
    benchmark's queue: dropped before the worker starts, so the worker's CPU goes to the audit
    check being measured (the throwaway database, and its unfilled figures, go at the end)."""
    from casino.celery import app

    with app.connection_for_write() as conn:
        dropped = conn.default_channel.queue_purge(os.environ["CELERY_QUEUE"])
    if dropped:
        print(f"  {dropped} theoretical-hold simulations the set-up queued: dropped, not measured")


def _stop(worker: subprocess.Popen[bytes]) -> None:
    """A warm shutdown (SIGTERM: the running task finishes), then the whole process group
    killed if it takes over 30 s, so a slow task never leaves a worker behind."""
    worker.terminate()
    try:
        worker.wait(30)
    except subprocess.TimeoutExpired:
        print("  the worker took over 30 s to stop: killed")
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait()


def _run_audit_worker(concurrency: int) -> None:
    """A full check requested as the desk requests it, run by a real Celery worker (a
    subprocess on this database and ``REDIS_URL``) with ``concurrency`` processes; timed from
    the request to the stored report."""
    from urllib.parse import quote

    from django.db import connection

    from payouts.models import AuditCheck
    from payouts.services import audit_check_request

    if not os.environ.get("REDIS_URL"):
        print("audit check, one worker: skipped (set REDIS_URL for a Celery broker)")
        return
    _drop_queued_theory()
    db = connection.settings_dict
    login = quote(db["USER"] or "") + (f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else "")
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{login}@{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}"
        f"/{db['NAME']}",
        "DJANGO_SETTINGS_MODULE": "casino.settings_test",
        "CELERY_TASK_ALWAYS_EAGER": "false",
    }
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "casino", "--quiet", "worker", "--pool=prefork"]
        + [f"--concurrency={concurrency}", f"--queues={os.environ['CELERY_QUEUE']}"]
        + ["--loglevel=WARNING", "--without-gossip"]
        + ["--without-mingle", "--without-heartbeat"],
        env=env,
        cwd=Path(__file__).resolve().parent.parent,
        start_new_session=True,  # its pool processes stop with it (see ``finally``)
    )

    def check() -> tuple[AuditCheck, float]:
        start = time.perf_counter()
        pk = audit_check_request(user=None, full=True).pk
        while (done := AuditCheck.objects.get(pk=pk)).stage != AuditCheck.Stage.DONE:
            if worker.poll() is not None or time.perf_counter() - start > 600:
                raise SystemExit("audit check, one worker: the worker stopped or took 10 min")
            time.sleep(0.02)
        return done, time.perf_counter() - start

    try:
        check()  # warm: the worker's processes import the engines
        done, took = check()
    finally:
        _stop(worker)
    report = done.report
    checked = report["hands_checked"]
    print(
        f"audit check, one worker ({concurrency} processes, request to report): {checked:,} "
        f"hands of {report['chain']['chains']} chains in {took:.2f} s: "
        f"{checked / took:,.0f} hands/s (target 3,300); "
        f"{'passed' if report['ok'] else 'FAILED'}"
    )


SECTIONS = ("engine", "draw", "paiute", "endpoint", "history", "audit")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=3000, help="hands per engine round")
    parser.add_argument("--draw-hands", type=int, default=1000, help="7-A hands per round")
    parser.add_argument(
        "--paiute-holdings", type=int, default=3000, help="Paiute holdings per round"
    )
    parser.add_argument("--settles", type=int, default=300, help="settle calls to time")
    parser.add_argument(
        "--history", type=int, default=5000, help="past hands at the history section's table"
    )
    parser.add_argument(
        "--audit-hands", type=int, default=5000, help="stored hands the audit check re-verifies"
    )
    parser.add_argument(
        "--audit-tables", type=int, default=4, help="tables the audit section's hands are at"
    )
    parser.add_argument(
        "--audit-concurrency",
        type=int,
        default=os.cpu_count() or 1,
        help="processes of the Celery worker that runs the timed check (default: one per CPU)",
    )
    parser.add_argument(
        "--timed", type=int, default=200, help="timed hands of each routine per table (history)"
    )
    parser.add_argument("--database", default="casino_bench", help="the throwaway database's name")
    parser.add_argument(
        "--only",
        action="append",
        choices=SECTIONS,
        help="run only this section (repeatable); default: all",
    )
    args = parser.parse_args()
    only = set(args.only or SECTIONS)
    print(
        f"Benchmarks · Python {platform.python_version()} · "
        f"{platform.machine()} · {os.cpu_count()} CPUs"
    )
    if "engine" in only:
        bench_engine(args.hands)
    if "draw" in only:
        bench_draw(args.draw_hands)
    if "paiute" in only:
        bench_paiute(args.paiute_holdings)
    on_database = [name for name in ("endpoint", "history", "audit") if name in only]
    if on_database:
        with throwaway_database(" and ".join(on_database), args.database) as ready:
            if ready and "endpoint" in only:
                _run_endpoint(args.settles)
            if ready and "history" in only:
                _run_history(args.history, args.timed)
            if ready and "audit" in only:
                _run_audit(args.audit_hands, args.audit_tables, args.audit_concurrency)


if __name__ == "__main__":
    main()
