"""Five Card Draw 7-A: the hand as one state object moving through explicit phases.

The rules as implemented (``docs/rules/five-card-draw-7a.md``) decides every rules question;
clause numbers below refer to it. A hand is its :class:`HandConfig` plus its operation log:
:class:`DrawHand` posts the blinds and deals from the config, then takes the players' actions
one at a time. Each action is a triple (``verify_x`` raises :class:`RuleError`, ``can_x``
returns a bool, ``x`` applies it) and appends a frozen operation to :attr:`DrawHand.log`.
:func:`replay` rebuilds a hand from a record (the live table, a submitted record and an audit
re-check all use it); :func:`evaluate` replays and settles. Pots are never stored: they come
from each seat's contributions, the folds and the dead money (:mod:`casino.rules.pots`).

Phases: ``predraw`` (round 1) -> ``draw`` -> ``postdraw`` (round 2) -> ``showdown``. A hand that
ends because everyone else folded goes to ``complete`` instead; a hand that reaches a showdown
rests in ``showdown``. Both are finished (:attr:`DrawHand.complete`) and settle. Automatic
steps (posting, phase changes, the showdown order) are logged too.

Choices where the brief is silent (Robert's Rules of Poker, RRoP, unless said otherwise):

* **Bet sizes.** The minimum bet and the first raise increment in pot limit and no limit are
  the big blind in both rounds. In round 1 the amount to call is the full big blind even if
  the big blind posted all-in for less. ``to`` is always the seat's total for the round
  (a big blind raising to 400 has 400 in front of it, its blind included).
* **Limit.** The small bet is the big blind, the big bet ``big_bet``. Round 1's big blind is
  the round's bet, so ``max_raises`` 3 means 2 -> 4 -> 6 -> 8 (capped). A limit raise is
  exactly one bet above the last full bet or raise; a seat without the chips may go all-in
  for less. RRoP's half-bet rule decides what a short all-in is in limit: an all-in of at
  least half a bet above the last full level is treated as a full bet or raise (it counts
  towards the cap and the next raise is a full bet above it); less than half is not a raise,
  and the next seat may call it or complete to one bet above the last full level. Heads-up
  (option ``heads_up_uncapped``) means at most two players who are not folded and not all-in
  (RRoP counts players "not all-in"); a round capped while three or more could bet stays
  capped.
* **Pot limit / no limit.** A raise is at least the last full bet or raise above the current
  bet; an all-in for less is allowed and does not change that increment. Pot limit's largest
  raise is to the current bet plus the pot after calling (all chips in the middle, dead money
  included, plus the call).
* **Reopening** (clause 6). A seat that has already acted this round may raise again only if
  the bet it faces has grown, since it last acted, by a full raise (pot/no limit) or by half a
  bet (limit); several short all-ins together can reopen it (RRoP). A seat that has not acted
  (the big blind with its option, a live blind) may always raise. Nobody may raise when every
  other player still in is all-in.
* **The draw** (clauses 7-8). Every player still in draws in turn clockwise from the left of the
  button, all-in players too, with ``{"type": "draw", "discard": [...], "receive": [...]}``
  (empty lists to stand pat); the counts must match, at most 5. The last card of the stub is
  never dealt (RRoP): a draw of ``n`` cards is served from the stub when ``n`` is at most the
  stub's size less one; otherwise the stub's other cards are dealt, and the last stub card,
  the folded cards and the discards not yet reshuffled (never the drawing player's own) are
  shuffled into a new stub for the rest. The record lists the cards received, not their order,
  so the engine checks that at most ``n - (stub - 1)`` of them come from the reshuffled cards,
  that no other card was seen before (dealt, received or discarded), and records which cards
  went into the reshuffle. A player may also fold in turn during the draw.
* **Showdown** (clause 9). The last player to bet or raise after the draw shows first; if
  nobody bet after the draw (or nobody could, everyone being all-in), the first player still
  in left of the button. The others follow clockwise. Mucking is not modelled: every hand
  still in is judged, which is what the players' tabled cards decide.
* **Actions.** Fold is always offered to the seat to act (also when it could check, and in
  turn during the draw). A ``call`` may carry ``amount`` (as ``legal_actions`` gives it), which
  must then equal the call; fields an action does not use are rejected. The limit cap message
  counts raises after the bet: with ``max_raises`` 3 the refused one is "a fourth raise".
* **Settlement** (clauses 9-10): :meth:`DrawHand.settle` hands the finished hand to
  :func:`~casino.rules.five_card_draw.settle.settle_hand`; the view and the presentation are
  built in :mod:`casino.rules.five_card_draw.view`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeAlias

from casino.rules import actions as a
from casino.rules import betting
from casino.rules.actions import ActionSpec, ActionTable, decode
from casino.rules.cards import Card
from casino.rules.contract import Operation as OperationBase
from casino.rules.errors import RuleError, action_path, reported
from casino.rules.five_card_draw.config import (
    HandConfig,
    PostType,
    Structure,
    clockwise_after,
    parse_config,
)
from casino.rules.five_card_draw.rules import DrawRules, coerce_rules
from casino.rules.five_card_draw.settle import settle_hand
from casino.rules.five_card_draw.values import DECK_SETS, HAND_SIZE, deck_words
from casino.rules.five_card_draw.view import build_presentation, view_data
from casino.rules.messages import Message, Money, _, msg
from casino.rules.options import money_or_repr
from casino.rules.pots import Pot, build_pots
from casino.rules.presentation import Presentation
from casino.rules.quick import quick_init
from casino.rules.rule_titles import five_card_draw_rule
from casino.rules.settlement import Settlement

ORDINALS = {
    2: _("second"),
    3: _("third"),
    4: _("fourth"),
    5: _("fifth"),
    6: _("sixth"),
    7: _("seventh"),
}


class Phase(StrEnum):
    PREDRAW = "predraw"
    DRAW = "draw"
    POSTDRAW = "postdraw"
    SHOWDOWN = "showdown"
    COMPLETE = "complete"


class ActionType(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    DRAW = "draw"


#: Each action type by its JSON name (``ActionType(name)`` without the Enum's call).
ACTION_TYPES: dict[str, ActionType] = {str(kind): kind for kind in ActionType}
#: Each action type as a verb in a message ("seat 3 cannot raise: ...").
VERBS: dict[ActionType, str] = {
    ActionType.FOLD: _("fold"),
    ActionType.CHECK: _("check"),
    ActionType.CALL: _("call"),
    ActionType.BET: _("bet"),
    ActionType.RAISE: _("raise"),
    ActionType.DRAW: _("draw"),
}


_TO = _("the seat's total bet for the round")
#: The hand's actions (:mod:`casino.rules.actions`): decoded by :meth:`DrawHand.apply`, shown
#: in the API document. Fields an action does not use are refused.
ACTIONS = ActionTable(
    {
        ActionType.FOLD: ActionSpec({"seat": a.seat()}),
        ActionType.CHECK: ActionSpec({"seat": a.seat()}),
        ActionType.CALL: ActionSpec(
            {
                "seat": a.seat(),
                "amount": a.amount(
                    _("the call, as legal_actions gives it (checked if given)"), required=False
                ),
            }
        ),
        ActionType.BET: ActionSpec({"seat": a.seat(), "to": a.amount(_TO)}),
        ActionType.RAISE: ActionSpec({"seat": a.seat(), "to": a.amount(_TO)}),
        ActionType.DRAW: ActionSpec(
            {
                "seat": a.seat(),
                "discard": a.cards(_("the cards thrown away ([] to stand pat)")),
                "receive": a.cards(_("the cards received ([] to stand pat)")),
            },
            f"Discard and draw ({five_card_draw_rule(7, 8)}): as many "
            "cards received as thrown away, at most five.",
        ),
    }
)


# --------------------------------------------------------------------------- operations


@quick_init
@dataclass(frozen=True, slots=True)
class Posting(OperationBase):
    """A blind, live blind or dead money posted before the deal (automatic)."""

    seat: int
    type: PostType
    amount: int
    all_in: bool

    def to_action(self) -> dict[str, Any] | None:
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "op": "post",
            "seat": self.seat,
            "type": str(self.type),
            "amount": self.amount,
            "all_in": self.all_in,
        }


@quick_init
@dataclass(frozen=True, slots=True)
class Folding(OperationBase):
    seat: int

    def to_action(self) -> dict[str, Any] | None:
        return {"seat": self.seat, "type": "fold"}

    def to_dict(self) -> dict[str, Any]:
        return {"op": "fold", "seat": self.seat}


@quick_init
@dataclass(frozen=True, slots=True)
class Checking(OperationBase):
    seat: int

    def to_action(self) -> dict[str, Any] | None:
        return {"seat": self.seat, "type": "check"}

    def to_dict(self) -> dict[str, Any]:
        return {"op": "check", "seat": self.seat}


@quick_init
@dataclass(frozen=True, slots=True)
class Calling(OperationBase):
    """A call; ``amount`` is the chips added (less than the bet when all-in)."""

    seat: int
    amount: int
    all_in: bool

    def to_action(self) -> dict[str, Any] | None:
        return {"seat": self.seat, "type": "call"}

    def to_dict(self) -> dict[str, Any]:
        return {"op": "call", "seat": self.seat, "amount": self.amount, "all_in": self.all_in}


@quick_init
@dataclass(frozen=True, slots=True)
class Betting(OperationBase):
    """The round's first bet, to ``to`` in all."""

    seat: int
    to: int
    all_in: bool
    full: bool

    def to_action(self) -> dict[str, Any] | None:
        return {"seat": self.seat, "type": "bet", "to": self.to}

    def to_dict(self) -> dict[str, Any]:
        return {
            "op": "bet",
            "seat": self.seat,
            "to": self.to,
            "all_in": self.all_in,
            "full": self.full,
        }


