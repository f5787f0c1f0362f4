#!/usr/bin/env python
"""Benchmarks: High Card Flush settlements, Five Card Draw 7-A replays and hand evaluations.

Method
------
* Hands are dealt from a seeded RNG: a designated player and six players, 7 cards each
  from one shuffled 52-card deck; each player folds one time in ten, otherwise raises a
  random legal amount (clause 6) and places each bonus bet half the time. Rules: the
  defaults plus a 100 per-player rake.
* **Engine**: ``evaluate(record, rules)`` on pre-dealt records (parsing and validation
  included, as the API does). Three timed rounds of ``--hands`` hands; the best and the
  median round are printed.
* **Settle endpoint** (only with ``DATABASE_URL`` pointing at PostgreSQL): a throwaway
  database ``casino_bench`` is created and dropped. Each hand is opened through the
  services, then ``POST /api/v1/hands/{id}/settle/`` goes through the full Django/DRF stack
  in-process (token auth, role check, Idempotency-Key, row lock, engine, storage of the
  settlement and its lines, audit entry, rotation) using DRF's test client, so no HTTP
  server or network is timed. Only the settle calls are timed.

* **7-A replays**: seeded random legal hands (2-5 players, random structure, stacks and
  blinds) are played once through ``legal_actions()`` to produce records (random folds,
  calls, bets/raises within the given bounds, draws of 0-5 cards), then timed: ``evaluate``
  (parse, replay every action through the state machine, settle) over all records, three
  rounds; best and median printed.
* **7-A hand evaluations**: ``hand_value`` on pre-dealt random 5-card hands from the 32- and
  36-card decks, three rounds; best and median printed. The evaluator caches by rank
  pattern, so this is the warm-cache figure a long session sees.

Run: ``make bench`` (or ``.venv/bin/python scripts/bench.py --hands 2000 --settles 300``).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
# The endpoint benchmark runs on a throwaway database with the test suite's settings (fixed
# keys); set before ``casino`` is imported, as its Celery app names the default settings.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings_test")

from casino.rules import five_card_draw  # noqa: E402
from casino.rules.cards import (  # noqa: E402
    parse_cards,
    short_deck,  # noqa: E402
    standard_deck,
)
from casino.rules.high_card_flush import Rules, best_flush, evaluate, raise_bounds  # noqa: E402
from casino.rules.poker_hands import hand_value  # noqa: E402

RULES = Rules.from_dict({"rake": {"scheme": "per_player", "amount": 100}})


def deal(
    rng: random.Random, dp_seat: int, seats: list[int], ante: int = 1000, bank: int = 200_000
) -> dict[str, Any]:
    deck = [str(card) for card in standard_deck()]
    rng.shuffle(deck)
    hands = [deck[i * 7 : (i + 1) * 7] for i in range(len(seats) + 1)]
    players = []
    for seat, cards in zip(seats, hands[1:], strict=False):
        length = best_flush(parse_cards(cards, path="cards")).length
        low, high = raise_bounds(ante, length)
        players.append(
            {
                "seat": seat,
                "cards": cards,
                "ante": ante,
                "raise": 0 if rng.random() < 0.1 else rng.choice(range(low, high + 1, ante)),
                "flush_bonus": 200 if rng.random() < 0.5 else 0,
                "straight_flush_bonus": 100 if rng.random() < 0.5 else 0,
            }
        )
    return {
        "designated_player": {"seat": dp_seat, "bank": bank, "cards": hands[0]},
        "players": players,
    }


def bench_engine(hands: int, rounds: int = 3) -> None:
    rng = random.Random(7)
    records = [deal(rng, 1, [2, 3, 4, 5, 6, 7]) for _ in range(hands)]
    rates = []
    for _ in range(rounds):
        start = time.perf_counter()
        for record in records:
            evaluate(record, RULES)
        rates.append(hands / (time.perf_counter() - start))
    print(
        f"engine:  {max(rates):>9,.0f} settlements/s best, {statistics.median(rates):,.0f} "
        f"median ({rounds} rounds x {hands} hands, DP + 6 players)"
    )


def _timed(label: str, unit: str, count: int, run: Any, rounds: int = 3) -> None:
    rates = []
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        rates.append(count / (time.perf_counter() - start))
    print(
        f"{label} {max(rates):>9,.0f} {unit}/s best, {statistics.median(rates):,.0f} median "
        f"({rounds} rounds x {count})"
    )


def draw_record(rng: random.Random) -> dict[str, Any]:
    """One random legal 7-A hand, played through the engine's legal actions."""
    players = rng.randint(2, 5)
    deck = [str(card) for card in short_deck(players == 5)]
    rng.shuffle(deck)
    seats = sorted(rng.sample(range(1, 7), players))
    record: dict[str, Any] = {
        "structure": rng.choice(["limit", "pot_limit", "no_limit"]),
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
        "actions": [],
    }
    rules = five_card_draw.DrawRules.from_dict({"rake": {"percent": 5, "cap": 300}})
    hand = five_card_draw.DrawHand(five_card_draw.parse_config(record, rules), rules)
    while not hand.complete:
        seat = hand.to_act
        legal = {action["type"]: action for action in hand.legal_actions()}
        roll = rng.random()
        if roll < 0.1:
            action: dict[str, Any] = {"seat": seat, "type": "fold"}
        elif "draw" in legal:
            held = [str(card) for card in hand.cards(seat)]
            stub = [str(card) for card in hand.stub()]
            count = min(rng.randint(0, 3), len(stub) - 1)
            action = {
                "seat": seat,
                "type": "draw",
                "discard": rng.sample(held, count),
                "receive": rng.sample(stub[:-1], count),
            }
        elif roll > 0.75 and ("bet" in legal or "raise" in legal):
            kind = "bet" if "bet" in legal else "raise"
            action = {
                "seat": seat,
                "type": kind,
                "to": rng.randint(legal[kind]["min"], legal[kind]["max"]),
            }
        else:
            action = {"seat": seat, "type": "check" if "check" in legal else "call"}
        hand.apply(action)
        record["actions"].append(action)
    return record


