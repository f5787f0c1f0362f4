"""Five Card Draw 7-A: draw poker with a 32-card deck (7 to ace; 36 cards with the 6s when five
play), two blinds and a button, two betting rounds around one draw, in limit, pot limit or no
limit, with the missed-blind (ML/MS) rules of a card room. The rules as implemented are
``docs/rules/five-card-draw-7a.md``; clause numbers in the modules refer to it.

The package, one concept per module:

* ``rules.py``: the game's code and name, the rules options (:class:`DrawRules`, the rake),
  their defaults and validation;
* ``values.py``: the decks (clause 1) and a hand's value as the game rates it (clauses 2-3,
  through :mod:`casino.rules.poker_hands`);
* ``config.py``: a hand's set-up read from the record and checked in full (:class:`HandConfig`:
  structure, blinds, button, seats, posts);
* ``hand.py``: the hand's state machine (:class:`DrawHand`: phases, legal actions, ``apply``,
  the operation log) with :func:`replay` and :func:`evaluate`;
* ``settle.py``: settling a finished hand (pots, winners, rake, the lines, the explanation);
* ``blinds.py``: the button, the blinds and the missed-blind markers between hands
  (clauses 5, 11-14);
* ``table.py``: the table between hands (the game's table hooks, over ``blinds.py``);
* ``view.py``: how a hand is shown (``view()`` and the presentation view);
* ``game.py``: the :class:`~casino.rules.contract.Game` (schemas, wiring) and its registration.

The names below are the ones imported from the package itself (the engine's tests, the
theory's simulations, the benchmarks, the contract's test of operations); each lives in the
module that holds its concept.
"""

from __future__ import annotations

from casino.rules.five_card_draw.config import (
    HandConfig,
    Post,
    PostType,
    SeatConfig,
    Structure,
    parse_config,
    standard_posts,
)
from casino.rules.five_card_draw.hand import (
    ACTIONS,
    ActionType,
    Betting,
    Calling,
    Checking,
    DrawHand,
    Drawing,
    Folding,
    Operation,
    Phase,
    PhaseChange,
    Posting,
    Raising,
    Showdown,
    evaluate,
    replay,
)
from casino.rules.five_card_draw.rules import (
    GAME_CODE,
    GAME_NAME,
    DrawRules,
    Rake,
    default_rules,
    parse_rules,
)
from casino.rules.rake import RakeKind

__all__ = [
    "ACTIONS",
    "GAME_CODE",
    "GAME_NAME",
    "ActionType",
    "Betting",
    "Calling",
    "Checking",
    "DrawHand",
    "DrawRules",
    "Drawing",
    "Folding",
    "HandConfig",
    "Operation",
    "Phase",
    "PhaseChange",
    "Post",
    "PostType",
    "Posting",
    "Rake",
    "RakeKind",
    "Raising",
    "SeatConfig",
    "Showdown",
    "Structure",
    "default_rules",
    "evaluate",
    "parse_config",
    "parse_rules",
    "replay",
    "standard_posts",
]
