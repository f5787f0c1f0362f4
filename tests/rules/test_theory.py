"""Theoretical figures (``casino.rules.theory``): the High Card Flush bonus bets counted
exactly, checked against long seeded simulations through the engine, and every game's house
hold simulated through its own engine.

The exact figures are the player's return per unit staked on a bonus, against the
designated player (who pays it: the house's edge on it is 0). The simulations play the
documented strategies (each game's ``theory.py``); High Card Flush's places both
bonuses on every hand and never folds, as the exact count assumes.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from casino.rules import theory
from casino.rules.cards import Card
from casino.rules.high_card_flush import bonus_odds as hcf
from casino.rules.high_card_flush import straight_flush_run

DEFAULT_FLUSH = {"7": 200, "6": 50, "5": 10, "4": 2}
DEFAULT_STRAIGHT = {"7": 1000, "6": 500, "5": 100, "4": 60, "3": 8}
# Another pay table: no 4-card line (a 4-card flush loses), a 6-card flush paid on the 5 line;
# no 5- or 7-card straight flush lines (paid on the 4 and 6 lines).
OTHER_FLUSH = {"7": 100, "5": 8}
OTHER_STRAIGHT = {"6": 200, "4": 40, "3": 5}
# One player's ante is the table minimum; the bank covers everything (no dead hands).
HCF_LIMITS = {"ante_min": 100, "ante_max": 100, "bank_min": 100, "bank_max": 10**12}


# --------------------------------------------------------------------------- exact counts


def test_the_counts_cover_every_seven_card_hand_and_every_pair_of_hands() -> None:
    flushes = hcf.flush_length_counts()
    assert sum(flushes.values()) == comb(52, 7) == 133_784_560
    # The brief's counts by longest suit (docs/rules/high-card-flush.md, clause 7c's basis).
    assert flushes == {
        2: 24_676_704,
        3: 78_881_088,
        4: 26_137_540,
        5: 3_814_668,
        6: 267_696,
        7: 6_864,
    }
    runs = hcf.run_length_counts()
    assert sum(runs.values()) == comb(52, 7)
    # A 7-card straight flush is seven running ranks of one suit: tops 7 to A, 8 a suit.
    assert runs[7] == 4 * 8
    # Every ordered (player, designated player) deal is counted once for each bonus.
    for result in (hcf.flush_bonus(DEFAULT_FLUSH), hcf.straight_flush_bonus(DEFAULT_STRAIGHT)):
        assert result.total == comb(52, 7) * comb(45, 7)
        assert sum(result.wins.values()) + result.pushes + result.losses == result.total
    assert hcf._both_at_most(len(hcf.run_values()) - 1, len(hcf.run_values()) - 1) == hcf.DEALS


def test_runs_are_read_as_the_engine_reads_them_for_every_set_of_ranks_in_a_suit() -> None:
    for mask in range(1, 1 << 13):
        cards = [Card(rank + 2, "h") for rank in range(13) if mask >> rank & 1]
        run = straight_flush_run(cards)
        assert hcf.run_of(mask) == (run.length, run.top), cards


def test_the_default_pay_tables_exactly() -> None:
    flush = hcf.flush_bonus(DEFAULT_FLUSH)
    straight = hcf.straight_flush_bonus(DEFAULT_STRAIGHT)
    assert flush.player_return == Fraction(-64_057_072_883, 884_483_172_300)
    assert straight.player_return == Fraction(-49_077_515_309_183, 505_924_374_555_600)
    assert float(flush.player_return) == pytest.approx(-0.0724232, abs=1e-7)
    assert float(straight.player_return) == pytest.approx(-0.0970056, abs=1e-7)
    # Paid by the designated player: its expectation is the player's, negated; the house's 0.
    assert flush.designated_player_return == -flush.player_return
    assert straight.house_return == 0 == flush.house_return
    # Only an exact tie of two flushes pushes the Flush bonus; the Straight Flush bonus never.
    assert flush.pushes > 0 and straight.pushes == 0


def test_a_changed_line_moves_the_return_by_its_counted_probability_times_the_change() -> None:
    flush = hcf.flush_bonus(DEFAULT_FLUSH)
    straight = hcf.straight_flush_bonus(DEFAULT_STRAIGHT)
    dearer = hcf.flush_bonus({**DEFAULT_FLUSH, "5": 15})
    assert dearer.player_return - flush.player_return == 5 * flush.win_probability(5)
    cheaper = hcf.straight_flush_bonus({**DEFAULT_STRAIGHT, "3": 6})
    assert cheaper.player_return - straight.player_return == -2 * straight.win_probability(3)
    # Without its 4-card line the bet is not in action on a 4-card flush: what won 2:1 loses
    # 1 and what pushed loses 1 (clause 10a).
    without_four = hcf.flush_bonus({"7": 200, "6": 50, "5": 10})
    four_pushes = flush.push_probability - without_four.push_probability
    assert four_pushes > 0
    assert without_four.player_return - flush.player_return == (
        -3 * flush.win_probability(4) - four_pushes
    )
    # A missing line pays the next lower one (clause 12): the 6-card wins join the 5 line.
    other = hcf.flush_bonus(OTHER_FLUSH)
    assert other.wins[5] == flush.wins[5] + flush.wins[6]


# --------------------------------------------------------------------------- against the engine


@pytest.mark.parametrize(
    ("rules", "hands"),
    [
        ({}, 6_000),
        ({"flush_paytable": OTHER_FLUSH, "straight_flush_paytable": OTHER_STRAIGHT}, 2_500),
    ],
    ids=["default pay tables", "other pay tables"],
)
def test_exact_bonus_returns_lie_in_a_long_simulation_s_interval(
    rules: dict[str, object], hands: int
) -> None:
    run = theory.simulate("high-card-flush", HCF_LIMITS, 1, rules, hands=hands)
    effective = theory.effective_rules("high-card-flush", HCF_LIMITS, 1, rules)
    exact = hcf.bonus_returns(effective)
    assert set(exact) == {"flush_bonus", "straight_flush_bonus"}
    for bet, result in exact.items():
        simulated = run.wagers[bet]
        assert simulated.hands == hands and simulated.denominator == 6 * 100 * hands
        assert simulated.low <= float(result.player_return) <= simulated.high, (bet, simulated)
        # Tight enough to tell the pay tables apart (their exact returns differ by 0.3 or more).
        assert simulated.high - simulated.low < 0.13


# --------------------------------------------------------------------------- every game


def test_high_card_flush_keeps_the_fee_alone_and_the_bonuses_are_the_players_and_dp_s() -> None:
    per_player = {"rake": {"scheme": "per_player", "amount": 25}}
    run = theory.simulate("high-card-flush", HCF_LIMITS, 1, per_player, hands=60)
    # Seven fees of 25 (six players and the DP) over six players' 4 x 100 wagered.
    assert run.house.value == 7 * 25 / 2400 and run.house.low == run.house.high
    assert run.players == 6 and run.house.mean_denominator == 2400
    assert set(run.wagers) == {"ante", "raise", "flush_bonus", "straight_flush_bonus"}
    free = theory.simulate("high-card-flush", HCF_LIMITS, 1, {}, hands=60)
    assert free.house.value == 0.0  # no fee: the house keeps nothing


def test_pontoon_has_no_house_and_no_rake_so_the_house_keeps_nothing() -> None:
    run = theory.simulate(
        "pontoon", {"stake_min": 100, "stake_max": 2000}, 25, {}, hands=300, seed=3
    )
    assert (run.house.value, run.house.low, run.house.high) == (0.0, 0.0, 0.0)
    assert run.house.denominator == 300 * 5 * 100  # five players staking the minimum
    assert "stake" in run.wagers  # the players' result against the banker, per unit staked


def test_paiute_keeps_its_rake_of_a_pot_of_antes() -> None:
    limits = {"ante": 500}
    capped = theory.simulate("paiute", limits, 25, {"rake": {"percent": 5, "cap": 75}}, hands=40)
    # Four antes of 500: 5% of 2000 is 100, capped at 75, on every hand.
    assert capped.house.value == 75 / 2000 and capped.house.low == capped.house.high
    fixed = theory.simulate("paiute", limits, 25, {"rake": {"fixed": 150}}, hands=40)
    assert fixed.house.value == 150 / 2000


def test_five_card_draw_holds_at_most_its_percentage_and_less_with_a_lower_cap() -> None:
    limits = {"structure": "limit", "small_blind": 100, "big_blind": 200, "big_bet": 400}
    high_cap = theory.simulate(
        "five-card-draw-7a", limits, 25, {"rake": {"percent": 5, "cap": 1000}}, hands=400
    )
    low_cap = theory.simulate(
        "five-card-draw-7a", limits, 25, {"rake": {"percent": 5, "cap": 50}}, hands=400
    )
    for run in (high_cap, low_cap):
        assert run.house.low < run.house.value < run.house.high  # the pots vary
        assert 0 < run.house.value <= 0.05
    assert low_cap.house.high < high_cap.house.low
    # Seeded: the same seed plays the same hands, another seed others.
    again = theory.simulate(
        "five-card-draw-7a", limits, 25, {"rake": {"percent": 5, "cap": 50}}, hands=400
    )
    assert again == low_cap
    other = theory.simulate(
        "five-card-draw-7a", limits, 25, {"rake": {"percent": 5, "cap": 50}}, hands=400, seed=9
    )
    assert other.house.numerator != low_cap.house.numerator


def test_palace_poker_keeps_its_rake_of_pots_that_grow_with_the_battles() -> None:
    limits = {"structure": "limit", "small_bet": 500, "big_bet": 1000}
    run = theory.simulate("palace-poker", limits, 25, {"rake": {"fixed": 100}}, hands=200)
    # One fee of 100 a hand; the antes alone (4 x 250) would make it 10%, the battles less.
    assert run.house.numerator == 100 * 200
    assert 0 < run.house.value < 0.1 and run.house.low < run.house.high


def test_a_figure_s_key_follows_the_rules_that_matter_and_only_those() -> None:
    def digests(rules: dict[str, object]) -> dict[str, str]:
        specs = theory.specs("high-card-flush", HCF_LIMITS, 1, rules)
        return {spec.measure: spec.digest for spec in specs}

    base = digests({})
    assert set(base) == {"house", "flush_bonus", "straight_flush_bonus"}
    assert digests({"rotation_policy": {"max_consecutive": 3}}) == base
    dearer = digests({"flush_paytable": {**DEFAULT_FLUSH, "7": 300}})
    assert dearer["straight_flush_bonus"] == base["straight_flush_bonus"]
    assert dearer["flush_bonus"] != base["flush_bonus"] and dearer["house"] != base["house"]
    fee = digests({"rake": {"scheme": "per_player", "amount": 100}})
    assert fee["house"] != base["house"] and fee["flush_bonus"] == base["flush_bonus"]
    # A bonus the table does not offer has no figure.
    assert "flush_bonus" not in digests({"flush_paytable": {}})


def test_a_figure_is_worked_out_from_its_spec_alone() -> None:
    rules = {"rake": {"scheme": "per_player", "amount": 100}}
    specs = {spec.measure: spec for spec in theory.specs("high-card-flush", HCF_LIMITS, 1, rules)}
    exact = theory.compute(specs["flush_bonus"], hands=0)
    assert (
        exact.value
        == exact.low
        == exact.high
        == float(hcf.flush_bonus(DEFAULT_FLUSH).player_return)
    )
    assert exact.hands is None and exact.detail["player_return"] == "-64057072883/884483172300"
    house = theory.compute(theory.Spec.from_dict(specs["house"].to_dict()), hands=50, seed=1)
    assert house.value == 700 / 2400 and house.hands == 50 and house.seed == 1
