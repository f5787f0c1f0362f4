"""``scripts/bench_live.py`` still runs end to end and prints each game's figures with the
target and met / not met, for both paths (at toy sizes: nothing here is timed or compared
with a target; the figures come from running the script on a quiet machine)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith(("postgres", "pgsql")),
    reason="the script measures on a throwaway PostgreSQL database (set DATABASE_URL)",
)


def _run(*args: str) -> str:
    server = urlsplit(os.environ["DATABASE_URL"])._replace(path="/postgres").geturl()
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench_live.py"), *args],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": server},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done.stdout


def test_both_paths_are_measured_along_the_hand():
    out = _run(
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


def test_the_replay_path_alone():
    out = _run(
        *("--hands", "1", "--longest", "3", "--actions", "2", "--trials", "1"),
        *("--games", "paiute", "--replay", "--database", "casino_bench_live_smoke"),
    )
    assert "paths: replay\n" in out and "snapshot" not in out.split("paths:")[1]
