"""Designated-player rotation (High Card Flush brief, clauses 15-17), as pure policy.

The tables app keeps the history (who held the position in which hand, and when) and
the current offer; these functions decide what the next offer is and whether a seat
may hold the position for the next hand. Each refusal names the clause it enforces.

Choices where the brief is silent (noted in the README):
- Holders are identified by seat number.
- The house never holds the position (the brief's default, "never"); there is no
  option to let it, because no house seat exists to record it against.
- The distinct-holders window (clause 17) counts as holders the seat that held the
  position when the window began (the last hand opened before it), every seat that
  took it since, and the seat asking now. It is enforced only once the table has been
  dealing for at least the window's length: at the start of a session one player
  necessarily holds the position alone for a while.
- When an offer round fails (clause 16) the offer keeps going round from the same
  starting seat; the table deals again as soon as a seat accepts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any

from casino.rules.errors import Problems, RuleError
from casino.rules.messages import _, msg
from casino.rules.rule_titles import high_card_flush_rule
from casino.rules.seating import next_seat_clockwise

__all__ = ["Holding", "RotationPolicy", "check_may_hold", "next_seat_clockwise", "offer_round"]


@dataclass(frozen=True, slots=True)
class RotationPolicy:
    max_consecutive: int = 2
    window_minutes: int = 40
    min_distinct: int = 2

    @classmethod
    def from_dict(
        cls,
        data: Mapping[str, Any] | None,
        *,
        base: RotationPolicy | None = None,
        path: str = "rotation_policy",
    ) -> RotationPolicy:
        base = base or cls()
        values = asdict(base)
        problems = Problems()
        for key, value in (data or {}).items():
            where = f"{path}.{key}"
            if key not in values:
                problems.add(
                    where, msg(_("unknown rotation policy setting %(key)s"), key=repr(key))
                )
            elif isinstance(value, bool) or not isinstance(value, int) or value < 1:
                problems.add(
                    where, msg(_("%(key)s must be a whole number of at least 1"), key=str(key))
                )
            else:
                values[key] = value
        problems.raise_if_any()
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        return {
            "max_consecutive": self.max_consecutive,
            "window_minutes": self.window_minutes,
            "min_distinct": self.min_distinct,
        }


@dataclass(frozen=True, slots=True)
class Holding:
    """One past hand: when it was opened and which seat held the position."""

    opened_at: datetime
    seat: int


def offer_round(seats: Sequence[int], start: int) -> list[int]:
    """The seats in the order the position is offered, beginning at ``start``."""
    ordered = sorted(set(seats))
    if start not in ordered:
        return ordered
    index = ordered.index(start)
    return ordered[index:] + ordered[:index]


def consecutive_holdings(history: Sequence[Holding], seat: int) -> int:
    """How many of the most recent hands in a row ``seat`` held the position."""
    count = 0
    for holding in reversed(history):
        if holding.seat != seat:
            break
        count += 1
    return count


def check_may_hold(
    policy: RotationPolicy,
    *,
    seat: int,
    history: Sequence[Holding],
    now: datetime,
) -> None:
    """Raise a RuleError naming the clause if ``seat`` may not hold the next hand."""
    history = sorted(history, key=lambda h: h.opened_at)
    held = consecutive_holdings(history, seat)
    if held >= policy.max_consecutive:
        raise RuleError(
            msg(
                _(
                    "seat %(seat)s has been the designated player for %(held)s hands in a row; "
                    "the table allows at most %(most)s (%(rule)s, consecutive-hand cap)"
                ),
                seat=seat,
                held=held,
                most=policy.max_consecutive,
                rule=high_card_flush_rule(17),
            ),
            path="designated_player.seat",
        )
    window_start = now - timedelta(minutes=policy.window_minutes)
    before = [h for h in history if h.opened_at <= window_start]
    if not before:
        return  # the table has not dealt for a whole window yet
    # Who held the position in the window: the holder when it began, everyone who took
    # it since, and the seat asking now.
    holders = {before[-1].seat, seat} | {h.seat for h in history if h.opened_at > window_start}
    if len(holders) < policy.min_distinct:
        raise RuleError(
            msg(
                _(
                    "in the last %(minutes)s minutes the designated player position would have "
                    "been held by %(holders)s player(s); the table needs at least %(least)s "
                    "different players (%(rule)s, rolling window)"
                ),
                minutes=policy.window_minutes,
                holders=len(holders),
                least=policy.min_distinct,
                rule=high_card_flush_rule(17),
            ),
            path="designated_player.seat",
        )
