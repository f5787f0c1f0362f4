"""What differs between games at a live table, behind one interface.

The services (``services.py``) run the common workflow: lock the table, check roles and
state, freeze what a hand needs, store, audit. Each game's adapter says what its limits are,
which rules a hand freezes, what must be true to open a hand, how a hand takes actions and how
it is settled. Adding a game means adding an adapter here (and its engine in casino/rules/).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from casino.core.errors import ApplicationError, Conflict
from casino.rules import five_card_draw, paiute, palace_poker, pontoon
from casino.rules.blinds import BlindState, Choice, SeatInfo, next_hand
from casino.rules.errors import Problems, RuleError
from casino.rules.games import GAMES
from casino.rules.rotation import next_seat_clockwise
from casino.rules.settlement import Settlement

from . import bank, rotation
from .models import Hand, Seat, Table
from .selectors import seats_in_play, table_config


@dataclass(frozen=True)
class Opening:
    """What a game decides when a hand opens, stored on the hand."""

    rules: dict[str, Any]
    seats: list[int]
    config: dict[str, Any]
    button: int | None = None
    dp_seat: int | None = None
    dp_bank: int | None = None
    audit: dict[str, Any] | None = None  # extra facts for the hand_open audit entry


class GameAdapter:
    code: ClassVar[str]
    limit_fields: ClassVar[tuple[str, ...]]
    max_seats: ClassVar[int]
    live: ClassVar[bool] = False  # takes actions one at a time

    def check_limits(self, limits: dict[str, Any], problems: Problems) -> None:
        raise NotImplementedError

    def hand_rules(self, config: dict[str, Any]) -> dict[str, Any]:
        """The effective rules a hand freezes from a table configuration."""
        raise NotImplementedError

    def on_table_open(self, table: Table, user: Any) -> None:
        """Called when the table opens or its seats change while open."""

    def on_seat_left(self, table: Table, seat: Seat, user: Any) -> None:
        """Called when a seat empties or sits out."""

    def open_hand(self, table: Table, body: dict[str, Any]) -> Opening:
        raise NotImplementedError

    def after_open(self, table: Table, hand: Hand, opening: Opening, user: Any) -> None:
        """Called once the hand row exists."""

    def settle(
        self, hand: Hand, body: Any, actions: list[dict[str, Any]]
    ) -> tuple[dict[str, Any], Settlement]:
        """The record to store and its settlement."""
        raise NotImplementedError

    def after_hand(self, table: Table, hand: Hand, user: Any, result: Settlement | None) -> None:
        """Called after a hand is settled (with its result) or voided (None); ``table`` is
        locked."""

    def replay(self, hand: Hand, actions: list[dict[str, Any]]) -> Any:
        raise ApplicationError(f"{self.code} hands are settled from a record, not by actions")


class LiveGame(GameAdapter):
    """A game played at the table one action at a time: the hand is its frozen configuration
    plus its action log, replayed through the engine's state machine to show the state, to
    check the next action and to settle. The stored record is the engine's own record of the
    hand, so the audit check re-settles it through the game's evaluate."""

    live = True

    def build(self, config: dict[str, Any], rules: dict[str, Any]) -> Any:
        """The engine's state for a new hand (checks the configuration against the rules)."""
        raise NotImplementedError

    def replay(self, hand: Hand, actions: list[dict[str, Any]]) -> Any:
        state = self.build(hand.config, hand.rules)
        for index, action in enumerate(actions):
            state.apply(action, index)
        return state

    def settle(
        self, hand: Hand, body: Any, actions: list[dict[str, Any]]
    ) -> tuple[dict[str, Any], Settlement]:
        state = self.replay(hand, actions)
        return state.to_record(), state.settle()


def positive_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


