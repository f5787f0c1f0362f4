"""Five Card Draw 7-A at the table: blinds and missed blinds from the table's history."""

from __future__ import annotations

from typing import Any

from casino.core.errors import ApplicationError, Conflict
from casino.rules import five_card_draw
from casino.rules.errors import Problems, RuleError
from casino.rules.five_card_draw.blinds import BlindState, Choice, SeatInfo, next_hand
from tables.models import Hand, Seat, Table
from tables.selectors import table_config

from .base import LiveGame, Opening, check_amount_limits


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
        check_amount_limits(limits, ("small_blind", "big_blind", "big_bet"), problems)
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
