"""Paiute: how a hand is shown, from what the hand says of itself.

:func:`hand_view` is the hand's ``view()`` (every card is shown: the dealer enters them all),
:func:`hand_presentation` its ``presentation()``: the shape every game gives the dealer's
tablet (:mod:`casino.rules.presentation`), with ids for words:

* each seat in play order with its cards (held in hand, so face down, until its call lays
  them down or the showdown shows them), its ``ante`` wager, the combination it called as
  ``hand`` (everyone's best combination at the showdown), its status (``to_act``, ``in``;
  after a call ``called`` for the callers and ``waiting`` for the seats still to have their
  final turn; ``won``, ``lost`` or ``push`` once the hand is complete) and badges (``dealer``,
  and ``caller`` for the seat that called first);
* for the table: the phase (``play``, ``final_turns``, ``complete``), the pot of antes (the
  seats that can win it: every player, then the winners), the upcard among the up cards while
  it lies at the bottom of the stock, the wild rank, the top discard, the cards left in the
  stock, and ``facts``: the upcard (``wild_card``), the turn's ``step`` (``draw`` or
  ``discard``), the card just ``drawn`` and where from (``drawn_from``), ``called_by`` (the
  first caller), every caller (``callers``), the seats still to have a final turn
  (``final_turns``) and how many (``turns_left``, None before the call).

The functions read the hand through :class:`ShownHand` (what
:class:`~casino.rules.paiute.hand.PaiuteHand` gives), so this module does not import the hand.
"""

from __future__ import annotations

from typing import Any, Protocol

from casino.rules.cards import Card
from casino.rules.paiute.config import PaiuteConfig
from casino.rules.paiute.ops import GAME_CODE, Drawing, Phase, Step
from casino.rules.paiute.values import Combination
from casino.rules.presentation import Card as Shown
from casino.rules.presentation import Party, Pot, Presentation, Wager, cards
from casino.rules.settlement import Outcome, Settlement

#: The seat's status once the hand is complete, by its ``pot`` line's outcome.
OUTCOME_STATUS = {Outcome.WIN: "won", Outcome.LOSE: "lost", Outcome.PUSH: "push"}


class ShownHand(Protocol):
    """What the view reads of a hand (:class:`~casino.rules.paiute.hand.PaiuteHand`)."""

    @property
    def config(self) -> PaiuteConfig: ...

    @property
    def order(self) -> tuple[int, ...]: ...

    @property
    def dealer(self) -> int: ...

    @property
    def phase(self) -> Phase: ...

    @property
    def step(self) -> Step | None: ...

    @property
    def to_act(self) -> int | None: ...

    @property
    def complete(self) -> bool: ...

    @property
    def may_call(self) -> bool: ...

    @property
    def drawn(self) -> Drawing | None: ...

    @property
    def caller(self) -> int | None: ...

    @property
    def callers(self) -> tuple[int, ...]: ...

    @property
    def final_turns(self) -> tuple[int, ...]: ...

    @property
    def pot(self) -> int: ...

    @property
    def stock_count(self) -> int: ...

    @property
    def upcard_in_stock(self) -> bool: ...

    @property
    def top_discard(self) -> Card | None: ...

    @property
    def discard_pile(self) -> tuple[Card, ...]: ...

    def holding(self, seat: int) -> tuple[Card, ...]: ...

    def laid_down(self, seat: int) -> Combination | None: ...

    def best(self, seat: int) -> Combination | None: ...

    def stock_cards(self) -> list[Card]: ...

    def sources(self) -> list[str]: ...

    def legal_actions(self) -> list[dict[str, Any]]: ...

    def settle(self) -> Settlement: ...


def card_text(card: Card | None) -> str | None:
    return str(card) if card is not None else None


