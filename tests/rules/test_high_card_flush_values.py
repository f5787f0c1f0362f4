"""High Card Flush hand values: best flush, straight-flush runs, raise bounds, the qualifier."""

from __future__ import annotations

import pytest

from casino.rules.cards import Card, parse_card
from casino.rules.errors import RuleError
from casino.rules.high_card_flush import (
    Flush,
    Rules,
    Run,
    best_flush,
    dp_qualifies,
    raise_bounds,
    settlement_order,
    straight_flush_run,
)


def cards(text: str) -> list[Card]:
    return [parse_card(card) for card in text.split()]


# --- clause 2: the flush is the longest suit; ties between suits take the better one


@pytest.mark.parametrize(
    ("hand", "length", "ranks", "suit"),
    [
        ("As Ks 7s 2s Qh 9d 4c", 4, (14, 13, 7, 2), "s"),
        ("Jd 9d 6d 5d 3d 2d Ac", 6, (11, 9, 6, 5, 3, 2), "d"),
        ("2h 3h 4h 5h 6h 7h 8h", 7, (8, 7, 6, 5, 4, 3, 2), "h"),
        ("Ah Kh Qs Js Td 9d 8c", 2, (14, 13), "h"),  # 2-2-2-1: the best pair of suited cards
        ("8d 6d 2d 7c 5c 3c Ks", 3, (8, 6, 2), "d"),  # two 3-card suits: 8-6-2 beats 7-5-3
        ("9c 8c 2c 9h 8h 3h As", 3, (9, 8, 3), "h"),  # decided at the third card
        ("Td 9d 8d Qs 2s 3s 4s", 4, (12, 4, 3, 2), "s"),  # length before rank
    ],
)
def test_clause_02_best_flush_is_the_longest_then_best_suit(
    hand: str, length: int, ranks: tuple[int, ...], suit: str
) -> None:
    flush = best_flush(cards(hand))
    assert (flush.length, flush.ranks, flush.suit) == (length, ranks, suit)


def test_clause_02_flush_text_uses_t_for_ten() -> None:
    assert str(best_flush(cards("Ts 9s 7s 2s Qh 9d 4c"))) == "4-card flush T-9-7-2"


def test_clause_02_flushes_compare_by_length_then_card_by_card() -> None:
    assert Flush(4, (6, 5, 3, 2), "s") > Flush(3, (14, 13, 12), "h")
    assert Flush(4, (14, 13, 7, 2), "s") > Flush(4, (13, 12, 11, 10), "h")
    assert Flush(3, (9, 8, 7), "c") > Flush(3, (9, 8, 6), "s")


def test_clause_03_straights_do_not_count_for_the_flush() -> None:
    assert best_flush(cards("As Ts 5s 2d 3c 4h 7c")) > best_flush(cards("Kh Qh Jh 2s 3d 4c 7d"))


def test_clause_04_equal_length_and_ranks_tie_whatever_the_suit() -> None:
    player = best_flush(cards("9c 8c 7c Kd Qd 2h 3s"))
    dealer = best_flush(cards("9s 8s 7s Kh Qh 2d 3c"))
    assert player == dealer
    assert not player > dealer and not player < dealer


def test_best_flush_needs_cards() -> None:
    with pytest.raises(ValueError):
        best_flush([])


# --- clause 11: straight-flush runs


@pytest.mark.parametrize(
    ("hand", "length", "top", "text"),
    [
        ("Ah 2h 3h Kd Qc 9s 7s", 3, 3, "3-card straight flush 3-2-A"),
        ("Qd Kd Ad 2d 3c 7s 9h", 3, 14, "3-card straight flush A-K-Q"),
        ("Kd Ad 2d 5c 7s 9h Jc", 2, 14, "no straight flush (longest run 2 cards)"),  # K-A-2
        ("Ks Ad 2c 5c 7s 9h Jd", 1, 14, "no straight flush (longest run 1 card)"),
        ("9s 8s 7s 6s 5s 4s Ad", 6, 9, "6-card straight flush 9-8-7-6-5-4"),
        ("Ah 2h 3h 4h 5h Kh Qh", 5, 5, "5-card straight flush 5-4-3-2-A"),
        ("9c 8c 7c Ad Jd 5d 3d", 3, 9, "3-card straight flush 9-8-7"),  # not the flush suit
        ("4c 3c 2c Jd Td 9d 2s", 3, 11, "3-card straight flush J-T-9"),  # highest top wins
        ("Ac 2c 3c 4c Jd Qd Kd", 4, 4, "4-card straight flush 4-3-2-A"),  # length before top
        ("2s 3s 4s 5s 6s 7s 8s", 7, 8, "7-card straight flush 8-7-6-5-4-3-2"),
    ],
)
def test_clause_11_straight_flush_run(hand: str, length: int, top: int, text: str) -> None:
    run = straight_flush_run(cards(hand))
    assert (run.length, run.top) == (length, top)
    assert str(run) == text


