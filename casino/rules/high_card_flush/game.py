"""High Card Flush in the one game contract: the :class:`HighCardFlush` game (its schemas, and
its hooks wired to the package's modules: the rules in ``rules.py``, a hand in ``hand.py``, the
table between hands in ``table.py``), registered as ``GAME``.

A hand is settled from the dealer's record, or played action by action (``hand.py``); the
designated-player rotation is the table's state between hands (clauses 15-17, ``table.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casino.rules import schemas as s
from casino.rules.actions import schemas
from casino.rules.cards import RANK_NAMES
from casino.rules.contract import (
    JSON,
    Change,
    ClosedHand,
    Game,
    Opening,
    TableView,
    register,
)
from casino.rules.errors import Problems, RuleError
from casino.rules.messages import Money, _, msg
from casino.rules.options import as_money, check_amounts, is_int
from casino.rules.rake import bands_schema
from casino.rules.rule_titles import high_card_flush_rule
from casino.rules.settlement import Settlement
from casino.rules.theory.base import GameTheory

from . import table as table_hooks
from .hand import ACTIONS, HighCardFlushHand, import_record, record_actions
from .rules import (
    CARDS_PER_HAND,
    GAME_CODE,
    GAME_NAME,
    LIMITS,
    MAX_ODDS,
    MOST_PLAYERS,
    Coverage,
    RakeScheme,
    Rules,
    default_rules,
    hand_rules,
    parse_rules,
)

#: The table limits in words.
LIMIT_WORDS = {
    "ante_min": "ante minimum",
    "ante_max": "ante maximum",
    "bank_min": "bank minimum",
    "bank_max": "bank maximum",
}

RECORD_EXAMPLE: JSON = {
    "designated_player": {
        "seat": 7,
        "bank": 100000,
        "cards": ["Ah", "Kh", "9h", "3c", "5d", "8s", "2c"],
    },
    "players": [
        {
            "seat": 1,
            "cards": ["Qd", "Jd", "7d", "4d", "2s", "9c", "Ts"],
            "ante": 1000,
            "raise": 1000,
            "flush_bonus": 500,
        },
        {"seat": 2, "cards": ["Ks", "6s", "4h", "3h", "Td", "8c", "5c"], "ante": 1000, "raise": 0},
    ],
}


class HighCardFlush(Game):
    code = GAME_CODE
    name = GAME_NAME
    max_seats = MOST_PLAYERS + 1  # clause 1: at most 6 players and the designated player
    demo_table = {
        "name": "HCF-1",
        "seat_count": 7,
        "limits": {"ante_min": 500, "ante_max": 10000, "bank_min": 20000, "bank_max": 500000},
        "smallest_chip": 25,
        "rules": {
            "rake": {
                "scheme": "per_player",
                "bands": [{"up_to": 2500, "amount": 50}, {"up_to": None, "amount": 100}],
            }
        },
    }
    record_settled = True
    limits_schema = s.obj(
        {
            "ante_min": s.money("ante minimum", "the least ante a player may post"),
            "ante_max": s.money("ante maximum", "the largest ante a player may post"),
            "bank_min": s.money("bank minimum", "the least bank a designated player posts"),
            "bank_max": s.money("bank maximum", "the largest bank a designated player posts"),
        },
        required=list(LIMITS),
    )
    rules_schema = s.rules(
        default_rules(),
        {
            "coverage": s.choice(
                [str(x) for x in Coverage],
                f"what the designated player pays winning hands with ({high_card_flush_rule(13)})",
                titles={
                    "running": "the bank and what it collects as the hand settles",
                    "original_bank": "only the bank posted before the hand",
                },
                title="bank coverage",
            ),
            "rake": s.obj(
                {
                    "scheme": s.choice(
                        [str(x) for x in RakeScheme],
                        "who pays the fee for each participating hand",
                        titles={
                            "per_player": "every player and the designated player",
                            "per_player_except_dp": "every player, not the designated player",
                            "dp_only": "the designated player only",
                        },
                        title="who pays",
                    ),
                    "amount": s.money(
                        "fee per hand",
                        "one fee for every participating hand (0 when the fee goes by bands)",
                        minimum=0,
                    ),
                    "bands": bands_schema("ante"),
                },
                title="collection fee",
                description="a fee per participating hand, one amount or by bands of the ante, "
                f"never a percentage; dead hands pay none ({high_card_flush_rule(14)})",
            ),
            "flush_paytable": s.paytable(
                "flush pay table",
                "the odds the Flush bonus pays on a flush of each length; a line left empty is "
                f"not paid, and an empty table means the bet is not offered ({high_card_flush_rule(10)})",
                range(4, CARDS_PER_HAND + 1),
                most_odds=MAX_ODDS,
            ),
            "straight_flush_paytable": s.paytable(
                "straight flush pay table",
                "the odds the Straight Flush bonus pays on a straight flush of each length; a "
                "line left empty is not paid, and an empty table means the bet is not offered "
                f"({high_card_flush_rule(11)})",
                range(3, CARDS_PER_HAND + 1),
                most_odds=MAX_ODDS,
            ),
            "max_payout_per_hand": s.money(
                "largest payout per hand",
                "a player's winnings in one hand are cut to this, bonuses first "
                f"({high_card_flush_rule(12)})",
                nullable=True,
                none="no cap",
            ),
            **{
                name: s.money(words, nullable=True, none="none")
                for name, words in LIMIT_WORDS.items()
            },
            "max_players": s.count(
                "most players",
                f"players besides the designated player, at most 6 ({high_card_flush_rule(1)})",
                least=1,
                most=MOST_PLAYERS,
            ),
            "qualify_length": s.count(
                "qualifying flush length",
                "a longer flush always qualifies the designated player; one of exactly this "
                f"length needs the high card below ({high_card_flush_rule(7)})",
                least=2,
                most=CARDS_PER_HAND,
            ),
            "qualify_high_rank": s.choice(
                list(range(2, 15)),
                "the lowest top card of a qualifying flush of exactly the qualifying length",
                titles=RANK_NAMES,
                title="qualifying high card",
            ),
            "rotation_policy": s.obj(
                {
                    "max_consecutive": s.count(
                        "most hands in a row",
                        "hands one player may hold the position in a row",
                        least=1,
                    ),
                    "window_minutes": s.minutes(
                        "rolling window",
                        "the window in which the position must pass between players",
                    ),
                    "min_distinct": s.count(
                        "fewest different holders",
                        "players who must have held the position within the window",
                        least=1,
                    ),
                },
                title="designated-player rotation",
                description=f"how the position must move round the table ({high_card_flush_rule(17)})",
            ),
        },
        from_table={name: f"set from the table's {words}" for name, words in LIMIT_WORDS.items()},
    )
    open_schema = s.obj(
        {
            "accept": s.obj(
                {
                    "seat": s.seat("the seat offered the position"),
                    "bank": s.amount("the bank posted"),
                },
                required=["seat", "bank"],
                description="the offered seat's acceptance with its bank, taken as the hand "
                "opens (one call instead of accept then open)",
            )
        },
        description="nothing, or the offered seat's acceptance: the designated player and "
        "bank come from the table",
    )
    action_table = ACTIONS
    action_schemas = schemas(ACTIONS)
    table_action_schemas = {
        "accept": s.action(
            "accept",
            {"seat": s.seat("the seat offered the position"), "bank": s.amount("the bank posted")},
            required=["seat", "bank"],
            description=f"The offered seat takes the designated-player position with a bank ({high_card_flush_rule(15)}).",
        ),
        "decline": s.action(
            "decline",
            {"seat": s.seat("the seat offered the position")},
            required=["seat"],
            description=f"The offered seat passes; the offer moves clockwise ({high_card_flush_rule(16)}).",
        ),
    }
    _player = s.obj(
        {
            "seat": s.seat(),
            "cards": s.cards("seven cards", least=7, most=7),
            "ante": s.amount("the ante"),
            "raise": s.amount("the raise; 0 or absent: folded", minimum=0),
            "flush_bonus": s.amount("Flush bonus bet", minimum=0),
            "straight_flush_bonus": s.amount("Straight Flush bonus bet", minimum=0),
        },
        required=["seat", "cards", "ante"],
    )
    result_schema = s.result(
        {"order": s.integers("the seats in the order they settled against the bank (clause 13)")},
        required=["order"],
    )
    record_schema = s.obj(
        {
            "designated_player": s.obj(
                {
                    "seat": s.seat(),
                    "bank": s.amount("the bank (at a table: may be left out)"),
                    "cards": s.cards("seven cards", least=7, most=7),
                },
                required=["seat", "cards"],
            ),
            "players": {"type": "array", "items": _player, "minItems": 1, "maxItems": MOST_PLAYERS},
        },
        required=["designated_player", "players"],
    )
    record_example = RECORD_EXAMPLE

    # -------------------------------------------------------------- rules

    def default_rules(self) -> JSON:
        return default_rules()

    def parse_rules(
        self, data: Mapping[str, Any] | None, base: Mapping[str, Any] | None = None
    ) -> JSON:
        return parse_rules(data, base)

    def check_limits(self, limits: Mapping[str, Any], problems: Problems) -> None:
        check_amounts(limits, LIMITS, problems)
        if problems:
            return
        for low, high, below in (
            ("ante_min", "ante_max", _("ante maximum %(high)s is below the minimum %(low)s")),
            ("bank_min", "bank_max", _("bank maximum %(high)s is below the minimum %(low)s")),
        ):
            if limits[low] > limits[high]:
                problems.add(high, msg(below, high=Money(limits[high]), low=Money(limits[low])))

    def hand_rules(
        self, limits: Mapping[str, Any], smallest_chip: int, rules: Mapping[str, Any]
    ) -> JSON:
        return hand_rules(limits, smallest_chip, rules)

    # -------------------------------------------------------------- a hand

    def new_hand(self, config: Mapping[str, Any], rules: Mapping[str, Any]) -> HighCardFlushHand:
        return HighCardFlushHand(config, Rules.from_dict(rules))

    def import_record(self, record: Mapping[str, Any], rules: Mapping[str, Any]) -> Any:
        return import_record(record, Rules.from_dict(rules))

    def settle_actions(
        self, config: Mapping[str, Any], rules: Mapping[str, Any], record: Mapping[str, Any]
    ) -> tuple[JSON, ...]:
        """Check the posted record belongs to this hand (designated player, bank, seats in
        play) and fill in what the hand froze, then import it."""
        if not isinstance(record, Mapping):
            raise RuleError(msg(_("the hand record must be a JSON object")))
        record = dict(record)
        dp_seat = config["designated_player"]["seat"]
        bank = config["designated_player"]["bank"]
        seats = set(config["players"])
        problems = Problems()
        dp = record.get("designated_player")
        if isinstance(dp, Mapping):
            dp = record["designated_player"] = dict(dp)
            if dp.get("seat") != dp_seat:
                problems.add(
                    "designated_player.seat",
                    msg(
                        _("seat %(seat)s is not this hand's designated player (seat %(dp_seat)s)"),
                        seat=str(dp.get("seat")),
                        dp_seat=dp_seat,
                    ),
                )
            if "bank" not in dp:
                dp["bank"] = bank
            elif dp["bank"] != bank:
                problems.add(
                    "designated_player.bank",
                    msg(
                        _(
                            "bank %(given)s differs from the bank %(bank)s posted when the hand opened"
                        ),
                        given=as_money(dp["bank"]),
                        bank=as_money(bank),
                    ),
                )
        players = record.get("players")
        if isinstance(players, list):
            for index, player in enumerate(players):
                seat = player.get("seat") if isinstance(player, Mapping) else None
                if is_int(seat) and seat not in seats:
                    problems.add(
                        f"players[{index}].seat",
                        msg(_("seat %(seat)s was not in play when the hand opened"), seat=seat),
                    )
        problems.raise_if_any()
        return record_actions(record, Rules.from_dict(rules))

    def evaluate(
        self, record: Mapping[str, Any], rules: Mapping[str, Any] | None = None
    ) -> Settlement:
        effective = Rules.from_dict(rules)
        history = import_record(record, effective)
        state = self.replay(history)
        return state.settle()

    # -------------------------------------------------------------- the table between hands

    def initial_state(self) -> JSON:
        return table_hooks.initial_state()

    def table_view(self, table: TableView) -> JSON:
        return table_hooks.table_view(table)

    def table_actions(self, table: TableView) -> list[JSON]:
        return table_hooks.table_actions(table)

    def seats_changed(self, table: TableView) -> Change:
        """A seat that left or sat out passes on the offer or the position it had."""
        return table_hooks.seats_changed(table)

    def table_act(self, table: TableView, action: Mapping[str, Any]) -> Change:
        return table_hooks.table_act(table, action)

    def open_hand(self, table: TableView, body: Mapping[str, Any]) -> Opening:
        """Refuse (409) a hand that would break clauses 15-17, naming the rule; an ``accept``
        in the body takes the offered seat's acceptance first (``table.py``)."""
        return table_hooks.open_hand(table, body)

    def hand_closed(self, table: TableView, hand: ClosedHand) -> Change:
        """After a hand the position moves on: offered clockwise from this holder (clause 15)."""
        return table_hooks.hand_closed(table, hand)

    def theory(self) -> GameTheory:
        """Its theoretical figures: the strategy and figures of ``theory.py``."""
        from .theory import THEORY

        return THEORY


GAME = register(HighCardFlush())
