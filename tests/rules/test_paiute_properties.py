"""Paiute properties over random legal hands (Hypothesis).

Each example seats 2-5 players at random seats with a random dealer, ante, smallest chip and
clause 3 option, deals from a shuffled pack and drives the hand only from ``legal_actions()``:
the source of each draw, the card the stock gives (any the engine allows, often one that
helps the player, so that combinations are made and called), discards and calls. The checks
are worked out from the actions, not from the engine's internals:

* chips are conserved and the pot goes to the winners, less the table's rake (a schedule
  drawn too), which is charged to the winners only;
* no card is dealt twice: until the first reshuffle every stock card is new (the upcard
  last), afterwards every stock card is one discarded before and not held; the hands, the
  discard pile and the stock always account for the 52 cards;
* the replay is deterministic and ``evaluate(to_record())`` settles exactly as the live hand.
"""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.rules.cards import Card, parse_card, standard_deck
from casino.rules.paiute import (
    PaiuteConfig,
    PaiuteHand,
    PaiuteRules,
    best_combination,
    evaluate,
    replay_actions,
)
from tests.rules.rake_helpers import expected_rake, rake_schedules
from tests.rules.typed import assert_typed

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LIMIT = 400


@st.composite
def setups(draw: st.DrawFn) -> tuple[PaiuteConfig, PaiuteRules, int]:
    count = draw(st.integers(2, 5))
    seats = draw(st.lists(st.integers(1, 9), min_size=count, max_size=count, unique=True))
    dealer = draw(st.sampled_from(seats))
    chip = draw(st.sampled_from([1, 5]))
    option = draw(st.booleans())
    seed = draw(st.integers(0, 2**32 - 1))
    ante = chip * draw(st.integers(1, 7))
    pack = list(standard_deck())
    Random(seed).shuffle(pack)
    hands = {seat: tuple(pack[5 * index : 5 * index + 5]) for index, seat in enumerate(seats)}
    upcard = pack[5 * count]
    first = pack[5 * count + 1] if option else None
    rules = PaiuteRules.from_dict(
        {
            "discard_pile_starts_with_upturned_card": option,
            "smallest_chip": chip,
            "rake": draw(rake_schedules(chip)),
        }
    )
    return PaiuteConfig(dealer, tuple(seats), ante, hands, upcard, first), rules, seed


def helpful(hand: PaiuteHand, seat: int, cards: list[Card], rng: Random, bias: float) -> Card:
    """A stock card that is wild or matches a rank or suit held, with probability ``bias``."""
    held = hand.holding(seat)
    ranks = {card.rank for card in held}
    suits = Counter(card.suit for card in held).most_common(1)[0][0]
    good = [
        card
        for card in cards
        if card.rank == hand.wild_rank
        or card.rank in ranks
        or (card.suit == suits and any(abs(card.rank - c.rank) <= 2 for c in held))
    ]
    return rng.choice(good if good and rng.random() < bias else cards)


def throwaway(hand: PaiuteHand, seat: int, options: list[Card], rng: Random) -> Card:
    """A card to discard: usually one whose rank is held once and is not wild."""
    counts = Counter(card.rank for card in hand.holding(seat))
    lonely = [c for c in options if counts[c.rank] == 1 and c.rank != hand.wild_rank]
    return rng.choice(lonely if lonely and rng.random() < 0.8 else options)