class HighCardFlush(GameAdapter):
    """Player-banked: a designated player with a bank, settled from the dealer's record."""

    code = "high-card-flush"
    limit_fields = ("ante_min", "ante_max", "bank_min", "bank_max")
    max_seats = 7  # clause 1: at most 6 players and the designated player

    def check_limits(self, limits: dict[str, Any], problems: Problems) -> None:
        for name in self.limit_fields:
            if not positive_int(limits.get(name)):
                problems.add(name, f"{name} must be a whole number of minor units, at least 1")
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

    def hand_rules(self, config: dict[str, Any]) -> dict[str, Any]:
        limits = {name: config[name] for name in (*self.limit_fields, "smallest_chip")}
        return GAMES[self.code].parse_rules({**(config.get("rules") or {}), **limits})

    def on_table_open(self, table: Table, user: Any) -> None:
        rotation.ensure_offer(table, user)

    def on_seat_left(self, table: Table, seat: Seat, user: Any) -> None:
        rotation.seat_left(table, seat, user)

    def open_hand(self, table: Table, body: dict[str, Any]) -> Opening:
        rotation.check_dp_may_open(table)
        return Opening(
            rules=self.hand_rules(table_config(table)),
            seats=seats_in_play(table),
            config={},
            button=table.dp_seat,
            dp_seat=table.dp_seat,
            dp_bank=table.dp_bank,
        )

    def settle(
        self, hand: Hand, body: Any, actions: list[dict[str, Any]]
    ) -> tuple[dict[str, Any], Settlement]:
        record = self._record(hand, body)
        return record, GAMES[self.code].evaluate(record, hand.rules)

    def after_hand(self, table: Table, hand: Hand, user: Any, result: Settlement | None) -> None:
        rotation.after_hand(table, hand, user)

    @staticmethod
    def _record(hand: Hand, record: Any) -> dict[str, Any]:
        """Check the record belongs to this hand and fill in what the hand froze."""
        if not isinstance(record, dict):
            raise ApplicationError("the hand record must be a JSON object")
        record = {**record}
        problems = Problems()
        dp = record.get("designated_player")
        if isinstance(dp, dict):
            dp = record["designated_player"] = {**dp}
            if dp.get("seat") != hand.dp_seat:
                problems.add(
                    "designated_player.seat",
                    f"seat {dp.get('seat')} is not this hand's designated player "
                    f"(seat {hand.dp_seat})",
                )
            if "bank" not in dp:
                dp["bank"] = hand.dp_bank
            elif dp["bank"] != hand.dp_bank:
                problems.add(
                    "designated_player.bank",
                    f"bank {dp['bank']} differs from the bank {hand.dp_bank} posted "
                    "when the hand opened",
                )
        players = record.get("players")
        if isinstance(players, list):
            for index, player in enumerate(players):
                seat = player.get("seat") if isinstance(player, dict) else None
                if isinstance(seat, int) and seat not in hand.seats:
                    problems.add(
                        f"players[{index}].seat",
                        f"seat {seat} was not in play when hand {hand.number} opened",
                    )
        problems.raise_if_any()
        return record


