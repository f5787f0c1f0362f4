"""Paiute: the vocabularies (phases, steps, sources, action types) and the frozen operation
records a :class:`~casino.rules.paiute.hand.PaiuteHand` appends to its log.

Each operation gives ``to_dict()`` (the log entry) and ``to_action()``: the live action that
replays it, or None for an automatic step (a reshuffle, the final turns, a phase change).
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
from casino.rules.rule_titles import paiute_rule

GAME_CODE = "paiute"
GAME_NAME = _("Paiute")  # the game's name, translated where the API serves it


class Phase(StrEnum):
    PLAY = "play"
    FINAL_TURNS = "final_turns"
    COMPLETE = "complete"

    @property
    def words(self) -> str:
        return {
            Phase.PLAY: _("the players are taking turns"),
            Phase.FINAL_TURNS: _("the round after the call is being completed"),
            Phase.COMPLETE: _("the hand is over"),
        }[self]


class Step(StrEnum):
    """Within a turn: take a card, then discard or call."""

    DRAW = "draw"
    DISCARD = "discard"


class Source(StrEnum):
    STOCK = "stock"
    DISCARD = "discard"


class ActionType(StrEnum):
    DRAW = "draw"
    DISCARD = "discard"
    CALL = "call"


#: Each action type by its JSON name (``ActionType(name)`` without the Enum's call).
ACTION_TYPES: dict[str, ActionType] = {str(kind): kind for kind in ActionType}


#: The hand's actions (:mod:`casino.rules.actions`): decoded by ``PaiuteHand.apply``, shown in
#: the API document.
ACTIONS = ActionTable(
    {
        ActionType.DRAW: ActionSpec(
            {
                "seat": a.seat(),
                "source": a.choice([str(source) for source in Source], _("stock or discard")),
                "card": a.card(_("the card drawn (needed from the stock)"), required=False),
            },
            f"Take the top card of the stock or of the discard pile ({paiute_rule(3)}).",
        ),
        ActionType.DISCARD: ActionSpec({"seat": a.seat(), "card": a.card(_("the card discarded"))}),
        ActionType.CALL: ActionSpec(
            {
                "seat": a.seat(),
                "discard": a.card(
                    _("the sixth card discarded with a 5-card combination"), required=False
                ),
            },
            f"Call with a winning combination ({paiute_rule(5)}).",
        ),
    }
)


@quick_init
@dataclass(frozen=True, slots=True)
class Drawing(OperationBase):
    """A card taken from the stock or the top of the discard pile (clause 3)."""

    seat: int
    source: Source
    card: Card

    def to_action(self) -> dict[str, Any] | None:
        return {
            "seat": self.seat,
            "type": "draw",
            "source": str(self.source),
            "card": str(self.card),
        }

    def to_dict(self) -> dict[str, Any]:
        return {"op": "draw", "seat": self.seat, "source": str(self.source), "card": str(self.card)}


@quick_init
@dataclass(frozen=True, slots=True)
class Discarding(OperationBase):
    seat: int
    card: Card

    def to_action(self) -> dict[str, Any] | None:
        return {"seat": self.seat, "type": "discard", "card": str(self.card)}

    def to_dict(self) -> dict[str, Any]:
        return {"op": "discard", "seat": self.seat, "card": str(self.card)}


@quick_init
@dataclass(frozen=True, slots=True)
class Calling(OperationBase):
    """A call (clause 5): the combination laid down, the sixth card discarded or None.

    ``final``: made on a final turn after another player's call (clause 6).
    """

    seat: int
    discard: Card | None
    combination: str
    final: bool

    def to_action(self) -> dict[str, Any] | None:
        discard = str(self.discard) if self.discard is not None else None
        return {"seat": self.seat, "type": "call", "discard": discard}

    def to_dict(self) -> dict[str, Any]:
        return {
            "op": "call",
            "seat": self.seat,
            "discard": str(self.discard) if self.discard is not None else None,
            "combination": self.combination,
            "final": self.final,
        }


@quick_init
@dataclass(frozen=True, slots=True)
class Reshuffling(OperationBase):
    """Clause 4 (automatic): the stock ran out; ``stock`` are the discards shuffled as the new
    stock, ``top`` the discard set aside that stays as the discard pile."""

    stock: tuple[Card, ...]
    top: Card

    def to_action(self) -> dict[str, Any] | None:
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "op": "reshuffle",
            "stock": [str(card) for card in self.stock],
            "top": str(self.top),
        }


@quick_init
@dataclass(frozen=True, slots=True)
class FinalTurns(OperationBase):
    """Clause 6 (automatic): the seats that get one more turn after ``caller``'s call."""

    caller: int
    seats: tuple[int, ...]

    def to_action(self) -> dict[str, Any] | None:
        return None

    def to_dict(self) -> dict[str, Any]:
        return {"op": "final_turns", "caller": self.caller, "seats": list(self.seats)}


@quick_init
@dataclass(frozen=True, slots=True)
class PhaseChange(OperationBase):
    phase: Phase

    def to_action(self) -> dict[str, Any] | None:
        return None

    def to_dict(self) -> dict[str, Any]:
        return {"op": "phase", "phase": str(self.phase)}


Operation: TypeAlias = Drawing | Discarding | Calling | Reshuffling | FinalTurns | PhaseChange
