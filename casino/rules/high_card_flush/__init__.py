"""High Card Flush (designated-player version): a seven-card game in which each player's flush
plays against the designated player's, who banks the hand (player-banked; the position
rotates round the table), with the Flush and Straight Flush bonus bets.

The rules as implemented (``docs/rules/high-card-flush.md``) decides every rules question;
clause numbers in the modules refer to it. The package's modules:

* ``rules.py``: the rules options, their defaults and validation (:class:`Rules`, the pay
  tables, the rake schedule), the table limits merged into a hand's rules;
* ``values.py``: a hand's flush and straight-flush run, the raise they allow, the designated
  player's qualifier;
* ``record.py``: the dealer's record of a hand (the wagers, each seat's part) and its check;
* ``hand.py``: the hand's state machine (wagers, the deal, the decisions; its operation log),
  and the import of a paper record as actions;
* ``settle.py``: settling a hand (:func:`evaluate` checks the record the API posts and settles
  it: the bonuses, the cap, the bank's coverage in the settlement order, the rake, the
  explanation);
* ``table.py``: the table between hands (the designated-player rotation's offers,
  acceptances and stops; opening a hand, closing one);
* ``rotation.py``: the rotation policy (clauses 15-17: who may hold the position next);
* ``view.py``: how a hand is shown (its ``view()`` and the tablet's presentation);
* ``game.py``: the :class:`~casino.rules.contract.Game` (schemas, the hooks wired to the
  above), registered as ``GAME``.

This module re-exports the names other code imports from the package.
"""

from __future__ import annotations

from casino.rules.rake import RakeBand

from .rules import Coverage, PayTable, RakeSchedule, RakeScheme, Rules, default_rules, parse_rules
from .settle import evaluate, settlement_order
from .values import Flush, Run, best_flush, dp_qualifies, raise_bounds, straight_flush_run

__all__ = [
    "Coverage",
    "Flush",
    "PayTable",
    "RakeBand",
    "RakeSchedule",
    "RakeScheme",
    "Rules",
    "Run",
    "best_flush",
    "default_rules",
    "dp_qualifies",
    "evaluate",
    "parse_rules",
    "raise_bounds",
    "settlement_order",
    "straight_flush_run",
]
