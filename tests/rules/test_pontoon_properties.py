"""Pontoon properties over random legal hands (Hypothesis).

Each example seats a banker and 1-6 players (up to 9 with two packs) at random seats, with
random rules (stick minimums, split options, card limit, packs, chip, stake limits) and, half
the time, a Shoot Pontoon kitty. The hand is then driven to its end only from
``legal_actions()``: stakes, buys and shoot bets anywhere within the bounds given, splits,
twists, sticks and the banker's draws at random, cards from a shuffled pack (a pair is
favoured for second cards so that splits happen). The checks are worked out from the actions
and the settlement, not from the engine's internals.
"""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.rules.cards import standard_deck
from casino.rules.pontoon import (
    PontoonConfig,
    PontoonHand,
    PontoonRules,
    evaluate,
)
from tests.rules.typed import assert_typed

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def setups(draw: st.DrawFn) -> tuple[PontoonConfig, dict[str, Any]]:
    decks = draw(st.sampled_from([1, 1, 2]))
    count = draw(st.integers(1, 6 if decks == 1 else 9))
    seats = draw(st.lists(st.integers(1, 12), min_size=count + 1, max_size=count + 1, unique=True))
    chip = draw(st.sampled_from([1, 5]))
    stake_min = chip * draw(st.integers(1, 4))
    stake_max = draw(st.none() | st.integers(1, 10).map(lambda n: n * stake_min))
    banker_min = draw(st.none() | st.sampled_from([16, 17]))
    rules = {
        "stick_minimum": draw(st.sampled_from([15, 16])),
        "banker_stick_minimum": banker_min,
        "split_pontoon_pays_double": draw(st.booleans()),
        "split_pontoon_takes_bank": draw(st.booleans()),
        "max_split_hands": draw(st.integers(1, 4)),
        "split_aces_only": draw(st.booleans()),
        "five_card_limit": draw(st.sampled_from([5, 5, 6])),
        "decks": decks,
        "stake_min": stake_min,
        "stake_max": stake_max,
        "smallest_chip": chip,
    }
    kitty = None
    carried = draw(st.booleans())
    if draw(st.booleans()):
        if carried:  # left from the last hand: any positive amount
            kitty = chip * draw(st.integers(1, 400))
        else:  # put up now: within the table limits (the stake limits here)
            kitty = stake_min * draw(
                st.integers(1, 10 if stake_max is None else stake_max // stake_min)
            )
    config = PontoonConfig(seats[0], tuple(seats[1:]), kitty, kitty_carried=carried)
    return config, rules


def pick_card(
    rng: Random, pack: list[str], hand: PontoonHand, pair_with: str | None, low: bool = False
) -> str:
    """The next card: from the shuffled pack (a pair for ``pair_with``, or a low card for the
    banker, now and then), or once the pack is used up, one of the busted cards the engine
    says come round again."""
    if not pack:
        return str(rng.choice(hand.cards_available()))
    wanted = pair_with[0] if pair_with is not None else "A234" if low else ""
    if wanted and rng.random() < 0.5:
        for index, text in enumerate(pack):
            if text[0] in wanted:
                return pack.pop(index)
    return pack.pop()


def amount_within(rng: Random, low: int, high: int | None, chip: int) -> int:
    top = high if high is not None else low * 5
    return low + chip * rng.randint(0, (top - low) // chip)


def play(rng: Random, config: PontoonConfig, rules: PontoonRules) -> tuple[PontoonHand, bool]:
    """Drive a hand to its end from ``legal_actions()``; True if the pack ran out."""
    hand = PontoonHand(config, rules)
    pack = [str(card) for card in standard_deck()] * rules.decks
    rng.shuffle(pack)
    ran_out = False
    chip = rules.smallest_chip
    while not hand.complete:
        seat = hand.to_act
        assert seat is not None
        legal = {action["type"]: action for action in hand.legal_actions()}
        assert legal, hand.view()
        ran_out = ran_out or not pack
        action: dict[str, Any]
        if "deal" in legal:
            index = legal["deal"].get("hand", 0)
            pair_with = None
            if seat != hand.banker:
                cards = hand.player(seat).hands[index].cards
                pair_with = str(cards[0]) if len(cards) == 1 else None
            action = {"type": "deal", "seat": seat, "card": pick_card(rng, pack, hand, pair_with)}
            if "hand" in legal["deal"]:
                action["hand"] = index
        elif "stake" in legal:
            bounds = legal["stake"]
            amount = amount_within(rng, bounds["min"], bounds["max"], chip)
            action = {"type": "stake", "seat": seat, "amount": amount}
        elif "no_shoot" in legal:
            if "shoot" in legal and rng.random() < 0.5:
                bounds = legal["shoot"]
                amount = amount_within(rng, bounds["min"], bounds["max"], chip)
                action = {"type": "shoot", "seat": seat, "amount": amount}
            else:
                action = {"type": "no_shoot", "seat": seat}
        elif "draw" in legal:
            stop = "stand" in legal and (hand.banker_value.total >= 17 or rng.random() < 0.3)
            if stop:
                action = {"type": "stand", "seat": seat}
            else:
                card = pick_card(rng, pack, hand, None, low=True)
                action = {"type": "draw", "seat": seat, "card": card}
        else:
            index = hand.current_hand
            roll = rng.random()
            if "split" in legal and roll < 0.7:
                action = {"type": "split", "seat": seat, "hand": index}
            elif "shoot" in legal and roll < 0.4:
                bounds = legal["shoot"]
                amount = amount_within(rng, bounds["min"], bounds["max"], chip)
                action = {"type": "shoot", "seat": seat, "hand": index, "amount": amount}
            elif "stick" in legal and roll < 0.6:
                action = {"type": "stick", "seat": seat, "hand": index}
            elif "buy" in legal and roll < 0.8:
                bounds = legal["buy"]
                amount = amount_within(rng, bounds["min"], bounds["max"], chip)
                card = pick_card(rng, pack, hand, None)
                action = {
                    "type": "buy",
                    "seat": seat,
                    "hand": index,
                    "amount": amount,
                    "card": card,
                }
            else:
                card = pick_card(rng, pack, hand, None)
                action = {"type": "twist", "seat": seat, "hand": index, "card": card}
        hand.apply(action)
    if hand.can_sell_bank_now() and rng.random() < 0.2:
        hand.apply(
            {
                "type": "sell_bank",
                "seat": hand.banker,
                "buyer": hand.order[-1],
                "price": chip * rng.randint(1, 50),
            }
        )
    return hand, ran_out


@SETTINGS
@given(setups(), st.randoms(use_true_random=False))
def test_random_legal_hands_conserve_chips_deal_no_card_twice_and_replay_the_same(
    setup: tuple[PontoonConfig, dict[str, Any]], rng: Random
) -> None:
    config, raw_rules = setup
    rules = PontoonRules.from_dict(raw_rules)
    hand, ran_out = play(rng, config, rules)
    settlement = hand.settle()
    assert_typed(settlement)

    # Chips are conserved, the kitty included: the nets sum to zero and the banker's net is
    # the players' losses, of which the shoot part is the kitty's change.
    assert sum(seat.net for seat in settlement.seats) == 0 == settlement.rake
    players = [seat for seat in settlement.seats if seat.seat != config.banker]
    assert settlement.seat(config.banker).net == -sum(seat.net for seat in players)
    shoot = sum(line.amount for seat in players for line in seat.lines if line.wager == "shoot")
    if config.kitty is None:
        assert shoot == 0 and settlement.extra["kitty_after"] is None
    else:
        assert settlement.extra["kitty_after"] == config.kitty - shoot >= 0
    # Every stake line pays or loses single or double what was staked on the hand, and the
    # stake is the first stake plus the buys.
    for seat in players:
        stakes = [line for line in seat.lines if line.wager == "stake"]
        assert len(stakes) == len(seat.extra["hands"])
        for line, entry in zip(stakes, seat.extra["hands"], strict=True):
            assert line.stake == seat.extra["stake"] + sum(entry["buys"])
            assert abs(line.amount) in (line.stake, 2 * line.stake)
            assert len(entry["cards"]) <= rules.five_card_limit

    # No card is dealt twice (once per pack), unless the pack ran out and busted cards came
    # round again.
    dealt = Counter(card for seat in settlement.seats for card in seat.cards)
    if not ran_out:
        assert max(dealt.values()) <= rules.decks

    # The live actions rebuild the same hand; the record replays to the same settlement.
    rebuilt = PontoonHand.from_actions(config, rules, hand.actions())
    assert rebuilt.settle().to_dict() == settlement.to_dict()
    if not ran_out:
        assert evaluate(hand.to_record(), rules).to_dict() == settlement.to_dict()
