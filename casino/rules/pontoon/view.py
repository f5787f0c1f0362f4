"""Pontoon: how a hand is shown, in two shapes.

:func:`view_of` is the state's ``view()``: the dealer tablet's own JSON of the hand, every
card shown. :func:`presentation_of` is its ``presentation()``: the same hand in the shape every
game gives (:mod:`casino.rules.presentation`), every word an id:

* each player's seat: its cards (the first two and the bought ones face down, twisted ones face
  up; a pontoon, declared and shown, and a bust hand face up; everything face up once the hand
  is over), ``total`` as the engine says it (``"19"``, ``"soft 17"``, ``"pontoon"``, ``"five
  card trick (20)"``, ``"bust (24)"``), its wagers (``stake``, each ``buy``, each ``shoot``
  bet); after a split one :class:`~casino.rules.presentation.SubHand` per hand instead;
* the banker's seat (a player holding the bank, badge ``banker``; there is no house): its
  cards, face down until its turn, and its total;
* statuses: ``waiting``, ``to_act`` (the seat the hand waits for, in the deals too), ``in`` (a
  hand that twisted and waits), ``stood`` (stuck, stood, or ended by itself on a pontoon, 21
  or the trick), ``bust``; once the hand is over every hand not bust shows its result:
  ``won``, ``lost`` or ``push``;
* the table: the phase, the Shoot Pontoon kitty (as it stands: with the busted hands' shoot
  bets, after the hand ``kitty_after``), the cards left to deal from (``stock``), and as
  ``facts`` the play order, the hand in play, the bounds of a buy, the kitty's room for shoot
  bets, and after the hand the next banker and whether the pack is shuffled.

This module does not import :mod:`~casino.rules.pontoon.hand`: it reads the hand through
:class:`ShownHand`, and the hand calls both functions with itself.
"""

from __future__ import annotations

from typing import Any, Protocol

from casino.rules.pontoon.ops import GAME_CODE, HandStatus, Phase
from casino.rules.pontoon.rules import PontoonConfig
from casino.rules.pontoon.settle import Player, PlayerHand, SettledHand
from casino.rules.pontoon.values import total
from casino.rules.presentation import Card as ShownCard
from casino.rules.presentation import Party, Presentation, SubHand, Wager
from casino.rules.settlement import Settlement


class ShownHand(SettledHand, Protocol):
    """What showing reads of a hand (:class:`~casino.rules.pontoon.hand.PontoonHand`)."""

    @property
    def config(self) -> PontoonConfig: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def current_hand(self) -> int | None: ...
    @property
    def complete(self) -> bool: ...
    @property
    def kitty_now(self) -> int | None: ...
    @property
    def shoot_room(self) -> int: ...
    @property
    def cards_dealt(self) -> int: ...
    @property
    def cards_left(self) -> int: ...
    def legal_actions(self) -> list[dict[str, Any]]: ...
    def hand_status(self, seat: int, hand: int) -> HandStatus: ...
    def shoot_bets(self) -> list[dict[str, Any]]: ...
    def settle(self) -> Settlement: ...


# --------------------------------------------------------------------------- view()


