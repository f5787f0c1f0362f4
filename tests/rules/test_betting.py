"""The shared betting-structure arithmetic (casino/rules/betting.py): each structure's bounds,
the pot limit, full raises and reopening, the limit cap, and a round's sizes as Five Card Draw
7-A keeps them (amounts are each seat's total for the round)."""

from __future__ import annotations

import pytest

from casino.rules.betting import Round, Structure, bounds, capped, is_full, pot_limit_max
from casino.rules.five_card_draw.config import Structure as DrawStructure
from casino.rules.palace_poker.config import Structure as PalaceStructure

# --------------------------------------------------------------------------- bounds


@pytest.mark.parametrize(
    ("structure", "least", "most", "pot_max", "expected"),
    [
        (Structure.LIMIT, 400, 5000, None, (400, 400)),  # exactly the fixed amount
        (Structure.LIMIT, 400, 400, None, (400, 400)),
        (Structure.LIMIT, 400, 300, None, (300, 300)),  # short: all-in for less only
        (Structure.NO_LIMIT, 400, 5000, None, (400, 5000)),  # the least to everything
        (Structure.NO_LIMIT, 400, 300, None, (300, 300)),
        (Structure.POT_LIMIT, 400, 5000, 1200, (400, 1200)),  # at most the pot
        (Structure.POT_LIMIT, 400, 900, 1200, (400, 900)),  # at most the stack
        (Structure.POT_LIMIT, 400, 300, 1200, (300, 300)),
    ],
)
def test_each_structures_bounds(
    structure: Structure, least: int, most: int, pot_max: int | None, expected: tuple[int, int]
) -> None:
    assert bounds(structure, least, most, pot_max) == expected


def test_the_games_own_structure_enums_are_understood() -> None:
    assert bounds(DrawStructure.LIMIT, 200, 900) == bounds(PalaceStructure.LIMIT, 200, 900)
    assert bounds(DrawStructure.NO_LIMIT, 200, 900) == (200, 900)
    assert bounds(PalaceStructure.NO_LIMIT, 200, 900) == (200, 900)
    assert bounds(DrawStructure.POT_LIMIT, 200, 900, 500) == (200, 500)
    with pytest.raises(ValueError):
        bounds("spread_limit", 200, 900)


def test_pot_limit_is_the_current_bet_plus_the_pot_after_calling() -> None:
    # Blinds 100/200, first to act: 200 to call into a pot of 300, so a raise to 700.
    assert pot_limit_max(200, 300, 200) == 700
    # Pot 10, a bet of 5 (pot now 15): the raise is to 5 + 15 + 5 = 25 (the 7-A brief's example).
    assert pot_limit_max(5, 15, 5) == 25
    # The big blind with its option has nothing to call.
    assert pot_limit_max(200, 300, 0) == 500


# --------------------------------------------------------------------------- full raises


def test_limit_half_bet_rule() -> None:
    assert is_full(Structure.LIMIT, 100, bet=200, last_raise=0)  # half a bet counts
    assert not is_full(Structure.LIMIT, 99, bet=200, last_raise=0)
    assert is_full(Structure.LIMIT, 200, bet=200, last_raise=0)


@pytest.mark.parametrize("structure", [Structure.NO_LIMIT, Structure.POT_LIMIT])
def test_no_limit_and_pot_limit_full_raise_is_at_least_the_last_one(structure: Structure) -> None:
    assert is_full(structure, 400, bet=200, last_raise=400)
    assert not is_full(structure, 399, bet=200, last_raise=400)


def test_only_limit_is_capped() -> None:
    assert capped(Structure.LIMIT, 3, 3) and not capped(Structure.LIMIT, 2, 3)
    assert not capped(Structure.NO_LIMIT, 9, 3) and not capped(Structure.POT_LIMIT, 9, 3)
    assert capped(PalaceStructure.LIMIT, 1, 1)


# --------------------------------------------------------------------------- a round


