"""High Card Flush at the table: the designated player and the dealer's record."""

from __future__ import annotations

from typing import Any

from casino.core.errors import ApplicationError
from casino.rules.errors import Problems
from casino.rules.games import GAMES
from casino.rules.settlement import Settlement
from tables import rotation
from tables.models import Hand, Seat, Table
from tables.selectors import seats_in_play, table_config

from .base import GameAdapter, Opening, check_amount_limits


class HighCardFlush(GameAdapter):
    """Player-banked: a designated player with a bank, settled from the dealer's record."""

    code = "high-card-flush"
    limit_fields = ("ante_min", "ante_max", "bank_min", "bank_max")
    max_seats = 7  # clause 1: at most 6 players and the designated player

    def check_limits(self, limits: dict[str, Any], problems: Problems) -> None:
        check_amount_limits(limits, self.limit_fields, problems)
        if problems:
            return
        for low, high, words in (
            ("ante_min", "ante_max", "ante"),
            ("bank_min", "bank_max", "bank"),
        ):
            if limits[low] > limits[high]:
                problems.add(
                    high, f"{words} maximum {limits[high]} is below the minimum {limits[low]}"
                )

    def hand_rules(self, config: dict[str, Any]) -> dict[str, Any]:
        limits = {name: config[name] for name in (*self.limit_fields, "smallest_chip")}
        return GAMES[self.code].parse_rules({**(config.get("rules") or {}), **limits})

    def on_table_open(self, table: Table, user: Any) -> None:
        rotation.ensure_offer(table, user)

    def on_seat_left(self, table: Table, seat: Seat, user: Any) -> None:
        rotation.seat_left(table, seat, user)

    def open_hand(self, table: Table, body: dict[str, Any]) -> Opening:
        rotation.check_dp_may_open(table)
        return Opening(
            rules=self.hand_rules(table_config(table)),
            seats=seats_in_play(table),
            config={},
            button=table.dp_seat,
            dp_seat=table.dp_seat,
            dp_bank=table.dp_bank,
        )

    def settle(
        self, hand: Hand, body: Any, actions: list[dict[str, Any]]
    ) -> tuple[dict[str, Any], Settlement]:
        record = self._record(hand, body)
        return record, GAMES[self.code].evaluate(record, hand.rules)

    def after_hand(self, table: Table, hand: Hand, user: Any, result: Settlement | None) -> None:
        rotation.after_hand(table, hand, user)

    @staticmethod
    def _record(hand: Hand, record: Any) -> dict[str, Any]:
        """Check the record belongs to this hand and fill in what the hand froze."""
        if not isinstance(record, dict):
            raise ApplicationError("the hand record must be a JSON object")
        record = {**record}
        problems = Problems()
        dp = record.get("designated_player")
        if isinstance(dp, dict):
            dp = record["designated_player"] = {**dp}
            if dp.get("seat") != hand.dp_seat:
                problems.add(
                    "designated_player.seat",
                    f"seat {dp.get('seat')} is not this hand's designated player "
                    f"(seat {hand.dp_seat})",
                )
            if "bank" not in dp:
                dp["bank"] = hand.dp_bank
            elif dp["bank"] != hand.dp_bank:
                problems.add(
                    "designated_player.bank",
                    f"bank {dp['bank']} differs from the bank {hand.dp_bank} posted "
                    "when the hand opened",
                )
        players = record.get("players")
        if isinstance(players, list):
            for index, player in enumerate(players):
                seat = player.get("seat") if isinstance(player, dict) else None
                if isinstance(seat, int) and seat not in hand.seats:
                    problems.add(
                        f"players[{index}].seat",
                        f"seat {seat} was not in play when hand {hand.number} opened",
                    )
        problems.raise_if_any()
        return record
