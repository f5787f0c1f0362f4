"""Paiute's winning combinations (clauses 7-8): the brief's worked examples 1-7 exactly, the
ranking and comparisons, and a brute-force proof of the fast evaluator.

The reference evaluator at the bottom tries every substitution of every wild card: each wild
becomes every rank, in every 5-card subset (and the whole six), and the substituted cards are
classified as natural cards. Suits: the classification depends on the ranks and on whether
all five cards share a suit, so giving every wild the naturals' suit (the first natural's) is
as good as trying all 52 cards for each: a flush needs every card in the naturals' suit, and
the rank combinations do not look at suits.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations, combinations_with_replacement
from random import Random

import pytest

from casino.rules.cards import SUITS, Card, standard_deck
from casino.rules.errors import RuleError
from casino.rules.paiute import Category, Combination, best_combination
from tests.rules.paiute_helpers import cards


def best(text: str, wild: int | None) -> Combination | None:
    return best_combination(cards(text), wild)


def must(text: str, wild: int | None) -> Combination:
    combination = best(text, wild)
    assert combination is not None, text
    return combination


# --------------------------------------------------------------------------- worked examples


def test_worked_example_1_four_kings_without_a_pair_does_not_win() -> None:
    assert best("Ks Kh Kd 3c 7s 2d", 3) is None


def test_worked_example_2_four_kings_and_two_sevens_is_four_two() -> None:
    combination = must("Ks Kh Kd 3c 7s 7d", 3)
    assert combination.category is Category.FOUR_TWO
    assert combination.ranks == (13, 7)
    assert combination.description == "four/two: kings and sevens"
    assert combination.discard is None and len(combination.cards) == 6
    assert combination.wild_words() == "3c as a king"


def test_worked_example_3_two_nines_wild_with_three_queens_is_five_queens() -> None:
    combination = must("9c 9h Qs Qd Qc 4h", 9)
    assert combination.category is Category.FIVE_OF_A_KIND
    assert combination.description == "five queens"
    assert str(combination.discard) == "4h"
    assert [str(card) for card in combination.cards] == ["9c", "9h", "Qs", "Qd", "Qc"]


def test_worked_example_4_royal_flush_discards_the_two() -> None:
    combination = must("Ah Kh Qh Jh Th 2c", 5)
    assert combination.category is Category.ROYAL_FLUSH
    assert combination.description == "royal flush"
    assert str(combination.discard) == "2c"


def test_worked_example_5_three_pairs_keep_all_six() -> None:
    combination = must("8s 8h 5d 5c Js Jd", 2)
    assert combination.category is Category.TWO_TWO_TWO
    assert combination.ranks == (11, 8, 5)
    assert combination.description == "two/two/two: jacks, eights and fives"
    assert combination.discard is None and len(combination.cards) == 6


def test_worked_example_6_wild_four_fills_the_ten_of_a_straight_flush() -> None:
    combination = must("7c 8c 9c 4d Jc As", 4)
    assert combination.category is Category.STRAIGHT_FLUSH
    assert combination.ranks == (11,)
    assert combination.description == "straight flush 7-J of clubs"
    assert combination.wild_words() == "4d as Tc"
    assert str(combination.discard) == "As"


def test_worked_example_7_aces_and_kings_beat_aces_and_queens() -> None:
    first = must("As Ah Ad Ks Kh Kd", None)
    second = must("As Ah Ad Qs Qh Qd", None)
    assert first.description == "three/three: aces and kings"
    assert second.description == "three/three: aces and queens"
    assert first > second
    # Any wild card would make four/two of these, so three/three is always natural.
    assert must("As Ah 2d Qs Qh Qd", 2).description == "four/two: queens and aces"


# --------------------------------------------------------------------------- clause 7


def test_clause_7_ranking_high_to_low() -> None:
    ladder = [
        must("9c 9h Qs Qd Qc", 9),  # five of a kind
        must("Ah Kh Qh Jh Th", 2),  # royal flush
        must("9s Ks Qs Js Ts", 2),  # straight flush K high
        must("Ks Kh Kd Kc 7s 7d", 2),  # four/two
        must("As Ah Ad Ks Kh Kd", 2),  # three/three
        must("As Ah Kd Kc Qs Qd", 2),  # two/two/two
    ]
    assert [c.category for c in ladder] == sorted(Category, reverse=True)
    assert ladder == sorted(ladder, reverse=True)
    assert [c.size for c in ladder] == [5, 5, 5, 6, 6, 6]
    # The lowest five of a kind beats the royal flush; the lowest four/two beats three aces
    # and three kings.
    assert must("2c 2d 9h 9s 2h", 9) > ladder[1]
    assert must("2c 2d 2h 2s 3c 3d", 9) > ladder[4]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Ks Kh Kd Kc 7s", id="plain four of a kind"),
        pytest.param("Ks Kh Kd 7c 7s", id="full house"),
        pytest.param("Ks Qs 9s 7s 2s", id="flush"),
        pytest.param("9d Ts Jh Qc Kc", id="straight"),
        pytest.param("Ks Kh Kd Kc 7s 6d", id="four of a kind with an odd card"),
        pytest.param("Ks Kh Kd 7c 7s 6d", id="full house with an odd card"),
        pytest.param("Ks Kh 7d 7c 5s 4d", id="two pairs"),
        pytest.param("Qs Ks As 2s 3s", id="straight flush around the corner"),
    ],
)
def test_clause_7_nothing_else_wins(text: str) -> None:
    assert best(text, 8) is None


def test_clause_7_five_of_a_kind_needs_a_wild_card() -> None:
    assert best("Ks Kh Kd Kc 7s 7d", 2) is not None  # four/two, not five kings
    assert must("Ks Kh Kd Kc 7s 7d", 2).category is Category.FOUR_TWO
    assert must("Ks Kh Kd Kc 7s 7d", 7).description == "five kings"
    # Four wild cards and any card: five of that card's rank (the wilds become kings here).
    combination = must("3c 3d 3h 3s Kc", 3)
    assert combination.description == "five kings"


def test_clause_7_straight_flush_ace_low_or_high_never_both() -> None:
    wheel = must("Ah 2h 3h 4h 5h", 9)
    assert wheel.category is Category.STRAIGHT_FLUSH and wheel.ranks == (5,)
    assert wheel.description == "straight flush A-5 of hearts"
    assert must("2h 3h 4h 5h 6h", 9) > wheel
    assert must("Th Jh Qh Kh Ah", 9).category is Category.ROYAL_FLUSH
    assert best("Qh Kh Ah 2h 3h", 9) is None
    assert best("Kh Ah 2h 3h 9c", 9) is None  # a wild cannot bend the run round the ace
    # A wild ace plays low: A(wild 9c)-2-3-4-5 of spades.
    assert must("9c 2s 3s 4s 5s", 9).ranks == (6,)  # the wild is better as the 6


def test_clause_7_wild_cards_stand_for_any_card() -> None:
    # Two wilds make three/three from a pair and a pair... and the best ranks are chosen.
    combination = must("Kc Kd 7h 7s 5c 5d", 5)
    assert combination.description == "four/two: kings and sevens"
    assert must("Kc Kd 7h 5s 5c Ad", 5).description == "two/two/two: aces, kings and sevens"
    assert must("Kc Kd Kh 5s 7c 7d", 5).description == "four/two: kings and sevens"
    assert must("Kc Kd Kh 5s 5c 7d", 5).description == "five kings"
    assert must("5c 5d 5h 9c 9d 2s", 5).description == "five nines"
    # A wild card may also be played as itself.
    wheel = must("Ac 2c 3c 4c 5c", 5)
    assert (wheel.description, wheel.wild_words()) == ("straight flush A-5 of clubs", "5c as 5c")
    assert must("5c 6c 7c 8c 9c", 5).description == "straight flush 6-T of clubs"


def test_clause_7_best_combination_is_chosen() -> None:
    # Three pairs and a straight flush in one holding: the straight flush plays.
    combination = must("7c 8c 9c 7d 4h 4s", 4)
    assert combination.category is Category.STRAIGHT_FLUSH
    assert combination.description == "straight flush 7-J of clubs"
    assert str(combination.discard) == "7d"


def test_holding_must_be_five_or_six_cards() -> None:
    with pytest.raises(RuleError, match="5 or 6 cards"):
        best_combination(cards("Ks Kh Kd Kc"), 2)


# --------------------------------------------------------------------------- clause 8


def test_clause_8_comparisons_within_each_category() -> None:
    assert must("9c 9h As Ad Ac", 9) > must("9c 9h Ks Kd Kc", 9)
    assert must("9s Ks Qs Js Ts", 2) > must("8d 9d Td Jd Qd", 2)
    assert must("9s Ks Qs Js Ts", 2) == must("9h Kh Qh Jh Th", 2)  # suits do not rank
    assert must("Ks Kh Kd Kc 2s 2d", 9) > must("Qs Qh Qd Qc As Ad", 9)  # the four first
    assert must("Ks Kh Kd Kc 7s 7d", 9) > must("Ks Kh Kd 9c 6s 6d", 9)  # then the pair
    assert must("As Ah Ad 2s 2h 2d", 9) > must("Ks Kh Kd Qs Qh Qd", 9)  # higher triple
    assert must("As Ah Ad Ks Kh Kd", 9) > must("Ac Ah Ad Qs Qh Qd", 9)  # then the lower
    assert must("As Ah 4d 4s 3h 3d", 9) > must("Ks Kh Qd Qs Jh Jd", 9)  # pairs high to low
    assert must("As Ah Kd Ks 3h 3d", 9) > must("As Ah Kd Ks 2h 2d", 9)


def test_clause_8_natural_and_wild_hands_are_equal() -> None:
    natural = must("Ks Kh Kd Kc 7s 7d", 2)
    wild = must("Ks Kh 2d 2c 7s 7d", 2)
    assert natural == wild and not natural > wild and hash(natural) == hash(wild)
    assert must("Jc Tc 9c 8c 7c", 2) == must("Jc 2d 9c 8c 7c", 2)


def test_descriptions_and_json() -> None:
    assert must("6c 6d 6h 9c 9d", 9).description == "five sixes"
    assert must("9c 8c Tc 7c 6c", 2).description == "straight flush 6-T of clubs"
    assert must("As Ah Ad Qs Qh Qd", 9).description == "three/three: aces and queens"
    data = must("7c 8c 9c 4d Jc As", 4).to_dict()
    assert data == {
        "category": "straight_flush",
        "ranks": ["J"],
        "description": "straight flush 7-J of clubs",
        "cards": ["7c", "8c", "9c", "4d", "Jc"],
        "discard": "As",
        "wild_as": [{"card": "4d", "as": "Tc"}],
    }


# --------------------------------------------------------------------------- brute force


@cache
def classify(ranks: tuple[int, ...], flush: bool) -> tuple[Category, tuple[int, ...]] | None:
    """A natural holding (duplicates allowed), from its sorted ranks and whether it is one suit."""
    counts = Counter(ranks)
    shape = sorted(counts.values(), reverse=True)
    if len(ranks) == 5:
        if shape == [5]:
            return Category.FIVE_OF_A_KIND, (ranks[0],)
        if flush and len(counts) == 5:
            if ranks == (10, 11, 12, 13, 14):
                return Category.ROYAL_FLUSH, (14,)
            if ranks == (2, 3, 4, 5, 14):
                return Category.STRAIGHT_FLUSH, (5,)
            if ranks[-1] - ranks[0] == 4:
                return Category.STRAIGHT_FLUSH, (ranks[-1],)
        return None
    by_count = sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True)
    if shape == [4, 2]:
        return Category.FOUR_TWO, tuple(by_count)
    if shape == [3, 3]:
        return Category.THREE_THREE, tuple(by_count)
    if shape == [2, 2, 2]:
        return Category.TWO_TWO_TWO, tuple(by_count)
    return None


def reference(holding: tuple[Card, ...], wild: int) -> tuple[Category, tuple[int, ...]] | None:
    """Every 5-card subset (and all six), every rank for every wild card."""
    subsets = [holding]
    if len(holding) == 6:
        subsets += [tuple(subset) for subset in combinations(holding, 5)]
    found: tuple[Category, tuple[int, ...]] | None = None
    for subset in subsets:
        naturals = [card for card in subset if card.rank != wild]
        spare = len(subset) - len(naturals)
        suit = naturals[0].suit if naturals else SUITS[0]
        flush_naturals = all(card.suit == suit for card in naturals)
        for ranks in combinations_with_replacement(range(2, 15), spare):
            result = classify(
                tuple(sorted([card.rank for card in naturals] + list(ranks))), flush_naturals
            )
            if result is not None and (found is None or result > found):
                found = result
    return found


def random_holdings(count: int, seed: int) -> list[tuple[tuple[Card, ...], int]]:
    """Holdings of 5 or 6 cards with 0-4 wild cards, a third of them random, a third from two
    or three ranks, a third from a short run of one suit (so many of them win)."""
    rng = Random(seed)
    deck = standard_deck()
    out: list[tuple[tuple[Card, ...], int]] = []
    for index in range(count):
        size = rng.choice((5, 6))
        wild = rng.randint(2, 14)
        spare = min(rng.choice((0, 1, 1, 2, 2, 3, 4)), 4)
        wilds = rng.sample([card for card in deck if card.rank == wild], spare)
        others = [card for card in deck if card.rank != wild]
        mode = index % 3
        if mode == 1:
            ranks = rng.sample(sorted({card.rank for card in others}), rng.choice((2, 3)))
            others = [card for card in others if card.rank in ranks]
        elif mode == 2:
            suit = rng.choice(SUITS)
            low = rng.randint(1, 9)
            run = {14 if rank == 1 else rank for rank in range(low, low + 6)}
            suited = [card for card in others if card.suit == suit and card.rank in run]
            extra = rng.sample([card for card in others if card not in suited], 1)
            others = suited + extra
        need = size - spare
        if len(others) < need:
            others = [card for card in deck if card.rank != wild]
        holding = wilds + rng.sample(others, need)
        rng.shuffle(holding)
        out.append((tuple(holding), wild))
    return out


def test_fast_evaluator_matches_brute_force_on_random_holdings() -> None:
    # (its speed is a figure of ``scripts/bench.py --only paiute``, not an assertion here)
    holdings = random_holdings(3000, seed=20240611)
    wins = Counter[str]()
    for holding, wild in holdings:
        fast = best_combination(holding, wild)
        slow = reference(holding, wild)
        text = " ".join(map(str, holding))
        if fast is None:
            assert slow is None, f"{text} wild {wild}: brute force finds {slow}"
            continue
        assert slow == (fast.category, fast.ranks), f"{text} wild {wild}: {fast} vs {slow}"
        wins[fast.category.code] += 1
        # The cards used make the combination; a 6-card holding leaves out the discard.
        assert best_combination(fast.cards, wild) == fast if len(fast.cards) == 5 else True
        if fast.size == 5 and len(holding) == 6:
            assert fast.discard is not None and fast.discard not in fast.cards
            assert set(fast.cards) | {fast.discard} == set(holding)
        else:
            assert fast.discard is None and set(fast.cards) == set(holding)
        assert len(fast.cards) == fast.size
        assert {card for card, _ in fast.wild_as} <= {c for c in fast.cards if c.rank == wild}
    # Every category is exercised, with and without wild cards.
    assert set(wins) == {category.code for category in Category}, wins
    assert sum(wins.values()) > 600


def test_brute_force_reference_agrees_on_the_worked_examples() -> None:
    assert reference(cards("Ks Kh Kd 3c 7s 2d"), 3) is None
    assert reference(cards("Ks Kh Kd 3c 7s 7d"), 3) == (Category.FOUR_TWO, (13, 7))
    assert reference(cards("9c 9h Qs Qd Qc 4h"), 9) == (Category.FIVE_OF_A_KIND, (12,))
    assert reference(cards("Ah Kh Qh Jh Th 2c"), 5) == (Category.ROYAL_FLUSH, (14,))
    assert reference(cards("8s 8h 5d 5c Js Jd"), 2) == (Category.TWO_TWO_TWO, (11, 8, 5))
    assert reference(cards("7c 8c 9c 4d Jc As"), 4) == (Category.STRAIGHT_FLUSH, (11,))
