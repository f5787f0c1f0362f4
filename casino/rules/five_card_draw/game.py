"""Five Card Draw 7-A in the one game contract: the schemas, and the rules, the hand and the
table hooks wired to the modules that hold them (``rules.py``, ``hand.py``, ``table.py``).

The button, blinds and missed-blind markers, and the stacks carried forward from the last
settled hand, are the table's state between hands
(:mod:`casino.rules.five_card_draw.table`); a hand is live, one action at a time
(:mod:`casino.rules.five_card_draw.hand`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casino.rules import schemas as s
from casino.rules.actions import schemas
from casino.rules.contract import JSON, Change, ClosedHand, Game, Opening, TableView, register
from casino.rules.errors import Problems
from casino.rules.five_card_draw import table as tables
from casino.rules.five_card_draw.blinds import HandBlinds
from casino.rules.five_card_draw.config import Structure, parse_config
from casino.rules.five_card_draw.hand import ACTIONS, DrawHand, evaluate
from casino.rules.five_card_draw.rules import (
    DRAW_RAKE_KINDS,
    GAME_CODE,
    GAME_NAME,
    DrawRules,
    default_rules,
    parse_rules,
)
from casino.rules.five_card_draw.table import BLIND_AMOUNTS, CHOICES
from casino.rules.five_card_draw.values import deck_for
from casino.rules.messages import _, msg
from casino.rules.options import check_amounts
from casino.rules.rake import rake_schema
from casino.rules.rule_titles import five_card_draw_rule
from casino.rules.settlement import Settlement
from casino.rules.theory.base import GameTheory


class FiveCardDraw(Game):
    code = GAME_CODE
    name = GAME_NAME
    max_seats = 5  # clause 1: 2-5 players
    demo_table = {
        "name": "7A-1",
        "seat_count": 5,
        "limits": {"structure": "limit", "small_blind": 100, "big_blind": 200, "big_bet": 400},
        "smallest_chip": 25,
        "rules": {"rake": {"percent": 5, "cap": 300}},
    }
    limits_schema = s.obj(
        {
            "structure": s.choice(
                [str(x) for x in Structure],
                f"how much a bet or raise may be ({five_card_draw_rule(6)})",
                titles={"limit": "limit", "pot_limit": "pot limit", "no_limit": "no limit"},
                title="betting structure",
            ),
            "small_blind": s.money("small blind", "the blind to the button's left"),
            "big_blind": s.money("big blind", "the next blind; in limit, also the small bet"),
            "big_bet": s.money("big bet", "in limit, the bet after the draw"),
        },
        required=["structure", *BLIND_AMOUNTS],
    )
    rules_schema = s.rules(
        default_rules(),
        {
            "max_raises": s.count(
                "most raises",
                f"raises allowed after the bet in a limit round ({five_card_draw_rule(6)})",
                least=1,
                most=100,
            ),
            "heads_up_uncapped": s.flag(
                "no raise cap heads up", "in limit, no cap while at most two players can bet"
            ),
            "flush_beats_full_house": s.flag(
                "a flush beats a full house", f"the ranking of {five_card_draw_rule(2)}"
            ),
            "rake": rake_schema(
                kinds=DRAW_RAKE_KINDS,
                base="pot",
                description="the house's rake from each pot: none, a fixed fee per hand, or a "
                f"percentage with an optional cap ({five_card_draw_rule(10)})",
                extra={
                    "no_draw_no_drop": s.flag(
                        "no draw, no drop", "no rake from a hand that ends before the draw"
                    )
                },
            ),
        },
    )
    _seat = s.obj(
        {
            "seat": s.seat(),
            "stack": s.amount("the player's chips before the blinds", minimum=0),
            "cards": s.cards("the five cards dealt", least=5, most=5),
        },
        required=["seat", "stack", "cards"],
    )
    open_schema = s.obj(
        {"seats": {"type": "array", "items": _seat, "description": "every dealt-in seat"}},
        required=["seats"],
    )
    action_table = ACTIONS
    action_schemas = schemas(ACTIONS)
    table_action_schemas = {
        "blind_choice": s.action(
            "blind_choice",
            {
                "seat": s.seat(),
                "choice": s.choice(CHOICES, "post what is owed now, or wait for the big blind"),
            },
            required=["seat", "choice"],
            description=f"A returning or new player's choice ({five_card_draw_rule(12)}).",
        )
    }
    result_schema = s.result(
        {
            "structure": s.choice([str(x) for x in Structure], "the betting structure"),
            "button": s.seat("the button"),
            "pots": {
                "type": "array",
                "items": {"type": "object"},
                "description": "each pot: amount, eligible seats, winners, rake",
            },
            "showdown_order": s.integers("the seats in the order they showed"),
        },
        required=["structure", "button", "pots", "showdown_order"],
    )
    record_schema = s.obj(
        {
            "structure": s.choice([str(x) for x in Structure], "the betting structure"),
            "small_blind": s.amount("the small blind"),
            "big_blind": s.amount("the big blind"),
            "big_bet": s.amount("the big bet"),
            "button": s.seat("the button"),
            "seats": {"type": "array", "items": _seat},
            "posts": {"type": "array", "items": {"type": "object"}},
            "actions": {"type": "array", "items": {"type": "object"}},
            "rules": {"type": "object"},
        },
        required=["structure", *BLIND_AMOUNTS, "button", "seats"],
    )

    def deck(self, seats: int) -> list[str]:
        """Clause 1: 32 cards, 7 to ace; the sixes are added when five are dealt in."""
        return [str(card) for card in deck_for(seats)]

    def next_seats(self, table: TableView) -> list[int]:
        return tables.next_seats(table)

    def table_deck(self, table: TableView) -> list[str]:
        return self.deck(len(self.next_seats(table)))

    # -------------------------------------------------------------- rules

    def default_rules(self) -> JSON:
        return default_rules()

    def parse_rules(
        self, data: Mapping[str, Any] | None, base: Mapping[str, Any] | None = None
    ) -> JSON:
        return parse_rules(data, base)

    def check_limits(self, limits: Mapping[str, Any], problems: Problems) -> None:
        structures = [str(x) for x in Structure]
        if limits.get("structure") not in structures:
            problems.add(
                "structure",
                msg(_("structure must be one of %(choices)s"), choices=", ".join(structures)),
            )
        check_amounts(limits, BLIND_AMOUNTS, problems)
        if problems:
            return
        if limits["small_blind"] > limits["big_blind"]:
            problems.add("small_blind", msg(_("the small blind is larger than the big blind")))
        if limits["big_bet"] < limits["big_blind"]:
            problems.add(
                "big_bet", msg(_("the big bet is smaller than the big blind (the small bet)"))
            )

    def hand_rules(
        self, limits: Mapping[str, Any], smallest_chip: int, rules: Mapping[str, Any]
    ) -> JSON:
        return parse_rules({**rules, "smallest_chip": smallest_chip})

    # -------------------------------------------------------------- a hand

    def new_hand(self, config: Mapping[str, Any], rules: Mapping[str, Any]) -> DrawHand:
        engine_rules = DrawRules.from_dict(rules)
        return DrawHand(parse_config(config, engine_rules), engine_rules)

    def evaluate(
        self, record: Mapping[str, Any], rules: Mapping[str, Any] | None = None
    ) -> Settlement:
        return evaluate(record, rules)

    # -------------------------------------------------------------- the table between hands

    def initial_state(self) -> JSON:
        return tables.initial_state()

    def next_blinds(self, table: TableView) -> HandBlinds:
        """The next hand's button, blinds, posts and markers (Refusal if none can be dealt)."""
        return tables.next_blinds(table)

    def table_view(self, table: TableView) -> JSON:
        return tables.table_view(table)

    def table_actions(self, table: TableView) -> list[JSON]:
        """A choice for each seated player it matters to (clause 12 of
        docs/rules/five-card-draw-7a.md)."""
        return tables.table_actions(table)

    def table_act(self, table: TableView, action: Mapping[str, Any]) -> Change:
        return tables.table_act(table, action)

    def seats_changed(self, table: TableView) -> Change:
        return tables.seats_changed(table)

    def open_hand(self, table: TableView, body: Mapping[str, Any]) -> Opening:
        return tables.open_hand(table, body)

    def hand_closed(self, table: TableView, hand: ClosedHand) -> Change:
        return tables.hand_closed(table, hand)

    def opening_proposal(self, table: TableView) -> JSON:
        """Each dealt-in seat with its player's stack as the last settled hand left it."""
        return tables.opening_proposal(table, self.next_seats(table))

    def theory(self) -> GameTheory:
        """Its theoretical figures: the strategy and figures of ``theory.py``."""
        from .theory import THEORY

        return THEORY


GAME = register(FiveCardDraw())
