"""Pontoon: the vocabularies (phases, action types, hand statuses) and the frozen operation
records a :class:`~casino.rules.pontoon.hand.PontoonHand` appends to its log.

Each operation gives ``to_dict()`` (the log entry) and ``to_action()``: the live action that
replays it, or None for an automatic step (a hand ending by itself, a phase change).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeAlias

from casino.rules import actions as a
from casino.rules.actions import ActionSpec, ActionTable
from casino.rules.cards import Card
from casino.rules.contract import Operation as OperationBase
from casino.rules.messages import _
from casino.rules.quick import quick_init
from casino.rules.rule_titles import pontoon_rule

GAME_CODE = "pontoon"
GAME_NAME = _("Pontoon")  # the game's name, translated where the API serves it
ORDINALS = {1: _("first"), 2: _("second"), 3: _("third"), 4: _("fourth"), 5: _("fifth")}
ORDINALS.update({6: _("sixth"), 7: _("seventh"), 8: _("eighth")})
#: Clause 17: a further shoot bet may be placed before these cards of a hand.
SHOOT_BEFORE_CARDS = (4, 5)
#: Where a first-card shoot bet is recorded (``"card": 1``).
FIRST_CARD_SHOOT = 1


class Phase(StrEnum):
    FIRST_CARD = "first_card"
    STAKES = "stakes"
    SHOOT = "shoot"
    SECOND_CARD = "second_card"
    PLAYERS = "players"
    BANKER = "banker"
    COMPLETE = "complete"

    @property
    def words(self) -> str:
        return {
            Phase.FIRST_CARD: _("the first cards are being dealt"),
            Phase.STAKES: _("the first-card stakes are being placed"),
            Phase.SHOOT: _("the first shoot bets are being placed"),
            Phase.SECOND_CARD: _("the second cards are being dealt"),
            Phase.PLAYERS: _("the players are taking their turns"),
            Phase.BANKER: _("the players' turns are over and the banker is playing"),
            Phase.COMPLETE: _("the hand is over"),
        }[self]


#: The players' and banker's verbs as the errors say them ("seat 2 cannot twist: ..."),
#: marked for the catalogs.
VERBS = (
    _("deal"),
    _("stake"),
    _("shoot"),
    _("split"),
    _("buy"),
    _("twist"),
    _("stick"),
    _("draw"),
    _("stand"),
)


class ActionType(StrEnum):
    DEAL = "deal"
    STAKE = "stake"
    SHOOT = "shoot"
    NO_SHOOT = "no_shoot"
    SPLIT = "split"
    BUY = "buy"
    TWIST = "twist"
    STICK = "stick"
    DRAW = "draw"
    STAND = "stand"
    SELL_BANK = "sell_bank"


#: Each action type by its JSON name (``ActionType(name)`` without the Enum's call).
ACTION_TYPES: dict[str, ActionType] = {str(kind): kind for kind in ActionType}


class HandStatus(StrEnum):
    """Where a hand stands; everything but ``waiting`` and ``playing`` is final."""

    WAITING = "waiting"
    PLAYING = "playing"
    STOOD = "stood"
    PONTOON = "pontoon"
    TWENTY_ONE = "twenty_one"
    FIVE_CARD_TRICK = "five_card_trick"
    BUST = "bust"
    NOT_PLAYED = "not_played"  # the banker, when every player's hand went bust


_SEAT = _("the seat it concerns")
#: The hand's actions (:mod:`casino.rules.actions`): decoded by ``PontoonHand.apply``, shown in
#: the API document. ``hand`` (a split seat's hand, from 0) may be left out for the hand in play.
ACTIONS = ActionTable(
    {
        ActionType.DEAL: ActionSpec(
            {
                "seat": a.seat(_SEAT),
                "card": a.card(_("the card dealt")),
                "hand": a.hand(_("a split hand's index (its second card)"), most=3),
            },
            "A card dealt to a player or the banker, as it is dealt.",
        ),
        ActionType.STAKE: ActionSpec({"seat": a.seat(_SEAT), "amount": a.amount(_("the stake"))}),
        ActionType.SHOOT: ActionSpec(
            {
                "seat": a.seat(_SEAT),
                "amount": a.amount(_("the shoot bet")),
                "hand": a.hand(_("the seat's hand, from 0"), most=3),
            },
            f"A shoot bet ({pontoon_rule(17)}).",
        ),
        ActionType.NO_SHOOT: ActionSpec({"seat": a.seat(_SEAT)}),
        ActionType.SPLIT: ActionSpec(
            {"seat": a.seat(_SEAT), "hand": a.hand(_("the seat's hand, from 0"), most=3)}
        ),
        ActionType.BUY: ActionSpec(
            {
                "seat": a.seat(_SEAT),
                "hand": a.hand(_("the seat's hand, from 0"), most=3),
                "amount": a.amount(_("the price of the card bought")),
                "card": a.card(_("the card bought")),
            }
        ),
        ActionType.TWIST: ActionSpec(
            {
                "seat": a.seat(_SEAT),
                "hand": a.hand(_("the seat's hand, from 0"), most=3),
                "card": a.card(_("the card twisted")),
            }
        ),
        ActionType.STICK: ActionSpec(
            {"seat": a.seat(_SEAT), "hand": a.hand(_("the seat's hand, from 0"), most=3)}
        ),
        ActionType.DRAW: ActionSpec(
            {"seat": a.seat(_SEAT), "card": a.card(_("the card the banker draws"))}
        ),
        ActionType.STAND: ActionSpec({"seat": a.seat(_SEAT)}),
        ActionType.SELL_BANK: ActionSpec(
            {
                "seat": a.seat(_SEAT),
                "buyer": a.seat(_("the seat buying the bank")),
                "price": a.amount(_("the price paid for the bank")),
            },
            f"The banker sells the bank after the hand ({pontoon_rule(16)}).",
        ),
    }
)


def nth(number: int) -> str:
    return ORDINALS.get(number, f"{number}th")


# --------------------------------------------------------------------------- operations


@quick_init
@dataclass(frozen=True, slots=True)
class Dealing(OperationBase):
    """A card dealt: ``round`` is ``first``, ``second`` or ``split`` (a split hand's second)."""

    seat: int
    hand: int
    card: Card
    round: str

    def to_action(self) -> dict[str, Any] | None:
        action: dict[str, Any] = {"type": "deal", "seat": self.seat, "card": str(self.card)}
        if self.round == "split":
            action["hand"] = self.hand
        return action

    def to_dict(self) -> dict[str, Any]:
        return {
            "op": "deal",
            "seat": self.seat,
            "hand": self.hand,
            "card": str(self.card),
            "round": self.round,
        }


@quick_init
@dataclass(frozen=True, slots=True)
class Staking(OperationBase):
    seat: int
    amount: int

    def to_action(self) -> dict[str, Any] | None:
        return {"type": "stake", "seat": self.seat, "amount": self.amount}

    def to_dict(self) -> dict[str, Any]:
        return {"op": "stake", "seat": self.seat, "amount": self.amount}


@quick_init
@dataclass(frozen=True, slots=True)
class Shooting(OperationBase):
    """A shoot bet placed before ``before_card`` of the hand (1: after the first-card stakes)."""

    seat: int
    hand: int
    before_card: int
    amount: int

    def to_action(self) -> dict[str, Any] | None:
        return {"type": "shoot", "seat": self.seat, "hand": self.hand, "amount": self.amount}

    def to_dict(self) -> dict[str, Any]:
        return {
            "op": "shoot",
            "seat": self.seat,
            "hand": self.hand,
            "card": self.before_card,
            "amount": self.amount,
        }


@quick_init
@dataclass(frozen=True, slots=True)
class NoShooting(OperationBase):
    """A player declines the first shoot bet."""

    seat: int

    def to_action(self) -> dict[str, Any] | None:
        return {"type": "no_shoot", "seat": self.seat}

    def to_dict(self) -> dict[str, Any]:
        return {"op": "no_shoot", "seat": self.seat}


@quick_init
@dataclass(frozen=True, slots=True)
class Splitting(OperationBase):
    """Hand ``hand`` split; the new hand (``hand + 1``) carries ``stake``."""

    seat: int
    hand: int
    stake: int

    def to_action(self) -> dict[str, Any] | None:
        return {"type": "split", "seat": self.seat, "hand": self.hand}

    def to_dict(self) -> dict[str, Any]:
        return {"op": "split", "seat": self.seat, "hand": self.hand, "stake": self.stake}


@quick_init
@dataclass(frozen=True, slots=True)
class Buying(OperationBase):
    seat: int
    hand: int
    amount: int
    card: Card

    def to_action(self) -> dict[str, Any] | None:
        return {
            "type": "buy",
            "seat": self.seat,
            "hand": self.hand,
            "amount": self.amount,
            "card": str(self.card),
        }

    def to_dict(self) -> dict[str, Any]:
        return {"op": "buy", **(self.to_action() or {})}


@quick_init
@dataclass(frozen=True, slots=True)
class Twisting(OperationBase):
    seat: int
    hand: int
    card: Card

    def to_action(self) -> dict[str, Any] | None:
        return {"type": "twist", "seat": self.seat, "hand": self.hand, "card": str(self.card)}

    def to_dict(self) -> dict[str, Any]:
        return {"op": "twist", "seat": self.seat, "hand": self.hand, "card": str(self.card)}


@quick_init
@dataclass(frozen=True, slots=True)
class Sticking(OperationBase):
    seat: int
    hand: int

    def to_action(self) -> dict[str, Any] | None:
        return {"type": "stick", "seat": self.seat, "hand": self.hand}

    def to_dict(self) -> dict[str, Any]:
        return {"op": "stick", "seat": self.seat, "hand": self.hand}


@quick_init
@dataclass(frozen=True, slots=True)
class HandEnding(OperationBase):
    """A hand ended by itself (automatic): pontoon, 21, a five card trick or bust."""

    seat: int
    hand: int
    status: HandStatus
    value: str

    def to_action(self) -> dict[str, Any] | None:
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "op": "hand_end",
            "seat": self.seat,
            "hand": self.hand,
            "status": str(self.status),
            "value": self.value,
        }


