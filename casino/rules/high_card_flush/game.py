"""High Card Flush in the one game contract: the designated-player rotation is the table's
state between hands (clauses 15-17); a hand is settled from the dealer's record, or played
action by action (``hand.py``).

Table state::

    {"designated_player": seat or None, "bank": amount or None,
     "offer": the seat offered the position or None, "round_start": where the offer round began,
     "stopped": the round went by without acceptance (clause 16),
     "last_holder": the last hand's designated player,
     "holdings": [[opened_at ISO time, seat], ...]}

``holdings`` keeps only what the rotation policy needs (the hands inside its window, the one
before it, and the latest ``max_consecutive``), so opening a hand never reads the table's
whole history.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime, timedelta
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
from casino.rules.errors import Problem, Problems, Refusal, RuleError
from casino.rules.options import check_amounts, is_int
from casino.rules.seating import next_seat_clockwise
from casino.rules.settlement import Settlement

from . import GAME_CODE, GAME_NAME, MOST_PLAYERS, Rules, default_rules, parse_rules
from .hand import ACTIONS, HighCardFlushHand, import_record, record_actions, setup
from .rotation import Holding, RotationPolicy, check_may_hold

LIMITS = ("ante_min", "ante_max", "bank_min", "bank_max")

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


def _position(state: Mapping[str, Any]) -> JSON:
    return {
        "designated_player": state.get("designated_player"),
        "bank": state.get("bank"),
        "offer_seat": state.get("offer"),
        "offer_round_start": state.get("round_start"),
        "stopped": bool(state.get("stopped")),
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
            "ante_min": s.amount("the least ante"),
            "ante_max": s.amount("the largest ante"),
            "bank_min": s.amount("the least bank a designated player posts"),
            "bank_max": s.amount("the largest bank"),
        },
        required=list(LIMITS),
    )
    rules_schema = s.from_defaults(
        default_rules(),
        {
            "coverage": "running or original_bank (clause 13 of docs/rules/high-card-flush.md)",
            "rake": "the collection fee: scheme per_player, per_player_except_dp or dp_only; a fixed amount or bands by ante (clause 14 of docs/rules/high-card-flush.md)",
            "rotation_policy": "the designated-player rotation: max_consecutive, window_minutes, min_distinct (clause 17 of docs/rules/high-card-flush.md)",
        },
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
            description="The offered seat takes the designated-player position with a bank (clause 15 of docs/rules/high-card-flush.md).",
        ),
        "decline": s.action(
            "decline",
            {"seat": s.seat("the seat offered the position")},
            required=["seat"],
            description="The offered seat passes; the offer moves clockwise (clause 16 of docs/rules/high-card-flush.md).",
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
        for low, high, words in (
            ("ante_min", "ante_max", "ante"),
            ("bank_min", "bank_max", "bank"),
        ):
            if limits[low] > limits[high]:
                problems.add(
                    high, f"{words} maximum {limits[high]} is below the minimum {limits[low]}"
                )

    def hand_rules(
        self, limits: Mapping[str, Any], smallest_chip: int, rules: Mapping[str, Any]
    ) -> JSON:
        return parse_rules(
            {**rules, **{name: limits[name] for name in LIMITS}, "smallest_chip": smallest_chip}
        )

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
            raise RuleError("the hand record must be a JSON object")
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
                    f"seat {dp.get('seat')} is not this hand's designated player (seat {dp_seat})",
                )
            if "bank" not in dp:
                dp["bank"] = bank
            elif dp["bank"] != bank:
                problems.add(
                    "designated_player.bank",
                    f"bank {dp['bank']} differs from the bank {bank} posted when the hand opened",
                )
        players = record.get("players")
        if isinstance(players, list):
            for index, player in enumerate(players):
                seat = player.get("seat") if isinstance(player, Mapping) else None
                if is_int(seat) and seat not in seats:
                    problems.add(
                        f"players[{index}].seat",
                        f"seat {seat} was not in play when the hand opened",
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
        return {
            "designated_player": None,
            "bank": None,
            "offer": None,
            "round_start": None,
            "stopped": False,
            "last_holder": None,
            "holdings": [],
        }

    def _policy(self, table: TableView) -> RotationPolicy:
        return Rules.from_dict(
            self.hand_rules(table.limits, table.smallest_chip, table.rules)
        ).rotation_policy

    def table_view(self, table: TableView) -> JSON:
        return {
            **_position(table.state),
            "last_holder": table.state.get("last_holder"),
            "policy": self._policy(table).to_dict(),
            "bank_limits": {"min": table.limits["bank_min"], "max": table.limits["bank_max"]},
        }

    def table_actions(self, table: TableView) -> list[JSON]:
        state = self._ensure_offer(table, table.state)[0]
        offer = state.get("offer")
        if (
            not table.is_open
            or table.hand_open
            or offer is None
            or state.get("designated_player") is not None
        ):
            return []
        bank = {
            "min": table.limits["bank_min"],
            "max": table.limits["bank_max"],
            "step": table.smallest_chip,
        }
        return [{"type": "accept", "seat": offer, "bank": bank}, {"type": "decline", "seat": offer}]

    def _offer_from(
        self, table: TableView, state: JSON, after: int | None
    ) -> tuple[JSON, list[Event]]:
        """Offer the position to the next seat in play clockwise after ``after``."""
        seat = next_seat_clockwise(table.in_play, after)
        state = {**state, "offer": seat, "round_start": seat}
        events = (
            [Event("rotation_offer", {"seat": seat, **_position(state)})]
            if seat is not None
            else []
        )
        return state, events

    def _ensure_offer(self, table: TableView, state: JSON) -> tuple[JSON, list[Event]]:
        """Start an offer round when the table is open and nobody holds or is offered it."""
        if (
            table.is_open
            and state.get("designated_player") is None
            and state.get("offer") is None
            and table.in_play
        ):
            return self._offer_from(table, state, state.get("last_holder"))
        return state, []

    def seats_changed(self, table: TableView) -> Change:
        """A seat that left or sat out passes on the offer or the position it had."""
        state = dict(table.state) or self.initial_state()
        events: list[Event] = []
        in_play = table.in_play
        holder, offer = state.get("designated_player"), state.get("offer")
        if holder is not None and holder not in in_play and not table.hand_open:
            state = {**state, "designated_player": None, "bank": None}
            state, events = self._offer_from(table, state, holder)
        elif holder is None and offer is not None and offer not in in_play:
            state, events = self._offer_from(table, state, offer)
        state, more = self._ensure_offer(table, state)
        return Change(state, tuple(events + more))

    def table_act(self, table: TableView, action: Mapping[str, Any]) -> Change:
        kind = action.get("type")
        if kind not in self.table_action_schemas:
            raise RuleError(
                "the between-hand actions of High Card Flush are accept and decline", path="type"
            )
        allowed = {"type", "seat", "bank"} if kind == "accept" else {"type", "seat"}
        problems = Problems()
        for key in sorted(set(action) - allowed):
            problems.add(str(key), f"unknown field {key!r} for {kind}")
        seat = action.get("seat")
        if not is_int(seat) or seat < 1:
            problems.add("seat", f"seat must be a seat number, got {seat!r}")
        problems.raise_if_any()
        if not table.is_open:
            raise Refusal("the table is closed")
        if table.hand_open:
            raise Refusal("a hand is in progress; the position is offered when it ends")
        state, events = self._ensure_offer(table, dict(table.state) or self.initial_state())
        holder = state.get("designated_player")
        if holder is not None:
            raise Refusal(f"seat {holder} already holds the designated player position")
        if not is_int(seat) or state.get("offer") != seat:
            raise Refusal(
                f"the position is offered to seat {state.get('offer')}, not seat {seat}",
                path="seat",
            )
        if kind == "accept":
            bank = self._check_bank(table, action.get("bank"))
            self._check_may_hold(table, state, seat)
            state = {
                **state,
                "designated_player": seat,
                "bank": bank,
                "offer": None,
                "round_start": None,
                "stopped": False,
            }
            events.append(
                Event("rotation_accept", {"seat": seat, "bank": bank, **_position(state)})
            )
            return Change(state, tuple(events))
        following = next_seat_clockwise(table.in_play, seat)
        # Back at the round's first seat with no acceptance: the game stops (clause 16), and
        # the offer keeps going round.
        stops = following == state.get("round_start")
        state = {**state, "offer": following, "stopped": bool(state.get("stopped")) or stops}
        events.append(Event("rotation_decline", {"seat": seat, **_position(state)}))
        if stops:
            events.append(Event("rotation_stop", {"seat": seat, **_position(state)}))
        if following is not None:
            events.append(Event("rotation_offer", {"seat": following, **_position(state)}))
        return Change(state, tuple(events))

    def _check_bank(self, table: TableView, bank: object) -> int:
        low, high = table.limits["bank_min"], table.limits["bank_max"]
        if not is_int(bank):
            raise RuleError("the designated player's bank is needed to accept", path="bank")
        if not low <= bank <= high:
            raise RuleError(
                f"designated player bank {bank} is outside the table's limits {low}-{high}",
                path="bank",
            )
        if bank % table.smallest_chip:
            raise RuleError(
                f"bank {bank} is not a multiple of the smallest chip {table.smallest_chip}",
                path="bank",
            )
        return int(bank)

    def _holdings(self, state: Mapping[str, Any]) -> list[Holding]:
        return [
            Holding(datetime.fromisoformat(at), seat) for at, seat in state.get("holdings") or ()
        ]

    def _check_may_hold(
        self, table: TableView, state: Mapping[str, Any], seat: int, path: str = "seat"
    ) -> None:
        try:
            check_may_hold(
                self._policy(table), seat=seat, history=self._holdings(state), now=table.now
            )
        except RuleError as exc:
            raise Refusal([Problem(path, p.message) for p in exc.problems]) from None

    def open_hand(self, table: TableView, body: Mapping[str, Any]) -> Opening:
        """Refuse (409) a hand that would break clauses 15-17, naming the rule. An ``accept``
        in the body takes the offered seat's acceptance first, as ``accept`` between hands
        would (the dealer's routine in one call)."""
        accepted: tuple[Event, ...] = ()
        unknown = sorted(set(body) - {"accept"})
        if unknown:
            raise RuleError(
                [
                    Problem(str(key), f"unknown field {key!r}; the body may hold accept")
                    for key in unknown
                ]
            )
        if "accept" in body:
            accept = body["accept"]
            if not isinstance(accept, Mapping):
                raise RuleError("accept must be {seat, bank}", path="accept")
            try:
                change = self.table_act(table, {**accept, "type": "accept"})
            except RuleError as exc:  # named where the body holds it
                moved = [
                    Problem(f"accept.{p.path}" if p.path else "accept", p.message)
                    for p in exc.problems
                ]
                raise type(exc)(moved) from None
            table, accepted = replace(table, state=change.state), change.events
        state = dict(table.state) or self.initial_state()
        in_play = table.in_play
        holder, bank = state.get("designated_player"), state.get("bank")
        if state.get("stopped") or holder is None:
            offer = f"; the offer is with seat {state.get('offer')}" if state.get("offer") else ""
            reason = (
                "the offer went round the table without acceptance; the game stops until a "
                "player accepts (clause 16 of docs/rules/high-card-flush.md)"
                if state.get("stopped")
                else "no player has accepted the designated player position (clause 15 of docs/rules/high-card-flush.md)"
            )
            raise Refusal(reason + offer)
        if holder not in in_play:
            raise Refusal(f"the designated player's seat {holder} is not in play")
        if len(in_play) < 2:
            raise Refusal("a hand needs at least one player besides the designated player")
        self._check_may_hold(table, state, holder, "designated_player.seat")
        low, high = table.limits["bank_min"], table.limits["bank_max"]
        if not is_int(bank) or not low <= bank <= high:
            raise Refusal(
                f"designated player bank {bank} is outside the table's limits {low}-{high}",
                path="designated_player.bank",
            )
        players = [seat for seat in in_play if seat != holder]
        holdings = self._trimmed(
            [*self._holdings(state), Holding(table.now, holder)], self._policy(table), table.now
        )
        state = {**state, "holdings": [[h.opened_at.isoformat(), h.seat] for h in holdings]}
        return Opening(setup(holder, bank, players), tuple(in_play), state, accepted)

    @staticmethod
    def _trimmed(holdings: list[Holding], policy: RotationPolicy, now: datetime) -> list[Holding]:
        """What the policy can still look at: the latest ``max_consecutive`` holdings, those
        inside the window and the last one before it."""
        start = now - timedelta(minutes=policy.window_minutes)
        before = [i for i, h in enumerate(holdings) if h.opened_at <= start]
        first = min(before[-1] if before else 0, max(0, len(holdings) - policy.max_consecutive))
        return holdings[first:]

    def hand_closed(self, table: TableView, hand: ClosedHand) -> Change:
        """After a hand the position moves on: offered clockwise from this holder (clause 15)."""
        holder = hand.config["designated_player"]["seat"]
        state = {
            **table.state,
            "last_holder": holder,
            "designated_player": None,
            "bank": None,
            "stopped": False,
        }
        state, events = self._offer_from(table, state, holder)
        return Change(state, tuple(events))


GAME = register(HighCardFlush())
