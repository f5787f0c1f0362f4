"""Pontoon (British banking twenty-one) and Shoot Pontoon.

One of the people at the table holds the bank and plays a hand of its own last; each player
tries to beat the banker's hand without going over 21, and in Shoot Pontoon may place shoot
bets against the banker's kitty. There is no house and no rake.

The rules as implemented (``docs/rules/pontoon.md``) decides every rules question; clause numbers
refer to it. Where it is silent the seed (pagat.com's text) decides, then common card-room
practice, made an option where it matters. The package, by concern:

* :mod:`~casino.rules.pontoon.rules`: :class:`PontoonRules`, every option with its default and
  its validation; :class:`PontoonConfig`, a hand's set-up (banker, players, kitty); the
  choices the engine makes where the brief is silent;
* :mod:`~casino.rules.pontoon.values`: card points, soft totals, the ranking (clauses 1-2, 15);
* :mod:`~casino.rules.pontoon.ops`: the vocabularies (phases, action types and their table,
  hand statuses) and the operation records of a hand's log;
* :mod:`~casino.rules.pontoon.hand`: :class:`PontoonHand`, the state machine, live or
  replayed, and its live actions;
* :mod:`~casino.rules.pontoon.settle`: the settlement (clauses 4, 10, 12-17);
* :mod:`~casino.rules.pontoon.table`: the table between hands (the bank, the kitty carried
  over, the next hand's set-up);
* :mod:`~casino.rules.pontoon.view`: how a hand is shown (``view()`` and ``presentation()``);
* :mod:`~casino.rules.pontoon.record`: the paper record of a whole hand, :func:`parse_record`,
  :func:`replay`, :func:`evaluate`;
* :mod:`~casino.rules.pontoon.game`: the :class:`~casino.rules.pontoon.game.Pontoon` game,
  registered.

This module only re-exports the names the rest of the code base imports from the package.
"""

from __future__ import annotations

from casino.rules.pontoon.hand import HandState, PlayerState, PontoonHand
from casino.rules.pontoon.ops import GAME_CODE, GAME_NAME, ActionType, HandStatus, Operation, Phase
from casino.rules.pontoon.record import PontoonRecord, evaluate, parse_record, replay
from casino.rules.pontoon.rules import PontoonConfig, PontoonRules, default_rules, parse_rules
from casino.rules.pontoon.settle import Case
from casino.rules.pontoon.values import HandValue, Kind, hand_value

__all__ = [
    "GAME_CODE",
    "GAME_NAME",
    "ActionType",
    "Case",
    "HandState",
    "HandStatus",
    "HandValue",
    "Kind",
    "Operation",
    "Phase",
    "PlayerState",
    "PontoonConfig",
    "PontoonHand",
    "PontoonRecord",
    "PontoonRules",
    "default_rules",
    "evaluate",
    "hand_value",
    "parse_record",
    "parse_rules",
    "replay",
]
