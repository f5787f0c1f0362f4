"""Palace Poker (Castle Poker, Banner Poker), 2 to 10 players: each holds a face-up banner, three
face-down palace cards and up to five face-up soldiers, buys and throws away soldiers and fights
one opponent at a time in battles; a player who loses a battle is out, and the last player
standing takes the pot (or it is shared: a tied last battle, a shared banner suit, a quiet
round's showdown).

The rules as implemented are ``docs/rules/palace-poker.md``; clause numbers in the package
refer to it. The package, module by module:

* :mod:`~casino.rules.palace_poker.rules`: the rules options (:class:`PalaceRules`, their
  defaults and validation) and the table limits (:class:`Structure`, small and big bet);
* :mod:`~casino.rules.palace_poker.values`: the hand values (standard poker, best five of any
  number, only sets with fewer than five; clauses 1, 1a);
* :mod:`~casino.rules.palace_poker.config`: the deal (clauses 1-5): the hand's set-up read from
  the record (:class:`PalaceConfig`, :func:`parse_config`), the cut for the first dealer
  (:func:`choose_dealer`) and the banner deal (:func:`deal_banners`);
* :mod:`~casino.rules.palace_poker.ops`: the vocabularies (phases, endings, standings, action
  types, the action table) and the frozen operation records of a hand's log;
* :mod:`~casino.rules.palace_poker.hand`: the hand's state machine (:class:`PalaceHand`: its
  legal actions, ``apply``, the phases and the log; the rules as built), :func:`replay` and
  :func:`evaluate`;
* :mod:`~casino.rules.palace_poker.settle`: settling a finished hand (the pot's lines, the rake,
  the explanation);
* :mod:`~casino.rules.palace_poker.table`: the table between hands (the dealer button, the
  next hand's opening);
* :mod:`~casino.rules.palace_poker.view`: how the hand is shown (``view()`` and the
  ``presentation()`` every game gives);
* :mod:`~casino.rules.palace_poker.game`: the :class:`~casino.rules.contract.Game` subclass
  (schemas, wiring) and its registration;

This module re-exports the names code imports from the package.
"""

from __future__ import annotations

from casino.rules.palace_poker.config import (
    FEWEST_PLAYERS,
    GROUP_SIZE,
    MOST_PLAYERS,
    PALACE_SIZE,
    PalaceConfig,
    PlayerConfig,
    choose_dealer,
    deal_banners,
    group_of,
    parse_config,
)
from casino.rules.palace_poker.hand import PalaceHand, evaluate, replay
from casino.rules.palace_poker.ops import (
    GAME_CODE,
    GAME_NAME,
    ActionType,
    BattleEnd,
    Buying,
    Ending,
    Operation,
    Phase,
    Standing,
)
from casino.rules.palace_poker.rules import (
    CallRule,
    PalaceRules,
    Structure,
    default_rules,
    parse_rules,
)

__all__ = [
    "FEWEST_PLAYERS",
    "GAME_CODE",
    "GAME_NAME",
    "GROUP_SIZE",
    "MOST_PLAYERS",
    "PALACE_SIZE",
    "ActionType",
    "BattleEnd",
    "Buying",
    "CallRule",
    "Ending",
    "Operation",
    "PalaceConfig",
    "PalaceHand",
    "PalaceRules",
    "Phase",
    "PlayerConfig",
    "Standing",
    "Structure",
    "choose_dealer",
    "deal_banners",
    "default_rules",
    "evaluate",
    "group_of",
    "parse_config",
    "parse_rules",
    "replay",
]