def view_of(hand: ShownHand) -> dict[str, Any]:
    """The hand as the dealer tablet shows it, JSON-ready (every card is shown)."""
    banker_value = hand.banker_value if hand.banker_cards else None
    players = []
    for player in hand.players():
        hands = []
        for index, state in enumerate(player.hands):
            points, soft = total(state.cards)
            hands.append(
                {
                    "cards": [str(card) for card in state.cards],
                    "total": points,
                    "soft": soft,
                    "hand": str(hand.value(player.seat, index)) if len(state.cards) >= 2 else None,
                    "stake": state.staked,
                    "buys": list(state.buys),
                    "twisted": state.twisted,
                    "shoot": state.shot,
                    "status": str(hand.hand_status(player.seat, index)),
                }
            )
        players.append({"seat": player.seat, "stake": player.stake, "hands": hands})
    points, soft = total(hand.banker_cards)
    sale = hand.sale
    return {
        "game": GAME_CODE,
        "phase": str(hand.phase),
        "to_act": hand.to_act,
        "hand": hand.current_hand,
        "legal_actions": hand.legal_actions(),
        "complete": hand.complete,
        "banker": {
            "seat": hand.banker,
            "cards": [str(card) for card in hand.banker_cards],
            "total": points,
            "soft": soft,
            "hand": str(banker_value) if len(hand.banker_cards) >= 2 else None,
            "status": str(hand.banker_status),
        },
        "players": players,
        "order": list(hand.order),
        "kitty": hand.config.kitty,
        "kitty_now": hand.kitty_now,
        "shoot_room": hand.shoot_room if hand.config.shoot else None,
        "shoot_bets": hand.shoot_bets(),
        "cards_dealt": hand.cards_dealt,
        "next_banker": hand.next_banker() if hand.complete else None,
        "bank_sale": None if sale is None else sale.to_dict(),
    }


# --------------------------------------------------------------------------- presentation()

#: A hand's own status (:class:`~casino.rules.pontoon.ops.HandStatus`) as a presentation
#: status: a hand that ended by itself on a pontoon, 21 or the trick stands on it.
STATUS = {
    HandStatus.WAITING: "waiting",
    HandStatus.PLAYING: "to_act",
    HandStatus.STOOD: "stood",
    HandStatus.PONTOON: "stood",
    HandStatus.TWENTY_ONE: "stood",
    HandStatus.FIVE_CARD_TRICK: "stood",
    HandStatus.BUST: "bust",
    HandStatus.NOT_PLAYED: "in",
}
#: Hands shown face up before the end: a pontoon is declared and shown (clause 5), a bust
#: hand is turned up when its stake is taken (clause 10).
SHOWN = (HandStatus.PONTOON, HandStatus.BUST)
#: What the banker shows before the end: its cards once its turn has come (clause 11).
BANKER_SHOWS = (Phase.BANKER, Phase.COMPLETE)
#: The settlement's lines that judge the hand (a bank sale's price is no result of it).
JUDGED = ("stake", "shoot")


def _result(amount: int) -> str:
    return "won" if amount > 0 else "lost" if amount < 0 else "push"


class _Results:
    """A finished hand's results from its settlement: each player hand's stake outcome, and
    each seat's net on the stakes and shoot bets."""

    def __init__(self, settlement: Settlement) -> None:
        self.hands: dict[tuple[int, int], str] = {}
        self.seats: dict[int, str] = {}
        for seat in settlement.seats:
            net = 0
            for line in seat.lines:
                if line.wager not in JUDGED:
                    continue
                net += line.amount
                if line.wager == "stake" and "against" not in line.extra:
                    self.hands[seat.seat, line.extra["hand"]] = _result(line.amount)
            self.seats[seat.seat] = _result(net)
        self.extra = settlement.extra


def _player_cards(state: PlayerHand, up: bool) -> list[ShownCard]:
    """The first two cards and the bought ones face down, the twisted ones face up (clauses
    3, 7, 8); buys come before twists (clause 8a)."""
    hidden = 2 + len(state.buys)
    return [ShownCard(str(card), up or index >= hidden) for index, card in enumerate(state.cards)]


def _wagers(state: PlayerHand) -> list[Wager]:
    wagers = [Wager("stake", state.stake)] if state.stake else []
    wagers.extend(Wager("buy", amount) for amount in state.buys)
    wagers.extend(Wager("shoot", amount) for _, amount in sorted(state.shoots.items()))
    return wagers


def _hand_status(
    hand: ShownHand, seat: int, index: int, state: PlayerHand, results: _Results | None
) -> str:
    status = hand.hand_status(seat, index)
    if status is HandStatus.BUST or results is None:
        if status is HandStatus.WAITING and seat == hand.to_act and hand.current_hand is None:
            return "to_act"  # before the turns: this seat gets the next card, stakes or shoots
        if status is HandStatus.WAITING and state.twisted:
            return "in"
        return STATUS[status]
    return results.hands[seat, index]


