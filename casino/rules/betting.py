"""Betting structures: the bet-sizing arithmetic shared by the poker games.

Five Card Draw 7-A (``docs/rules/five-card-draw-7a.md``) sizes its two betting rounds with a
:class:`Round`; Palace Poker (``docs/rules/palace-poker.md`` clauses 8-9) sizes its battle bets
and raises with :func:`bounds` and caps limit raises with :func:`capped`. Each game keeps its
own rules of who may bet, what a call is and what the messages say; this module only says how
big a bet or raise may be.

* **Limit**: every bet and raise is one fixed size, and a round allows a bet and at most
  ``max_raises`` raises (:func:`capped`).
* **Pot limit**: a raise is at least the least raise (below), at most to the current bet plus
  the pot after calling it (:func:`pot_limit_max`).
* **No limit**: a raise is at least the last full bet or raise (at first the least bet), at
  most everything the seat has.
* **Short all-in**: a seat without the chips for the least amount may go all-in for less. Such
  a wager is not a full raise (:func:`is_full`): it does not change the least raise, does not
  count towards the limit cap, and does not reopen the betting for the seats that have already
  acted, unless the short all-ins since a seat acted add up to a full raise (in limit, to half
  a bet or more: Robert's Rules of Poker's half-bet rule).

Structures are ``"limit"``, ``"pot_limit"`` and ``"no_limit"``: :class:`Structure`, or a game's
own string enum with those values. Amounts are whole chips; :func:`bounds` works in whatever
the caller counts (a seat's total for the round, or a raise's increment over the call) as long
as its arguments are counted the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["Round", "Structure", "bounds", "capped", "is_full", "pot_limit_max"]


class Structure(StrEnum):
    LIMIT = "limit"
    POT_LIMIT = "pot_limit"
    NO_LIMIT = "no_limit"


# Enum members read in the hot paths, each once: on Python 3.11 a member read through its
# class (``Phase.PLAY``) goes through ``EnumType.__getattr__``'s hook, several times a global.
_STRUCTURE_LIMIT = Structure.LIMIT
_STRUCTURE_NO_LIMIT = Structure.NO_LIMIT
_STRUCTURE_POT_LIMIT = Structure.POT_LIMIT


def bounds(structure: str, least: int, most: int, pot_max: int | None = None) -> tuple[int, int]:
    """The smallest and largest legal amount of a bet or raise.

    ``least`` is the structure's least amount (in limit, the one fixed amount), ``most``
    everything the seat has, ``pot_max`` the pot limit (:func:`pot_limit_max`; pot limit only).
    A seat short of ``least`` may only go all-in: ``(most, most)``.

    >>> bounds("limit", 400, 5000), bounds("no_limit", 400, 5000), bounds("limit", 400, 300)
    ((400, 400), (400, 5000), (300, 300))
    >>> bounds("pot_limit", 400, 5000, pot_max=1200)
    (400, 1200)
    """
    kind = Structure(structure)
    if most < least:
        return most, most
    if kind is _STRUCTURE_LIMIT:
        return least, least
    high = most if kind is _STRUCTURE_NO_LIMIT or pot_max is None else min(most, pot_max)
    return min(least, high), high


def pot_limit_max(level: int, pot: int, call: int) -> int:
    """Pot limit's largest raise, as a total: the current bet ``level`` plus the pot after the
    raiser calls (``pot``: every chip in the middle, this round's bets and dead money
    included; ``call``: what the raiser must add to match ``level``)."""
    return level + pot + call


def is_full(structure: str, growth: int, *, bet: int, last_raise: int) -> bool:
    """Does a bet growing by ``growth`` count as a full bet or raise (and reopen the betting)?

    Limit: at least half of the fixed ``bet`` (the half-bet rule); pot limit and no limit: at
    least ``last_raise``, the last full bet or raise.
    """
    if Structure(structure) is _STRUCTURE_LIMIT:
        return 2 * growth >= bet
    return growth >= last_raise


def capped(structure: str, raises: int, max_raises: int) -> bool:
    """Limit only: have ``raises`` (after the bet) reached the cap of ``max_raises``?"""
    return Structure(structure) is _STRUCTURE_LIMIT and raises >= max_raises


@dataclass(slots=True)
class Round:
    """One betting round's sizes, in each seat's total for the round (``to``).

    ``bet`` is the limit bet (small or big) and ``last_raise`` the last full bet or raise's
    size, at first the least bet in pot limit and no limit. ``level`` is the bet to match,
    ``full_level`` the last full bet or raise (a limit raise is one bet above it, whatever short
    all-ins came after), ``bets`` the full bets and raises so far (a blind counting as the
    round's bet).

    >>> nl = Round(Structure.NO_LIMIT, bet=200, last_raise=200, level=200, full_level=200, bets=1)
    >>> nl.bounds(0, 5000, pot=300), nl.wager(600), nl.least()
    ((400, 5000), True, 1000)
    >>> nl.wager(800), nl.least(), nl.reopened(since=600)  # all-in for 200 more: not a raise
    (False, 1200, False)
    """

    structure: Structure
    bet: int
    last_raise: int
    level: int = 0
    full_level: int = 0
    bets: int = 0

    def least(self) -> int:
        """The least total of a bet or raise: limit, exactly one bet above the last full level;
        pot limit and no limit, the last full raise above the current bet."""
        if self.structure is _STRUCTURE_LIMIT:
            return self.full_level + self.bet
        return self.level + self.last_raise

    def bounds(self, bet: int, stack: int, *, pot: int) -> tuple[int, int]:
        """The smallest and largest total for a seat with ``bet`` in front of it and ``stack``
        behind; ``pot`` is every chip in the middle (for pot limit)."""
        pot_max = None
        if self.structure is _STRUCTURE_POT_LIMIT:
            pot_max = pot_limit_max(self.level, pot, self.level - bet)
        return bounds(self.structure, self.least(), bet + stack, pot_max)

    def reopened(self, since: int) -> bool:
        """Has the bet grown by a full raise since it was ``since``? (A seat that has acted may
        raise again only then.)"""
        return is_full(self.structure, self.level - since, bet=self.bet, last_raise=self.last_raise)

    def wager(self, to: int) -> bool:
        """Record a bet or raise to ``to``; True if it is a full bet or raise.

        A limit wager counts from the last full level, so several short all-ins can make up a
        full raise; a pot-limit or no-limit one from the current bet, and sets the least raise.
        """
        limit = self.structure is _STRUCTURE_LIMIT
        growth = to - (self.full_level if limit else self.level)
        full = is_full(self.structure, growth, bet=self.bet, last_raise=self.last_raise)
        if full:
            if not limit:
                self.last_raise = growth
            self.full_level = to
            self.bets += 1
        self.level = to
        return full

    def capped(self, max_raises: int) -> bool:
        """Limit: have the bet and ``max_raises`` raises been made?"""
        return capped(self.structure, self.bets - 1, max_raises)
