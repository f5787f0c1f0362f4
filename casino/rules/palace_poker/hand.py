"""Palace Poker (Castle Poker, Banner Poker): the hand as one state object moving through phases.

The rules as implemented (``docs/rules/palace-poker.md``) decides every rules question; clause
numbers below refer to it. A hand is its :class:`~casino.rules.palace_poker.config.PalaceConfig`
(:mod:`casino.rules.palace_poker.config`: the deal, clauses 1-5) plus its operation log:
:class:`PalaceHand` takes the antes, then the players' actions one at a time. Each action is a triple (``verify_x`` raises
:class:`RuleError`, ``can_x`` returns a bool, ``x`` applies it) and appends a frozen operation
(:mod:`casino.rules.palace_poker.ops`) to :attr:`PalaceHand.log`. :func:`replay` rebuilds a
hand from a record; :func:`evaluate` replays and settles. The pot is never stored: it is the
sum of what the seats put in.

Phases: ``play`` (turns clockwise from the dealer's left) -> ``battle`` (the defender's and
attacker's answers) -> back to ``play`` ... -> ``complete``, with :attr:`PalaceHand.ending`
saying how (clauses 10, 13, 15, 16).

Actions (JSON, in the record's ``actions``):

* ``{"seat", "type": "buy", "card": "Qd", "discard": [...]}`` (clause 6): pays one small bet;
  ``card`` is the stock card the dealer turned; ``discard`` (optional, default none) the
  soldiers thrown away after it, the new card included if wanted.
* ``{"seat", "type": "discard", "cards": [...]}`` (clause 7): pays one small bet.
* ``{"seat", "type": "battle", "target": 5, "amount": 1500}`` (clause 8): ``amount`` is the
  attacker's whole bet.
* ``{"seat", "type": "stay"}`` (clause 11), ``{"seat", "type": "fold"}`` (clause 12, and a
  battle fold).
* ``{"seat", "type": "call"}`` (clause 9; an optional ``amount`` must equal the call).
* ``{"seat", "type": "raise", "amount": 1000}`` (clause 9): ``amount`` is the raise's
  **increment**, on top of the call; the raiser pays call + amount. Totals do not compare in
  this game (the formula call is the defender's own price, not the attacker's bet), so every
  raise is an increment, in both structures.

In Python the actions are ``buy``, ``discard``, ``battle``, ``stay``, ``fold``, ``call`` and
``raise_`` (``raise`` is a keyword), each with ``verify_``/``can_``. ``legal_actions()`` lists
for the seat to act: ``buy`` (``cost``, ``stock``, ``reshuffle``, ``must_discard``),
``discard`` (``cost``, ``soldiers``), ``battle`` (``targets``, ``min``, ``max``, ``all_in``),
``stay``, ``fold``; in a battle ``fold``, ``call`` (``amount``, ``all_in``) and ``raise``
(``min``/``max`` increments, ``call``). ``view()`` adds the pot, every seat (stack, chips in,
banner, soldiers, status), stock and discard counts and the battle in progress; the palace
cards stay face down. ``presentation()`` is the same table in the shape every game gives
(both built in :mod:`casino.rules.palace_poker.view`). ``buyable()`` lists the cards a buy may
turn now. The settlement is built in :mod:`casino.rules.palace_poker.settle`.

Choices where the brief is silent (card-room practice; the options are in
:class:`~casino.rules.palace_poker.rules.PalaceRules`):

* **Costs.** A buy and a discard cost exactly one small bet and need the chips for it.
* **The battle bet.** In limit it is exactly the minimum (soldiers + 1) x small bet (limit
  bets are fixed); in no limit anything from the minimum to the seat's stack. With
  ``short_all_in`` (default) a seat short of the minimum may battle all-in for its whole
  stack; with no chips at all only when two are left (clause 14 leaves it no other turn).
* **Answers** (clause 9). The defender's call is the formula or the match (option ``call``);
  after a raise the call is the raise's increment. A seat short of its call may call all-in
  (``short_all_in``). Raises: limit exactly one big bet, or two small bets when the *raiser*
  has no soldiers (the brief says the defender; the attacker's re-raise follows the same
  rule); no limit at least one big bet, at most what the seat has after calling. Nobody
  raises a seat that is all-in. Limit raises are uncapped unless ``max_raises`` is set.
* **Uncalled raises** (``uncalled_raise_returned``, clause 9 "the defender keeps the raise"):
  when a side folds to a raise, or calls it all-in for less, the part not called goes back to
  the raiser. The attacker's opening bet is never returned (clause 8: all battle money goes
  into the pot).
* **Spoils** (clauses 9-10). The winner keeps its own soldiers and takes the loser's banner
  first, then the loser's soldiers in the order the loser got them, until it has
  ``max_soldiers``; the rest go to the discards, with the loser's palace cards. A player who
  folds in turn (clause 12) or goes out in a tie puts palace, banner and soldiers in the
  discards.
* **Battle showdown** (clause 10). Each side counts all its own cards (palace, soldiers,
  banner) except those of the opponent's banner suit; with fewer than five counted cards only
  sets count (see :mod:`casino.rules.palace_poker.values`). The banner-suit tiebreak counts
  the cards of one's own banner suit among the counted cards.
* **Turn order.** Play starts left of the dealer and passes left; after a battle it passes
  left of the attacker.
* **The stock** (clause 6). When a buy finds the stock empty, the discards at that moment are
  shuffled into a new stock, and the card bought must be one of them; the record lists cards,
  not the shuffle's order, so the engine checks only that the card could be there.
* **Clause 16's round** ends the hand once every player still in has stayed or discarded
  since the last buy or battle (folds in between count, as the brief says). With only two
  players left it never applies: clause 14 says the hand then ends only through a battle or a
  fold (two players who keep discarding must still fight).
* **Clause 15** is checked whenever a player leaves: 2 or 3 players left, all of one banner
  suit, split the pot (no 4 can share a suit: a group has each suit once).
* **Settlement** (clauses 10, 13, 15, 16): see :mod:`casino.rules.palace_poker.settle`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from casino.rules import betting
from casino.rules.actions import decode
from casino.rules.cards import SUIT_NAMES, Card, standard_deck_set
from casino.rules.errors import RuleError, action_path, reported
from casino.rules.messages import Message, Money, _, msg
from casino.rules.options import money_or_repr
from casino.rules.palace_poker.config import PalaceConfig, parse_config
from casino.rules.palace_poker.ops import (
    ACTION_TYPES,
    ACTIONS,
    BATTLE_ACTIONS,
    TURN_ACTIONS,
    ActionType,
    Anteing,
    Attacking,
    BattleEnd,
    Buying,
    Calling,
    Capturing,
    Discarding,
    Ending,
    Folding,
    HandEnd,
    Operation,
    Phase,
    Raising,
    Returning,
    Standing,
    Staying,
)
from casino.rules.palace_poker.rules import CallRule, PalaceRules, Structure, coerce_rules
from casino.rules.palace_poker.settle import settle_hand
from casino.rules.palace_poker.values import PokerValue, best_hand
from casino.rules.palace_poker.view import presentation_of, view_of
from casino.rules.pots import clockwise_from
from casino.rules.presentation import Presentation
from casino.rules.rule_titles import palace_poker_rule
from casino.rules.settlement import Settlement

# Enum members read in the hot paths, each once: on Python 3.11 a member read through its
# class (``Phase.PLAY``) goes through ``EnumType.__getattr__``'s hook, several times a global.
_ACTIONTYPE_BATTLE = ActionType.BATTLE
_ACTIONTYPE_BUY = ActionType.BUY
_ACTIONTYPE_CALL = ActionType.CALL
_ACTIONTYPE_DISCARD = ActionType.DISCARD
_ACTIONTYPE_FOLD = ActionType.FOLD
_ACTIONTYPE_RAISE = ActionType.RAISE
_ACTIONTYPE_STAY = ActionType.STAY
_CALLRULE_MATCH = CallRule.MATCH
_ENDING_LAST_STANDING = Ending.LAST_STANDING
_ENDING_SHARED_SUIT = Ending.SHARED_SUIT
_ENDING_SHOWDOWN = Ending.SHOWDOWN
_ENDING_SPLIT = Ending.SPLIT
_PHASE_BATTLE = Phase.BATTLE
_PHASE_COMPLETE = Phase.COMPLETE
_PHASE_PLAY = Phase.PLAY
_STANDING_FOLDED = Standing.FOLDED
_STANDING_IN = Standing.IN
_STANDING_OUT = Standing.OUT
_STRUCTURE_LIMIT = Structure.LIMIT

ORDINALS = {
    1: _("first"),
    2: _("second"),
    3: _("third"),
    4: _("fourth"),
    5: _("fifth"),
    6: _("sixth"),
}
#: Each action type as a verb in a message ("seat 3 cannot buy: ...").
VERBS = {
    ActionType.BUY: _("buy"),
    ActionType.DISCARD: _("discard"),
    ActionType.BATTLE: _("battle"),
    ActionType.STAY: _("stay"),
    ActionType.FOLD: _("fold"),
    ActionType.CALL: _("call"),
    ActionType.RAISE: _("raise"),
}


#: :data:`VERBS` as messages, made once (a message is immutable).
_VERB_WORDS = {kind: Message(verb) for kind, verb in VERBS.items()}


def _soldiers(count: int) -> Message:
    """``1 soldier`` / ``3 soldiers``."""
    return msg(_("%(count)s soldier") if count == 1 else _("%(count)s soldiers"), count=count)


def _nth(number: int) -> Message:
    if number in ORDINALS:
        return Message(ORDINALS[number])
    return msg(_("%(number)sth"), number=number)


@dataclass(slots=True)
class _Player:
    """One seat's chips and cards while the hand runs (private to :class:`PalaceHand`)."""

    seat: int
    start: int
    stack: int
    banner: Card
    palace: tuple[Card, ...]
    soldiers: list[Card] = field(default_factory=list)
    put_in: int = 0  # chips in the pot: ante, buys, discards, battle money, less returns
    standing: Standing = Standing.IN
    hand: str | None = None  # the last hand shown
    left_with: tuple[Card, ...] = ()  # the cards held when the seat left the hand

    @property
    def cards(self) -> tuple[Card, ...]:
        """Everything the seat holds: palace, banner, soldiers."""
        return (*self.palace, self.banner, *self.soldiers)

    @property
    def suit(self) -> str:
        return self.banner.suit

    @property
    def playing(self) -> bool:
        return self.standing is _STANDING_IN