def _player(hand: ShownHand, player: Player, results: _Results | None) -> Party:
    seat = player.seat
    subs: list[SubHand] = []
    names: list[str | None] = []
    for index, state in enumerate(player.hands):
        value = hand.value(seat, index) if state.cards else None
        known = state.end is not None or hand.complete
        names.append(str(value) if value is not None and known and len(state.cards) >= 2 else None)
        subs.append(
            SubHand(
                cards=_player_cards(state, hand.complete or state.end in SHOWN),
                total=str(value) if value is not None else None,
                status=_hand_status(hand, seat, index, state, results),
                wagers=_wagers(state),
                to_act=seat == hand.to_act and index == (hand.current_hand or 0),
            )
        )
    to_act = seat == hand.to_act
    if player.split:
        if to_act:
            status = "to_act"
        elif results is not None:
            status = "bust" if all(s.status == "bust" for s in subs) else results.seats[seat]
        elif all(state.end is not None for state in player.hands):
            status = "bust" if all(s.status == "bust" for s in subs) else "stood"
        else:
            status = "waiting"
        name = " / ".join(n for n in names if n) if all(names) else None
        return Party(seat=seat, status=status, hand=name, hands=subs, to_act=to_act)
    only = subs[0]
    return Party(
        seat=seat,
        status=only.status,
        cards=only.cards,
        wagers=only.wagers,
        total=only.total,
        hand=names[0],
        to_act=to_act,
    )


def _banker(hand: ShownHand, results: _Results | None) -> Party:
    cards = hand.banker_cards
    status = hand.banker_status
    value = hand.banker_value if cards else None
    ended = status not in (HandStatus.WAITING, HandStatus.PLAYING)
    if hand.to_act == hand.banker:
        shown = "to_act"
    elif results is not None and status is not HandStatus.BUST:
        shown = results.seats[hand.banker]
    else:
        shown = STATUS[status]
    up = hand.phase in BANKER_SHOWS
    return Party(
        seat=hand.banker,
        status=shown,
        cards=[ShownCard(str(card), up or index >= 2) for index, card in enumerate(cards)],
        total=str(value) if value is not None else None,
        hand=str(value) if value is not None and ended and len(cards) >= 2 else None,
        badges=["banker"],
        to_act=hand.to_act == hand.banker,
    )


def _facts(hand: ShownHand, results: _Results | None) -> dict[str, Any]:
    facts: dict[str, Any] = {"order": list(hand.order)}
    if hand.current_hand is not None:
        facts["hand_in_play"] = hand.current_hand
    for action in hand.legal_actions():
        if action["type"] == "buy":
            facts["buy_min"], facts["buy_max"] = action["min"], action["max"]
    if hand.config.shoot and not hand.complete:
        facts["shoot_room"] = hand.shoot_room
    if hand.config.kitty is not None:
        facts["kitty_start"] = hand.config.kitty
    if results is not None:
        facts["next_banker"] = results.extra["next_banker"]
        facts["reshuffle"] = results.extra["reshuffle"]
    return facts


def presentation_of(hand: ShownHand) -> Presentation:
    """The hand as the table shows it (see the module docstring); after the hand the results
    are the settlement's."""
    results = _Results(hand.settle()) if hand.complete else None
    seats = [_player(hand, player, results) for player in hand.players()]
    seats.append(_banker(hand, results))
    kitty = hand.kitty_now if results is None else results.extra["kitty_after"]
    return Presentation(
        phase=str(hand.phase),
        seats=sorted(seats, key=lambda party: party.seat),
        to_act=hand.to_act,
        stock=hand.cards_left,
        kitty=kitty,
        facts=_facts(hand, results),
    )


__all__ = ["ShownHand", "presentation_of", "view_of"]