def drive(hand: PaiuteHand, rng: Random, eager: bool = True) -> list[dict[str, Any]]:
    """Play the hand from its legal actions (at most ``LIMIT``), checking the cards as it goes.

    An ``eager`` table is dealt helpful cards and calls when it can; otherwise the players
    seldom call and the cards seldom help, so the stock runs out and is reshuffled."""
    bias, keen = (0.7, 0.85) if eager else (0.15, 0.03)
    config = hand.config
    appeared = {card for cards in config.hands.values() for card in cards}
    if config.first_discard is not None:
        appeared.add(config.first_discard)
    discarded = {config.first_discard} if config.first_discard is not None else set()
    actions: list[dict[str, Any]] = []
    reshuffled = False
    while not hand.complete and len(actions) < LIMIT:
        legal = {action["type"]: action for action in hand.legal_actions()}
        seat = hand.to_act
        assert seat is not None
        if "draw" in legal:
            option = legal["draw"]
            if "discard" in option["sources"] and rng.random() < 0.3:
                action: dict[str, Any] = {"seat": seat, "type": "draw", "source": "discard"}
            else:
                stock = hand.stock_cards()
                # Before the first reshuffle the upcard waits at the bottom of the stock.
                hidden = 1 if not reshuffled and hand.stock_count > 1 else 0
                assert len(stock) == hand.stock_count - hidden > 0
                card = helpful(hand, seat, stock, rng, bias)
                if not reshuffled:
                    assert card not in appeared or card == config.upcard
                    if card == config.upcard:
                        assert hand.stock_count == 1
                else:
                    assert card in discarded
                    assert all(card not in hand.holding(s) for s in config.players)
                appeared.add(card)
                action = {"seat": seat, "type": "draw", "source": "stock", "card": str(card)}
        elif "call" in legal and rng.random() < keen:
            choice = rng.choice(legal["call"]["discards"])
            action = {"seat": seat, "type": "call", "discard": choice}
            if choice is not None:
                discarded.add(parse_card(choice))
        else:
            options = [parse_card(text) for text in legal["discard"]["cards"]]
            card = throwaway(hand, seat, options, rng)
            discarded.add(card)
            action = {"seat": seat, "type": "discard", "card": str(card)}
        hand.apply(action, len(actions))
        actions.append(action)
        reshuffled = reshuffled or any(op.to_dict()["op"] == "reshuffle" for op in hand.log)
        held = [card for s in config.players for card in hand.holding(s)]
        seen = held + list(hand.discard_pile)
        assert len(seen) == len(set(seen))
        assert len(seen) + hand.stock_count == 52
    return actions


@SETTINGS
@given(setup=setups(), driver=st.randoms(use_true_random=False), eager=st.booleans())
def test_random_legal_hands_conserve_chips_and_replay_exactly(
    setup: tuple[PaiuteConfig, PaiuteRules, int], driver: Random, eager: bool
) -> None:
    config, rules, _ = setup
    hand = PaiuteHand(config, rules)
    actions = drive(hand, driver, eager)
    again = replay_actions(config.to_dict(), rules.to_dict(), actions)
    assert again.log == hand.log and again.view() == hand.view()
    if not hand.complete:
        return
    settlement = hand.settle()
    assert_typed(settlement)
    settlement.check_conserved()
    data = settlement.to_dict()
    pot = config.ante * len(config.players)
    rake = expected_rake(rules.to_dict()["rake"], pot, rules.smallest_chip)
    assert data["rake"] == rake
    assert sum(seat["net"] for seat in data["seats"]) + rake == 0
    shares = {seat["seat"]: seat["lines"][0]["share"] for seat in data["seats"]}
    raked = {seat["seat"]: seat["rake"] for seat in data["seats"]}
    assert sum(shares.values()) == pot
    assert {seat for seat, share in shares.items() if share} <= set(data["winners"])
    assert {seat for seat, part in raked.items() if part} <= set(data["winners"])
    taken = {seat: shares[seat] - raked[seat] for seat in data["winners"]}
    assert max(taken.values()) - min(taken.values()) <= rules.smallest_chip
    assert data["caller"] in {seat["seat"] for seat in data["seats"] if seat["hand"]}
    record = hand.to_record()
    assert evaluate(record, rules).to_dict() == data
    assert evaluate(record, rules.to_dict()).to_dict() == data
    assert again.settle().to_dict() == data