class FiveCardDraw(LiveGame):
    """A pot game with blinds: the button, blinds and missed blinds are table state; the hand
    is live, one action at a time, and settled from its own log."""

    code = "five-card-draw-7a"
    limit_fields = ("structure", "small_blind", "big_blind", "big_bet")
    max_seats = 5  # clause 1: 2-5 players

    def check_limits(self, limits: dict[str, Any], problems: Problems) -> None:
        structures = [str(s) for s in five_card_draw.Structure]
        if limits.get("structure") not in structures:
            problems.add("structure", f"structure must be one of {', '.join(structures)}")
        for name in ("small_blind", "big_blind", "big_bet"):
            if not positive_int(limits.get(name)):
                problems.add(name, f"{name} must be a whole number of minor units, at least 1")
        if problems:
            return
        if limits["small_blind"] > limits["big_blind"]:
            problems.add("small_blind", "the small blind is larger than the big blind")
        if limits["big_bet"] < limits["big_blind"]:
            problems.add("big_bet", "the big bet is smaller than the big blind (the small bet)")

    def hand_rules(self, config: dict[str, Any]) -> dict[str, Any]:
        return five_card_draw.parse_rules(
            {**(config.get("rules") or {}), "smallest_chip": config["smallest_chip"]}
        )

    @staticmethod
    def seat_infos(table: Table) -> list[SeatInfo]:
        return [
            SeatInfo(
                seat=seat.number,
                present=seat.in_play,
                new=seat.new,
                choice=Choice(seat.blind_choice) if seat.blind_choice else None,
            )
            for seat in table.seats.all()
            if seat.player
        ]

    def next_blinds(self, table: Table) -> Any:
        """The next hand's button, blinds, posts and markers (RuleError if none can be dealt)."""
        return next_hand(
            BlindState.from_dict(table.game_state),
            self.seat_infos(table),
            small_blind=table.limits["small_blind"],
            big_blind=table.limits["big_blind"],
        )

    def open_hand(self, table: Table, body: dict[str, Any]) -> Opening:
        try:
            blinds = self.next_blinds(table)
        except RuleError as exc:
            raise Conflict(str(exc), problems=list(exc.problems)) from None
        seats = body.get("seats") if isinstance(body, dict) else None
        if not isinstance(seats, list):
            raise ApplicationError(
                "seats: give each dealt-in seat's stack and five cards "
                f"(seats {', '.join(map(str, blinds.dealt_in))})",
                path="seats",
            )
        given = [s.get("seat") for s in seats if isinstance(s, dict)]
        if sorted(given, key=str) != sorted(blinds.dealt_in, key=str):
            raise ApplicationError(
                f"seats {', '.join(map(str, blinds.dealt_in))} are dealt in this hand; "
                f"the request gives {', '.join(map(str, given)) or 'none'}",
                path="seats",
            )
        rules = self.hand_rules(table_config(table))
        config = {
            "structure": table.limits["structure"],
            "small_blind": table.limits["small_blind"],
            "big_blind": table.limits["big_blind"],
            "big_bet": table.limits["big_bet"],
            "button": blinds.button,
            "seats": seats,
            "posts": [post.to_dict() for post in blinds.posts],
        }
        self.build(config, rules)
        return Opening(
            rules=rules,
            seats=list(blinds.dealt_in),
            config=config,
            button=blinds.button,
            audit={"blinds": blinds.to_dict()},
        )

    def after_open(self, table: Table, hand: Hand, opening: Opening, user: Any) -> None:
        blinds = opening.audit["blinds"] if opening.audit else {}
        table.game_state = blinds["state"]
        table.save(update_fields=["game_state"])
        posted = {post["seat"] for post in blinds["posts"]}
        Seat.objects.filter(table=table, number__in=hand.seats).update(new=False)
        Seat.objects.filter(table=table, number__in=posted).update(blind_choice="")

    def build(self, config: dict[str, Any], rules: dict[str, Any]) -> five_card_draw.DrawHand:
        engine_rules = five_card_draw.DrawRules.from_dict(rules)
        return five_card_draw.DrawHand(
            five_card_draw.parse_config(config, engine_rules), engine_rules
        )


class Pontoon(LiveGame):
    """Banked twenty-one: the bank is table state (``bank.py``); the hand is live, one dealt
    card or decision at a time, and settled from its own log."""

    code = "pontoon"
    limit_fields = ("stake_min", "stake_max", "kitty_min", "kitty_max")
    max_seats = 10  # clause 1: two packs are mixed with 8 or more

    def check_limits(self, limits: dict[str, Any], problems: Problems) -> None:
        for name in self.limit_fields:
            value = limits.get(name)
            optional = name.startswith("kitty")  # no kitty limits: no Shoot Pontoon
            if not (optional and value is None) and not positive_int(value):
                problems.add(name, f"{name} must be a whole number of minor units, at least 1")
        if problems:
            return
        if limits["stake_min"] > limits["stake_max"]:
            problems.add("stake_max", "the stake maximum is below the minimum")
        kitty = (limits.get("kitty_min"), limits.get("kitty_max"))
        if (kitty[0] is None) != (kitty[1] is None):
            problems.add("kitty_max", "give both kitty limits (Shoot Pontoon) or neither")
        elif kitty[0] is not None and kitty[0] > kitty[1]:
            problems.add("kitty_max", "the kitty maximum is below the minimum")

    def hand_rules(self, config: dict[str, Any]) -> dict[str, Any]:
        limits = {name: config.get(name) for name in self.limit_fields}
        return pontoon.parse_rules(
            {**(config.get("rules") or {}), **limits, "smallest_chip": config["smallest_chip"]}
        )

    def open_hand(self, table: Table, body: dict[str, Any]) -> Opening:
        banker = table.game_state.get("banker")
        in_play = seats_in_play(table)
        if banker is None:
            raise Conflict("nobody holds the bank: choose the first banker (clause 3)")
        if banker not in in_play:
            raise Conflict(f"the banker's seat {banker} is not in play")
        players = [seat for seat in in_play if seat != banker]
        if not players:
            raise Conflict("a hand needs at least one player besides the banker")
        kitty, carried = None, False
        if table.limits.get("kitty_min") is not None:  # Shoot Pontoon
            kitty = table.game_state.get("kitty")
            carried = kitty is not None
            if not carried:
                kitty = body.get("kitty")
                if kitty is None:
                    raise ApplicationError(
                        "kitty: the banker puts up a kitty between "
                        f"{table.limits['kitty_min']} and {table.limits['kitty_max']} "
                        "(clause 17)",
                        path="kitty",
                    )
        rules = self.hand_rules(table_config(table))
        config = pontoon.PontoonConfig(
            banker=banker, players=tuple(players), kitty=kitty, kitty_carried=carried
        ).to_dict()
        self.build(config, rules)
        return Opening(
            rules=rules,
            seats=[banker, *players],
            config=config,
            audit={"banker": banker, "kitty": kitty, "kitty_carried": carried},
        )

    def build(self, config: dict[str, Any], rules: dict[str, Any]) -> pontoon.PontoonHand:
        engine_rules = pontoon.PontoonRules.from_dict(rules)
        parsed = pontoon.PontoonConfig.from_dict(config)
        pontoon.check_config(parsed, engine_rules)
        return pontoon.PontoonHand(parsed, engine_rules)

    def after_hand(self, table: Table, hand: Hand, user: Any, result: Settlement | None) -> None:
        if result is not None:
            bank.after_hand(
                table,
                hand,
                user,
                next_banker=result.extra["next_banker"],
                kitty=result.extra.get("kitty_after"),
                sale=result.extra.get("bank_sale"),
            )


