"""``AUDIT_ANCHOR_FILE``: the signed checkpoints and key hand-overs, one JSON record a line,
outside the database (put it on append-only storage, or another host's mount).

The file is only ever appended to. The audit check reads it from the end back to the newest
checkpoint a passed check wrote (an incremental check), or whole (a full check).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings

from casino.audit_verify import formats

BLOCK = 65_536


@dataclass(frozen=True)
class Line:
    number: int | None  # from 1; None when read from the end (numbers unknown)
    text: str
    record: dict[str, Any] | None  # None: not a JSON object

    @property
    def where(self) -> str:
        return f"anchor file line {self.number}" if self.number else "a line of the anchor file"


def path() -> Path | None:
    value = settings.AUDIT_ANCHOR_FILE
    return Path(value) if value else None


def _parse(number: int | None, text: str) -> Line:
    try:
        record = json.loads(text)
    except ValueError:
        record = None
    return Line(number, text, record if isinstance(record, dict) else None)


def lines(file: Path) -> Iterator[Line]:
    """Every line, first to last."""
    with file.open(encoding="utf-8", errors="replace") as handle:
        for number, text in enumerate(handle, start=1):
            if text.strip():
                yield _parse(number, text.strip())


def lines_backwards(file: Path) -> Iterator[Line]:
    """Every line, last to first, read a block at a time from the end."""
    with file.open("rb") as handle:
        handle.seek(0, os.SEEK_END)
        position, rest = handle.tell(), b""
        while position > 0:
            step = min(BLOCK, position)
            position -= step
            handle.seek(position)
            chunk = handle.read(step) + rest
            parts = chunk.split(b"\n")
            rest = parts[0]
            for part in reversed(parts[1:]):
                if part.strip():
                    yield _parse(None, part.decode("utf-8", "replace").strip())
        if rest.strip():
            yield _parse(None, rest.decode("utf-8", "replace").strip())


def last_checkpoint(file: Path) -> Line | None:
    """The file's last checkpoint record (whatever else follows it)."""
    if not file.exists():
        return None
    for line in lines_backwards(file):
        if line.record is not None and line.record.get("type") == "checkpoint":
            return line
    return None


def append(records: list[dict[str, Any]]) -> None:
    """Append records, one canonical JSON line each, flushed to disk."""
    file = path()
    if file is None or not records:
        return
    file.parent.mkdir(parents=True, exist_ok=True)
    with file.open("a", encoding="utf-8") as handle:
        for record in records:
            handle.write(formats.canonical(record) + "\n")
        handle.flush()
        os.fsync(handle.fileno())


def statement_number(line: Line) -> int | None:
    statement = (line.record or {}).get("statement")
    number = statement.get("number") if isinstance(statement, dict) else None
    return number if isinstance(number, int) else None