def test_the_driver_finishes_most_hands_and_reshuffles_in_slow_ones() -> None:
    """The properties above are about finished hands and the reshuffle: the driver must
    finish most hands, and slow tables must run through the stock."""
    finished = reshuffled = 0
    for seed in range(40):
        rng = Random(seed)
        count = 2 + seed % 4
        pack = list(standard_deck())
        rng.shuffle(pack)
        seats = tuple(range(1, count + 1))
        hands = {seat: tuple(pack[5 * (seat - 1) : 5 * seat]) for seat in seats}
        hand = PaiuteHand(PaiuteConfig(seats[-1], seats, 10, hands, pack[5 * count]))
        drive(hand, rng, eager=seed % 2 == 0)
        finished += hand.complete
        reshuffled += any(op.to_dict()["op"] == "reshuffle" for op in hand.log)
    assert finished >= 30 and reshuffled >= 10


@settings(max_examples=150, deadline=None)
@given(
    count=st.integers(2, 5),
    tied=st.integers(2, 4),
    top=st.integers(7, 13),
    dealer_index=st.integers(0, 4),
    chip=st.sampled_from([1, 5, 25]),
    antes=st.integers(1, 9),
    seed=st.integers(0, 2**32 - 1),
    data=st.data(),
)
def test_ties_split_the_pot_with_odd_chips_to_the_first_winner_left_of_the_dealer(
    count: int,
    tied: int,
    top: int,
    dealer_index: int,
    chip: int,
    antes: int,
    seed: int,
    data: st.DataObject,
) -> None:
    """Clause 8: equal straight flushes in different suits split the pot exactly, and the
    rake taken from it first (clause 8d) the same way."""
    rng = Random(seed)
    tied = min(tied, count)
    seats = sorted(rng.sample(range(1, 10), count))
    dealer = seats[dealer_index % count]
    winners = rng.sample(seats, tied)
    suits = rng.sample("cdhs", tied)
    holdings = {
        seat: [Card(rank, suit) for rank in range(top - 4, top + 1)]
        for seat, suit in zip(winners, suits, strict=False)
    }
    rest = [card for card in standard_deck() if all(card not in h for h in holdings.values())]
    rest = [card for card in rest if card.rank != 2]  # twos are wild here: keep them out
    for seat in seats:
        if seat in holdings:
            continue
        while True:
            hand = rng.sample(rest, 5)
            if best_combination(hand, 2) is None:
                break
        holdings[seat] = hand
        rest = [card for card in rest if card not in hand]
    ante = chip * antes
    record = {
        "dealer": dealer,
        "ante": ante,
        "wild_card": "2c",
        "caller": winners[0],
        "players": [{"seat": seat, "cards": [str(c) for c in holdings[seat]]} for seat in seats],
    }
    rake = data.draw(rake_schedules(chip))
    settled = evaluate(record, {"smallest_chip": chip, "rake": rake}).to_dict()
    clockwise = sorted(winners, key=lambda seat: (seat <= dealer, seat))
    pot = ante * count
    take = expected_rake(rake, pot, chip)

    def split(amount: int) -> dict[int, int]:
        each = amount // chip // tied * chip
        parts = {seat: each for seat in clockwise}
        parts[clockwise[0]] += amount - each * tied  # every odd chip to the first winner
        return parts

    paid, raked = split(pot - take), split(take)
    expected = {seat: paid[seat] + raked[seat] for seat in clockwise}
    shares = {seat["seat"]: seat["lines"][0]["share"] for seat in settled["seats"]}
    assert settled["winners"] == clockwise
    assert {seat: share for seat, share in shares.items() if share} == {
        seat: share for seat, share in expected.items() if share
    }
    assert {seat["seat"]: seat["rake"] for seat in settled["seats"] if seat["rake"]} == {
        seat: part for seat, part in raked.items() if part
    }
    assert settled["rake"] == take
    assert sum(seat["net"] for seat in settled["seats"]) + take == 0
