"""Palace Poker: how a hand is shown, as the game's own view and as the presentation.

:func:`view_of` is the hand's ``view()``: the game's own JSON for the dealer tablet (the pot,
every seat's stack, chips in, banner, soldiers and standing, the stock and discard counts and
the battle in progress; the palace cards stay face down, clause 5c).

:func:`presentation_of` is the hand's ``presentation()`` (:mod:`casino.rules.presentation`),
the shape every game gives:

* each seat is a party with its ``stack``, ``committed_total`` (everything it put in the pot:
  ante, buys, discards, battle money, less an uncalled raise returned) and ``committed_round``
  (its chips in the battle in progress, the game's one betting round; 0 outside it), its
  ``wagers`` by what paid for them (``ante``, ``buy``, ``discard``, ``battle``; they add up
  to ``committed_total``) and ``hand`` (the last hand it showed, at a battle's or the final
  showdown);
* its cards as three groups, with no ``cards`` beside them (the game has no hand apart from
  them): ``banner`` (face up), ``palace`` (the three palace cards, face down until the hand is
  over, clause 5c) and ``soldiers`` (face up, in the order the seat got them). A seat that
  folded or is out has given its cards up (to the discards or as spoils), so its groups are
  empty;
* ``status``: ``to_act``; ``waiting`` before the seat's first turn; from its last step since
  the last buy or battle (clause 16 counts from there): ``drew`` (it bought), ``stood`` (it
  stayed), ``in`` (it discarded, or acted before that buy or battle); in a battle ``bet``
  (the attacker's opening bet) and ``raised`` (both sides are ``in`` again once it is
  over); ``folded`` (on its turn, clause 12), ``out``
  (lost, tied out or folded in a battle, clause 9i); once the hand is over ``won`` for the
  seats that share the pot and ``lost`` for the others still in;
* ``badges``: ``dealer`` and ``button`` on the dealer's seat (an empty dealer seat has no
  party: ``facts["dealer"]`` names it).

A valid battle target shows from the seat views alone: in phase ``play``, every other seat
whose status is neither ``folded`` nor ``out`` and whose ``banner`` card's suit differs from
the banner suit of the seat to act (clause 8). Whether the seat to act may battle at all
(the chips for the minimum bet, clause 8c) is for its legal actions to say.

The table: ``phase`` (``play``, ``battle``, ``complete``), one pot (clause 13a: no side
pots) with the seats that can still win it (the winners once the hand is over), ``stock``
(the cards left in the stock; when it is empty a buy shuffles the discards into a new one,
clause 6c), and the facts: ``structure``, ``small_bet`` (a buy's and a discard's cost),
``big_bet``, ``dealer``, ``discards`` (how many); during a battle ``battle`` (``attacker``,
``target``, ``amount``: the attacker's opening bet), ``to_call`` (the call the seat to act
owes, clause 9; short of it, it calls all-in for its stack, 9c) and ``min_raise`` when it
may raise; once the hand is over ``ending`` (``last_standing``, ``shared_suit``,
``showdown``, ``split``).

Both read the hand through :class:`ShownHand` (what
:class:`~casino.rules.palace_poker.hand.PalaceHand` offers), so this module does not import
the hand's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from casino.rules.cards import Card
from casino.rules.palace_poker.config import PalaceConfig
from casino.rules.palace_poker.ops import (
    GAME_CODE,
    Anteing,
    Attacking,
    BattleEnd,
    Buying,
    Calling,
    Discarding,
    Ending,
    Operation,
    Phase,
    Raising,
    Returning,
    Standing,
    Staying,
)
from casino.rules.presentation import Card as ShownCard
from casino.rules.presentation import Group, Party, Pot, Presentation, Wager, cards

#: The wagers a seat's chips in the pot are shown as, in this order.
WAGERS = ("ante", "buy", "discard", "battle")


class ShownSeat(Protocol):
    """What the views read of one seat of a hand."""

    @property
    def seat(self) -> int: ...
    @property
    def stack(self) -> int: ...
    @property
    def put_in(self) -> int: ...
    @property
    def banner(self) -> Card: ...
    @property
    def palace(self) -> tuple[Card, ...]: ...
    @property
    def soldiers(self) -> Sequence[Card]: ...
    @property
    def standing(self) -> Standing: ...
    @property
    def hand(self) -> str | None: ...
    @property
    def playing(self) -> bool: ...


class ShownHand(Protocol):
    """What the views read of a hand."""

    @property
    def config(self) -> PalaceConfig: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def complete(self) -> bool: ...
    @property
    def pot(self) -> int: ...
    @property
    def ending(self) -> Ending | None: ...
    @property
    def winners(self) -> tuple[int, ...]: ...
    @property
    def log(self) -> Sequence[Operation]: ...
    @property
    def current_battle(self) -> dict[str, Any] | None: ...
    @property
    def _players(self) -> Mapping[int, ShownSeat]: ...
    def legal_actions(self) -> list[dict[str, Any]]: ...
    def players_in(self) -> tuple[int, ...]: ...
    def stock(self) -> tuple[Card, ...]: ...
    def discards(self) -> tuple[Card, ...]: ...


# --------------------------------------------------------------------------- view()


def view_of(hand: ShownHand) -> dict[str, Any]:
    """The hand as the dealer tablet shows it, JSON-ready (palace cards stay face down)."""
    return {
        "game": GAME_CODE,
        "structure": str(hand.config.structure),
        "small_bet": hand.config.small_bet,
        "big_bet": hand.config.big_bet,
        "dealer": hand.config.dealer,
        "phase": str(hand.phase),
        "to_act": hand.to_act,
        "legal_actions": hand.legal_actions(),
        "pot": hand.pot,
        "seats": [
            {
                "seat": player.seat,
                "stack": player.stack,
                "in_pot": player.put_in,
                "banner": str(player.banner),
                "soldiers": [str(card) for card in player.soldiers],
                "palace_cards": len(player.palace) if player.playing else 0,
                "status": str(player.standing),
                "out": player.standing is Standing.OUT,
                "folded": player.standing is Standing.FOLDED,
            }
            for player in hand._players.values()
        ],
        "stock_count": len(hand.stock()),
        "discard_count": len(hand.discards()),
        "battle": hand.current_battle,
        "ending": str(hand.ending) if hand.ending else None,
        "winners": list(hand.winners),
    }


# --------------------------------------------------------------------------- presentation()


def presentation_of(hand: ShownHand) -> Presentation:
    """The hand as the table shows it (see the module docstring for what each part holds)."""
    config = hand.config
    battle = hand.current_battle
    steps = _last_steps(hand.log)
    wagers = _wagers(hand.log)
    seats = [
        _party(hand, player, battle, steps.get(player.seat), wagers.get(player.seat, {}))
        for player in hand._players.values()
    ]
    facts: dict[str, Any] = {
        "structure": str(config.structure),
        "small_bet": config.small_bet,
        "big_bet": config.big_bet,
        "dealer": config.dealer,
        "discards": len(hand.discards()),
    }
    if battle is not None:
        facts["battle"] = {
            "attacker": battle["attacker"],
            "target": battle["defender"],
            "amount": battle["bet"],
        }
        facts["to_call"] = battle["to_call"]
        for action in hand.legal_actions():
            if action["type"] == "raise":
                facts["min_raise"] = action["min"]
    if hand.ending is not None:
        facts["ending"] = str(hand.ending)
    contenders = hand.winners if hand.complete else hand.players_in()
    return Presentation(
        phase=str(hand.phase),
        seats=seats,
        to_act=hand.to_act,
        pots=[Pot(hand.pot, list(contenders))],
        stock=len(hand.stock()),
        facts=facts,
    )


def _party(
    hand: ShownHand,
    player: ShownSeat,
    battle: Mapping[str, Any] | None,
    step: str | None,
    wagers: Mapping[str, int],
) -> Party:
    seat = player.seat
    if player.playing:
        groups = [
            Group("banner", [ShownCard(str(player.banner))]),
            Group("palace", cards(player.palace, up=hand.complete)),  # clause 5c
            Group("soldiers", cards(player.soldiers)),
        ]
    else:  # its cards went to the discards or to the winner of its battle
        groups = [Group("banner", []), Group("palace", []), Group("soldiers", [])]
    committed_round = 0
    if battle is not None and seat == battle["attacker"]:
        committed_round = battle["attacker_chips"]
    elif battle is not None and seat == battle["defender"]:
        committed_round = battle["defender_chips"]
    return Party(
        seat=seat,
        status=_status(hand, player, step),
        to_act=seat == hand.to_act,
        stack=player.stack,
        committed_round=committed_round,
        committed_total=player.put_in,
        wagers=[Wager(name, wagers[name]) for name in WAGERS if wagers.get(name)],
        hand=player.hand,
        badges=["dealer", "button"] if seat == hand.config.dealer else [],
        groups=groups,
    )


def _status(hand: ShownHand, player: ShownSeat, step: str | None) -> str:
    if player.standing is Standing.FOLDED:
        return "folded"
    if player.standing is Standing.OUT:
        return "out"
    if hand.complete:
        return "won" if player.seat in hand.winners else "lost"
    if player.seat == hand.to_act:
        return "to_act"
    return step or "waiting"


def _last_steps(log: Sequence[Operation]) -> dict[int, str]:
    """Each seat's last step since the last buy or battle began (clause 16's count starts
    again there), as a status; a seat that acted only before it is ``in``, a seat that has not
    acted yet is missing."""
    steps: dict[int, str] = {}
    for op in log:
        if isinstance(op, Buying | Attacking):
            steps = dict.fromkeys(steps, "in")
            steps[op.seat] = "drew" if isinstance(op, Buying) else "bet"
        elif isinstance(op, Raising):
            steps[op.seat] = "raised"
        elif isinstance(op, Calling):
            steps[op.seat] = "called"
        elif isinstance(op, BattleEnd):  # the battle's betting is over
            steps[op.attacker] = steps[op.defender] = "in"
        elif isinstance(op, Staying):
            steps[op.seat] = "stood"
        elif isinstance(op, Discarding):
            steps[op.seat] = "in"
    return steps


def _wagers(log: Sequence[Operation]) -> dict[int, dict[str, int]]:
    """Each seat's chips in the pot by what paid for them (an uncalled raise returned comes
    off its battle money)."""
    paid: dict[int, dict[str, int]] = {}

    def add(seat: int, name: str, amount: int) -> None:
        wagers = paid.setdefault(seat, {})
        wagers[name] = wagers.get(name, 0) + amount

    for op in log:
        if isinstance(op, Anteing):
            add(op.seat, "ante", op.amount)
        elif isinstance(op, Buying):
            add(op.seat, "buy", op.cost)
        elif isinstance(op, Discarding):
            add(op.seat, "discard", op.cost)
        elif isinstance(op, Attacking | Calling):
            add(op.seat, "battle", op.amount)
        elif isinstance(op, Raising):
            add(op.seat, "battle", op.paid)
        elif isinstance(op, Returning):
            add(op.seat, "battle", -op.amount)
    return paid
