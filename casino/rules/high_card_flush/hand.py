"""A High Card Flush hand as a state machine, and the importer of the dealer's paper record
(how the hand is shown is ``view.py``'s, its settlement ``settle.py``'s).

The hand's set-up (``config``) is what opened it: the designated player's seat and bank, and
the seats in play. Its actions, in the order of the game (clauses 5-6):

1. ``{"type": "wager", "seat": 2, "ante": 500, "flush_bonus": 100, "straight_flush_bonus":
   0}``: each player who plays puts up the ante and any bonus bets (bonuses may be left out);
2. ``{"type": "deal", "seat": 2, "cards": [7 cards]}``: each player's and the designated
   player's seven cards, in any order, once betting is over (the first deal closes it);
3. ``{"type": "raise", "seat": 2, "amount": 1000}`` or ``{"type": "fold", "seat": 2}``: each
   player's decision, once every hand is dealt, within clause 6's bounds.

Every action is checked as it is applied (seat, phase, amounts, cards seen once); the whole
hand is checked again and settled as :func:`~casino.rules.high_card_flush.settle.evaluate`
settles the record the actions make (:meth:`HighCardFlushHand.to_record`), so a hand settles
the same whether its record was typed in at the end (:func:`import_record`) or its actions were
recorded one by one. (What the actions already checked is not read again: the record is built
from the hand when the rest of the check passes, and evaluated from its JSON otherwise, so
every problem is named as evaluate names it.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from casino.rules import actions as a
from casino.rules.actions import ActionSpec, ActionTable, Decoded, decode
from casino.rules.cards import Card, CardGroup, check_distinct
from casino.rules.contract import JSON, History, Recorded
from casino.rules.errors import Problems, RuleError, action_path, reported
from casino.rules.messages import Money, _, msg, prefixed
from casino.rules.options import (
    MAX_AMOUNT,
    as_money,
    is_int,
    money_or_repr,
    not_a_chip_multiple,
)
from casino.rules.presentation import Presentation
from casino.rules.rule_titles import high_card_flush_rule

from .record import THE_DP, DealerHand, PlayerHand, Record, parse_record
from .rules import CARDS_PER_HAND, GAME_CODE, PayTable, Rules
from .settle import evaluate, settle
from .values import flush_length, raise_bounds
from .view import hand_view, presentation

BONUSES = ("flush_bonus", "straight_flush_bonus")
#: The hand's actions (:mod:`casino.rules.actions`): decoded by :meth:`HighCardFlushHand.apply`,
#: shown in the API document.
ACTIONS = ActionTable(
    {
        "wager": ActionSpec(
            {
                "seat": a.seat(),
                "ante": a.amount(_("the ante")),
                "flush_bonus": a.amount(_("the Flush bonus bet"), minimum=0, required=False),
                "straight_flush_bonus": a.amount(
                    _("the Straight Flush bonus bet"), minimum=0, required=False
                ),
            },
            f"A player's ante and bonus bets, before the deal ({high_card_flush_rule(5)}).",
        ),
        "deal": ActionSpec(
            {
                "seat": a.seat(_("the seat dealt to, a player's or the designated player's")),
                "cards": a.cards(_("the seven cards"), least=CARDS_PER_HAND, most=CARDS_PER_HAND),
            }
        ),
        "raise": ActionSpec(
            {"seat": a.seat(), "amount": a.amount(_("the raise"))},
            f"A player's raise, within the bounds of {high_card_flush_rule(6)}.",
        ),
        "fold": ActionSpec({"seat": a.seat()}),
    }
)


class Phase(StrEnum):
    WAGERS = "wagers"
    DEAL = "deal"
    DECISIONS = "decisions"
    COMPLETE = "complete"


# Enum members read in the hot paths, each once: on Python 3.11 a member read through its
# class (``Phase.PLAY``) goes through ``EnumType.__getattr__``'s hook, several times a global.
_PHASE_COMPLETE = Phase.COMPLETE
_PHASE_DEAL = Phase.DEAL
_PHASE_DECISIONS = Phase.DECISIONS
_PHASE_WAGERS = Phase.WAGERS


@dataclass
class _Player:
    seat: int
    ante: int
    bonuses: dict[str, int]
    cards: tuple[Card, ...] | None = None
    raise_amount: int | None = None  # 0: folded


@dataclass
class _Config:
    dp_seat: int
    bank: int
    seats: tuple[int, ...]

    @classmethod
    def read(cls, config: Mapping[str, Any]) -> _Config:
        dp, seats = config.get("designated_player"), config.get("players")
        if type(dp) is dict and type(seats) is list:  # a stored set-up: plain ints, read at once
            seat, bank = dp.get("seat"), dp.get("bank")
            if type(seat) is int and type(bank) is int:
                for number in seats:
                    if type(number) is not int:
                        break
                else:
                    return cls(seat, bank, tuple(seats))
        return cls._read(config)

    @classmethod
    def _read(cls, config: Mapping[str, Any]) -> _Config:
        """:meth:`read`, naming what is wrong."""
        problems = Problems()
        dp, seats = config.get("designated_player"), config.get("players")
        if not isinstance(dp, Mapping) or not is_int(dp.get("seat")) or not is_int(dp.get("bank")):
            problems.add(
                "designated_player",
                msg(_("the set-up names the designated player's seat and bank")),
            )
        if not isinstance(seats, list) or not all(map(is_int, seats)):
            problems.add("players", msg(_("the set-up lists the players' seats")))
        problems.raise_if_any()
        assert isinstance(dp, Mapping) and isinstance(seats, list)
        return cls(int(dp["seat"]), int(dp["bank"]), tuple(map(int, seats)))


@dataclass
class HighCardFlushHand:
    """One hand, live or replayed (see the module docstring)."""

    config: Mapping[str, Any]
    rules: Rules
    _setup: _Config = field(init=False)
    _players: dict[int, _Player] = field(init=False, default_factory=dict)
    _dp_cards: tuple[Card, ...] | None = field(init=False, default=None)
    _phase: Phase = field(init=False, default=Phase.WAGERS)
    _log: list[Recorded] = field(init=False, default_factory=list)
    #: Every card dealt so far (the designated player's and the players'), as (rank, suit).
    _dealt_cards: set[tuple[int, str]] = field(
        init=False, default_factory=set, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        self._setup = _Config.read(self.config)
        if self._setup.dp_seat in self._setup.seats:
            raise RuleError(
                msg(_("the designated player is not one of the players")), path="players"
            )

    # -------------------------------------------------------------- reading the state

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def complete(self) -> bool:
        return self._phase is _PHASE_COMPLETE

    @property
    def log(self) -> tuple[Recorded, ...]:
        return tuple(self._log)

    @property
    def dp_seat(self) -> int:
        return self._setup.dp_seat

    @property
    def bank(self) -> int:
        return self._setup.bank

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats in play when the hand opened, besides the designated player's."""
        return self._setup.seats

    @property
    def dp_cards(self) -> tuple[Card, ...] | None:
        return self._dp_cards

    @property
    def players(self) -> tuple[_Player, ...]:
        """The players who placed their bets, in the order they did."""
        return tuple(self._players.values())

    def _dealt(self) -> bool:
        if self._dp_cards is None:
            return False
        for player in self._players.values():  # noqa: SIM110 (all() without a generator)
            if player.cards is None:
                return False
        return True

    def legal_actions(self) -> list[JSON]:
        chip = self.rules.smallest_chip
        if self._phase is _PHASE_WAGERS:
            ante_min = self.rules.ante_min or chip
            ante = {"min": ante_min, "max": self.rules.ante_max}
            actions: list[JSON] = [
                {"type": "wager", "seat": seat, "ante": ante, "bonuses": self._offered_bonuses()}
                for seat in self._setup.seats
                if seat not in self._players and len(self._players) < self.rules.max_players
            ]
            if self._players:
                actions += self._deal_actions()
            return actions
        if self._phase is _PHASE_DEAL:
            return self._deal_actions()
        if self._phase is _PHASE_DECISIONS:
            actions = []
            for player in self._players.values():
                if player.raise_amount is None and player.cards is not None:
                    low, high = raise_bounds(player.ante, flush_length(player.cards))
                    actions.append({"type": "raise", "seat": player.seat, "min": low, "max": high})
                    actions.append({"type": "fold", "seat": player.seat})
            return actions
        return []

    def _paytables(self) -> tuple[PayTable, PayTable]:
        """The bonuses' pay tables, in the order of :data:`BONUSES`."""
        return self.rules.flush_paytable, self.rules.straight_flush_paytable

    def _offered_bonuses(self) -> list[str]:
        return [name for name, table in zip(BONUSES, self._paytables(), strict=True) if len(table)]

    def _deal_actions(self) -> list[JSON]:
        waiting = [p.seat for p in self._players.values() if p.cards is None]
        if self._dp_cards is None:
            waiting.append(self._setup.dp_seat)
        return [{"type": "deal", "seat": seat, "cards": CARDS_PER_HAND} for seat in waiting]

    def view(self) -> JSON:
        return hand_view(self)

    def presentation(self) -> Presentation:
        """What the hand looks like on the dealer's tablet (``view.py``)."""
        return presentation(self)

    def to_record(self) -> JSON:
        """The dealer's record of the hand so far (what :func:`evaluate` settles)."""
        return {
            "designated_player": {
                "seat": self._setup.dp_seat,
                "bank": self._setup.bank,
                "cards": [str(c) for c in self._dp_cards or ()],
            },
            "players": [
                {
                    "seat": p.seat,
                    "cards": [str(c) for c in p.cards or ()],
                    "ante": p.ante,
                    "raise": p.raise_amount or 0,
                    **p.bonuses,
                }
                for p in self._players.values()
            ],
        }

    def settle(self) -> Any:
        if not self.complete:
            raise RuleError(
                msg(
                    _("the hand is not finished: it is in its %(phase)s phase"),
                    phase=str(self._phase),
                )
            )
        record = self._checked_record()
        if record is None:  # the whole record's check refuses it: evaluate names every problem
            return evaluate(self.to_record(), self.rules)
        return settle(record, self.rules)

    def _checked_record(self) -> Record | None:
        """The complete hand as the record :func:`parse_record` reads from :meth:`to_record`,
        when that check finds no problem; None when it would find one.

        The actions have checked most of what it checks (seats, the cards and their count,
        no card twice, amounts and their chip, the ante limits, the raise's bounds, the number
        of players); what they leave (the bank, an ante above the rake's top band, a bonus
        the table does not offer) is checked here the way it checks it."""
        rules, bank = self.rules, self._setup.bank
        if (
            not 0 <= bank <= MAX_AMOUNT
            or bank % rules.smallest_chip
            or (rules.bank_min is not None and bank < rules.bank_min)
            or (rules.bank_max is not None and bank > rules.bank_max)
        ):
            return None
        schedule = rules.rake.schedule
        refused = {
            name for name, table in zip(BONUSES, self._paytables(), strict=True) if not table
        }
        players: list[PlayerHand] = []
        for player in self._players.values():
            if not schedule.covers(player.ante):
                return None
            for name, stake in player.bonuses.items():
                if stake and name in refused:  # a bonus the table does not offer
                    return None
            assert player.cards is not None and player.raise_amount is not None
            players.append(
                PlayerHand(
                    player.seat,
                    player.cards,
                    player.ante,
                    player.raise_amount,
                    player.bonuses.get("flush_bonus", 0),
                    player.bonuses.get("straight_flush_bonus", 0),
                )
            )
        assert self._dp_cards is not None
        return Record(DealerHand(self._setup.dp_seat, bank, self._dp_cards), tuple(players))

    # -------------------------------------------------------------- actions

    def apply(self, action: Mapping[str, Any], index: int | None = None) -> None:
        try:
            decoded = decode(action, ACTIONS)
            seat: int = decoded.values["seat"]  # type: ignore[assignment]  # a decoded seat
            _HANDLERS[decoded.type](self, seat, decoded)
        except RuleError as error:
            raise reported(error, action_path(index)) from None
        self._log.append(Recorded(dict(action)))

    def _amount(self, value: object, seat: int, name: str, *, least: int) -> int:
        """``value`` as seat ``seat``'s ``name`` (its ante, raise or a bonus)."""
        chip = self.rules.smallest_chip
        if type(value) is int and value >= least and not value % chip:
            return value
        if not is_int(value) or value < least:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s: %(name)s must be a whole number of minor units of at "
                        "least %(least)s, got %(value)s"
                    ),
                    seat=seat,
                    name=name,
                    least=Money(least),
                    value=money_or_repr(value),
                )
            )
        if value % chip:
            raise RuleError(
                prefixed(msg(_("seat %(seat)s"), seat=seat), not_a_chip_multiple(name, value, chip))
            )
        return int(value)

    def _wager(self, seat: int, action: Decoded) -> None:
        if self._phase is not _PHASE_WAGERS:
            raise RuleError(
                msg(
                    _("seat %(seat)s: bets are placed before the deal (%(rule)s)"),
                    seat=seat,
                    rule=high_card_flush_rule(5),
                )
            )
        if seat == self._setup.dp_seat:
            raise RuleError(
                msg(
                    _("seat %(seat)s is the designated player, who takes no ante (%(rule)s)"),
                    seat=seat,
                    rule=high_card_flush_rule(5),
                )
            )
        if seat not in self._setup.seats:
            raise RuleError(msg(_("seat %(seat)s was not in play when the hand opened"), seat=seat))
        if seat in self._players:
            raise RuleError(msg(_("seat %(seat)s has already placed its bets"), seat=seat))
        if len(self._players) >= self.rules.max_players:
            raise RuleError(
                msg(
                    _("at most %(most)s players play a hand (%(rule)s)"),
                    most=self.rules.max_players,
                    rule=high_card_flush_rule(1),
                )
            )
        values: Any = action.values  # decoded: the ante given, each bonus or None
        ante = self._amount(values["ante"], seat, "ante", least=1)
        low, high = self.rules.ante_min, self.rules.ante_max
        if (low is not None and ante < low) or (high is not None and ante > high):
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s: ante %(ante)s is outside the table's limits %(low)s-%(high)s"
                    ),
                    seat=seat,
                    ante=Money(ante),
                    low=as_money(low),
                    high=as_money(high),
                )
            )
        bonuses = {}
        for name in BONUSES:
            bonus = values[name]
            if bonus is not None:
                bonuses[name] = self._amount(bonus, seat, name, least=0)
        self._players[seat] = _Player(seat, ante, bonuses)

    def _deal(self, seat: int, action: Decoded) -> None:
        if self._phase is _PHASE_WAGERS:
            if not self._players:
                raise RuleError(msg(_("no player has placed a bet: there is no hand to deal")))
            self._phase = _PHASE_DEAL
        elif self._phase is not _PHASE_DEAL:
            raise RuleError(msg(_("seat %(seat)s: every hand is already dealt"), seat=seat))
        is_dp = seat == self._setup.dp_seat
        player = self._players.get(seat)
        if not is_dp and player is None:
            raise RuleError(
                msg(_("seat %(seat)s has placed no bet and is dealt no hand"), seat=seat)
            )
        if (self._dp_cards if is_dp else player.cards if player else None) is not None:
            raise RuleError(msg(_("seat %(seat)s has already been dealt its cards"), seat=seat))
        cards: tuple[Card, ...] = action.values["cards"]  # type: ignore[assignment]
        new = {(card.rank, card.suit) for card in cards}
        if len(new) != len(cards) or not self._dealt_cards.isdisjoint(new):
            groups = [CardGroup(msg(_("seat %(seat)s"), seat=seat), "cards", cards)]
            if self._dp_cards is not None:
                groups.append(CardGroup(THE_DP, "designated_player", self._dp_cards))
            groups += [
                CardGroup(msg(_("seat %(seat)s"), seat=p.seat), f"seat {p.seat}", p.cards)
                for p in self._players.values()
                if p.cards
            ]
            check_distinct(groups)  # names each card seen twice
        self._dealt_cards |= new
        if is_dp:
            self._dp_cards = cards
        else:
            assert player is not None
            player.cards = cards
        if self._dealt():
            self._phase = _PHASE_DECISIONS

    def _decide(self, seat: int) -> _Player:
        if self._phase is not _PHASE_DECISIONS:
            raise RuleError(
                msg(
                    _("seat %(seat)s: players decide once every hand is dealt (%(rule)s)"),
                    seat=seat,
                    rule=high_card_flush_rule(6),
                )
            )
        player = self._players.get(seat)
        if player is None:
            raise RuleError(msg(_("seat %(seat)s is not playing this hand"), seat=seat))
        if player.raise_amount is not None:
            raise RuleError(msg(_("seat %(seat)s has already raised or folded"), seat=seat))
        return player

    def _decided(self) -> None:
        for player in self._players.values():  # all(...) without a generator
            if player.raise_amount is None:
                return
        self._phase = _PHASE_COMPLETE

    def _raise(self, seat: int, action: Decoded) -> None:
        player = self._decide(seat)
        assert player.cards is not None
        amount = self._amount(action.values["amount"], seat, "raise", least=1)
        length = flush_length(player.cards)
        low, high = raise_bounds(player.ante, length)
        if not low <= amount <= high:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s: with a %(length)s-card flush the raise is from %(low)s to "
                        "%(high)s (%(rule)s)"
                    ),
                    seat=seat,
                    length=length,
                    low=Money(low),
                    high=Money(high),
                    rule=high_card_flush_rule(6),
                )
            )
        player.raise_amount = amount
        self._decided()

    def _fold(self, seat: int, action: Decoded) -> None:
        self._decide(seat).raise_amount = 0
        self._decided()


