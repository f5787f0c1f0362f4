"""Palace Poker properties over random legal hands (Hypothesis).

Each example deals 2-10 players at random seats from a shuffled deck (banners by clause 4,
three palace cards each), with a random dealer, structure, chip, bets, stacks (some short)
and rules, a rake schedule among them. The hand is then driven to its end only from ``legal_actions()``: buys of a card
the dealer could turn, discards, battles and raises anywhere within the bounds given, calls,
stays and folds. The checks are worked out from the actions and the table, not from the
engine's internals.
"""

from __future__ import annotations

from random import Random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.rules.cards import Card, standard_deck
from casino.rules.palace_poker import (
    Buying,
    PalaceHand,
    deal_banners,
    evaluate,
    parse_config,
    parse_rules,
    replay,
)
from casino.rules.palace_poker.rules import PalaceRules
from casino.rules.pots import clockwise_from
from tests.rules.rake_helpers import expected_rake, rake_schedules
from tests.rules.typed import assert_typed

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MOST_STEPS = 3000
WEIGHTS = {
    "buy": 4.0,
    "discard": 1.0,
    "battle": 2.0,
    "stay": 3.0,
    "fold": 0.3,
    "call": 3.0,
    "raise": 1.0,
}


@st.composite
def tables(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any], int]:
    count = draw(st.integers(2, 10))
    deck = draw(st.permutations(list(standard_deck())))
    seats = draw(st.lists(st.integers(1, 12), min_size=count, max_size=count, unique=True))
    dealer = draw(st.integers(1, 12))
    banners, _ = deal_banners(deck, clockwise_from(dealer, seats))
    rest = [card for card in deck if card not in set(banners.values())]
    chip = draw(st.sampled_from([1, 5, 25]))
    small = chip * draw(st.integers(1, 4))
    big = small + chip * draw(st.integers(0, 6))
    rules: dict[str, Any] = {
        "call": draw(st.sampled_from(["formula", "match"])),
        "smallest_chip": chip,
        "max_soldiers": draw(st.sampled_from([5, 5, 3, 1])),
        "max_raises": draw(st.sampled_from([None, 1, 3])),
        "uncalled_raise_returned": draw(st.booleans()),
        "short_all_in": draw(st.booleans()),
        "rake": draw(rake_schedules(chip, most=200)),
    }
    ante = PalaceRules.from_dict(rules).ante_for(small)
    players = [
        {
            "seat": seat,
            "stack": ante + chip * draw(st.integers(0, 600)),
            "banner": str(banners[seat]),
            "palace": [str(card) for card in rest[3 * i : 3 * i + 3]],
        }
        for i, seat in enumerate(seats)
    ]
    record = {
        "structure": draw(st.sampled_from(["limit", "no_limit"])),
        "small_bet": small,
        "big_bet": big,
        "dealer": dealer,
        "players": players,
        "actions": [],
    }
    return record, rules, draw(st.integers(0, 2**32 - 1))


def amount_in(rng: Random, low: int, high: int, chip: int) -> int:
    if rng.random() < 0.6:
        return low
    return low + chip * rng.randint(0, (high - low) // chip)


def choose(hand: PalaceHand, rng: Random, chip: int) -> dict[str, Any]:
    """A random legal action for the seat to act, from ``legal_actions()`` only."""
    seat = hand.to_act
    assert seat is not None
    legal = {action["type"]: action for action in hand.legal_actions()}
    kinds = list(legal)
    kind = rng.choices(kinds, weights=[WEIGHTS[k] for k in kinds])[0]
    offer = legal[kind]
    action: dict[str, Any] = {"seat": seat, "type": kind}
    if kind == "buy":
        card = rng.choice(hand.buyable())
        soldiers = [str(c) for c in hand.cards(seat)["soldiers"]] + [str(card)]
        least = offer["must_discard"]
        thrown = rng.sample(soldiers, rng.randint(least, min(len(soldiers), least + 1)))
        action.update(card=str(card), discard=thrown)
    elif kind == "discard":
        soldiers = offer["soldiers"]
        action["cards"] = rng.sample(soldiers, rng.randint(1, len(soldiers)))
    elif kind == "battle":
        action["target"] = rng.choice(offer["targets"])
        action["amount"] = amount_in(rng, offer["min"], offer["max"], chip)
    elif kind == "raise":
        action["amount"] = amount_in(rng, offer["min"], offer["max"], chip)
    return action


def play(record: dict[str, Any], rules: dict[str, Any], seed: int) -> PalaceHand:
    """Drive the hand to its end, checking the invariants after every action."""
    effective = PalaceRules.from_dict(rules)
    hand = PalaceHand(parse_config(record, effective), effective)
    rng = Random(seed)
    deck = set(standard_deck())
    shown: set[Card] = {c for p in hand.config.players for c in (p.banner, *p.palace)}
    recycled: set[Card] | None = None  # the reshuffled stock's cards not yet bought
    for _ in range(MOST_STEPS):
        if hand.complete:
            break
        hand.apply(choose(hand, rng, effective.smallest_chip))
        op = hand.log[-1] if isinstance(hand.log[-1], Buying) else None
        if op is not None:
            # No card is shown twice, except cards that came back in a reshuffle.
            if op.reshuffled:
                assert set(op.reshuffled) <= shown
                recycled = set(op.reshuffled)
            if recycled is None:
                assert op.card not in shown
            else:
                assert op.card in recycled
                recycled.discard(op.card)
            shown.add(op.card)
        held: list[Card] = []
        for seat in hand.players_in():
            cards = hand.cards(seat)
            assert len(cards["soldiers"]) <= effective.max_soldiers
            held += [cards["banner"], *cards["palace"], *cards["soldiers"]]
        every = [*held, *hand.stock(), *hand.discards()]
        assert len(every) == len(set(every)) == 52 and set(every) == deck
        view = hand.view()
        assert view["pot"] + sum(seat["stack"] for seat in view["seats"]) == sum(
            p["stack"] for p in record["players"]
        )
        assert all(seat["stack"] >= 0 for seat in view["seats"])
    assert hand.complete, "the hand did not end"
    return hand


@SETTINGS
@given(tables())
def test_random_legal_hands_conserve_chips_and_replay_the_same(
    table: tuple[dict[str, Any], dict[str, Any], int],
) -> None:
    record, rules, seed = table
    hand = play(record, rules, seed)
    settlement = hand.settle()
    assert_typed(settlement)
    settlement.check_conserved()
    total = sum(p["stack"] for p in record["players"])
    pot = settlement.to_dict()["pot"]
    rake = expected_rake(rules["rake"], pot, rules["smallest_chip"])
    assert settlement.rake == rake
    assert sum(seat.extra["stack_after"] for seat in settlement.seats) + rake == total
    assert sum(seat.net for seat in settlement.seats) + rake == 0
    assert sum(seat.lines[0].stake for seat in settlement.seats) == pot
    winners = settlement.to_dict()["winners"]
    assert winners and all(settlement.seat(seat).status == "settled" for seat in winners)
    assert all(seat.seat in winners for seat in settlement.seats if seat.rake)
    # A hand is its configuration plus its log: the record replays to the same settlement.
    rebuilt = hand.to_record()
    assert replay(rebuilt, rules).settle().to_dict() == settlement.to_dict()
    assert evaluate(rebuilt, parse_rules(rules)).to_dict() == settlement.to_dict()
