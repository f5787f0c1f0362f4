#!/usr/bin/env python
"""Benchmark: re-settling stored hands, the audit check's replay, for every game.

Method
------
* For each game, ``--hands`` realistic stored histories are made from a seeded RNG: a hand is
  opened with a set-up the way the platform stores it (``config``) and the table's frozen
  rules (``game.hand_rules`` from a few table configurations, so many hands share their rules
  as at a real floor), then driven to its end only through the engine's
  ``state.legal_actions()`` and ``state.apply()``, with random choices within the bounds
  given; the history is ``History(...).to_dict()``, what the platform stores.
* Timed, per stored history, exactly what ``payouts.audit._check_replay`` does::

      history = History.from_dict(stored)
      state = game(history.game).replay(history)
      fresh = state.settle().to_dict()

  (the caller's JSON canonicalisation and comparison are not timed). ``--rounds`` (5)
  rounds over all the histories, each timed in CPU seconds of this process
  (``time.process_time``: what the engine costs, not what the other processes of a busy
  machine take from it); the best and the median round are printed as hands per CPU-second
  and CPU µs a hand.

Against the baseline (issue 25, target 4: each replay at least 2x the hands per CPU-second of
the issue's start)
---------------------------------------------------------------------------------------------
``scripts/bench_baseline.json`` holds, per game, the figures at the issue's start: the ones the
issue states and this script's own measurement of the code of that time (the same seeded
histories, ``--hands 1000 --seed 1``), with the machine, the date and the commit. A figure in
hands per CPU-second depends on the machine, and on a shared machine on the moment (what the
other processes do to its caches and clock: the same code measures 30 % apart within a
minute here), so it is never compared bare with a figure from another run. Instead each run
also measures a **reference workload**: a fixed pure-Python loop of the engines' kind of work
(small objects, dicts and lists built and read, attribute look-ups, calls, %-formatting,
sorting; no engine code, so no change to the engines moves it), interleaved with the hands
it is compared with: before each chunk of ``CHUNK`` hands a slice of ``REFERENCE_SLICE``
loops, timed apart, so the two share the same moments of a busy machine. Each round gives
the game's speed in units of the machine's,

    hands per CPU-second / reference loops per CPU-second  (x 1000: hands per 1000 loops)

and the run's figure is the median of its rounds. The baseline file holds the same figure
measured on the code of the issue's start (``--write-baseline`` at that commit), and a game's
**ratio** is today's figure over the baseline's: on a machine (or a moment) twice as fast
both speeds double and the ratio does not move. The target line says ``met`` when the ratio
is at least 2.0. The hands per CPU-second printed are the best round's, for reading beside
the issue's figures (those are bare figures of one machine and moment, given for reference
only). ``--write-baseline`` writes this run's figures as the baseline's ``measured`` ones
(how the file was made; the issue's figures are kept).

``--dump FILE`` writes each history and its result (or the error it raises) as one canonical
JSON line (``json.dumps(sort_keys=True)``), to compare two versions of the engines byte for
byte; ``--histories FILE`` replays the histories stored in such a file instead of making new
ones (the file's results are ignored).

Run: ``.venv/bin/python scripts/bench_replay.py`` (``--hands 1000`` by default; the ratio is
meaningful only with the baseline's ``--hands`` and ``--seed``, the same histories).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from casino.rules.cards import short_deck, standard_deck  # noqa: E402
from casino.rules.contract import HandState, History, game  # noqa: E402
from casino.rules.errors import RuleError  # noqa: E402
from casino.rules.pots import clockwise_from  # noqa: E402

JSON = dict[str, Any]
#: A table configuration: its limits, smallest chip and rule overrides.
Table = tuple[JSON, int, JSON]
#: The most actions a driven hand may take (a Paiute or Palace Poker hand that would go on
#: longer is dropped; very few do).
MOST_ACTIONS = 600


def _amount(rng: random.Random, low: int, high: int | None, step: int) -> int:
    """A random multiple of ``step`` from ``low`` to ``high`` (5x ``low`` when open), the
    least most often, as players bet."""
    top = high if high is not None else low * 5
    if rng.random() < 0.5:
        return low
    return low + step * rng.randint(0, max(0, (top - low) // step))


def _drive(
    state: HandState, choose: Callable[[HandState, list[JSON]], JSON | None]
) -> list[JSON] | None:
    """Apply ``choose``'s action until the hand is complete; None if it goes on too long."""
    actions: list[JSON] = []
    while not state.complete:
        if len(actions) >= MOST_ACTIONS:
            return None
        action = choose(state, state.legal_actions())
        if action is None:
            return None
        state.apply(action, len(actions))
        actions.append(action)
    return actions