#: Each action's step of :class:`HighCardFlushHand` by type.
_HANDLERS: dict[str, Callable[[HighCardFlushHand, int, Decoded], None]] = {
    "wager": HighCardFlushHand._wager,
    "deal": HighCardFlushHand._deal,
    "raise": HighCardFlushHand._raise,
    "fold": HighCardFlushHand._fold,
}


def record_actions(record: Mapping[str, Any], rules: Rules) -> tuple[JSON, ...]:
    """The dealer's paper record as the hand's actions (checked whole first, so every problem
    is reported at its place in the record)."""
    return _import(record, rules)[1]


def import_record(record: Mapping[str, Any], rules: Rules) -> History:
    """A whole paper record as a history: the set-up it implies and its actions."""
    config, actions = _import(record, rules)
    return History(GAME_CODE, rules.to_dict(), config, actions)


def _import(record: Mapping[str, Any], rules: Rules) -> tuple[JSON, tuple[JSON, ...]]:
    parsed = parse_record(record, rules)
    players = parsed.players
    actions: list[JSON] = []
    for player in players:
        wager: JSON = {"type": "wager", "seat": player.seat, "ante": player.ante}
        raw = next(p for p in record["players"] if p.get("seat") == player.seat)
        for name in BONUSES:
            if raw.get(name) is not None:
                wager[name] = raw[name]
        actions.append(wager)
    for player in players:
        actions.append(
            {"type": "deal", "seat": player.seat, "cards": [str(c) for c in player.cards]}
        )
    dp = parsed.designated_player
    actions.append({"type": "deal", "seat": dp.seat, "cards": [str(c) for c in dp.cards]})
    for player in players:
        if player.folded:
            actions.append({"type": "fold", "seat": player.seat})
        else:
            actions.append({"type": "raise", "seat": player.seat, "amount": player.raise_amount})
    config = setup(dp.seat, dp.bank, [player.seat for player in players])
    return config, tuple(actions)


def setup(dp_seat: int, bank: int, seats: Sequence[int]) -> JSON:
    return {"designated_player": {"seat": dp_seat, "bank": bank}, "players": list(seats)}
