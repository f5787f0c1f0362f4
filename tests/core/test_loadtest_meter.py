"""The load test's CPU meter puts each process's CPU where it belongs: a gunicorn master's
process group under "gunicorn" (and no other program's), its own under "load test", the
rest of the machine under "rest", where a program that ends within the window counts
nothing (not less than nothing). The figures ``make loadtest`` prints per hand and per bare
insert come from it."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    not os.path.isdir("/proc/self"), reason="the meter reads /proc (Linux)"
)

BURN = "import time\nend = time.process_time() + 0.4\nwhile time.process_time() < end: pass\n"


def _loadtest():
    spec = importlib.util.spec_from_file_location("loadtest", ROOT / "scripts" / "loadtest.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


def _burning(own_group: bool) -> subprocess.Popen[bytes]:
    """A child that uses 0.4 s of CPU, says so on its stdout, then waits to be stopped (so its
    CPU stays counted)."""
    return subprocess.Popen(
        [sys.executable, "-c", BURN + "import sys\nprint('burnt', flush=True)\nsys.stdin.read()\n"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        start_new_session=own_group,
    )


def test_cpu_is_counted_under_the_part_of_the_run_that_used_it():
    loadtest = _loadtest()
    gone = _burning(own_group=True)  # a program that ends within the window
    _burnt(gone)  # it has used its CPU before the window opens
    server = _burning(own_group=True)  # as the load test starts gunicorn: its own group
    stranger = _burning(own_group=True)  # another program on the machine
    children = (server, stranger, gone)
    try:
        meter = loadtest.CpuMeter([SimpleNamespace(process=server)])
        before = {child.pid: _cpu(child.pid) for child in (server, stranger)}
        first = meter.read()
        gone.stdin.close()
        gone.wait()
        mine = time.process_time()
        exec(BURN)  # the load test's own work
        for child in (server, stranger):
            _burnt(child)
        mine = time.process_time() - mine
        last = meter.read()
        spent = {child.pid: _cpu(child.pid) - before[child.pid] for child in (server, stranger)}
    finally:
        for child in children:
            if not child.stdin.closed:
                child.stdin.close()
            child.wait()
    used = meter.used(first, last)
    assert set(used) == {"gunicorn", "PostgreSQL", "load test", "rest"}
    assert used["gunicorn"] == pytest.approx(spent[server.pid], abs=0.05)  # not the stranger's
    assert spent[server.pid] >= 0.2
    assert used["load test"] == pytest.approx(mine, abs=0.05)
    # the stranger's CPU, and the program that ended takes nothing away from it
    assert used["rest"] >= spent[stranger.pid] - 0.05
    assert min(used.values()) >= 0


def _burnt(child: subprocess.Popen[bytes]) -> None:
    """Wait until the child has used its CPU: it says so once its 0.4 s are spent, and is
    then blocked reading its stdin, so /proc has counted them."""
    assert child.stdout is not None
    assert child.stdout.readline() == b"burnt\n"


def _cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
