"""What a hand looks like: the presentation view every game builds from its state, so one
dealer tablet draws every game's table from data (``HandState.presentation()``).

The view is about the table, not the rules: per party (each seat, and the house or dealer as
seat 0 where it plays a hand of its own) its cards face up or down, its stack, the chips it
has put in this betting round and in the whole hand, its wagers by name, its total or hand
name where the game has one, its status and its role badges; and for the table the pots,
the community or up cards, the wild rank, the top of the discard pile, the kitty or the bank.

Every word in it is an **id** from the lists below (a status, a badge, a phase, a wager's
name, a card group's name), never an English sentence: the tablet translates ids, so a new
game speaks every language the ids do. A game's own words (a hand's name such as "flush
A-K-9-5") go in ``hand`` as given.

Amounts are integer minor units, cards the API's notation (``As``, ``Td``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]

#: What a party is doing in the hand.
STATUSES = (
    "waiting",  # dealt in, not yet acted (or nothing to do yet)
    "to_act",  # the seat the hand waits for
    "in",  # still in the hand
    "checked",
    "called",
    "bet",
    "raised",
    "all_in",
    "folded",
    "stood",  # stands, sticks or stays
    "pat",  # stands pat on a draw
    "drew",
    "bust",
    "out",  # not in the hand (sat out, not dealt)
    "won",
    "lost",
    "push",
    "declined",
)

#: Role badges a party carries.
BADGES = (
    "designated_player",
    "banker",
    "house",
    "dealer",
    "button",
    "small_blind",
    "big_blind",
    "caller",  # the player who called the hand (Paiute)
    "new_player",
)


@dataclass(frozen=True, slots=True)
class Card:
    """A card as the table shows it: ``card`` None for one dealt face down that the tablet
    does not know (the dealer knows every card in a dealer-assist game, so None is rare)."""

    card: str | None
    up: bool = True

    def to_dict(self) -> JSON:
        return {"card": self.card, "up": self.up}


def cards(codes: Iterable[Any], *, up: bool = True) -> list[Card]:
    """Cards from their codes (anything ``str`` gives the API's notation of)."""
    return [Card(str(code), up) for code in codes]


@dataclass(frozen=True, slots=True)
class Wager:
    """A named wager on the table (``ante``, ``raise``, ``flush_bonus``, ``stake``, ...)."""

    name: str
    amount: int

    def to_dict(self) -> JSON:
        return {"name": self.name, "amount": self.amount}


@dataclass(frozen=True, slots=True)
class Group:
    """A named group of a party's cards beside its hand: a banner, a palace, soldiers, the
    cards bought, the discards."""

    name: str
    cards: Sequence[Card]

    def to_dict(self) -> JSON:
        return {"name": self.name, "cards": [card.to_dict() for card in self.cards]}


@dataclass(frozen=True, slots=True)
class SubHand:
    """One of a party's hands when it has several (a Pontoon split)."""

    cards: Sequence[Card]
    total: str | None = None
    status: str = "in"
    wagers: Sequence[Wager] = ()
    to_act: bool = False

    def to_dict(self) -> JSON:
        return {
            "cards": [card.to_dict() for card in self.cards],
            "total": self.total,
            "status": self.status,
            "wagers": [wager.to_dict() for wager in self.wagers],
            "to_act": self.to_act,
        }


@dataclass(frozen=True, slots=True)
class Party:
    """A seat (from 1), or the house or dealer (seat 0, ``house`` True)."""

    seat: int
    status: str = "in"
    cards: Sequence[Card] = ()
    stack: int | None = None
    committed_round: int | None = None
    committed_total: int | None = None
    wagers: Sequence[Wager] = ()
    total: str | None = None  # a count the game keeps, as the table says it ("19", "soft 17")
    hand: str | None = None  # the hand's name, in the game's words
    badges: Sequence[str] = ()
    groups: Sequence[Group] = ()
    hands: Sequence[SubHand] = ()
    to_act: bool = False
    house: bool = False

    def to_dict(self) -> JSON:
        return {
            "seat": self.seat,
            "house": self.house,
            "status": self.status,
            "to_act": self.to_act,
            "cards": [card.to_dict() for card in self.cards],
            "stack": self.stack,
            "committed_round": self.committed_round,
            "committed_total": self.committed_total,
            "wagers": [wager.to_dict() for wager in self.wagers],
            "total": self.total,
            "hand": self.hand,
            "badges": list(self.badges),
            "groups": [group.to_dict() for group in self.groups],
            "hands": [sub.to_dict() for sub in self.hands],
        }


@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    seats: Sequence[int] = ()  # who can win it (empty: every party still in)
    name: str = "pot"  # "pot", "main", "side", "kitty"

    def to_dict(self) -> JSON:
        return {"name": self.name, "amount": self.amount, "seats": list(self.seats)}


@dataclass(frozen=True, slots=True)
class Presentation:
    """A hand as the table shows it."""

    phase: str
    seats: Sequence[Party]
    house: Party | None = None
    to_act: int | None = None  # the seat the hand waits for (0: the house), None: none/any
    pots: Sequence[Pot] = ()
    community: Sequence[Card] = ()
    wild_rank: str | None = None
    top_discard: Card | None = None
    stock: int | None = None  # cards left to draw from
    kitty: int | None = None
    bank: int | None = None
    facts: Mapping[str, Any] = field(default_factory=dict)  # the game's own, ids and numbers

    def to_dict(self) -> JSON:
        return {
            "phase": self.phase,
            "to_act": self.to_act,
            "seats": [party.to_dict() for party in self.seats],
            "house": self.house.to_dict() if self.house is not None else None,
            "pots": [pot.to_dict() for pot in self.pots],
            "community": [card.to_dict() for card in self.community],
            "wild_rank": self.wild_rank,
            "top_discard": self.top_discard.to_dict() if self.top_discard else None,
            "stock": self.stock,
            "kitty": self.kitty,
            "bank": self.bank,
            "facts": dict(self.facts),
        }


# ---------------------------------------------------------------- checking one


_CARD = {
    "type": "object",
    "required": ["card", "up"],
    "properties": {"card": {"type": ["string", "null"]}, "up": {"type": "boolean"}},
}
_WAGER = {
    "type": "object",
    "required": ["name", "amount"],
    "properties": {"name": {"type": "string"}, "amount": {"type": "integer"}},
}
_PARTY = {
    "type": "object",
    "required": ["seat", "house", "status", "to_act", "cards", "wagers", "badges"],
    "properties": {
        "seat": {"type": "integer", "minimum": 0},
        "house": {"type": "boolean"},
        "status": {"enum": list(STATUSES)},
        "to_act": {"type": "boolean"},
        "cards": {"type": "array", "items": _CARD},
        "stack": {"type": ["integer", "null"]},
        "committed_round": {"type": ["integer", "null"]},
        "committed_total": {"type": ["integer", "null"]},
        "wagers": {"type": "array", "items": _WAGER},
        "total": {"type": ["string", "null"]},
        "hand": {"type": ["string", "null"]},
        "badges": {"type": "array", "items": {"enum": list(BADGES)}},
        "groups": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "cards"],
                "properties": {
                    "name": {"type": "string"},
                    "cards": {"type": "array", "items": _CARD},
                },
            },
        },
        "hands": {"type": "array", "items": {"type": "object"}},
    },
}
#: The presentation view's JSON schema (the API document shows it with every hand's state).
SCHEMA: JSON = {
    "type": "object",
    "description": "the hand as the table shows it, for every game alike (ids, not words)",
    "required": ["phase", "to_act", "seats", "house", "pots", "community"],
    "properties": {
        "phase": {"type": "string"},
        "to_act": {"type": ["integer", "null"]},
        "seats": {"type": "array", "items": _PARTY},
        "house": {"oneOf": [_PARTY, {"type": "null"}]},
        "pots": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "amount", "seats"],
                "properties": {
                    "name": {"type": "string"},
                    "amount": {"type": "integer"},
                    "seats": {"type": "array", "items": {"type": "integer"}},
                },
            },
        },
        "community": {"type": "array", "items": _CARD},
        "wild_rank": {"type": ["string", "null"]},
        "top_discard": {"oneOf": [_CARD, {"type": "null"}]},
        "stock": {"type": ["integer", "null"]},
        "kitty": {"type": ["integer", "null"]},
        "bank": {"type": ["integer", "null"]},
        "facts": {"type": "object"},
    },
}


