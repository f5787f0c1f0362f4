"""Five Card Draw 7-A: how a hand is shown.

:func:`view_data` is the hand's own view (``DrawHand.view()``: the seats' chips, the pots, the
stub); :func:`build_presentation` is the presentation view every game gives
(``DrawHand.presentation()``, :mod:`casino.rules.presentation`), from which the dealer's tablet
draws the table. Both read the hand through :class:`ShownHand` (what a
:class:`~casino.rules.five_card_draw.hand.DrawHand` offers), and its operations only as their
JSON (``op.to_dict()``), so this module needs nothing from ``hand.py``.

The presentation, per dealt-in seat:

* ``cards``: the seat's five cards now (the ones it folded, for a folded seat), face down
  (``up`` False: hidden hands) until the showdown, where the hands still in are tabled face up;
  the dealer enters every card, so each ``card`` is known. A seat's discards of the draw are
  the group ``discards`` (face down), left out when it stood pat.
* ``stack``: the chips behind now; ``committed_round``: the chips in front of it this betting
  round (blinds and live posts included, 0 in the draw); ``committed_total``: everything it
  put in this hand, dead money included (the view's ``total_in``).
* ``wagers``: this round's chips by name: ``small_blind``, ``big_blind`` (a live post is a big
  blind too: clause 12) and ``bet`` for the rest. Dead money is in the middle, not in front of
  the seat: it is in the main pot and in the fact ``dead_blinds``.
* ``status``: ``to_act`` for the seat the hand waits for; ``folded``; ``all_in``; in a betting
  round the seat's last action in it (``checked``, ``called``, ``bet``, ``raised``); after its
  draw ``drew`` or ``pat`` (in round 2 until it acts); ``waiting`` otherwise. A finished
  hand's seats still in are ``won``, ``lost`` or ``push`` as the settlement says.
* ``hand``: the hand's name, for the seats at the showdown (as the settlement gives it).
* ``badges``: ``button`` (none when the button is dead: see the fact ``button``),
  ``small_blind``, ``big_blind``, and ``new_player`` for a seat that posted a live big blind
  without dead money (clause 12: a new player with no markers). The missed-blind markers (ML,
  MS) are the table's state between hands (``table_view``), not the hand's: no status or badge
  id fits them, and a hand holds only what a returning player posted for them (``dead_blinds``
  and the live ``big_blind`` wager).

For the table: ``phase`` (the engine's phase id), ``pots`` (``pot`` when there is one, else
``main`` and ``side`` pots, each with the seats that can win it; this round's bets are in
front of the seats until the round ends), ``stock`` (the stub: the cards left to draw, the
last never dealt) and ``facts``: ``structure``, ``button`` (the button's seat, dealt in or not),
``deck_size`` (32 or 36), in a betting round ``current_bet`` and, for the seat to act,
``to_call`` (0 when it may check) with ``min_raise_to`` and ``max_raise_to`` (a bet's or
raise's bounds, as the seat's total for the round) when it may bet or raise; ``dead_blinds``
(seat to dead money) when any was posted; ``showdown_order`` at the showdown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from casino.rules import presentation as p
from casino.rules.cards import Card
from casino.rules.contract import Operation
from casino.rules.five_card_draw.config import HandConfig, PostType
from casino.rules.five_card_draw.rules import GAME_CODE
from casino.rules.five_card_draw.settle import SettledSeat
from casino.rules.pots import Pot
from casino.rules.settlement import Outcome, Settlement

#: The betting rounds' phase ids (the engine's ``Phase`` values).
BETTING_PHASES = ("predraw", "postdraw")
DRAW_PHASE = "draw"
SHOWDOWN_PHASE = "showdown"
#: A betting operation's ``op`` and the status it leaves its seat in.
ACTED = {"check": "checked", "call": "called", "bet": "bet", "raise": "raised"}
#: A post's type and the wager it is in front of the seat (dead money is not in front of it).
POSTED_WAGERS = {
    str(PostType.SMALL_BLIND): "small_blind",
    str(PostType.BIG_BLIND): "big_blind",
    str(PostType.LIVE): "big_blind",
}
OUTCOMES = {Outcome.WIN: "won", Outcome.LOSE: "lost", Outcome.PUSH: "push"}


class ShownSeat(SettledSeat, Protocol):
    """What the view reads from each seat, besides what settling reads."""

    @property
    def stack(self) -> int: ...

    @property
    def bet(self) -> int: ...  # this round, live posts included

    @property
    def all_in(self) -> bool: ...


class ShownHand(Protocol):
    """What the view reads from a hand (:class:`~casino.rules.five_card_draw.hand.DrawHand`)."""

    @property
    def config(self) -> HandConfig: ...

    @property
    def phase(self) -> str: ...

    @property
    def to_act(self) -> int | None: ...

    @property
    def complete(self) -> bool: ...

    @property
    def deck(self) -> tuple[Card, ...]: ...

    @property
    def current_bet(self) -> int: ...

    @property
    def pot_total(self) -> int: ...

    @property
    def cards_seen(self) -> int: ...

    @property
    def showdown_order(self) -> tuple[int, ...]: ...

    @property
    def players(self) -> Sequence[ShownSeat]: ...

    @property
    def log(self) -> Sequence[Operation]: ...

    def pots(self) -> list[Pot]: ...

    def stub(self) -> tuple[Card, ...]: ...

    def legal_actions(self) -> list[dict[str, Any]]: ...

    def settle(self) -> Settlement: ...


def view_data(hand: ShownHand) -> dict[str, Any]:
    """The hand as the dealer tablet shows it, JSON-ready."""
    return {
        "game": GAME_CODE,
        "structure": str(hand.config.structure),
        "phase": str(hand.phase),
        "to_act": hand.to_act,
        "legal_actions": hand.legal_actions(),
        "button": hand.config.button,
        "bet": hand.current_bet,
        "pot": hand.pot_total,
        "pots": [pot.to_dict() for pot in hand.pots()],
        "seats": [
            {
                "seat": player.seat,
                "stack": player.stack,
                "bet": player.bet,
                "total_in": player.total + player.dead,
                "folded": player.folded,
                "all_in": player.all_in,
                "drawn": player.drawn,
            }
            for player in hand.players
        ],
        "deck_size": len(hand.deck),
        "cards_seen": hand.cards_seen,
        "stub": len(hand.stub()),
        "showdown_order": list(hand.showdown_order),
    }


# ---------------------------------------------------------------- the presentation


def build_presentation(hand: ShownHand) -> p.Presentation:
    """The hand as the table shows it (see the module docstring for what each part holds)."""
    phase = str(hand.phase)
    config = hand.config
    posted: dict[int, dict[str, int]] = {}  # seat -> post type -> chips actually posted
    acted: dict[int, str] = {}  # seat -> its status from its last action this round
    discards: dict[int, list[str]] = {}
    round_one = True  # round 1's bets are still in front of the seats (the draw not reached)
    for op in hand.log:
        entry = op.to_dict()
        kind = entry["op"]
        if kind == "post":
            posted.setdefault(entry["seat"], {})[entry["type"]] = entry["amount"]
        elif kind == "phase":
            acted = {}
            round_one = round_one and entry["phase"] != DRAW_PHASE
        elif kind in ACTED:
            acted[entry["seat"]] = ACTED[kind]
        elif kind == "draw":
            discards[entry["seat"]] = list(entry["discard"])
    results = {result.seat: result for result in hand.settle().seats} if hand.complete else {}
    shown = phase == SHOWDOWN_PHASE

    parties: list[p.Party] = []
    for player in hand.players:
        seat = player.seat
        status = _status(hand, player, phase, acted)
        if seat in results and not player.folded:
            status = OUTCOMES.get(results[seat].lines[0].outcome, status)
        thrown = discards.get(seat)
        groups = [p.Group("discards", p.cards(thrown, up=False))] if thrown else []
        parties.append(
            p.Party(
                seat=seat,
                status=status,
                cards=p.cards(player.cards, up=shown and not player.folded),
                stack=player.stack,
                committed_round=player.bet,
                committed_total=player.total + player.dead,
                wagers=_wagers(player, posted.get(seat, {}), round_one),
                hand=results[seat].hand if seat in results else None,
                badges=_badges(config, seat, posted.get(seat, {})),
                groups=groups,
                to_act=hand.to_act == seat,
            )
        )
    return p.Presentation(
        phase=phase,
        seats=parties,
        to_act=hand.to_act,
        pots=_pots(hand.pots()),
        stock=len(hand.stub()),
        facts=_facts(hand, phase),
    )


def _status(hand: ShownHand, player: ShownSeat, phase: str, acted: dict[int, str]) -> str:
    drew = None if player.drawn is None else "drew" if player.drawn else "pat"
    if player.folded:
        return "folded"
    if hand.to_act == player.seat:
        return "to_act"
    if phase == DRAW_PHASE and drew is not None:
        return drew
    if player.all_in:
        return "all_in"
    if phase in BETTING_PHASES and player.seat in acted:
        return acted[player.seat]
    return drew or "waiting"


def _wagers(player: ShownSeat, posted: dict[str, int], round_one: bool) -> list[p.Wager]:
    """This round's chips in front of the seat: its blind (in round 1) and its bet."""
    wagers: list[p.Wager] = []
    blind = 0
    if round_one:
        for kind, amount in posted.items():
            name = POSTED_WAGERS.get(kind)
            if name is not None and amount:
                wagers.append(p.Wager(name, amount))
                blind += amount
    if player.bet > blind:
        wagers.append(p.Wager("bet", player.bet - blind))
    return wagers


