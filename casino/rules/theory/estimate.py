"""A hand's money figures, and the ratio estimates a simulation reports with their intervals.

The figures follow the one definition the reports and the hold chart use
(``payouts/figures.py``), read from an engine settlement instead of stored rows:

* ``handle``: the chips players staked on every wager: the stakes of every seat's lines that
  are not a bank's (a bank's line names the seat it is ``against`` and mirrors a player's
  wager, so it is not counted a second time);
* ``win``: what the house kept, the rake plus the house's own net where it banks; chips are
  conserved, so it is minus the seats' nets summed.

A hold is a ratio of sums (``sum(win) / sum(handle)``), so a simulation estimates it with the
**ratio estimator** over hands and its standard error from the sample (the delta method):
with ``R = Y / X`` and the per-hand residuals ``e = y - R x``,
``se(R) = sqrt(sum(e**2) / (n (n - 1))) / mean(x)``. Hands are the sampling units, so the
seats of one hand (which share the designated player's or the banker's cards) are not taken
to be independent. The 95% interval is ``R +- 1.96 se(R)`` (normal approximation). All sums
are kept as integers, so the residuals' sum of squares is exact.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from math import sqrt

from casino.rules.settlement import Settlement

#: The two-sided 95% point of the standard normal distribution.
Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class HandFigures:
    """One hand's handle and win, and each wager's stakes and result for the players."""

    handle: int
    win: int
    rake: int
    wagers: dict[str, tuple[int, int]] = field(default_factory=dict)  # wager: (stake, amount)


def hand_figures(settlement: Settlement) -> HandFigures:
    """The figures of one engine settlement, as ``payouts.figures.of_settlement`` counts
    them from the stored rows (the house's seat, if any, is not a seat)."""
    handle = 0
    wagers: dict[str, tuple[int, int]] = {}
    for seat in settlement.seats:
        for line in seat.lines:
            if line.extra.get("against") is not None:
                continue
            handle += line.stake
            stake, amount = wagers.get(line.wager, (0, 0))
            wagers[line.wager] = (stake + line.stake, amount + line.amount)
    return HandFigures(
        handle=handle,
        win=-sum(seat.net for seat in settlement.seats),
        rake=settlement.rake,
        wagers=wagers,
    )


@dataclass(frozen=True, slots=True)
class Estimate:
    """A ratio ``sum(y) / sum(x)`` over ``hands`` with its 95% interval.

    ``spread`` is the standard deviation of one hand's contribution to the ratio
    (``sqrt(sum(e**2) / (n - 1)) / mean(x)``): the hold of ``m`` further hands played the
    same way scatters about ``value`` with a standard error of about ``spread / sqrt(m)``.
    """

    value: float
    low: float
    high: float
    hands: int
    spread: float
    numerator: int
    denominator: int

    @property
    def standard_error(self) -> float:
        return (self.high - self.value) / Z95

    @property
    def mean_denominator(self) -> float:
        """The mean of ``x`` per hand (for a hold: the mean handle per hand)."""
        return self.denominator / self.hands if self.hands else 0.0

    def interval_for(self, hands: int) -> tuple[float, float]:
        """Where the ratio over ``hands`` further hands should fall 95% of the time: the
        estimate's own uncertainty and the new hands' scatter, added in quadrature."""
        width = Z95 * sqrt(self.standard_error**2 + self.spread**2 / max(hands, 1))
        return self.value - width, self.value + width

    def contains(self, value: float) -> bool:
        return self.low <= value <= self.high

    def to_dict(self) -> dict[str, float | int]:
        return {
            "value": self.value,
            "low": self.low,
            "high": self.high,
            "hands": self.hands,
            "spread": self.spread,
            "numerator": self.numerator,
            "denominator": self.denominator,
        }


@dataclass(slots=True)
class RatioTally:
    """Running integer sums for one ratio estimate."""

    n: int = 0
    x: int = 0
    y: int = 0
    xx: int = 0
    yy: int = 0
    xy: int = 0

    def add(self, y: int, x: int) -> None:
        self.n += 1
        self.x += x
        self.y += y
        self.xx += x * x
        self.yy += y * y
        self.xy += x * y

    def estimate(self) -> Estimate | None:
        """The ratio and its interval; None without two hands or without any ``x``."""
        if self.n < 2 or self.x == 0:
            return None
        ratio = Fraction(self.y, self.x)
        residual = self.yy - 2 * ratio * self.xy + ratio * ratio * self.xx  # exact, >= 0
        mean_x = self.x / self.n
        spread = sqrt(float(residual) / (self.n - 1)) / mean_x
        error = spread / sqrt(self.n)
        value = float(ratio)
        return Estimate(
            value=value,
            low=value - Z95 * error,
            high=value + Z95 * error,
            hands=self.n,
            spread=spread,
            numerator=self.y,
            denominator=self.x,
        )


@dataclass(slots=True)
class Tally:
    """What a simulation adds up: the house's win over the handle, and for every wager the
    players' result over their stakes."""

    house: RatioTally = field(default_factory=RatioTally)
    wagers: dict[str, RatioTally] = field(default_factory=dict)
    hands: int = 0

    def add(self, figures: HandFigures) -> None:
        self.hands += 1
        self.house.add(figures.win, figures.handle)
        for wager in figures.wagers.keys() - self.wagers.keys():
            # A wager first seen now was 0 staked in every earlier hand.
            tally = self.wagers[wager] = RatioTally()
            for _ in range(self.hands - 1):
                tally.add(0, 0)
        for wager, tally in self.wagers.items():
            stake, amount = figures.wagers.get(wager, (0, 0))
            tally.add(amount, stake)

    def add_all(self, settlements: Iterable[Settlement]) -> None:
        for settlement in settlements:
            self.add(hand_figures(settlement))
