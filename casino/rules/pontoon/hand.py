"""Pontoon: one hand as a state object moving through explicit phases.

The dealer records every card as it is dealt and every decision; :class:`PontoonHand` checks
each against the rules brief (``docs/rules/pontoon.md``, clause numbers below) and appends a
frozen operation to :attr:`PontoonHand.log`. Each action is a triple: ``verify_x`` raises
:class:`RuleError`, ``can_x`` returns a bool, ``x`` applies it. Automatic steps (a pontoon
declared, a hand going bust, a five card trick, the banker's pontoon, phase changes) are logged
too. Totals, the kitty's room and every stake are derived from the cards and the log.

Phases: ``first_card`` (one card to each player clockwise from the banker's left, then the
banker) -> ``stakes`` -> ``shoot`` (Shoot Pontoon only) -> ``second_card`` (players, then the
banker; a banker's pontoon ends the hand here, clause 4) -> ``players`` (each player's hands in
turn) -> ``banker`` -> ``complete``. The banker does not play when every player's hand is bust.

The seat "to act" is the one the next step concerns: the seat to receive the next card in the
deals, the seat to stake, shoot or decide, then the banker.

**Live actions** (``PontoonHand.apply``; ``seat`` is always the seat the step concerns,
``hand`` counts a seat's hands from 0 and defaults to the hand in play):
``{"type": "deal", "seat": 1, "card": "Ah"}`` (first and second cards in dealing order, the
banker last; a split hand's second card with ``"hand": 1``), ``{"type": "stake", "seat": 1,
"amount": 1000}``, ``{"type": "shoot", "seat": 1, "amount": 500}`` /
``{"type": "no_shoot", "seat": 1}`` (each player in turn after the stakes, then again before a
hand's 4th or 5th card), ``{"type": "split", "seat": 2, "hand": 0}``, ``{"type": "buy", "seat":
1, "hand": 0, "amount": 1500, "card": "5d"}``, ``{"type": "twist", "seat": 1, "hand": 0,
"card": "9c"}``, ``{"type": "stick", "seat": 1, "hand": 0}``, the banker's ``{"type": "draw",
"seat": 5, "card": "4s"}`` and ``{"type": "stand", "seat": 5}``, and after the hand
``{"type": "sell_bank", "seat": 5, "buyer": 2, "price": 5000}``. Pontoons, 21, five card tricks,
busts and the banker's pontoon are recognised automatically and end the hand or turn.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, NoReturn

from casino.rules.actions import decode
from casino.rules.cards import ACE, Card, standard_deck
from casino.rules.errors import RuleError, action_path, reported, reported_at
from casino.rules.messages import Message, Money, _, joined, msg, prefixed, seat_words
from casino.rules.options import (
    MAX_AMOUNT,
    as_money,
    beyond_maximum,
    is_int,
    money_or_repr,
    not_a_chip_multiple,
)
from casino.rules.pontoon.ops import (
    ACTION_TYPES,
    ACTIONS,
    FIRST_CARD_SHOOT,
    SHOOT_BEFORE_CARDS,
    ActionType,
    BankerDrawing,
    BankerStanding,
    Buying,
    Dealing,
    HandEnding,
    HandStatus,
    NoShooting,
    Operation,
    Phase,
    PhaseChange,
    SellingBank,
    Shooting,
    Splitting,
    Staking,
    Sticking,
    Twisting,
    nth,
)
from casino.rules.pontoon.rules import PontoonConfig, PontoonRules, check_config
from casino.rules.pontoon.settle import settle_hand
from casino.rules.pontoon.values import (
    HandValue,
    Kind,
    card_text,
    hand_value,
    is_pontoon_pair,
    is_ten_value,
)
from casino.rules.pontoon.view import presentation_of, view_of
from casino.rules.presentation import Presentation
from casino.rules.rule_titles import pontoon_rule
from casino.rules.settlement import Settlement

# Enum members read in the hot paths, each once: on Python 3.11 a member read through its
# class (``Phase.PLAY``) goes through ``EnumType.__getattr__``'s hook, several times a global.
_ACTIONTYPE_BUY = ActionType.BUY
_ACTIONTYPE_DEAL = ActionType.DEAL
_ACTIONTYPE_DRAW = ActionType.DRAW
_ACTIONTYPE_NO_SHOOT = ActionType.NO_SHOOT
_ACTIONTYPE_SHOOT = ActionType.SHOOT
_ACTIONTYPE_SPLIT = ActionType.SPLIT
_ACTIONTYPE_STAKE = ActionType.STAKE
_ACTIONTYPE_STAND = ActionType.STAND
_ACTIONTYPE_STICK = ActionType.STICK
_ACTIONTYPE_TWIST = ActionType.TWIST
_HANDSTATUS_BUST = HandStatus.BUST
_HANDSTATUS_FIVE_CARD_TRICK = HandStatus.FIVE_CARD_TRICK
_HANDSTATUS_NOT_PLAYED = HandStatus.NOT_PLAYED
_HANDSTATUS_PLAYING = HandStatus.PLAYING
_HANDSTATUS_PONTOON = HandStatus.PONTOON
_HANDSTATUS_STOOD = HandStatus.STOOD
_HANDSTATUS_TWENTY_ONE = HandStatus.TWENTY_ONE
_HANDSTATUS_WAITING = HandStatus.WAITING
_KIND_BUST = Kind.BUST
_KIND_FIVE_CARD_TRICK = Kind.FIVE_CARD_TRICK
_KIND_PONTOON = Kind.PONTOON
_PHASE_BANKER = Phase.BANKER
_PHASE_COMPLETE = Phase.COMPLETE
_PHASE_FIRST_CARD = Phase.FIRST_CARD
_PHASE_PLAYERS = Phase.PLAYERS
_PHASE_SECOND_CARD = Phase.SECOND_CARD
_PHASE_SHOOT = Phase.SHOOT
_PHASE_STAKES = Phase.STAKES

DEAL_ORDER = _("one card at a time clockwise from the banker's left, the banker last")

# --------------------------------------------------------------------------- hand state


@dataclass(slots=True)
class HandState:
    """One player hand while the hand runs (read it, never change it from outside).

    ``stake`` is the seat's first-card stake (a split hand carries the same, clause 6);
    ``buys`` the amounts added for bought cards; ``shoots`` the shoot bets by the card they
    came before (1: after the first-card stakes).
    """

    cards: list[Card]
    stake: int
    buys: list[int] = field(default_factory=list)
    twisted: bool = False
    shoots: dict[int, int] = field(default_factory=dict)
    end: HandStatus | None = None

    @property
    def staked(self) -> int:
        """Everything staked on the hand: the first stake and the buys."""
        return self.stake + sum(self.buys)

    @property
    def shot(self) -> int:
        return sum(self.shoots.values())

    @property
    def bust(self) -> bool:
        return self.end is _HANDSTATUS_BUST

    @property
    def owes_card(self) -> bool:
        """A shoot bet was placed before the next card, so the hand must take it."""
        return len(self.cards) + 1 in self.shoots


@dataclass(slots=True)
class PlayerState:
    seat: int
    stake: int | None = None
    hands: list[HandState] = field(default_factory=lambda: [HandState([], 0)])

    @property
    def split(self) -> bool:
        return len(self.hands) > 1


@cache
def _full_pack(decks: int) -> dict[Card, int]:
    """Each card of ``decks`` packs (a copy is taken for each hand)."""
    return {card: decks for card in standard_deck()}


class PontoonHand:
    """One hand of Pontoon (and Shoot Pontoon with a kitty), live or replayed."""

    def __init__(self, config: PontoonConfig, rules: PontoonRules | None = None) -> None:
        self.rules = rules or PontoonRules()
        check_config(config, self.rules)
        self.config = config
        self.order: tuple[int, ...] = config.play_order
        self.banker = config.banker
        self._players: dict[int, PlayerState] = {seat: PlayerState(seat) for seat in self.order}
        self._banker_cards: list[Card] = []
        self._banker_end: HandStatus | None = None
        self._pack: Counter[Card] = Counter(_full_pack(self.rules.decks))
        self._pack_left = sum(self._pack.values())  # the pack's cards not dealt yet
        self._bottom: Counter[Card] = Counter()  # busted hands' cards (clause 10)
        self._log: list[Operation] = []
        self._shoot_next = 0
        self._sale: SellingBank | None = None
        self.phase = _PHASE_FIRST_CARD
        self.to_act: int | None = None
        self.current_hand: int | None = None
        self._log.append(PhaseChange(self.phase))
        self._advance()

    @classmethod
    def from_actions(
        cls,
        config: PontoonConfig,
        rules: PontoonRules | None,
        actions: Sequence[Mapping[str, Any]],
    ) -> PontoonHand:
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
    def banker_cards(self) -> tuple[Card, ...]:
        return tuple(self._banker_cards)

    @property
    def banker_status(self) -> HandStatus:
        if self._banker_end is not None:
            return self._banker_end
        return _HANDSTATUS_PLAYING if self.phase is _PHASE_BANKER else _HANDSTATUS_WAITING

    @property
    def banker_value(self) -> HandValue:
        return hand_value(self._banker_cards, limit=self.rules.five_card_limit)

    @property
    def banker_pontoon(self) -> bool:
        """Clause 4: the banker's first two cards are a pontoon."""
        return is_pontoon_pair(self._banker_cards)

    @property
    def sale(self) -> SellingBank | None:
        return self._sale

    def player(self, seat: int) -> PlayerState:
        """A player's state (read only); RuleError for a seat not dealt in as a player."""
        try:
            return self._players[seat]
        except KeyError:
            if seat == self.banker:
                raise RuleError(
                    msg(_("seat %(seat)s is the banker, not a player"), seat=seat)
                ) from None
            raise RuleError(msg(_("seat %(seat)s is not dealt in this hand"), seat=seat)) from None

    def players(self) -> list[PlayerState]:
        """The players in play order."""
        return [self._players[seat] for seat in self.order]

    def value(self, seat: int, hand: int = 0) -> HandValue:
        """A player hand's value by clause 2 (split hands by clause 15)."""
        player = self.player(seat)
        return hand_value(
            player.hands[hand].cards,
            limit=self.rules.five_card_limit,
            split=player.split,
            split_pontoon_is_pontoon=self.rules.split_pontoon_pays_double,
        )

    def hand_status(self, seat: int, hand: int) -> HandStatus:
        state = self.player(seat).hands[hand]
        if state.end is not None:
            return state.end
        if seat == self.to_act and hand == self.current_hand and self.phase is _PHASE_PLAYERS:
            return _HANDSTATUS_PLAYING
        return _HANDSTATUS_WAITING

    @property
    def kitty(self) -> int | None:
        return self.config.kitty

    @property
    def kitty_now(self) -> int | None:
        """The kitty with the busted hands' shoot bets added (clause 17)."""
        if self.config.kitty is None:
            return None
        return self.config.kitty + sum(
            hand.shot for player in self._players.values() for hand in player.hands if hand.bust
        )

    @property
    def shoot_open(self) -> int:
        """Shoot bets still riding (on hands not bust)."""
        return sum(
            hand.shot for player in self._players.values() for hand in player.hands if not hand.bust
        )

    @property
    def shoot_room(self) -> int:
        """What further shoot bets may total: all of them together stay within the kitty."""
        kitty = self.kitty_now
        return 0 if kitty is None else max(0, kitty - self.shoot_open)

    def shoot_bets(self) -> list[dict[str, Any]]:
        """Every shoot bet: seat, hand, the card it came before (1, 4, 5) and amount."""
        return [
            {"seat": player.seat, "hand": index, "card": card, "amount": amount}
            for player in self.players()
            for index, hand in enumerate(player.hands)
            for card, amount in sorted(hand.shoots.items())
        ]

    @property
    def cards_dealt(self) -> int:
        return len(self._banker_cards) + sum(
            len(hand.cards) for player in self._players.values() for hand in player.hands
        )

    @property
    def cards_left(self) -> int:
        """The cards still to be dealt from: the rest of the pack and the busted hands' cards
        put at its bottom (clause 10)."""
        return self._pack_left + sum(self._bottom.values())

    def cards_available(self) -> list[Card]:
        """The cards that may be dealt next: the rest of the pack, or once it is used up the
        busted hands' cards put at its bottom (clause 10)."""
        source = self._pack if self._pack_left else self._bottom
        return sorted(card for card, count in source.items() if count > 0)

    def pontoon_seat(self) -> int | None:
        """Clause 16: the player nearest the banker's left who made a pontoon on an unsplit
        hand (or a split one, by option); None when the banker had a pontoon (clause 4)."""
        if self.banker_pontoon or self.phase in (_PHASE_FIRST_CARD, _PHASE_STAKES, _PHASE_SHOOT):
            return None
        for player in self.players():
            if player.split and not self.rules.split_pontoon_takes_bank:
                continue
            if any(is_pontoon_pair(hand.cards) for hand in player.hands):
                return player.seat
        return None

    def next_banker(self) -> int:
        """Who holds the bank for the next hand: a pontoon's maker, a buyer, or the banker."""
        seat = self.pontoon_seat()
        if seat is not None:
            return seat
        return self._sale.buyer if self._sale is not None else self.banker

    # ------------------------------------------------------------------ legal actions, view

    def legal_actions(self) -> list[dict[str, Any]]:
        """What may be recorded now, for :attr:`to_act`, with amount bounds.

        Deals carry the card the dealer enters; ``max`` None means no maximum. Once the hand
        is complete the banker may still sell the bank (clause 16) unless a pontoon passes it.
        """
        if self.complete:
            if self.can_sell_bank_now():
                return [
                    {
                        "type": "sell_bank",
                        "seat": self.banker,
                        "buyers": list(self.order),
                        "min": self.rules.smallest_chip,
                    }
                ]
            return []
        seat = self.to_act
        if seat is None:
            return []
        chip = self.rules.smallest_chip
        if self.phase in (_PHASE_FIRST_CARD, _PHASE_SECOND_CARD):
            return [{"type": "deal"}]
        if self.phase is _PHASE_STAKES:
            return [{"type": "stake", "min": self.rules.least_stake, "max": self.rules.stake_max}]
        if self.phase is _PHASE_SHOOT:
            shoot = {"type": "shoot", "hand": 0, "card": 1, "min": chip, "max": self.shoot_room}
            return (
                [shoot, {"type": "no_shoot"}] if self.shoot_room >= chip else [{"type": "no_shoot"}]
            )
        if self.phase is _PHASE_BANKER:
            actions: list[dict[str, Any]] = [{"type": "draw"}]
            if self.can_stand(seat):
                actions.append({"type": "stand"})
            return actions
        index = self.current_hand
        assert index is not None
        hand = self._players[seat].hands[index]
        if len(hand.cards) < 2:
            return [{"type": "deal", "hand": index}]
        actions = []
        if self.can_split(seat, index):
            actions.append({"type": "split", "hand": index})
        if not hand.twisted:
            low, high = self._buy_bounds(hand)
            actions.append({"type": "buy", "hand": index, "min": low, "max": high})
        actions.append({"type": "twist", "hand": index})
        if self.can_stick(seat, index):
            actions.append({"type": "stick", "hand": index})
        position = len(hand.cards) + 1
        if (
            self.config.shoot
            and position in SHOOT_BEFORE_CARDS
            and position not in hand.shoots
            and self.shoot_room >= chip
        ):
            actions.append(
                {
                    "type": "shoot",
                    "hand": index,
                    "card": position,
                    "min": chip,
                    "max": self.shoot_room,
                }
            )
        return actions

    def view(self) -> dict[str, Any]:
        """The hand as the dealer tablet shows it, JSON-ready (every card is shown)."""
        return view_of(self)

    def presentation(self) -> Presentation:
        """What the table looks like, in the shape every game gives
        (:mod:`casino.rules.presentation`)."""
        return presentation_of(self)

    def actions(self) -> list[dict[str, Any]]:
        """The live actions so far (what :meth:`from_actions` replays)."""
        return [action for op in self._log if (action := op.to_action()) is not None]

    def to_record(self) -> dict[str, Any]:
        """The hand as an evaluate record (cards in the order dealt, decisions per hand)."""
        players = []
        for player in self.players():
            hands = []
            for index, hand in enumerate(player.hands):
                decisions: list[dict[str, Any]] = []
                for op in self._log:
                    if getattr(op, "seat", None) != player.seat:
                        continue
                    if getattr(op, "hand", None) != index:
                        continue
                    if isinstance(op, Buying):
                        decisions.append({"type": "buy", "amount": op.amount})
                    elif isinstance(op, Twisting):
                        decisions.append({"type": "twist"})
                    elif isinstance(op, Sticking):
                        decisions.append({"type": "stick"})
                hands.append({"cards": [str(card) for card in hand.cards], "actions": decisions})
            players.append({"seat": player.seat, "stake": player.stake, "hands": hands})
        record: dict[str, Any] = {
            "banker": {"seat": self.banker, "cards": [str(card) for card in self._banker_cards]},
            "players": players,
        }
        if self.config.kitty is not None:
            shoot: dict[str, Any] = {"kitty": self.config.kitty}
            if self.config.kitty_carried:
                shoot["kitty_carried"] = True
            shoot["bets"] = [
                {
                    "seat": bet["seat"],
                    "hand": bet["hand"],
                    "card": bet["card"],
                    "amount": bet["amount"],
                }
                for bet in self.shoot_bets()
            ]
            record["shoot"] = shoot
        if self._sale is not None:
            record["bank_sale"] = {"buyer": self._sale.buyer, "price": self._sale.price}
        return record

    # ------------------------------------------------------------------ deal

    def verify_deal(self, seat: int, card: Card, hand: int | None = None) -> None:
        """The first or second card of a seat, or the second card of a split hand."""
        self._verify_not_over(seat, _("be dealt a card"))
        if self.phase in (_PHASE_STAKES, _PHASE_SHOOT):
            raise RuleError(
                msg(
                    _("no card is dealt now: %(phase)s (seat %(seat)s is next)"),
                    phase=Message(self.phase.words),
                    seat=str(self.to_act),
                )
            )
        if self.phase is _PHASE_BANKER:
            raise RuleError(
                msg(
                    _(
                        "no card is dealt now: the banker is playing; record the banker's cards "
                        "as draw"
                    )
                )
            )
        if self.phase is _PHASE_PLAYERS:
            index = self._expect_hand(seat, hand)
            if len(self._players[seat].hands[index].cards) >= 2:
                raise RuleError(
                    msg(
                        _(
                            "%(who)s already has two cards: a further card is a buy or a twist "
                            "(a deal is only a split hand's second card)"
                        ),
                        who=self.who_words(seat, index),
                    )
                )
        elif seat != self.to_act:
            if seat != self.banker:
                self.player(seat)
            raise RuleError(
                msg(
                    _(
                        "card dealt to seat %(seat)s out of turn: seat %(next)s gets the next "
                        "card (%(order)s)"
                    ),
                    seat=seat,
                    next=str(self.to_act),
                    order=Message(DEAL_ORDER),
                )
            )
        elif hand not in (None, 0):
            raise RuleError(
                msg(_("seat %(seat)s has one hand (hand 0) while the cards are dealt"), seat=seat)
            )
        self._verify_card(card)

    def can_deal(self, seat: int, card: Card, hand: int | None = None) -> bool:
        return _can(self.verify_deal, seat, card, hand)

    def deal(self, seat: int, card: Card, hand: int | None = None) -> None:
        self.verify_deal(seat, card, hand)
        self._take(card)
        if seat == self.banker:
            self._banker_cards.append(card)
            self._log.append(Dealing(seat, 0, card, _ROUNDS[self.phase]))
        elif self.phase is _PHASE_PLAYERS:
            index = self.current_hand
            assert index is not None
            self._players[seat].hands[index].cards.append(card)
            self._log.append(Dealing(seat, index, card, "split"))
        else:
            self._players[seat].hands[0].cards.append(card)
            self._log.append(Dealing(seat, 0, card, _ROUNDS[self.phase]))
        self._advance()

    # ------------------------------------------------------------------ stake

    def verify_stake(self, seat: int, amount: int) -> None:
        """Clause 3: after the first card, between the table minimum and maximum."""
        self._verify_not_over(seat, "stake")
        if self.phase is not _PHASE_STAKES:
            raise RuleError(
                msg(
                    _("seat %(seat)s cannot stake now: %(phase)s"),
                    seat=seat,
                    phase=Message(self.phase.words),
                )
            )
        player = self.player(seat)
        if seat != self.to_act:
            raise RuleError(
                msg(
                    _("seat %(seat)s staked out of turn: seat %(next)s is to stake"),
                    seat=seat,
                    next=str(self.to_act),
                )
            )
        assert player.stake is None
        self._verify_amount(amount, lambda: prefixed(seat_words(seat), Message(_("stake"))))
        low, high = self.rules.least_stake, self.rules.stake_max
        if amount < low or (high is not None and amount > high):
            bounds = (
                msg(_("%(low)s to %(high)s"), low=Money(low), high=Money(high))
                if high is not None
                else msg(_("at least %(low)s"), low=Money(low))
            )
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s: stake %(amount)s is outside the table limits: "
                        "%(bounds)s (%(rule)s)"
                    ),
                    seat=seat,
                    amount=Money(amount),
                    bounds=bounds,
                    rule=pontoon_rule(3),
                )
            )

    def can_stake(self, seat: int, amount: int) -> bool:
        return _can(self.verify_stake, seat, amount)

    def stake(self, seat: int, amount: int) -> None:
        self.verify_stake(seat, amount)
        player = self._players[seat]
        player.stake = amount
        player.hands[0].stake = amount
        self._log.append(Staking(seat, amount))
        self._advance()

    # ------------------------------------------------------------------ shoot

    def verify_shoot(self, seat: int, amount: int, hand: int | None = None) -> None:
        """Clause 17: after the first-card stakes, or before a hand's 4th or 5th card."""
        if self.config.kitty is None:
            raise RuleError(
                msg(
                    _("seat %(seat)s cannot shoot: there is no kitty (this is not Shoot Pontoon)"),
                    seat=seat,
                )
            )
        self._verify_not_over(seat, "shoot")
        if self.phase is _PHASE_SHOOT:
            self.player(seat)
            if seat != self.to_act:
                raise RuleError(
                    msg(
                        _("seat %(seat)s shot out of turn: seat %(next)s may shoot next"),
                        seat=seat,
                        next=str(self.to_act),
                    )
                )
            if hand not in (None, 0):
                raise RuleError(
                    msg(
                        _("seat %(seat)s: the first shoot bet goes on the first hand (0)"),
                        seat=seat,
                    )
                )
        elif self.phase is _PHASE_PLAYERS:
            index, state = self._verify_turn(seat, _ACTIONTYPE_SHOOT, hand)
            position = len(state.cards) + 1
            if position not in SHOOT_BEFORE_CARDS:
                raise RuleError(
                    msg(
                        _(
                            "%(who)s cannot shoot before its %(nth)s card: a shoot bet is placed "
                            "after the first-card stakes or before the 4th or 5th card (%(rule)s)"
                        ),
                        who=self.who_words(seat, index),
                        nth=Message(nth(position)),
                        rule=pontoon_rule(17),
                    )
                )
            if position in state.shoots:
                raise RuleError(
                    msg(
                        _("%(who)s already placed a shoot bet before its %(nth)s card"),
                        who=self.who_words(seat, index),
                        nth=Message(nth(position)),
                    )
                )
        else:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s cannot shoot now: %(phase)s; shoot bets come after the "
                        "first-card stakes and before a hand's 4th or 5th card (%(rule)s)"
                    ),
                    seat=seat,
                    phase=Message(self.phase.words),
                    rule=pontoon_rule(17),
                )
            )
        self._verify_amount(amount, lambda: prefixed(seat_words(seat), Message(_("shoot bet"))))
        room = self.shoot_room
        if amount > room:
            kitty = self.kitty_now
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s: shoot bet %(amount)s is more than the kitty can cover: at "
                        "most %(room)s (kitty %(kitty)s, shoot bets of %(riding)s already riding; "
                        "all shoot bets together stay within the kitty, %(rule)s)"
                    ),
                    seat=seat,
                    amount=Money(amount),
                    room=Money(room),
                    kitty=as_money(kitty),
                    riding=Money(self.shoot_open),
                    rule=pontoon_rule(17),
                )
            )

    def can_shoot(self, seat: int, amount: int, hand: int | None = None) -> bool:
        return _can(self.verify_shoot, seat, amount, hand)

    def shoot(self, seat: int, amount: int, hand: int | None = None) -> None:
        self.verify_shoot(seat, amount, hand)
        if self.phase is _PHASE_SHOOT:
            index, position = 0, FIRST_CARD_SHOOT
            self._shoot_next += 1
        else:
            assert self.current_hand is not None
            index = self.current_hand
            position = len(self._players[seat].hands[index].cards) + 1
        self._players[seat].hands[index].shoots[position] = amount
        self._log.append(Shooting(seat, index, position, amount))
        self._advance()

    def verify_no_shoot(self, seat: int) -> None:
        self._verify_not_over(seat, _("decline a shoot bet"))
        if self.phase is not _PHASE_SHOOT:
            raise RuleError(
                msg(
                    _("seat %(seat)s: no_shoot is only for the first shoot bets, after the stakes"),
                    seat=seat,
                )
            )
        self.player(seat)
        if seat != self.to_act:
            raise RuleError(
                msg(
                    _("seat %(seat)s acted out of turn: seat %(next)s may shoot next"),
                    seat=seat,
                    next=str(self.to_act),
                )
            )

    def can_no_shoot(self, seat: int) -> bool:
        return _can(self.verify_no_shoot, seat)

    def no_shoot(self, seat: int) -> None:
        self.verify_no_shoot(seat)
        self._shoot_next += 1
        self._log.append(NoShooting(seat))
        self._advance()

    # ------------------------------------------------------------------ split

    def verify_split(self, seat: int, hand: int | None = None) -> None:
        """Clause 6: two cards of equal rank (ten-values only of the same rank), up to
        ``max_split_hands`` hands."""
        index, state = self._verify_turn(seat, _ACTIONTYPE_SPLIT, hand)
        if len(state.cards) != 2:
            raise RuleError(
                msg(
                    _("%(who)s cannot split: only a hand of two cards splits (%(rule)s)"),
                    who=self.who_words(seat, index),
                    rule=pontoon_rule(6),
                )
            )
        first, second = state.cards
        if first.rank != second.rank or (self.rules.split_aces_only and first.rank != ACE):
            self._refuse_split(seat, index, state)
        most = self.rules.max_split_hands
        if len(self._players[seat].hands) >= most:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s cannot split again: at most %(most)s hands after "
                        "splitting (%(rule)s)"
                    ),
                    seat=seat,
                    most=most,
                    rule=pontoon_rule(6),
                )
                if most > 1
                else msg(
                    _("seat %(seat)s cannot split: splitting is not allowed at this table"),
                    seat=seat,
                )
            )

    def _refuse_split(self, seat: int, index: int, state: HandState) -> NoReturn:
        """Why a hand of two cards does not split (clause 6): unequal ranks, or not aces at a
        table where only aces split."""
        words = self.who_words(seat, index)
        first, second = state.cards
        pair = card_text(state.cards)
        if first.rank != second.rank:
            if is_ten_value(first) and is_ten_value(second):
                raise RuleError(
                    msg(
                        _(
                            "%(who)s cannot split %(pair)s: ten-value cards split only when they "
                            "are the same rank (K-K yes, K-Q no) (%(rule)s)"
                        ),
                        who=words,
                        pair=pair,
                        rule=pontoon_rule(6),
                    )
                )
            raise RuleError(
                msg(
                    _(
                        "%(who)s cannot split %(pair)s: only two cards of equal rank split (%(rule)s)"
                    ),
                    who=words,
                    pair=pair,
                    rule=pontoon_rule(6),
                )
            )
        raise RuleError(  # only aces split at this table
            msg(
                _("%(who)s cannot split %(pair)s: at this table only aces split"),
                who=words,
                pair=pair,
            )
        )

    def can_split(self, seat: int, hand: int | None = None) -> bool:
        return _can(self.verify_split, seat, hand)

    def split(self, seat: int, hand: int | None = None) -> None:
        self.verify_split(seat, hand)
        player = self._players[seat]
        index = self.current_hand
        assert index is not None and player.stake is not None
        state = player.hands[index]
        moved = state.cards.pop()
        player.hands.insert(index + 1, HandState([moved], player.stake))
        self._log.append(Splitting(seat, index, player.stake))
        self._advance()

    # ------------------------------------------------------------------ buy and twist

    def verify_buy(self, seat: int, amount: int, card: Card, hand: int | None = None) -> None:
        """Clause 7: below 21, never after a twist, within the bounds for that card."""
        index, state = self._verify_turn(seat, _ACTIONTYPE_BUY, hand)
        if state.twisted:
            raise RuleError(
                msg(
                    _(
                        "%(who)s cannot buy after twisting: once a card is twisted the hand may "
                        "only twist or stick (%(rule)s)"
                    ),
                    who=self.who_words(seat, index),
                    rule=pontoon_rule(8),
                )
            )
        self._verify_amount(
            amount, lambda: prefixed(self.who_words(seat, index), Message(_("buy")))
        )
        low, high = self._buy_bounds(state)
        if not low <= amount <= high:
            position = len(state.cards) + 1
            if state.buys:
                why = msg(
                    _(
                        "at least the first stake %(stake)s, at most the %(last)s added for the "
                        "%(nth)s card"
                    ),
                    stake=as_money(state.stake),
                    last=Money(state.buys[-1]),
                    nth=Message(nth(position - 1)),
                )
            else:
                why = msg(
                    _("at least the first stake %(stake)s, at most twice it"),
                    stake=as_money(state.stake),
                )
            raise RuleError(
                msg(
                    _(
                        "%(who)s: a %(nth)s-card buy is %(low)s to %(high)s (%(why)s), not "
                        "%(amount)s (%(rule)s)"
                    ),
                    who=self.who_words(seat, index),
                    nth=Message(nth(position)),
                    low=Money(low),
                    high=Money(high),
                    why=why,
                    amount=Money(amount),
                    rule=pontoon_rule(7),
                )
            )
        self._verify_card(card)

    def can_buy(self, seat: int, amount: int, card: Card, hand: int | None = None) -> bool:
        return _can(self.verify_buy, seat, amount, card, hand)

    def buy(self, seat: int, amount: int, card: Card, hand: int | None = None) -> None:
        self.verify_buy(seat, amount, card, hand)
        index = self.current_hand
        assert index is not None
        state = self._players[seat].hands[index]
        self._take(card)
        state.cards.append(card)
        state.buys.append(amount)
        self._log.append(Buying(seat, index, amount, card))
        self._advance()

    def verify_twist(self, seat: int, card: Card, hand: int | None = None) -> None:
        """Clause 8: below 21, the card face up, the stake unchanged."""
        self._verify_turn(seat, _ACTIONTYPE_TWIST, hand)
        self._verify_card(card)

    def can_twist(self, seat: int, card: Card, hand: int | None = None) -> bool:
        return _can(self.verify_twist, seat, card, hand)

    def twist(self, seat: int, card: Card, hand: int | None = None) -> None:
        self.verify_twist(seat, card, hand)
        index = self.current_hand
        assert index is not None
        state = self._players[seat].hands[index]
        self._take(card)
        state.cards.append(card)
        state.twisted = True
        self._log.append(Twisting(seat, index, card))
        self._advance()

    # ------------------------------------------------------------------ stick

    def verify_stick(self, seat: int, hand: int | None = None) -> None:
        """Clause 9: on ``stick_minimum`` or more; soft totals count."""
        index, state = self._verify_turn(seat, _ACTIONTYPE_STICK, hand)
        if state.owes_card:
            position = len(state.cards) + 1
            raise RuleError(
                msg(
                    _(
                        "%(who)s shot before its %(nth)s card, so it buys or twists that card (%(rule)s)"
                    ),
                    who=self.who_words(seat, index),
                    nth=Message(nth(position)),
                    rule=pontoon_rule(17),
                )
            )
        value = self.value(seat, index)
        least = self.rules.stick_minimum
        if value.total < least:
            raise RuleError(
                msg(
                    _(
                        "%(who)s cannot stick on %(value)s: a hand sticks only on %(least)s or more (%(rule)s)"
                    ),
                    who=self.who_words(seat, index),
                    value=value.words,
                    least=least,
                    rule=pontoon_rule(9),
                )
            )

    def can_stick(self, seat: int, hand: int | None = None) -> bool:
        return _can(self.verify_stick, seat, hand)

    def stick(self, seat: int, hand: int | None = None) -> None:
        self.verify_stick(seat, hand)
        index = self.current_hand
        assert index is not None
        self._players[seat].hands[index].end = _HANDSTATUS_STOOD
        self._log.append(Sticking(seat, index))
        self._advance()

    # ------------------------------------------------------------------ the banker

    def verify_draw(self, seat: int, card: Card) -> None:
        """Clause 11: the banker draws face up, one card at a time."""
        self._verify_banker(seat, "draw")
        self._verify_card(card)

    def can_draw(self, seat: int, card: Card) -> bool:
        return _can(self.verify_draw, seat, card)

    def draw(self, seat: int, card: Card) -> None:
        self.verify_draw(seat, card)
        self._take(card)
        self._banker_cards.append(card)
        self._log.append(BankerDrawing(seat, card))
        self._advance()

    def verify_stand(self, seat: int) -> None:
        """Clause 11: no minimum unless the rules set the banker's (soft totals count)."""
        self._verify_banker(seat, "stand")
        least = self.rules.banker_stick_minimum
        value = self.banker_value
        if least is not None and value.total < least:
            raise RuleError(
                msg(
                    _(
                        "the banker cannot stand on %(value)s: the banker draws to %(least)s or "
                        "more at this table (%(rule)s)"
                    ),
                    value=value.words,
                    least=least,
                    rule=pontoon_rule(11),
                )
            )

    def can_stand(self, seat: int) -> bool:
        return _can(self.verify_stand, seat)

    def stand(self, seat: int) -> None:
        self.verify_stand(seat)
        self._banker_end = _HANDSTATUS_STOOD
        self._log.append(BankerStanding(seat))
        self._advance()

    # ------------------------------------------------------------------ selling the bank

    def verify_sell_bank(self, seat: int, buyer: int, price: int) -> None:
        """Clause 16: after a hand the banker may sell the bank to a player."""
        if self.phase is not _PHASE_COMPLETE:
            raise RuleError(
                msg(
                    _("the bank is sold between hands, not now: %(phase)s"),
                    phase=Message(self.phase.words),
                )
            )
        if seat != self.banker:
            raise RuleError(
                msg(
                    _("only the banker (seat %(banker)s) sells the bank, not seat %(seat)s"),
                    banker=self.banker,
                    seat=seat,
                )
            )
        if self._sale is not None:
            raise RuleError(
                msg(_("the bank was already sold to seat %(seat)s"), seat=self._sale.buyer)
            )
        if buyer not in self._players:
            raise RuleError(
                msg(
                    _("seat %(seat)s is not a player in this hand and cannot buy the bank"),
                    seat=buyer,
                )
            )
        self._verify_amount(price, lambda: Message(_("the bank's price")))
        taker = self.pontoon_seat()
        if taker is not None:
            raise RuleError(
                msg(
                    _(
                        "the bank passes to seat %(seat)s, who made a pontoon (%(rule)s): it is no "
                        "longer the banker's to sell"
                    ),
                    seat=taker,
                    rule=pontoon_rule(16),
                )
            )

    def can_sell_bank(self, seat: int, buyer: int, price: int) -> bool:
        return _can(self.verify_sell_bank, seat, buyer, price)

    def can_sell_bank_now(self) -> bool:
        """Whether some sale could be recorded now."""
        return bool(self.order) and self.can_sell_bank(
            self.banker, self.order[0], self.rules.smallest_chip
        )

    def sell_bank(self, seat: int, buyer: int, price: int) -> None:
        self.verify_sell_bank(seat, buyer, price)
        self._sale = SellingBank(seat, buyer, price)
        self._log.append(self._sale)

    # ------------------------------------------------------------------ JSON actions

    def apply(self, action: Mapping[str, Any], index: int | None = None) -> None:
        """Read one JSON action, check it and apply it.

        Every problem is reported at ``actions[index]`` (``action`` without an index).
        """
        try:  # apply_at(action, action_path(index)), the path made only for a problem
            self._apply(action)
        except RuleError as error:
            raise reported(error, action_path(index)) from None

    def apply_at(self, action: Mapping[str, Any], path: str) -> None:
        """:meth:`apply`, reporting problems at ``path`` (a record replay's own paths)."""
        with reported_at(path):
            self._apply(action)

    def _apply(self, action: Mapping[str, Any]) -> None:
        decoded = decode(action, ACTIONS)
        # What decode gives (the seat, each required field given, an optional one or None),
        # read from its values without an accessor each.
        values: Any = decoded.values
        seat, kind = values["seat"], ACTION_TYPES[decoded.type]
        if kind is _ACTIONTYPE_DEAL:
            self.deal(seat, values["card"], values["hand"])
        elif kind is _ACTIONTYPE_STAKE:
            self.stake(seat, values["amount"])
        elif kind is _ACTIONTYPE_SHOOT:
            self.shoot(seat, values["amount"], values["hand"])
        elif kind is _ACTIONTYPE_NO_SHOOT:
            self.no_shoot(seat)
        elif kind is _ACTIONTYPE_SPLIT:
            self.split(seat, values["hand"])
        elif kind is _ACTIONTYPE_BUY:
            self.buy(seat, values["amount"], values["card"], values["hand"])
        elif kind is _ACTIONTYPE_TWIST:
            self.twist(seat, values["card"], values["hand"])
        elif kind is _ACTIONTYPE_STICK:
            self.stick(seat, values["hand"])
        elif kind is _ACTIONTYPE_DRAW:
            self.draw(seat, values["card"])
        elif kind is _ACTIONTYPE_STAND:
            self.stand(seat)
        else:
            self.sell_bank(seat, values["buyer"], values["price"])

    # ------------------------------------------------------------------ settlement

    def settle(self) -> Settlement:
        """The finished hand's settlement (clauses 4, 10, 12-17); RuleError while it runs."""
        if not self.complete:
            raise RuleError(
                msg(
                    _("the hand is not finished: %(phase)s (seat %(seat)s is next)"),
                    phase=Message(self.phase.words),
                    seat=str(self.to_act),
                ),
                "actions",
            )
        return settle_hand(self)

    # ------------------------------------------------------------------ internals

    def who(self, seat: int, index: int) -> str:
        """``seat 2``, or ``seat 2's second hand`` for a seat with several hands."""
        player = self._players.get(seat)
        if player is None or not player.split:
            return f"seat {seat}"
        return f"seat {seat}'s {nth(index + 1)} hand"

    def who_words(self, seat: int, index: int) -> Message:
        """:meth:`who` as a message."""
        player = self._players.get(seat)
        if player is None or not player.split:
            return msg(_("seat %(seat)s"), seat=seat)
        return msg(_("seat %(seat)s's %(nth)s hand"), seat=seat, nth=Message(nth(index + 1)))

    def _verify_not_over(self, seat: int, verb: str) -> None:
        if self.phase is _PHASE_COMPLETE:
            why: Message
            if self.banker_pontoon:
                why = msg(
                    _("the banker has a pontoon, so the players take no turns (%(rule)s)"),
                    rule=pontoon_rule(4),
                )
            elif self._banker_end is _HANDSTATUS_NOT_PLAYED:
                why = Message(_("every player's hand is bust, so the banker does not play"))
            else:
                why = Message(_("the hand is over"))
            who = (
                Message(_("the banker"))
                if seat == self.banker
                else msg(_("seat %(seat)s"), seat=seat)
            )
            raise RuleError(
                msg(_("%(who)s cannot %(verb)s: %(why)s"), who=who, verb=Message(verb), why=why)
            )

    def _expect_hand(self, seat: int, hand: int | None) -> int:
        """In the players' turns: the acting seat and, if given, its hand in play."""
        player = self.player(seat)
        if seat != self.to_act:
            raise RuleError(
                msg(
                    _("seat %(seat)s acted out of turn: seat %(next)s is to act"),
                    seat=seat,
                    next=str(self.to_act),
                )
            )
        index = self.current_hand
        assert index is not None
        if hand is not None and hand != index:
            if hand >= len(player.hands):
                raise RuleError(
                    msg(
                        _("seat %(seat)s has no hand %(hand)s (it has %(count)s)"),
                        seat=seat,
                        hand=hand,
                        count=len(player.hands),
                    )
                )
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s: hand %(hand)s is not in play; hand %(index)s (its "
                        "%(nth)s) is to act"
                    ),
                    seat=seat,
                    hand=hand,
                    index=index,
                    nth=Message(nth(index + 1)),
                )
            )
        return index

    def _verify_turn(self, seat: int, kind: ActionType, hand: int | None) -> tuple[int, HandState]:
        """A player's decision on the hand in play; specific messages for a finished hand."""
        verb = str(kind)
        known = self._players.get(seat)
        if known is not None:
            if hand is not None:
                if hand < len(known.hands) and known.hands[hand].end is not None:
                    self._refuse_finished(seat, hand, known.hands[hand], verb)
            elif seat != self.to_act and len(known.hands) == 1 and known.hands[0].end is not None:
                self._refuse_finished(seat, 0, known.hands[0], verb)
        self._verify_not_over(seat, verb)
        if seat == self.banker:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s is the banker: the banker does not %(verb)s; it draws or stands"
                    ),
                    seat=seat,
                    verb=Message(verb),
                )
            )
        player = self.player(seat)
        if self.phase is not _PHASE_PLAYERS:
            raise RuleError(
                msg(
                    _("seat %(seat)s cannot %(verb)s now: %(phase)s"),
                    seat=seat,
                    verb=Message(verb),
                    phase=Message(self.phase.words),
                )
            )
        index = self._expect_hand(seat, hand)
        state = player.hands[index]
        if len(state.cards) < 2:
            raise RuleError(
                msg(
                    _("%(who)s has one card: deal its second card first"),
                    who=self.who_words(seat, index),
                )
            )
        return index, state

    def _refuse_finished(self, seat: int, index: int, state: HandState, verb: str) -> None:
        value = self.value(seat, index)
        limit = self.rules.five_card_limit
        why: Message
        if state.end is _HANDSTATUS_BUST:
            why = msg(
                _("the hand is bust (%(total)s) and its stake already lost (%(rule)s)"),
                total=value.total,
                rule=pontoon_rule(10),
            )
        elif state.end is _HANDSTATUS_FIVE_CARD_TRICK:
            why = msg(
                _(
                    "it already has %(limit)s cards (%(value)s) and a hand holds at most "
                    "%(limit)s, so a %(nth)s card is not allowed (%(rule)s)"
                ),
                limit=limit,
                value=value.words,
                nth=Message(nth(limit + 1)),
                rule=pontoon_rule(10),
            )
        elif state.end is _HANDSTATUS_PONTOON:
            why = msg(
                _("it has a pontoon, declared and shown: no more cards (%(rule)s)"),
                rule=pontoon_rule(5),
            )
        elif state.end is _HANDSTATUS_TWENTY_ONE:
            why = msg(
                _("it has 21, and a hand buys or twists only below 21 (%(rules)s)"),
                rules=pontoon_rule(7, 8),
            )
        else:
            why = msg(_("it has stuck on %(value)s"), value=value.words)
        raise RuleError(
            msg(
                _("%(who)s cannot %(verb)s: %(why)s"),
                who=self.who_words(seat, index),
                verb=Message(verb),
                why=why,
            )
        )

    def _verify_banker(self, seat: int, verb: str) -> None:
        self._verify_not_over(seat, verb)
        if seat != self.banker:
            raise RuleError(
                msg(
                    _(
                        "seat %(seat)s cannot %(verb)s: only the banker (seat %(banker)s) draws "
                        "and stands; a player buys, twists or sticks"
                    ),
                    seat=seat,
                    verb=Message(verb),
                    banker=self.banker,
                )
            )
        if self.phase is not _PHASE_BANKER:
            raise RuleError(
                msg(
                    _("the banker cannot %(verb)s now: %(phase)s"),
                    verb=Message(verb),
                    phase=Message(self.phase.words),
                )
            )

    def _verify_amount(self, amount: int, name: Callable[[], str]) -> None:
        """A positive whole amount within the maximum, a multiple of the smallest chip;
        ``name()`` says what it is (made only for a refusal)."""
        chip = self.rules.smallest_chip
        if type(amount) is int and 1 <= amount <= MAX_AMOUNT and not amount % chip:
            return
        what = name()
        if not is_int(amount) or amount < 1:
            raise RuleError(
                msg(
                    _("%(name)s must be a positive whole amount, got %(value)s"),
                    name=what,
                    value=money_or_repr(amount),
                )
            )
        too_big = beyond_maximum(amount, what)
        if too_big is not None:
            raise RuleError(too_big)
        if amount % chip:
            raise RuleError(not_a_chip_multiple(what, amount, chip))

    def _buy_bounds(self, state: HandState) -> tuple[int, int]:
        """Clause 7: 3rd card stake..2x stake; later cards stake..the previous buy."""
        high = state.buys[-1] if state.buys else 2 * state.stake
        return state.stake, high

    def _verify_card(self, card: Card) -> None:
        if not isinstance(card, Card):
            raise RuleError(msg(_("%(value)s is not a card"), value=repr(card)))
        if self._pack_left:
            if self._pack[card] > 0:
                return
            places = self._holders(card)
            both = self.rules.decks == 2
            if places:
                raise RuleError(
                    msg(
                        _(
                            "both copies of %(card)s already dealt this hand (%(places)s): a "
                            "card dealt twice"
                        )
                        if both
                        else _("%(card)s already dealt this hand (%(places)s): a card dealt twice"),
                        card=str(card),
                        places=joined(places, _("%(first)s, %(next)s")),
                    )
                )
            raise RuleError(
                msg(
                    _("both copies of %(card)s already dealt this hand: a card dealt twice")
                    if both
                    else _("%(card)s already dealt this hand: a card dealt twice"),
                    card=str(card),
                )
            )
        if self._bottom[card] > 0:
            return
        raise RuleError(
            msg(
                _(
                    "%(card)s cannot be dealt: the pack is used up and only the busted hands' "
                    "cards put at its bottom come round again (%(available)s)"
                ),
                card=str(card),
                available=", ".join(map(str, self.cards_available())),
            )
        )

    def _holders(self, card: Card) -> list[Message]:
        places: list[Message] = []
        if card in self._banker_cards:
            places.append(msg(_("the banker (seat %(seat)s)"), seat=self.banker))
        for player in self.players():
            for index, hand in enumerate(player.hands):
                if card in hand.cards:
                    places.append(self.who_words(player.seat, index))
        return places

    def _take(self, card: Card) -> None:
        if self._pack_left:
            self._pack[card] -= 1
            self._pack_left -= 1
        else:
            self._bottom[card] -= 1

    def _set_phase(self, phase: Phase) -> None:
        self.phase = phase
        self._log.append(PhaseChange(phase))

    def _auto_end(self, player: PlayerState, state: HandState) -> HandStatus | None:
        """Clause 5 and 10: a pontoon, 21, the card limit or bust ends the hand by itself."""
        rules = self.rules
        value = hand_value(  # self.value(seat, index), the seat's state at hand
            state.cards,
            limit=rules.five_card_limit,
            split=len(player.hands) > 1,
            split_pontoon_is_pontoon=rules.split_pontoon_pays_double,
        )
        if value.kind is _KIND_BUST:
            return _HANDSTATUS_BUST
        if value.kind is _KIND_PONTOON:
            return _HANDSTATUS_PONTOON
        if value.kind is _KIND_FIVE_CARD_TRICK:
            return _HANDSTATUS_FIVE_CARD_TRICK
        if value.total == 21:
            return _HANDSTATUS_TWENTY_ONE
        return None

    def _advance(self) -> None:
        """Move to whoever the next step concerns, ending hands and phases on the way."""
        while True:
            if self.phase is _PHASE_FIRST_CARD or self.phase is _PHASE_SECOND_CARD:
                need = 1 if self.phase is _PHASE_FIRST_CARD else 2
                waiting = [s for s in self.order if len(self._players[s].hands[0].cards) < need]
                if waiting:
                    self.to_act = waiting[0]
                    return
                if len(self._banker_cards) < need:
                    self.to_act = self.banker
                    return
                if self.phase is _PHASE_FIRST_CARD:
                    self._set_phase(_PHASE_STAKES)
                elif self.banker_pontoon:
                    self._banker_end = _HANDSTATUS_PONTOON
                    self._log.append(
                        HandEnding(self.banker, 0, _HANDSTATUS_PONTOON, str(self.banker_value))
                    )
                    self._finish()
                    return
                else:
                    self._set_phase(_PHASE_PLAYERS)
            elif self.phase is _PHASE_STAKES:
                waiting = [s for s in self.order if self._players[s].stake is None]
                if waiting:
                    self.to_act = waiting[0]
                    return
                self._set_phase(_PHASE_SHOOT if self.config.shoot else _PHASE_SECOND_CARD)
            elif self.phase is _PHASE_SHOOT:
                if self._shoot_next < len(self.order):
                    self.to_act = self.order[self._shoot_next]
                    return
                self._set_phase(_PHASE_SECOND_CARD)
            elif self.phase is _PHASE_PLAYERS:
                if self._next_player_hand():
                    return
                if any(not hand.bust for p in self._players.values() for hand in p.hands):
                    self._set_phase(_PHASE_BANKER)
                    self.current_hand = None
                else:
                    self._banker_end = _HANDSTATUS_NOT_PLAYED
                    self.current_hand = None
                    self._finish()
                    return
            elif self.phase is _PHASE_BANKER:
                value = self.banker_value
                end = None
                if value.kind is _KIND_BUST:
                    end = _HANDSTATUS_BUST
                elif value.kind is _KIND_FIVE_CARD_TRICK:
                    end = _HANDSTATUS_FIVE_CARD_TRICK
                elif value.total == 21:
                    end = _HANDSTATUS_TWENTY_ONE
                if end is not None:
                    self._banker_end = end
                    self._log.append(HandEnding(self.banker, 0, end, str(value)))
                if self._banker_end is not None:
                    self._finish()
                    return
                self.to_act = self.banker
                return
            else:
                self.to_act = None
                return

    def _next_player_hand(self) -> bool:
        """Point at the next hand still to play; False when every hand is finished."""
        for seat in self.order:
            player = self._players[seat]
            for index, state in enumerate(player.hands):
                if state.end is not None:
                    continue
                if len(state.cards) >= 2:
                    end = self._auto_end(player, state)
                    if end is not None:
                        state.end = end
                        if end is _HANDSTATUS_BUST:
                            self._bottom.update(state.cards)
                        self._log.append(HandEnding(seat, index, end, str(self.value(seat, index))))
                        continue
                self.to_act = seat
                self.current_hand = index
                return True
        return False

    def _finish(self) -> None:
        self._set_phase(_PHASE_COMPLETE)
        self.to_act = None
        self.current_hand = None


# --------------------------------------------------------------------------- helpers


#: Each phase's word for the round a card is dealt in (``first``, ``second``).
_ROUNDS: dict[Phase, str] = {phase: str(phase).split("_")[0] for phase in Phase}


def _can(verify: Callable[..., None], *args: Any) -> bool:
    try:
        verify(*args)
    except RuleError:
        return False
    return True
