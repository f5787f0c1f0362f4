"""Palace Poker's theoretical hold, supplied through ``Game.theory()``: the house's fee over
the handle, simulated (:mod:`casino.rules.theory`) with this strategy.

Four players with 50 big bets each; on its turn a player attacks the first opponent the
engine lists, for the minimum; a defender calls (folding only when it may not); a player that
cannot battle stays when it may and folds otherwise.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from casino.rules.cards import parse_card
from casino.rules.contract import JSON, Game
from casino.rules.pots import clockwise_from
from casino.rules.settlement import Settlement
from casino.rules.theory.base import GameTheory
from casino.rules.theory.play import Player, drive, shuffled_deck

from .config import deal_banners
from .hand import PalaceHand


class PalacePokerPlayer(Player):
    players = 4
    strategy = (
        "Four players with 50 big bets each. On its turn a player attacks the first opponent "
        "the engine lists, for the minimum; a defender calls (folding only when it may not); "
        "a player that cannot battle stays when it may and folds otherwise."
    )
    limit_keys = ("structure", "small_bet", "big_bet")

    def play(
        self, rng: random.Random, game: Game, rules: JSON, limits: Mapping[str, Any]
    ) -> Settlement:
        seats = list(range(1, self.players + 1))
        dealer = rng.choice(seats)
        deck = [parse_card(card) for card in shuffled_deck(game, len(seats), rng)]
        banners, _ = deal_banners(deck, clockwise_from(dealer, seats))
        rest = [card for card in deck if card not in set(banners.values())]
        config = {
            "structure": limits["structure"],
            "small_bet": limits["small_bet"],
            "big_bet": limits["big_bet"],
            "dealer": dealer,
            "players": [
                {
                    "seat": seat,
                    "stack": 50 * limits["big_bet"],
                    "banner": str(banners[seat]),
                    "palace": [str(card) for card in rest[3 * i : 3 * i + 3]],
                }
                for i, seat in enumerate(seats)
            ],
        }
        hand = game.new_hand(config, rules)
        assert isinstance(hand, PalaceHand)

        def choose(legal: dict[str, JSON]) -> JSON:
            seat = hand.to_act
            assert seat is not None
            if "call" in legal:
                return {"seat": seat, "type": "call"}
            if "battle" in legal:
                battle = legal["battle"]
                return {
                    "seat": seat,
                    "type": "battle",
                    "target": battle["targets"][0],
                    "amount": battle["min"],
                }
            if "stay" in legal:
                return {"seat": seat, "type": "stay"}
            return {"seat": seat, "type": "fold"}

        return drive(hand, choose)


THEORY = GameTheory(PalacePokerPlayer())
