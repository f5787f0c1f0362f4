"""Seeded random hands of every game, played through the game's own engine.

Each game has a :class:`Player`: a fixed, documented strategy that deals random cards from
the game's deck and picks every action from the hand's ``legal_actions()``; the hand is then
settled by the engine (``Game.evaluate`` for a High Card Flush record, the live hand's
``settle()`` otherwise), so a simulation measures the rules as implemented, fees, caps and
bank coverage included. Seats are numbered from 1.

The strategies (:attr:`Player.strategy` says the same in words):

* **High Card Flush**: six players and the designated player (DP); each player antes the
  table's minimum (the smallest chip without one), always raises 1x the ante and places each
  bonus the table offers at 1x the ante; the DP's bank is the table's maximum (``10**12``
  without one).
* **Five Card Draw 7-A**: four players with 100 big blinds each; the button moves at random.
  Before and after the draw a player bets the minimum with two pair or better when nobody
  has bet, calls with a pair or better, checks when it can and folds otherwise; at the draw
  it stands pat with a straight or better, keeps its pairs (or sets) and draws to them, and
  otherwise keeps its two highest cards and draws three, never more than the stub holds
  without a reshuffle.
* **Pontoon**: a banker and five players; each player stakes the minimum, never buys,
  splits or shoots, and sticks as soon as the rules allow it (twisting until then); the
  banker draws below 17 and stands on 17 or more (or when it may not draw).
* **Paiute**: four players ante the table's ante; every player draws from the stock, calls
  whenever the engine offers a call (its first allowed discard) and otherwise throws away the
  card whose rank it holds fewest of (wild cards kept, the lowest rank first).
* **Palace Poker**: four players with 50 big bets each; on its turn a player attacks the
  first opponent the engine lists, for the minimum; a defender calls (folding only when it
  may not); a player that cannot battle stays when it may and folds otherwise.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from casino.rules.cards import Card, parse_card, parse_cards
from casino.rules.contract import JSON, Game
from casino.rules.five_card_draw import DrawHand
from casino.rules.paiute.hand import PaiuteHand
from casino.rules.palace_poker import PalaceHand
from casino.rules.palace_poker.config import deal_banners
from casino.rules.poker import Category
from casino.rules.poker_hands import hand_value
from casino.rules.pontoon.hand import PontoonHand
from casino.rules.pots import clockwise_from
from casino.rules.settlement import Settlement

#: Beyond this many actions a hand is a defect in a strategy, not a long hand.
MOST_ACTIONS = 5_000
#: The largest amount any engine accepts (a bank with no table maximum).
LARGEST = 10**12


class StrategyError(RuntimeError):
    """A strategy did not finish a hand (a defect here, never a player's choice)."""


def _legal(state: Any) -> dict[str, JSON]:
    return {str(action["type"]): action for action in state.legal_actions()}


def _deck(game: Game, seats: int, rng: random.Random) -> list[str]:
    deck = game.deck(seats)
    rng.shuffle(deck)
    return deck


class Player:
    """One game's strategy. ``version`` is part of what a stored figure depends on: change
    it with the strategy, so figures made by the old one are not reused."""

    code: ClassVar[str]
    players: ClassVar[int]
    version: ClassVar[int] = 1
    strategy: ClassVar[str]
    #: The table limits a figure depends on (the rules always count, see ``ignored_rules``).
    limit_keys: ClassVar[tuple[str, ...]] = ()
    #: Effective rules keys that cannot change the figure (rotation policy, limits unused).
    ignored_rules: ClassVar[tuple[str, ...]] = ()

    def seats(self, rules: Mapping[str, Any]) -> int:
        """Players dealt in (besides a designated player or banker)."""
        return self.players

    def relevant(self, limits: Mapping[str, Any], rules: Mapping[str, Any]) -> JSON:
        """What the house's figure depends on: the strategy, the limits and rules it reads."""
        return {
            "strategy": self.version,
            "players": self.seats(rules),
            "limits": {key: limits.get(key) for key in self.limit_keys},
            "rules": {key: value for key, value in rules.items() if key not in self.ignored_rules},
        }

    def play(
        self, rng: random.Random, game: Game, rules: JSON, limits: Mapping[str, Any]
    ) -> Settlement:
        raise NotImplementedError


def _drive(state: Any, choose: Callable[[dict[str, JSON]], JSON]) -> Settlement:
    """Apply ``choose``'s actions until the hand is complete, then settle it."""
    for index in range(MOST_ACTIONS):
        if state.complete:
            settlement: Settlement = state.settle()
            return settlement
        state.apply(choose(_legal(state)), index)
    raise StrategyError(f"the hand did not finish in {MOST_ACTIONS} actions")


# --------------------------------------------------------------------------- High Card Flush


class HighCardFlushPlayer(Player):
    code = "high-card-flush"
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
        deck = _deck(game, seats + 1, rng)
        ante = rules.get("ante_min") or rules["smallest_chip"]
        offered = {
            bet: bool(rules[table])
            for bet, table in (
                ("flush_bonus", "flush_paytable"),
                ("straight_flush_bonus", "straight_flush_paytable"),
            )
        }
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


# --------------------------------------------------------------------------- Five Card Draw 7-A


def _rank_counts(cards: list[Card]) -> Counter[int]:
    return Counter(card.rank for card in cards)


class FiveCardDrawPlayer(Player):
    code = "five-card-draw-7a"
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
        deck = _deck(game, len(seats), rng)
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

        return _drive(hand, choose)

    @staticmethod
    def _draw(rng: random.Random, hand: DrawHand, seat: int, category: Category) -> JSON:
        cards = list(hand.cards(seat))
        counts = _rank_counts(cards)
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


# --------------------------------------------------------------------------- Pontoon


class PontoonPlayer(Player):
    code = "pontoon"
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

        return _drive(hand, choose)


# --------------------------------------------------------------------------- Paiute


class PaiutePlayer(Player):
    code = "paiute"
    players = 4
    strategy = (
        "Four players ante the table's ante. Every player draws from the stock, calls "
        "whenever the engine offers a call, and otherwise throws away the card whose rank it "
        "holds fewest of (wild cards kept, the lowest rank first)."
    )
    limit_keys = ("ante",)

    def play(
        self, rng: random.Random, game: Game, rules: JSON, limits: Mapping[str, Any]
    ) -> Settlement:
        seats = list(range(1, self.players + 1))
        deck = _deck(game, len(seats), rng)
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
            counts = _rank_counts(list(hand.holding(seat)))
            wild = hand.wild_rank
            throw = min(
                options,
                key=lambda card: (card.rank == wild, counts[card.rank], card.rank, card.suit),
            )
            return {"seat": seat, "type": "discard", "card": str(throw)}

        return _drive(hand, choose)


# --------------------------------------------------------------------------- Palace Poker


class PalacePokerPlayer(Player):
    code = "palace-poker"
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
        deck = [parse_card(card) for card in _deck(game, len(seats), rng)]
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

        return _drive(hand, choose)


PLAYERS: dict[str, Player] = {
    player.code: player
    for player in (
        HighCardFlushPlayer(),
        FiveCardDrawPlayer(),
        PontoonPlayer(),
        PaiutePlayer(),
        PalacePokerPlayer(),
    )
}
