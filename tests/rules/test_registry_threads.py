"""A freshly started server's threads all ask for their games at once: every one of them
finds its game (none sees a registry still loading)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_threads_asking_at_once_on_a_fresh_registry_all_find_their_game():
    script = textwrap.dedent(
        """
        import threading
        from casino.rules.contract import game

        codes = ["high-card-flush", "five-card-draw-7a", "pontoon", "paiute", "palace-poker"]
        start = threading.Barrier(20)
        failures = []

        def ask(code):
            start.wait()
            try:
                game(code)
            except Exception as exc:
                failures.append(f"{code}: {exc}")

        threads = [threading.Thread(target=ask, args=(codes[i % 5],)) for i in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print(len(failures), failures[:3])
        """
    )
    for _ in range(3):  # a fresh interpreter each time: the registry starts empty
        done = subprocess.run(
            [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
        )
        assert done.stdout.startswith("0 "), done.stdout