def hand_view(hand: ShownHand) -> dict[str, Any]:
    """The hand as the dealer tablet shows it, JSON-ready (every card is shown)."""
    seats = []
    for seat in hand.order:
        laid = hand.laid_down(seat)
        best = hand.best(seat)
        held = hand.holding(seat)
        seats.append(
            {
                "seat": seat,
                "dealer": seat == hand.dealer,
                "count": len(held),
                "cards": [str(card) for card in held],
                "called": laid is not None,
                "combination": laid.description if laid is not None else None,
                "best": best.description if best is not None else None,
            }
        )
    taken = hand.drawn
    forced = hand.stock_cards()
    return {
        "game": GAME_CODE,
        "phase": str(hand.phase),
        "step": str(hand.step) if hand.step is not None else None,
        "to_act": hand.to_act,
        "complete": hand.complete,
        "legal_actions": hand.legal_actions(),
        "sources": hand.sources(),
        "may_call": hand.may_call,
        "drawn": None if taken is None else {"source": str(taken.source), "card": str(taken.card)},
        "caller": hand.caller,
        "callers": list(hand.callers),
        "final_turns": list(hand.final_turns),
        "dealer": hand.dealer,
        "order": list(hand.order),
        "wild_card": str(hand.config.upcard),
        "wild_rank": hand.config.upcard.rank_char,
        "top_discard": card_text(hand.top_discard),
        "discard_pile": [str(card) for card in hand.discard_pile],
        "stock_count": hand.stock_count,
        "stock_card": str(forced[0]) if len(forced) == 1 else None,
        "ante": hand.config.ante,
        "pot": hand.pot,
        "seats": seats,
    }


def hand_presentation(hand: ShownHand) -> Presentation:
    """The hand as the table shows it (:mod:`casino.rules.presentation`): see the module."""
    config = hand.config
    outcomes: dict[int, str] = {}
    winners: list[int] = list(hand.order)
    if hand.complete:
        settlement = hand.settle()
        outcomes = {
            result.seat: OUTCOME_STATUS[result.lines[0].outcome] for result in settlement.seats
        }
        winners = list(settlement.extra["winners"])
    waiting = hand.final_turns if hand.phase is Phase.FINAL_TURNS else ()
    parties = []
    for seat in hand.order:
        laid = hand.laid_down(seat)
        combination = laid
        if hand.complete and combination is None:
            combination = hand.best(seat)
        if seat in outcomes:
            status = outcomes[seat]
        elif seat == hand.to_act:
            status = "to_act"
        elif laid is not None:
            status = "called"
        elif seat in waiting:
            status = "waiting"
        else:
            status = "in"
        badges = []
        if seat == hand.dealer:
            badges.append("dealer")
        if seat == hand.caller:
            badges.append("caller")
        parties.append(
            Party(
                seat=seat,
                status=status,
                to_act=seat == hand.to_act,
                cards=cards(hand.holding(seat), up=hand.complete or laid is not None),
                wagers=(Wager("ante", config.ante),),
                hand=combination.description if combination is not None else None,
                badges=tuple(badges),
            )
        )
    top = hand.top_discard
    taken = hand.drawn
    called = hand.caller is not None
    return Presentation(
        phase=str(hand.phase),
        seats=tuple(parties),
        to_act=hand.to_act,
        pots=(Pot(hand.pot, tuple(winners)),),
        community=tuple(cards([config.upcard])) if hand.upcard_in_stock else (),
        wild_rank=config.upcard.rank_char,
        top_discard=Shown(str(top)) if top is not None else None,
        stock=hand.stock_count,
        facts={
            "wild_card": str(config.upcard),
            "step": str(hand.step) if hand.step is not None else None,
            "drawn": str(taken.card) if taken is not None else None,
            "drawn_from": str(taken.source) if taken is not None else None,
            "called_by": hand.caller,
            "callers": list(hand.callers),
            "final_turns": list(hand.final_turns),
            "turns_left": len(hand.final_turns) if called else None,
        },
    )


__all__ = ["OUTCOME_STATUS", "ShownHand", "card_text", "hand_presentation", "hand_view"]
