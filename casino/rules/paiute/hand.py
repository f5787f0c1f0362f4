"""Paiute: one hand as a state object moving through explicit phases.

The dealer enters the deal (:class:`~casino.rules.paiute.config.PaiuteConfig`) and then
records each turn as it is seen: the card drawn and where from, the card discarded, or the
call. :class:`PaiuteHand` checks every step against the rules as implemented (``docs/rules/
paiute.md``, clause numbers below) and appends a frozen operation to :attr:`PaiuteHand.log`.
Each action is a triple: ``verify_x`` raises :class:`RuleError`, ``can_x`` returns a bool,
``x`` applies it. Automatic steps (the stock reshuffled, the final turns, phase changes) are
logged too.

Phases: ``play`` (turns clockwise from the dealer's left; each turn is a ``draw`` step then a
``discard`` step, which is a discard or a call) -> ``final_turns`` (after a call by a player
who is not the dealer: one more turn each for the players after the caller up to and
including the dealer) -> ``complete``. A call by the dealer, in play or on the final turn,
ends the hand at once.

What the stock may give is derived from what has been seen: until the first reshuffle it is
every card not dealt, not in the discard pile and not the upcard, the upcard itself being
the stock's last card (clause 2); after a reshuffle it is exactly the discards shuffled
(clause 4). So no card is dealt twice, except a discard coming round again after a reshuffle.

How the hand is shown (:meth:`PaiuteHand.view`, :meth:`PaiuteHand.presentation`) is built in
:mod:`~casino.rules.paiute.view`; :func:`replay_actions` rebuilds a hand from its actions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from casino.rules.actions import decode
from casino.rules.cards import Card, standard_deck_set
from casino.rules.errors import RuleError, action_path, reported, reported_at
from casino.rules.messages import Message, _, msg
from casino.rules.paiute.config import PaiuteConfig, check_config
from casino.rules.paiute.ops import (
    ACTION_TYPES,
    ACTIONS,
    ActionType,
    Calling,
    Discarding,
    Drawing,
    FinalTurns,
    Operation,
    Phase,
    PhaseChange,
    Reshuffling,
    Source,
    Step,
)
from casino.rules.paiute.rules import PaiuteRules, coerce_rules
from casino.rules.paiute.settle import cards_text, settle_holdings
from casino.rules.paiute.values import Combination, best_combination
from casino.rules.paiute.view import card_text, hand_presentation, hand_view
from casino.rules.presentation import Presentation
from casino.rules.rule_titles import paiute_rule
from casino.rules.settlement import Settlement

# Enum members read in the hot paths, each once: on Python 3.11 a member read through its
# class (``Phase.PLAY``) goes through ``EnumType.__getattr__``'s hook, several times a global.
_ACTIONTYPE_DISCARD = ActionType.DISCARD
_ACTIONTYPE_DRAW = ActionType.DRAW
_PHASE_COMPLETE = Phase.COMPLETE
_PHASE_FINAL_TURNS = Phase.FINAL_TURNS
_PHASE_PLAY = Phase.PLAY
_SOURCE_DISCARD = Source.DISCARD
_SOURCE_STOCK = Source.STOCK
_STEP_DISCARD = Step.DISCARD
_STEP_DRAW = Step.DRAW


class PaiuteHand:
    """One hand of Paiute, live or replayed."""

    def __init__(self, config: PaiuteConfig, rules: PaiuteRules | None = None) -> None:
        self.rules = rules or PaiuteRules()
        check_config(config, self.rules)
        self.config = config
        self.order: tuple[int, ...] = config.play_order
        #: Each seat's left-hand neighbour in play (whose turn follows).
        self._next_seat = dict(zip(self.order, self.order[1:] + self.order[:1], strict=True))
        self.dealer = config.dealer
        self.wild_rank = config.upcard.rank
        self._held: dict[int, list[Card]] = {seat: list(config.hands[seat]) for seat in self.order}
        self._pile: list[Card] = []
        if config.first_discard is not None:
            self._pile.append(config.first_discard)
        seen = {card for cards in self._held.values() for card in cards}
        seen.update(self._pile)
        seen.add(config.upcard)
        self._pool: set[Card] = set(standard_deck_set()) - seen
        self._bottom: Card | None = config.upcard
        self._taken: Drawing | None = None
        self._laid: dict[int, Combination] = {}
        #: The best combination of each holding looked at in this hand (a call looks at the
        #: caller's several times, the settlement again).
        self._combinations: dict[tuple[Card, ...], Combination | None] = {}
        self._callers: list[int] = []
        self._final: list[int] = []
        self._log: list[Operation] = [PhaseChange(_PHASE_PLAY)]
        self.phase = _PHASE_PLAY
        self.step: Step | None = _STEP_DRAW
        self.to_act: int | None = self.order[0]

    @classmethod
    def from_actions(
        cls,
        config: PaiuteConfig,
        rules: PaiuteRules | None,
        actions: Sequence[Mapping[str, Any]],
    ) -> PaiuteHand:
        """Rebuild a live hand from its configuration and its actions (``actions[i]`` paths)."""
        hand = cls(config, rules)
        for index, action in enumerate(actions):
            hand.apply(action, index)
        return hand

    # ------------------------------------------------------------------ reading the state

    @property
    def log(self) -> tuple[Operation, ...]:
        return tuple(self._log)

    @property
    def complete(self) -> bool:
        return self.phase is _PHASE_COMPLETE

    @property
    def caller(self) -> int | None:
        """The seat that called first (clause 5)."""
        return self._callers[0] if self._callers else None

    @property
    def callers(self) -> tuple[int, ...]:
        """Every seat that called: the caller, then any who called on a final turn."""
        return tuple(self._callers)

    @property
    def final_turns(self) -> tuple[int, ...]:
        """Seats still to finish their final turn (clause 6), the one acting first."""
        return tuple(self._final)

    @property
    def pot(self) -> int:
        return self.config.pot

    @property
    def stock_count(self) -> int:
        return len(self._pool) + (self._bottom is not None)

    @property
    def upcard_in_stock(self) -> bool:
        """The upcard still lies face up at the bottom of the stock (clause 2)."""
        return self._bottom is not None

    @property
    def top_discard(self) -> Card | None:
        return self._pile[-1] if self._pile else None

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom first."""
        return tuple(self._pile)

    @property
    def drawn(self) -> Drawing | None:
        """The card taken this turn, while the player is to discard or call."""
        return self._taken

    def holding(self, seat: int) -> tuple[Card, ...]:
        """A seat's cards (5, or 6 while discarding or for a 6-card combination laid down)."""
        try:
            return tuple(self._held[seat])
        except KeyError:
            raise RuleError(msg(_("seat %(seat)s is not dealt in this hand"), seat=seat)) from None

    def laid_down(self, seat: int) -> Combination | None:
        """The combination a seat laid down when it called."""
        return self._laid.get(seat)

    def best(self, seat: int) -> Combination | None:
        """The best winning combination a seat's cards make now."""
        return self._best_of(self.holding(seat))

    def _best_of(self, cards: Sequence[Card]) -> Combination | None:
        """``best_combination(cards, self.wild_rank)``, worked out once a holding."""
        holding = tuple(cards)
        found: Combination | None = self._combinations.get(holding, _UNKNOWN)
        if found is _UNKNOWN:
            found = self._combinations[holding] = best_combination(holding, self.wild_rank)
        return found

    def stock_cards(self) -> list[Card]:
        """The cards the next stock draw may be: the upcard alone when it is the last card."""
        if not self._pool and self._bottom is not None:
            return [self._bottom]
        return sorted(self._pool)

    def sources(self) -> list[str]:
        """Where the player to act may draw from (the stock is never empty at a draw)."""
        if self.complete or self.step is not _STEP_DRAW:
            return []
        sources = [str(_SOURCE_STOCK)]
        if self._pile:
            sources.append(str(_SOURCE_DISCARD))
        return sources

    def discard_options(self, seat: int) -> list[Card]:
        """The cards the acting seat may discard: any but one taken from the discard pile."""
        taken = self._taken
        banned = taken.card if taken is not None and taken.source is _SOURCE_DISCARD else None
        return [card for card in self._held[seat] if card != banned]

    def call_discards(self, seat: int) -> list[Card | None]:
        """How the acting seat may call: ``[None]`` with a 6-card combination (nothing is
        discarded), else the cards whose discard leaves the best combination (clause 5)."""
        if self.complete or self.step is not _STEP_DISCARD or seat != self.to_act:
            return []
        best = self.best(seat)
        if best is None:
            return []
        if best.size == 6:
            return [None]
        holding = self._held[seat]
        out: list[Card | None] = []
        for card in self.discard_options(seat):
            rest = [other for other in holding if other != card]
            if self._best_of(rest) == best:
                out.append(card)
        return out

    @property
    def may_call(self) -> bool:
        return self.to_act is not None and bool(self.call_discards(self.to_act))

    # ------------------------------------------------------------------ legal actions, view

    def legal_actions(self) -> list[dict[str, Any]]:
        """What the seat to act may do now; empty once the hand is over."""
        seat = self.to_act
        if seat is None or self.complete:
            return []
        if self.step is _STEP_DRAW:
            forced = self.stock_cards()
            return [
                {
                    "type": "draw",
                    "seat": seat,
                    "sources": self.sources(),
                    "top_discard": card_text(self.top_discard),
                    "stock_card": str(forced[0]) if len(forced) == 1 else None,
                }
            ]
        actions: list[dict[str, Any]] = [
            {
                "type": "discard",
                "seat": seat,
                "cards": [str(card) for card in self.discard_options(seat)],
            }
        ]
        discards = self.call_discards(seat)
        if discards:
            best = self.best(seat)
            assert best is not None
            actions.append(
                {
                    "type": "call",
                    "seat": seat,
                    "discards": [card_text(card) for card in discards],
                    "combination": best.description,
                }
            )
        return actions

    def view(self) -> dict[str, Any]:
        """The hand as the dealer tablet shows it, JSON-ready (every card is shown):
        :func:`~casino.rules.paiute.view.hand_view`."""
        return hand_view(self)

    def presentation(self) -> Presentation:
        """The hand as the table shows it, in the shape every game gives
        (:mod:`casino.rules.presentation`): :func:`~casino.rules.paiute.view.hand_presentation`."""
        return hand_presentation(self)

    def actions(self) -> list[dict[str, Any]]:
        """The live actions so far (what :meth:`from_actions` replays)."""
        return [action for op in self._log if (action := op.to_action()) is not None]

    def to_record(self) -> dict[str, Any]:
        """The finished hand as an evaluate record: each seat's final cards and the caller."""
        if not self.complete:
            raise RuleError(self._not_finished(), "actions")
        return {
            "dealer": self.dealer,
            "ante": self.config.ante,
            "wild_card": str(self.config.upcard),
            "players": [
                {"seat": seat, "cards": [str(card) for card in self._held[seat]]}
                for seat in self.order
            ],
            "caller": self.caller,
        }

    def settle(self) -> Settlement:
        """The finished hand's settlement (clause 8); RuleError while it runs."""
        if not self.complete:
            raise RuleError(self._not_finished(), "actions")
        caller = self.caller
        assert caller is not None
        return settle_holdings(
            rules=self.rules,
            dealer=self.dealer,
            players=self.order,
            ante=self.config.ante,
            upcard=self.config.upcard,
            holdings={seat: tuple(cards) for seat, cards in self._held.items()},
            caller=caller,
            best_of=self._best_of,
        )

    # ------------------------------------------------------------------ draw

    def verify_draw(self, seat: int, source: Source, card: Card | None = None) -> None:
        """Clause 3: the top of the stock or of the discard pile; clauses 2 and 4 decide
        which cards the stock can give."""
        self._verify_turn(seat, _("draw"))
        if self.step is not _STEP_DRAW:
            assert self._taken is not None
            raise RuleError(
                msg(
                    _("seat %(seat)s already drew %(card)s this turn: discard a card or call"),
                    seat=seat,
                    card=str(self._taken.card),
                )
            )
        if source is _SOURCE_DISCARD:
            top = self.top_discard
            if top is None:
                raise RuleError(
                    msg(
                        _(
                            "seat %(seat)s cannot draw from the discard pile: it is empty, so "
                            "the card comes from the stock (%(rule)s)"
                        ),
                        seat=seat,
                        rule=paiute_rule(3),
                    )
                )
            if card is not None and card != top:
                raise RuleError(
                    msg(
                        _(
                            "seat %(seat)s: the top of the discard pile is %(top)s, not "
                            "%(card)s; only the top discard may be taken (%(rule)s)"
                        ),
                        seat=seat,
                        top=str(top),
                        card=str(card),
                        rule=paiute_rule(3),
                    )
                )
            return
        if card is None:
            raise RuleError(
                msg(
                    _("seat %(seat)s: a draw from the stock needs the card drawn (such as 'Qh')"),
                    seat=seat,
                )
            )
        self._verify_stock_card(card)

    def can_draw(self, seat: int, source: Source, card: Card | None = None) -> bool:
        return _can(self.verify_draw, seat, source, card)

    def draw(self, seat: int, source: Source, card: Card | None = None) -> None:
        self.verify_draw(seat, source, card)
        if source is _SOURCE_DISCARD:
            taken = self._pile.pop()
        else:
            assert card is not None
            taken = card
            pool = self._pool
            left = len(pool)
            pool.discard(card)
            if len(pool) == left:  # not in the pool: the upcard, the stock's last card
                self._bottom = None
        self._held[seat].append(taken)
        self._taken = Drawing(seat, source, taken)
        self._log.append(self._taken)
        self.step = _STEP_DISCARD

    # ------------------------------------------------------------------ discard

    def verify_discard(self, seat: int, card: Card) -> None:
        """Clause 3: any card of the six, but not the one just taken from the discard pile."""
        self._verify_turn(seat, _("discard"))
        if self.step is not _STEP_DISCARD:
            raise RuleError(
                msg(
                    _("seat %(seat)s must draw a card before discarding (%(rule)s)"),
                    seat=seat,
                    rule=paiute_rule(3),
                )
            )
        if not _holds(self._held[seat], card):
            raise RuleError(_not_held(seat, card, self._held[seat]))
        taken = self._taken
        if taken is not None and taken.source is _SOURCE_DISCARD and taken.card == card:
            raise RuleError(_taken_back(seat, card))

    def can_discard(self, seat: int, card: Card) -> bool:
        return _can(self.verify_discard, seat, card)

    def discard(self, seat: int, card: Card) -> None:
        self.verify_discard(seat, card)
        _remove(self._held[seat], card)
        self._pile.append(card)
        self._log.append(Discarding(seat, card))
        self._end_turn()

    # ------------------------------------------------------------------ call

    def verify_call(self, seat: int, discard: Card | None = None) -> None:
        """Clause 5: after drawing, with a winning combination in the six cards; the sixth card
        is discarded for a 5-card combination (leaving the best the six make), nothing for a
        6-card combination."""
        self._verify_turn(seat, _("call"))
        if self.step is not _STEP_DISCARD:
            raise RuleError(
                msg(
                    _("seat %(seat)s calls after drawing: take a card first (%(rule)s)"),
                    seat=seat,
                    rule=paiute_rule(5),
                )
            )
        holding = self._held[seat]
        best = self.best(seat)
        if best is None:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s cannot call: %(cards)s make no winning combination (%(rule)s)"
                    ),
                    seat=seat,
                    cards=cards_text(holding),
                    rule=paiute_rule(7),
                )
            )
        if best.size == 6:
            if discard is not None:
                raise RuleError(
                    msg(
                        _(
                            "seat %(seat)s calls with %(combination)s, which uses all six "
                            "cards: nothing is discarded (%(rule)s)"
                        ),
                        seat=seat,
                        combination=best.description,
                        rule=paiute_rule(5),
                    )
                )
            return
        if discard is None:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s calls with %(combination)s, a 5-card combination: name "
                        "the sixth card to discard (%(rule)s)"
                    ),
                    seat=seat,
                    combination=best.description,
                    rule=paiute_rule(5),
                )
            )
        if discard not in holding:
            raise RuleError(_not_held(seat, discard, holding))
        allowed = self.call_discards(seat)
        if discard in allowed:
            return
        taken = self._taken
        if taken is not None and taken.source is _SOURCE_DISCARD and taken.card == discard:
            if not allowed:
                raise RuleError(
                    msg(
                        _(
                            "seat %(seat)s cannot call with %(combination)s: the card it leaves "
                            "out is %(card)s, just taken from the discard pile, which may not be "
                            "discarded at once (%(rule)s)"
                        ),
                        seat=seat,
                        combination=best.description,
                        card=str(discard),
                        rule=paiute_rule(3),
                    )
                )
            raise RuleError(_taken_back(seat, discard))
        rest = [card for card in holding if card != discard]
        kept = self._best_of(rest)
        params = {
            "seat": seat,
            "card": str(discard),
            "combination": best.description,
            "allowed": " or ".join(card_text(card) or "" for card in allowed),
            "rule": paiute_rule(5),
        }
        if kept is not None:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s: discarding %(card)s leaves %(kept)s; the six cards make "
                        "%(combination)s, so discard %(allowed)s (%(rule)s)"
                    ),
                    kept=kept.description,
                    **params,
                )
            )
        raise RuleError(
            msg(
                _(
                    "seat %(seat)s: discarding %(card)s leaves no winning combination; the six "
                    "cards make %(combination)s, so discard %(allowed)s (%(rule)s)"
                ),
                **params,
            )
        )

    def can_call(self, seat: int, discard: Card | None = None) -> bool:
        return _can(self.verify_call, seat, discard)

    def call(self, seat: int, discard: Card | None = None) -> None:
        self.verify_call(seat, discard)
        if discard is not None:
            self._held[seat].remove(discard)
            self._pile.append(discard)
        combination = self.best(seat)
        assert combination is not None
        final = self.phase is _PHASE_FINAL_TURNS
        self._laid[seat] = combination
        self._callers.append(seat)
        self._log.append(Calling(seat, discard, combination.description, final))
        if final:
            self._end_turn()
        elif seat == self.dealer:
            self._finish()
        else:
            after = self.order[self.order.index(seat) + 1 :]
            self._final = list(after)
            self._log.append(FinalTurns(seat, after))
            self._set_phase(_PHASE_FINAL_TURNS)
            self._start_turn(after[0])

    # ------------------------------------------------------------------ JSON actions

    def apply(self, action: Mapping[str, Any], index: int | None = None) -> None:
        """Read one JSON action, check it and apply it; problems at ``actions[index]``."""
        try:  # apply_at(action, action_path(index)), the path made only for a problem
            self._apply(action)
        except RuleError as error:
            raise reported(error, action_path(index)) from None

    def apply_at(self, action: Mapping[str, Any], path: str) -> None:
        with reported_at(path):
            self._apply(action)

    def _apply(self, action: Mapping[str, Any]) -> None:
        decoded = decode(action, ACTIONS)
        # What decode gives (a seat, a source among Source's, a card where required), read
        # from its values without an accessor each.
        values: Any = decoded.values
        seat, kind = values["seat"], ACTION_TYPES[decoded.type]
        if kind is _ACTIONTYPE_DRAW:
            self.draw(seat, _SOURCES[values["source"]], values["card"])
        elif kind is _ACTIONTYPE_DISCARD:
            self.discard(seat, values["card"])
        else:
            self.call(seat, values["discard"])

    # ------------------------------------------------------------------ internals

    def _not_finished(self) -> str:
        return msg(
            _("the hand is not finished: %(phase)s (seat %(seat)s is to act)"),
            phase=Message(self.phase.words),
            seat=str(self.to_act),
        )

    def _verify_turn(self, seat: int, verb: str) -> None:
        if self.complete:
            why = Message(
                _("the dealer called")
                if self.caller == self.dealer
                else _("the final turns are over")
            )
            raise RuleError(
                msg(
                    _("seat %(seat)s cannot %(verb)s: the hand is over (%(why)s, %(rule)s)"),
                    seat=seat,
                    verb=Message(verb),
                    why=why,
                    rule=paiute_rule(6),
                )
            )
        if seat not in self._held:
            raise RuleError(msg(_("seat %(seat)s is not dealt in this hand"), seat=seat))
        if seat != self.to_act:
            if self.phase is _PHASE_FINAL_TURNS and seat not in self._final:
                raise RuleError(
                    msg(
                        _(
                            "seat %(seat)s cannot %(verb)s: after seat %(caller)s's call only "
                            "the players after the caller up to and including the dealer have "
                            "one more turn, and seat %(next)s is to act (%(rule)s)"
                        ),
                        seat=seat,
                        verb=Message(verb),
                        caller=str(self.caller),
                        next=str(self.to_act),
                        rule=paiute_rule(6),
                    )
                )
            raise RuleError(
                msg(
                    _("seat %(seat)s acted out of turn: seat %(next)s is to act"),
                    seat=seat,
                    next=str(self.to_act),
                )
            )

    def _verify_stock_card(self, card: Card) -> None:
        if card in self._pool:
            return
        bottom = self._bottom
        if bottom is not None and not self._pool:
            if card == bottom:
                return
            raise RuleError(
                msg(
                    _("the stock's last card is the upcard %(upcard)s (%(rule)s), not %(card)s"),
                    upcard=str(bottom),
                    rule=paiute_rule(2),
                    card=str(card),
                )
            )
        if card == bottom:
            raise RuleError(
                msg(
                    _(
                        "%(card)s is the upcard at the bottom of the stock: it is drawn only as "
                        "the stock's last card (%(left)s cards are left) (%(rule)s)"
                    ),
                    card=str(card),
                    left=self.stock_count,
                    rule=paiute_rule(2),
                )
            )
        for seat, cards in self._held.items():
            if card in cards:
                raise RuleError(
                    msg(
                        _("%(card)s cannot come from the stock: seat %(seat)s holds it"),
                        card=str(card),
                        seat=seat,
                    )
                )
        if card in self._pile:
            raise RuleError(
                msg(
                    _("%(card)s cannot come from the stock: it is the top discard")
                    if card == self._pile[-1]
                    else _("%(card)s cannot come from the stock: it is in the discard pile"),
                    card=str(card),
                )
            )
        raise RuleError(  # pragma: no cover - every card is held, discarded or in the stock
            msg(_("%(card)s cannot come from the stock"), card=str(card))
        )

    def _start_turn(self, seat: int) -> None:
        self.to_act = seat
        self.step = _STEP_DRAW
        self._taken = None
        if not self._pool and self._bottom is None:
            self._reshuffle()

    def _end_turn(self) -> None:
        seat = self.to_act
        assert seat is not None
        if self.phase is _PHASE_FINAL_TURNS:
            self._final.pop(0)
            if not self._final:
                self._finish()
                return
            self._start_turn(self._final[0])
        else:
            self._start_turn(self._next_seat[seat])

    def _reshuffle(self) -> None:
        """Clause 4: the top discard is set aside, the rest shuffled as the new stock."""
        top = self._pile[-1]
        stock = tuple(self._pile[:-1])
        self._pool = set(stock)
        self._pile = [top]
        self._log.append(Reshuffling(tuple(sorted(stock)), top))

    def _set_phase(self, phase: Phase) -> None:
        self.phase = phase
        self._log.append(PhaseChange(phase))

    def _finish(self) -> None:
        self._set_phase(_PHASE_COMPLETE)
        self.to_act = None
        self.step = None
        self._taken = None
        self._final = []


