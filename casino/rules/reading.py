"""Reading a hand record's JSON: typed fields with every problem collected at its path.

Shared by the engines whose records are read field by field (Five Card Draw 7-A, Pontoon,
Palace Poker), so a missing, mistyped or unknown field is named the same way in every game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .cards import Card, parse_cards
from .errors import Problems, RuleError
from .options import MAX_AMOUNT, beyond_maximum, is_int


class RecordReader:
    """Reads fields, adding a problem for each bad one to ``problems`` (raise it at the end)."""

    def __init__(self, smallest_chip: int = 1) -> None:
        self.chip = smallest_chip
        self.problems = Problems()

    def unknown(self, entry: Mapping[str, Any], known: Sequence[str], path: str) -> None:
        for key in entry:
            if key not in known:
                self.problems.add(f"{path}.{key}" if path else str(key), f"unknown field '{key}'")

    def whole(
        self, value: object, path: str, name: str, *, least: int = 1, most: int = MAX_AMOUNT
    ) -> int | None:
        """A whole number from ``least`` to ``most`` (:data:`~casino.rules.options.MAX_AMOUNT`,
        the bound on every amount, unless told)."""
        if value is None:
            self.problems.add(path, f"{name} is missing")
            return None
        if not is_int(value):
            self.problems.add(path, f"{name} must be a whole number, got {value!r}")
            return None
        if value < least:
            self.problems.add(path, f"{name} must be at least {least}, got {value}")
            return None
        too_big = beyond_maximum(value, name, most)
        if too_big is not None:
            self.problems.add(path, too_big)
            return None
        return value

    def money(self, value: object, path: str, name: str, *, least: int = 1) -> int | None:
        """An amount in minor units, a multiple of the smallest chip."""
        amount = self.whole(value, path, name, least=least)
        if amount is not None and amount % self.chip:
            self.problems.add(
                path, f"{name} {amount} is not a multiple of the smallest chip {self.chip}"
            )
            return None
        return amount

    def cards(self, value: object, path: str, who: str, least: int) -> tuple[Card, ...] | None:
        try:
            cards = parse_cards(value, path=path, who=who)
        except RuleError as error:
            self.problems.extend(error)
            return None
        if len(cards) < least:
            self.problems.add(path, f"{who}: at least {least} cards are dealt, got {len(cards)}")
            return None
        return cards

    def listing(self, value: object, path: str, what: str) -> Sequence[Any]:
        """A JSON list (a string is not one); an empty list after a problem."""
        if isinstance(value, str | bytes) or not isinstance(value, Sequence):
            self.problems.add(path, f"{what} must be a list")
            return []
        return value
