"""Paiute's theoretical hold, supplied through ``Game.theory()``: the house's fee over the
handle, simulated (:mod:`casino.rules.theory`) with this strategy.

Four players ante the table's ante; every player draws from the stock, calls whenever the
engine offers a call (its first allowed discard) and otherwise throws away a card of the rank
it holds fewest of (wild cards kept), chosen at random among those.

Version 2: version 1 threw the lowest of those ranks, so when the players held every high card
between them, each threw back at once every low card it drew, and the hand never ended (the
stock holding only low cards, reshuffled for ever).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from casino.rules.cards import Card, parse_cards
from casino.rules.contract import JSON, Game
from casino.rules.settlement import Settlement
from casino.rules.theory.base import GameTheory
from casino.rules.theory.play import Player, drive, shuffled_deck

from .hand import PaiuteHand


class PaiutePlayer(Player):
    players = 4
    strategy = (
        "Four players ante the table's ante. Every player draws from the stock, calls "
        "whenever the engine offers a call, and otherwise throws away a card of the rank it "
        "holds fewest of (wild cards kept), chosen at random among those."
    )
    version = 2
    limit_keys = ("ante",)

    def play(
        self, rng: random.Random, game: Game, rules: JSON, limits: Mapping[str, Any]
    ) -> Settlement:
        seats = list(range(1, self.players + 1))
        deck = shuffled_deck(game, len(seats), rng)
        first = (
            deck[5 * len(seats) + 1]
            if rules.get("discard_pile_starts_with_upturned_card")
            else None
        )
        config = {
            "dealer": rng.choice(seats),
            "players": seats,
            "ante": limits["ante"],
            "hands": {str(seat): deck[5 * i : 5 * i + 5] for i, seat in enumerate(seats)},
            "upcard": deck[5 * len(seats)],
            "first_discard": first,
        }
        hand = game.new_hand(config, rules)
        assert isinstance(hand, PaiuteHand)

        def choose(legal: dict[str, JSON]) -> JSON:
            seat = hand.to_act
            assert seat is not None
            if "draw" in legal:
                forced = legal["draw"]["stock_card"]
                taken = forced if forced is not None else str(rng.choice(hand.stock_cards()))
                return {"seat": seat, "type": "draw", "source": "stock", "card": taken}
            if "call" in legal:
                return {"seat": seat, "type": "call", "discard": legal["call"]["discards"][0]}
            options = parse_cards(legal["discard"]["cards"], path="cards")
            counts = Counter(card.rank for card in hand.holding(seat))
            wild = hand.wild_rank

            def keep(card: Card) -> tuple[bool, int]:
                return card.rank == wild, counts[card.rank]

            least = min(keep(card) for card in options)
            throw = rng.choice(sorted(card for card in options if keep(card) == least))
            return {"seat": seat, "type": "discard", "card": str(throw)}

        return drive(hand, choose)


THEORY = GameTheory(PaiutePlayer())