@quick_init
@dataclass(frozen=True, slots=True)
class Raising(OperationBase):
    """A raise to ``to`` in all; ``full`` is false for a short all-in that reopens nothing."""

    seat: int
    to: int
    all_in: bool
    full: bool

    def to_action(self) -> dict[str, Any] | None:
        return {"seat": self.seat, "type": "raise", "to": self.to}

    def to_dict(self) -> dict[str, Any]:
        return {
            "op": "raise",
            "seat": self.seat,
            "to": self.to,
            "all_in": self.all_in,
            "full": self.full,
        }


@quick_init
@dataclass(frozen=True, slots=True)
class Drawing(OperationBase):
    """A draw: the cards thrown away and received, and (clause 8) the folded cards and
    discards shuffled back into the stub to serve it, empty when the stub sufficed."""

    seat: int
    discard: tuple[Card, ...]
    receive: tuple[Card, ...]
    reshuffled: tuple[Card, ...] = ()

    def to_action(self) -> dict[str, Any] | None:
        return {
            "seat": self.seat,
            "type": "draw",
            "discard": [str(card) for card in self.discard],
            "receive": [str(card) for card in self.receive],
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "op": "draw",
            "seat": self.seat,
            "discard": [str(card) for card in self.discard],
            "receive": [str(card) for card in self.receive],
            "reshuffled": [str(card) for card in self.reshuffled],
        }


