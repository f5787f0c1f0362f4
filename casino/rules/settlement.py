"""The settlement every engine returns: the contract's shape, as frozen data.

Money is integer minor units. For every hand the seats' nets plus the total rake
sum to zero; :meth:`Settlement.check_conserved` asserts it and every engine calls
it before returning.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Outcome(StrEnum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    DEAD = "dead"


class SeatStatus(StrEnum):
    SETTLED = "settled"
    FOLDED = "folded"
    DEAD = "dead"
    BUST = "bust"
    OUT = "out"


class Role(StrEnum):
    PLAYER = "player"
    DESIGNATED_PLAYER = "designated_player"
    BANKER = "banker"


@dataclass(frozen=True, slots=True)
class Line:
    """One wager's result: ``amount`` is what it wins (+) or loses (-)."""

    wager: str
    stake: int
    outcome: Outcome
    amount: int
    odds: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "wager": self.wager,
            "stake": self.stake,
            "outcome": str(self.outcome),
            "amount": self.amount,
            "odds": self.odds,
        }
        data.update(self.extra)
        return data


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    role: Role
    cards: tuple[str, ...]
    hand: str | None
    status: SeatStatus
    lines: tuple[Line, ...]
    rake: int
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def net(self) -> int:
        return sum(line.amount for line in self.lines) - self.rake

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seat": self.seat,
            "role": str(self.role),
            "cards": list(self.cards),
            "hand": self.hand,
            "status": str(self.status),
        }
        data.update(self.extra)
        data["lines"] = [line.to_dict() for line in self.lines]
        data["rake"] = self.rake
        data["net"] = self.net
        return data


@dataclass(frozen=True, slots=True)
class Settlement:
    game: str
    rules: dict[str, Any]
    seats: tuple[SeatResult, ...]
    explanation: tuple[str, ...]
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def rake(self) -> int:
        return sum(seat.rake for seat in self.seats)

    def seat(self, number: int) -> SeatResult:
        for seat in self.seats:
            if seat.seat == number:
                return seat
        raise KeyError(number)

    def check_conserved(self) -> None:
        """Chips are conserved: the seats' nets plus the rake sum to zero."""
        total = sum(seat.net for seat in self.seats) + self.rake
        if total != 0:
            raise AssertionError(f"chips not conserved: nets plus rake = {total}")

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "rules": self.rules,
            "seats": [seat.to_dict() for seat in self.seats],
            "rake": self.rake,
        }
        data.update(self.extra)
        data["explanation"] = list(self.explanation)
        return data
