"""Casino War in the one game contract (see ``RULES.md`` beside this file).

A hand's set-up is ``{"players": [seats]}``; its actions, in order:

1. ``{"type": "bet", "seat": 2, "amount": 500}`` for each player who plays (rule 2);
2. ``{"type": "card", "seat": 2, "card": "Kh"}`` for each bettor and ``"seat": 0`` for the
   dealer (rule 3; the first card closes betting);
3. on a tie, ``{"type": "war", "seat": 2}`` or ``{"type": "surrender", "seat": 2}`` (rule 5);
4. after a war, ``{"type": "war_cards", "seat": 2, "card": "9c", "dealer_card": "4d"}``.

Imports only the rules package's shared pieces: nothing here knows Django or the platform.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from casino.rules import schemas as s
from casino.rules.cards import Card, parse_card
from casino.rules.contract import JSON, Game, Opening, Recorded, TableView
from casino.rules.errors import Problems, Refusal, RuleError, action_path, reported_at
from casino.rules.options import MAX_AMOUNT, check_amounts, is_int, parse_bounded
from casino.rules.presentation import Group, Party, Presentation, Wager
from casino.rules.presentation import cards as pcards
from casino.rules.settlement import (
    HOUSE_SEAT,
    Line,
    Outcome,
    Role,
    SeatResult,
    SeatStatus,
    Settlement,
)
from casino.rules.theory.base import GameTheory

CODE = "casino-war"
DEALER = HOUSE_SEAT
DEFAULTS: JSON = {
    "tie_bonus": 1,
    "surrender": True,
    "smallest_chip": 1,
    "bet_min": None,
    "bet_max": None,
}
FIELDS = {
    "bet": ("type", "seat", "amount"),
    "card": ("type", "seat", "card"),
    "war": ("type", "seat"),
    "surrender": ("type", "seat"),
    "war_cards": ("type", "seat", "card", "dealer_card"),
}


@dataclass
class _Player:
    seat: int
    ante: int
    card: Card | None = None
    choice: str | None = None  # "war" or "surrender" after a tie
    war: tuple[Card, Card] | None = None  # the player's and the dealer's war cards


@dataclass
class WarHand:
    config: Mapping[str, Any]
    rules: JSON
    _players: dict[int, _Player] = field(default_factory=dict)
    _dealer: Card | None = None
    _seen: set[Card] = field(default_factory=set)
    _log: list[Recorded] = field(default_factory=list)

    @property
    def seats(self) -> list[int]:
        return list(self.config["players"])

    @property
    def dealt(self) -> bool:
        return self._dealer is not None and all(p.card for p in self._players.values())

    def _pending(self) -> list[JSON]:
        if not self.dealt:
            return []
        pending = []
        for p in self._players.values():
            assert p.card is not None and self._dealer is not None
            if p.card.rank != self._dealer.rank:
                continue
            if p.choice is None:
                pending.append({"type": "war", "seat": p.seat})
                if self.rules["surrender"]:
                    pending.append({"type": "surrender", "seat": p.seat})
            elif p.choice == "war" and p.war is None:
                pending.append({"type": "war_cards", "seat": p.seat})
        return pending

    @property
    def complete(self) -> bool:
        return self.dealt and not self._pending()

    @property
    def log(self) -> tuple[Recorded, ...]:
        return tuple(self._log)

    def legal_actions(self) -> list[JSON]:
        if self.dealt:
            return self._pending()
        actions: list[JSON] = []
        if self._dealer is None and not any(p.card for p in self._players.values()):
            low = self.rules["bet_min"] or self.rules["smallest_chip"]
            actions += [
                {"type": "bet", "seat": seat, "min": low, "max": self.rules["bet_max"]}
                for seat in self.seats
                if seat not in self._players
            ]
        if self._players:
            waiting = [p.seat for p in self._players.values() if p.card is None]
            actions += [{"type": "card", "seat": seat} for seat in waiting]
            if self._dealer is None:
                actions.append({"type": "card", "seat": DEALER})
        return actions

    def view(self) -> JSON:
        return {
            "game": CODE,
            "complete": self.complete,
            "legal_actions": self.legal_actions(),
            "dealer": str(self._dealer) if self._dealer else None,
            "players": [
                {
                    "seat": p.seat,
                    "ante": p.ante,
                    "card": str(p.card) if p.card else None,
                    "choice": p.choice,
                }
                for p in self._players.values()
            ],
        }

    def presentation(self) -> Presentation:
        """The table as the dealer sees it: each bettor's ante and card, the dealer's card on
        the house's own seat (0), and after a tie the war cards as a group."""
        pending = {action["seat"] for action in self._pending()}
        to_act = min(pending) if pending else None
        seats = []
        for seat in self.seats:
            player = self._players.get(seat)
            if player is None:
                seats.append(Party(seat=seat, status="waiting" if not self.dealt else "out"))
                continue
            wagers = [Wager("ante", player.ante)]
            if player.choice == "war":
                wagers.append(Wager("war", player.ante))
            status = (
                "to_act" if seat == to_act else "declined" if player.choice == "surrender" else "in"
            )
            seats.append(
                Party(
                    seat=seat,
                    status=status,
                    to_act=seat == to_act,
                    cards=pcards([player.card] if player.card else []),
                    wagers=wagers,
                    groups=[Group("war", pcards([player.war[0]]))] if player.war else [],
                )
            )
        house = Party(
            seat=DEALER,
            house=True,
            badges=["house", "dealer"],
            cards=pcards([self._dealer] if self._dealer else []),
            groups=[Group("war", pcards([p.war[1] for p in self._players.values() if p.war]))]
            if any(p.war for p in self._players.values())
            else [],
        )
        return Presentation(
            phase="complete" if self.complete else "war" if self.dealt else "betting",
            seats=seats,
            house=house,
            to_act=to_act,
        )

    def apply(self, action: Mapping[str, Any], index: int | None = None) -> None:
        with reported_at(action_path(index)):
            kind = action.get("type")
            if kind not in FIELDS:
                raise RuleError(f"unknown action {kind!r}; actions: {', '.join(FIELDS)}")
            unknown = sorted(set(action) - set(FIELDS[kind]))
            if unknown:
                raise RuleError(f"unknown field(s) {', '.join(unknown)} for {kind}")
            seat = action.get("seat")
            if not is_int(seat):
                raise RuleError(f"seat must be a seat number, got {seat!r}")
            getattr(self, f"_{kind}")(seat, action)
        self._log.append(Recorded(dict(action)))

    def _take(self, raw: object) -> Card:
        card = parse_card(raw)
        if card in self._seen:
            raise RuleError(f"card {card} has already been dealt this hand (rule 3)")
        self._seen.add(card)
        return card

    def _bet(self, seat: int, action: Mapping[str, Any]) -> None:
        if seat not in self.seats or seat in self._players:
            raise RuleError(f"seat {seat} cannot bet now (rule 2)")
        if self._dealer is not None or any(p.card for p in self._players.values()):
            raise RuleError("betting closed with the first card (rule 3)")
        amount, chip = action.get("amount"), self.rules["smallest_chip"]
        low, high = self.rules["bet_min"] or chip, self.rules["bet_max"] or MAX_AMOUNT
        if not is_int(amount) or not low <= amount <= high or amount % chip:
            raise RuleError(
                f"seat {seat}: the bet is from {low} to {high} in chips of {chip} (rule 2)"
            )
        self._players[seat] = _Player(seat, amount)

    def _card(self, seat: int, action: Mapping[str, Any]) -> None:
        if not self._players:
            raise RuleError("nobody has bet: there is nothing to deal (rule 3)")
        if seat == DEALER:
            if self._dealer is not None:
                raise RuleError("the dealer already has a card")
            self._dealer = self._take(action.get("card"))
            return
        player = self._players.get(seat)
        if player is None or player.card is not None:
            raise RuleError(f"seat {seat} is not owed a card (rule 3)")
        player.card = self._take(action.get("card"))

    def _tied(self, seat: int) -> _Player:
        player = self._players.get(seat)
        if (
            not self.dealt
            or player is None
            or player.card is None
            or self._dealer is None
            or player.card.rank != self._dealer.rank
            or player.choice is not None
        ):
            raise RuleError(f"seat {seat} has no tie to decide (rule 5)")
        return player

    def _war(self, seat: int, action: Mapping[str, Any]) -> None:
        self._tied(seat).choice = "war"

    def _surrender(self, seat: int, action: Mapping[str, Any]) -> None:
        if not self.rules["surrender"]:
            raise RuleError("this table does not allow surrender (rule 5)")
        self._tied(seat).choice = "surrender"

    def _war_cards(self, seat: int, action: Mapping[str, Any]) -> None:
        player = self._players.get(seat)
        if player is None or player.choice != "war" or player.war is not None:
            raise RuleError(f"seat {seat} is not at war (rule 6)")
        player.war = (self._take(action.get("card")), self._take(action.get("dealer_card")))

    def settle(self) -> Settlement:
        if not self.complete:
            raise RuleError("the hand is not finished")
        assert self._dealer is not None
        seats, house_lines, explanation = [], [], []
        for p in sorted(self._players.values(), key=lambda p: p.seat):
            assert p.card is not None
            lines: list[Line] = []
            if p.card.rank > self._dealer.rank:
                lines.append(Line("ante", p.ante, Outcome.WIN, p.ante, "1:1"))
                explanation.append(
                    f"Seat {p.seat}: {p.card} beats the dealer's {self._dealer}; wins {p.ante}."
                )
            elif p.card.rank < self._dealer.rank:
                lines.append(Line("ante", p.ante, Outcome.LOSE, -p.ante))
                explanation.append(
                    f"Seat {p.seat}: {p.card} loses to {self._dealer}; loses {p.ante}."
                )
            elif p.choice == "surrender":
                half = p.ante // 2 // self.rules["smallest_chip"] * self.rules["smallest_chip"]
                lines.append(Line("ante", p.ante, Outcome.LOSE, -(p.ante - half)))
                explanation.append(f"Seat {p.seat}: ties and surrenders; loses {p.ante - half}.")
            else:
                assert p.war is not None
                mine, theirs = p.war
                if mine.rank < theirs.rank:
                    lines += [
                        Line("ante", p.ante, Outcome.LOSE, -p.ante),
                        Line("raise", p.ante, Outcome.LOSE, -p.ante),
                    ]
                    explanation.append(f"Seat {p.seat}: goes to war, {mine} loses to {theirs}.")
                else:
                    odds = self.rules["tie_bonus"]
                    bonus = p.ante * odds if mine.rank == theirs.rank else 0
                    lines += [
                        Line("ante", p.ante, Outcome.PUSH, 0),
                        Line("raise", p.ante, Outcome.WIN, p.ante, "1:1"),
                    ]
                    if bonus:  # rule 6: paid on the ante, with no stake of its own
                        lines.append(Line("ante", 0, Outcome.BONUS, bonus, f"{odds}:1"))
                    explanation.append(
                        f"Seat {p.seat}: goes to war and wins with {mine} against {theirs}"
                        + (f"; the tie pays the ante's bonus of {bonus}." if bonus else ".")
                    )
            seats.append(
                SeatResult(
                    p.seat, Role.PLAYER, (str(p.card),), None, SeatStatus.SETTLED, tuple(lines), 0
                )
            )
            house_lines += [
                Line(
                    f"{line.wager} vs seat {p.seat}",
                    line.stake,
                    _mirror(line.outcome),
                    -line.amount,
                    line.odds,
                    {"against": p.seat},
                )
                for line in lines
            ]
        house = SeatResult(
            DEALER,
            Role.HOUSE,
            (str(self._dealer),),
            None,
            SeatStatus.SETTLED,
            tuple(house_lines),
            0,
        )
        result = Settlement(CODE, dict(self.rules), tuple(seats), tuple(explanation), house=house)
        result.check_conserved()
        return result


