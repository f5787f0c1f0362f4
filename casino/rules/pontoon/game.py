"""Pontoon in the one game contract: the bank and the Shoot Pontoon kitty are the table's
state between hands; a hand is live, one dealt card or decision at a time.

Table state: ``{"banker": seat or None, "kitty": the kitty carried over or None}``. The first
banker is chosen between hands (``choose_banker``); after that the bank moves only by a
player's pontoon or a sale (the hand's last action), and the old banker leaves with the kitty.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casino.rules import schemas as s
from casino.rules.actions import schemas
from casino.rules.contract import (
    JSON,
    Change,
    ClosedHand,
    Event,
    Game,
    Opening,
    TableView,
    register,
)
from casino.rules.errors import Problems, Refusal, RuleError
from casino.rules.options import check_amounts, is_int
from casino.rules.settlement import Settlement

from . import evaluate
from .config import PontoonConfig, check_config
from .hand import PontoonHand
from .ops import ACTIONS, GAME_CODE, GAME_NAME
from .rules import PontoonRules, default_rules, parse_rules

STAKES = ("stake_min", "stake_max")
KITTY = ("kitty_min", "kitty_max")


class Pontoon(Game):
    code = GAME_CODE
    name = GAME_NAME
    max_seats = 10  # clause 1: two packs are mixed with 8 or more
    demo_table = {
        "name": "PON-1",
        "seat_count": 6,
        "limits": {"stake_min": 100, "stake_max": 2000, "kitty_min": 2000, "kitty_max": 20000},
        "smallest_chip": 25,
        "rules": {},
        # The first banker, as if chosen by the cut.
        "between_hands": [{"type": "choose_banker", "seat": 5}],
    }
    limits_schema = s.obj(
        {
            "stake_min": s.amount("the least stake"),
            "stake_max": s.amount("the largest stake"),
            "kitty_min": s.amount("Shoot Pontoon: the least kitty (leave out for plain Pontoon)"),
            "kitty_max": s.amount("Shoot Pontoon: the largest kitty"),
        },
        required=list(STAKES),
    )
    rules_schema = s.from_defaults(default_rules())
    open_schema = s.obj({"kitty": s.amount("Shoot Pontoon: the kitty a new banker puts up")})
    action_table = ACTIONS
    action_schemas = schemas(ACTIONS)
    table_action_schemas = {
        "choose_banker": s.action(
            "choose_banker",
            {"seat": s.seat("the first banker (e.g. by the cut)")},
            required=["seat"],
            description="Choose who holds the bank for the first hand.",
        )
    }
    result_schema = s.result(
        {
            "banker": s.seat("the banker"),
            "order": s.integers("the players in the order they played"),
            "case": {"type": "string", "description": "how the hand ended for the banker"},
            "next_banker": s.seat("who holds the bank for the next hand"),
            "bank_changes": {"type": "boolean"},
            "reshuffle": {
                "type": "boolean",
                "description": "the pack is shuffled before the next deal",
            },
            "kitty": s.amount("the kitty at the start (Shoot Pontoon)", minimum=0, nullable=True),
            "kitty_after": s.amount("the kitty after the hand", minimum=0, nullable=True),
            "bank_sale": {"type": "object", "nullable": True, "description": "buyer and price"},
        },
        required=["banker", "next_banker", "bank_changes", "kitty", "kitty_after"],
    )
    record_schema = {
        "type": "object",
        "description": "banker, players with stakes, cards and decisions, shoot, bank_sale",
    }

    def default_rules(self) -> JSON:
        return default_rules()

    def parse_rules(
        self, data: Mapping[str, Any] | None, base: Mapping[str, Any] | None = None
    ) -> JSON:
        return parse_rules(data, base)

    def check_limits(self, limits: Mapping[str, Any], problems: Problems) -> None:
        # No kitty limits: no Shoot Pontoon.
        check_amounts(limits, (*STAKES, *KITTY), problems, optional=KITTY)
        if problems:
            return
        if limits["stake_min"] > limits["stake_max"]:
            problems.add("stake_max", "the stake maximum is below the minimum")
        kitty = (limits.get("kitty_min"), limits.get("kitty_max"))
        if (kitty[0] is None) != (kitty[1] is None):
            problems.add("kitty_max", "give both kitty limits (Shoot Pontoon) or neither")
        elif kitty[0] is not None and kitty[1] is not None and kitty[0] > kitty[1]:
            problems.add("kitty_max", "the kitty maximum is below the minimum")

    def hand_rules(
        self, limits: Mapping[str, Any], smallest_chip: int, rules: Mapping[str, Any]
    ) -> JSON:
        chosen = {name: limits.get(name) for name in (*STAKES, *KITTY)}
        return parse_rules({**rules, **chosen, "smallest_chip": smallest_chip})

    def new_hand(self, config: Mapping[str, Any], rules: Mapping[str, Any]) -> PontoonHand:
        engine_rules = PontoonRules.from_dict(rules)
        parsed = PontoonConfig.from_dict(config)
        check_config(parsed, engine_rules)
        return PontoonHand(parsed, engine_rules)

    def evaluate(
        self, record: Mapping[str, Any], rules: Mapping[str, Any] | None = None
    ) -> Settlement:
        return evaluate(record, rules)

    # -------------------------------------------------------------- the table between hands

    def initial_state(self) -> JSON:
        return {"banker": None, "kitty": None}

    def table_view(self, table: TableView) -> JSON:
        return {
            "banker": table.state.get("banker"),
            "kitty": table.state.get("kitty"),
            "shoot": table.limits.get("kitty_min") is not None,
        }

    def table_actions(self, table: TableView) -> list[JSON]:
        if table.hand_open or table.state.get("banker") is not None:
            return []
        return [{"type": "choose_banker", "seats": table.in_play}]

    def table_act(self, table: TableView, action: Mapping[str, Any]) -> Change:
        if action.get("type") != "choose_banker":
            raise RuleError("the between-hand action of Pontoon is choose_banker", path="type")
        for key in sorted(set(action) - {"type", "seat"}):
            raise RuleError(f"unknown field {key!r}", path=str(key))
        seat = action.get("seat")
        if not is_int(seat) or seat not in table.in_play:
            raise RuleError(f"seat {seat} has no player in play", path="seat")
        if table.hand_open:
            raise Refusal("a hand is in progress; the bank changes between hands")
        banker = table.state.get("banker")
        if banker is not None:
            raise Refusal(f"seat {banker} holds the bank; it passes after a pontoon or by a sale")
        return self._moved(table, "bank_assign", seat)

    @staticmethod
    def _moved(table: TableView, kind: str, seat: int, **facts: Any) -> Change:
        before = {"banker": table.state.get("banker"), "kitty": table.state.get("kitty")}
        state = {**table.state, "banker": seat, "kitty": None}
        return Change(
            state, (Event(kind, {"from_seat": before["banker"], "to_seat": seat, **facts}),)
        )

    def open_hand(self, table: TableView, body: Mapping[str, Any]) -> Opening:
        banker = table.state.get("banker")
        in_play = table.in_play
        if banker is None:
            raise Refusal(
                "nobody holds the bank: choose the first banker (clause 3 of docs/rules/pontoon.md)"
            )
        if banker not in in_play:
            raise Refusal(f"the banker's seat {banker} is not in play")
        players = [seat for seat in in_play if seat != banker]
        if not players:
            raise Refusal("a hand needs at least one player besides the banker")
        kitty, carried = None, False
        if table.limits.get("kitty_min") is not None:  # Shoot Pontoon
            kitty = table.state.get("kitty")
            # An emptied kitty is not carried: the banker puts up a new one (clause 17).
            carried = kitty is not None and kitty > 0
            if not carried:
                kitty = body.get("kitty")
                if kitty is None:
                    raise RuleError(
                        "kitty: the banker puts up a kitty between "
                        f"{table.limits['kitty_min']} and {table.limits['kitty_max']} (clause 17 of docs/rules/pontoon.md)",
                        path="kitty",
                    )
        config = PontoonConfig(
            banker=banker, players=tuple(players), kitty=kitty, kitty_carried=carried
        ).to_dict()
        return Opening(config, (banker, *players), dict(table.state))

    def hand_closed(self, table: TableView, hand: ClosedHand) -> Change:
        """After settlement the bank passes after a player's pontoon or is sold (clause 16;
        the sale's price is settled in the hand) and the old banker leaves with the kitty;
        otherwise the banker keeps it and the kitty carries over (clause 17)."""
        result = hand.result
        if result is None:
            return Change(table.state)
        banker = table.state.get("banker")
        next_banker = result.extra["next_banker"]
        kitty = result.extra.get("kitty_after")
        if next_banker == banker:
            return Change({**table.state, "kitty": kitty})
        sale = result.extra.get("bank_sale")
        return self._moved(
            table,
            "bank_sale" if sale else "bank_pass",
            next_banker,
            price=sale["price"] if sale else None,
            old_banker_leaves_with_kitty=kitty,
            hand=hand.number,
        )


GAME = register(Pontoon())
