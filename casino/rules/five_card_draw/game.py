"""Five Card Draw 7-A in the one game contract: the button, blinds and missed-blind markers
are the table's state between hands; a hand is live, one action at a time.

Table state: ``{"blinds": BlindState, "dealt": {seat: player dealt a hand there},
"choices": {seat: a returning player's choice}}``. A seat's player is new until dealt a hand
at that seat (``dealt``); a returning player's choice (clause 12) is a between-hand action and
holds until it is used by a post or the player leaves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casino.rules import schemas as s
from casino.rules.actions import schemas
from casino.rules.cards import short_deck
from casino.rules.contract import JSON, Change, Event, Game, Opening, TableView, register
from casino.rules.errors import Problems, Refusal, RuleError
from casino.rules.options import check_amounts, is_int
from casino.rules.settlement import Settlement

from . import ACTIONS, GAME_CODE, GAME_NAME, DrawHand, evaluate
from .blinds import BlindState, Choice, HandBlinds, Marker, SeatInfo, next_hand
from .config import SIXES_PLAYERS, Structure, parse_config
from .rules import DrawRules, default_rules, parse_rules

BLIND_AMOUNTS = ("small_blind", "big_blind", "big_bet")
CHOICES = tuple(str(choice) for choice in Choice)


def _seat_map(data: object) -> dict[int, Any]:
    if not isinstance(data, Mapping):
        return {}
    return {int(key): value for key, value in data.items() if str(key).isdigit()}


def _json_map(data: Mapping[int, Any]) -> dict[str, Any]:
    return {str(seat): value for seat, value in sorted(data.items())}


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
            "structure": s.choice([str(x) for x in Structure], "limit, pot_limit or no_limit"),
            "small_blind": s.amount("the small blind"),
            "big_blind": s.amount("the big blind (the small bet)"),
            "big_bet": s.amount("the big bet (limit: after the draw)"),
        },
        required=["structure", *BLIND_AMOUNTS],
    )
    rules_schema = s.from_defaults(default_rules())
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
            description="A returning or new player's choice (clause 12 of docs/rules/five-card-draw-7a.md).",
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
        return [str(card) for card in short_deck(seats >= SIXES_PLAYERS)]

    def next_seats(self, table: TableView) -> list[int]:
        try:
            return list(self.next_blinds(table).dealt_in)
        except Refusal:
            return table.in_play

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
            problems.add("structure", f"structure must be one of {', '.join(structures)}")
        check_amounts(limits, BLIND_AMOUNTS, problems)
        if problems:
            return
        if limits["small_blind"] > limits["big_blind"]:
            problems.add("small_blind", "the small blind is larger than the big blind")
        if limits["big_bet"] < limits["big_blind"]:
            problems.add("big_bet", "the big bet is smaller than the big blind (the small bet)")

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
        return {"blinds": BlindState().to_dict(), "dealt": {}, "choices": {}}

    @staticmethod
    def _parts(table: TableView) -> tuple[BlindState, dict[int, str], dict[int, str]]:
        state = table.state
        return (
            BlindState.from_dict(state.get("blinds")),
            _seat_map(state.get("dealt")),
            _seat_map(state.get("choices")),
        )

    def _seat_infos(self, table: TableView) -> list[SeatInfo]:
        _, dealt, choices = self._parts(table)
        return [
            SeatInfo(
                seat=seat.number,
                present=seat.in_play,
                new=dealt.get(seat.number) != seat.player,
                choice=Choice(choices[seat.number]) if seat.number in choices else None,
            )
            for seat in table.seats
            if seat.player
        ]

    def next_blinds(self, table: TableView) -> HandBlinds:
        """The next hand's button, blinds, posts and markers (Refusal if none can be dealt)."""
        blinds, _, _ = self._parts(table)
        try:
            return next_hand(
                blinds,
                self._seat_infos(table),
                small_blind=table.limits["small_blind"],
                big_blind=table.limits["big_blind"],
            )
        except RuleError as exc:
            raise Refusal(exc.problems) from None

    def table_view(self, table: TableView) -> JSON:
        blinds, dealt, choices = self._parts(table)
        try:
            upcoming: JSON = dict(self.next_blinds(table).to_dict())
        except Refusal as exc:
            upcoming = {"error": str(exc)}
        return {
            **blinds.to_dict(),
            "new": [
                seat.number
                for seat in table.seats
                if seat.player and dealt.get(seat.number) != seat.player
            ],
            "choices": _json_map(choices),
            "next_hand": upcoming,
        }

    def table_actions(self, table: TableView) -> list[JSON]:
        """A choice for each seated player it matters to (clause 12): one who owes missed
        blinds, or one the next hand would leave waiting; ``post_small_dead`` only to a seat
        that owes MS alone."""
        if table.hand_open:
            return []
        blinds, _, choices = self._parts(table)
        try:
            waiting = set(self.next_blinds(table).waiting)
        except Refusal:
            waiting = set()
        actions = []
        for seat in table.seats:
            owes = blinds.markers.get(seat.number, frozenset())
            if not seat.player or not (owes or seat.number in waiting or seat.number in choices):
                continue
            offered = [c for c in CHOICES if c != Choice.POST_SMALL_DEAD or owes == {Marker.MS}]
            actions.append(
                {
                    "type": "blind_choice",
                    "seat": seat.number,
                    "owes": sorted(str(m) for m in owes),
                    "choices": offered,
                    "chosen": choices.get(seat.number),
                }
            )
        return actions

    def table_act(self, table: TableView, action: Mapping[str, Any]) -> Change:
        if action.get("type") != "blind_choice":
            raise RuleError(
                "the between-hand action of Five Card Draw 7-A is blind_choice", path="type"
            )
        problems = Problems()
        seat, choice = action.get("seat"), action.get("choice")
        unknown = sorted(set(action) - {"type", "seat", "choice"})
        for key in unknown:
            problems.add(str(key), f"unknown field {key!r}")
        view = table.seat(seat) if is_int(seat) else None
        if not is_int(seat):
            problems.add("seat", f"seat must be a seat number, got {seat!r}")
        elif view is None or not view.player:
            problems.add("seat", f"seat {seat} has no player")
        if choice not in CHOICES:
            problems.add("choice", f"choice must be one of {', '.join(CHOICES)}")
        problems.raise_if_any()
        blinds, dealt, _ = self._parts(table)
        assert is_int(seat) and view is not None
        owes = blinds.markers.get(seat, frozenset())
        new = dealt.get(seat) != view.player
        if choice == str(Choice.POST_SMALL_DEAD) and (new or owes != {Marker.MS}):
            owing = ", ".join(sorted(str(m) for m in owes)) or "nothing"
            who = f"seat {seat} is a new player" if new else f"seat {seat} owes {owing}"
            raise RuleError(
                f"post_small_dead settles a missed small blind (MS) only; {who}: choose "
                "post_all or wait (clause 12 of docs/rules/five-card-draw-7a.md)",
                path="choice",
            )
        if table.hand_open:
            raise Refusal("a hand is in progress; a returning player chooses between hands")
        _, _, choices = self._parts(table)
        choices[seat] = str(choice)
        state = {**table.state, "choices": _json_map(choices)}
        return Change(state, (Event("blind_choice", {"seat": seat, "choice": choice}),))

    def seats_changed(self, table: TableView) -> Change:
        """A player who leaves takes their choice with them; a new player starts afresh."""
        _, dealt, choices = self._parts(table)
        seated = {seat.number: seat.player for seat in table.seats if seat.player}
        kept_dealt = {seat: name for seat, name in dealt.items() if seated.get(seat) == name}
        kept_choices = {seat: choice for seat, choice in choices.items() if seat in seated}
        if kept_dealt == dealt and kept_choices == choices:
            return Change(table.state)
        return Change(
            {**table.state, "dealt": _json_map(kept_dealt), "choices": _json_map(kept_choices)}
        )

    def open_hand(self, table: TableView, body: Mapping[str, Any]) -> Opening:
        blinds = self.next_blinds(table)
        seats = body.get("seats")
        if not isinstance(seats, list):
            raise RuleError(
                "seats: give each dealt-in seat's stack and five cards "
                f"(seats {', '.join(map(str, blinds.dealt_in))})",
                path="seats",
            )
        given = [entry.get("seat") for entry in seats if isinstance(entry, dict)]
        if sorted(map(str, given)) != sorted(map(str, blinds.dealt_in)) or len(given) != len(seats):
            raise RuleError(
                f"seats {', '.join(map(str, blinds.dealt_in))} are dealt in this hand; "
                f"the request gives {', '.join(map(str, given)) or 'none'}",
                path="seats",
            )
        config = {
            "structure": table.limits["structure"],
            **{name: table.limits[name] for name in BLIND_AMOUNTS},
            "button": blinds.button,
            "seats": seats,
            "posts": [post.to_dict() for post in blinds.posts],
        }
        _, dealt, choices = self._parts(table)
        names = {seat.number: seat.player for seat in table.seats}
        dealt.update({seat: names[seat] for seat in blinds.dealt_in})
        posted = {post.seat for post in blinds.posts}
        state = {
            "blinds": blinds.state.to_dict(),
            "dealt": _json_map(dealt),
            "choices": _json_map({seat: c for seat, c in choices.items() if seat not in posted}),
        }
        return Opening(config, tuple(blinds.dealt_in), state, (Event("blinds", blinds.to_dict()),))


GAME = register(FiveCardDraw())
