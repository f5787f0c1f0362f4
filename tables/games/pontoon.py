"""Pontoon at the table: the bank and the kitty carried from hand to hand."""

from __future__ import annotations

from typing import Any

from casino.core.errors import ApplicationError, Conflict
from casino.rules import pontoon
from casino.rules.errors import Problems
from casino.rules.settlement import Settlement
from tables import bank
from tables.models import Hand, Table
from tables.selectors import seats_in_play, table_config

from .base import LiveGame, Opening, check_amount_limits


class Pontoon(LiveGame):
    """Banked twenty-one: the bank is table state (``bank.py``); the hand is live, one dealt
    card or decision at a time, and settled from its own log."""

    code = "pontoon"
    limit_fields = ("stake_min", "stake_max", "kitty_min", "kitty_max")
    max_seats = 10  # clause 1: two packs are mixed with 8 or more

    def check_limits(self, limits: dict[str, Any], problems: Problems) -> None:
        check_amount_limits(limits, ("stake_min", "stake_max"), problems)
        # No kitty limits: no Shoot Pontoon.
        check_amount_limits(limits, ("kitty_min", "kitty_max"), problems, optional=True)
        if problems:
            return
        if limits["stake_min"] > limits["stake_max"]:
            problems.add("stake_max", "the stake maximum is below the minimum")
        kitty = (limits.get("kitty_min"), limits.get("kitty_max"))
        if (kitty[0] is None) != (kitty[1] is None):
            problems.add("kitty_max", "give both kitty limits (Shoot Pontoon) or neither")
        elif kitty[0] is not None and kitty[0] > kitty[1]:
            problems.add("kitty_max", "the kitty maximum is below the minimum")

    def hand_rules(self, config: dict[str, Any]) -> dict[str, Any]:
        limits = {name: config.get(name) for name in self.limit_fields}
        return pontoon.parse_rules(
            {**(config.get("rules") or {}), **limits, "smallest_chip": config["smallest_chip"]}
        )

    def open_hand(self, table: Table, body: dict[str, Any]) -> Opening:
        banker = table.game_state.get("banker")
        in_play = seats_in_play(table)
        if banker is None:
            raise Conflict("nobody holds the bank: choose the first banker (clause 3)")
        if banker not in in_play:
            raise Conflict(f"the banker's seat {banker} is not in play")
        players = [seat for seat in in_play if seat != banker]
        if not players:
            raise Conflict("a hand needs at least one player besides the banker")
        kitty, carried = None, False
        if table.limits.get("kitty_min") is not None:  # Shoot Pontoon
            kitty = table.game_state.get("kitty")
            carried = kitty is not None
            if not carried:
                kitty = body.get("kitty")
                if kitty is None:
                    raise ApplicationError(
                        "kitty: the banker puts up a kitty between "
                        f"{table.limits['kitty_min']} and {table.limits['kitty_max']} "
                        "(clause 17)",
                        path="kitty",
                    )
        rules = self.hand_rules(table_config(table))
        config = pontoon.PontoonConfig(
            banker=banker, players=tuple(players), kitty=kitty, kitty_carried=carried
        ).to_dict()
        self.build(config, rules)
        return Opening(
            rules=rules,
            seats=[banker, *players],
            config=config,
            audit={"banker": banker, "kitty": kitty, "kitty_carried": carried},
        )

    def build(self, config: dict[str, Any], rules: dict[str, Any]) -> pontoon.PontoonHand:
        engine_rules = pontoon.PontoonRules.from_dict(rules)
        parsed = pontoon.PontoonConfig.from_dict(config)
        pontoon.check_config(parsed, engine_rules)
        return pontoon.PontoonHand(parsed, engine_rules)

    def after_hand(self, table: Table, hand: Hand, user: Any, result: Settlement | None) -> None:
        if result is not None:
            bank.after_hand(
                table,
                hand,
                user,
                next_banker=result.extra["next_banker"],
                kitty=result.extra.get("kitty_after"),
                sale=result.extra.get("bank_sale"),
            )
