"""Palace Poker: the vocabularies and the frozen operation records of a hand's log.

The game's code and name; the hand's phases, endings, action types and standings; the action
table (:data:`ACTIONS`) the hand decodes its JSON actions with. Every action a player takes
appends one operation (``to_action`` gives it back as the record's JSON action); automatic
steps (antes, battle results, spoils, the end of the hand) are logged too and have no action.
The hand (:mod:`casino.rules.palace_poker.hand`) writes the log; the settlement
(:mod:`~casino.rules.palace_poker.settle`) and the views (:mod:`~casino.rules.palace_poker.view`)
read it. See :mod:`casino.rules.palace_poker.hand` for the rules as built.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeAlias

from casino.rules import actions as a
from casino.rules.actions import ActionSpec, ActionTable
from casino.rules.cards import Card
from casino.rules.contract import Operation as OperationBase
from casino.rules.messages import Message, _, msg
from casino.rules.quick import quick_init
from casino.rules.rule_titles import palace_poker_rule

GAME_CODE = "palace-poker"
GAME_NAME = _("Palace Poker")  # the game's name, translated where the API serves it


class Phase(StrEnum):
    PLAY = "play"  # turns: buy, discard, battle, stay, fold
    BATTLE = "battle"  # a battle's fold / call / raise
    COMPLETE = "complete"


class Ending(StrEnum):
    """How the hand ended (clauses 10, 13, 15, 16)."""

    LAST_STANDING = "last_standing"
    SHARED_SUIT = "shared_suit"
    SHOWDOWN = "showdown"
    SPLIT = "split"  # the last two tied a battle outright

    @property
    def words(self) -> str:
        return {
            Ending.LAST_STANDING: f"the last player standing takes the pot ({palace_poker_rule(13)})",
            Ending.SHARED_SUIT: "the players left share a banner suit and split the pot "
            f"({palace_poker_rule(15)})",
            Ending.SHOWDOWN: "a full round of stays, discards and folds ends in a showdown "
            f"({palace_poker_rule(16)})",
            Ending.SPLIT: f"the last two tied their battle outright and split the pot ({palace_poker_rule(10)})",
        }[self]

    @property
    def sentence(self) -> Message:
        """:attr:`words` with a capital letter, as a message."""
        template, number = {
            Ending.LAST_STANDING: (_("The last player standing takes the pot (%(rule)s)"), 13),
            Ending.SHARED_SUIT: (
                _("The players left share a banner suit and split the pot (%(rule)s)"),
                15,
            ),
            Ending.SHOWDOWN: (
                _("A full round of stays, discards and folds ends in a showdown (%(rule)s)"),
                16,
            ),
            Ending.SPLIT: (
                _("The last two tied their battle outright and split the pot (%(rule)s)"),
                10,
            ),
        }[self]
        return msg(template, rule=palace_poker_rule(number))


class ActionType(StrEnum):
    BUY = "buy"
    DISCARD = "discard"
    BATTLE = "battle"
    STAY = "stay"
    FOLD = "fold"
    CALL = "call"
    RAISE = "raise"


#: Each action type by its JSON name (``ActionType(name)`` without the Enum's call).
ACTION_TYPES: dict[str, ActionType] = {str(kind): kind for kind in ActionType}


TURN_ACTIONS = (ActionType.BUY, ActionType.DISCARD, ActionType.BATTLE, ActionType.STAY)
BATTLE_ACTIONS = (ActionType.CALL, ActionType.RAISE)

#: The hand's actions (:mod:`casino.rules.actions`): decoded by ``PalaceHand.apply``, shown in
#: the API document.
ACTIONS = ActionTable(
    {
        ActionType.BUY: ActionSpec(
            {
                "seat": a.seat(),
                "card": a.card(_("the stock card turned")),
                "discard": a.cards(_("soldiers discarded to make room"), required=False),
            },
            f"Buy the stock's top card as a soldier ({palace_poker_rule(6)}).",
        ),
        ActionType.DISCARD: ActionSpec(
            {"seat": a.seat(), "cards": a.cards(_("the soldiers thrown away"))}
        ),
        ActionType.BATTLE: ActionSpec(
            {
                "seat": a.seat(),
                "target": a.seat(_("the defender's seat")),
                "amount": a.amount(_("the bet"), minimum=0),
            },
            f"Attack another player ({palace_poker_rule(8)}).",
        ),
        ActionType.STAY: ActionSpec({"seat": a.seat()}),
        ActionType.FOLD: ActionSpec({"seat": a.seat()}),
        ActionType.CALL: ActionSpec(
            {
                "seat": a.seat(),
                "amount": a.amount(_("what is owed (checked if given)"), minimum=0, required=False),
            }
        ),
        ActionType.RAISE: ActionSpec(
            {"seat": a.seat(), "amount": a.amount(_("the raise on top of the call"), minimum=0)}
        ),
    }
)


class Standing(StrEnum):
    IN = "in"
    FOLDED = "folded"
    OUT = "out"


def _cards(cards: tuple[Card, ...]) -> list[str]:
    return [str(card) for card in cards]


@quick_init
@dataclass(frozen=True, slots=True)
class Anteing(OperationBase):
    """Clause 3 (automatic)."""

    seat: int
    amount: int

    def to_action(self) -> dict[str, Any] | None:
        return None

    def to_dict(self) -> dict[str, Any]:
        return {"op": "ante", "seat": self.seat, "amount": self.amount}


@quick_init
@dataclass(frozen=True, slots=True)
class Buying(OperationBase):
    """Clause 6: the card turned, the soldiers discarded after it, and the discards shuffled
    into a new stock first when the stock was empty (else empty)."""

    seat: int
    card: Card
    discard: tuple[Card, ...]
    cost: int
    reshuffled: tuple[Card, ...] = ()

    def to_action(self) -> dict[str, Any] | None:
        return {
            "seat": self.seat,
            "type": "buy",
            "card": str(self.card),
            "discard": _cards(self.discard),
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "op": "buy",
            "seat": self.seat,
            "card": str(self.card),
            "discard": _cards(self.discard),
            "cost": self.cost,
            "reshuffled": _cards(self.reshuffled),
        }


@quick_init
@dataclass(frozen=True, slots=True)
class Discarding(OperationBase):
    """Clause 7."""

    seat: int
    cards: tuple[Card, ...]
    cost: int

    def to_action(self) -> dict[str, Any] | None:
        return {"seat": self.seat, "type": "discard", "cards": _cards(self.cards)}

    def to_dict(self) -> dict[str, Any]:
        return {"op": "discard", "seat": self.seat, "cards": _cards(self.cards), "cost": self.cost}


@quick_init
@dataclass(frozen=True, slots=True)
class Staying(OperationBase):
    """Clause 11."""

    seat: int

    def to_action(self) -> dict[str, Any] | None:
        return {"seat": self.seat, "type": "stay"}

    def to_dict(self) -> dict[str, Any]:
        return {"op": "stay", "seat": self.seat}


@quick_init
@dataclass(frozen=True, slots=True)
class Folding(OperationBase):
    """Clause 12 (in turn) or clause 9 (answering a battle, ``in_battle``)."""

    seat: int
    in_battle: bool

    def to_action(self) -> dict[str, Any] | None:
        return {"seat": self.seat, "type": "fold"}

    def to_dict(self) -> dict[str, Any]:
        return {"op": "fold", "seat": self.seat, "in_battle": self.in_battle}


@quick_init
@dataclass(frozen=True, slots=True)
class Attacking(OperationBase):
    """Clause 8: ``seat`` attacks ``target`` with ``amount``."""

    seat: int
    target: int
    amount: int
    minimum: int
    all_in: bool

    def to_action(self) -> dict[str, Any] | None:
        return {"seat": self.seat, "type": "battle", "target": self.target, "amount": self.amount}

    def to_dict(self) -> dict[str, Any]:
        return {
            "op": "battle",
            "seat": self.seat,
            "target": self.target,
            "amount": self.amount,
            "minimum": self.minimum,
            "all_in": self.all_in,
        }


@quick_init
@dataclass(frozen=True, slots=True)
class Calling(OperationBase):
    """Clause 9: ``amount`` is the chips put in (less than the call when all-in)."""

    seat: int
    amount: int
    all_in: bool

    def to_action(self) -> dict[str, Any] | None:
        return {"seat": self.seat, "type": "call"}

    def to_dict(self) -> dict[str, Any]:
        return {"op": "call", "seat": self.seat, "amount": self.amount, "all_in": self.all_in}


@quick_init
@dataclass(frozen=True, slots=True)
class Raising(OperationBase):
    """Clause 9: a raise of ``amount`` on top of the call; ``paid`` is call plus raise."""

    seat: int
    amount: int
    paid: int
    all_in: bool

    def to_action(self) -> dict[str, Any] | None:
        return {"seat": self.seat, "type": "raise", "amount": self.amount}

    def to_dict(self) -> dict[str, Any]:
        return {
            "op": "raise",
            "seat": self.seat,
            "amount": self.amount,
            "paid": self.paid,
            "all_in": self.all_in,
        }


@quick_init
@dataclass(frozen=True, slots=True)
class Returning(OperationBase):
    """The uncalled part of a raise goes back to the raiser (automatic; clause 9)."""

    seat: int
    amount: int

    def to_action(self) -> dict[str, Any] | None:
        return None

    def to_dict(self) -> dict[str, Any]:
        return {"op": "return", "seat": self.seat, "amount": self.amount}


@quick_init
@dataclass(frozen=True, slots=True)
class BattleEnd(OperationBase):
    """A battle's result (automatic; clauses 9-10).

    ``result`` is ``"fold"`` (a side folded), ``"win"`` (showdown), ``"both out"`` or
    ``"split"``. The counted cards and hands are empty/None after a fold.
    """

    attacker: int
    defender: int
    bet: int
    chips: tuple[int, int]  # what attacker and defender put in during the battle
    result: str
    winner: int | None
    attacker_cards: tuple[Card, ...]
    defender_cards: tuple[Card, ...]
    attacker_hand: str | None
    defender_hand: str | None
    reason: str

    def to_action(self) -> dict[str, Any] | None:
        return None

    def to_dict(self) -> dict[str, Any]:
        winner: int | str | None = self.winner
        if self.result in ("both out", "split"):
            winner = self.result
        return {
            "attacker": self.attacker,
            "defender": self.defender,
            "bet": self.bet,
            "attacker_chips": self.chips[0],
            "defender_chips": self.chips[1],
            "result": self.result,
            "winner": winner,
            "attacker_cards": _cards(self.attacker_cards),
            "defender_cards": _cards(self.defender_cards),
            "attacker_hand": self.attacker_hand,
            "defender_hand": self.defender_hand,
            "reason": self.reason,
        }


@quick_init
@dataclass(frozen=True, slots=True)
class Capturing(OperationBase):
    """The winner of a battle takes the loser's banner and soldiers as soldiers, up to the
    limit; ``discarded`` are the ones beyond it (automatic; clauses 9-10)."""

    winner: int
    loser: int
    kept: tuple[Card, ...]
    discarded: tuple[Card, ...]

    def to_action(self) -> dict[str, Any] | None:
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "op": "capture",
            "winner": self.winner,
            "loser": self.loser,
            "kept": _cards(self.kept),
            "discarded": _cards(self.discarded),
        }


@quick_init
@dataclass(frozen=True, slots=True)
class HandEnd(OperationBase):
    """The hand is over (automatic): how, and who shares the pot."""

    ending: Ending
    winners: tuple[int, ...]

    def to_action(self) -> dict[str, Any] | None:
        return None

    def to_dict(self) -> dict[str, Any]:
        return {"op": "end", "ending": str(self.ending), "winners": list(self.winners)}


Operation: TypeAlias = (
    Anteing
    | Buying
    | Discarding
    | Staying
    | Folding
    | Attacking
    | Calling
    | Raising
    | Returning
    | BattleEnd
    | Capturing
    | HandEnd
)