def round_one(structure: Structure, big_blind: int = 200) -> Round:
    """Round 1 after the blinds: the big blind is the round's bet."""
    return Round(
        structure,
        bet=big_blind,
        last_raise=big_blind,
        level=big_blind,
        full_level=big_blind,
        bets=1,
    )


def test_no_limit_least_raise_is_the_last_full_raise() -> None:
    nl = round_one(Structure.NO_LIMIT)
    assert nl.bounds(0, 10_000, pot=300) == (400, 10_000)
    assert nl.wager(700)  # a raise of 500
    assert nl.least() == 1200 and nl.last_raise == 500
    assert nl.bounds(200, 10_000, pot=1000) == (1200, 10_200)
    assert nl.bounds(200, 800, pot=1000) == (1000, 1000)  # short: all-in only


def test_a_short_all_in_does_not_reopen_the_betting() -> None:
    nl = round_one(Structure.NO_LIMIT)
    assert nl.wager(600)  # seat A raises to 600 (a raise of 400); seat B calls 600
    acted_at = nl.level
    assert not nl.wager(900)  # seat C all-in for 300 more: less than the last raise of 400
    assert (nl.level, nl.full_level, nl.last_raise) == (900, 600, 400)
    assert not nl.reopened(acted_at)  # A and B may only call or fold
    assert nl.least() == 1300  # anyone else raises a full 400 above the all-in
    assert not nl.wager(1000)  # a second short all-in: together 400 above what A and B faced
    assert nl.reopened(acted_at)


def test_limit_raises_count_from_the_last_full_bet_and_are_capped() -> None:
    limit = round_one(Structure.LIMIT)  # 2-4 in hundreds: round 1 bets are 200
    assert limit.bounds(200, 5000, pot=300) == (400, 400)
    assert limit.wager(400) and limit.wager(600) and not limit.capped(3)
    assert limit.wager(800) and limit.capped(3)  # a bet (the blind) and three raises
    assert limit.bets == 4


def test_limit_short_all_in_under_half_a_bet_is_completed_by_the_next_raise() -> None:
    limit = round_one(Structure.LIMIT)
    assert not limit.wager(290)  # all-in for 90 more: under half of 200
    assert (limit.level, limit.full_level, limit.bets) == (290, 200, 1)
    assert limit.least() == 400  # the next seat completes to one bet above the last full level
    assert not limit.reopened(200)
    assert limit.bounds(200, 5000, pot=690) == (400, 400)


def test_limit_short_all_in_of_half_a_bet_is_a_full_raise() -> None:
    limit = round_one(Structure.LIMIT)
    assert limit.wager(300)  # all-in for 100 more: half of 200 counts as a raise
    assert (limit.full_level, limit.bets) == (300, 2)
    assert limit.least() == 500 and limit.reopened(200)


def test_pot_limit_round_bounds() -> None:
    pl = round_one(Structure.POT_LIMIT)
    # Blinds 100 and 200 in the middle: the first player may raise to 700.
    assert pl.bounds(0, 10_000, pot=300) == (400, 700)
    assert pl.wager(700)
    # The small blind (100 in) faces 700 with 1000 in the middle: call 600, then raise to
    # 700 + 1600 = 2300; a full raise is at least 500 more, to 1200.
    assert pl.bounds(100, 10_000, pot=1000) == (1200, 2300)
    assert pl.bounds(100, 1500, pot=1000) == (1200, 1600)


def test_round_two_starts_with_no_bet() -> None:
    nl = Round(Structure.NO_LIMIT, bet=400, last_raise=200)
    assert nl.least() == 200 and nl.bounds(0, 5000, pot=1000) == (200, 5000)
    limit = Round(Structure.LIMIT, bet=400, last_raise=200)
    assert limit.least() == 400 and limit.bounds(0, 5000, pot=1000) == (400, 400)
    assert limit.wager(400) and not limit.capped(1) and limit.wager(800) and limit.capped(1)
