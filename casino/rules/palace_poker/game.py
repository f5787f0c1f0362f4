"""Palace Poker in the one game contract: banners and palace cards at the deal, then every
buy, discard, battle, answer, stay and fold as an action; the deal passes clockwise.

:class:`PalacePoker` holds the schemas and wires the package's modules to the contract: the
rules and limits (:mod:`.rules`), the hand (:mod:`.hand`), the table between hands (the
dealer button and the stacks carried forward, :mod:`.table`); ``GAME`` registers it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casino.rules import schemas as s
from casino.rules.actions import schemas
from casino.rules.contract import JSON, Change, ClosedHand, Game, Opening, TableView, register
from casino.rules.errors import Problems
from casino.rules.palace_poker import rules as palace_rules
from casino.rules.palace_poker import table as palace_table
from casino.rules.palace_poker.config import parse_config
from casino.rules.palace_poker.hand import PalaceHand, evaluate
from casino.rules.palace_poker.ops import ACTIONS, GAME_CODE, GAME_NAME
from casino.rules.palace_poker.rules import (
    LIMIT_AMOUNTS,
    MOST_SOLDIERS,
    CallRule,
    PalaceRules,
    Structure,
    default_rules,
    parse_rules,
)
from casino.rules.rake import rake_schema
from casino.rules.rule_titles import palace_poker_rule
from casino.rules.seating import DealerButton
from casino.rules.settlement import Settlement
from casino.rules.theory.base import GameTheory


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
            "structure": s.choice(
                [str(x) for x in Structure],
                "how much a battle's bet or raise may be",
                titles={"limit": "limit", "no_limit": "no limit"},
                title="betting structure",
            ),
            "small_bet": s.money(
                "small bet", f"the ante is half of it unless set ({palace_poker_rule(3)})"
            ),
            "big_bet": s.money("big bet"),
        },
        required=["structure", *LIMIT_AMOUNTS],
    )
    rules_schema = s.rules(
        default_rules(),
        {
            "call": s.choice(
                [str(x) for x in CallRule],
                f"what a defender puts in to call the attacker's bet ({palace_poker_rule(9)})",
                titles={
                    "formula": "the defender's soldiers plus one, times the small bet",
                    "match": "the attacker's bet",
                },
                title="a call costs",
            ),
            "ante": s.money(
                "ante",
                f"each player's ante ({palace_poker_rule(3)})",
                minimum=0,
                nullable=True,
                none="half a small bet, rounded down to the smallest chip",
            ),
            "max_soldiers": s.count(
                "most soldiers",
                f"the soldier limit ({palace_poker_rule(6)})",
                least=1,
                most=MOST_SOLDIERS,
            ),
            "max_raises": s.count(
                "most raises in a limit battle",
                "no limit is never capped",
                least=1,
                most=100,
                nullable=True,
                none="no cap",
            ),
            "uncalled_raise_returned": s.flag(
                "an uncalled raise goes back",
                "when a side folds to a raise, or calls it all-in for less, the part of the "
                f"raise not called goes back to the raiser ({palace_poker_rule(9)})",
            ),
            "short_all_in": s.flag(
                "a short seat may go all in",
                "a seat short of its call, or of the least battle bet, may put in all its chips",
            ),
            "rake": rake_schema(
                base="pot",
                open_top=True,
                description="the house's rake from the pot before it is shared "
                f"({palace_poker_rule(13)})",
            ),
        },
    )
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
        palace_rules.check_limits(limits, problems)

    def hand_rules(
        self, limits: Mapping[str, Any], smallest_chip: int, rules: Mapping[str, Any]
    ) -> JSON:
        return palace_rules.hand_rules(limits, smallest_chip, rules)

    def new_hand(self, config: Mapping[str, Any], rules: Mapping[str, Any]) -> PalaceHand:
        engine_rules = PalaceRules.from_dict(rules)
        return PalaceHand(parse_config(config, engine_rules), engine_rules)

    def evaluate(
        self, record: Mapping[str, Any], rules: Mapping[str, Any] | None = None
    ) -> Settlement:
        return evaluate(record, rules)

    def open_hand(self, table: TableView, body: Mapping[str, Any]) -> Opening:
        return palace_table.open_hand(table, body)

    def hand_closed(self, table: TableView, hand: ClosedHand) -> Change:
        return palace_table.hand_closed(table, hand)

    def seats_changed(self, table: TableView) -> Change:
        return palace_table.seats_changed(table)

    def opening_proposal(self, table: TableView) -> JSON:
        """Each seat in play with its player's stack as the last settled hand left it."""
        return palace_table.opening_proposal(table, self.next_seats(table))

    def theory(self) -> GameTheory:
        """Its theoretical figures: the strategy and figures of ``theory.py``."""
        from .theory import THEORY

        return THEORY


GAME = register(PalacePoker())