@quick_init
@dataclass(frozen=True, slots=True)
class BankerDrawing(OperationBase):
    seat: int
    card: Card

    def to_action(self) -> dict[str, Any] | None:
        return {"type": "draw", "seat": self.seat, "card": str(self.card)}

    def to_dict(self) -> dict[str, Any]:
        return {"op": "draw", "seat": self.seat, "card": str(self.card)}


@quick_init
@dataclass(frozen=True, slots=True)
class BankerStanding(OperationBase):
    seat: int

    def to_action(self) -> dict[str, Any] | None:
        return {"type": "stand", "seat": self.seat}

    def to_dict(self) -> dict[str, Any]:
        return {"op": "stand", "seat": self.seat}


@quick_init
@dataclass(frozen=True, slots=True)
class SellingBank(OperationBase):
    """Clause 16: the banker sells the bank to ``buyer`` for ``price`` after the hand."""

    seat: int
    buyer: int
    price: int

    def to_action(self) -> dict[str, Any] | None:
        return {"type": "sell_bank", "seat": self.seat, "buyer": self.buyer, "price": self.price}

    def to_dict(self) -> dict[str, Any]:
        return {"op": "sell_bank", "seat": self.seat, "buyer": self.buyer, "price": self.price}


@quick_init
@dataclass(frozen=True, slots=True)
class PhaseChange(OperationBase):
    phase: Phase

    def to_action(self) -> dict[str, Any] | None:
        return None

    def to_dict(self) -> dict[str, Any]:
        return {"op": "phase", "phase": str(self.phase)}


Operation: TypeAlias = (
    Dealing
    | Staking
    | Shooting
    | NoShooting
    | Splitting
    | Buying
    | Twisting
    | Sticking
    | HandEnding
    | BankerDrawing
    | BankerStanding
    | SellingBank
    | PhaseChange
)
