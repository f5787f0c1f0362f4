"""The desk's count forms: chips (or notes) counted denomination by denomination, one row a
denomination with its count typed in, and a reason where one is asked.

A form reads what was typed, says in words what is wrong at the row it is about, and gives
the services counts as they take them (``{"500": 20}``); a service's own refusal is placed at
the field its path names (``counts.500``, ``cash.2000``, ``reason``) or above the form.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from casino.rules.errors import Problem

from .selectors import Chip

#: The most digits a count may have (a few million chips of one denomination).
MOST_DIGITS = 7
#: A reason is at most this long.
REASON_LENGTH = 500


@dataclass
class Row:
    chip: Chip
    name: str
    typed: str
    count: int | None
    error: str = ""

    @property
    def amount(self) -> int | None:
        return None if self.count is None else self.count * self.chip.value

    @property
    def id(self) -> str:
        return f"id-{self.name}"


def read_count(typed: str, chip: Chip) -> tuple[int | None, str]:
    """A count as typed: blank is none; otherwise a whole number of 0 or more."""
    text = typed.strip().replace(",", "").replace(" ", "")
    if not text:
        return 0, ""
    what = "notes" if not chip.is_chip else "chips"
    if not (text.isascii() and text.isdigit()):
        return None, f"the count of {chip.amount} {what} is a whole number, such as 20"
    if len(text.lstrip("0")) > MOST_DIGITS:
        return None, f"at most {MOST_DIGITS} digits: count the {chip.amount} {what} again"
    return int(text), ""


class CountsForm:
    """Counts of ``chips`` typed in fields named ``{prefix}-{value}``; ``initial`` (a count
    to start from, ``{"500": 20}``) fills an unbound form."""

    def __init__(
        self,
        chips: list[Chip],
        prefix: str,
        data: Mapping[str, Any] | None = None,
        initial: Mapping[str, Any] | None = None,
    ) -> None:
        self.prefix = prefix
        self.bound = data is not None
        self.error = ""
        self.rows: list[Row] = []
        for chip in chips:
            name = f"{prefix}-{chip.value}"
            if data is not None:
                typed = str(data.get(name, ""))[:40]
            else:
                start = (initial or {}).get(chip.key)
                typed = str(start) if start else ""
            count, error = read_count(typed, chip)
            self.rows.append(Row(chip, name, typed.strip(), count, error))

    @property
    def valid(self) -> bool:
        return not self.error and all(not row.error for row in self.rows)

    @property
    def has_errors(self) -> bool:
        return not self.valid

    def counts(self) -> dict[str, int]:
        """The counts as the services take them (denominations counted none left out)."""
        return {row.chip.key: row.count for row in self.rows if row.count}

    @property
    def total(self) -> int | None:
        if any(row.count is None for row in self.rows):
            return None
        return sum(row.amount or 0 for row in self.rows)

    def place(self, key: str, message: str) -> None:
        """A problem at denomination ``key`` (``"500"``), or at the form as a whole."""
        for row in self.rows:
            if row.chip.key == key:
                row.error = row.error or message
                return
        self.error = self.error or message


class Reason:
    """A reason typed in (``name``), with its problem."""

    def __init__(self, data: Mapping[str, Any] | None, name: str = "reason") -> None:
        self.name = name
        self.value = str((data or {}).get(name, "")).strip()
        self.error = ""
        if len(self.value) > REASON_LENGTH:
            self.error = f"a reason is at most {REASON_LENGTH} characters"

    @property
    def valid(self) -> bool:
        return not self.error

    def require(self, message: str) -> bool:
        if not self.value:
            self.error = self.error or message
        return self.valid


def place(
    problems: list[Problem],
    forms: Mapping[str, CountsForm],
    reason: Reason | None = None,
) -> list[str]:
    """Each problem at its field: ``counts.500`` / ``cash.2000`` at a row of the form of that
    name, ``counts`` / ``total`` at the form, ``reason`` at the reason; returns the others'
    messages (said above the form)."""
    others: list[str] = []
    for problem in problems:
        head, _, key = problem.path.partition(".")
        head = {"total": "counts"}.get(head, head).removesuffix("_total")
        if head in forms:
            forms[head].place(key, problem.message)
        elif head == "reason" and reason is not None:
            reason.error = reason.error or problem.message
        else:
            others.append(problem.message)
    return others
