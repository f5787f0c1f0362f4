"""The settlement every engine returns: the contract's shape, as frozen data.

Money is integer minor units. For every hand the seats' nets, the house's net (in a game the
house banks) and the total rake sum to zero; :meth:`Settlement.check_conserved` asserts it and
every engine calls it before returning. It also refuses any figure beyond :data:`MAX_SETTLED_FIGURE`, so
no settlement can ever reach the database as an overflow.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from .errors import Problem, RuleError
from .messages import Message, Money, _, as_message, msg
from .quick import quick_init

MAX_SETTLED_FIGURE: Final = 10**15
"""The largest stake, line amount, rake or net (either sign) a settlement may hold.

A thousand times :data:`~casino.rules.options.MAX_AMOUNT`: what the engines work out from
amounts within that bound stays below it (a High Card Flush player wins at most what the bank
covers), and it is still far inside PostgreSQL's ``bigint`` (about 9.2 * 10**18) when summed
over a table. It is the last line of defence behind the engines' input bounds: a figure beyond
it is a RuleError, never an overflow in the database."""


class Outcome(StrEnum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    DEAD = "dead"
    #: A payout with no stake of its own, paid on the wager the line names (Three Card Poker's
    #: ante bonus, Casino War's tie bonus): the line's ``stake`` is 0, its ``amount`` what the
    #: bonus pays (negative on the mirror line of the party that pays it), and the same party
    #: has a staked line of that wager. A hold or a return counts it in that wager's result
    #: and never divides by its stake.
    BONUS = "bonus"


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
    HOUSE = "house"


# Enum members read in the hot paths, each once: on Python 3.11 a member read through its
# class (``Phase.PLAY``) goes through ``EnumType.__getattr__``'s hook, several times a global.
_OUTCOME_BONUS = Outcome.BONUS
_ROLE_HOUSE = Role.HOUSE


HOUSE_SEAT: Final = 0
"""The house's place in a settlement of a house-banked game (seats are numbered from 1)."""


@quick_init
@dataclass(frozen=True, slots=True)
class Line:
    """One wager's result: ``amount`` is what it wins (+) or loses (-)."""

    wager: str
    stake: int
    outcome: Outcome
    amount: int
    odds: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def is_bonus(self) -> bool:
        """A bonus payout paid on the wager this line names, with no stake of its own."""
        return self.outcome == _OUTCOME_BONUS

    def to_dict(self) -> dict[str, Any]:
        return {
            "wager": self.wager,
            "stake": self.stake,
            "outcome": str(self.outcome),
            "amount": self.amount,
            "odds": self.odds,
            **self.extra,
        }


@quick_init
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
        return sum([line.amount for line in self.lines]) - self.rake

    def staked(self, wager: str) -> int:
        """What this party staked on ``wager`` (its lines of that wager; a bonus paid on it
        adds nothing): what a bonus line's multiple is reckoned against."""
        return sum(line.stake for line in self.lines if line.wager == wager)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seat": self.seat,
            "role": str(self.role),
            "cards": list(self.cards),
            "hand": self.hand,
            "status": str(self.status),
        }
        data.update(self.extra)
        lines: list[dict[str, Any]] = []
        total = 0  # self.net, read with the lines
        for line in self.lines:
            lines.append(line.to_dict())
            total += line.amount
        data["lines"] = lines
        data["rake"] = self.rake
        data["net"] = total - self.rake
        return data


