"""Pots from contributions and odd chips in split pots (Five Card Draw 7-A brief, clauses 9
and 12): worked cases with exact amounts, then Hypothesis properties whose expectations are
worked out from the input, not from the engine."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino.rules.pots import Pot, build_pots, clockwise_from, split_pot


def pots_of(
    contributions: Mapping[int, int], folded: tuple[int, ...] = (), dead_money: int = 0
) -> tuple[list[tuple[int, tuple[int, ...]]], dict[int, int]]:
    """``build_pots`` as plain ``(amount, eligible)`` pairs, with chips checked conserved."""
    pots, returned = build_pots(contributions, folded, dead_money)
    total = sum(pot.amount for pot in pots) + sum(returned.values())
    assert total == sum(contributions.values()) + dead_money
    return [(pot.amount, pot.eligible) for pot in pots], returned


# --------------------------------------------------------------------------- build_pots


def test_everyone_called_one_main_pot() -> None:
    assert pots_of({1: 20, 2: 20, 3: 20}) == ([(60, (1, 2, 3))], {})


def test_one_all_in_short_stack_makes_a_side_pot() -> None:
    # Seat 1 is all in for 50; seats 2 and 3 bet on to 100 each.
    assert pots_of({3: 100, 1: 50, 2: 100}) == ([(150, (1, 2, 3)), (100, (2, 3))], {})


def test_two_all_ins_at_different_levels() -> None:
    pots, returned = pots_of({1: 20, 2: 50, 3: 100, 4: 100})
    assert pots == [(80, (1, 2, 3, 4)), (90, (2, 3, 4)), (100, (3, 4))]
    assert returned == {}


def test_folded_chips_go_in_but_folded_seats_are_never_eligible() -> None:
    # Seat 1 put in 10 and folded; seat 2 all in for 30; seats 3 and 4 to 60.
    assert pots_of({1: 10, 2: 30, 3: 60, 4: 60}, folded=(1,)) == (
        [(100, (2, 3, 4)), (60, (3, 4))],
        {},
    )
    # Seat 1 folded after putting in 40, between the two live levels.
    assert pots_of({1: 40, 2: 30, 3: 60, 4: 60}, folded=(1,)) == (
        [(120, (2, 3, 4)), (70, (3, 4))],
        {},
    )


def test_a_folded_seats_level_never_splits_a_pot() -> None:
    # Seat 4's 25 does not cut a pot at 25: there is one pot per live level.
    assert pots_of({1: 50, 2: 50, 3: 50, 4: 25}, folded=(4,)) == ([(175, (1, 2, 3))], {})


def test_dead_money_goes_into_the_main_pot() -> None:
    # Brief example 4: a returning ML+MS player posts $2 live and $1 dead; then seat 1 is all
    # in for 4 and the others go to 10.
    pots, returned = pots_of({1: 4, 2: 10, 3: 10}, dead_money=1)
    assert pots == [(13, (1, 2, 3)), (12, (2, 3))]
    assert returned == {}


def test_dead_money_alone_is_a_pot_for_every_live_seat() -> None:
    assert pots_of({1: 0, 2: 0}, dead_money=3) == ([(3, (1, 2))], {})


def test_uncalled_bet_is_returned_and_is_no_pot() -> None:
    # Seat 2 bets to 100; seat 1 calls all in for 40.
    assert pots_of({1: 40, 2: 100}) == ([(80, (1, 2))], {2: 60})
    # The unmatched part is measured from the second highest contribution.
    assert pots_of({1: 40, 2: 100, 3: 70}, folded=(3,)) == ([(120, (1, 2)), (60, (2,))], {2: 30})


def test_everyone_folds_to_a_bet() -> None:
    # Blinds 1 and 2; seat 3 raises to 6 and both blinds fold: 4 comes back, 5 is won.
    assert pots_of({1: 1, 2: 2, 3: 6}, folded=(1, 2)) == ([(5, (3,))], {3: 4})
    # With a dead small blind in the middle as well.
    assert pots_of({1: 2, 2: 6}, folded=(1,), dead_money=1) == ([(5, (2,))], {2: 4})


def test_a_level_reached_by_two_seats_returns_nothing() -> None:
    assert pots_of({1: 100, 2: 100, 3: 30}) == ([(90, (1, 2, 3)), (140, (1, 2))], {})


def test_folded_chips_above_every_live_seat_go_into_the_last_pot() -> None:
    # Two folded seats matched each other above the live seats' all-ins.
    assert pots_of({1: 20, 2: 20, 3: 40, 4: 40}, folded=(3, 4)) == ([(120, (1, 2))], {})


def test_no_chips_no_pots() -> None:
    assert pots_of({}) == ([], {})
    assert pots_of({1: 0, 2: 0}) == ([], {})


def test_chips_with_every_seat_folded_is_an_error() -> None:
    with pytest.raises(ValueError, match="every seat has folded"):
        build_pots({1: 5, 2: 5}, folded={1, 2})


@pytest.mark.parametrize(
    ("contributions", "dead_money", "message"),
    [({1: -1}, 0, "seat 1: contribution -1 is negative"), ({1: 1}, -1, "dead money -1")],
    ids=["contribution", "dead_money"],
)
def test_negative_amounts_are_rejected(
    contributions: dict[int, int], dead_money: int, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        build_pots(contributions, (), dead_money)


def test_pot_to_dict() -> None:
    assert Pot(150, (1, 2, 3)).to_dict() == {"amount": 150, "eligible": [1, 2, 3]}


# --------------------------------------------------------------------------- split_pot


def test_split_evenly() -> None:
    assert split_pot(90, [5, 2, 8], button=1) == {2: 30, 5: 30, 8: 30}


def test_odd_chip_goes_to_the_first_winner_left_of_the_button() -> None:
    assert split_pot(101, [2, 6], button=3) == {6: 51, 2: 50}
    assert split_pot(101, [2, 6], button=1) == {2: 51, 6: 50}


def test_odd_chips_all_go_to_the_first_winner_clockwise_from_the_button() -> None:
    # Button 5: seat 7 is the first winner clockwise; both odd chips go to it.
    assert split_pot(11, [2, 4, 7], button=5) == {7: 5, 2: 3, 4: 3}
    # Button on the highest seat: the order wraps, seat 2 is first.
    assert split_pot(11, [2, 4, 7], button=9) == {2: 5, 4: 3, 7: 3}
    # A winner on the button is last.
    assert split_pot(5, [4, 7, 1], button=4) == {7: 3, 1: 1, 4: 1}


def test_odd_chips_in_units_of_the_smallest_chip() -> None:
    # 1,050 in $25 chips among four: 42 chips, 10 each, two odd chips to seat 5.
    assert split_pot(1_050, [1, 3, 5, 7], button=4, smallest_chip=25) == {
        5: 300,
        7: 250,
        1: 250,
        3: 250,
    }


def test_remainder_below_one_chip_goes_to_the_first_winner_too() -> None:
    # 135 in $25 chips between two: 2 chips each; the odd chip and the 10 go to seat 3.
    assert split_pot(135, [3, 8], button=1, smallest_chip=25) == {3: 85, 8: 50}
    # 110: 4 chips split evenly, then the 10 left over goes to the first winner.
    assert split_pot(110, [3, 8], button=1, smallest_chip=25) == {3: 60, 8: 50}


def test_one_winner_takes_it_all() -> None:
    assert split_pot(137, [4], button=4, smallest_chip=25) == {4: 137}


@pytest.mark.parametrize(
    ("winners", "amount", "chip", "message"),
    [
        ([], 10, 1, "at least one winner"),
        ([2, 2], 10, 1, "listed twice"),
        ([2], -1, 1, "negative"),
        ([2], 10, 0, "smallest chip 0"),
    ],
    ids=["no_winner", "repeated_winner", "negative_pot", "zero_chip"],
)
def test_split_pot_rejects_bad_input(
    winners: list[int], amount: int, chip: int, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        split_pot(amount, winners, button=1, smallest_chip=chip)


def test_clockwise_from_the_button() -> None:
    assert clockwise_from(3, [1, 2, 3, 4, 5]) == [4, 5, 1, 2, 3]


# --------------------------------------------------------------------------- properties

seats = st.integers(min_value=1, max_value=9)
# Amounts drawn from a few levels as well as freely, so ties and equal all-ins are common.
amounts = st.one_of(st.sampled_from([0, 5, 20, 50, 100]), st.integers(min_value=0, max_value=500))


@st.composite
def hands(draw: st.DrawFn) -> tuple[dict[int, int], set[int], int]:
    contributions = draw(st.dictionaries(seats, amounts, min_size=1, max_size=9))
    folded = draw(st.sets(st.sampled_from(sorted(contributions))))
    if folded == set(contributions):
        folded.discard(max(contributions, key=lambda seat: contributions[seat]))
    dead_money = draw(st.sampled_from([0, 0, 1, 3, 10]))
    return contributions, folded, dead_money


@given(hands())
def test_property_pots_conserve_chips_and_respect_levels(
    hand: tuple[dict[int, int], set[int], int],
) -> None:
    contributions, folded, dead_money = hand
    pots, returned = build_pots(contributions, folded, dead_money)

    # Every chip is accounted for.
    assert sum(pot.amount for pot in pots) + sum(returned.values()) == (
        sum(contributions.values()) + dead_money
    )

    # Uncalled chips: only a lone top seat gets any back, down to the second highest.
    ordered = sorted(contributions.values(), reverse=True)
    top, second = ordered[0], (ordered[1] if len(ordered) > 1 else 0)
    if top > second:
        (seat,) = [seat for seat, amount in contributions.items() if amount == top]
        assert returned == {seat: top - second}
    else:
        assert returned == {}
    matched = {seat: amount - returned.get(seat, 0) for seat, amount in contributions.items()}

    # Pots are cut at each live seat's level; a level of 0 holds only dead money, or folded
    # chips above every live seat when no live seat put anything in.
    live = {seat: amount for seat, amount in matched.items() if seat not in folded}
    highest = max(live.values())
    above = sum(max(0, amount - highest) for amount in matched.values())
    zero_level = dead_money or (highest == 0 and above)
    levels = sorted({amount for amount in live.values() if amount or zero_level})
    assert len(pots) == len(levels)
    for pot, level in zip(pots, levels, strict=True):
        assert pot.amount > 0
        assert list(pot.eligible) == sorted(set(pot.eligible))
        assert not set(pot.eligible) & folded
        assert all(matched[seat] >= level for seat in pot.eligible)
        assert set(pot.eligible) == {seat for seat, amount in live.items() if amount >= level}

    # A live seat can win from each seat at most what it put in itself, plus the dead money;
    # a seat at the highest live level can win everything.
    for seat, own in live.items():
        can_win = sum(pot.amount for pot in pots if seat in pot.eligible)
        expected = dead_money + sum(min(amount, own) for amount in matched.values())
        assert can_win == expected + (above if own == highest else 0)


winner_lists = st.lists(
    st.integers(min_value=1, max_value=10), min_size=1, max_size=10, unique=True
)


@given(
    st.integers(min_value=0, max_value=100_000),
    winner_lists,
    st.integers(min_value=1, max_value=10),
    st.sampled_from([1, 5, 25, 100]),
)
def test_property_split_shares_sum_and_only_the_first_winner_gets_odd_chips(
    amount: int, winners: list[int], button: int, chip: int
) -> None:
    shares = split_pot(amount, winners, button=button, smallest_chip=chip)
    assert sum(shares.values()) == amount
    assert set(shares) == set(winners)
    after = sorted(seat for seat in winners if seat > button)
    order = after + sorted(seat for seat in winners if seat <= button)
    first, *others = [shares[seat] for seat in order]
    # Everyone else gets the same whole number of chips; the first winner clockwise from the
    # button gets that plus every odd chip (less than one share's worth per other winner).
    assert len(set(others)) <= 1
    assert all(share % chip == 0 for share in others)
    base = others[0] if others else first
    assert 0 <= first - base < chip * len(winners)
