"""Speeding up the engines changes no result (issue 25, target 4).

``scripts/bench_replay.py`` makes seeded stored histories per game (driven only through
``legal_actions()`` and ``apply()``) and re-settles them as the audit check does. Each history
and its outcome (the settlement's JSON, or the error with its problems), as one canonical JSON
line, must hash as it did with the engines of the issue's start: the digests in
``samples/replay_digests.json`` were written by that code (150 histories a game, seed 25). So
the legal actions offered, every action's checks, the explanation and the settlement are the
same byte for byte. Nothing here is timed.

If a change of the rules themselves is meant to change results, rewrite the digests with
``python tests/rules/test_replays_unchanged.py`` and say so in the commit.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIGESTS = Path(__file__).resolve().parent / "samples" / "replay_digests.json"
SEED = 25


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "bench_replay", ROOT / "scripts" / "bench_replay.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _digests(code: str, count: int) -> list[str]:
    bench = _bench()
    return [
        hashlib.sha256(
            json.dumps(
                {"history": history, "outcome": bench.outcome(history)}, sort_keys=True
            ).encode()
        ).hexdigest()[:16]
        for history in bench.histories(code, count, SEED)
    ]


EXPECTED: dict[str, list[str]] = json.loads(DIGESTS.read_text())


@pytest.mark.parametrize("code", sorted(EXPECTED))
def test_seeded_replays_settle_byte_for_byte_as_before(code: str) -> None:
    expected = EXPECTED[code]
    found = _digests(code, len(expected))
    different = [index for index, (a, b) in enumerate(zip(expected, found, strict=True)) if a != b]
    assert not different, f"{code}: histories {different[:10]} ({len(different)}) differ"


if __name__ == "__main__":  # rewrite the digests (only when results are meant to change)
    written: dict[str, Any] = {code: _digests(code, len(EXPECTED[code])) for code in EXPECTED}
    DIGESTS.write_text(json.dumps(written, indent=1) + "\n")
    print(f"wrote {DIGESTS}", file=sys.stderr)
