"""The shared poker evaluator (casino/rules/poker.py): its deck options, one at a time, and
that the games' modules are views of it (Five Card Draw 7-A's short decks, Palace Poker's
standard deck)."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules import poker_hands
from casino.rules.cards import Card, parse_cards, short_deck, standard_deck
from casino.rules.palace_poker import values as palace_hands
from casino.rules.poker import (
    NO_CARDS,
    STANDARD,
    Category,
    HandRules,
    HandValue,
    PokerValue,
    Wording,
    best_hand,
    ranking,
    rate_ranks,
)

SHORT_32 = HandRules(lowest=7, best_five=False, short_hands=False)
SHORT_36 = HandRules(lowest=6, best_five=False, short_hands=False)


def value(text: str, rules: HandRules = STANDARD) -> HandValue:
    return best_hand(parse_cards(text.split(), path="cards"), rules)


# --------------------------------------------------------------------------- ranking option


@pytest.mark.parametrize("lowest", [2, 6, 7])
def test_the_same_five_cards_rank_differently_with_flush_beats_full_house(lowest: int) -> None:
    flush, boat = "Ks Qs 9s 8s 7s", "Ac Ad Ah Kc Kd"
    on = HandRules(lowest=lowest, flush_beats_full_house=True)
    off = HandRules(lowest=lowest, flush_beats_full_house=False)
    assert value(flush, on) > value(boat, on)
    assert value(flush, off) < value(boat, off)
    # Only the order moves: category, tiebreak ranks and words stay.
    for cards in (flush, boat):
        a, b = value(cards, on), value(cards, off)
        assert (a.category, a.ranks, a.description) == (b.category, b.ranks, b.description)
        assert a.strength != b.strength


def test_ranking_swaps_only_flush_and_full_house() -> None:
    on, off = ranking(flush_beats_full_house=True), ranking(flush_beats_full_house=False)
    assert on == tuple(Category)
    assert [c for c in on if c not in (Category.FLUSH, Category.FULL_HOUSE)] == [
        c for c in off if c not in (Category.FLUSH, Category.FULL_HOUSE)
    ]
    assert off.index(Category.FULL_HOUSE) > off.index(Category.FLUSH)
    assert STANDARD.ranking == off and HandRules(flush_beats_full_house=True).ranking == on


# --------------------------------------------------------------------------- deck option


@pytest.mark.parametrize(
    ("lowest", "cards", "words", "next_straight"),
    [
        (2, "Ah 2c 3d 4s 5c", "straight 5-high (A-2-3-4-5)", "2c 3d 4s 5c 6h"),
        (6, "Ah 6c 7d 8s 9c", "straight 9-high (A-6-7-8-9)", "6c 7d 8s 9c Th"),
        (7, "Ah 7c 8d 9s Tc", "straight T-high (A-7-8-9-T)", "7c 8d 9s Tc Jh"),
    ],
    ids=["52-card", "36-card", "32-card"],
)
def test_the_ace_plays_low_with_the_decks_four_lowest_ranks(
    lowest: int, cards: str, words: str, next_straight: str
) -> None:
    rules = HandRules(lowest=lowest)
    low = value(cards, rules)
    assert (low.category, str(low), low.ranks) == (Category.STRAIGHT, words, (lowest + 3,))
    assert low < value(next_straight, rules)  # the lowest straight of the deck
    assert low > value("Ac Ad Ah Kc Qd", rules)  # still above three of a kind
    assert [card.rank for card in low.cards][-1] == 14  # the ace shown last
    suited = value(cards.replace("c", "h").replace("d", "h").replace("s", "h"), rules)
    assert suited.category is Category.STRAIGHT_FLUSH
    assert str(suited) == "straight flush " + words.removeprefix("straight ")


def test_a_6_7_8_9_is_a_straight_only_with_sixes_in_the_deck() -> None:
    cards = "As 6d 7h 8c 9s"
    assert value(cards, SHORT_36).category is Category.STRAIGHT
    assert value(cards, STANDARD).category is Category.HIGH_CARD  # 2-A deck: A-2-3-4-5 wraps
    with pytest.raises(ValueError, match="rank 6 is not in the 7-A deck"):
        value(cards, SHORT_32)


def test_a_7_8_9_t_is_a_straight_only_in_the_32_card_deck() -> None:
    cards = "As 7d 8h 9c Ts"
    assert value(cards, SHORT_32).category is Category.STRAIGHT
    assert value(cards, SHORT_36).category is Category.HIGH_CARD
    assert value(cards, STANDARD).category is Category.HIGH_CARD


@pytest.mark.parametrize(
    ("lowest", "size", "name"), [(2, 52, "2-A"), (6, 36, "6-A"), (7, 32, "7-A")]
)
def test_the_deck_option_names_and_deals_its_cards(lowest: int, size: int, name: str) -> None:
    rules = HandRules(lowest=lowest)
    assert (len(rules.deck()), rules.deck_name) == (size, name)
    assert rules.deck() == (standard_deck() if lowest == 2 else short_deck(lowest == 6))


@pytest.mark.parametrize("lowest", [1, 11, True])
def test_a_deck_needs_five_ranks_up_to_the_ace(lowest: int) -> None:
    with pytest.raises(ValueError, match="lowest rank"):
        HandRules(lowest=lowest)


def test_every_straight_of_each_deck_in_order() -> None:
    for lowest in (2, 6, 7):
        rules = HandRules(lowest=lowest)
        tops = [lowest + 3, *range(lowest + 4, 15)]
        straights = [
            rate_ranks(
                (14, *range(lowest, lowest + 4)) if top == lowest + 3 else range(top - 4, top + 1),
                flush=False,
                rules=rules,
            )
            for top in tops
        ]
        assert [s.category for s in straights] == [Category.STRAIGHT] * len(tops)
        assert [s.ranks[0] for s in straights] == tops
        assert straights == sorted(straights)


# --------------------------------------------------------------------------- how many cards


def test_best_five_of_seven() -> None:
    seven = value("As Ad Kh Kc 7h 2d 3c")
    assert str(seven) == "two pair, aces and kings, 7 kicker"
    assert [str(card) for card in seven.cards] == ["As", "Ad", "Kh", "Kc", "7h"]
    straight = value("Ah 2d 3c 4s 5h 6d Kc")
    assert str(straight) == "straight 6-high"
    assert [str(card) for card in straight.cards] == ["6d", "5h", "4s", "3c", "2d"]
    flush = value("9h 9d 9c Ah Kh 7h 2h 3s")
    assert str(flush) == "flush A-K-9-7-2" and str(flush.cards[0]) == "Ah"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(standard_deck()), min_size=6, max_size=8, unique=True))
def test_best_of_n_is_the_best_of_every_five(pool: list[Card]) -> None:
    best = best_hand(pool)
    assert best == max(best_hand(five) for five in combinations(pool, 5))
    assert len(best.cards) == 5 and set(best.cards) <= set(pool)
    assert best_hand(best.cards) == best


def test_more_or_fewer_than_five_cards_only_when_the_rules_allow_it() -> None:
    six, four = "Ac Ad Kh Kc 9s 8s", "Ac Ad Kh Kc"
    with pytest.raises(ValueError, match="a poker hand is 5 cards, got 6"):
        value(six, HandRules(best_five=False, short_hands=False))
    with pytest.raises(ValueError, match="a poker hand is 5 cards, got 4"):
        value(four, HandRules(best_five=False, short_hands=False))
    with pytest.raises(ValueError, match="a poker hand is at most 5 cards, got 6"):
        value(six, HandRules(best_five=False))
    with pytest.raises(ValueError, match="a poker hand is at least 5 cards, got 4"):
        value(four, HandRules(short_hands=False))
    assert str(value(six, HandRules(short_hands=False))) == "two pair, aces and kings, 9 kicker"
    assert str(value(four, HandRules(best_five=False))) == "two pair, aces and kings"


def test_short_hands_count_sets_only_and_fewer_kickers_lose() -> None:
    assert value("5d 4d 3d 2d").category is Category.HIGH_CARD  # no four-card straight flush
    assert str(value("Kd Kh Kc")) == "three kings"
    assert value("Kd Kh Ac") < value("Ks Kc Ad 2h")
    assert value("2c") > NO_CARDS and best_hand([]) is NO_CARDS
    assert str(value("Kd Kh 9c 9s", HandRules(wording=Wording.CHARACTERS))) == "two pair K and 9"


def test_repeated_cards_are_refused_in_every_deck() -> None:
    for rules in (STANDARD, SHORT_32):
        with pytest.raises(ValueError, match="a card is repeated"):
            value("Ah Ah Kd Qc Js", rules)


# --------------------------------------------------------------------------- wording


@pytest.mark.parametrize(
    ("cards", "characters", "names"),
    [
        ("9c 9d 9h 9s As", "four of a kind 9, A kicker", "four nines, A kicker"),
        ("Ac Ad Ah Kc Kd", "full house A over K", "full house, aces over kings"),
        ("Kc Kd 9h 9c 7s", "two pair K and 9, 7 kicker", "two pair, kings and nines, 7 kicker"),
        ("6c 6d 6h As Ks", "three of a kind 6, A-K kickers", "three sixes, A-K kickers"),
        ("Jc Jd 9h 8c 7s", "pair J, 9-8-7 kickers", "pair of jacks, 9-8-7 kickers"),
        ("Ks Qs 9s 8s 7s", "flush K-Q-9-8-7", "flush K-Q-9-8-7"),
        ("Ac 7d 8s 9h Jc", "high card A-J-9-8-7", "high card A-J-9-8-7"),
        ("Ah Kh Qh Jh Th", "royal flush", "royal flush"),
    ],
)
def test_the_two_wordings_differ_only_for_sets(cards: str, characters: str, names: str) -> None:
    assert str(value(cards, HandRules(wording=Wording.CHARACTERS))) == characters
    assert str(value(cards, HandRules(wording=Wording.NAMES))) == names


# --------------------------------------------------------------------------- the games' views


def test_the_games_modules_are_views_of_the_one_evaluator() -> None:
    assert poker_hands.HandValue is HandValue is PokerValue is palace_hands.PokerValue
    assert poker_hands.Category is Category is palace_hands.Category
    assert palace_hands.best_hand is best_hand and palace_hands.NO_CARDS is NO_CARDS
    for with_sixes, lowest in ((False, 7), (True, 6)):
        for option in (True, False):
            rules = poker_hands.hand_rules(with_sixes=with_sixes, flush_beats_full_house=option)
            assert (rules.lowest, rules.flush_beats_full_house) == (lowest, option)
            assert (rules.best_five, rules.short_hands, rules.wording) == (
                False,
                False,
                Wording.CHARACTERS,
            )
    cards = parse_cards(["As", "6d", "7h", "8c", "9s"], path="cards")
    rules = HandRules(6, True, False, False, Wording.CHARACTERS)
    assert poker_hands.hand_value(cards, with_sixes=True) == best_hand(cards, rules)
    assert str(poker_hands.hand_value(cards, with_sixes=True)) == str(best_hand(cards, rules))
