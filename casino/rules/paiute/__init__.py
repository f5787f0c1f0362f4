"""Paiute (a draw-and-discard game with wild cards, 2-5 players): the engine's entry points.

The rules as implemented (``docs/rules/paiute.md``) decides every rules question; clause numbers
refer to it. Where it is silent the seed (pagat.com's text) decides, then common card-room
practice, made an option where it matters. The engine is split by concern:

* :mod:`~casino.rules.paiute.combos`: the winning combinations and the evaluator
  (:func:`best_combination`, clauses 7-8);
* :mod:`~casino.rules.paiute.rules`: :class:`PaiuteRules` (every option) and
  :class:`PaiuteConfig` (the deal), with :func:`check_config`;
* :mod:`~casino.rules.paiute.ops`: the vocabularies and the frozen operation records;
* :mod:`~casino.rules.paiute.hand`: :class:`PaiuteHand`, the state machine, live or replayed;
* :mod:`~casino.rules.paiute.settle`: the settlement (clauses 1, 8);
* this module: the evaluate record, :func:`parse_record`, :func:`replay_actions`,
  :func:`evaluate`.

**Configuration** (``PaiuteConfig.from_dict``)::

    {"dealer": 4, "players": [1, 2, 3, 4], "ante": 500,
     "hands": {"1": ["Ah", "Kd", "7c", "7s", "2d"], "2": [...], "3": [...], "4": [...]},
     "upcard": "3c", "first_discard": null}

``first_discard`` is the card turned to start the discard pile, entered only under the
clause 3 option ``discard_pile_starts_with_upturned_card``.

**Live actions** (``PaiuteHand.apply``; the dealer records each card as it is seen):
``{"seat": 2, "type": "draw", "source": "stock", "card": "Qh"}``, ``{"seat": 2, "type":
"draw", "source": "discard"}`` (the card may be given and must then be the top discard),
``{"seat": 2, "type": "discard", "card": "4c"}`` and ``{"seat": 2, "type": "call",
"discard": "4c"}`` (``"discard": null`` or absent for a 6-card combination).

**The evaluate record** (a finished hand: each seat's final cards, no turns)::

    {"dealer": 4, "ante": 500, "wild_card": "3c", "caller": 2,
     "players": [{"seat": 1, "cards": ["Ks", "Kh", "Kd", "3d", "7s"]},
                 {"seat": 2, "cards": ["9c", "9h", "Qs", "Qd", "Qc"]}, ...]}

Choices where the brief is silent:

* **The dealer plays** and is among the players; play starts at the dealer's left and the
  dealer's turn ends each round (clause 3).
* **The upcard** is the stock's last card (clause 2): the stock may give it only when it is
  the one card left, and a player may then hold it (it is a wild card like the others).
* **The first turn** (option off): the discard pile is empty, so the first player draws from
  the stock. With the option on, the config names the card that starts the pile.
* **Reshuffle** (clause 4): when a player is to draw and the stock is empty, every discard but
  the top one becomes the new stock at once (logged as an automatic ``reshuffle``); the stock
  then gives only those cards, in any order the dealer sees them.
* **The call** (clause 5) lays down the best combination the six cards make (a hand plays the
  best combination it can make, clause 7). With a 6-card combination nothing is discarded;
  with a 5-card one the discard must leave that best combination in the five kept (any card
  not needed for it). The call's discard goes onto the discard pile, where a final-turn
  player may take it, and, like any discard, may not be the card just taken from the discard
  pile (clause 3).
* **Final turns** (clause 6): after a call by a player who is not the dealer, the players
  after the caller up to and including the dealer each take one turn (draw, then discard or
  call); the players before the caller take none. A final-turn player may call too (the
  dealer's call on the final turn simply ends it). A call by the dealer ends the deal at once.
* **The showdown** (clause 8): every player's final cards are compared, a caller's laid-down
  combination and everyone else's best combination from the five cards held (a combination
  held but not called still counts). The caller always has one, so the pot is always won.
  Exact ties split the pot with ``split_pot`` (odd chips, in ``smallest_chip`` units, to the
  first winner clockwise from the dealer's left). The house takes no rake unless the table
  sets one (option ``rake``): it comes out of the pot before the pot is shared and is charged
  to the winners (clause 8d).
* **The record**: the caller holds 5 cards, or 6 for a 6-card combination; a 6-card holding
  with a 5-card combination is accepted and its sixth card counted as discarded (named in
  the combination). Besides the caller only the players who had a final turn (after the
  caller up to the dealer) may hold 6 cards, having called too, so their six must make a
  winning combination. Everyone else holds 5. The upcard may be held by one player.
* **Money**: the ante is equal for all (clause 1), a multiple of ``smallest_chip`` within
  ``ante_min``..``ante_max``. Each seat has one ``pot`` line: stake the ante, amount the share
  won (before any rake) minus the ante; the seat's ``rake`` is its part of the rake.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from casino.rules.cards import Card, CardGroup, check_distinct, parse_card, parse_cards
from casino.rules.errors import Problems, RuleError
from casino.rules.options import is_int
from casino.rules.paiute.combos import Category, Combination, best_combination
from casino.rules.paiute.hand import PaiuteHand
from casino.rules.paiute.ops import (
    GAME_CODE,
    GAME_NAME,
    ActionType,
    Operation,
    Phase,
    Source,
    Step,
)
from casino.rules.paiute.rules import (
    HAND_SIZE,
    PaiuteConfig,
    PaiuteRules,
    check_ante,
    check_config,
    coerce_rules,
    default_rules,
    parse_rules,
)
from casino.rules.paiute.settle import cards_text, settle_holdings
from casino.rules.pots import clockwise_from
from casino.rules.settlement import Settlement

__all__ = [
    "GAME_CODE",
    "GAME_NAME",
    "ActionType",
    "Category",
    "Combination",
    "Operation",
    "PaiuteConfig",
    "PaiuteHand",
    "PaiuteRecord",
    "PaiuteRules",
    "Phase",
    "Source",
    "Step",
    "best_combination",
    "check_config",
    "default_rules",
    "evaluate",
    "parse_record",
    "parse_rules",
    "replay_actions",
]

RECORD_KEYS = ("dealer", "ante", "wild_card", "players", "caller", "rules")


@dataclass(frozen=True, slots=True)
class PaiuteRecord:
    """A checked evaluate record: the final holdings by seat and who called first."""

    dealer: int
    ante: int
    upcard: Card
    holdings: Mapping[int, tuple[Card, ...]]
    caller: int

    @property
    def order(self) -> tuple[int, ...]:
        return tuple(clockwise_from(self.dealer, list(self.holdings)))


def _seat(value: object, path: str, words: str, problems: Problems) -> int | None:
    if value is None:
        problems.add(path, f"{words} is missing")
    elif not is_int(value) or value < 1:
        problems.add(path, f"{words} must be a seat number (from 1), got {value!r}")
    else:
        return value
    return None


def parse_record(
    record: Mapping[str, Any], rules: PaiuteRules | Mapping[str, Any] | None = None
) -> PaiuteRecord:
    """Read and check an evaluate record, every problem at once with its path."""
    effective = coerce_rules(rules)
    if not isinstance(record, Mapping):
        raise RuleError("the hand record must be an object with dealer, ante, players, caller")
    problems = Problems()
    for key in record:
        if key not in RECORD_KEYS:
            problems.add(str(key), f"unknown field '{key}'")
    dealer = _seat(record.get("dealer"), "dealer", "the dealer's seat", problems)
    caller = _seat(record.get("caller"), "caller", "the caller's seat", problems)
    ante = record.get("ante")
    if not is_int(ante):
        problems.add("ante", f"the ante must be a whole amount, got {ante!r}")
    else:
        check_ante(ante, effective, "ante", problems)
    upcard: Card | None = None
    raw_upcard = record.get("wild_card")
    if raw_upcard is None:
        problems.add("wild_card", "the wild card (the upcard) is missing")
    else:
        try:
            upcard = parse_card(raw_upcard)
        except RuleError as error:
            problems.add("wild_card", f"the wild card: {error.problems[0].message}")

    holdings: dict[int, tuple[Card, ...]] = {}
    paths: dict[int, str] = {}
    seats: list[int] = []
    seats_read = True
    groups: list[CardGroup] = []
    raw_players = record.get("players")
    if isinstance(raw_players, str | bytes) or not isinstance(raw_players, Sequence):
        problems.add("players", "players must be a list of {seat, cards}")
        raw_players = []
    count = len(raw_players)
    if not effective.min_players <= count <= effective.max_players:
        problems.add(
            "players",
            f"{count} players listed: Paiute is played by {effective.min_players} to "
            f"{effective.max_players} (clause 1 of docs/rules/paiute.md)",
        )
    for index, raw in enumerate(raw_players):
        path = f"players[{index}]"
        if not isinstance(raw, Mapping):
            problems.add(path, f"player {index + 1} must be an object with seat and cards")
            seats_read = False
            continue
        for key in raw:
            if key not in ("seat", "cards"):
                problems.add(f"{path}.{key}", f"unknown field '{key}'")
        seat = _seat(raw.get("seat"), f"{path}.seat", f"player {index + 1}: the seat", problems)
        if seat is None:
            seats_read = False
        elif seat in seats:
            problems.add(f"{path}.seat", f"seat {seat} is listed twice")
            continue
        else:
            seats.append(seat)
        who = f"seat {seat}" if seat is not None else f"player {index + 1}"
        try:
            cards = parse_cards(raw.get("cards"), path=f"{path}.cards", who=who)
        except RuleError as error:
            problems.extend(error)
            continue
        if len(cards) not in (HAND_SIZE, HAND_SIZE + 1):
            problems.add(
                f"{path}.cards",
                f"{who}: a player ends with 5 cards, or 6 after calling with a 6-card "
                f"combination, got {len(cards)}",
            )
            continue
        groups.append(CardGroup(who, f"{path}.cards", cards))
        if seat is not None:
            holdings[seat] = cards
            paths[seat] = f"{path}.cards"
    try:
        check_distinct(groups)
    except RuleError as error:
        problems.extend(error)
    if dealer is not None and seats_read and seats and dealer not in seats:
        problems.add(
            "dealer", f"the dealer (seat {dealer}) is not among the players: the dealer plays"
        )
    if caller is not None and seats_read and seats and caller not in seats:
        problems.add("caller", f"seat {caller} is not a player in this hand, so it cannot call")
    problems.raise_if_any()
    assert dealer is not None and caller is not None and upcard is not None and is_int(ante)

    parsed = PaiuteRecord(dealer, ante, upcard, holdings, caller)
    order = parsed.order
    final = order[order.index(caller) + 1 :] if caller != dealer else ()
    for seat in order:
        cards = holdings[seat]
        combo = best_combination(cards, upcard.rank)
        if seat == caller and combo is None:
            problems.add(
                paths[seat],
                f"seat {seat} called but {cards_text(cards)} make no winning combination with "
                f"{upcard.rank_char}s wild (clauses 5, 7)",
            )
        elif len(cards) == HAND_SIZE + 1 and seat != caller:
            if seat not in final:
                why = (
                    "the dealer called, so nobody else had another turn"
                    if caller == dealer
                    else f"it had no final turn after seat {caller}'s call"
                )
                problems.add(
                    paths[seat],
                    f"seat {seat} holds 6 cards: only a caller keeps six (a 6-card "
                    f"combination), and {why}; a player ends with 5 cards (clauses 3, 6)",
                )
            elif combo is None:
                problems.add(
                    paths[seat],
                    f"seat {seat} holds 6 cards but {cards_text(cards)} make no winning "
                    "combination: a player who does not call discards to five (clauses 3, 6)",
                )
    problems.raise_if_any()
    return parsed


def evaluate(
    record: Mapping[str, Any], rules: PaiuteRules | Mapping[str, Any] | None = None
) -> Settlement:
    """Settle a finished hand from its record (final holdings and the caller)."""
    effective = coerce_rules(rules)
    parsed = parse_record(record, effective)
    return settle_holdings(
        rules=effective,
        dealer=parsed.dealer,
        players=parsed.order,
        ante=parsed.ante,
        upcard=parsed.upcard,
        holdings=parsed.holdings,
        caller=parsed.caller,
    )


def replay_actions(
    config: PaiuteConfig | Mapping[str, Any],
    rules: PaiuteRules | Mapping[str, Any] | None,
    actions: Sequence[Mapping[str, Any]],
) -> PaiuteHand:
    """Rebuild a live hand from its configuration and its actions; the first illegal action
    raises :class:`RuleError` at ``actions[i]``. The hand need not be finished."""
    effective = coerce_rules(rules)
    if not isinstance(config, PaiuteConfig):
        config = PaiuteConfig.from_dict(config)
    if isinstance(actions, str | bytes) or not isinstance(actions, Sequence):
        raise RuleError("actions must be a list", "actions")
    return PaiuteHand.from_actions(config, effective, actions)
