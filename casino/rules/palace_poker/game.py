"""Palace Poker in the one game contract: banners and palace cards at the deal, then every
buy, discard, battle, answer, stay and fold as an action; the deal passes clockwise."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casino.rules import schemas as s
from casino.rules.actions import schemas
from casino.rules.contract import JSON, Game, Opening, TableView, register
from casino.rules.errors import Problems, RuleError
from casino.rules.options import check_amounts, is_int
from casino.rules.seating import DealerButton, next_dealer
from casino.rules.settlement import Settlement

from . import GAME_CODE, GAME_NAME, PalaceHand, evaluate
from .config import Structure, parse_config
from .ops import ACTIONS
from .rules import PalaceRules, default_rules, parse_rules

LIMIT_AMOUNTS = ("small_bet", "big_bet")


def _amount(description: str) -> JSON:
    return s.amount(description)


class PalacePoker(DealerButton, Game):
    code = GAME_CODE
    name = GAME_NAME
    max_seats = 10  # clause 1: 2-10 players
    demo_table = {
        "name": "PAL-1",
        "seat_count": 7,
        "limits": {"structure": "limit", "small_bet": 500, "big_bet": 1000},
        "smallest_chip": 25,
    }
    limits_schema = s.obj(
        {
            "structure": s.choice([str(x) for x in Structure], "limit or no_limit"),
            "small_bet": _amount("the small bet (the ante is a share of it)"),
            "big_bet": _amount("the big bet"),
        },
        required=["structure", *LIMIT_AMOUNTS],
    )
    rules_schema = s.from_defaults(default_rules())
    _player = s.obj(
        {
            "seat": s.seat(),
            "stack": s.amount("the player's chips at the start of the hand", minimum=0),
            "banner": s.card("the banner card (its suit is the player's)"),
            "palace": s.cards("the three palace cards", least=3, most=3),
        },
        required=["seat", "stack", "banner", "palace"],
    )
    open_schema = s.obj(
        {
            "dealer": s.seat("the first hand's dealer (later hands: the next seat clockwise)"),
            "players": {"type": "array", "items": _player, "description": "every seat in play"},
        },
        required=["players"],
    )
    action_table = ACTIONS
    action_schemas = schemas(ACTIONS)
    result_schema = s.result(
        {
            "structure": {"type": "string"},
            "dealer": s.seat("the dealer"),
            "pot": s.amount("the pot", minimum=0),
            "ending": {"type": "string", "description": "how the hand ended (clauses 13-16)"},
            "winners": s.integers("who shares the pot"),
            "battles": {
                "type": "array",
                "items": {"type": "object"},
                "description": "every battle fought",
            },
        },
        required=["dealer", "pot", "ending", "winners"],
    )
    record_schema = s.obj(
        {
            "structure": s.choice([str(x) for x in Structure], "limit or no_limit"),
            "small_bet": _amount("the small bet"),
            "big_bet": _amount("the big bet"),
            "ante": s.amount("the ante (default: the rules' share of the small bet)", minimum=0),
            "dealer": s.seat(),
            "players": {"type": "array", "items": _player},
            "actions": {"type": "array", "items": {"type": "object"}},
            "rules": {"type": "object"},
        },
        required=["structure", "small_bet", "big_bet", "dealer", "players"],
    )

    def default_rules(self) -> JSON:
        return default_rules()

    def parse_rules(
        self, data: Mapping[str, Any] | None, base: Mapping[str, Any] | None = None
    ) -> JSON:
        return parse_rules(data, base)

    def check_limits(self, limits: Mapping[str, Any], problems: Problems) -> None:
        structures = [str(x) for x in Structure]
        if limits.get("structure") not in structures:
            problems.add("structure", f"structure must be one of {', '.join(structures)}")
        check_amounts(limits, LIMIT_AMOUNTS, problems)
        if not problems and limits["big_bet"] < limits["small_bet"]:
            problems.add("big_bet", "the big bet is smaller than the small bet")

    def hand_rules(
        self, limits: Mapping[str, Any], smallest_chip: int, rules: Mapping[str, Any]
    ) -> JSON:
        return parse_rules({**rules, "smallest_chip": smallest_chip})

    def new_hand(self, config: Mapping[str, Any], rules: Mapping[str, Any]) -> PalaceHand:
        engine_rules = PalaceRules.from_dict(rules)
        return PalaceHand(parse_config(config, engine_rules), engine_rules)

    def evaluate(
        self, record: Mapping[str, Any], rules: Mapping[str, Any] | None = None
    ) -> Settlement:
        return evaluate(record, rules)

    def open_hand(self, table: TableView, body: Mapping[str, Any]) -> Opening:
        dealer = next_dealer(table, body)
        in_play = table.in_play
        players = body.get("players")
        given = (
            [p.get("seat") for p in players if isinstance(p, dict)]
            if isinstance(players, list)
            else []
        )
        if sorted((seat for seat in given if is_int(seat)), key=int) != in_play or len(
            given
        ) != len(in_play):
            raise RuleError(
                f"players: give seats {', '.join(map(str, in_play))} their stack, banner and "
                "three palace cards",
                path="players",
            )
        rules = self.hand_rules(table.limits, table.smallest_chip, table.rules)
        engine_rules = PalaceRules.from_dict(rules)
        record = {
            **{name: table.limits[name] for name in ("structure", *LIMIT_AMOUNTS)},
            "dealer": dealer,
            "players": players,
        }
        config = parse_config(record, engine_rules).to_dict()
        state, events = self.moved(table, dealer)
        return Opening(config, tuple(in_play), state, events)


GAME = register(PalacePoker())