# --------------------------------------------------------------------------- helpers

_UNKNOWN: Any = object()

#: Each source by its JSON name (``Source(name)`` without the Enum's call).
_SOURCES: dict[str, Source] = {str(source): source for source in Source}


def _holds(cards: list[Card], card: Card) -> bool:
    """``card in cards``, looking for the very object first: the cards of a hand are the
    deck's own objects (:func:`~casino.rules.cards.parse_card`'s), so comparing each by
    value (a call each) is nearly never needed."""
    for held in cards:
        if held is card:
            return True
    return card in cards


def _remove(cards: list[Card], card: Card) -> None:
    """``cards.remove(card)``: the first card equal to ``card`` (a hand holds each card
    once, so the very object when it is there)."""
    for index, held in enumerate(cards):
        if held is card:
            del cards[index]
            return
    cards.remove(card)


def _not_held(seat: int, card: Card, holding: Sequence[Card]) -> Message:
    return msg(
        _("seat %(seat)s does not hold %(card)s (it holds %(cards)s)"),
        seat=seat,
        card=str(card),
        cards=cards_text(holding),
    )


def _taken_back(seat: int, card: Card) -> Message:
    """Clause 3: the card just taken from the discard pile is not discarded at once."""
    return msg(
        _(
            "seat %(seat)s took %(card)s from the discard pile and must discard a different "
            "card (%(rule)s)"
        ),
        seat=seat,
        card=str(card),
        rule=paiute_rule(3),
    )


def _can(verify: Callable[..., None], *args: Any) -> bool:
    try:
        verify(*args)
    except RuleError:
        return False
    return True


def replay_actions(
    config: PaiuteConfig | Mapping[str, Any],
    rules: PaiuteRules | Mapping[str, Any] | None,
    actions: Sequence[Mapping[str, Any]],
) -> PaiuteHand:
    """Rebuild a live hand from its configuration and its actions; the first illegal action
    raises :class:`RuleError` at ``actions[i]``. The hand need not be finished."""
    effective = coerce_rules(rules)
    if not isinstance(config, PaiuteConfig):
        config = PaiuteConfig.from_dict(config)
    if isinstance(actions, str | bytes) or not isinstance(actions, Sequence):
        raise RuleError(msg(_("actions must be a list")), "actions")
    return PaiuteHand.from_actions(config, effective, actions)


__all__ = ["PaiuteHand", "replay_actions"]
