"""How a High Card Flush hand is shown: the state's ``view()`` data (:func:`hand_view`) and the
presentation the dealer's tablet draws the table from (:func:`presentation`, in the shape of
:mod:`casino.rules.presentation`).

Both read the hand through :class:`ShownHand`, what ``hand.py``'s state offers, so this module
does not import the state machine.

The presentation, as the rules document has the table (``docs/rules/high-card-flush.md``):

* one party per seat in play, the designated player's included, by seat number; no house
  party: the game is player-banked (the DP banks it; the house never holds the position,
  clause 17e);
* the designated player carries the badges ``designated_player`` and ``button`` (the button
  is placed at the DP's seat, clause 15e) and its bank as the wager ``bank``; the table's
  ``bank`` is the same bank;
* each player's wagers as they are placed: ``ante``, ``raise`` (once raised), ``flush_bonus``
  and ``straight_flush_bonus`` (when bet);
* cards: each party's seven, known to the tablet (the dealer enters every card, clause 1a).
  They are held face down (``up`` False) while the hand is played: players look at their
  own cards to decide (clause 6), before the designated player's hand is compared with theirs
  (clause 9). When the hand is complete they are shown face up, but a folded hand stays face
  down: it is not compared with the DP's hand (clause 6c);
* ``hand``: the party's flush in the engine's words (``4-card flush A-K-9-5``) once its seven
  cards are dealt;
* status: ``waiting`` for a seat that may still bet, or has bet and waits for the deal;
  ``out`` for a seat in play that placed no bet once dealing began; ``to_act`` for a player
  who has been dealt and has not decided (every undecided player at once: the engine takes the
  decisions in any order, so the view's ``to_act`` is None, as ``view()``'s); ``raised`` and
  ``folded`` once decided; the designated player is ``in``. Once the hand is complete and
  settles, each party is ``won``, ``lost`` or ``push`` by its lines' total (a dead hand, its
  bets returned, is a push), and a fold that lost stays ``folded``;
* facts: ``qualifies`` (clause 7) once the designated player's cards are dealt; ``order``, the
  settlement order (clause 13), once a player has bet; ``bank_after`` once settled (clause 13d).
* no pots (every wager is against the DP's bank), no community cards, no stock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from casino.rules.cards import Card
from casino.rules.contract import JSON
from casino.rules.errors import RuleError
from casino.rules.presentation import Party, Presentation, Wager, cards
from casino.rules.settlement import SeatResult, SeatStatus, Settlement

from .rules import GAME_CODE, Rules
from .settle import settlement_order
from .values import best_flush, dp_qualifies

#: The bonus wagers, in the order the presentation lists them after the ante and the raise.
BONUS_WAGERS = ("flush_bonus", "straight_flush_bonus")


class ShownPlayer(Protocol):
    """What the view reads of a player in the hand."""

    @property
    def seat(self) -> int: ...

    @property
    def ante(self) -> int: ...

    @property
    def bonuses(self) -> Mapping[str, int]: ...

    @property
    def cards(self) -> tuple[Card, ...] | None: ...

    @property
    def raise_amount(self) -> int | None: ...  # 0: folded


class ShownHand(Protocol):
    """What the view reads of a hand (``hand.py``'s :class:`HighCardFlushHand`)."""

    @property
    def phase(self) -> str: ...

    @property
    def complete(self) -> bool: ...

    @property
    def rules(self) -> Rules: ...

    @property
    def dp_seat(self) -> int: ...

    @property
    def bank(self) -> int: ...

    @property
    def seats(self) -> tuple[int, ...]: ...

    @property
    def dp_cards(self) -> tuple[Card, ...] | None: ...

    @property
    def players(self) -> Sequence[ShownPlayer]: ...

    def legal_actions(self) -> list[JSON]: ...

    def settle(self) -> Settlement: ...


def hand_view(hand: ShownHand) -> JSON:
    """The state's ``view()``: the game's own display of the hand."""
    return {
        "game": GAME_CODE,
        "phase": str(hand.phase),
        "to_act": None,  # any player may bet, be dealt or decide in any order
        "complete": hand.complete,
        "legal_actions": hand.legal_actions(),
        "designated_player": {
            "seat": hand.dp_seat,
            "bank": hand.bank,
            "cards": [str(c) for c in hand.dp_cards] if hand.dp_cards else None,
            "flush": str(best_flush(hand.dp_cards)) if hand.dp_cards else None,
        },
        "players": [
            {
                "seat": p.seat,
                "ante": p.ante,
                **p.bonuses,
                "cards": [str(c) for c in p.cards] if p.cards else None,
                "flush": str(best_flush(p.cards)) if p.cards else None,
                "raise": p.raise_amount,
                "folded": p.raise_amount == 0,
            }
            for p in hand.players
        ],
        "seats": list(hand.seats),
    }


def presentation(hand: ShownHand) -> Presentation:
    """The hand as the table shows it (see the module docstring)."""
    settlement = _settlement(hand)
    results = {result.seat: result for result in settlement.seats} if settlement else {}
    players = {player.seat: player for player in hand.players}
    room = hand.phase == "wagers" and len(players) < hand.rules.max_players
    parties = []
    for seat in sorted({*hand.seats, hand.dp_seat}):
        player = players.get(seat)
        if seat == hand.dp_seat:
            parties.append(_designated_player(hand, results.get(seat)))
        elif player is not None:
            parties.append(_player(hand, player, results.get(seat)))
        else:
            parties.append(Party(seat=seat, status="waiting" if room else "out"))
    facts: dict[str, Any] = {}
    if hand.dp_cards:
        facts["qualifies"] = dp_qualifies(best_flush(hand.dp_cards), hand.rules)
    if players:
        facts["order"] = settlement_order(hand.dp_seat, players)
    if settlement is not None:
        facts["bank_after"] = results[hand.dp_seat].extra["bank_after"]
    return Presentation(
        phase=str(hand.phase), seats=parties, to_act=None, bank=hand.bank, facts=facts
    )


def _settlement(hand: ShownHand) -> Settlement | None:
    """The complete hand's settlement; None before, or when its record does not settle."""
    if not hand.complete:
        return None
    try:
        return hand.settle()
    except RuleError:
        return None


def _outcome(result: SeatResult) -> str:
    """``won``, ``lost`` or ``push`` by the seat's lines' total (before its rake)."""
    total = sum(line.amount for line in result.lines)
    return "won" if total > 0 else "lost" if total < 0 else "push"


def _designated_player(hand: ShownHand, result: SeatResult | None) -> Party:
    dealt = hand.dp_cards
    return Party(
        seat=hand.dp_seat,
        status=_outcome(result) if result is not None else "in",
        cards=cards(dealt or (), up=hand.complete),
        wagers=[Wager("bank", hand.bank)],
        hand=str(best_flush(dealt)) if dealt else None,
        badges=["designated_player", "button"],
    )


def _player(hand: ShownHand, player: ShownPlayer, result: SeatResult | None) -> Party:
    folded = player.raise_amount == 0
    wagers = [Wager("ante", player.ante)]
    if player.raise_amount:
        wagers.append(Wager("raise", player.raise_amount))
    wagers += [
        Wager(name, player.bonuses[name]) for name in BONUS_WAGERS if player.bonuses.get(name)
    ]
    if result is not None and not (folded and result.status is SeatStatus.FOLDED):
        status = _outcome(result)
    elif folded:
        status = "folded"
    elif player.raise_amount is not None:
        status = "raised"
    elif player.cards is not None and hand.phase == "decisions":
        status = "to_act"
    else:
        status = "waiting"
    return Party(
        seat=player.seat,
        status=status,
        cards=cards(player.cards or (), up=hand.complete and not folded),
        wagers=wagers,
        hand=str(best_flush(player.cards)) if player.cards else None,
    )