@quick_init
@dataclass(frozen=True, slots=True)
class Settlement:
    """``seats`` are the players' (and a player-banker's) results; ``house`` the house's, in a
    game the house banks (seat :data:`HOUSE_SEAT`, role ``house``, its lines the mirror of the
    players' wagers against it); ``extra`` the game's own figures, JSON-ready.

    ``explanation`` is English sentences; a sentence written as a
    :class:`~casino.rules.messages.Message` also gives its id and parameters, which
    :meth:`to_dict` lists as ``messages`` (one ``{"id", "params"}`` per line)."""

    game: str
    rules: dict[str, Any]
    seats: tuple[SeatResult, ...]
    explanation: tuple[str, ...]
    extra: dict[str, Any] = field(default_factory=dict)
    house: SeatResult | None = None

    @property
    def rake(self) -> int:
        return sum([seat.rake for seat in self.parties])

    @property
    def parties(self) -> tuple[SeatResult, ...]:
        """Every party to the hand: the seats, then the house if it banks the game."""
        return self.seats if self.house is None else (*self.seats, self.house)

    def seat(self, number: int) -> SeatResult:
        for seat in self.seats:
            if seat.seat == number:
                return seat
        raise KeyError(number)

    def check_conserved(self) -> None:
        """Chips are conserved: the seats' nets, the house's net and the rake sum to zero; and
        every figure is storable: a RuleError names the seat and wager of any beyond
        :data:`MAX_SETTLED_FIGURE`. A game that breaks conservation is a defect in the game,
        reported as a RuleError naming the difference rather than a crash."""
        parties = self.parties
        quick = self._quick_totals(parties)
        if quick is None:  # a figure to look at: the full check (which names it), then the nets
            self.check_storable()
            nets, rake, bonus = [seat.net for seat in parties], self.rake, True
        else:
            nets, rake, bonus = quick
        total = sum(nets) + rake
        if total != 0:
            raise RuleError(
                msg(
                    _(
                        "%(game)s: chips not conserved (seats, house and rake sum to %(total)s, "
                        "not 0); the game's settlement is wrong and nothing was stored"
                    ),
                    game=self.game,
                    total=Money(total),
                )
            )
        if self.house is not None and (
            self.house.seat != HOUSE_SEAT or self.house.role is not _ROLE_HOUSE
        ):
            raise RuleError(
                msg(
                    _("%(game)s: the house settles as seat %(seat)s, role house"),
                    game=self.game,
                    seat=HOUSE_SEAT,
                )
            )
        if bonus:  # check_bonuses looks at bonus lines only
            self.check_bonuses()

    def check_bonuses(self) -> None:
        """Every bonus line (:attr:`Outcome.BONUS`) has no stake of its own and is paid on a
        wager its party staked; otherwise the game's settlement is wrong (a RuleError, as for
        chips not conserved)."""
        for party in self.parties:
            for line in party.lines:
                if line.outcome != _OUTCOME_BONUS:
                    continue
                if line.stake != 0 or party.staked(line.wager) <= 0:
                    raise RuleError(
                        f"{self.game}: seat {party.seat}'s {line.wager} bonus must have no "
                        f"stake of its own and be paid on a {line.wager} the seat staked; the "
                        "game's settlement is wrong and nothing was stored"
                    )

    def check_storable(self) -> None:
        """RuleError naming the seat and wager of every figure beyond
        :data:`MAX_SETTLED_FIGURE`."""
        most = MAX_SETTLED_FIGURE
        if self._storable_nets(self.parties) is not None:
            return
        messages: list[str] = []

        def check(value: object, what: str) -> None:
            if isinstance(value, int) and not -most <= value <= most:
                messages.append(
                    msg(
                        _(
                            "%(what)s %(value)s is beyond the largest figure a settlement can "
                            "hold (%(most)s); the amounts in this hand are too large to settle"
                        ),
                        what=what,
                        value=Money(value),
                        most=Money(most),
                    )
                )

        def figure(seat: int, wager: str, name: str) -> str:
            return msg(
                _("seat %(seat)s: %(wager)s %(figure)s"),
                seat=seat,
                wager=wager,
                figure=Message(name),
            )

        for seat in self.parties:
            for line in seat.lines:
                check(line.stake, figure(seat.seat, line.wager, _("stake")))
                check(line.amount, figure(seat.seat, line.wager, _("amount")))
                check(
                    line.extra.get("capped_from"),
                    figure(seat.seat, line.wager, _("uncapped amount")),
                )
            check(seat.rake, msg(_("seat %(seat)s: rake"), seat=seat.seat))
            check(seat.net, msg(_("seat %(seat)s: net"), seat=seat.seat))
        check(self.rake, msg(_("the hand's rake")))
        if messages:
            raise RuleError([Problem("", message) for message in messages])

    @staticmethod
    def _storable_nets(parties: tuple[SeatResult, ...]) -> list[int] | None:
        """The parties' nets when :meth:`check_storable` surely finds nothing: every stake,
        amount, rake, net and the hand's rake a plain whole number within
        :data:`MAX_SETTLED_FIGURE`, and no line capped; None sends the settlement to the full
        check."""
        quick = Settlement._quick_totals(parties)
        return None if quick is None else quick[0]

    @staticmethod
    def _quick_totals(parties: tuple[SeatResult, ...]) -> tuple[list[int], int, bool] | None:
        """:meth:`_storable_nets`, with the hand's rake and whether any line is a bonus line,
        the lines read once."""
        most = MAX_SETTLED_FIGURE
        nets: list[int] = []
        rake = 0
        bonus = False
        for seat in parties:
            total = 0  # seat.net, read with the lines
            for line in seat.lines:
                stake, amount = line.stake, line.amount
                if (
                    type(stake) is not int
                    or type(amount) is not int
                    or not -most <= stake <= most
                    or not -most <= amount <= most
                    or "capped_from" in line.extra
                ):
                    return None
                total += amount
                if line.outcome == _OUTCOME_BONUS:
                    bonus = True
            seat_rake = seat.rake
            net = total - seat_rake
            if type(seat_rake) is not int or type(net) is not int:
                return None
            if not -most <= seat_rake <= most or not -most <= net <= most:
                return None
            nets.append(net)
            rake += seat_rake
        return (nets, rake, bonus) if -most <= rake <= most else None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "rules": self.rules,
            "seats": [seat.to_dict() for seat in self.seats],
            "rake": self.rake,
        }
        if self.house is not None:
            data["house"] = self.house.to_dict()
        data.update(self.extra)
        data["explanation"] = [str(line) for line in self.explanation]
        # The same sentences as message ids and parameters (a line not yet written as a
        # Message is its own id), for the API to say them in the dealer's language.
        data["messages"] = [as_message(line) for line in self.explanation]
        return data
