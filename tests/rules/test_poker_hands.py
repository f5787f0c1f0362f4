"""Five Card Draw 7-A hand values: one test per clause of the rules brief (2-4), the brief's
worked examples 1-3, descriptions, and the exhaustive category counts of clause 4 over every
5-card hand of the 32-card and 36-card decks."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from operator import attrgetter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino.rules.cards import Card, parse_cards, short_deck
from casino.rules.poker_hands import Category, HandValue, hand_value, ranking


def value(text: str, *, with_sixes: bool = False, flush_beats_full_house: bool = True) -> HandValue:
    """The value of five space-separated cards."""
    cards = parse_cards(text.split(), path="cards", count=5)
    return hand_value(cards, with_sixes=with_sixes, flush_beats_full_house=flush_beats_full_house)


# The brief's ranking (clause 2), high to low, written out here rather than taken from the code.
RANKING_DEFAULT = [
    Category.ROYAL_FLUSH,
    Category.STRAIGHT_FLUSH,
    Category.FOUR_OF_A_KIND,
    Category.FLUSH,
    Category.FULL_HOUSE,
    Category.STRAIGHT,
    Category.THREE_OF_A_KIND,
    Category.TWO_PAIR,
    Category.PAIR,
    Category.HIGH_CARD,
]
RANKING_STANDARD = [
    Category.ROYAL_FLUSH,
    Category.STRAIGHT_FLUSH,
    Category.FOUR_OF_A_KIND,
    Category.FULL_HOUSE,
    Category.FLUSH,
    Category.STRAIGHT,
    Category.THREE_OF_A_KIND,
    Category.TWO_PAIR,
    Category.PAIR,
    Category.HIGH_CARD,
]

# One hand of each category in the 32-card deck, listed high to low under the default ranking.
EXAMPLES = {
    Category.ROYAL_FLUSH: "Ah Kh Qh Jh Th",
    Category.STRAIGHT_FLUSH: "Kd Qd Jd Td 9d",
    Category.FOUR_OF_A_KIND: "7c 7d 7h 7s 8c",
    Category.FLUSH: "Kc Jc 9c 8c 7c",
    Category.FULL_HOUSE: "Ac Ad Ah Kc Kd",
    Category.STRAIGHT: "Ac Kd Qh Js Tc",
    Category.THREE_OF_A_KIND: "Ac Ad Ah Kc Qd",
    Category.TWO_PAIR: "Ac Ad Kh Kc Qd",
    Category.PAIR: "Ac Ad Kh Qc Jd",
    Category.HIGH_CARD: "Ac Kd Qh Jc 9d",
}


# --------------------------------------------------------------------------- worked examples


def test_worked_example_1_a_7_8_9_t_is_a_ten_high_straight_losing_to_7_to_j() -> None:
    low = value("As 7h 8d 9c Ts")
    assert low.category is Category.STRAIGHT
    assert low.ranks == (10,)
    assert low.description == "straight T-high (A-7-8-9-T)"
    high = value("7c 8s 9h Td Jc")
    assert high.description == "straight J-high"
    assert low < high


def test_worked_example_2_flush_beats_full_house_by_default() -> None:
    flush = value("Ks Qs 9s 8s 7s")
    full_house = value("Ac Ad Ah Kc Kd")
    assert flush.description == "flush K-Q-9-8-7"
    assert full_house.description == "full house A over K"
    assert flush > full_house


def test_worked_example_3_five_dealt_in_a_6_7_8_9_is_a_straight_a_7_8_9_t_ace_high() -> None:
    straight = value("Ac 6d 7s 8h 9c", with_sixes=True)
    assert straight.category is Category.STRAIGHT
    assert straight.ranks == (9,)
    assert straight.description == "straight 9-high (A-6-7-8-9)"
    ace_high = value("Ac 7d 8s 9h Tc", with_sixes=True)
    assert ace_high.category is Category.HIGH_CARD
    assert ace_high.ranks == (14, 10, 9, 8, 7)
    assert ace_high.description == "high card A-T-9-8-7"
    assert straight > ace_high


# --------------------------------------------------------------------------- clause 2


@pytest.mark.parametrize(
    ("option", "expected"),
    [(True, RANKING_DEFAULT), (False, RANKING_STANDARD)],
    ids=["flush_beats_full_house", "standard"],
)
def test_clause_2_ranking_high_to_low(option: bool, expected: list[Category]) -> None:
    assert list(reversed(ranking(flush_beats_full_house=option))) == expected
    values = [value(EXAMPLES[category], flush_beats_full_house=option) for category in Category]
    assert [hand.category for hand in values] == list(Category)
    ordered = sorted(values, reverse=True)
    assert [hand.category for hand in ordered] == expected


def test_clause_2_option_on_by_default_flush_beats_full_house() -> None:
    flush, full_house = "7s 8s 9s Js Qs", "Ac Ad Ah Kc Kd"  # the lowest flush, the best boat
    assert value(flush) > value(full_house)
    assert value(flush, flush_beats_full_house=True) > value(full_house)


def test_clause_2_option_off_full_house_beats_flush() -> None:
    flush, full_house = "As Ks Qs Js 9s", "7c 7d 7h 8c 8d"  # the best flush, the lowest boat
    assert value(flush, flush_beats_full_house=False) < value(
        full_house, flush_beats_full_house=False
    )
    # Only the order changes: the category and tiebreak ranks are the same.
    on, off = value(flush), value(flush, flush_beats_full_house=False)
    assert (on.category, on.ranks, on.description) == (off.category, off.ranks, off.description)


def test_clause_2_categories_have_readable_names() -> None:
    assert [category.words for category in Category] == [
        "high card",
        "pair",
        "two pair",
        "three of a kind",
        "straight",
        "full house",
        "flush",
        "four of a kind",
        "straight flush",
        "royal flush",
    ]
    assert [int(category) for category in Category] == list(range(10))


# --------------------------------------------------------------------------- clause 3


def test_clause_3_a_7_8_9_t_is_the_lowest_straight_in_the_32_card_deck() -> None:
    low = value("Ah 7c 8d 9s Tc")
    assert low.category is Category.STRAIGHT
    assert low < value("7c 8d 9s Tc Jh") < value("Tc Jd Qh Ks Ac")
    assert low > value("Ah Ad Ac 9s 8c")  # above three of a kind


def test_clause_3_with_sixes_a_6_7_8_9_is_the_lowest_straight() -> None:
    low = value("Ah 6c 7d 8s 9c", with_sixes=True)
    assert low.category is Category.STRAIGHT
    assert low < value("6c 7d 8s 9c Th", with_sixes=True)
    assert value("6c 7d 8s 9c Th", with_sixes=True).description == "straight T-high"


def test_clause_3_with_sixes_a_7_8_9_t_is_not_a_straight() -> None:
    assert value("Ah 7c 8d 9s Tc", with_sixes=True).category is Category.HIGH_CARD
    assert value("Ah 7h 8h 9h Th", with_sixes=True).category is Category.FLUSH


@pytest.mark.parametrize(
    ("cards", "with_sixes", "description"),
    [
        ("Ah 7h 8h 9h Th", False, "straight flush T-high (A-7-8-9-T)"),
        ("As 6s 7s 8s 9s", True, "straight flush 9-high (A-6-7-8-9)"),
    ],
    ids=["32-card", "36-card"],
)
def test_clause_3_suited_low_straight_is_a_straight_flush_not_royal(
    cards: str, with_sixes: bool, description: str
) -> None:
    low = value(cards, with_sixes=with_sixes)
    assert low.category is Category.STRAIGHT_FLUSH
    assert low.description == description
    assert low < value("7c 8c 9c Tc Jc", with_sixes=with_sixes)  # the lowest natural one
    assert low > value("7c 7d 7h 7s 8c", with_sixes=with_sixes)
    royal = value("Tc Jc Qc Kc Ac", with_sixes=with_sixes)
    assert royal.category is Category.ROYAL_FLUSH
    assert royal.description == "royal flush"


def test_clause_3_suits_never_rank_identical_hands_split() -> None:
    spades, hearts = value("As Ks Qs Js 9s"), value("Ah Kh Qh Jh 9h")
    assert spades == hearts
    assert not spades < hearts and not hearts < spades
    assert hash(spades) == hash(hearts)
    assert value("Kc Kd 9h 9c 7s") == value("Kh Ks 9d 9s 7c")
    assert len({value("Ac 7d 8s 9h Tc"), value("Ad 7c 8h 9s Th")}) == 1
    # Next to an identical hand, the next kicker decides; suits do not.
    assert value("Kc Kd 9h 9c 8s") > value("Kh Ks 9d 9s 7c")


suits = st.permutations("cdhs")


@given(st.randoms(use_true_random=False), suits, st.booleans())
def test_clause_3_order_of_cards_and_names_of_suits_never_matter(
    rnd: random.Random, suit_map: list[str], with_sixes: bool
) -> None:
    cards = rnd.sample(short_deck(with_sixes), 5)
    renamed = [Card(card.rank, suit_map["cdhs".index(card.suit)]) for card in cards]
    rnd.shuffle(renamed)
    first = hand_value(cards, with_sixes=with_sixes)
    second = hand_value(renamed, with_sixes=with_sixes)
    assert first == second
    assert (first.category, first.ranks, first.description) == (
        second.category,
        second.ranks,
        second.description,
    )


# --------------------------------------------------------------------------- descriptions


@pytest.mark.parametrize(
    ("cards", "description", "ranks"),
    [
        ("Ks Qs 9s 8s 7s", "flush K-Q-9-8-7", (13, 12, 9, 8, 7)),
        ("7c 8s 9h Td Jc", "straight J-high", (11,)),
        ("Ac Ad Ah Kc Kd", "full house A over K", (14, 13)),
        ("8c 8d Ah Ac As", "full house A over 8", (14, 8)),
        ("Kc Kd 9h 9c 7s", "two pair K and 9, 7 kicker", (13, 9, 7)),
        ("9c 9d 9h 9s As", "four of a kind 9, A kicker", (9, 14)),
        ("9c 9d 9h As Ks", "three of a kind 9, A-K kickers", (9, 14, 13)),
        ("Jc Jd 9h 8c 7s", "pair J, 9-8-7 kickers", (11, 9, 8, 7)),
        ("Ac 7d 8s 9h Jc", "high card A-J-9-8-7", (14, 11, 9, 8, 7)),
        ("Qd Kd Jd Td 9d", "straight flush K-high", (13,)),
        ("Ah Kh Qh Jh Th", "royal flush", (14,)),
    ],
)
def test_descriptions_and_tiebreak_ranks(
    cards: str, description: str, ranks: tuple[int, ...]
) -> None:
    hand = value(cards)
    assert hand.description == description
    assert str(hand) == description
    assert hand.ranks == ranks


def test_tiebreaks_follow_the_ranks_in_order_of_importance() -> None:
    assert value("7c 7d 7h Ac Ad") < value("8c 8d 8h 7c 7d")  # trips first
    assert value("Kc Kd 7h 7c Ad") < value("Kh Ks 8h 8c 7d")  # second pair before kicker
    assert value("9c 9d 9h 9s 7c") < value("9c 9d 9h 9s 8c")  # quads kicker
    assert value("Ac Kc Qc Jc 8c") > value("Ac Kc Qc Jc 7c")  # flush, card by card


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("count", [4, 6])
def test_exactly_five_cards(count: int) -> None:
    cards = short_deck(False)[:count]
    with pytest.raises(ValueError, match=f"a poker hand is 5 cards, got {count}"):
        hand_value(cards, with_sixes=False)


def test_a_six_is_not_in_the_32_card_deck() -> None:
    cards = parse_cards(["6c", "7d", "8s", "9h", "Tc"], path="cards")
    with pytest.raises(ValueError, match="rank 6 is not in the 7-A deck"):
        hand_value(cards, with_sixes=False)
    assert hand_value(cards, with_sixes=True).description == "straight T-high"


# --------------------------------------------------------------------------- clause 4

BRIEF_COUNTS = {
    False: {
        Category.ROYAL_FLUSH: 4,
        Category.STRAIGHT_FLUSH: 16,
        Category.FOUR_OF_A_KIND: 224,
        Category.FLUSH: 204,
        Category.FULL_HOUSE: 1_344,
        Category.STRAIGHT: 5_100,
        Category.THREE_OF_A_KIND: 10_752,
        Category.TWO_PAIR: 24_192,
        Category.PAIR: 107_520,
        Category.HIGH_CARD: 52_020,
    },
    True: {
        Category.ROYAL_FLUSH: 4,
        Category.STRAIGHT_FLUSH: 20,
        Category.FOUR_OF_A_KIND: 288,
        Category.FLUSH: 480,
        Category.FULL_HOUSE: 1_728,
        Category.STRAIGHT: 6_120,
        Category.THREE_OF_A_KIND: 16_128,
        Category.TWO_PAIR: 36_288,
        Category.PAIR: 193_536,
        Category.HIGH_CARD: 122_400,
    },
}
BRIEF_TOTALS = {False: 201_376, True: 376_992}


@pytest.fixture(scope="module", params=[False, True], ids=["32-card", "36-card"])
def every_hand(request: pytest.FixtureRequest) -> tuple[bool, list[tuple[HandValue, HandValue]]]:
    """Every 5-card hand of the deck, valued with the option on and off."""
    with_sixes: bool = request.param
    return with_sixes, [
        (
            hand_value(cards, with_sixes=with_sixes),
            hand_value(cards, with_sixes=with_sixes, flush_beats_full_house=False),
        )
        for cards in combinations(short_deck(with_sixes), 5)
    ]


def test_clause_4_category_counts_match_the_brief(
    every_hand: tuple[bool, list[tuple[HandValue, HandValue]]],
) -> None:
    with_sixes, values = every_hand
    assert len(values) == BRIEF_TOTALS[with_sixes]
    assert sum(BRIEF_COUNTS[with_sixes].values()) == BRIEF_TOTALS[with_sixes]
    counts = Counter(on.category for on, _ in values)
    assert dict(counts) == BRIEF_COUNTS[with_sixes]
    # The option changes the order only, never a hand's category or tiebreak ranks.
    assert all((on.category, on.ranks) == (off.category, off.ranks) for on, off in values)


@pytest.mark.parametrize(
    ("option", "expected"),
    [(True, RANKING_DEFAULT), (False, RANKING_STANDARD)],
    ids=["flush_beats_full_house", "standard"],
)
def test_clause_4_sorting_every_hand_keeps_the_brief_category_order(
    every_hand: tuple[bool, list[tuple[HandValue, HandValue]]],
    option: bool,
    expected: list[Category],
) -> None:
    _, values = every_hand
    hands = [on if option else off for on, off in values]
    hands.sort(key=attrgetter("strength"))
    place = {category: index for index, category in enumerate(reversed(expected))}
    places = [place[hand.category] for hand in hands]
    assert places == sorted(places)
    # Every flush against every full house, through HandValue's own comparisons.
    flushes = [hand for hand in hands if hand.category is Category.FLUSH]
    boats = [hand for hand in hands if hand.category is Category.FULL_HOUSE]
    if option:
        assert min(flushes) > max(boats)
    else:
        assert max(flushes) < min(boats)
