"""Paiute in the one game contract: the deal passes clockwise (the table hooks are
:class:`~casino.rules.paiute.table.PaiuteTable`'s); every draw, discard and call is an action
of the hand (:class:`~casino.rules.paiute.hand.PaiuteHand`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casino.rules import schemas as s
from casino.rules.actions import schemas
from casino.rules.contract import JSON, Game, register
from casino.rules.errors import Problems, RuleError
from casino.rules.messages import _, msg
from casino.rules.options import check_amounts
from casino.rules.rake import rake_schema
from casino.rules.rule_titles import paiute_rule
from casino.rules.settlement import Settlement
from casino.rules.theory.base import GameTheory

from .config import PaiuteConfig
from .hand import PaiuteHand
from .ops import ACTIONS, GAME_CODE, GAME_NAME
from .rules import FEWEST_PLAYERS, MOST_PLAYERS, PaiuteRules, default_rules, parse_rules
from .settle import evaluate as evaluate_holdings
from .table import PaiuteTable


class Paiute(PaiuteTable, Game):
    code = GAME_CODE
    name = GAME_NAME
    max_seats = 5  # clause 1: 2-5 players
    demo_table = {"name": "PAI-1", "seat_count": 5, "limits": {"ante": 500}, "smallest_chip": 25}
    limits_schema = s.obj(
        {"ante": s.money("ante", f"what each player puts in the pot ({paiute_rule(1)})")},
        required=["ante"],
    )
    rules_schema = s.rules(
        default_rules(),
        {
            "discard_pile_starts_with_upturned_card": s.flag(
                "discard pile starts with a turned card",
                f"the top stock card is turned face up to start the discard pile ({paiute_rule(3)})",
            ),
            "ante_min": s.money("ante minimum", nullable=True, none="none"),
            "ante_max": s.money("ante maximum", nullable=True, none="none"),
            "min_players": s.count(
                "fewest players",
                f"from {FEWEST_PLAYERS} to {MOST_PLAYERS} ({paiute_rule(1)})",
                least=FEWEST_PLAYERS,
                most=MOST_PLAYERS,
            ),
            "max_players": s.count(
                "most players",
                f"from {FEWEST_PLAYERS} to {MOST_PLAYERS} ({paiute_rule(1)})",
                least=FEWEST_PLAYERS,
                most=MOST_PLAYERS,
            ),
            "rake": rake_schema(
                base="pot",
                open_top=True,
                description=f"the house's rake from the pot before it is shared ({paiute_rule(8)})",
            ),
        },
        from_table={name: "set from the table's ante" for name in ("ante_min", "ante_max")},
    )
    open_schema = s.obj(
        {
            "dealer": s.seat("the first hand's dealer (later hands: the next seat clockwise)"),
            "hands": {
                "type": "object",
                "additionalProperties": s.cards("the seat's five cards", least=5, most=5),
                "description": 'each player\'s five cards by seat, e.g. {"1": ["Ah", ...]}',
            },
            "upcard": s.card("the card turned after the deal: its rank is wild"),
            "first_discard": s.nullable(s.card("the card that starts the discard pile (option)")),
        },
        required=["hands", "upcard"],
    )
    action_table = ACTIONS
    action_schemas = schemas(ACTIONS)
    result_schema = s.result(
        {
            "dealer": s.seat("the dealer"),
            "order": s.integers("the play order"),
            "ante": s.amount("the ante"),
            "pot": s.amount("the pot"),
            "wild_card": s.card("the upcard"),
            "wild_rank": {"type": "string", "description": "the wild rank"},
            "caller": s.seat("who called"),
            "winners": s.integers("who shares the pot"),
            "winning_hand": {"type": "string", "description": "the winning combination in words"},
        },
        required=["dealer", "pot", "caller", "winners"],
    )
    record_schema = s.obj(
        {
            "dealer": s.seat(),
            "ante": s.amount("the ante"),
            "wild_card": s.card("the upcard"),
            "caller": s.seat("who called"),
            "players": {
                "type": "array",
                "items": s.obj(
                    {"seat": s.seat(), "cards": s.cards("final cards", least=5, most=6)}
                ),
            },
        },
        description="A finished hand by its final holdings (a showdown record); a hand played "
        "at a table is replayed from its set-up and actions instead.",
    )

    def default_rules(self) -> JSON:
        return default_rules()

    def parse_rules(
        self, data: Mapping[str, Any] | None, base: Mapping[str, Any] | None = None
    ) -> JSON:
        return parse_rules(data, base)

    def check_limits(self, limits: Mapping[str, Any], problems: Problems) -> None:
        check_amounts(limits, ("ante",), problems)

    def hand_rules(
        self, limits: Mapping[str, Any], smallest_chip: int, rules: Mapping[str, Any]
    ) -> JSON:
        ante = limits["ante"]
        return parse_rules(
            {**rules, "ante_min": ante, "ante_max": ante, "smallest_chip": smallest_chip}
        )

    def new_hand(self, config: Mapping[str, Any], rules: Mapping[str, Any]) -> PaiuteHand:
        return PaiuteHand(PaiuteConfig.from_dict(config), PaiuteRules.from_dict(rules))

    def evaluate(
        self, record: Mapping[str, Any], rules: Mapping[str, Any] | None = None
    ) -> Settlement:
        """A record with ``actions`` is a history (set-up and actions) and is replayed; one
        without is a showdown record of final holdings."""
        if "actions" in record:
            effective = self.parse_rules(rules)
            state = self.replay(self.import_record(record, effective))
            if not state.complete:
                raise RuleError(
                    msg(_("the record ends before the hand is complete (nobody has called)"))
                )
            return state.settle()
        return evaluate_holdings(record, rules)

    def theory(self) -> GameTheory:
        """Its theoretical figures: the strategy and figures of ``theory.py``."""
        from .theory import THEORY

        return THEORY


GAME = register(Paiute())