@dataclass(slots=True)
class _Battle:
    """The battle being answered (private to :class:`PalaceHand`)."""

    attacker: int
    defender: int
    bet: int
    to_act: int
    owed: int  # what ``to_act`` puts in to call
    chips: dict[int, int]
    last_raiser: int | None = None
    last_raise: int = 0
    raises: int = 0

    def other(self, seat: int) -> int:
        return self.defender if seat == self.attacker else self.attacker

    def to_dict(self) -> dict[str, Any]:
        return {
            "attacker": self.attacker,
            "defender": self.defender,
            "bet": self.bet,
            "to_act": self.to_act,
            "to_call": self.owed,
            "raises": self.raises,
            "attacker_chips": self.chips[self.attacker],
            "defender_chips": self.chips[self.defender],
        }


class PalaceHand:
    """One hand of Palace Poker. See the module docstring for the rules as built."""

    def __init__(self, config: PalaceConfig, rules: PalaceRules | None = None) -> None:
        self.config = config
        self.rules = rules or PalaceRules()
        self._players: dict[int, _Player] = {
            player.seat: _Player(
                player.seat, player.stack, player.stack, player.banner, player.palace
            )
            for player in config.players
        }
        dealt = {card for player in config.players for card in (player.banner, *player.palace)}
        self._stock: set[Card] = set(standard_deck_set()) - dealt
        self._discards: set[Card] = set()
        self._log: list[Operation] = []
        self._battle: _Battle | None = None
        self._quiet: set[int] = set()  # stayed or discarded since the last buy or battle
        self.phase = _PHASE_PLAY
        self.to_act: int | None = None
        self.ending: Ending | None = None
        self.winners: tuple[int, ...] = ()
        for seat in config.order:  # clause 3
            player = self._players[seat]
            self._pay(player, config.ante)
            self._log.append(Anteing(seat, config.ante))
        self.to_act = config.order[0]

    # ------------------------------------------------------------------ reading the state

    @property
    def log(self) -> tuple[Operation, ...]:
        return tuple(self._log)

    @property
    def complete(self) -> bool:
        return self.phase is _PHASE_COMPLETE

    @property
    def pot(self) -> int:
        """Every chip in the middle (clause 8: battle money too)."""
        return sum(player.put_in for player in self._players.values())

    @property
    def current_battle(self) -> dict[str, Any] | None:
        """The battle being answered, or None."""
        return self._battle.to_dict() if self._battle else None

    def players_in(self) -> tuple[int, ...]:
        """The seats still in the hand, in seat order."""
        return tuple(
            [seat for seat, player in self._players.items() if player.standing is _STANDING_IN]
        )

    def cards(self, seat: int) -> dict[str, Any]:
        """A seat's cards now: ``{"banner", "palace", "soldiers"}`` (as held when it left)."""
        player = self._player(seat)
        return {
            "banner": player.banner,
            "palace": player.palace,
            "soldiers": tuple(player.soldiers),
        }

    def stock(self) -> tuple[Card, ...]:
        """The stock's cards (face down, in no known order), sorted."""
        return tuple(sorted(self._stock))

    def buyable(self) -> tuple[Card, ...]:
        """The cards a buy may turn now: the stock, or when it is empty the discards that a
        buy shuffles into a new stock (clause 6), sorted."""
        return tuple(sorted(self._stock or self._discards))

    def discards(self) -> tuple[Card, ...]:
        return tuple(sorted(self._discards))

    def legal_actions(self) -> list[dict[str, Any]]:
        """What the seat to act may do, with costs and bounds (see the module docstring)."""
        if self.to_act is None:
            return []
        player = self._players[self.to_act]
        small = self.config.small_bet
        if self._battle is not None:
            actions: list[dict[str, Any]] = [{"type": "fold"}]
            if self._call_refusal(player) is None:
                amount = min(self._battle.owed, player.stack)
                actions.append({"type": "call", "amount": amount, "all_in": amount == player.stack})
            bounds = self._raise_bounds(player)
            if bounds is not None:
                actions.append(
                    {"type": "raise", "min": bounds[0], "max": bounds[1], "call": self._battle.owed}
                )
            return actions
        actions = []
        if self._buy_refusal(player) is None:
            actions.append(
                {
                    "type": "buy",
                    "cost": small,
                    "stock": len(self._stock or self._discards),
                    "reshuffle": not self._stock,
                    "must_discard": max(0, len(player.soldiers) + 1 - self.rules.max_soldiers),
                }
            )
        if self._discard_refusal(player) is None:
            actions.append(
                {"type": "discard", "cost": small, "soldiers": [str(c) for c in player.soldiers]}
            )
        targets = self._targets(player)
        bounds = self._battle_bounds(player)
        if targets and bounds is not None:
            actions.append(
                {
                    "type": "battle",
                    "targets": targets,
                    "min": bounds[0],
                    "max": bounds[1],
                    "all_in": bounds[0] == player.stack,
                }
            )
        if len(self.players_in()) > 2:
            actions.append({"type": "stay"})
        actions.append({"type": "fold"})
        return actions

    def view(self) -> dict[str, Any]:
        """The hand as the dealer tablet shows it, JSON-ready (palace cards stay face down;
        built by :func:`casino.rules.palace_poker.view.view_of`)."""
        return view_of(self)

    def presentation(self) -> Presentation:
        """The hand as the table shows it, in the shape every game gives
        (:func:`casino.rules.palace_poker.view.presentation_of`)."""
        return presentation_of(self)

    def to_record(self) -> dict[str, Any]:
        """The hand as a record: its configuration and the players' actions so far."""
        record = self.config.to_dict()
        record["actions"] = [action for op in self._log if (action := op.to_action()) is not None]
        return record

    # ------------------------------------------------------------------ buy (clause 6)

    def verify_buy(self, seat: int, card: Card, discard: Sequence[Card] = ()) -> None:
        self._verify_turn(seat, _ACTIONTYPE_BUY)
        player = self._players[seat]
        refusal = self._buy_refusal(player)
        if refusal:
            raise RuleError(refusal)
        if self._stock:
            if card not in self._stock:
                if card in self._discards:
                    raise RuleError(
                        msg(
                            _(
                                "seat %(seat)s cannot buy %(card)s: it is in the discards, "
                                "which become a new stock only when the stock runs out "
                                "(%(left)s cards left)"
                            ),
                            seat=seat,
                            card=str(card),
                            left=len(self._stock),
                        )
                    )
                raise RuleError(
                    msg(
                        _(
                            "seat %(seat)s cannot buy %(card)s: it was already seen this hand (%(where)s)"
                        ),
                        seat=seat,
                        card=str(card),
                        where=self._where(card),
                    )
                )
        elif card not in self._discards:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s cannot buy %(card)s: the stock is empty, so the discards "
                        "are shuffled into a new stock and %(card)s is not among them "
                        "(%(where)s)"
                    ),
                    seat=seat,
                    card=str(card),
                    where=self._where(card),
                )
            )
        self._check_discards(player, discard, extra=card)
        count = len(player.soldiers) + 1 - len(discard)
        most = self.rules.max_soldiers
        if count > most:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s cannot buy %(card)s without discarding: it has %(held)s "
                        "and may never have more than %(most)s (discard at least %(need)s)"
                    ),
                    seat=seat,
                    card=str(card),
                    held=_soldiers(len(player.soldiers)),
                    most=most,
                    need=count - most,
                )
            )

    def can_buy(self, seat: int, card: Card, discard: Sequence[Card] = ()) -> bool:
        return self._can(lambda: self.verify_buy(seat, card, discard))

    def buy(self, seat: int, card: Card, discard: Sequence[Card] = ()) -> None:
        self.verify_buy(seat, card, discard)
        player = self._players[seat]
        reshuffled: tuple[Card, ...] = ()
        if not self._stock:
            reshuffled = tuple(sorted(self._discards))
            self._stock, self._discards = set(self._discards), set()
        self._stock.remove(card)
        cost = self.config.small_bet
        self._pay(player, cost)
        player.soldiers.append(card)
        self._throw(player, discard)
        self._quiet.clear()
        self._log.append(Buying(seat, card, tuple(discard), cost, reshuffled))
        self._after_turn(seat)

    # ------------------------------------------------------------------ discard (clause 7)

    def verify_discard(self, seat: int, cards: Sequence[Card]) -> None:
        self._verify_turn(seat, _ACTIONTYPE_DISCARD)
        player = self._players[seat]
        refusal = self._discard_refusal(player)
        if refusal:
            raise RuleError(refusal)
        if not cards:
            raise RuleError(
                msg(
                    _("seat %(seat)s: a discard throws away one or more soldiers; none named"),
                    seat=seat,
                )
            )
        self._check_discards(player, cards)

    def can_discard(self, seat: int, cards: Sequence[Card]) -> bool:
        return self._can(lambda: self.verify_discard(seat, cards))

    def discard(self, seat: int, cards: Sequence[Card]) -> None:
        self.verify_discard(seat, cards)
        player = self._players[seat]
        cost = self.config.small_bet
        self._pay(player, cost)
        self._throw(player, cards)
        self._quiet.add(seat)
        self._log.append(Discarding(seat, tuple(cards), cost))
        self._after_turn(seat)

    # ------------------------------------------------------------------ battle (clause 8)

    def verify_battle(self, seat: int, target: int, amount: int) -> None:
        self._verify_turn(seat, _ACTIONTYPE_BATTLE)
        player = self._players[seat]
        if target == seat:
            raise RuleError(
                msg(_("seat %(seat)s cannot attack itself: name another player"), seat=seat)
            )
        defender = self._players.get(target)
        if defender is None:
            raise RuleError(
                msg(
                    _("seat %(seat)s cannot attack seat %(target)s: it is not dealt in"),
                    seat=seat,
                    target=target,
                )
            )
        if not defender.playing:
            raise RuleError(
                msg(
                    _("seat %(seat)s cannot attack seat %(target)s: seat %(target)s is %(gone)s"),
                    seat=seat,
                    target=target,
                    gone=self._gone(defender),
                )
            )
        if defender.suit == player.suit:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s cannot attack seat %(target)s: both banners are %(suit)s "
                        "(%(banner)s and %(other)s); a player may not attack a banner of its own "
                        "suit (%(rule)s)"
                    ),
                    seat=seat,
                    target=target,
                    suit=Message(SUIT_NAMES[player.suit]),
                    banner=str(player.banner),
                    other=str(defender.banner),
                    rule=palace_poker_rule(8),
                )
            )
        minimum = self._minimum(player)
        bounds = self._battle_bounds(player)

        def said() -> dict[str, Any]:  # the words of a refusal, made only for one
            return {
                "seat": seat,
                "minimum": Money(minimum),
                "words": self._minimum_words(player),
            }

        if bounds is None:
            why = Message(
                _("it has no chips")
                if player.stack == 0
                else _("calling all-in for less is off (rules.short_all_in)")
            )
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s cannot battle: the minimum bet is %(minimum)s (%(words)s) "
                        "and the seat has %(stack)s (%(why)s)"
                    ),
                    stack=Money(player.stack),
                    why=why,
                    **said(),
                )
            )
        low, high = bounds
        chip = self.rules.smallest_chip
        if amount % chip:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s: battle bet %(amount)s is not a multiple of the smallest "
                        "chip %(chip)s"
                    ),
                    seat=seat,
                    amount=Money(amount),
                    chip=Money(chip),
                )
            )
        if amount > player.stack:
            raise RuleError(
                msg(
                    _("seat %(seat)s: battle bet %(amount)s is more than the seat has (%(stack)s)"),
                    seat=seat,
                    amount=Money(amount),
                    stack=Money(player.stack),
                )
            )
        if low < minimum and amount != low:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s: battle bet %(amount)s is below the minimum %(minimum)s "
                        "(%(words)s); short of that only an all-in for %(low)s is allowed"
                    ),
                    amount=Money(amount),
                    low=Money(low),
                    **said(),
                )
            )
        if self.config.structure is _STRUCTURE_LIMIT and amount != minimum and low == minimum:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s: in limit the battle bet is exactly the minimum "
                        "%(minimum)s (%(words)s), not %(amount)s"
                    ),
                    amount=Money(amount),
                    **said(),
                )
            )
        if amount < low:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s: battle bet %(amount)s is below the minimum %(minimum)s "
                        "(%(words)s)"
                    ),
                    amount=Money(amount),
                    **said(),
                )
            )
        assert amount <= high

    def can_battle(self, seat: int, target: int, amount: int) -> bool:
        return self._can(lambda: self.verify_battle(seat, target, amount))

    def battle(self, seat: int, target: int, amount: int) -> None:
        """Attack ``target`` with a bet of ``amount``."""
        self.verify_battle(seat, target, amount)
        player = self._players[seat]
        defender = self._players[target]
        minimum = self._minimum(player)
        self._pay(player, amount)
        self._quiet.clear()
        owed = amount if self.rules.call is _CALLRULE_MATCH else self._minimum(defender)
        self._battle = _Battle(seat, target, amount, target, owed, {seat: amount, target: 0})
        self.phase = _PHASE_BATTLE
        self.to_act = target
        self._log.append(Attacking(seat, target, amount, minimum, player.stack == 0))

    # ------------------------------------------------------------------ stay (clauses 11, 14)

    def verify_stay(self, seat: int) -> None:
        self._verify_turn(seat, _ACTIONTYPE_STAY)
        if len(self.players_in()) == 2:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s cannot stay: with only two players left each turn is a "
                        "buy, a discard or a battle (%(rule)s)"
                    ),
                    seat=seat,
                    rule=palace_poker_rule(14),
                )
            )

    def can_stay(self, seat: int) -> bool:
        return self._can(lambda: self.verify_stay(seat))

    def stay(self, seat: int) -> None:
        self.verify_stay(seat)
        self._quiet.add(seat)
        self._log.append(Staying(seat))
        self._after_turn(seat)

    # ------------------------------------------------------------------ fold (clauses 9, 12)

    def verify_fold(self, seat: int) -> None:
        self._verify_turn(seat, _ACTIONTYPE_FOLD)

    def can_fold(self, seat: int) -> bool:
        return self._can(lambda: self.verify_fold(seat))

    def fold(self, seat: int) -> None:
        self.verify_fold(seat)
        player = self._players[seat]
        battle = self._battle
        self._log.append(Folding(seat, battle is not None))
        if battle is None:
            self._leave(player, _STANDING_FOLDED)
            self._to_discards(player.cards)
            player.soldiers = []
            self._after_turn(seat)
            return
        other = self._players[battle.other(seat)]
        if battle.last_raiser == other.seat:
            self._return_uncalled(other, battle.last_raise)
        self._leave(player, _STANDING_OUT)  # clause 9: folding in a battle puts the player out
        result = BattleEnd(
            attacker=battle.attacker,
            defender=battle.defender,
            bet=battle.bet,
            chips=(battle.chips[battle.attacker], battle.chips[battle.defender]),
            result="fold",
            winner=other.seat,
            attacker_cards=(),
            defender_cards=(),
            attacker_hand=None,
            defender_hand=None,
            reason=msg(
                _("seat %(seat)s folds; seat %(other)s takes its banner and soldiers"),
                seat=seat,
                other=other.seat,
            ),
        )
        self._log.append(result)
        self._capture(other, player)
        self._end_battle()

    # ------------------------------------------------------------------ call (clause 9)

    def verify_call(self, seat: int) -> None:
        self._verify_turn(seat, _ACTIONTYPE_CALL)
        refusal = self._call_refusal(self._players[seat])
        if refusal:
            raise RuleError(refusal)

    def can_call(self, seat: int) -> bool:
        return self._can(lambda: self.verify_call(seat))

    def call(self, seat: int) -> None:
        self.verify_call(seat)
        battle = self._battle
        assert battle is not None
        player = self._players[seat]
        amount = min(battle.owed, player.stack)
        self._pay(player, amount)
        battle.chips[seat] += amount
        self._log.append(Calling(seat, amount, player.stack == 0))
        short = battle.owed - amount
        if short and battle.last_raiser == battle.other(seat):
            self._return_uncalled(self._players[battle.other(seat)], short)
        self._battle_showdown()

    # ------------------------------------------------------------------ raise (clause 9)

    def verify_raise(self, seat: int, amount: int) -> None:
        self._verify_turn(seat, _ACTIONTYPE_RAISE)
        player = self._players[seat]
        refusal = self._raise_refusal(player)
        if refusal:
            raise RuleError(refusal)
        battle = self._battle
        assert battle is not None
        chip = self.rules.smallest_chip
        if amount % chip:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s: raise %(amount)s is not a multiple of the smallest chip %(chip)s"
                    ),
                    seat=seat,
                    amount=Money(amount),
                    chip=Money(chip),
                )
            )
        low, high = self._raise_span(player)
        if self.config.structure is _STRUCTURE_LIMIT:
            if amount != low:
                raise RuleError(
                    msg(
                        _(
                            "seat %(seat)s: in limit a raise is exactly %(low)s (%(words)s), not %(amount)s"
                        ),
                        seat=seat,
                        low=Money(low),
                        words=self._limit_raise_words(player),
                        amount=Money(amount),
                    )
                )
            return
        if amount < low:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s: raise %(amount)s is below the minimum raise of one big "
                        "bet (%(low)s)"
                    ),
                    seat=seat,
                    amount=Money(amount),
                    low=Money(low),
                )
            )
        if amount > high:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s: raise %(amount)s is more than the seat has after calling "
                        "%(owed)s: at most %(high)s"
                    ),
                    seat=seat,
                    amount=Money(amount),
                    owed=Money(battle.owed),
                    high=Money(high),
                )
            )

    def can_raise(self, seat: int, amount: int) -> bool:
        return self._can(lambda: self.verify_raise(seat, amount))

    def raise_(self, seat: int, amount: int) -> None:
        self.verify_raise(seat, amount)
        battle = self._battle
        assert battle is not None
        player = self._players[seat]
        paid = battle.owed + amount
        self._pay(player, paid)
        battle.chips[seat] += paid
        battle.owed = amount
        battle.last_raiser = seat
        battle.last_raise = amount
        battle.raises += 1
        battle.to_act = battle.other(seat)
        self.to_act = battle.to_act
        self._log.append(Raising(seat, amount, paid, player.stack == 0))

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
        if kind is _ACTIONTYPE_BUY:
            self.buy(seat, decoded.card("card"), decoded.cards("discard"))
        elif kind is _ACTIONTYPE_DISCARD:
            self.discard(seat, decoded.cards("cards"))
        elif kind is _ACTIONTYPE_BATTLE:
            self.battle(seat, decoded.number("target"), decoded.number("amount"))
        elif kind is _ACTIONTYPE_STAY:
            self.stay(seat)
        elif kind is _ACTIONTYPE_FOLD:
            self.fold(seat)
        elif kind is _ACTIONTYPE_CALL:
            amount = decoded.number_or_none("amount")
            if amount is not None:
                self.verify_call(seat)
                assert self._battle is not None
                owed = min(self._battle.owed, self._players[seat].stack)
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
        else:
            self.raise_(seat, decoded.number("amount"))

    # ------------------------------------------------------------------ settlement

    def settle(self) -> Settlement:
        """The finished hand's settlement; RuleError while it is still running."""
        if not self.complete:
            raise RuleError(
                msg(
                    _("the hand is not finished: seat %(seat)s is to act (%(phase)s)"),
                    seat=str(self.to_act),
                    phase=str(self.phase),
                ),
                "actions",
            )
        return settle_hand(self)

    # ------------------------------------------------------------------ internals

    def _player(self, seat: int) -> _Player:
        try:
            return self._players[seat]
        except KeyError:
            raise RuleError(msg(_("seat %(seat)s is not dealt in"), seat=seat)) from None

    def _in(self) -> list[_Player]:
        return [player for player in self._players.values() if player.standing is _STANDING_IN]

    @staticmethod
    def _can(verify: Callable[[], None]) -> bool:
        try:
            verify()
        except RuleError:
            return False
        return True

    @staticmethod
    def _gone(player: _Player) -> Message:
        return Message(_("out of the hand") if player.standing is _STANDING_OUT else _("folded"))

    def _verify_turn(self, seat: int, kind: ActionType) -> None:
        verb = _VERB_WORDS[kind]
        if self.complete:
            raise RuleError(
                msg(_("seat %(seat)s cannot %(verb)s: the hand is over"), seat=seat, verb=verb)
            )
        player = self._player(seat)
        if seat != self.to_act:
            if not player.playing:
                raise RuleError(
                    msg(
                        _(
                            "seat %(seat)s acted out of turn: seat %(next)s is to act (seat "
                            "%(seat)s is %(gone)s)"
                        ),
                        seat=seat,
                        next=str(self.to_act),
                        gone=self._gone(player),
                    )
                )
            raise RuleError(
                msg(
                    _("seat %(seat)s acted out of turn: seat %(next)s is to act"),
                    seat=seat,
                    next=str(self.to_act),
                )
            )
        battle = self._battle
        if battle is not None and kind in TURN_ACTIONS:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s cannot %(verb)s now: it must answer the battle (seat "
                        "%(attacker)s attacks seat %(defender)s); fold, call or raise"
                    ),
                    seat=seat,
                    verb=verb,
                    attacker=battle.attacker,
                    defender=battle.defender,
                )
            )
        if battle is None and kind in BATTLE_ACTIONS:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s cannot %(verb)s: there is no battle to answer; buy, "
                        "discard, battle, stay or fold"
                    ),
                    seat=seat,
                    verb=verb,
                )
            )

    def _where(self, card: Card) -> Message:
        for player in self._players.values():
            if not player.playing:
                continue
            if card == player.banner:
                return msg(_("it is seat %(seat)s's banner"), seat=player.seat)
            if card in player.soldiers:
                return msg(_("seat %(seat)s holds it as a soldier"), seat=player.seat)
            if card in player.palace:
                return msg(_("it is one of seat %(seat)s's palace cards"), seat=player.seat)
        if card in self._discards:
            return Message(_("it is in the discards"))
        if card in self._stock:
            return Message(_("it is still in the stock"))
        return Message(_("it was dealt earlier in the hand"))

    def _pay(self, player: _Player, amount: int) -> None:
        player.stack -= amount
        player.put_in += amount

    def _return_uncalled(self, player: _Player, amount: int) -> None:
        if not amount or not self.rules.uncalled_raise_returned:
            return
        player.stack += amount
        player.put_in -= amount
        if self._battle is not None:
            self._battle.chips[player.seat] -= amount
        self._log.append(Returning(player.seat, amount))

    def _to_discards(self, cards: Sequence[Card]) -> None:
        self._discards.update(cards)

    def _throw(self, player: _Player, cards: Sequence[Card]) -> None:
        thrown = set(cards)
        player.soldiers = [card for card in player.soldiers if card not in thrown]
        self._to_discards(list(cards))

    def _leave(self, player: _Player, standing: Standing) -> None:
        player.standing = standing
        player.left_with = player.cards

    def _check_discards(
        self, player: _Player, cards: Sequence[Card], extra: Card | None = None
    ) -> None:
        seat = player.seat
        seen: set[Card] = set()
        for card in cards:
            if card in seen:
                raise RuleError(
                    msg(_("seat %(seat)s: %(card)s is discarded twice"), seat=seat, card=str(card))
                )
            seen.add(card)
            if card not in player.soldiers and card != extra:
                raise RuleError(
                    msg(
                        _("seat %(seat)s cannot discard %(card)s: it is not one of its soldiers"),
                        seat=seat,
                        card=str(card),
                    )
                )

    def _minimum(self, player: _Player) -> int:
        """Clause 8: (soldiers + 1) x small bet (also the formula call of clause 9)."""
        return (len(player.soldiers) + 1) * self.config.small_bet

    def _minimum_words(self, player: _Player) -> Message:
        return msg(
            _("(%(soldiers)s + 1) x small bet %(small_bet)s"),
            soldiers=_soldiers(len(player.soldiers)),
            small_bet=Money(self.config.small_bet),
        )

    def _buy_refusal(self, player: _Player) -> Message | None:
        cost = self.config.small_bet
        if player.stack < cost:
            return msg(
                _("seat %(seat)s cannot buy: a buy costs %(cost)s and the seat has %(stack)s"),
                seat=player.seat,
                cost=Money(cost),
                stack=Money(player.stack),
            )
        if not self._stock and not self._discards:
            return msg(
                _(
                    "seat %(seat)s cannot buy: the stock and the discards are both empty, so "
                    "buying is no longer allowed (%(rule)s)"
                ),
                seat=player.seat,
                rule=palace_poker_rule(6),
            )
        return None

    def _discard_refusal(self, player: _Player) -> Message | None:
        cost = self.config.small_bet
        if not player.soldiers:
            return msg(_("seat %(seat)s cannot discard: it has no soldiers"), seat=player.seat)
        if player.stack < cost:
            return msg(
                _(
                    "seat %(seat)s cannot discard: a discard costs %(cost)s and the seat has "
                    "%(stack)s"
                ),
                seat=player.seat,
                cost=Money(cost),
                stack=Money(player.stack),
            )
        return None

    def _targets(self, player: _Player) -> list[int]:
        """Clause 8: the players still in whose banner suit differs from the attacker's."""
        return [
            other.seat
            for other in self._in()
            if other.seat != player.seat and other.suit != player.suit
        ]

    def _battle_bounds(self, player: _Player) -> tuple[int, int] | None:
        """The smallest and largest battle bet, or None if the seat cannot battle."""
        minimum = self._minimum(player)
        stack = player.stack
        if stack < minimum and not (
            self.rules.short_all_in and (stack > 0 or len(self.players_in()) == 2)
        ):
            return None  # short of the minimum and may not go all-in for less
        return betting.bounds(self.config.structure, minimum, stack)

    def _call_refusal(self, player: _Player) -> Message | None:
        battle = self._battle
        assert battle is not None
        if player.stack < battle.owed and not self.rules.short_all_in:
            return msg(
                _(
                    "seat %(seat)s cannot call %(owed)s with %(stack)s: calling all-in for less "
                    "is off (rules.short_all_in); fold"
                ),
                seat=player.seat,
                owed=Money(battle.owed),
                stack=Money(player.stack),
            )
        return None

    def _limit_raise_words(self, player: _Player) -> Message:
        if player.soldiers:
            return Message(_("one big bet"))
        return msg(_("two small bets: seat %(seat)s has no soldiers"), seat=player.seat)

    def _least_raise(self, player: _Player) -> int:
        """Limit: the raise, one big bet (two small bets for a raiser without soldiers); no
        limit: the least raise, one big bet."""
        if self.config.structure is _STRUCTURE_LIMIT and not player.soldiers:
            return 2 * self.config.small_bet
        return self.config.big_bet

    def _raise_span(self, player: _Player) -> tuple[int, int]:
        """The raise increments allowed by the structure and the seat's chips (after calling)."""
        battle = self._battle
        assert battle is not None
        most = player.stack - battle.owed
        return betting.bounds(self.config.structure, self._least_raise(player), most)

    def _raise_refusal(self, player: _Player) -> Message | None:
        battle = self._battle
        assert battle is not None
        seat = player.seat
        other = battle.other(seat)
        if self._players[other].stack == 0:
            return msg(
                _("seat %(seat)s cannot raise: seat %(other)s is all-in; call or fold"),
                seat=seat,
                other=other,
            )
        cap = self.rules.max_raises
        if cap is not None and betting.capped(self.config.structure, battle.raises, cap):
            return msg(
                _(
                    "seat %(seat)s: a %(nth)s raise is not allowed (a limit battle is capped at "
                    "%(raises)s)"
                ),
                seat=seat,
                nth=_nth(cap + 1),
                raises=msg(_("%(count)s raise") if cap == 1 else _("%(count)s raises"), count=cap),
            )
        low = self._least_raise(player)
        if player.stack < battle.owed + low:
            return msg(
                _(
                    "seat %(seat)s cannot raise: calling %(owed)s and raising %(low)s needs "
                    "%(total)s and the seat has %(stack)s"
                ),
                seat=seat,
                owed=Money(battle.owed),
                low=Money(low),
                total=Money(battle.owed + low),
                stack=Money(player.stack),
            )
        return None

    def _raise_bounds(self, player: _Player) -> tuple[int, int] | None:
        if self._raise_refusal(player) is not None:
            return None
        return self._raise_span(player)

    def _capture(self, winner: _Player, loser: _Player) -> None:
        """The winner takes the loser's banner, then soldiers, up to the limit (clauses 9-10)."""
        spoils = [loser.banner, *loser.soldiers]
        room = max(0, self.rules.max_soldiers - len(winner.soldiers))
        kept, extra = spoils[:room], spoils[room:]
        winner.soldiers.extend(kept)
        self._to_discards([*extra, *loser.palace])
        loser.soldiers = []
        self._log.append(Capturing(winner.seat, loser.seat, tuple(kept), tuple(extra)))

    def _battle_showdown(self) -> None:
        """Clause 10: best five after removing the opponent's banner suit."""
        battle = self._battle
        assert battle is not None
        attacker = self._players[battle.attacker]
        defender = self._players[battle.defender]
        a_cards = tuple(card for card in attacker.cards if card.suit != defender.suit)
        d_cards = tuple(card for card in defender.cards if card.suit != attacker.suit)
        a_value, d_value = best_hand(a_cards), best_hand(d_cards)
        attacker.hand, defender.hand = str(a_value), str(d_value)
        winner: _Player | None = None
        loser: _Player | None = None
        if a_value != d_value:
            winner, loser = (attacker, defender) if a_value > d_value else (defender, attacker)
            high, low = (a_value, d_value) if winner is attacker else (d_value, a_value)
            reason = msg(
                _("seat %(winner)s's %(high)s beats seat %(loser)s's %(low)s"),
                winner=winner.seat,
                high=high.description,
                loser=loser.seat,
                low=low.description,
            )
        else:
            a_own = sum(card.suit == attacker.suit for card in a_cards)
            d_own = sum(card.suit == defender.suit for card in d_cards)
            if a_own != d_own:
                winner, loser = (attacker, defender) if a_own > d_own else (defender, attacker)
                most, least = max(a_own, d_own), min(a_own, d_own)
                reason = msg(
                    _(
                        "both have %(hand)s; seat %(seat)s has more cards of its banner suit "
                        "(%(suit)s: %(most)s to %(least)s) and wins"
                    ),
                    hand=a_value.description,
                    seat=winner.seat,
                    suit=Message(SUIT_NAMES[winner.suit]),
                    most=most,
                    least=least,
                )
            else:
                reason = msg(
                    _("both have %(hand)s; each has %(count)s card of its banner suit")
                    if a_own == 1
                    else _("both have %(hand)s; each has %(count)s cards of its banner suit"),
                    hand=a_value.description,
                    count=a_own,
                )
        last_two = len(self.players_in()) == 2
        if winner is not None and loser is not None:
            result, winner_seat = "win", winner.seat
        elif last_two:
            result, winner_seat = "split", None
            reason = msg(_("%(reason)s: the last two split the pot"), reason=reason)
        else:
            result, winner_seat = "both out", None
            reason = msg(_("%(reason)s: both are out"), reason=reason)
        self._log.append(
            BattleEnd(
                attacker=attacker.seat,
                defender=defender.seat,
                bet=battle.bet,
                chips=(battle.chips[attacker.seat], battle.chips[defender.seat]),
                result=result,
                winner=winner_seat,
                attacker_cards=tuple(sorted(a_cards, reverse=True)),
                defender_cards=tuple(sorted(d_cards, reverse=True)),
                attacker_hand=str(a_value),
                defender_hand=str(d_value),
                reason=reason,
            )
        )
        if winner is not None and loser is not None:
            self._leave(loser, _STANDING_OUT)
            self._capture(winner, loser)
            self._end_battle()
        elif last_two:
            self._battle = None
            self._finish(_ENDING_SPLIT, (attacker.seat, defender.seat))
        else:
            for player in (attacker, defender):
                self._leave(player, _STANDING_OUT)
                self._to_discards(player.cards)
                player.soldiers = []
            self._end_battle()

    def _end_battle(self) -> None:
        battle = self._battle
        assert battle is not None
        self._battle = None
        self.phase = _PHASE_PLAY
        self._after_turn(battle.attacker)

    def _after_turn(self, seat: int) -> None:
        """The end of a turn: the hand ends (clauses 13, 15, 16) or play passes left."""
        remaining = self._in()
        if len(remaining) == 1:
            self._finish(_ENDING_LAST_STANDING, (remaining[0].seat,))
        elif len(remaining) <= 3 and len({player.suit for player in remaining}) == 1:
            self._finish(_ENDING_SHARED_SUIT, tuple(player.seat for player in remaining))
        elif len(remaining) > 2 and all(player.seat in self._quiet for player in remaining):
            values = {player.seat: best_hand(player.cards) for player in remaining}
            for player in remaining:
                player.hand = str(values[player.seat])
            best = max(values.values())
            self._finish(
                _ENDING_SHOWDOWN, tuple(seat for seat, value in values.items() if value == best)
            )
        else:
            self.to_act = clockwise_from(seat, [player.seat for player in remaining])[0]

    def _finish(self, ending: Ending, winners: tuple[int, ...]) -> None:
        self.phase = _PHASE_COMPLETE
        self.to_act = None
        self.ending = ending
        self.winners = tuple(clockwise_from(self.config.dealer, winners))
        self._log.append(HandEnd(ending, self.winners))

    def showdown_values(self) -> dict[int, PokerValue]:
        """Clause 16: each player still in, best five of all its own cards (no suit removed)."""
        return {player.seat: best_hand(player.cards) for player in self._in()}


# --------------------------------------------------------------------------- entry points


def replay(
    record: Mapping[str, Any], rules: PalaceRules | Mapping[str, Any] | None = None
) -> PalaceHand:
    """Rebuild a hand from its record: the configuration, then every action in order.

    The first illegal action raises :class:`RuleError` at ``actions[i]``.
    """
    effective = coerce_rules(rules)
    config = parse_config(record, effective)
    hand = PalaceHand(config, effective)
    actions = record.get("actions", [])
    if isinstance(actions, str) or not isinstance(actions, Sequence):
        raise RuleError(msg(_("actions must be a list of actions")), "actions")
    for index, action in enumerate(actions):
        hand.apply(action, index)
    return hand


def evaluate(
    record: Mapping[str, Any], rules: PalaceRules | Mapping[str, Any] | None = None
) -> Settlement:
    """Replay a complete hand record and settle it; an unfinished hand is a RuleError."""
    return replay(record, rules).settle()