# ---------------------------------------------------------------- High Card Flush

HCF_TABLES: tuple[Table, ...] = (
    # (limits, smallest chip, rule overrides)
    (
        {"ante_min": 500, "ante_max": 10_000, "bank_min": 20_000, "bank_max": 500_000},
        25,
        {
            "rake": {
                "scheme": "per_player",
                "bands": [{"up_to": 2500, "amount": 50}, {"up_to": None, "amount": 100}],
            }
        },
    ),
    (
        {"ante_min": 100, "ante_max": 5_000, "bank_min": 1_000, "bank_max": 200_000},
        100,
        {"rake": {"scheme": "per_player", "amount": 100}},
    ),
    (
        {"ante_min": 1_000, "ante_max": 20_000, "bank_min": 50_000, "bank_max": 1_000_000},
        100,
        {
            "coverage": "original_bank",
            "max_payout_per_hand": 200_000,
            "rake": {"scheme": "dp_only", "amount": 200},
        },
    ),
)


def hcf_history(rng: random.Random, tables: list[JSON]) -> JSON | None:
    code = "high-card-flush"
    rules = rng.choice(tables)
    count = rng.randint(2, 7)
    seats = sorted(rng.sample(range(1, 8), count))
    dp_seat = rng.choice(seats)
    players = [seat for seat in seats if seat != dp_seat]
    chip = rules["smallest_chip"]
    bank_min, bank_max = rules["bank_min"], rules["bank_max"]
    bank = bank_min + chip * rng.randint(0, (bank_max - bank_min) // chip // 4)
    config = {"designated_player": {"seat": dp_seat, "bank": bank}, "players": players}
    state = game(code).new_hand(config, rules)
    deck = [str(card) for card in standard_deck()]
    rng.shuffle(deck)

    def choose(state: HandState, legal: list[JSON]) -> JSON | None:
        wagers = [a for a in legal if a["type"] == "wager"]
        if wagers and (rng.random() < 0.85 or not any(a["type"] == "deal" for a in legal)):
            offer = rng.choice(wagers)
            action: JSON = {
                "type": "wager",
                "seat": offer["seat"],
                "ante": _amount(rng, offer["ante"]["min"], offer["ante"]["max"] // 4, chip),
            }
            for name in offer["bonuses"]:
                if rng.random() < 0.5:
                    action[name] = chip * rng.randint(1, 20)
            return action
        deals = [a for a in legal if a["type"] == "deal"]
        if deals:
            offer = rng.choice(deals)
            cards = [deck.pop() for _ in range(offer["cards"])]
            return {"type": "deal", "seat": offer["seat"], "cards": cards}
        seat = rng.choice([a["seat"] for a in legal])
        raise_ = next(a for a in legal if a["type"] == "raise" and a["seat"] == seat)
        if rng.random() < 0.12:
            return {"type": "fold", "seat": seat}
        return {
            "type": "raise",
            "seat": seat,
            "amount": _amount(rng, raise_["min"], raise_["max"], chip),
        }

    actions = _drive(state, choose)
    return None if actions is None else History(code, rules, config, tuple(actions)).to_dict()


# ---------------------------------------------------------------- Five Card Draw 7-A

DRAW_RULES = (
    {"rake": {"percent": 5, "cap": 300}},
    {"rake": {"percent": 10, "cap": 500, "no_draw_no_drop": False}, "max_raises": 4},
    {"heads_up_uncapped": True, "smallest_chip": 50},
)


def draw_history(rng: random.Random, tables: list[JSON]) -> JSON | None:
    code = "five-card-draw-7a"
    rules = rng.choice(tables)
    chip = rules["smallest_chip"]
    players = rng.randint(2, 5)
    deck = [str(card) for card in short_deck(players == 5)]
    rng.shuffle(deck)
    seats = sorted(rng.sample(range(1, 7), players))
    structure = rng.choice(["limit", "pot_limit", "no_limit"])
    config: JSON = {
        "structure": structure,
        "small_blind": 100,
        "big_blind": 200,
        "big_bet": 400,
        "button": rng.choice(seats),
        "seats": [
            {
                "seat": seat,
                "stack": rng.choice([1_000, 5_000, 20_000]),
                "cards": deck[i * 5 : (i + 1) * 5],
            }
            for i, seat in enumerate(seats)
        ],
    }
    state = game(code).new_hand(config, rules)
    # As the platform stores it: the posts the table worked out, written out.
    config = {**config, "posts": [post.to_dict() for post in state.config.posts]}  # type: ignore[attr-defined]
    state = game(code).new_hand(config, rules)

    def choose(state: HandState, legal_list: list[JSON]) -> JSON | None:
        seat = state.to_act  # type: ignore[attr-defined]
        legal = {action["type"]: action for action in legal_list}
        roll = rng.random()
        if roll < 0.08:
            return {"seat": seat, "type": "fold"}
        if "draw" in legal:
            held = [str(card) for card in state.cards(seat)]  # type: ignore[attr-defined]
            stub = [str(card) for card in state.stub()]  # type: ignore[attr-defined]
            count = min(rng.randint(0, 3), len(stub) - 1)
            return {
                "seat": seat,
                "type": "draw",
                "discard": rng.sample(held, count),
                "receive": rng.sample(stub[:-1], count),
            }
        if roll > 0.75 and ("bet" in legal or "raise" in legal):
            kind = "bet" if "bet" in legal else "raise"
            low, high = legal[kind]["min"], legal[kind]["max"]
            to = low + chip * rng.randint(0, (high - low) // chip) if rng.random() < 0.5 else low
            return {"seat": seat, "type": kind, "to": to}
        return {"seat": seat, "type": "check" if "check" in legal else "call"}

    actions = _drive(state, choose)
    return None if actions is None else History(code, rules, config, tuple(actions)).to_dict()


# ---------------------------------------------------------------- Pontoon

PONTOON_TABLES: tuple[Table, ...] = (
    ({"stake_min": 100, "stake_max": 2_000, "kitty_min": None, "kitty_max": None}, 50, {}),
    (
        {"stake_min": 100, "stake_max": 1_000, "kitty_min": 500, "kitty_max": 5_000},
        100,
        {"split_pontoon_pays_double": True, "max_split_hands": 2},
    ),
    (
        {"stake_min": 25, "stake_max": None, "kitty_min": None, "kitty_max": None},
        25,
        {"stick_minimum": 16, "banker_stick_minimum": 17, "decks": 2, "five_card_limit": 6},
    ),
)


def pontoon_history(rng: random.Random, tables: list[JSON]) -> JSON | None:
    code = "pontoon"
    rules = rng.choice(tables)
    chip = rules["smallest_chip"]
    count = rng.randint(1, 6)
    seats = rng.sample(range(1, 10), count + 1)
    banker, players = seats[0], sorted(seats[1:])
    kitty = None
    carried = False
    if rules["kitty_min"] is not None:
        carried = rng.random() < 0.5
        kitty = (
            rules["kitty_min"] + chip * rng.randint(0, 10)
            if not carried
            else chip * rng.randint(1, 80)
        )
    config: JSON = {"banker": banker, "players": players, "kitty": kitty, "kitty_carried": carried}
    state: Any = game(code).new_hand(config, rules)
    config = state.config.to_dict()
    state = game(code).new_hand(config, rules)
    pack: list[str] = [str(card) for card in standard_deck()] * rules["decks"]
    rng.shuffle(pack)

    def card_for(pair_with: str | None = None, low: bool = False) -> str:
        if not pack:
            return str(rng.choice(state.cards_available()))
        wanted = pair_with[0] if pair_with is not None else "A234" if low else ""
        if wanted and rng.random() < 0.5:
            for index, text in enumerate(pack):
                if text[0] in wanted:
                    return pack.pop(index)
        return pack.pop()

    def choose(_: HandState, legal_list: list[JSON]) -> JSON | None:
        seat = state.to_act
        legal = {action["type"]: action for action in legal_list}
        if "deal" in legal:
            index = legal["deal"].get("hand", 0)
            pair_with = None
            if seat != state.banker:
                cards = state.player(seat).hands[index].cards
                pair_with = str(cards[0]) if len(cards) == 1 else None
            action: JSON = {"type": "deal", "seat": seat, "card": card_for(pair_with)}
            if "hand" in legal["deal"]:
                action["hand"] = index
            return action
        if "stake" in legal:
            bounds = legal["stake"]
            return {
                "type": "stake",
                "seat": seat,
                "amount": _amount(rng, bounds["min"], bounds["max"], chip),
            }
        if "no_shoot" in legal:
            if "shoot" in legal and rng.random() < 0.5:
                bounds = legal["shoot"]
                amount = _amount(rng, bounds["min"], bounds["max"], chip)
                return {"type": "shoot", "seat": seat, "amount": amount}
            return {"type": "no_shoot", "seat": seat}
        if "draw" in legal:
            if "stand" in legal and (state.banker_value.total >= 17 or rng.random() < 0.3):
                return {"type": "stand", "seat": seat}
            return {"type": "draw", "seat": seat, "card": card_for(low=True)}
        index = state.current_hand
        roll = rng.random()
        if "split" in legal and roll < 0.7:
            return {"type": "split", "seat": seat, "hand": index}
        if "shoot" in legal and roll < 0.4:
            bounds = legal["shoot"]
            amount = _amount(rng, bounds["min"], bounds["max"], chip)
            return {"type": "shoot", "seat": seat, "hand": index, "amount": amount}
        if "stick" in legal and roll < 0.6:
            return {"type": "stick", "seat": seat, "hand": index}
        if "buy" in legal and roll < 0.8:
            bounds = legal["buy"]
            amount = _amount(rng, bounds["min"], bounds["max"], chip)
            return {
                "type": "buy",
                "seat": seat,
                "hand": index,
                "amount": amount,
                "card": card_for(),
            }
        return {"type": "twist", "seat": seat, "hand": index, "card": card_for()}

    actions = _drive(state, choose)
    if actions is None:
        return None
    if state.can_sell_bank_now() and rng.random() < 0.2:
        sale = {
            "type": "sell_bank",
            "seat": state.banker,
            "buyer": state.order[-1],
            "price": chip * rng.randint(1, 50),
        }
        state.apply(sale, len(actions))
        actions.append(sale)
    return History(code, rules, config, tuple(actions)).to_dict()


# ---------------------------------------------------------------- Paiute

PAIUTE_TABLES: tuple[Table, ...] = (
    ({"ante": 100}, 25, {}),
    ({"ante": 500}, 100, {"rake": {"kind": "percent", "percent": 5, "cap": 200}}),
    ({"ante": 200}, 50, {"discard_pile_starts_with_upturned_card": True, "rake": {"fixed": 50}}),
)


def paiute_history(rng: random.Random, tables: list[JSON]) -> JSON | None:
    code = "paiute"
    rules = rng.choice(tables)
    count = rng.randint(2, 5)
    seats = sorted(rng.sample(range(1, 10), count))
    dealer = rng.choice(seats)
    pack = [str(card) for card in standard_deck()]
    rng.shuffle(pack)
    option = rules["discard_pile_starts_with_upturned_card"]
    config: JSON = {
        "dealer": dealer,
        "players": seats,
        "ante": rules["ante_min"],
        "hands": {str(seat): pack[5 * i : 5 * i + 5] for i, seat in enumerate(seats)},
        "upcard": pack[5 * count],
        "first_discard": pack[5 * count + 1] if option else None,
    }
    state: Any = game(code).new_hand(config, rules)
    config = state.config.to_dict()
    state = game(code).new_hand(config, rules)
    bias, keen = (0.7, 0.85) if rng.random() < 0.7 else (0.15, 0.05)

    def helpful(seat: int, cards: list[Any]) -> Any:
        held = state.holding(seat)
        ranks = {card.rank for card in held}
        suits = {card.suit for card in held}
        good = [
            card
            for card in cards
            if card.rank == state.wild_rank or card.rank in ranks or card.suit in suits
        ]
        return rng.choice(good if good and rng.random() < bias else cards)

    def choose(_: HandState, legal_list: list[JSON]) -> JSON | None:
        seat = state.to_act
        legal = {action["type"]: action for action in legal_list}
        if "draw" in legal:
            if "discard" in legal["draw"]["sources"] and rng.random() < 0.3:
                return {"seat": seat, "type": "draw", "source": "discard"}
            card = helpful(seat, list(state.stock_cards()))
            return {"seat": seat, "type": "draw", "source": "stock", "card": str(card)}
        if "call" in legal and rng.random() < keen:
            return {"seat": seat, "type": "call", "discard": rng.choice(legal["call"]["discards"])}
        held = state.holding(seat)
        options = [c for c in held if str(c) in legal["discard"]["cards"]]
        ranks = [c.rank for c in held]
        lonely = [c for c in options if ranks.count(c.rank) == 1 and c.rank != state.wild_rank]
        card = rng.choice(lonely if lonely and rng.random() < 0.8 else options)
        return {"seat": seat, "type": "discard", "card": str(card)}

    actions = _drive(state, choose)
    return None if actions is None else History(code, rules, config, tuple(actions)).to_dict()


# ---------------------------------------------------------------- Palace Poker

PALACE_TABLES: tuple[Table, ...] = (
    ({"structure": "limit", "small_bet": 500, "big_bet": 1_000}, 25, {}),
    (
        {"structure": "no_limit", "small_bet": 200, "big_bet": 400},
        50,
        {"call": "match", "rake": {"kind": "percent", "percent": 5, "cap": 500}},
    ),
    (
        {"structure": "limit", "small_bet": 100, "big_bet": 200},
        25,
        {"max_raises": 3, "max_soldiers": 3, "rake": {"kind": "fixed", "amount": 50}},
    ),
)
PALACE_WEIGHTS = {
    "buy": 4.0,
    "discard": 1.0,
    "battle": 2.0,
    "stay": 3.0,
    "fold": 0.3,
    "call": 3.0,
    "raise": 1.0,
}


def palace_history(rng: random.Random, tables: list[tuple[JSON, JSON]]) -> JSON | None:
    from casino.rules.palace_poker import deal_banners
    from casino.rules.palace_poker.config import parse_config
    from casino.rules.palace_poker.rules import PalaceRules

    code = "palace-poker"
    limits, rules = rng.choice(tables)
    chip = rules["smallest_chip"]
    count = rng.randint(2, 8)
    seats = sorted(rng.sample(range(1, 11), count))
    dealer = rng.choice(seats)
    deck = list(standard_deck())
    rng.shuffle(deck)
    order = clockwise_from(dealer, seats)
    banners, _ = deal_banners(deck, order)
    rest = [card for card in deck if card not in set(banners.values())]
    engine_rules = PalaceRules.from_dict(rules)
    ante = engine_rules.ante_for(limits["small_bet"])
    players = [
        {
            "seat": seat,
            "stack": ante + chip * rng.randint(20, 800),
            "banner": str(banners[seat]),
            "palace": [str(card) for card in rest[3 * i : 3 * i + 3]],
        }
        for i, seat in enumerate(seats)
    ]
    record = {**limits, "dealer": dealer, "players": players}
    config = parse_config(record, engine_rules).to_dict()  # as open_hand stores it
    state: Any = game(code).new_hand(config, rules)

    def choose(_: HandState, legal_list: list[JSON]) -> JSON | None:
        seat = state.to_act
        legal = {action["type"]: action for action in legal_list}
        kinds = list(legal)
        kind = rng.choices(kinds, weights=[PALACE_WEIGHTS[k] for k in kinds])[0]
        offer = legal[kind]
        action: JSON = {"seat": seat, "type": kind}
        if kind == "buy":
            card = rng.choice(state.buyable())
            soldiers = [str(c) for c in state.cards(seat)["soldiers"]] + [str(card)]
            least = offer["must_discard"]
            thrown = rng.sample(soldiers, rng.randint(least, min(len(soldiers), least + 1)))
            action.update(card=str(card), discard=thrown)
        elif kind == "discard":
            soldiers = offer["soldiers"]
            action["cards"] = rng.sample(soldiers, rng.randint(1, len(soldiers)))
        elif kind == "battle":
            action["target"] = rng.choice(offer["targets"])
            action["amount"] = _amount(rng, offer["min"], offer["max"], chip)
        elif kind == "raise":
            action["amount"] = _amount(rng, offer["min"], offer["max"], chip)
        return action

    actions = _drive(state, choose)
    return None if actions is None else History(code, rules, config, tuple(actions)).to_dict()


# ---------------------------------------------------------------- the histories


def _hand_rules(code: str, tables: tuple[Table, ...]) -> list[JSON]:
    """Each table configuration's frozen hand rules, as the platform stores them."""
    return [game(code).hand_rules(limits, chip, rules) for limits, chip, rules in tables]


def _palace_tables() -> list[tuple[JSON, JSON]]:
    return [
        (limits, game("palace-poker").hand_rules(limits, chip, rules))
        for limits, chip, rules in PALACE_TABLES
    ]


def _draw_tables() -> list[JSON]:
    return [game("five-card-draw-7a").parse_rules(rules) for rules in DRAW_RULES]


GAMES: dict[str, tuple[str, Callable[[random.Random, Any], JSON | None], Callable[[], Any]]] = {
    "high-card-flush": (
        "High Card Flush",
        hcf_history,
        lambda: _hand_rules("high-card-flush", HCF_TABLES),
    ),
    "five-card-draw-7a": ("Five Card Draw 7-A", draw_history, _draw_tables),
    "pontoon": ("Pontoon", pontoon_history, lambda: _hand_rules("pontoon", PONTOON_TABLES)),
    "paiute": ("Paiute", paiute_history, lambda: _hand_rules("paiute", PAIUTE_TABLES)),
    "palace-poker": ("Palace Poker", palace_history, _palace_tables),
}


def histories(code: str, count: int, seed: int = 1) -> list[JSON]:
    """``count`` stored histories of the game ``code``, from ``seed``."""
    _, make, tables = GAMES[code]
    rng = random.Random(f"{code}:{seed}")
    made: list[JSON] = []
    table_rules = tables()
    while len(made) < count:
        history = make(rng, table_rules)
        if history is not None:
            made.append(json.loads(json.dumps(history)))  # stored as JSON
    return made


# ---------------------------------------------------------------- the operation timed


def resettle(stored: JSON) -> JSON:
    """What the audit check does per stored settlement (``payouts.audit._check_replay``)."""
    history = History.from_dict(stored)
    state = game(history.game).replay(history)
    fresh = state.settle()
    return fresh.to_dict()


def outcome(stored: JSON) -> str:
    """The result of re-settling ``stored`` (or the error it raises) as canonical JSON."""
    try:
        result: Any = {"result": resettle(stored)}
    except RuleError as error:
        result = {"error": type(error).__name__, "problems": [p.to_dict() for p in error.problems]}
    return json.dumps(result, sort_keys=True)


# ---------------------------------------------------------------- the machine's speed

#: Hands timed between two slices of the reference, and the reference loops of a slice.
CHUNK = 50
REFERENCE_SLICE = 2_000
BASELINE = Path(__file__).resolve().parent / "bench_baseline.json"
#: Issue 25's target: at least this many times the baseline's hands per CPU-second.
TARGET = 2.0


class _Seat:
    __slots__ = ("number", "stake", "cards")

    def __init__(self, number: int, stake: int, cards: tuple[str, ...]) -> None:
        self.number, self.stake, self.cards = number, stake, cards


def _reference_once(loops: int) -> int:
    """A fixed pure-Python workload of the engines' kind; returns a checksum (so nothing is
    optimised away, and a change to it is seen)."""
    ranks = "23456789TJQKA"
    total = 0
    for i in range(loops):
        seats = [
            _Seat(n, (i * n) % 997, (ranks[n % 13] + "s", ranks[i % 13] + "h")) for n in range(6)
        ]
        action: dict[str, Any] = {"type": "raise", "seat": seats[i % 6].number, "amount": i % 500}
        table = {seat.number: seat for seat in seats if seat.stake >= action["amount"] // 4}
        ordered = sorted(table.values(), key=lambda seat: (-seat.stake, seat.number))
        text = "Seat %(seat)s raises %(amount)s." % action  # noqa: UP031 (as messages do)
        total += len(text) + len(ordered) + sum(len(seat.cards[0]) for seat in ordered)
    return total


def time_round(stored: list[JSON]) -> tuple[float, float, int]:
    """One round over all ``stored``: CPU seconds of the hands, CPU seconds of the reference
    slices interleaved with them (one before each chunk of :data:`CHUNK` hands), and the
    reference loops run."""
    clock = time.process_time
    hands = reference = 0.0
    loops = 0
    for start in range(0, len(stored), CHUNK):
        begun = clock()
        _reference_once(REFERENCE_SLICE)
        between = clock()
        for history in stored[start : start + CHUNK]:
            resettle(history)
        hands += clock() - between
        reference += between - begun
        loops += REFERENCE_SLICE
    return hands, reference, loops


def measure(stored: list[JSON], rounds: int) -> JSON:
    """``rounds`` rounds over ``stored``: the CPU seconds of each, and the figures a run
    reports (see the module docstring)."""
    times: list[float] = []
    per_loop: list[float] = []
    references: list[float] = []
    for _ in range(rounds):
        hands, reference, loops = time_round(stored)
        times.append(hands)
        references.append(loops / reference)
        per_loop.append((len(stored) / hands) / (loops / reference) * 1000)
    best = min(range(rounds), key=times.__getitem__)
    return {
        "times": times,
        "hands_per_cpu_second": round(len(stored) / times[best]),
        "reference_per_cpu_second": round(references[best]),
        "hands_per_1000_loops": round(statistics.median(per_loop), 3),
    }


def _commit() -> str:
    try:
        found = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).resolve().parent,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return found.stdout.strip()


def _read_baseline(path: Path) -> JSON:
    if not path.exists():
        return {"games": {}}
    data: JSON = json.loads(path.read_text())
    return data


def _read_histories(path: Path) -> Iterator[JSON]:
    with path.open() as lines:
        for line in lines:
            yield json.loads(line)["history"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=1000, help="histories per game")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", nargs="*", choices=list(GAMES), default=list(GAMES))
    parser.add_argument("--dump", type=Path, help="write histories and results (JSON lines)")
    parser.add_argument("--histories", type=Path, help="replay the histories of a --dump file")
    parser.add_argument("--baseline", type=Path, default=BASELINE, help="the baseline file")
    parser.add_argument(
        "--write-baseline",
        action="store_true",
        help="write this run's figures as the baseline's measured ones (the code of the start)",
    )
    args = parser.parse_args()

    if args.histories:
        stored = list(_read_histories(args.histories))
        by_game = {code: [h for h in stored if h["game"] == code] for code in args.games}
    else:
        by_game = {code: histories(code, args.hands, args.seed) for code in args.games}
    if args.dump:
        with args.dump.open("w") as out:
            for code in args.games:
                for history in by_game[code]:
                    out.write(f'{{"history": {json.dumps(history, sort_keys=True)}, ')
                    out.write(f'"outcome": {outcome(history)}}}\n')
        print(f"wrote {sum(map(len, by_game.values()))} histories and results to {args.dump}")

    baseline = _read_baseline(args.baseline)
    print(
        f"Re-settling stored hands · Python {platform.python_version()} · "
        f"{platform.machine()} · commit {_commit()} · CPU time, best and median of "
        f"{args.rounds} rounds"
    )
    print(
        f"{'game':<20} {'hands':>6} {'actions':>8} {'best/s':>9} {'median/s':>9} "
        f"{'best µs':>8} {'median µs':>10} {'reference/s':>12} {'per 1000':>10}"
    )
    measured: dict[str, JSON] = {}
    for code in args.games:
        stored = by_game[code]
        if not stored:
            continue
        figures = measure(stored, args.rounds)
        times = figures.pop("times")
        best, median = min(times), statistics.median(times)
        actions = sum(len(h["actions"]) for h in stored) / len(stored)
        measured[code] = figures
        print(
            f"{GAMES[code][0]:<20} {len(stored):>6} {actions:>8.1f} {len(stored) / best:>9,.0f} "
            f"{len(stored) / median:>9,.0f} {best / len(stored) * 1e6:>8.0f} "
            f"{median / len(stored) * 1e6:>10.0f} {figures['reference_per_cpu_second']:>12,} "
            f"{figures['hands_per_1000_loops']:>10.3f}"
        )

    if args.write_baseline:
        _write_baseline(args, baseline, measured)
        return
    _compare(args.baseline, baseline, measured)


def _write_baseline(args: argparse.Namespace, baseline: JSON, measured: dict[str, JSON]) -> None:
    games: dict[str, JSON] = baseline.setdefault("games", {})
    for code, figures in measured.items():
        games.setdefault(code, {"name": GAMES[code][0]})["measured"] = figures
    baseline["measured_with"] = {
        "commit": _commit(),
        "date": datetime.date.today().isoformat(),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.processor() or ''}".rstrip(
            ", "
        ),
        "python": platform.python_version(),
        "hands": args.hands,
        "seed": args.seed,
        "rounds": args.rounds,
        "chunk": CHUNK,
        "reference_slice": REFERENCE_SLICE,
    }
    args.baseline.write_text(json.dumps(baseline, indent=2, ensure_ascii=False) + "\n")
    print(f"wrote the measured figures to {args.baseline}")


def _compare(path: Path, baseline: JSON, measured: dict[str, JSON]) -> None:
    """Each game against the baseline, in units of the reference measured beside it."""
    games: dict[str, JSON] = baseline.get("games", {})
    rows = [code for code in measured if "measured" in games.get(code, {})]
    if not rows:
        return
    print()
    print(
        f"Against {path.name} (measured at {baseline['measured_with']['commit']}, "
        f"{baseline['measured_with']['date']}; ratio of the hands per 1000 reference loops)"
    )
    print(
        f"{'game':<20} {'now/s':>8} {'then/s':>8} {'issue/s':>8} {'ratio':>6}  target ≥ {TARGET:g}×"
    )
    for code in rows:
        now, then = measured[code], games[code]["measured"]
        ratio = now["hands_per_1000_loops"] / then["hands_per_1000_loops"]
        issue = games[code].get("issue_hands_per_cpu_second")
        target = games[code].get("target", TARGET)
        verdict = "—" if target is None else "met" if ratio >= target else "not met"
        print(
            f"{GAMES[code][0]:<20} {now['hands_per_cpu_second']:>8,} "
            f"{then['hands_per_cpu_second']:>8,} "
            f"{'' if issue is None else f'{issue:,}':>8} {ratio:>5.2f}×  {verdict}"
        )


if __name__ == "__main__":
    main()