def _badges(config: HandConfig, seat: int, posted: dict[str, int]) -> list[str]:
    badges = []
    if seat == config.button:
        badges.append("button")
    if str(PostType.SMALL_BLIND) in posted:
        badges.append("small_blind")
    if seat == config.big_blind_seat:
        badges.append("big_blind")
    if str(PostType.LIVE) in posted and str(PostType.DEAD) not in posted:
        badges.append("new_player")
    return badges


def _pots(pots: Sequence[Pot]) -> list[p.Pot]:
    if len(pots) == 1:
        return [p.Pot(pots[0].amount, pots[0].eligible, "pot")]
    return [
        p.Pot(pot.amount, pot.eligible, "main" if index == 0 else "side")
        for index, pot in enumerate(pots)
    ]


def _facts(hand: ShownHand, phase: str) -> dict[str, Any]:
    facts: dict[str, Any] = {
        "structure": str(hand.config.structure),
        "button": hand.config.button,
        "deck_size": len(hand.deck),
    }
    if phase in BETTING_PHASES:
        facts["current_bet"] = hand.current_bet
        legal = {action["type"]: action for action in hand.legal_actions()}
        if legal:
            facts["to_call"] = legal["call"]["amount"] if "call" in legal else 0
            wager = legal.get("bet") or legal.get("raise")
            if wager is not None:
                facts["min_raise_to"] = wager["min"]
                facts["max_raise_to"] = wager["max"]
    dead = {str(player.seat): player.dead for player in hand.players if player.dead}
    if dead:
        facts["dead_blinds"] = dead
    if hand.showdown_order:
        facts["showdown_order"] = list(hand.showdown_order)
    return facts
