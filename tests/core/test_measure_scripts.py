"""``make bench``'s audit section, ``scripts/bench_live.py`` and ``make loadtest`` still run
end to end and print the figures the README records (at toy sizes: nothing here is timed or
compared with a target; the figures come from running the scripts themselves, on a quiet
machine)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith(("postgres", "pgsql")),
        reason="the scripts measure on a throwaway PostgreSQL database (set DATABASE_URL)",
    ),
]


def _run(script: str, *args: str) -> str:
    """The script's output. It makes its throwaway database on ``DATABASE_URL``'s server,
    connecting first to the server's ``postgres`` database (the suite's own database name
    need not exist: the suite works in ``test_<name>``)."""
    server = urlsplit(os.environ["DATABASE_URL"])._replace(path="/postgres").geturl()
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / script), *args],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": server},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done.stdout


def test_the_bench_audit_section_checks_stored_hands_in_a_process_and_a_worker():
    out = _run(
        "bench.py",
        "--only",
        "audit",
        "--audit-hands",
        "12",
        "--audit-tables",
        "2",
        "--database",
        "casino_bench_smoke",
    )
    assert re.search(
        r"audit check, one process: 12 hands and [\d,]+ audit entries of 2 chains", out
    )
    assert re.search(r"the check +\d+ µs \([\d,]+ hands per CPU-second\)", out)
    assert re.search(r"the engine +\d+ µs \([\d,]+ hands per CPU-second\)", out)
    assert re.search(r"check/engine [\d.]+x .*\(target ≤ 1\.25x: (met|not met)\)", out)
    floor = re.search(
        r"reading alone .*: (\d+) µs per hand, ([\d.]+)x the engine: .* is ([\d.]+)x", out
    )
    assert floor and int(floor[1]) > 0, out
    assert float(floor[3]) == pytest.approx(1 + float(floor[2]), abs=0.011)
    if os.environ.get("REDIS_URL"):
        assert re.search(
            r"audit check, one worker \(\d+ processes, request to report\): 12 hands", out
        )
    assert "FAILED" not in out and out.count("passed") == (2 if os.environ.get("REDIS_URL") else 1)


def test_the_load_test_prints_every_scenario_beside_the_bare_insert():
    out = _run(
        "loadtest.py",
        "--tablets",
        "5",  # one at a table of each game in the open loop
        "--seconds",
        "2",
        "--warmup",
        "1",  # the phase's first requests (new processes) unmeasured: a loaded machine can
        # take the whole measured window over them, and then no hand is settled in it
        "--interval",
        "0.5",
        "--workers",
        "2",  # still a master's several processes for the meter to add up; not 4 to start
        "--database",
        "casino_loadtest_smoke",
    )
    assert re.search(r"settle throughput / bare throughput = [\d.]+", out)  # closed loop
    assert re.search(r"POST /bare/ +\d+", out)
    # where the machine's CPU went, per hand and per bare insert
    hand = re.search(
        r"CPU ms per hand \(open and settle\): gunicorn ([\d.]+), PostgreSQL ([\d.]+)", out
    )
    bare = re.search(r"CPU ms per bare insert: gunicorn ([\d.]+)", out)
    assert hand and bare, out
    assert float(hand[1]) > float(bare[1]) > 0
    if urlsplit(os.environ["DATABASE_URL"]).hostname in ("127.0.0.1", "localhost"):
        assert float(hand[2]) > 0  # the local PostgreSQL's processes are found
    assert re.search(r"a hand costs [\d.]+ bare inserts", out)
    # the floor the design sets: two requests and PostgreSQL's storing, in bare inserts
    floor = re.search(
        r"floor: two requests \(2 bare inserts\) \+ PostgreSQL storing the hand beyond them "
        r"-?[\d.]+ ms \((-?[\d.]+) bare inserts\) = (-?[\d.]+) bare inserts",
        out,
    )
    assert floor and float(floor[2]) == pytest.approx(2 + float(floor[1]), abs=0.11), out
    assert re.search(r"worst endpoint p99 [\d.]+ ms", out)  # open loop, every game
    for game in ("HCF", "7A", "PON", "PAI", "PAL"):
        assert f"[{game}]" in out
    assert re.search(r"two / one = [\d.]+", out)  # one master against two
    # and what the machine's cores allow a second master at all
    bound = re.search(
        r"one master's hands kept ([\d.]+) of this machine's (\d+) cores busy .*"
        r"two masters can reach at most ([\d.]+)x here",
        out,
    )
    assert bound, out
    assert float(bound[3]) == pytest.approx(int(bound[2]) / float(bound[1]), rel=0.02)
    # each of issue 25's targets with its figure and verdict, and the summary of them
    assert re.search(
        r"target: a hand in bare inserts of machine CPU: [\d.]+ .*: (met|not met)", out
    )
    assert re.search(r"target: open loop over every game.*: not judged", out)  # 5 tablets
    assert re.search(r"target: two masters of 1 process\(es\) against one.*: (met|not met)", out)
    assert "targets (issue 25;" in out
    assert not re.search(r"^\s+\d+ errors", out, re.MULTILINE), out


def test_the_live_bench_measures_both_paths_along_the_hand():
    """``scripts/bench_live.py`` prints each game's figures with the target and met / not met,
    for the replay path and the snapshot path."""
    out = _run(
        "bench_live.py",
        *("--hands", "1", "--other-hands", "1", "--longest", "6", "--actions", "4"),
        *("--trials", "1", "--games", "paiute,pontoon", "--database", "casino_bench_live_smoke"),
    )
    assert "paths: replay, snapshot" in out
    assert re.search(r"paiute: 1 hands a path, 6-6 actions .* the Nth action is the 4th", out)
    for path in ("replay", "snapshot"):
        assert re.search(
            rf"  {path} +[\d.]+ +[\d.]+ +[\d.]+x  0\.8-1\.2x  (met|not met) +\d+ / \d+ ", out
        ), out
        assert re.search(rf"  (paiute|pontoon) +{path} +(met|not met)", out)
    assert re.search(r"pontoon: 1 hands a path", out)


def test_the_live_bench_measures_the_replay_path_alone():
    out = _run(
        "bench_live.py",
        *("--hands", "1", "--longest", "3", "--actions", "2", "--trials", "1"),
        *("--games", "paiute", "--replay", "--database", "casino_bench_live_smoke"),
    )
    assert "paths: replay\n" in out and "snapshot" not in out.split("paths:")[1]