@quick_init
@dataclass(frozen=True, slots=True)
class PhaseChange(OperationBase):
    """The hand moved to ``phase`` (automatic)."""

    phase: Phase

    def to_action(self) -> dict[str, Any] | None:
        return None

    def to_dict(self) -> dict[str, Any]:
        return {"op": "phase", "phase": str(self.phase)}


@quick_init
@dataclass(frozen=True, slots=True)
class Showdown(OperationBase):
    """The seats in the order they show (automatic, clause 9)."""

    order: tuple[int, ...]
    first_reason: str

    def to_action(self) -> dict[str, Any] | None:
        return None

    def to_dict(self) -> dict[str, Any]:
        return {"op": "showdown", "order": list(self.order), "first_reason": self.first_reason}


Operation: TypeAlias = (
    Posting | Folding | Checking | Calling | Betting | Raising | Drawing | PhaseChange | Showdown
)


# --------------------------------------------------------------------------- the hand


@dataclass(slots=True)
class _Player:
    """One seat's chips and cards while the hand runs (private to :class:`DrawHand`)."""

    seat: int
    start: int
    stack: int
    cards: list[Card]
    bet: int = 0  # this round, live posts included
    total: int = 0  # this hand, bets and live posts; never dead money
    dead: int = 0
    folded: bool = False
    acted: bool = False  # a voluntary action this round (posting is not one)
    acted_level: int = 0  # the bet to match when it last acted
    drawn: int | None = None

    @property
    def can_bet(self) -> bool:
        return not self.folded and self.stack > 0

    @property
    def all_in(self) -> bool:
        return not self.folded and self.stack == 0