def problems(view: Mapping[str, Any]) -> list[str]:
    """What is wrong with a presentation view's JSON (what the contract's test holds every
    game to): unknown statuses and badges, seats twice, a ``to_act`` no party has."""
    found: list[str] = []
    parties = list(view.get("seats") or [])
    house = view.get("house")
    if house is not None:
        if not house.get("house") or house.get("seat") != 0:
            found.append("the house is seat 0 and says so (house: true)")
        parties.append(house)
    seats = [party.get("seat") for party in parties]
    if len(seats) != len(set(seats)):
        found.append(f"a seat is listed twice: {seats}")
    for party in parties:
        where = f"seat {party.get('seat')}"
        if party.get("status") not in STATUSES:
            found.append(f"{where}: status {party.get('status')!r} is not one of {STATUSES}")
        for badge in party.get("badges") or ():
            if badge not in BADGES:
                found.append(f"{where}: badge {badge!r} is not one of {BADGES}")
        if party.get("to_act") != (view.get("to_act") == party.get("seat")) and not party.get(
            "hands"
        ):
            found.append(f"{where}: to_act disagrees with the view's to_act")
        for card in party.get("cards") or ():
            if card.get("card") is not None and not isinstance(card.get("card"), str):
                found.append(f"{where}: a card is not in the API's notation")
    if view.get("to_act") is not None and view.get("to_act") not in seats:
        found.append(f"to_act {view.get('to_act')} is no party of the view")
    return found