def next_dealer(table: Table, body: dict[str, Any]) -> int:
    """The deal moves one seat clockwise each hand. The first hand's dealer may be named in
    the request (e.g. by the cut); otherwise it is the first seat in play."""
    in_play = seats_in_play(table)
    if len(in_play) < 2:
        raise Conflict("a hand needs at least two players in play")
    last = table.game_state.get("dealer")
    if last is not None:
        seat = next_seat_clockwise(in_play, last)
        assert seat is not None
        return seat
    first = body.get("dealer")
    if first is None:
        return in_play[0]
    if first not in in_play:
        raise ApplicationError(f"dealer: seat {first} has no player in play", path="dealer")
    return int(first)


class DealerRotating(LiveGame):
    """A live game whose deal passes clockwise each hand (``game_state["dealer"]``)."""

    def after_open(self, table: Table, hand: Hand, opening: Opening, user: Any) -> None:
        table.game_state = {**table.game_state, "dealer": opening.button}
        table.save(update_fields=["game_state"])


class Paiute(DealerRotating):
    """Draw and discard with a wild rank: the dealer enters the deal and the upcard, then
    every draw, discard and call as it happens."""

    code = "paiute"
    limit_fields = ("ante",)
    max_seats = 5  # clause 1: 2-5 players

    def check_limits(self, limits: dict[str, Any], problems: Problems) -> None:
        if not positive_int(limits.get("ante")):
            problems.add("ante", "ante must be a whole number of minor units, at least 1")

    def hand_rules(self, config: dict[str, Any]) -> dict[str, Any]:
        ante = config["ante"]
        return paiute.parse_rules(
            {
                **(config.get("rules") or {}),
                "ante_min": ante,
                "ante_max": ante,
                "smallest_chip": config["smallest_chip"],
            }
        )

    def open_hand(self, table: Table, body: dict[str, Any]) -> Opening:
        dealer = next_dealer(table, body)
        players = seats_in_play(table)
        rules = self.hand_rules(table_config(table))
        config = paiute.PaiuteConfig.from_dict(
            {
                "dealer": dealer,
                "players": players,
                "ante": table.limits["ante"],
                "hands": body.get("hands"),
                "upcard": body.get("upcard"),
                "first_discard": body.get("first_discard"),
            }
        ).to_dict()
        self.build(config, rules)
        return Opening(rules=rules, seats=players, config=config, button=dealer)

    def build(self, config: dict[str, Any], rules: dict[str, Any]) -> paiute.PaiuteHand:
        return paiute.PaiuteHand(
            paiute.PaiuteConfig.from_dict(config), paiute.PaiuteRules.from_dict(rules)
        )


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
        for name in ("small_bet", "big_bet"):
            if not positive_int(limits.get(name)):
                problems.add(name, f"{name} must be a whole number of minor units, at least 1")
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


ADAPTERS: dict[str, GameAdapter] = {
    a.code: a for a in (HighCardFlush(), FiveCardDraw(), Pontoon(), Paiute(), PalacePoker())
}


def adapter(game: str) -> GameAdapter:
    return ADAPTERS[game]
