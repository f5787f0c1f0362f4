"""What a settlement needs, at each line: the tiers it reaches (a win *above* a tier's
amount), the W-2G ($600 and 300x the wager), the MTL entry (above $3,000), the regulator
notice (at or above its line); and who may fill which tier."""

from __future__ import annotations

import pytest

from payouts.signoff import (
    Policy,
    Prompts,
    Signer,
    Tier,
    assign,
    default_policy,
    needs_of,
    presets,
    still_needed,
)

PROMPTS = Prompts(w2g_min=60_000, w2g_multiple=300, mtl_above=300_000, ctr_above=1_000_000)


def result(*lines: tuple[str, int, int], net: int | None = None, seat: int = 2) -> dict:
    """A settlement with one player's ``(wager, stake, amount)`` lines."""
    parties = [
        {
            "seat": seat,
            "lines": [{"wager": w, "stake": s, "amount": a} for w, s, a in lines],
            "net": sum(a for _, _, a in lines) if net is None else net,
        }
    ]
    return {"seats": parties, "house": {"seat": 0, "lines": [], "net": -(10**9)}}


def test_the_defaults_are_mississippis():
    policy = default_policy()
    assert policy.tiers == (Tier(119_999, "floor_manager", 1), Tier(500_000, "shift_manager", 1))
    assert policy.notice == 10_000_000 and policy.source == "default"
    assert presets()["nevada"].tiers == (Tier(119_999, "floor_manager", 2),)


@pytest.mark.parametrize(
    ("win", "tiers"),
    [(119_999, 0), (120_000, 1), (500_000, 1), (500_001, 2)],
)
def test_a_tier_is_reached_by_a_win_above_its_amount(win, tiers):
    needs = needs_of(result(("ante", 100_000, win)), default_policy(), PROMPTS)
    assert (len(needs.tiers), needs.win) == (tiers, win)


def test_the_win_is_the_larger_of_the_biggest_line_and_the_net_and_never_the_house():
    # A line of $1,300 lost back on another: the line counts.
    needs = needs_of(
        result(("bonus", 1_000, 130_000), ("ante", 200_000, -200_000)), default_policy(), PROMPTS
    )
    assert needs.win == 130_000 and len(needs.tiers) == 1
    # The house losing any amount is no payout.
    assert needs_of(result(("ante", 100, -100)), default_policy(), PROMPTS).held is False


@pytest.mark.parametrize(
    ("stake", "amount", "w2g"),
    [
        (200, 60_000, True),  # $600 on $2: 300x exactly, $600 exactly
        (200, 59_999, False),  # under $600
        (201, 60_000, False),  # under 300x
        (0, 60_000, True),  # a bonus with no stake of its own, on a seat that staked nothing
    ],
)
def test_a_w2g_at_600_dollars_and_300_times_the_wager(stake, amount, w2g):
    needs = needs_of(result(("bonus", stake, amount)), default_policy(), PROMPTS)
    assert bool(needs.w2g) is w2g
    assert needs.held is w2g  # under every tier: only the W-2G holds it
    if w2g:
        assert needs.signatures == (Tier(0, "floor_manager", 1),)


def test_a_bonus_with_no_stake_of_its_own_is_judged_against_the_seats_wager():
    # Paid on the ante: 300x the seat's $10 is $3,000.
    assert not needs_of(
        result(("ante", 1_000, 1_000), ("ante_bonus", 0, 200_000)), default_policy(), PROMPTS
    ).w2g
    assert needs_of(
        result(("ante", 1_000, 1_000), ("ante_bonus", 0, 300_000)), default_policy(), PROMPTS
    ).w2g


@pytest.mark.parametrize(("win", "mtl"), [(300_000, False), (300_001, True)])
def test_an_mtl_entry_above_3000_dollars(win, mtl):
    assert bool(needs_of(result(("ante", 300_000, win)), default_policy(), PROMPTS).mtl) is mtl


@pytest.mark.parametrize(("win", "notice"), [(9_999_999, False), (10_000_000, True)])
def test_the_regulator_is_notified_at_100000_dollars(win, notice):
    needs = needs_of(result(("ante", 10_000_000, win)), default_policy(), PROMPTS)
    assert needs.notice is notice
    assert ("the regulator is notified" in "; ".join(needs.reasons)) is notice


def test_no_notice_line_never_notifies():
    policy = Policy((Tier(100, "floor_manager", 2),), None, "table")
    assert not needs_of(result(("ante", 10**9, 10**9)), policy, PROMPTS).notice


def test_each_signature_counts_once_for_a_tier_whose_role_it_holds():
    tiers = [Tier(1, "floor_manager", 1), Tier(2, "shift_manager", 1)]
    floor = Signer(1, frozenset({"floor_manager"}))
    shift = Signer(2, frozenset({"floor_manager", "shift_manager"}))
    other_floor = Signer(3, frozenset({"floor_manager"}))
    assert still_needed(tiers, [floor, other_floor]) == [Tier(2, "shift_manager", 1)]
    assert assign(tiers, [floor, other_floor]) == {0: 0}  # the second counts for nothing
    # A shift manager first takes the shift manager's place, leaving the floor manager's.
    assert assign(tiers, [shift]) == {0: 1}
    assert assign(tiers, [shift, floor]) == {0: 1, 1: 0}
    # A floor manager first, then the shift manager: both count.
    assert still_needed(tiers, [floor, shift]) == []
    # Two people in one tier of two.
    pair = [Tier(1, "floor_manager", 2)]
    assert still_needed(pair, [floor]) == [Tier(1, "floor_manager", 1)]
    assert still_needed(pair, [floor, shift]) == []
