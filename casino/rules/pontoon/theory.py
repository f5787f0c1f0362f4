"""Pontoon's theoretical hold, supplied through ``Game.theory()``: the house's fee over the
handle, simulated (:mod:`casino.rules.theory`) with this strategy.

A banker and five players; each player stakes the minimum, never buys, splits or shoots, and
sticks as soon as the rules allow it (twisting until then); the banker draws below 17 and
stands on 17 or more (or when it may not draw).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from casino.rules.contract import JSON, Game
from casino.rules.settlement import Settlement
from casino.rules.theory.base import GameTheory
from casino.rules.theory.play import Player, drive

from .hand import PontoonHand


class PontoonPlayer(Player):
    players = 5
    strategy = (
        "A banker and five players. Each player stakes the minimum, never buys, splits or "
        "shoots, and sticks as soon as the rules allow (twisting until then); the banker "
        "draws below 17 and stands on 17 or more (or when it may not draw)."
    )
    ignored_rules = ("stake_max", "kitty_max")

    def play(
        self, rng: random.Random, game: Game, rules: JSON, limits: Mapping[str, Any]
    ) -> Settlement:
        banker = self.players + 1
        pack = [card for _ in range(int(rules.get("decks") or 1)) for card in game.deck(0)]
        rng.shuffle(pack)
        shoot = rules.get("kitty_min") is not None
        config = {
            "banker": banker,
            "players": list(range(1, self.players + 1)),
            "kitty": rules["kitty_min"] if shoot else None,
        }
        hand = game.new_hand(config, rules)
        assert isinstance(hand, PontoonHand)

        def card() -> str:
            return pack.pop() if pack else str(rng.choice(hand.cards_available()))

        def choose(legal: dict[str, JSON]) -> JSON:
            seat = hand.to_act
            assert seat is not None
            action: JSON = {"seat": seat}
            index = next((entry["hand"] for entry in legal.values() if "hand" in entry), None)
            if index is not None:
                action["hand"] = index
            if "deal" in legal:
                return {**action, "type": "deal", "card": card()}
            if "stake" in legal:
                return {**action, "type": "stake", "amount": legal["stake"]["min"]}
            if "no_shoot" in legal:
                return {"seat": seat, "type": "no_shoot"}
            if "stand" in legal and (hand.banker_value.total >= 17 or "draw" not in legal):
                return {"seat": seat, "type": "stand"}
            if "draw" in legal:
                return {"seat": seat, "type": "draw", "card": card()}
            if "stick" in legal:
                return {**action, "type": "stick"}
            return {**action, "type": "twist", "card": card()}

        return drive(hand, choose)


THEORY = GameTheory(PontoonPlayer())
