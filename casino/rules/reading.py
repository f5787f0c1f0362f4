"""Reading a hand record's JSON: typed fields with every problem collected at its path.

Shared by the engines whose records are read field by field (Five Card Draw 7-A, Pontoon,
Palace Poker), so a missing, mistyped or unknown field is named the same way in every game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .cards import Card, parse_cards
from .errors import Problems, RuleError
from .messages import _, msg, prefixed
from .options import MAX_AMOUNT, as_money, beyond_maximum, is_int, not_a_chip_multiple


class RecordReader:
    """Reads fields, adding a problem for each bad one to ``problems`` (raise it at the end)."""

    def __init__(self, smallest_chip: int = 1) -> None:
        self.chip = smallest_chip
        self.problems = Problems()

    def unknown(self, entry: Mapping[str, Any], known: Sequence[str], path: str) -> None:
        for key in entry:
            if key not in known:
                self.problems.add(
                    f"{path}.{key}" if path else str(key),
                    msg(_("unknown field '%(key)s'"), key=str(key)),
                )

    def whole(
        self,
        value: object,
        path: str,
        name: str,
        *,
        least: int = 1,
        most: int = MAX_AMOUNT,
        money: bool = False,
    ) -> int | None:
        """A whole number from ``least`` to ``most`` (:data:`~casino.rules.options.MAX_AMOUNT`,
        the bound on every amount, unless told); ``money``: it is an amount (its problems
        write the figures as money), not a seat or a count."""
        if value is None:
            self.problems.add(path, msg(_("%(name)s is missing"), name=name))
            return None
        if not is_int(value):
            self.problems.add(
                path,
                msg(
                    _("%(name)s must be a whole number, got %(value)s"),
                    name=name,
                    value=repr(value),
                ),
            )
            return None
        if value < least:
            self.problems.add(
                path,
                msg(
                    _("%(name)s must be at least %(least)s, got %(value)s"),
                    name=name,
                    least=as_money(least) if money else least,
                    value=as_money(value) if money else value,
                ),
            )
            return None
        too_big = beyond_maximum(value, name, most, money=money)
        if too_big is not None:
            self.problems.add(path, too_big)
            return None
        return value

    def money(self, value: object, path: str, name: str, *, least: int = 1) -> int | None:
        """An amount in minor units, a multiple of the smallest chip."""
        amount = self.whole(value, path, name, least=least, money=True)
        if amount is not None and amount % self.chip:
            self.problems.add(path, not_a_chip_multiple(name, amount, self.chip))
            return None
        return amount

    def cards(self, value: object, path: str, who: str, least: int) -> tuple[Card, ...] | None:
        try:
            cards = parse_cards(value, path=path, who=who)
        except RuleError as error:
            self.problems.extend(error)
            return None
        if len(cards) < least:
            self.problems.add(
                path,
                prefixed(
                    who,
                    msg(
                        _("at least %(least)s cards are dealt, got %(got)s"),
                        least=least,
                        got=len(cards),
                    ),
                ),
            )
            return None
        return cards

    def listing(self, value: object, path: str, what: str) -> Sequence[Any]:
        """A JSON list (a string is not one); an empty list after a problem."""
        if isinstance(value, str | bytes) or not isinstance(value, Sequence):
            self.problems.add(path, msg(_("%(what)s must be a list"), what=what))
            return []
        return value
