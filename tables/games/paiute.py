"""Paiute at the table: the deal passes clockwise; every draw, discard and call recorded."""

from __future__ import annotations

from typing import Any

from casino.rules import paiute
from casino.rules.errors import Problems
from tables.models import Table
from tables.selectors import seats_in_play, table_config

from .base import DealerRotating, Opening, check_amount_limits, next_dealer


class Paiute(DealerRotating):
    """Draw and discard with a wild rank: the dealer enters the deal and the upcard, then
    every draw, discard and call as it happens."""

    code = "paiute"
    limit_fields = ("ante",)
    max_seats = 5  # clause 1: 2-5 players

    def check_limits(self, limits: dict[str, Any], problems: Problems) -> None:
        check_amount_limits(limits, ("ante",), problems)

    def hand_rules(self, config: dict[str, Any]) -> dict[str, Any]:
        ante = config["ante"]
        return paiute.parse_rules(
            {
                **(config.get("rules") or {}),
                "ante_min": ante,
                "ante_max": ante,
                "smallest_chip": config["smallest_chip"],
            }
        )

    def open_hand(self, table: Table, body: dict[str, Any]) -> Opening:
        dealer = next_dealer(table, body)
        players = seats_in_play(table)
        rules = self.hand_rules(table_config(table))
        config = paiute.PaiuteConfig.from_dict(
            {
                "dealer": dealer,
                "players": players,
                "ante": table.limits["ante"],
                "hands": body.get("hands"),
                "upcard": body.get("upcard"),
                "first_discard": body.get("first_discard"),
            }
        ).to_dict()
        self.build(config, rules)
        return Opening(rules=rules, seats=players, config=config, button=dealer)

    def build(self, config: dict[str, Any], rules: dict[str, Any]) -> paiute.PaiuteHand:
        return paiute.PaiuteHand(
            paiute.PaiuteConfig.from_dict(config), paiute.PaiuteRules.from_dict(rules)
        )
