"""Five Card Draw 7-A's theoretical hold, supplied through ``Game.theory()``: the house's fee
over the handle, simulated (:mod:`casino.rules.theory`) with this strategy.

Four players with 100 big blinds each; the button moves at random. Before and after the draw
a player bets the minimum with two pair or better when nobody has bet, calls with a pair or
better, checks when it can and folds otherwise; at the draw it stands pat with a straight or
better, keeps its pairs (or sets) and draws to them, and otherwise keeps its two highest cards
and draws three, never more than the stub holds without a reshuffle.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from casino.rules.cards import Card
from casino.rules.contract import JSON, Game
from casino.rules.poker import Category
from casino.rules.poker_hands import hand_value
from casino.rules.settlement import Settlement
from casino.rules.theory.base import GameTheory
from casino.rules.theory.play import Player, drive, shuffled_deck

from .hand import DrawHand


class FiveCardDrawPlayer(Player):
    players = 4
    strategy = (
        "Four players with 100 big blinds each, the button at random. A player bets the "
        "minimum with two pair or better when nobody has bet, calls with a pair or better, "
        "checks when it can and folds otherwise; at the draw it stands pat with a straight or "
        "better, draws to its pairs or sets, or keeps its two highest cards and draws three."
    )
    limit_keys = ("structure", "small_blind", "big_blind", "big_bet")

    def play(
        self, rng: random.Random, game: Game, rules: JSON, limits: Mapping[str, Any]
    ) -> Settlement:
        seats = list(range(1, self.players + 1))
        deck = shuffled_deck(game, len(seats), rng)
        config = {
            "structure": limits["structure"],
            "small_blind": limits["small_blind"],
            "big_blind": limits["big_blind"],
            "big_bet": limits["big_bet"],
            "button": rng.choice(seats),
            "seats": [
                {
                    "seat": seat,
                    "stack": 100 * limits["big_blind"],
                    "cards": deck[5 * index : 5 * index + 5],
                }
                for index, seat in enumerate(seats)
            ],
        }
        hand = game.new_hand(config, rules)
        assert isinstance(hand, DrawHand)
        option = bool(rules.get("flush_beats_full_house", True))

        def rating(seat: int) -> Category:
            cards = hand.cards(seat)
            value = hand_value(cards, with_sixes=hand.with_sixes, flush_beats_full_house=option)
            return value.category

        def choose(legal: dict[str, JSON]) -> JSON:
            seat = hand.to_act
            assert seat is not None
            if "draw" in legal:
                return self._draw(rng, hand, seat, rating(seat))
            category = rating(seat)
            if "bet" in legal and category >= Category.TWO_PAIR:
                return {"seat": seat, "type": "bet", "to": legal["bet"]["min"]}
            if "check" in legal:
                return {"seat": seat, "type": "check"}
            if "call" in legal and category >= Category.PAIR:
                return {"seat": seat, "type": "call"}
            return {"seat": seat, "type": "fold"}

        return drive(hand, choose)

    @staticmethod
    def _draw(rng: random.Random, hand: DrawHand, seat: int, category: Category) -> JSON:
        cards = list(hand.cards(seat))
        counts = Counter(card.rank for card in cards)
        if category >= Category.STRAIGHT:  # straight, full house, flush, quads, straight flush
            thrown: list[Card] = []
        elif max(counts.values()) >= 2:
            thrown = [card for card in cards if counts[card.rank] == 1]
        else:
            thrown = sorted(cards, key=lambda card: card.rank)[:3]
        stub = list(hand.stub())
        count = min(len(thrown), max(len(stub) - 1, 0))  # no reshuffle: the stub's last stays
        return {
            "seat": seat,
            "type": "draw",
            "discard": [str(card) for card in thrown[:count]],
            "receive": [str(card) for card in rng.sample(stub, count)],
        }


THEORY = GameTheory(FiveCardDrawPlayer())
