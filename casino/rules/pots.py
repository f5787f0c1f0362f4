"""Pots from contributions, and odd chips in a split pot; shared by the pot games.

Derive, don't store: the pots of a hand come from each seat's total contribution, the seats
that folded and the dead money in the centre (Five Card Draw 7-A brief, clauses 9 and 12).
All amounts are whole chips (integers); nothing here rounds.

* :func:`build_pots` returns the uncalled part of the highest contribution to its seat, then
  cuts the rest into the main pot and side pots at each level where a live (not folded)
  seat's contribution ends.
* :func:`split_pot` shares one pot between tied winners; odd chips go clockwise from the
  button (clause 9; the smallest chip is a table setting).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .quick import quick_init


@quick_init
@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: its chips and the seats that can win it (ascending)."""

    amount: int
    eligible: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"amount": self.amount, "eligible": list(self.eligible)}


def build_pots(
    contributions: Mapping[int, int], folded: Collection[int], dead_money: int = 0
) -> tuple[list[Pot], dict[int, int]]:
    """The pots, main pot first, and the uncalled chips returned, by seat.

    ``contributions`` are each seat's total chips put in this hand (bets, calls, live blinds),
    never dead money; ``dead_money`` (dead blinds posted to the centre) goes into the main pot.

    * **Uncalled chips**: if one seat (folded or not) alone reached the highest contribution,
      the part above the next highest contribution (0 if nobody else put chips in) was never
      matched; it is returned to that seat and is in no pot. The second value maps that seat
      to its chips; it is empty when nothing is returned.
    * **Levels**: a pot is cut at each distinct contribution of a live seat, lowest first.
      Each pot takes, from every seat (folded or not), its chips between the previous level
      and this one; its eligible seats are the live seats that reached the level. Pots are
      cut only at live seats' levels, which is the same as merging adjacent pots with the
      same eligible seats, so each pot's eligible seats are strictly fewer than the one
      before. Folded chips above the highest live level go into the last pot.
    * A pot of no chips is left out, so with no dead money a live seat that put in nothing
      wins nothing.

    Every chip is accounted for: the pots plus the returned chips equal the contributions
    plus the dead money. Raises ``ValueError`` for a negative amount, or for chips in the
    middle when every seat has folded.
    """
    for seat, amount in contributions.items():
        if amount < 0:
            raise ValueError(f"seat {seat}: contribution {amount} is negative")
    if dead_money < 0:
        raise ValueError(f"dead money {dead_money} is negative")

    capped = dict(contributions)
    returned: dict[int, int] = {}
    if capped:
        top_seat = max(capped, key=lambda seat: capped[seat])
        top = capped[top_seat]
        others = [amount for seat, amount in capped.items() if seat != top_seat]
        called = max(others, default=0)
        if top > called:
            returned[top_seat] = top - called
            capped[top_seat] = called

    live = {seat: amount for seat, amount in capped.items() if seat not in folded}
    if not live:
        if dead_money or any(capped.values()):
            raise ValueError("every seat has folded: nobody can win the pot")
        return [], returned

    cuts: list[tuple[int, tuple[int, ...]]] = []
    previous = 0
    for level in sorted(set(live.values())):
        amount = sum(min(chips, level) - previous for chips in capped.values() if chips > previous)
        eligible = tuple(sorted(seat for seat, chips in live.items() if chips >= level))
        cuts.append((amount, eligible))
        previous = level
    # Only folded seats can be above the highest live level (a lone top seat was capped).
    beyond = sum(chips - previous for chips in capped.values() if chips > previous)
    cuts[0] = (cuts[0][0] + dead_money, cuts[0][1])
    cuts[-1] = (cuts[-1][0] + beyond, cuts[-1][1])
    pots = [Pot(amount, eligible) for amount, eligible in cuts if amount]
    return pots, returned


def clockwise_from(button: int, seats: Sequence[int]) -> list[int]:
    """``seats`` in clockwise order starting left of the button: the smallest seat number
    above ``button`` first, wrapping round to the lowest seats."""
    ordered = sorted(seats)  # the seats above the button first, then those up to it
    split = bisect_right(ordered, button)
    return ordered[split:] + ordered[:split]


def split_pot(
    amount: int, winners: Sequence[int], *, button: int, smallest_chip: int = 1
) -> dict[int, int]:
    """Share ``amount`` between tied ``winners``; the shares sum exactly to ``amount``.

    Each winner gets the same whole number of ``smallest_chip`` units. Every odd chip left,
    and any remainder below one chip if ``amount`` is not a multiple of the chip, goes to the
    first winner clockwise from the button (the winner with the smallest seat number above
    ``button``, wrapping), as the briefs say ("odd chips ... go to the first winner clockwise
    from the button"). The result lists the winners in that order.
    """
    if not winners:
        raise ValueError("a pot needs at least one winner")
    if len(set(winners)) != len(winners):
        raise ValueError(f"a winner is listed twice: {list(winners)}")
    if amount < 0:
        raise ValueError(f"pot {amount} is negative")
    if smallest_chip < 1:
        raise ValueError(f"smallest chip {smallest_chip} must be at least 1")

    order = clockwise_from(button, winners)
    each = amount // smallest_chip // len(order) * smallest_chip
    shares = {seat: each for seat in order}
    shares[order[0]] += amount - each * len(order)
    return shares
