"""Casino War's theoretical hold, supplied through ``Game.theory()`` (``game.py``): the
house's win over the handle, simulated (:mod:`casino.rules.theory`) with this strategy.

Six players (the table's most) each bet the table's least bet (the smallest chip without
one); every player who ties the dealer **goes to war**, never surrenders.

That is what a careful player does under every rule ``RULES.md`` allows. After a tie, one
deck holds 50 cards: 2 of the tied rank and 4 of each other rank, so the war cards tie again
with probability (2 + 12 x 4 x 3) / (50 x 49) = 146/2450 and the player's card is higher or
lower with 1152/2450 each. Going to war is worth, per unit of the ante,
``1152/2450 x 1 + 146/2450 x (1 + tie_bonus) - 1152/2450 x 2 = (146 x tie_bonus - 1006) / 2450``,
at worst (no bonus) -0.41; surrendering costs half the ante (-0.5), or more when half the ante
is not a whole number of chips (rule 5). So war is better for every ``tie_bonus`` from 0 to
10, and whether surrender is offered does not change the figure.

The house's hold then depends on ``tie_bonus`` alone: not on the bet (always war, nothing is
rounded), nor on the number of players (each player's four cards are a uniformly random deal
whoever else sits), so a figure is keyed by the bonus only and shared by every table with it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from casino.rules.contract import JSON, Game
from casino.rules.settlement import Settlement
from casino.rules.theory.base import GameTheory
from casino.rules.theory.play import Player, drive, shuffled_deck

DEALER = 0


class CasinoWarPlayer(Player):
    players = 6
    strategy = (
        "Six players each bet the table's least bet; a player who ties the dealer always goes "
        "to war (never surrenders), which is worth more than surrendering under every rule."
    )
    ignored_rules = ("bet_min", "bet_max", "smallest_chip", "surrender")

    def play(
        self, rng: random.Random, game: Game, rules: JSON, limits: Mapping[str, Any]
    ) -> Settlement:
        seats = list(range(1, self.players + 1))
        deck = shuffled_deck(game, len(seats), rng)
        bet = rules.get("bet_min") or rules["smallest_chip"]
        hand = game.new_hand({"players": seats}, rules)
        opening: list[JSON] = [{"type": "bet", "seat": seat, "amount": bet} for seat in seats]
        opening += [{"type": "card", "seat": seat, "card": deck.pop()} for seat in seats]
        opening.append({"type": "card", "seat": DEALER, "card": deck.pop()})
        for index, action in enumerate(opening):
            hand.apply(action, index)

        def choose(legal: dict[str, JSON]) -> JSON:
            if "war_cards" in legal:
                seat = legal["war_cards"]["seat"]
                return {
                    "type": "war_cards",
                    "seat": seat,
                    "card": deck.pop(),
                    "dealer_card": deck.pop(),
                }
            return {"type": "war", "seat": legal["war"]["seat"]}

        return drive(hand, choose)


THEORY = GameTheory(CasinoWarPlayer())
