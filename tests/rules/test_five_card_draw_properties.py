"""Five Card Draw 7-A properties over random legal hands (Hypothesis).

Each example deals 2-5 players from a shuffled deck (36 cards with five) at random seats, with
a random button, structure, chip size, blinds, stacks (some short enough to go all-in on the
blinds), posts (sometimes with dead money and a live post) and rules (cap, heads-up option,
ranking option, rake). The hand is then driven to its end only from ``legal_actions()``: bets
and raises anywhere within the given bounds, draws of 0-5 cards received from the stub, or
from the reshuffled cards when the stub cannot serve the draw. The checks are worked out from
the actions, not from the engine's internals.
"""

from __future__ import annotations

from random import Random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.rules.cards import short_deck
from casino.rules.five_card_draw import (
    DrawHand,
    Drawing,
    DrawRules,
    Folding,
    evaluate,
    parse_config,
    standard_posts,
)
from tests.rules.typed import assert_typed

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def configurations(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    count = draw(st.integers(2, 5))
    deck = [str(card) for card in short_deck(count == 5)]
    cards = draw(st.permutations(deck))
    numbers = draw(st.lists(st.integers(1, 9), min_size=count, max_size=count, unique=True))
    chip = draw(st.sampled_from([1, 5, 25]))
    small = chip * draw(st.integers(1, 4))
    big = small + chip * draw(st.integers(0, 4))
    stacks = [chip * draw(st.integers(1, 400)) for _ in numbers]
    button = draw(st.integers(1, 9))
    record: dict[str, Any] = {
        "structure": draw(st.sampled_from(["limit", "pot_limit", "no_limit"])),
        "small_blind": small,
        "big_blind": big,
        "big_bet": big * draw(st.sampled_from([1, 2])),
        "button": button,
        "seats": [
            {"seat": number, "stack": stack, "cards": list(cards[5 * i : 5 * i + 5])}
            for i, (number, stack) in enumerate(zip(numbers, stacks, strict=True))
        ],
    }
    if draw(st.booleans()):
        posts = [post.to_dict() for post in standard_posts(button, numbers, small, big)]
        blinds = {post["seat"] for post in posts}
        others = [number for number in numbers if number not in blinds]
        add_live: bool = draw(st.booleans())
        if others and add_live:
            returning = draw(st.sampled_from(others))
            posts.append({"seat": returning, "type": "live", "amount": big})
        if draw(st.booleans()):
            posts.append({"seat": draw(st.sampled_from(numbers)), "type": "dead", "amount": small})
        record["posts"] = posts
    kind = draw(st.sampled_from(["none", "fixed", "percent"]))
    rake: dict[str, Any] = {"kind": kind, "no_draw_no_drop": draw(st.booleans())}
    if kind == "fixed":
        rake["amount"] = chip * draw(st.integers(1, 20))
    elif kind == "percent":
        rake["percent"] = draw(st.sampled_from([1, 2.5, 5, 10]))
        rake["cap"] = draw(st.none() | st.integers(1, 40).map(lambda n: n * chip))
    rules = {
        "max_raises": draw(st.integers(1, 4)),
        "heads_up_uncapped": draw(st.booleans()),
        "flush_beats_full_house": draw(st.booleans()),
        "smallest_chip": chip,
        "rake": rake,
    }
    return record, rules


def choose_draw(data: st.DataObject, rng: Random, hand: DrawHand, seat: int) -> dict[str, Any]:
    """A legal draw: up to 5 of the seat's cards, replaced from the stub, and from the
    reshuffled cards only for what the stub (less its last card) cannot serve."""
    count = data.draw(st.sampled_from([0, 1, 2, 3, 4, 5, 5, 5]))
    held = [str(card) for card in hand.cards(seat)]
    stub = [str(card) for card in hand.stub()]
    rng.shuffle(stub)
    if count <= len(stub) - 1:
        receive = stub[:count]
    else:
        pool = [str(card) for card in hand.reshuffle_pool()] + stub[-1:]
        receive = stub[:-1] + rng.sample(pool, count - (len(stub) - 1))
    return {"seat": seat, "type": "draw", "discard": rng.sample(held, count), "receive": receive}


def play(data: st.DataObject, record: dict[str, Any], rules: DrawRules) -> DrawHand:
    rng = data.draw(st.randoms(use_true_random=True))
    hand = DrawHand(parse_config(record, rules), rules)
    while not hand.complete:
        seat = hand.to_act
        assert seat is not None
        legal = {action["type"]: action for action in hand.legal_actions()}
        roll = data.draw(st.integers(0, 19))
        action: dict[str, Any]
        if roll == 0:
            action = {"seat": seat, "type": "fold"}
        elif "draw" in legal:
            action = choose_draw(data, rng, hand, seat)
        elif roll >= 13 and ("bet" in legal or "raise" in legal):
            kind = "bet" if "bet" in legal else "raise"
            low, high = legal[kind]["min"], legal[kind]["max"]
            assert not getattr(hand, "can_bet" if kind == "bet" else "can_raise_to")(
                seat, high + rules.smallest_chip
            )
            steps = (high - low) // rules.smallest_chip
            to = low + rules.smallest_chip * data.draw(st.integers(0, steps))
            action = {"seat": seat, "type": kind, "to": to}
        else:
            action = {"seat": seat, "type": "check" if "check" in legal else "call"}
        hand.apply(action)
        record["actions"].append(action)
    return hand


@SETTINGS
@given(configurations(), st.data())
def test_random_legal_hands_conserve_chips_deal_no_card_twice_and_replay_the_same(
    setup: tuple[dict[str, Any], dict[str, Any]], data: st.DataObject
) -> None:
    record, raw_rules = setup
    record["actions"] = []
    rules = DrawRules.from_dict(raw_rules)
    hand = play(data, record, rules)
    settlement = hand.settle()
    assert_typed(settlement)

    # Chips are conserved: the nets plus the rake are zero, and stacks end where they should.
    assert sum(seat.net for seat in settlement.seats) + settlement.rake == 0
    stacks = {entry["seat"]: entry["stack"] for entry in record["seats"]}
    for seat in settlement.seats:
        assert seat.extra["stack_after"] == stacks[seat.seat] + seat.net >= 0
        assert seat.lines[0].stake <= stacks[seat.seat]
    pots = settlement.extra["pots"]
    assert sum(pot["rake"] for pot in pots) == settlement.rake
    assert all(0 <= pot["rake"] <= pot["amount"] for pot in pots)
    if rules.rake.kind == "none":
        assert settlement.rake == 0

    # No card is dealt twice, except one shuffled back in by the reshuffle rule.
    holdings = {entry["seat"]: set(entry["cards"]) for entry in record["seats"]}
    seen = set().union(*holdings.values())
    shuffled_back: set[str] = set()  # seen cards a reshuffle returned to the stub
    folded: set[int] = set()
    for op in hand.log:
        if isinstance(op, Folding):
            folded.add(op.seat)
        if not isinstance(op, Drawing):
            continue
        reshuffled = {str(card) for card in op.reshuffled}
        discard = {str(card) for card in op.discard}
        receive = {str(card) for card in op.receive}
        assert discard <= holdings[op.seat] and len(receive) == len(discard) <= 5
        assert not reshuffled & discard  # never the drawer's own discards
        held = set().union(*(cards for s, cards in holdings.items() if s not in folded))
        assert not receive & (held - discard) and not reshuffled & held
        assert reshuffled <= seen
        shuffled_back |= reshuffled
        assert all(card not in seen or card in shuffled_back for card in receive)
        shuffled_back -= receive
        holdings[op.seat] = (holdings[op.seat] - discard) | receive
        seen |= receive
    live = [holdings[s] for s in holdings if s not in folded]
    assert sum(len(cards) for cards in live) == len(set().union(*live)) == 5 * len(live)
    assert {s.seat: set(s.cards) for s in settlement.seats} == holdings

    # The record rebuilds the same hand, and replaying it settles the same way.
    assert hand.to_record()["actions"] == record["actions"]
    assert evaluate(record, raw_rules).to_dict() == settlement.to_dict()
