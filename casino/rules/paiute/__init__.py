"""Paiute (a draw-and-discard game with wild cards, 2-5 players): the engine's entry points.

The rules as implemented (``docs/rules/paiute.md``) decides every rules question; clause numbers
refer to it. Where it is silent the seed (pagat.com's text) decides, then common card-room
practice, made an option where it matters. The engine is split by concern, one module each:

* :mod:`~casino.rules.paiute.rules`: :class:`PaiuteRules` (every option, its default and its
  validation), :func:`default_rules`, :func:`parse_rules`;
* :mod:`~casino.rules.paiute.config`: :class:`PaiuteConfig` (the deal the dealer enters before
  the first turn), with :func:`check_config` (clauses 1-3);
* :mod:`~casino.rules.paiute.values`: the winning combinations, their ranking and the evaluator
  (:class:`Category`, :class:`Combination`, :func:`best_combination`, clauses 7-8);
* :mod:`~casino.rules.paiute.ops`: the vocabularies (phases, steps, sources, action types and
  the action table) and the frozen operation records of the hand's log;
* :mod:`~casino.rules.paiute.hand`: :class:`PaiuteHand`, the state machine, live or replayed
  (:func:`replay_actions`);
* :mod:`~casino.rules.paiute.settle`: the settlement (clauses 1, 8), and the evaluate record:
  :class:`PaiuteRecord`, :func:`parse_record`, :func:`evaluate`;
* :mod:`~casino.rules.paiute.table`: the table between hands (the dealer button passing
  clockwise, the next hand's set-up);
* :mod:`~casino.rules.paiute.view`: how a hand is shown, its ``view()`` and its
  ``presentation()``;
* :mod:`~casino.rules.paiute.game`: the game in the one contract, registered.

This module only re-exports the names other code imports from the package.

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

from casino.rules.paiute.config import PaiuteConfig, check_config
from casino.rules.paiute.hand import PaiuteHand, replay_actions
from casino.rules.paiute.ops import (
    GAME_CODE,
    GAME_NAME,
    ActionType,
    Operation,
    Phase,
    Source,
    Step,
)
from casino.rules.paiute.rules import PaiuteRules, default_rules, parse_rules
from casino.rules.paiute.settle import PaiuteRecord, evaluate, parse_record
from casino.rules.paiute.values import Category, Combination, best_combination

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
