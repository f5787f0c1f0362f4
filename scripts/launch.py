"""Run the server and what runs beside it (the Celery worker with its beat) as one thing that
stops as one: on SIGTERM, SIGINT or SIGHUP, and when whoever started it dies (``kill`` of
``make run`` / ``make serve``, whose recipes ``exec`` this script), every process it started
is stopped with it, their own children included.

    python scripts/launch.py [--also "celery -A casino worker --beat"] -- gunicorn ...

Each command runs in a process group of its own, so a signal reaches what it spawns too
(runserver's autoreloader child, gunicorn's workers). When one command ends, the others are
stopped and its exit status is this script's.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import shlex
import signal
import subprocess
import sys
import time
from types import FrameType

GRACE_SECONDS = 10
PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """Ask Linux for SIGTERM when the process that started this one dies (elsewhere, a
    no-op: stop it with a signal)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        return


def stop(children: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM to each command's process group, then SIGKILL to what is left after the grace
    period."""
    for child in children:
        if child.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGTERM)
    deadline = time.monotonic() + GRACE_SECONDS
    for child in children:
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(timeout=max(0.0, deadline - time.monotonic()))
    for child in children:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(child.pid, signal.SIGKILL)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--also", action="append", default=[], help="a command run beside")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- the main command")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("name the main command after --")
    parent = os.getppid()
    die_with_parent()
    if os.getppid() != parent:  # the parent died before the request was in place
        return 1
    commands = [shlex.split(extra) for extra in args.also if extra.strip()] + [command]
    children = [subprocess.Popen(argv_, start_new_session=True) for argv_ in commands]
    stopping: list[int] = []

    def on_signal(number: int, _frame: FrameType | None) -> None:
        stopping.append(number)

    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(number, on_signal)
    status = 0
    while not stopping:
        ended = [child for child in children if child.poll() is not None]
        if ended:
            status = ended[0].returncode
            break
        time.sleep(0.2)
    stop(children)
    return status if not stopping else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
