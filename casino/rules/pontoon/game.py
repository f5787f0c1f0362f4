"""Pontoon in the one game contract: the :class:`Pontoon` game (its schemas, its rules, a new
hand, a record evaluated) wired to the package's modules, registered at the end.

The table between hands (the bank and the Shoot Pontoon kitty) is
:mod:`~casino.rules.pontoon.table`; a hand is live (:mod:`~casino.rules.pontoon.hand`), one
dealt card or decision at a time.
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
    Game,
    Opening,
    TableView,
    register,
)
from casino.rules.errors import Problems
from casino.rules.messages import _, msg
from casino.rules.options import check_amounts
from casino.rules.pontoon import table as between_hands
from casino.rules.pontoon.hand import PontoonHand
from casino.rules.pontoon.ops import ACTIONS, GAME_CODE, GAME_NAME
from casino.rules.pontoon.record import evaluate
from casino.rules.pontoon.rules import (
    CARD_LIMITS,
    LOWEST_STICK,
    MOST_SPLIT_HANDS,
    PontoonConfig,
    PontoonRules,
    check_config,
    default_rules,
    parse_rules,
)
from casino.rules.rule_titles import pontoon_rule
from casino.rules.settlement import Settlement
from casino.rules.theory.base import GameTheory

STAKES = ("stake_min", "stake_max")
KITTY = ("kitty_min", "kitty_max")
LIMIT_WORDS = {
    "stake_min": "stake minimum",
    "stake_max": "stake maximum",
    "kitty_min": "kitty minimum",
    "kitty_max": "kitty maximum",
}


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
            "stake_min": s.money("stake minimum", "the least first stake"),
            "stake_max": s.money(
                "stake maximum",
                f"the largest first stake; buys may go beyond it ({pontoon_rule(7)})",
            ),
            "kitty_min": s.money(
                "kitty minimum",
                f"Shoot Pontoon: the least kitty a new banker puts up ({pontoon_rule(17)})",
                nullable=True,
                none="plain Pontoon, no kitty",
            ),
            "kitty_max": s.money(
                "kitty maximum",
                "Shoot Pontoon: the largest kitty",
                nullable=True,
                none="plain Pontoon, no kitty",
            ),
        },
        required=list(STAKES),
    )
    rules_schema = s.rules(
        default_rules(),
        {
            "stick_minimum": s.count(
                "players' stick minimum",
                f"a player sticks only on this total or more ({pontoon_rule(9)})",
                least=LOWEST_STICK,
                most=21,
            ),
            "banker_stick_minimum": s.count(
                "banker's stick minimum",
                f"the banker stands only on this total or more ({pontoon_rule(11)})",
                least=LOWEST_STICK,
                most=21,
                nullable=True,
                none="none: the banker may stand on any total",
            ),
            "split_pontoon_pays_double": s.flag(
                "a split pontoon pays double",
                f"a pontoon on a split hand ranks and pays as a pontoon ({pontoon_rule(15)})",
            ),
            "split_pontoon_takes_bank": s.flag(
                "a split pontoon takes the bank",
                f"a pontoon on a split hand passes the bank ({pontoon_rule(16)})",
            ),
            "max_split_hands": s.count(
                "most hands after splitting",
                f"1 means no splitting ({pontoon_rule(6)})",
                least=1,
                most=MOST_SPLIT_HANDS,
            ),
            "split_aces_only": s.flag("only aces split", "a variation: no other pair splits"),
            "five_card_limit": s.choice(
                list(CARD_LIMITS),
                "the most cards in a hand; that many totalling 21 or less is the trick "
                f"({pontoon_rule(10)})",
                titles={limit: f"{limit} cards" for limit in CARD_LIMITS},
                title="card limit",
            ),
            "decks": s.choice(
                [1, 2],
                f"two are required with 8 or more at the table ({pontoon_rule(1)})",
                titles={1: "one pack", 2: "two packs mixed"},
                title="packs",
            ),
            **{
                name: s.money(LIMIT_WORDS[name], nullable=True, none="none")
                for name in (*STAKES, *KITTY)
            },
        },
        from_table={name: f"set from the table's {LIMIT_WORDS[name]}" for name in LIMIT_WORDS},
    )
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
            problems.add("stake_max", msg(_("the stake maximum is below the minimum")))
        kitty = (limits.get("kitty_min"), limits.get("kitty_max"))
        if (kitty[0] is None) != (kitty[1] is None):
            problems.add("kitty_max", msg(_("give both kitty limits (Shoot Pontoon) or neither")))
        elif kitty[0] is not None and kitty[1] is not None and kitty[0] > kitty[1]:
            problems.add("kitty_max", msg(_("the kitty maximum is below the minimum")))

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
        return between_hands.initial_state()

    def table_view(self, table: TableView) -> JSON:
        return between_hands.table_view(table)

    def table_actions(self, table: TableView) -> list[JSON]:
        return between_hands.table_actions(table)

    def table_act(self, table: TableView, action: Mapping[str, Any]) -> Change:
        return between_hands.table_act(table, action)

    def open_hand(self, table: TableView, body: Mapping[str, Any]) -> Opening:
        return between_hands.open_hand(table, body)

    def opening_proposal(self, table: TableView) -> JSON:
        return between_hands.opening_proposal(table)

    def hand_closed(self, table: TableView, hand: ClosedHand) -> Change:
        return between_hands.hand_closed(table, hand)

    def theory(self) -> GameTheory:
        """Its theoretical figures: the strategy and figures of ``theory.py``."""
        from .theory import THEORY

        return THEORY


GAME = register(Pontoon())
