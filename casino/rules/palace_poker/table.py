"""Palace Poker: the table between hands.

The only state a Palace Poker table keeps between hands is the dealer button
(:class:`~casino.rules.seating.DealerButton`: the last dealer, shown with the next one; a
closed hand changes nothing). The deal passes one seat clockwise each hand (clause 2b); the
first hand's dealer may be named when it is opened (for example after the cut of clause 2),
otherwise it is the first seat in play. :func:`open_hand` builds the next hand's set-up from
the table's limits and the opening body (every seat in play with its stack, banner and
palace cards) and checks it as a record (:func:`~casino.rules.palace_poker.config.parse_config`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casino.rules.contract import Opening, TableView
from casino.rules.errors import RuleError
from casino.rules.options import is_int
from casino.rules.palace_poker.config import parse_config
from casino.rules.palace_poker.rules import LIMIT_AMOUNTS, PalaceRules, hand_rules
from casino.rules.seating import DealerButton, next_dealer


def open_hand(table: TableView, body: Mapping[str, Any]) -> Opening:
    """The next hand's set-up: the next dealer, the table's limits and the players given."""
    dealer = next_dealer(table, body)
    in_play = table.in_play
    players = body.get("players")
    given = (
        [p.get("seat") for p in players if isinstance(p, dict)] if isinstance(players, list) else []
    )
    if sorted((seat for seat in given if is_int(seat)), key=int) != in_play or len(given) != len(
        in_play
    ):
        raise RuleError(
            f"players: give seats {', '.join(map(str, in_play))} their stack, banner and "
            "three palace cards",
            path="players",
        )
    rules = hand_rules(table.limits, table.smallest_chip, table.rules)
    engine_rules = PalaceRules.from_dict(rules)
    record = {
        **{name: table.limits[name] for name in ("structure", *LIMIT_AMOUNTS)},
        "dealer": dealer,
        "players": players,
    }
    config = parse_config(record, engine_rules).to_dict()
    state, events = DealerButton.moved(table, dealer)
    return Opening(config, tuple(in_play), state, events)
