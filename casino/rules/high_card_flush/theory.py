"""High Card Flush's theoretical figures, supplied through ``Game.theory()``.

* **The house's hold**, simulated (:mod:`casino.rules.theory`) with this strategy: six players
  and the designated player (DP); each player antes the table's minimum (the smallest chip
  without one), always raises 1x the ante and places each bonus the table offers at 1x the
  ante; the DP's bank is the table's maximum (``10**12`` without one).
* **The Flush bonus and the Straight Flush bonus**, counted exactly (:mod:`.bonus_odds`): the
  player's return per unit staked, against the DP, who pays them (the house's edge on them is
  0). A bonus whose pay table is empty is not offered and has no figure.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from casino.rules.contract import JSON, Game
from casino.rules.settlement import Settlement
from casino.rules.theory.base import Exact, GameTheory, Measure
from casino.rules.theory.play import LARGEST, Player, shuffled_deck

from . import bonus_odds

BONUSES = (
    (bonus_odds.FLUSH_BONUS, "flush_paytable", bonus_odds.flush_bonus),
    (bonus_odds.STRAIGHT_FLUSH_BONUS, "straight_flush_paytable", bonus_odds.straight_flush_bonus),
)
PAID_BY_THE_DP = "exact; paid by the designated player, so the house's edge on it is 0"


class HighCardFlushPlayer(Player):
    players = 6
    strategy = (
        "Six players and the designated player. Each player antes the table's minimum, "
        "always raises 1x the ante (never folds) and places each bonus the table offers at 1x "
        "the ante; the designated player's bank is the table's maximum."
    )
    ignored_rules = ("rotation_policy", "ante_max", "bank_min")

    def seats(self, rules: Mapping[str, Any]) -> int:
        return min(self.players, int(rules.get("max_players") or self.players))

    def play(
        self, rng: random.Random, game: Game, rules: JSON, limits: Mapping[str, Any]
    ) -> Settlement:
        seats = self.seats(rules)
        deck = shuffled_deck(game, seats + 1, rng)
        ante = rules.get("ante_min") or rules["smallest_chip"]
        offered = {bet: bool(rules[table]) for bet, table, _ in BONUSES}
        dp = seats + 1
        config = {
            "designated_player": {"seat": dp, "bank": rules.get("bank_max") or LARGEST},
            "players": list(range(1, seats + 1)),
        }
        hand = game.new_hand(config, rules)
        actions: list[JSON] = [
            {
                "type": "wager",
                "seat": seat,
                "ante": ante,
                **{bet: ante for bet, on in offered.items() if on},
            }
            for seat in range(1, seats + 1)
        ]
        actions.append({"type": "deal", "seat": dp, "cards": deck[:7]})
        actions += [
            {"type": "deal", "seat": seat, "cards": deck[7 * seat : 7 * seat + 7]}
            for seat in range(1, seats + 1)
        ]
        actions += [{"type": "raise", "seat": seat, "amount": ante} for seat in range(1, seats + 1)]
        for index, action in enumerate(actions):
            hand.apply(action, index)
        settlement: Settlement = hand.settle()
        return settlement


class HighCardFlushTheory(GameTheory):
    measures = (
        Measure(
            bonus_odds.FLUSH_BONUS, "Flush bonus: player's return per unit staked", PAID_BY_THE_DP
        ),
        Measure(
            bonus_odds.STRAIGHT_FLUSH_BONUS,
            "Straight Flush bonus: player's return per unit staked",
            PAID_BY_THE_DP,
        ),
    )

    def exact_inputs(self, rules: Mapping[str, Any]) -> dict[str, JSON]:
        """Each offered bonus, keyed by its pay table alone."""
        return {bet: {"paytable": dict(rules[key])} for bet, key, _ in BONUSES if rules[key]}

    def exact(self, measure: str, inputs: Mapping[str, Any]) -> Exact:
        make = next((make for bet, _, make in BONUSES if bet == measure), None)
        if make is None:
            return super().exact(measure, inputs)
        result = make(inputs["paytable"])
        return Exact(result.player_return, result.to_dict())


THEORY = HighCardFlushTheory(HighCardFlushPlayer())
