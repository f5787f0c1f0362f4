#!/usr/bin/env python
"""Benchmark: a live action's cost along the hand, with the replay path and the snapshot path.

Issue 25, target 2: a live action costs the same at the 75th action as at the 1st (CPU,
within ±20 %), with the query count constant. Every action used to re-read and replay the
whole hand; ``tables.live`` now starts from the hand's signed snapshot of the engine state.

Method
------
* On a throwaway PostgreSQL database (``--database``, default ``casino_bench_live``, created
  and dropped as ``scripts/bench.py`` does; ``DATABASE_URL`` must point at PostgreSQL).
* Hands are opened and driven as the test suite's "any hand" drives them
  (``tests/desk/any_hand.py``: a table of the game with three players, the opening body and
  each action's body filled from what the game declares), each hand at a table of its own.
  Every action is ``POST /api/v1/hands/{id}/actions/`` through the full Django/DRF stack
  in-process (token auth, role check, row lock, engine, storage of the action and its audit
  entry, the answer) with DRF's test client. A finished hand is settled through the API
  (untimed).
* **Paiute** hands are made long, as Paiute hands are on a floor (75 actions on average):
  nobody calls, a draw takes the top of the discard pile whenever it may (so the stock
  lasts), the other actions are random legal ones, and each hand stops at ``--longest``
  actions (default 150, twice the average: the figures at the 75th, ``--actions``, are the
  target's, the ones at the 150th show the trend), left open at a table of its own. The **other live games** play random legal actions
  (mostly staking ones, as ``any_hand`` chooses) for as long as their hands last; their
  "Nth" action is the ``--actions``-th or, when their hands are shorter, the median hand's
  last.
* Each timed action is measured alone: the CPU of this process (``time.process_time``: the
  app's own CPU, PostgreSQL's is not in it) and the SQL statements it ran (a connection
  execute wrapper). On a shared machine one run of a request is noisy, so a timed action is
  first run ``--trials`` times (default 3) inside a transaction rolled back (the same hand,
  the same action, nothing kept), then for real; its CPU is the least of these runs. Per
  action index, the median over the hands. Paiute's hands time the actions shown (the 1st,
  every 15th, the 75th, the 150th); the other games' hands time every action.
* **Before and after in one run**: every hand is played twice with the same seed (so the
  same actions), once with the replay path forced (``tables.live.SNAPSHOTS = False``: the
  whole hand read and replayed for every action, as before the snapshot) and once with
  snapshots, the two alternating hand by hand so that a change of the machine's speed hits
  both alike. ``--replay`` runs the replay path alone (the "before" by itself).
* Printed per game and path: the 1st and the Nth action's CPU (median over hands), Nth/1st,
  the target (0.8-1.2) and met / not met, the statements of the 1st and the Nth action (and
  Paiute's 150th action's figures); and the median CPU at points along the hand.

Run: ``.venv/bin/python scripts/bench_live.py`` (``--hands 30 --other-hands 10 --actions 75``).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings_test")

from bench import _client, _staff, throwaway_database  # noqa: E402

LOW, HIGH = 0.8, 1.2  # the target: the Nth action's CPU within ±20 % of the 1st's
OTHER_GAMES = ("five-card-draw-7a", "palace-poker", "pontoon", "high-card-flush")
STEPS = 400  # the most actions a driven hand may take
JSON = dict[str, Any]


class Measured:
    """One played hand: each action's CPU seconds and SQL statements, in order."""

    def __init__(self) -> None:
        self.cpu: list[float | None] = []  # None: not timed
        self.queries: list[int] = []


def _paiute_body(found: Any, state: dict[str, Any], rng: random.Random, deck: Any) -> JSON:
    """Paiute's long-hand policy: nobody calls; a draw takes the top of the discard pile
    whenever it may (so the stock lasts, never reshuffled); otherwise a random legal action,
    its body filled as ``any_hand`` fills it."""
    from tests.desk.any_hand import action_body

    offered = state["legal_actions"]
    legal = rng.choice([legal for legal in offered if legal["type"] != "call"] or offered)
    if legal["type"] == "draw" and "discard" in (legal.get("sources") or []):
        return {"type": "draw", "seat": legal["seat"], "source": "discard"}
    return action_body(found, legal, state, deck, rng)