def bench_draw(hands: int) -> None:
    rng = random.Random(5)
    records = [draw_record(rng) for _ in range(hands)]
    rules = five_card_draw.DrawRules.from_dict({"rake": {"percent": 5, "cap": 300}})
    actions = sum(len(r["actions"]) for r in records)

    def replay_all() -> None:
        for record in records:
            five_card_draw.evaluate(record, rules)

    _timed("7-A:     ", "hand replays", hands, replay_all)
    print(f"          ({actions / hands:.1f} actions per hand on average)")
    dealt = []
    for index in range(20_000):
        deck = list(short_deck(index % 2 == 1))
        dealt.append((rng.sample(deck, 5), index % 2 == 1))

    def evaluate_all() -> None:
        for cards, with_sixes in dealt:
            hand_value(cards, with_sixes=with_sixes)

    _timed("7-A:     ", "hand evaluations", len(dealt), evaluate_all)


def bench_endpoint(settles: int) -> None:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres", "pgsql")):
        print("endpoint: skipped (set DATABASE_URL to a PostgreSQL server to measure it)")
        return
    import django

    django.setup()
    from django.db import OperationalError, connection
    from django.test.utils import setup_test_environment

    connection.settings_dict["TEST"]["NAME"] = "casino_bench"
    setup_test_environment()
    try:
        connection.ensure_connection()
    except OperationalError as exc:
        print(f"endpoint: skipped (PostgreSQL unreachable: {exc})")
        return
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        _run_endpoint(settles)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def _run_endpoint(settles: int) -> None:
    from django.contrib.auth.models import Group, User
    from knox.models import AuthToken
    from rest_framework.test import APIClient

    from tables import services

    floor = User.objects.create(username="bench-floor")
    floor.groups.add(Group.objects.get(name="floor_manager"))
    dealer = User.objects.create(username="bench-dealer")
    dealer.groups.add(Group.objects.get(name="dealer"))
    table = services.table_create(
        user=floor,
        name="bench",
        game="high-card-flush",
        limits={"ante_min": 100, "ante_max": 10_000, "bank_min": 1_000, "bank_max": 1_000_000},
        dealer=dealer,
        rules={"rake": {"scheme": "per_player", "amount": 100}},
    )
    for seat in range(1, 8):
        services.seat_update(
            user=floor, table_id=table.pk, number=seat, player=f"P{seat}", sitting_out=False
        )
    services.table_set_status(user=floor, table_id=table.pk, status="open")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user=dealer)[1]}")
    rng = random.Random(11)
    elapsed = 0.0
    for index in range(settles):
        table.refresh_from_db()
        dp_seat = table.game_state["offer"]
        services.game_act(
            user=dealer,
            table_id=table.pk,
            action={"type": "accept", "seat": dp_seat, "bank": 200_000},
        )
        hand = services.hand_open(user=dealer, table_id=table.pk)
        record = deal(rng, dp_seat, [s for s in range(1, 8) if s != dp_seat])
        start = time.perf_counter()
        response = client.post(
            f"/api/v1/hands/{hand.pk}/settle/",
            record,
            format="json",
            HTTP_IDEMPOTENCY_KEY=f"bench-{index}",
        )
        elapsed += time.perf_counter() - start
        if response.status_code != 201:
            raise SystemExit(f"settle failed: {response.status_code} {response.content!r}")
    print(
        f"endpoint: {settles / elapsed:>8,.1f} settlements/s ({settles} settles through "
        f"POST /api/v1/hands/{{id}}/settle/ on PostgreSQL, {elapsed / settles * 1000:.1f} "
        "ms each)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=3000, help="hands per engine round")
    parser.add_argument("--draw-hands", type=int, default=1000, help="7-A hands per round")
    parser.add_argument("--settles", type=int, default=300, help="settle calls to time")
    args = parser.parse_args()
    print(
        f"Benchmarks · Python {platform.python_version()} · "
        f"{platform.machine()} · {os.cpu_count()} CPUs"
    )
    bench_engine(args.hands)
    bench_draw(args.draw_hands)
    bench_endpoint(args.settles)


if __name__ == "__main__":
    main()
