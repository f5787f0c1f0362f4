"""High Card Flush properties over random legal hands (Hypothesis).

Each example deals 7 cards to the DP and to 1-6 players from one shuffled deck, with random
seats, antes, legal raises or folds, bonus bets, banks and rules (coverage, rake scheme,
fixed or banded rake, payout cap, chip size). Expectations are worked out from the input,
not from the engine's helpers.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.rules.cards import standard_deck
from casino.rules.errors import RuleError
from casino.rules.high_card_flush import Rules, evaluate
from casino.rules.settlement import Settlement
from tests.rules.typed import assert_typed

DECK = tuple(str(card) for card in standard_deck())
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def most_raise(cards: list[str], ante: int) -> int:
    """Clause 6 from the suit counts: 1x up to 4 suited cards, 2x for 5, 3x for 6-7."""
    longest = max(Counter(card[-1].lower() for card in cards).values())
    return ante * (3 if longest >= 6 else 2 if longest == 5 else 1)


def _variant(card: str, style: int) -> str:
    """The same card as a dealer might type it: lower or upper case, 10 for T."""
    if style == 1:
        card = card.upper()
    elif style == 2:
        card = card.lower()
    return "10" + card[1] if style == 3 and card[0] == "T" else card


@st.composite
def hands(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    chip = draw(st.sampled_from([1, 5, 25]))
    deck = draw(st.permutations(DECK))
    count = draw(st.integers(1, 6))
    seats = draw(st.lists(st.integers(1, 9), min_size=count + 1, max_size=count + 1, unique=True))
    scheme = draw(st.sampled_from(["per_player", "per_player_except_dp", "dp_only"]))
    if draw(st.booleans()):
        rake: dict[str, Any] = {"scheme": scheme, "amount": chip * draw(st.integers(0, 4))}
    else:
        rake = {
            "scheme": scheme,
            "bands": [
                {"up_to": chip * 10, "amount": chip},
                {"up_to": chip * 30, "amount": 2 * chip},
                {"up_to": None, "amount": 4 * chip},
            ],
        }
    rules = {
        "coverage": draw(st.sampled_from(["running", "original_bank"])),
        "rake": rake,
        "smallest_chip": chip,
        "max_payout_per_hand": draw(st.none() | st.integers(1, 2000).map(lambda n: n * chip)),
    }
    style = draw(st.integers(0, 3))
    players = []
    for index, seat in enumerate(seats[1:], start=1):
        cards = list(deck[7 * index : 7 * index + 7])
        ante = chip * draw(st.integers(1, 40))
        if draw(st.integers(0, 4)) == 0:
            raised = 0
        else:
            raised = ante + chip * draw(st.integers(0, (most_raise(cards, ante) - ante) // chip))
        players.append(
            {
                "seat": seat,
                "cards": [_variant(card, style) for card in cards],
                "ante": ante,
                "raise": raised,
                "flush_bonus": chip * draw(st.integers(0, 5)),
                "straight_flush_bonus": chip * draw(st.integers(0, 5)),
            }
        )
    record = {
        "designated_player": {
            "seat": seats[0],
            "bank": chip * draw(st.integers(0, 400)),
            "cards": list(deck[:7]),
        },
        "players": players,
    }
    return record, rules


def _player_totals(settlement: Settlement) -> dict[int, int]:
    return {seat.seat: sum(line.amount for line in seat.lines) for seat in settlement.seats}


@SETTINGS
@given(hands())
def test_property_chips_are_conserved(hand: tuple[dict[str, Any], dict[str, Any]]) -> None:
    data = evaluate(*hand).to_dict()
    assert sum(seat["net"] for seat in data["seats"]) + data["rake"] == 0
    for seat in data["seats"]:
        assert seat["net"] == sum(line["amount"] for line in seat["lines"]) - seat["rake"]


@SETTINGS
@given(hands())
def test_property_no_card_twice_and_every_card_echoed(
    hand: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    record, rules = hand
    settlement = evaluate(record, rules)
    dealt = [card for seat in settlement.seats for card in seat.cards]
    assert len(dealt) == len(set(dealt)) == 7 * (len(record["players"]) + 1)
    entries = [record["designated_player"], *record["players"]]
    for entry in entries:
        echoed = settlement.seat(entry["seat"]).cards
        assert [card.replace("10", "T").upper() for card in entry["cards"]] == [
            card.upper() for card in echoed
        ]


@SETTINGS
@given(hands())
def test_property_raises_within_bounds_and_folds_have_no_raise(
    hand: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    record, rules = hand
    settlement = evaluate(record, rules)
    for entry in record["players"]:
        seat = settlement.seat(entry["seat"])
        raises = [line for line in seat.lines if line.wager == "raise"]
        if entry["raise"] == 0:
            assert raises == [] and str(seat.status) in ("folded", "dead")
        else:
            (line,) = raises
            assert entry["ante"] <= line.stake <= most_raise(entry["cards"], entry["ante"])
        stakes = {line.wager: line.stake for line in seat.lines}
        for wager in ("flush_bonus", "straight_flush_bonus"):
            assert stakes.get(wager, 0) == entry[wager]


@SETTINGS
@given(hands())
def test_property_dead_hands_are_void_and_pay_no_rake(
    hand: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    settlement = evaluate(*hand)
    assert_typed(settlement)
    dealer = next(seat for seat in settlement.seats if str(seat.role) == "designated_player")
    against = {line.extra["against"] for line in dealer.lines}
    players = [seat for seat in settlement.seats if seat is not dealer]
    for seat in players:
        if str(seat.status) == "dead":
            assert all((str(line.outcome), line.amount) == ("dead", 0) for line in seat.lines)
            assert seat.rake == 0 and seat.net == 0
            assert seat.seat not in against
        else:
            assert all(str(line.outcome) != "dead" for line in seat.lines)
            assert seat.seat in against
    if all(str(seat.status) == "dead" for seat in players):
        assert settlement.rake == 0


@SETTINGS
@given(hands())
def test_property_rake_follows_the_scheme(hand: tuple[dict[str, Any], dict[str, Any]]) -> None:
    record, rules = hand
    settlement = evaluate(record, rules)
    schedule = Rules.from_dict(rules).rake
    live = [
        entry for entry in record["players"] if str(settlement.seat(entry["seat"]).status) != "dead"
    ]
    for entry in live:
        expected = schedule.fee_for(entry["ante"]) if rules["rake"]["scheme"] != "dp_only" else 0
        assert settlement.seat(entry["seat"]).rake == expected
    dp_fee = settlement.seat(record["designated_player"]["seat"]).rake
    if rules["rake"]["scheme"] == "per_player_except_dp" or not live:
        assert dp_fee == 0
    else:
        assert dp_fee == schedule.fee_for(max(entry["ante"] for entry in live))


@SETTINGS
@given(hands())
def test_property_dp_pays_no_more_than_coverage_allows(
    hand: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    record, rules = hand
    settlement = evaluate(record, rules)
    bank = record["designated_player"]["bank"]
    totals = _player_totals(settlement)
    collected = paid = 0
    for seat in settlement.extra["order"]:
        result = totals[seat]
        paid += max(result, 0)
        collected += max(-result, 0)
        if rules["coverage"] == "running":
            assert paid <= bank + collected
        else:
            assert paid <= bank
            assert collected - paid <= bank
    dealer = settlement.seat(record["designated_player"]["seat"])
    assert dealer.extra["bank_after"] == bank + collected - paid >= 0


@SETTINGS
@given(hands())
def test_property_payout_cap_holds(hand: tuple[dict[str, Any], dict[str, Any]]) -> None:
    record, rules = hand
    settlement = evaluate(record, rules)
    cap = rules["max_payout_per_hand"]
    for entry in record["players"]:
        winnings = sum(
            line.amount for line in settlement.seat(entry["seat"]).lines if line.amount > 0
        )
        assert cap is None or winnings <= cap


@SETTINGS
@given(hands())
def test_property_a_bank_that_covers_everything_leaves_no_dead_hand(
    hand: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    record, rules = hand
    record["designated_player"]["bank"] = sum(
        4 * entry["ante"] + 200 * entry["flush_bonus"] + 1000 * entry["straight_flush_bonus"]
        for entry in record["players"]
    )
    settlement = evaluate(record, rules)
    assert all(str(seat.status) != "dead" for seat in settlement.seats)


@SETTINGS
@given(hands(), st.randoms(use_true_random=False))
def test_property_deterministic_whatever_the_listing_order(
    hand: tuple[dict[str, Any], dict[str, Any]], rng: random.Random
) -> None:
    record, rules = hand
    first = evaluate(record, rules).to_dict()
    assert evaluate(copy.deepcopy(record), dict(rules)).to_dict() == first
    shuffled = copy.deepcopy(record)
    rng.shuffle(shuffled["players"])
    assert evaluate(shuffled, rules).to_dict() == first
    assert Rules.from_dict(first["rules"]).to_dict() == first["rules"]


# --------------------------------------------------------------------------- bad input

RECORD_KEYS = ["designated_player", "players", "seat", "bank", "cards", "ante", "raise"]
RULES_KEYS = list(Rules().to_dict()) + ["scheme", "amount", "bands", "up_to", "7", "3"]
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats()
    | st.text(max_size=4)
    | st.sampled_from(["As", "10h", "Xx", "running", "dp_only", "7"]),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(RECORD_KEYS + RULES_KEYS) | st.text(max_size=4), children, max_size=4
        )
    ),
    max_leaves=12,
)


@st.composite
def damaged(draw: st.DrawFn) -> dict[str, Any]:
    """A legal record with one to three random fields replaced or deleted."""
    record, _ = draw(hands())
    for _ in range(draw(st.integers(1, 3))):
        places: list[tuple[Any, Any]] = [(record, key) for key in RECORD_KEYS[:2]]
        if isinstance(record.get("designated_player"), dict):
            dealer = record["designated_player"]
            places += [(dealer, key) for key in ("seat", "bank", "cards")]
            if isinstance(dealer.get("cards"), list) and dealer["cards"]:
                places.append((dealer["cards"], draw(st.integers(0, len(dealer["cards"]) - 1))))
        if isinstance(record.get("players"), list):
            for entry in record["players"]:
                if isinstance(entry, dict):
                    places += [(entry, key) for key in entry]
        target, key = draw(st.sampled_from(places))
        if isinstance(target, dict) and draw(st.booleans()):
            target.pop(key, None)
        else:
            target[key] = draw(json_values)
    return record


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged())
def test_property_bad_records_only_ever_raise_rule_error(record: dict[str, Any]) -> None:
    try:
        settlement = evaluate(record)
    except RuleError as error:
        assert error.problems and all(problem.message for problem in error.problems)
    else:
        settlement.check_conserved()


@settings(max_examples=300, deadline=None)
@given(json_values, st.one_of(st.none(), json_values))
def test_property_bad_rules_only_ever_raise_rule_error(data: Any, base: Any) -> None:
    try:
        rules = Rules.from_dict(data, base)
    except RuleError as error:
        assert error.problems
    else:
        assert Rules.from_dict(rules.to_dict()) == rules


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(RULES_KEYS[:13]), json_values, max_size=6))
def test_property_bad_rule_values_only_ever_raise_rule_error(data: dict[str, Any]) -> None:
    try:
        Rules.from_dict(data)
    except RuleError as error:
        assert all(problem.path.startswith("rules") for problem in error.problems)


@SETTINGS
@given(hands())
def test_property_a_record_and_its_imported_actions_settle_alike(
    hand: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    """The paper record imported as a history (bets, deals, decisions) and replayed action by
    action settles exactly as the record does: one hand, two ways in, one answer."""
    from casino.rules.contract import registry
    from casino.rules.high_card_flush.hand import import_record

    record, rules = hand
    effective = Rules.from_dict(rules)
    history = import_record(record, effective)
    kinds = [action["type"] for action in history.actions]
    players = len(record["players"])
    assert kinds[:players] == ["wager"] * players
    assert kinds[players : 2 * players + 1] == ["deal"] * (players + 1)
    assert set(kinds[2 * players + 1 :]) <= {"raise", "fold"}
    replayed = registry()["high-card-flush"].replay(history)
    assert replayed.complete
    assert replayed.settle().to_dict() == evaluate(record, effective).to_dict()