def _mirror(outcome: Outcome) -> Outcome:
    return {Outcome.WIN: Outcome.LOSE, Outcome.LOSE: Outcome.WIN}.get(outcome, outcome)


class CasinoWar(Game):
    code = CODE
    name = "Casino War"
    min_players = 1
    max_seats = 6
    limits_schema = s.obj(
        {"bet_min": s.amount("the least bet"), "bet_max": s.amount("the largest bet")},
        required=["bet_min", "bet_max"],
    )
    rules_schema = s.from_defaults(DEFAULTS)
    open_schema = s.obj({})
    action_schemas = {
        "bet": s.action(
            "bet", {"seat": s.seat(), "amount": s.amount("the ante")}, required=["seat", "amount"]
        ),
        "card": s.action(
            "card",
            {"seat": {"type": "integer", "minimum": 0}, "card": s.card()},
            required=["seat", "card"],
        ),
        "war": s.action("war", {"seat": s.seat()}, required=["seat"]),
        "surrender": s.action("surrender", {"seat": s.seat()}, required=["seat"]),
        "war_cards": s.action(
            "war_cards",
            {"seat": s.seat(), "card": s.card(), "dealer_card": s.card()},
            required=["seat", "card", "dealer_card"],
        ),
    }
    record_schema = s.obj(
        {
            "players": {"type": "array", "items": s.seat()},
            "actions": {"type": "array", "items": {"type": "object"}},
        },
        required=["players", "actions"],
    )

    @property
    def rules_doc(self) -> str:
        return str(Path(__file__).with_name("RULES.md").relative_to(Path(__file__).parents[3]))

    def default_rules(self) -> JSON:
        return dict(DEFAULTS)

    def parse_rules(
        self, data: Mapping[str, Any] | None, base: Mapping[str, Any] | None = None
    ) -> JSON:
        rules = {**DEFAULTS, **(base or {})}
        problems = Problems()
        for key, value in (data or {}).items():
            if key not in DEFAULTS:
                problems.add(f"rules.{key}", f"unknown rules setting {key!r}")
            rules[key] = value

        def check(rules: JSON, problems: Problems) -> JSON:
            if not is_int(rules["tie_bonus"]) or not 0 <= rules["tie_bonus"] <= 10:
                problems.add("rules.tie_bonus", "tie_bonus is a whole number from 0 to 10")
            if not isinstance(rules["surrender"], bool):
                problems.add("rules.surrender", "surrender is true or false")
            return rules

        # Every number bounded as every game's are (the smallest chip by its own maximum).
        rules = parse_bounded(check, rules, problems)
        problems.raise_if_any()
        return rules

    def check_limits(self, limits: Mapping[str, Any], problems: Problems) -> None:
        check_amounts(limits, ("bet_min", "bet_max"), problems)
        if not problems and limits["bet_min"] > limits["bet_max"]:
            problems.add("bet_max", "the largest bet is below the least")

    def hand_rules(
        self, limits: Mapping[str, Any], smallest_chip: int, rules: Mapping[str, Any]
    ) -> JSON:
        return self.parse_rules({**rules, **limits, "smallest_chip": smallest_chip})

    def new_hand(self, config: Mapping[str, Any], rules: Mapping[str, Any]) -> WarHand:
        players = config.get("players")
        if (
            not isinstance(players, list)
            or not players
            or not all(is_int(p) and p >= 1 for p in players)
        ):
            raise RuleError("players must list the seats dealt in", path="players")
        return WarHand(config, dict(rules))

    def theory(self) -> GameTheory:
        """Its theoretical hold: the strategy of ``theory.py``."""
        from .theory import THEORY

        return THEORY

    def open_hand(self, table: TableView, body: Mapping[str, Any]) -> Opening:
        if not table.in_play:
            raise Refusal("nobody is in play")
        if body:
            raise RuleError("a Casino War hand opens with an empty body", path="")
        config = {"players": table.in_play}
        return Opening(config, tuple(table.in_play), dict(table.state))


GAME = CasinoWar()
