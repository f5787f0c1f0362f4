"""The interface every game's table adapter implements, and what live games share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from casino.core.errors import ApplicationError, Conflict
from casino.rules.errors import Problems
from casino.rules.options import MAX_AMOUNT, is_int
from casino.rules.rotation import next_seat_clockwise
from casino.rules.settlement import Settlement
from tables.models import Hand, Seat, Table
from tables.selectors import seats_in_play


@dataclass(frozen=True)
class Opening:
    """What a game decides when a hand opens, stored on the hand."""

    rules: dict[str, Any]
    seats: list[int]
    config: dict[str, Any]
    button: int | None = None
    dp_seat: int | None = None
    dp_bank: int | None = None
    audit: dict[str, Any] | None = None  # extra facts for the hand_open audit entry


class GameAdapter:
    code: ClassVar[str]
    limit_fields: ClassVar[tuple[str, ...]]
    max_seats: ClassVar[int]
    live: ClassVar[bool] = False  # takes actions one at a time

    def check_limits(self, limits: dict[str, Any], problems: Problems) -> None:
        raise NotImplementedError

    def hand_rules(self, config: dict[str, Any]) -> dict[str, Any]:
        """The effective rules a hand freezes from a table configuration."""
        raise NotImplementedError

    def on_table_open(self, table: Table, user: Any) -> None:
        """Called when the table opens or its seats change while open."""

    def on_seat_left(self, table: Table, seat: Seat, user: Any) -> None:
        """Called when a seat empties or sits out."""

    def open_hand(self, table: Table, body: dict[str, Any]) -> Opening:
        raise NotImplementedError

    def after_open(self, table: Table, hand: Hand, opening: Opening, user: Any) -> None:
        """Called once the hand row exists."""

    def settle(
        self, hand: Hand, body: Any, actions: list[dict[str, Any]]
    ) -> tuple[dict[str, Any], Settlement]:
        """The record to store and its settlement."""
        raise NotImplementedError

    def after_hand(self, table: Table, hand: Hand, user: Any, result: Settlement | None) -> None:
        """Called after a hand is settled (with its result) or voided (None); ``table`` is
        locked."""

    def replay(self, hand: Hand, actions: list[dict[str, Any]]) -> Any:
        raise ApplicationError(f"{self.code} hands are settled from a record, not by actions")


class LiveGame(GameAdapter):
    """A game played at the table one action at a time: the hand is its frozen configuration
    plus its action log, replayed through the engine's state machine to show the state, to
    check the next action and to settle. The stored record is the engine's own record of the
    hand, so the audit check re-settles it through the game's evaluate."""

    live = True

    def build(self, config: dict[str, Any], rules: dict[str, Any]) -> Any:
        """The engine's state for a new hand (checks the configuration against the rules)."""
        raise NotImplementedError

    def replay(self, hand: Hand, actions: list[dict[str, Any]]) -> Any:
        state = self.build(hand.config, hand.rules)
        for index, action in enumerate(actions):
            state.apply(action, index)
        return state

    def settle(
        self, hand: Hand, body: Any, actions: list[dict[str, Any]]
    ) -> tuple[dict[str, Any], Settlement]:
        state = self.replay(hand, actions)
        return state.to_record(), state.settle()


def check_amount_limits(
    limits: dict[str, Any], names: tuple[str, ...], problems: Problems, *, optional: bool = False
) -> None:
    """Each named table limit is a whole number of minor units from 1 to the engines'
    ``MAX_AMOUNT``; with ``optional`` it may also be left out (None)."""
    for name in names:
        value = limits.get(name)
        if optional and value is None:
            continue
        if not is_int(value) or not 1 <= value <= MAX_AMOUNT:
            problems.add(
                name, f"{name} must be a whole number of minor units from 1 to {MAX_AMOUNT}"
            )


def next_dealer(table: Table, body: dict[str, Any]) -> int:
    """The deal moves one seat clockwise each hand. The first hand's dealer may be named in
    the request (e.g. by the cut); otherwise it is the first seat in play."""
    in_play = seats_in_play(table)
    if len(in_play) < 2:
        raise Conflict("a hand needs at least two players in play")
    last = table.game_state.get("dealer")
    if last is not None:
        seat = next_seat_clockwise(in_play, last)
        assert seat is not None
        return seat
    first = body.get("dealer")
    if first is None:
        return in_play[0]
    if first not in in_play:
        raise ApplicationError(f"dealer: seat {first} has no player in play", path="dealer")
    return int(first)


class DealerRotating(LiveGame):
    """A live game whose deal passes clockwise each hand (``game_state["dealer"]``)."""

    def after_open(self, table: Table, hand: Hand, opening: Opening, user: Any) -> None:
        table.game_state = {**table.game_state, "dealer": opening.button}
        table.save(update_fields=["game_state"])
