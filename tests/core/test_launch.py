"""``make run`` and ``make serve`` stop as one: ``kill`` of make (SIGTERM), and make dying
outright (SIGKILL), stop the server, what runs beside it and their own children. Run the way
the Makefile runs it: a make recipe that ``exec``s scripts/launch.py."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAUNCH = ROOT / "scripts" / "launch.py"

pytestmark = pytest.mark.skipif(
    shutil.which("make") is None or not sys.platform.startswith("linux"),
    reason="needs make and Linux (/proc)",
)

#: A stand-in for the server: writes its pid, starts a child of its own (as runserver's
#: autoreloader and gunicorn's workers do) that writes its pid, and waits.
SERVER = """
import os, subprocess, sys, time
folder = sys.argv[1]
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
open(os.path.join(folder, "server.pid"), "w").write(f"{os.getpid()} {child.pid}")
time.sleep(120)
"""
#: A stand-in for the Celery worker beside it.
BESIDE = """
import os, sys, time
open(os.path.join(sys.argv[1], "beside.pid"), "w").write(str(os.getpid()))
time.sleep(120)
"""


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")


def started(tmp_path: Path) -> tuple[subprocess.Popen[bytes], list[int]]:
    (tmp_path / "server.py").write_text(SERVER)
    (tmp_path / "beside.py").write_text(BESIDE)
    python = sys.executable
    (tmp_path / "Makefile").write_text(
        "serve:\n"
        f'\texec {python} {LAUNCH} --also "{python} {tmp_path}/beside.py {tmp_path}" '
        f"-- {python} {tmp_path}/server.py {tmp_path}\n"
    )
    make = subprocess.Popen(["make", "-s", "-f", str(tmp_path / "Makefile"), "serve"])
    deadline = time.monotonic() + 120  # a guard against hanging, not a figure
    while time.monotonic() < deadline:
        files = [tmp_path / "server.pid", tmp_path / "beside.pid"]
        if all(f.exists() and f.read_text().strip() for f in files):
            break
        time.sleep(0.1)
    server, grandchild = map(int, (tmp_path / "server.pid").read_text().split())
    beside = int((tmp_path / "beside.pid").read_text())
    pids = [server, grandchild, beside]
    assert all(alive(pid) for pid in pids)
    return make, pids


def gone_within(pids: list[int], seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(alive(pid) for pid in pids):
        time.sleep(0.1)
    return [pid for pid in pids if alive(pid)]


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["kill", "kill-9"])
def test_killing_make_stops_the_server_what_runs_beside_it_and_their_children(tmp_path, how):
    make, pids = started(tmp_path)
    try:
        os.kill(make.pid, how)
        make.wait(timeout=120)
        # at once in practice; the bound only keeps a broken launcher from hanging the suite
        assert gone_within(pids, 120) == []
    finally:
        for pid in pids:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