def play(
    code: str,
    client: Any,
    floor: Any,
    dealer: Any,
    seed: int,
    longest: int,
    timed: Callable[[int], bool],
    trials: int,
) -> Measured:
    """One hand of ``code`` at a new table, every action through the API; each action whose
    index is ``timed`` is measured as the least CPU of ``trials`` runs rolled back and the
    one kept."""
    from django.db import connection, transaction

    from casino.rules.contract import game
    from tests.desk.any_hand import _choose, _open, action_body, table_for

    found = game(code)
    table = table_for(code, floor=floor, dealer=dealer, players=min(3, found.max_seats))
    rng = random.Random(seed)
    opened = _open(found, table, dealer, rng)
    state, measured = opened.state, Measured()
    counted = [0]

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        counted[0] += 1
        return execute(sql, params, many, context)

    url = f"/api/v1/hands/{opened.pk}/actions/"
    for _ in range(STEPS):
        if state["complete"] or (code == "paiute" and len(measured.cpu) >= longest):
            break
        if code == "paiute":
            body = _paiute_body(found, state, rng, opened.deck)
        else:
            body = action_body(
                found, _choose(state["legal_actions"], found, rng), state, opened.deck, rng
            )
        index = len(measured.cpu)
        tries = []
        for _ in range(trials if timed(index) else 0):  # each rolled back: the same action
            with transaction.atomic():
                start = time.process_time()
                response = client.post(url, body, format="json")
                tries.append(time.process_time() - start)
                transaction.set_rollback(True)
            if response.status_code != 200:
                raise SystemExit(f"{code}: {body} refused: {response.status_code}")
        counted[0] = 0
        with connection.execute_wrapper(count):
            start = time.process_time()
            response = client.post(url, body, format="json")
            tries.append(time.process_time() - start)
        if response.status_code != 200:
            raise SystemExit(f"{code}: {body} refused: {response.status_code} {response.content!r}")
        state = response.json()
        measured.cpu.append(min(tries) if timed(index) else None)
        measured.queries.append(counted[0])
    if state["complete"]:
        settled = client.post(f"/api/v1/hands/{opened.pk}/settle/", {}, format="json")
        if settled.status_code not in (200, 201):
            raise SystemExit(f"{code}: settle refused: {settled.status_code} {settled.content!r}")
    return measured


def _median_at(hands: list[Measured], index: int) -> tuple[float, list[int]]:
    reached = [hand for hand in hands if len(hand.cpu) > index]
    return (
        statistics.median(hand.cpu[index] for hand in reached),  # type: ignore[type-var]
        sorted({hand.queries[index] for hand in reached}),
    )