def test_clause_11_k_a_2_is_not_a_run() -> None:
    run = straight_flush_run(cards("Ks As 2s 9h 7d 5c 3h"))
    assert run.length == 2 and not run.is_straight_flush


def test_clause_11_runs_compare_by_length_then_top() -> None:
    assert Run(4, 6, "c") > Run(3, 14, "h")
    assert Run(3, 14, "c") > Run(3, 3, "h")
    assert Run(3, 9, "c") == Run(3, 9, "s")
    assert Run(3, 3, "h").ranks == (3, 2, 1)


def test_straight_flush_run_needs_cards() -> None:
    with pytest.raises(ValueError):
        straight_flush_run([])


# --- clause 6: raise bounds


@pytest.mark.parametrize(
    ("length", "bounds"),
    [(2, (10, 10)), (3, (10, 10)), (4, (10, 10)), (5, (10, 20)), (6, (10, 30)), (7, (10, 30))],
)
def test_clause_06_raise_bounds_by_flush_length(length: int, bounds: tuple[int, int]) -> None:
    assert raise_bounds(10, length) == bounds


# --- clause 7: the qualifier


@pytest.mark.parametrize(
    ("hand", "qualifies"),
    [
        ("9s 8s 7s Kh Qh 2d 3c", True),  # 3-card 9-high
        ("9s 3s 2s Kh Qh 2d 3c", True),  # 3-card 9-high, low kickers
        ("8d 6d 2d 7c 5c 3c Ks", False),  # 3-card 8-high (brief example 2)
        ("7d 5d 3d 2d Kc Qs 9h", True),  # any 4-card flush
        ("Ah Kh Qs Js Td 9d 8c", False),  # 2-card flush
        ("8c 7c 6c 9d 2d 3d Ks", True),  # two 3-card suits: the 9-high one plays
    ],
)
def test_clause_07_dp_qualifies_with_3_card_9_high_or_any_4_card(
    hand: str, qualifies: bool
) -> None:
    assert dp_qualifies(best_flush(cards(hand)), Rules()) is qualifies
    assert dp_qualifies(best_flush(cards(hand))) is qualifies


def test_clause_07_qualifier_is_data() -> None:
    eight_high = best_flush(cards("8d 6d 2d 7c 5c 3c Ks"))
    four_card = best_flush(cards("7d 5d 3d 2d Kc Qs 9h"))
    assert dp_qualifies(eight_high, Rules(qualify_high_rank=8))
    assert not dp_qualifies(four_card, Rules(qualify_length=4, qualify_high_rank=12))
    assert dp_qualifies(
        best_flush(cards("Qd 5d 3d 2d Kc Qs 9h")), Rules(qualify_length=4, qualify_high_rank=12)
    )


def test_qualifier_settings_are_checked() -> None:
    with pytest.raises(RuleError) as error:
        Rules(qualify_length=8)
    assert error.value.problems[0].path == "rules.qualify_length"


# --- clause 13: settlement order


@pytest.mark.parametrize(
    ("dp_seat", "seats", "order"),
    [
        (3, [1, 2, 5, 6], [2, 1, 6, 5]),
        (1, [2, 3, 4], [4, 3, 2]),
        (7, [1, 2, 3], [3, 2, 1]),
        (4, [6, 5, 3], [3, 6, 5]),
    ],
)
def test_clause_13_order_is_seats_descending_from_the_dp_wrapping(
    dp_seat: int, seats: list[int], order: list[int]
) -> None:
    assert settlement_order(dp_seat, seats) == order