class DrawHand:
    """One hand of Five Card Draw 7-A. See the module docstring for the rules as built."""

    def __init__(self, config: HandConfig, rules: DrawRules | None = None) -> None:
        self.config = config
        self.rules = rules or DrawRules()
        self.with_sixes = config.with_sixes
        self.deck = config.deck
        self._players: dict[int, _Player] = {
            seat.seat: _Player(seat.seat, seat.stack, seat.stack, list(seat.cards))
            for seat in sorted(config.seats, key=lambda s: s.seat)
        }
        self._numbers = list(self._players)
        dealt = {card for seat in config.seats for card in seat.cards}
        self._stub: set[Card] = set(DECK_SETS[self.with_sixes]) - dealt
        self._muck: set[Card] = set()  # folded cards and discards not yet reshuffled
        self._seen: set[Card] = set(dealt)
        self._log: list[Operation] = []
        self._dead = 0
        self.phase = Phase.PREDRAW
        self.to_act: int | None = None
        self.showdown_order: tuple[int, ...] = ()
        self._reached_draw = False
        # The betting round: its sizes (the bet to match, the last full bet or raise and its
        # increment, full bets made for the limit cap, the limit bet size), whether it is
        # capped, the last aggressor.
        self._round = betting.Round(
            betting.Structure(config.structure), bet=config.big_blind, last_raise=config.big_blind
        )
        self._capped = False
        self._aggressor: int | None = None
        self._post()
        self._begin_betting(Phase.PREDRAW)

    # ------------------------------------------------------------------ reading the state

    @property
    def log(self) -> tuple[Operation, ...]:
        return tuple(self._log)

    @property
    def complete(self) -> bool:
        return self.phase in (Phase.SHOWDOWN, Phase.COMPLETE)

    @property
    def pot_total(self) -> int:
        """Every chip in the middle: posts, bets (this round's too) and dead money."""
        return self._dead + sum(player.total for player in self._players.values())

    def pots(self) -> list[Pot]:
        """The main pot and side pots collected so far: everything in the middle except the
        bets of the round being played (which the tablet shows in front of each seat)."""
        if self.complete:
            return build_pots(self._contributions(), self._folded(), self._dead)[0]
        collected = {player.seat: player.total - player.bet for player in self._players.values()}
        return build_pots(collected, self._folded(), self._dead)[0]

    def cards(self, seat: int) -> tuple[Card, ...]:
        """The seat's five cards now (for a folded seat, the cards it folded)."""
        return tuple(self._player(seat).cards)

    def stub(self) -> tuple[Card, ...]:
        """The cards that can still be dealt without a reshuffle (clause 8), sorted."""
        return tuple(sorted(self._stub))

    def reshuffle_pool(self) -> tuple[Card, ...]:
        """The folded cards and discards that a reshuffle now would add to the stub's last card."""
        return tuple(sorted(self._muck))

    @property
    def cards_seen(self) -> int:
        """Distinct cards dealt or received so far this hand."""
        return len(self._seen)

    @property
    def players(self) -> tuple[_Player, ...]:
        """Each seat's chips and cards now, in seat order (for the view and the presentation)."""
        return tuple(self._players.values())

    @property
    def current_bet(self) -> int:
        """The bet to match this round (the view's ``bet``)."""
        return self._level

    def legal_actions(self) -> list[dict[str, Any]]:
        """What the seat to act may do; bet and raise bounds are the seat's total ``to``."""
        if self.to_act is None:
            return []
        player = self._players[self.to_act]
        if self.phase is Phase.DRAW:
            return [{"type": "fold"}, {"type": "draw", "max_cards": HAND_SIZE}]
        actions: list[dict[str, Any]] = [{"type": "fold"}]
        owed = self._level - player.bet
        if owed <= 0:
            actions.append({"type": "check"})
        else:
            actions.append({"type": "call", "amount": min(owed, player.stack)})
        if self._raise_refusal(player) is None:
            low, high = self._wager_bounds(player)
            kind = "bet" if self._level == 0 else "raise"
            wager: dict[str, Any] = {"type": kind, "min": low, "max": high}
            if self.config.structure is Structure.POT_LIMIT:
                wager["pot"] = high  # the pot-size bet (or all the stack, if less): clause 6
            actions.append(wager)
        return actions

    def view(self) -> dict[str, Any]:
        """The hand as the dealer tablet shows it, JSON-ready (:func:`~.view.view_data`)."""
        return view_data(self)

    def presentation(self) -> Presentation:
        """What the hand looks like, in the same shape for every game
        (:func:`~.view.build_presentation`)."""
        return build_presentation(self)

    def to_record(self) -> dict[str, Any]:
        """The hand as a record: its configuration and the players' actions so far."""
        record = self.config.to_dict()
        record["actions"] = [action for op in self._log if (action := op.to_action()) is not None]
        return record

    # ------------------------------------------------------------------ fold

    def verify_fold(self, seat: int) -> None:
        self._verify_turn(seat, ActionType.FOLD)

    def can_fold(self, seat: int) -> bool:
        return self._can(self.verify_fold, seat)

    def fold(self, seat: int) -> None:
        self.verify_fold(seat)
        player = self._players[seat]
        player.folded = True
        player.acted = True
        self._muck.update(player.cards)
        self._log.append(Folding(seat))
        if len(self._live()) == 1:
            self._finish_uncontested()
        elif self.phase is Phase.DRAW:
            self._next_drawer(seat)
        else:
            self._after_betting_action(seat)

    # ------------------------------------------------------------------ check and call

    def verify_check(self, seat: int) -> None:
        self._verify_turn(seat, ActionType.CHECK)
        owed = self._level - self._players[seat].bet
        if owed > 0:
            raise RuleError(
                msg(
                    _("seat %(seat)s cannot check: %(owed)s to call (call, raise or fold)"),
                    seat=seat,
                    owed=Money(owed),
                )
            )

    def can_check(self, seat: int) -> bool:
        return self._can(self.verify_check, seat)

    def check(self, seat: int) -> None:
        self.verify_check(seat)
        player = self._players[seat]
        player.acted = True
        player.acted_level = self._level
        self._log.append(Checking(seat))
        self._after_betting_action(seat)

    def verify_call(self, seat: int) -> None:
        self._verify_turn(seat, ActionType.CALL)
        if self._level <= self._players[seat].bet:
            raise RuleError(
                msg(
                    _("seat %(seat)s cannot call: there is nothing to call; check instead"),
                    seat=seat,
                )
            )

    def can_call(self, seat: int) -> bool:
        return self._can(self.verify_call, seat)

    def call(self, seat: int) -> None:
        self.verify_call(seat)
        player = self._players[seat]
        amount = min(self._level - player.bet, player.stack)
        self._put(player, player.bet + amount)
        player.acted = True
        player.acted_level = self._level
        self._log.append(Calling(seat, amount, player.stack == 0))
        self._after_betting_action(seat)

    # ------------------------------------------------------------------ bet and raise

    def verify_bet(self, seat: int, to: int) -> None:
        self._verify_turn(seat, ActionType.BET)
        if self._level > 0:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s cannot bet: there is already a bet of %(level)s this "
                        "round; call, raise or fold"
                    ),
                    seat=seat,
                    level=Money(self._level),
                )
            )
        self._verify_wager(self._players[seat], to, ActionType.BET)

    def can_bet(self, seat: int, to: int) -> bool:
        return self._can(self.verify_bet, seat, to)

    def bet(self, seat: int, to: int) -> None:
        self.verify_bet(seat, to)
        self._wager(self._players[seat], to, ActionType.BET)

    def verify_raise_to(self, seat: int, to: int) -> None:
        self._verify_turn(seat, ActionType.RAISE)
        if self._level == 0:
            raise RuleError(
                msg(
                    _("seat %(seat)s cannot raise: nobody has bet this round; bet instead"),
                    seat=seat,
                )
            )
        self._verify_wager(self._players[seat], to, ActionType.RAISE)

    def can_raise_to(self, seat: int, to: int) -> bool:
        return self._can(self.verify_raise_to, seat, to)

    def raise_to(self, seat: int, to: int) -> None:
        self.verify_raise_to(seat, to)
        self._wager(self._players[seat], to, ActionType.RAISE)

    # ------------------------------------------------------------------ draw

    def verify_draw(self, seat: int, discard: Sequence[Card], receive: Sequence[Card]) -> None:
        self._verify_turn(seat, ActionType.DRAW)
        self._draw_plan(self._players[seat], discard, receive)

    def can_draw(self, seat: int, discard: Sequence[Card], receive: Sequence[Card]) -> bool:
        return self._can(self.verify_draw, seat, discard, receive)

    def draw(self, seat: int, discard: Sequence[Card], receive: Sequence[Card]) -> None:
        self.verify_draw(seat, discard, receive)
        player = self._players[seat]
        reshuffle = self._draw_plan(player, discard, receive)
        thrown = set(discard)
        reshuffled: tuple[Card, ...] = ()
        if reshuffle:
            reshuffled = tuple(sorted(self._muck))
            self._stub |= self._muck
            self._muck = set()
        self._stub -= set(receive)
        self._muck |= thrown
        self._seen |= set(receive)
        player.cards = [card for card in player.cards if card not in thrown] + list(receive)
        player.drawn = len(receive)
        self._log.append(Drawing(seat, tuple(discard), tuple(receive), reshuffled))
        self._next_drawer(seat)

    # ------------------------------------------------------------------ JSON actions

    def apply(self, action: Mapping[str, Any], index: int | None = None) -> None:
        """Read one JSON action, check it and apply it.

        Every problem is reported at ``actions[index]`` (``action`` without an index), with a
        message naming the rule broken.
        """
        try:
            self._apply(action)
        except RuleError as error:
            raise reported(error, action_path(index)) from None

    def _apply(self, action: Mapping[str, Any]) -> None:
        decoded = decode(action, ACTIONS)
        seat, kind = decoded.seat, ACTION_TYPES[decoded.type]
        if kind is ActionType.FOLD:
            self.fold(seat)
        elif kind is ActionType.CHECK:
            self.check(seat)
        elif kind is ActionType.CALL:
            amount = decoded.number_or_none("amount")
            if amount is not None:
                self.verify_call(seat)
                owed = min(self._level - self._players[seat].bet, self._players[seat].stack)
                if amount != owed:
                    raise RuleError(
                        msg(
                            _("seat %(seat)s calls %(amount)s but the call is %(owed)s"),
                            seat=seat,
                            amount=money_or_repr(amount),
                            owed=Money(owed),
                        )
                    )
            self.call(seat)
        elif kind is ActionType.BET:
            self.bet(seat, decoded.number("to"))
        elif kind is ActionType.RAISE:
            self.raise_to(seat, decoded.number("to"))
        else:
            self.draw(seat, decoded.cards("discard"), decoded.cards("receive"))

    # ------------------------------------------------------------------ settlement

    def settle(self) -> Settlement:
        """The finished hand's settlement (clauses 9-10); RuleError while it is still running."""
        if not self.complete:
            raise RuleError(
                msg(
                    _("the hand is not finished: seat %(seat)s is to act (%(phase)s)"),
                    seat=str(self.to_act),
                    phase=str(self.phase),
                ),
                "actions",
            )
        reason = None
        if self.phase is Phase.SHOWDOWN:
            reason = next(op.first_reason for op in reversed(self._log) if isinstance(op, Showdown))
        return settle_hand(
            self.config,
            self.rules,
            self._players,
            dead_money=self._dead,
            reached_draw=self._reached_draw,
            showdown_order=self.showdown_order,
            showdown_reason=reason,
        )

    # ------------------------------------------------------------------ internals

    def _player(self, seat: int) -> _Player:
        try:
            return self._players[seat]
        except KeyError:
            raise RuleError(msg(_("seat %(seat)s is not dealt in"), seat=seat)) from None

    def _live(self) -> list[_Player]:
        return [player for player in self._players.values() if not player.folded]

    def _folded(self) -> set[int]:
        return {player.seat for player in self._players.values() if player.folded}

    def _contributions(self) -> dict[int, int]:
        return {player.seat: player.total for player in self._players.values()}

    @staticmethod
    def _can(verify: Any, *args: Any) -> bool:
        try:
            verify(*args)
        except RuleError:
            return False
        return True

    def _verify_turn(self, seat: int, kind: ActionType) -> None:
        verb = Message(VERBS[kind])
        if self.complete:
            raise RuleError(
                msg(
                    _("seat %(seat)s cannot %(verb)s: the hand is over (it ended at the showdown)")
                    if self.phase is Phase.SHOWDOWN
                    else _(
                        "seat %(seat)s cannot %(verb)s: the hand is over (it ended without a "
                        "showdown)"
                    ),
                    seat=seat,
                    verb=verb,
                )
            )
        player = self._player(seat)
        if seat != self.to_act:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s acted out of turn: seat %(next)s is to act (seat %(seat)s has folded)"
                    )
                    if player.folded
                    else _("seat %(seat)s acted out of turn: seat %(next)s is to act"),
                    seat=seat,
                    next=str(self.to_act),
                )
            )
        if self.phase is Phase.DRAW and kind not in (ActionType.DRAW, ActionType.FOLD):
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s cannot %(verb)s during the draw: discard and draw 0 to "
                        "%(most)s cards, or fold"
                    ),
                    seat=seat,
                    verb=verb,
                    most=HAND_SIZE,
                )
            )
        if self.phase is not Phase.DRAW and kind is ActionType.DRAW:
            raise RuleError(
                msg(
                    _("seat %(seat)s cannot draw now: the betting before the draw is not finished")
                    if self.phase is Phase.PREDRAW
                    else _("seat %(seat)s cannot draw now: the draw is over"),
                    seat=seat,
                )
            )

    # -- posting and betting rounds

    def _post(self) -> None:
        """Blinds and live posts first, then dead money; a short stack posts all-in."""
        ordered = sorted(self.config.posts, key=lambda post: post.type is PostType.DEAD)
        for post in ordered:
            player = self._players[post.seat]
            amount = min(post.amount, player.stack)
            player.stack -= amount
            if post.type.is_bet:
                player.bet += amount
                player.total += amount
            else:
                player.dead += amount
                self._dead += amount
            self._log.append(Posting(post.seat, post.type, amount, player.stack == 0))

    @property
    def _level(self) -> int:
        """The bet to match this round."""
        return self._round.level

    def _begin_betting(self, phase: Phase) -> None:
        self.phase = phase
        self._log.append(PhaseChange(phase))
        big_blind = self.config.big_blind
        structure = betting.Structure(self.config.structure)
        for player in self._players.values():
            player.acted = False
            player.acted_level = 0
        self._capped = False
        self._aggressor = None
        if phase is Phase.PREDRAW:
            self._round = betting.Round(  # the big blind is round 1's bet
                structure,
                bet=big_blind,
                last_raise=big_blind,
                level=big_blind,
                full_level=big_blind,
                bets=1,
            )
            after = self.config.big_blind_seat
        else:
            for player in self._players.values():
                player.bet = 0
            self._round = betting.Round(
                structure, bet=self.config.big_bet or big_blind, last_raise=big_blind
            )
            after = self.config.button
        self._update_cap()
        self._advance(after)

    def _needs_to_act(self, player: _Player) -> bool:
        return player.can_bet and (not player.acted or player.bet < self._level)

    def _betting_over(self) -> bool:
        live = self._live()
        if len(live) <= 1:
            return True
        able = [player for player in live if player.stack > 0]
        if not able:
            return True
        if len(able) == 1 and able[0].bet >= self._level:
            return True  # nobody left to bet against
        return not any(self._needs_to_act(player) for player in able)

    def _advance(self, after: int) -> None:
        if self._betting_over():
            self._end_betting()
            return
        for seat in clockwise_after(after, self._numbers):
            if self._needs_to_act(self._players[seat]):
                self.to_act = seat
                return
        raise AssertionError("betting is not over but nobody is to act")

    def _after_betting_action(self, seat: int) -> None:
        self._update_cap()
        self._advance(seat)

    def _end_betting(self) -> None:
        self.to_act = None
        if self.phase is Phase.PREDRAW:
            self._begin_draw()
        else:
            self._begin_showdown()

    def _heads_up(self) -> bool:
        return sum(player.can_bet for player in self._players.values()) <= 2

    def _update_cap(self) -> None:
        """Limit: a bet and ``max_raises`` raises; once capped the round stays capped."""
        if self._capped:
            return
        if self._round.capped(self.rules.max_raises) and not (
            self.rules.heads_up_uncapped and self._heads_up()
        ):
            self._capped = True

    def _reopened(self, player: _Player) -> bool:
        """May ``player`` raise: it has not acted, or the bet grew by a full raise since."""
        if not player.acted:
            return True
        return self._round.reopened(player.acted_level)

    def _raise_refusal(
        self, player: _Player, kind: ActionType = ActionType.RAISE
    ) -> Message | None:
        """Why ``player`` may not bet or raise (``kind``) now, or None if it may."""
        seat = player.seat
        verb = Message(VERBS[kind])
        if not any(other.can_bet for other in self._live() if other is not player):
            return msg(
                _(
                    "seat %(seat)s cannot %(verb)s: every other player still in is all-in; call or fold"
                ),
                seat=seat,
                verb=verb,
            )
        if player.bet + player.stack <= self._level:
            return msg(
                _("seat %(seat)s cannot %(verb)s: it has only enough chips to call"),
                seat=seat,
                verb=verb,
            )
        if self._capped:
            raises = self.rules.max_raises
            nth = (
                Message(ORDINALS[raises + 1])
                if raises + 1 in ORDINALS
                else msg(_("%(number)sth"), number=raises + 1)
            )
            return msg(
                _(
                    "seat %(seat)s: a %(nth)s raise is not allowed in limit (the round is capped "
                    "at a bet and %(raises)s raises)"
                ),
                seat=seat,
                nth=nth,
                raises=raises,
            )
        if not self._reopened(player):
            return msg(
                _(
                    "seat %(seat)s cannot %(verb)s: the betting was not reopened (the all-in since "
                    "it acted was less than a full raise); call or fold"
                ),
                seat=seat,
                verb=verb,
            )
        return None

    def _wager_bounds(self, player: _Player) -> tuple[int, int]:
        """The smallest and largest legal total for a bet or raise by ``player``."""
        return self._round.bounds(player.bet, player.stack, pot=self.pot_total)

    def _verify_wager(self, player: _Player, to: int, kind: ActionType) -> None:
        refusal = self._raise_refusal(player, kind)
        if refusal is not None:
            raise RuleError(refusal)
        seat = player.seat
        word = Message(VERBS[kind])
        said = {"seat": seat, "verb": word, "to": Money(to)}
        chip = self.rules.smallest_chip
        if to % chip:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s: %(verb)s to %(to)s is not a multiple of the smallest chip %(chip)s"
                    ),
                    chip=Money(chip),
                    **said,
                )
            )
        most = player.bet + player.stack
        low, high = self._wager_bounds(player)
        if to > most:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s: %(verb)s to %(to)s is more than the seat has: %(most)s at "
                        "most (all-in)"
                    ),
                    most=Money(most),
                    **said,
                )
            )
        if self.config.structure is Structure.LIMIT:
            if to != low:
                if low == most and low < self._round.least():
                    raise RuleError(
                        msg(
                            _(
                                "seat %(seat)s: %(verb)s to %(to)s is not allowed: short of a full "
                                "limit %(verb)s, the seat may only go all-in to %(most)s"
                            ),
                            most=Money(most),
                            **said,
                        )
                    )
                raise RuleError(
                    msg(
                        _(
                            "seat %(seat)s: %(verb)s to %(to)s is not the limit %(verb)s: in limit "
                            "the %(verb)s is to exactly %(low)s (the small bet is %(bet)s)"
                        )
                        if self.phase is Phase.PREDRAW
                        else _(
                            "seat %(seat)s: %(verb)s to %(to)s is not the limit %(verb)s: in limit "
                            "the %(verb)s is to exactly %(low)s (the big bet is %(bet)s)"
                        ),
                        low=Money(low),
                        bet=Money(self._round.bet),
                        **said,
                    )
                )
            return
        least = self._round.least()
        if to > high:
            raise RuleError(
                msg(
                    _("seat %(seat)s: %(verb)s to %(to)s is over the pot limit %(high)s"),
                    high=Money(high),
                    **said,
                )
            )
        if to < least and to != most:
            if kind is ActionType.BET:
                template = (
                    _(
                        "seat %(seat)s: %(verb)s to %(to)s is below the minimum bet %(least)s; "
                        "short of that only an all-in (%(most)s) is allowed"
                    )
                    if most < least
                    else _("seat %(seat)s: %(verb)s to %(to)s is below the minimum bet %(least)s")
                )
            else:
                template = (
                    _(
                        "seat %(seat)s: %(verb)s to %(to)s is below the minimum raise to "
                        "%(least)s; short of that only an all-in (%(most)s) is allowed"
                    )
                    if most < least
                    else _(
                        "seat %(seat)s: %(verb)s to %(to)s is below the minimum raise to %(least)s"
                    )
                )
            raise RuleError(msg(template, least=Money(least), most=Money(most), **said))

    def _put(self, player: _Player, to: int) -> None:
        added = to - player.bet
        player.stack -= added
        player.bet = to
        player.total += added

    def _wager(self, player: _Player, to: int, kind: ActionType) -> None:
        self._put(player, to)
        full = self._round.wager(to)
        player.acted = True
        player.acted_level = to
        self._aggressor = player.seat
        all_in = player.stack == 0
        op: Operation
        if kind is ActionType.BET:
            op = Betting(player.seat, to, all_in, full)
        else:
            op = Raising(player.seat, to, all_in, full)
        self._log.append(op)
        self._after_betting_action(player.seat)

    # -- the draw

    def _begin_draw(self) -> None:
        self.phase = Phase.DRAW
        self._reached_draw = True
        self._log.append(PhaseChange(Phase.DRAW))
        for player in self._players.values():
            player.bet = 0
        self._next_drawer(self.config.button)

    def _next_drawer(self, after: int) -> None:
        for seat in clockwise_after(after, self._numbers):
            player = self._players[seat]
            if not player.folded and player.drawn is None:
                self.to_act = seat
                return
        self.to_act = None
        self._begin_betting(Phase.POSTDRAW)

    def _draw_plan(self, player: _Player, discard: Sequence[Card], receive: Sequence[Card]) -> bool:
        """Check a draw (clauses 7-8); True if the stub must be reshuffled to serve it."""
        seat = player.seat
        if len(discard) > HAND_SIZE:
            raise RuleError(
                msg(
                    _("seat %(seat)s may draw at most %(most)s cards, not %(count)s"),
                    seat=seat,
                    most=HAND_SIZE,
                    count=len(discard),
                )
            )
        if len(receive) != len(discard):
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s discards %(discarded)s but receives %(received)s: a "
                        "player receives as many cards as it throws away"
                    ),
                    seat=seat,
                    discarded=len(discard),
                    received=len(receive),
                )
            )
        for cards, twice in (
            (discard, _("seat %(seat)s: %(card)s is discarded twice")),
            (receive, _("seat %(seat)s: %(card)s is received twice")),
        ):
            if len(set(cards)) == len(cards):
                continue  # no card twice
            repeated = sorted({card for card in cards if list(cards).count(card) > 1})
            if repeated:
                raise RuleError(msg(twice, seat=seat, card=str(repeated[0])))
        for card in discard:
            if card not in player.cards:
                raise RuleError(
                    msg(_("%(card)s is not in seat %(seat)s's hand"), card=str(card), seat=seat)
                )
        deck = DECK_SETS[self.with_sixes]
        from_pool: list[Card] = []
        for card in receive:
            if card in self._stub:
                continue
            if card not in deck:
                raise RuleError(
                    msg(
                        _("seat %(seat)s cannot receive %(card)s: not in %(deck)s"),
                        seat=seat,
                        card=str(card),
                        deck=deck_words(self.with_sixes),
                    )
                )
            if card in self._muck:
                from_pool.append(card)
                continue
            if card in discard:
                raise RuleError(
                    msg(
                        _(
                            "%(card)s was already seen this hand: seat %(seat)s's own discards "
                            "are never shuffled back"
                        ),
                        card=str(card),
                        seat=seat,
                    )
                )
            holder = next(
                (other.seat for other in self._players.values() if card in other.cards), None
            )
            if holder is not None:
                raise RuleError(
                    msg(
                        _("%(card)s was already seen this hand (seat %(seat)s holds it)"),
                        card=str(card),
                        seat=holder,
                    )
                )
            raise RuleError(msg(_("%(card)s was already seen this hand"), card=str(card)))
        stub = len(self._stub)
        allowed = max(0, len(receive) - (stub - 1))
        if from_pool and not allowed:
            raise RuleError(
                msg(
                    _(
                        "%(card)s was already seen this hand: folded cards and discards are "
                        "shuffled back only when the stub runs out (%(stub)s left, the last "
                        "never dealt)"
                    ),
                    card=str(from_pool[0]),
                    stub=stub,
                )
            )
        if len(from_pool) > allowed:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s receives %(count)s reshuffled cards (%(cards)s) but only "
                        "%(allowed)s can be: the stub's other %(others)s cards are dealt first"
                    ),
                    seat=seat,
                    count=len(from_pool),
                    cards=", ".join(str(card) for card in from_pool),
                    allowed=allowed,
                    others=stub - 1,
                )
            )
        if allowed and allowed > len(self._muck):
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s cannot draw %(count)s: only %(most)s cards can be dealt "
                        "even after a reshuffle"
                    ),
                    seat=seat,
                    count=len(receive),
                    most=stub - 1 + len(self._muck),
                )
            )
        return allowed > 0

    # -- the end

    def _finish_uncontested(self) -> None:
        self.phase = Phase.COMPLETE
        self.to_act = None
        self._log.append(PhaseChange(Phase.COMPLETE))

    def _begin_showdown(self) -> None:
        self.phase = Phase.SHOWDOWN
        self.to_act = None
        self._log.append(PhaseChange(Phase.SHOWDOWN))
        live = [player.seat for player in self._live()]
        aggressor = self._aggressor
        if aggressor is not None and aggressor in live:
            first = aggressor
            reason = Message(_("last to bet or raise after the draw"))
        else:
            first = clockwise_after(self.config.button, live)[0]
            reason = Message(_("nobody bet after the draw: first player left of the button"))
        index = live.index(first)
        order = tuple(live[index:] + live[:index])
        self.showdown_order = order
        self._log.append(Showdown(order, reason))


# --------------------------------------------------------------------------- entry points


def replay(
    record: Mapping[str, Any], rules: DrawRules | Mapping[str, Any] | None = None
) -> DrawHand:
    """Rebuild a hand from its record: the configuration, then every action in order.

    The first illegal action raises :class:`RuleError` at ``actions[i]``.
    """
    effective = coerce_rules(rules)
    config = parse_config(record, effective)
    hand = DrawHand(config, effective)
    actions = record.get("actions", [])
    if isinstance(actions, str) or not isinstance(actions, Sequence):
        raise RuleError(msg(_("actions must be a list of actions")), "actions")
    for index, action in enumerate(actions):
        hand.apply(action, index)
    return hand


def evaluate(
    record: Mapping[str, Any], rules: DrawRules | Mapping[str, Any] | None = None
) -> Settlement:
    """Replay a complete hand record and settle it; an unfinished hand is a RuleError."""
    return replay(record, rules).settle()