def points(nth: int, longest: int) -> list[int]:
    """The actions (numbered from 1) shown along a hand of ``longest`` actions."""
    step = max(1, longest // 8 // 5 * 5)
    return sorted({1, *range(step, longest + 1, step), nth, longest})


def _queries(counts: list[int]) -> str:
    return str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"


def report(code: str, runs: dict[str, list[Measured]], target: int) -> dict[str, bool]:
    """Print the game's figures; returns met / not met per path."""
    first_path = next(iter(runs.values()))
    lengths = sorted(len(hand.cpu) for hand in first_path)
    nth = min(target, lengths[len(lengths) // 2])
    longest = lengths[len(lengths) // 2]
    print(
        f"\n{code}: {len(first_path)} hands a path, {lengths[0]}-{lengths[-1]} actions "
        f"(median {statistics.median(lengths):.0f}); the Nth action is the {nth}th"
    )
    far = f"{longest}th"
    print(
        f"  {'path':<9} {'1st ms':>7} {f'{nth}th ms':>8} {'Nth/1st':>8}  {'target':<9} "
        f"{'':8} {'queries 1st/Nth':<16}"
        + (f" {far + ' ms':>9} {far + '/1st':>9} queries" if longest > nth else "")
    )
    verdicts = {}
    for path, hands in runs.items():
        first, first_q = _median_at(hands, 0)
        last, last_q = _median_at(hands, nth - 1)
        ratio = last / first
        met = LOW <= ratio <= HIGH and first_q == last_q
        verdicts[path] = met
        line = (
            f"  {path:<9} {first * 1000:7.2f} {last * 1000:8.2f} {ratio:7.2f}x  "
            f"{LOW:.1f}-{HIGH:.1f}x  {'met' if met else 'not met':8} "
            f"{_queries(first_q) + ' / ' + _queries(last_q):<16}"
        )
        if longest > nth:
            end, end_q = _median_at(hands, longest - 1)
            line += f" {end * 1000:9.2f} {end / first:8.2f}x {_queries(end_q)}"
        print(line)
    shown = points(nth, longest)
    print("  median CPU ms at action: " + " ".join(f"{p:>6}" for p in shown))
    for path, hands in runs.items():
        row = " ".join(f"{_median_at(hands, p - 1)[0] * 1000:6.2f}" for p in shown)
        print(f"  {path:<9}{'':16}{row}")
    return verdicts


def measure(
    code: str, hands: int, target: int, longest: int, paths: list[str], seed: int, trials: int
) -> dict[str, bool]:
    from tables import live

    floor, dealer = _staff()
    client = _client(dealer)
    if code == "paiute":  # long hands: only the actions shown are timed
        shown = {p - 1 for p in points(target, longest)}
        timed: Callable[[int], bool] = shown.__contains__
    else:
        timed = _every
    for warm in range(2):  # untimed: imports, caches, the first table of the game
        for path in paths:
            live.SNAPSHOTS = path == "snapshot"
            play(code, client, floor, dealer, seed - 1 - warm, longest, _never, 0)
    runs: dict[str, list[Measured]] = {path: [] for path in paths}
    for number in range(hands):
        order = paths if number % 2 == 0 else list(reversed(paths))
        for path in order:
            live.SNAPSHOTS = path == "snapshot"
            hand = play(code, client, floor, dealer, seed + number, longest, timed, trials)
            runs[path].append(hand)
    live.SNAPSHOTS = True
    return report(code, runs, target)


def _every(index: int) -> bool:
    return True


def _never(index: int) -> bool:
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=30, help="Paiute hands a path")
    parser.add_argument("--other-hands", type=int, default=10, help="hands a path, other games")
    parser.add_argument("--actions", type=int, default=75, help="the Nth action (Paiute's length)")
    parser.add_argument(
        "--longest", type=int, default=150, help="Paiute hands are played to this many actions"
    )
    parser.add_argument(
        "--trials", type=int, default=3, help="rolled-back runs of each timed action"
    )
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument(
        "--games",
        default=",".join(("paiute", *OTHER_GAMES)),
        help="comma-separated game codes (default: Paiute and the other live games)",
    )
    parser.add_argument(
        "--replay", action="store_true", help="the replay path alone (the 'before')"
    )
    parser.add_argument(
        "--database", default="casino_bench_live", help="the throwaway database's name"
    )
    args = parser.parse_args()
    paths = ["replay"] if args.replay else ["replay", "snapshot"]
    print(
        f"Live actions along the hand · Python {platform.python_version()} · "
        f"{platform.machine()} · {os.cpu_count()} CPUs · paths: {', '.join(paths)}"
    )
    with throwaway_database("live actions", args.database) as ready:
        if not ready:
            return
        verdicts: dict[str, dict[str, bool]] = {}
        for code in [code for code in args.games.split(",") if code]:
            count = args.hands if code == "paiute" else args.other_hands
            verdicts[code] = measure(
                code, count, args.actions, args.longest, paths, args.seed, args.trials
            )
    print(
        "\nIssue 25, target 2 (a live action costs the same at the Nth as at the 1st, ±20 % "
        "CPU, the same statements):"
    )
    for code, by_path in verdicts.items():
        for path, met in by_path.items():
            print(f"  {code:<18} {path:<9} {'met' if met else 'not met'}")


if __name__ == "__main__":
    main()
