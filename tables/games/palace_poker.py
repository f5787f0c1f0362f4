"""Palace Poker at the table: banners and palace cards at the deal, then every action."""

from __future__ import annotations

from typing import Any

from casino.core.errors import ApplicationError
from casino.rules import palace_poker
from casino.rules.errors import Problems
from tables.models import Table
from tables.selectors import seats_in_play, table_config

from .base import DealerRotating, Opening, check_amount_limits, next_dealer


class PalacePoker(DealerRotating):
    """Banners, palace cards, soldiers and battles: the dealer enters each player's banner,
    palace cards and stack, then every buy, discard, battle, answer, stay and fold."""

    code = "palace-poker"
    limit_fields = ("structure", "small_bet", "big_bet")
    max_seats = 10  # clause 1: 2-10 players

    def check_limits(self, limits: dict[str, Any], problems: Problems) -> None:
        structures = [str(s) for s in palace_poker.Structure]
        if limits.get("structure") not in structures:
            problems.add("structure", f"structure must be one of {', '.join(structures)}")
        check_amount_limits(limits, ("small_bet", "big_bet"), problems)
        if not problems and limits["big_bet"] < limits["small_bet"]:
            problems.add("big_bet", "the big bet is smaller than the small bet")

    def hand_rules(self, config: dict[str, Any]) -> dict[str, Any]:
        return palace_poker.parse_rules(
            {**(config.get("rules") or {}), "smallest_chip": config["smallest_chip"]}
        )

    def open_hand(self, table: Table, body: dict[str, Any]) -> Opening:
        dealer = next_dealer(table, body)
        in_play = seats_in_play(table)
        players = body.get("players")
        given = (
            [p.get("seat") for p in players if isinstance(p, dict)]
            if isinstance(players, list)
            else []
        )
        if sorted(given, key=str) != in_play:
            raise ApplicationError(
                f"players: give seats {', '.join(map(str, in_play))} their stack, banner and "
                "three palace cards",
                path="players",
            )
        rules = self.hand_rules(table_config(table))
        engine_rules = palace_poker.PalaceRules.from_dict(rules)
        record = {
            **{name: table.limits[name] for name in self.limit_fields},
            "dealer": dealer,
            "players": players,
        }
        config = palace_poker.parse_config(record, engine_rules).to_dict()
        self.build(config, rules)
        return Opening(rules=rules, seats=in_play, config=config, button=dealer)

    def build(self, config: dict[str, Any], rules: dict[str, Any]) -> palace_poker.PalaceHand:
        engine_rules = palace_poker.PalaceRules.from_dict(rules)
        return palace_poker.PalaceHand(
            palace_poker.parse_config(config, engine_rules), engine_rules
        )
