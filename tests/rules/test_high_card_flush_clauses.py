"""High Card Flush: one test (or parametrized group) per clause of the rules brief, and the
brief's four worked examples, each settled through :func:`evaluate` with exact amounts."""

from __future__ import annotations

from typing import Any

import pytest

from casino.rules.cards import standard_deck
from casino.rules.errors import RuleError
from casino.rules.high_card_flush import Rules, evaluate
from casino.rules.settlement import SeatStatus
from tests.rules.helpers import dp, lines, nets, player, problems, record

# Designated-player hands used throughout.
DP_987 = "9s 8s 7s Kh Qh 2d 3c"  # 3-card flush 9-8-7: qualifies; straight flush 9-8-7
DP_862 = "8d 6d 2d 7c 5c 3c Ks"  # 3-card flush 8-6-2: does not qualify; no run
DP_Q963 = "Qc 9c 6c 3c Kd 8d 2s"  # 4-card flush Q-9-6-3: qualifies; no run
DP_9864 = "9h 8h 6h 4h 2c 3d 5s"  # 4-card flush 9-8-6-4: qualifies; no run


def settle(designated: dict[str, Any], *players: dict[str, Any], **rules: Any) -> Any:
    return evaluate(record(designated, *players), rules or None)


# --------------------------------------------------------------------------- worked examples


def test_worked_example_1_as_printed_deals_the_queen_of_hearts_twice() -> None:
    with pytest.raises(RuleError) as error:
        settle(dp("Kh Qh Jh Th 3s 5d 6c"), player(2, "As Ks 7s 2s Qh 9d 4c"))
    assert problems(error) == [
        ("players[0].cards[4]", "card Qh appears twice: the designated player and seat 2")
    ]


def test_worked_example_1_a_k_7_2_beats_k_q_j_t() -> None:
    # The brief's player hand with its Q♥ (also dealt to the DP) replaced by Q♦.
    result = settle(dp("Kh Qh Jh Th 3s 5d 6c"), player(2, "As Ks 7s 2s Qd 9d 4c", raise_=10))
    seat = result.seat(2)
    assert seat.hand == "4-card flush A-K-7-2"
    assert result.seat(1).hand == "4-card flush K-Q-J-T"
    assert lines(seat) == {"ante": ("win", 10), "raise": ("win", 10)}
    assert nets(result) == {1: -20, 2: 20}
    assert (
        "Seat 2: 4-card flush A-K-7-2 beats the designated player's 4-card flush K-Q-J-T; "
        "ante wins 10, raise wins 10." in result.explanation
    )


def test_worked_example_2_dp_8_6_2_does_not_qualify() -> None:
    result = settle(dp(DP_862), player(2, "Ah Kh 2h Qs 9s 3d 4c", raise_=10))
    assert result.seat(1).hand == "3-card flush 8-6-2"
    assert result.seat(1).extra["qualifies"] is False
    assert lines(result.seat(2)) == {"ante": ("win", 10), "raise": ("push", 0)}
    assert nets(result) == {1: -10, 2: 10}


def test_worked_example_3_equal_9_8_7_pushes() -> None:
    result = settle(dp(DP_987), player(2, "9c 8c 7c Kd Qd 2h 3s", raise_=10))
    assert result.seat(1).extra["qualifies"] is True
    assert lines(result.seat(2)) == {"ante": ("push", 0), "raise": ("push", 0)}
    assert nets(result) == {1: 0, 2: 0}


def test_worked_example_4_six_card_flush_raises_3x_and_wins_40() -> None:
    dealer = dp("Ks Qs 8s 4s 3s 7h 2c")  # a 5-card flush
    result = settle(dealer, player(2, "Jd 9d 6d 5d 3d 2d Ac", raise_=30))
    assert result.seat(2).hand == "6-card flush J-9-6-5-3-2"
    assert lines(result.seat(2)) == {"ante": ("win", 10), "raise": ("win", 30)}
    assert nets(result) == {1: -40, 2: 40}
    with pytest.raises(RuleError) as error:
        settle(dealer, player(2, "Jd 9d 6d 5d 3d 2d Ac", raise_=40))
    assert problems(error) == [
        ("players[0].raise", "seat 2: raise 40 exceeds 3x ante for a 6-card flush")
    ]


# --------------------------------------------------------------------------- clause 1


def _deck_hands(count: int) -> list[str]:
    deck = [str(card) for card in standard_deck()]
    return [" ".join(deck[7 * i : 7 * i + 7]) for i in range(count)]


def test_clause_01_six_players_and_the_dp_share_one_deck() -> None:
    hands = _deck_hands(7)
    result = settle(dp(hands[0]), *(player(seat, hands[seat - 1]) for seat in range(2, 8)))
    assert [seat.seat for seat in result.seats] == [1, 2, 3, 4, 5, 6, 7]
    assert len({card for seat in result.seats for card in seat.cards}) == 49


def test_clause_01_a_seventh_player_is_rejected() -> None:
    hands = _deck_hands(7)
    extra = player(8, "As Ks Qs Js Ts 9s 8s")  # the deck's last cards are not enough; any 7
    with pytest.raises(RuleError) as error:
        settle(dp(hands[0]), *(player(seat, hands[seat - 1]) for seat in range(2, 8)), extra)
    assert ("players", "1 to 6 players needed besides the designated player, got 7") in problems(
        error
    )


def test_clause_01_max_players_is_a_table_setting() -> None:
    with pytest.raises(RuleError) as error:
        settle(
            dp(DP_987),
            player(2, "9c 8c 7c Kd Qd 2h 3s"),
            player(3, "Ac Kc 2c Qs Td 3h 4s"),
            max_players=1,
        )
    assert problems(error) == [
        ("players", "1 to 1 players needed besides the designated player, got 2")
    ]


@pytest.mark.parametrize(
    ("cards", "got"), [("As Ks 7s 2s Qd 9d", 6), ("As Ks 7s 2s Qd 9d 4c Jc", 8)]
)
def test_clause_01_every_hand_has_exactly_7_cards(cards: str, got: int) -> None:
    with pytest.raises(RuleError) as error:
        settle(dp(DP_9864), player(2, cards))
    assert problems(error) == [("players[0].cards", f"seat 2: 7 cards needed, got {got}")]


# --------------------------------------------------------------------------- clauses 2-4


@pytest.mark.parametrize(
    ("cards", "hand"),
    [
        ("Tc 4c 2c 9d 8d 7d Ah", "3-card flush T-4-2"),  # two 3-card suits: the better plays
        ("6c 5c 4c 2c Ad Kd Jh", "4-card flush 6-5-4-2"),  # length beats rank
    ],
)
def test_clause_02_longest_then_best_suit_beats_the_dp(cards: str, hand: str) -> None:
    result = settle(dp(DP_987), player(2, cards))
    assert result.seat(2).hand == hand
    assert lines(result.seat(2)) == {"ante": ("win", 10), "raise": ("win", 10)}


def test_clause_02_a_two_card_flush_is_a_hand() -> None:
    result = settle(dp(DP_862), player(2, "Ah Kh Qs Js Td 9d 4c"))
    assert result.seat(2).hand == "2-card flush A-K"


def test_clause_03_a_t_5_beats_a_suited_k_q_j() -> None:
    result = settle(dp("Kh Qh Jh 2s 3d 4c 7d"), player(2, "As Ts 5s 2d 3c 4h 7c"))
    assert result.seat(1).extra["straight_flush"] == "3-card straight flush K-Q-J"
    assert lines(result.seat(2)) == {"ante": ("win", 10), "raise": ("win", 10)}


def test_clause_04_equal_flushes_in_different_suits_push() -> None:
    result = settle(dp("Kh Qh Jh Th 3s 5d 6c"), player(4, "Ks Qs Js Ts 2c 4d 7c"))
    assert lines(result.seat(4)) == {"ante": ("push", 0), "raise": ("push", 0)}
    assert (
        "Seat 4: 4-card flush K-Q-J-T ties the designated player's 4-card flush K-Q-J-T; "
        "ante and raise push." in result.explanation
    )


# --------------------------------------------------------------------------- clause 5


def test_clause_05_bonus_bets_are_optional() -> None:
    entry = player(2, "Ac Kc 2c Qd 9d 3h 4s")
    assert "flush_bonus" not in entry
    result = settle(dp(DP_987), entry)
    assert [line.wager for line in result.seat(2).lines] == ["ante", "raise"]


@pytest.mark.parametrize(
    ("ante", "message"),
    [
        (400, "seat 2: ante 400 is below the table minimum 500"),
        (6000, "seat 2: ante 6000 is above the table maximum 5000"),
        (0, "seat 2: ante must be more than 0"),
    ],
)
def test_clause_05_ante_within_the_table_limits(ante: int, message: str) -> None:
    with pytest.raises(RuleError) as error:
        settle(
            dp(DP_987),
            player(2, "Ac Kc 2c Qd 9d 3h 4s", ante=ante),
            ante_min=500,
            ante_max=5000,
        )
    assert problems(error) == [("players[0].ante", message)]


# --------------------------------------------------------------------------- clause 6

LENGTH_HANDS = {
    2: "Ah Kh Qs Js Td 9d 8c",
    3: "Ac Kc 2c Qd 9d 3h 4s",
    4: "As Ks 7s 2s Qd 9d 4c",
    5: "Ad Jd 9d 6d 3d 2c 5c",
    6: "Jd 9d 6d 5d 3d 2d Ac",
    7: "2h 4h 6h 8h Th Qh Ah",
}
DP_QJ9 = "Qc Jc 9c 7h 5h 8s 3s"  # 3-card flush Q-J-9: qualifies; shares no card with the above


def test_clause_06_raise_above_1x_ante_with_4_card_flush_is_rejected() -> None:
    with pytest.raises(RuleError) as error:
        settle(dp(DP_QJ9), player(3, LENGTH_HANDS[4], ante=2000, raise_=4000))
    assert problems(error) == [
        ("players[0].raise", "seat 3: raise 4000 exceeds 1x ante for a 4-card flush")
    ]


@pytest.mark.parametrize(
    ("length", "most"), [(2, 1), (3, 1), (4, 1), (5, 2), (6, 3), (7, 3)], ids=lambda v: str(v)
)
def test_clause_06_the_largest_raise_is_accepted_and_one_chip_more_rejected(
    length: int, most: int
) -> None:
    result = settle(dp(DP_QJ9), player(2, LENGTH_HANDS[length], ante=100, raise_=100 * most))
    assert result.seat(2).lines[1].stake == 100 * most
    with pytest.raises(RuleError) as error:
        settle(dp(DP_QJ9), player(2, LENGTH_HANDS[length], ante=100, raise_=100 * most + 1))
    assert problems(error) == [
        (
            "players[0].raise",
            f"seat 2: raise {100 * most + 1} exceeds {most}x ante for a {length}-card flush",
        )
    ]


def test_clause_06_a_raise_between_the_bounds_need_not_be_a_whole_multiple() -> None:
    result = settle(dp(DP_QJ9), player(2, LENGTH_HANDS[5], ante=10, raise_=15))
    assert lines(result.seat(2)) == {"ante": ("win", 10), "raise": ("win", 15)}


def test_clause_06_a_raise_below_1x_ante_is_rejected() -> None:
    with pytest.raises(RuleError) as error:
        settle(dp(DP_QJ9), player(2, LENGTH_HANDS[6], ante=10, raise_=5))
    assert problems(error) == [
        ("players[0].raise", "seat 2: raise 5 is below the minimum of 1x ante (10); 0 means fold")
    ]


def test_clause_06_fold_loses_the_ante_and_every_bonus() -> None:
    result = settle(
        dp(DP_QJ9),
        player(2, LENGTH_HANDS[7], raise_=0, flush_bonus=5, straight_flush_bonus=5),
    )
    seat = result.seat(2)
    assert seat.status is SeatStatus.FOLDED
    assert lines(seat) == {
        "ante": ("lose", -10),
        "flush_bonus": ("lose", -5),
        "straight_flush_bonus": ("lose", -5),
    }
    assert nets(result) == {1: 20, 2: -20}
    assert (
        "Seat 2 folds with a 7-card flush A-Q-T-8-6-4-2: ante 10, flush bonus 5, "
        "straight flush bonus 5 lost." in result.explanation
    )


# --------------------------------------------------------------------------- clauses 7-9


@pytest.mark.parametrize(
    ("dealer", "qualifies"),
    [(DP_987, True), (DP_862, False), (DP_Q963, True), ("Ah Kh Qs Js Td 9d 8c", False)],
)
def test_clause_07_dp_qualifies_with_a_3_card_9_high_flush_or_better(
    dealer: str, qualifies: bool
) -> None:
    result = settle(dp(dealer), player(2, "2h 4h 6h 3s 5s Tc Jc"))
    assert result.seat(1).extra["qualifies"] is qualifies
    word = "qualifies" if qualifies else "does not qualify"
    assert word in result.explanation[0]


def test_clause_07_the_qualifier_is_a_rule() -> None:
    strict = {"qualify_length": 4, "qualify_high_rank": 12}
    result = settle(dp(DP_987), player(2, "2h 4h 6h 3s 5s Tc Jc"), **strict)
    assert result.seat(1).extra["qualifies"] is False
    assert "it needs a 4-card flush Q-high or better, or any 5+ card flush" in result.explanation[0]


def test_clause_08_dp_not_qualifying_pays_the_ante_and_pushes_the_raise_even_to_a_worse_hand() -> (
    None
):
    result = settle(dp(DP_862), player(2, "Ah Kh Qs Js Td 9d 4c"))
    assert lines(result.seat(2)) == {"ante": ("win", 10), "raise": ("push", 0)}
    assert (
        "Seat 2: 2-card flush A-K; the designated player does not qualify, "
        "so ante wins 10 and raise 10 pushes." in result.explanation
    )


@pytest.mark.parametrize(
    ("cards", "outcome", "amount"),
    [
        ("Ac Kc 2c Qd 9d 3h 4s", "win", 10),
        ("9c 8c 7c Kd Qd 2h 3s", "push", 0),
        ("9d 8d 6d Kc Qs 2h 4s", "lose", -10),
    ],
    ids=["better", "tie", "worse"],
)
def test_clause_09_dp_qualifies_ante_and_raise_follow_the_comparison(
    cards: str, outcome: str, amount: int
) -> None:
    result = settle(dp(DP_987), player(2, cards))
    assert lines(result.seat(2)) == {"ante": (outcome, amount), "raise": (outcome, amount)}
    assert (
        result.seat(1).lines[0].outcome == {"win": "lose", "lose": "win", "push": "push"}[outcome]
    )


# --------------------------------------------------------------------------- clause 10


@pytest.mark.parametrize(
    ("cards", "odds"),
    [
        ("Ac Kc 5c 4c Jd 6h 4d", 2),
        ("Ad Jd 9d 6d 4d 2c 5c", 10),
        ("Jd 9d 6d 5d 4d Td Ac", 50),
        ("2h 4h 6h 8h Th Jh Ah", 200),
    ],
    ids=["4-card", "5-card", "6-card", "7-card"],
)
def test_clause_10_flush_bonus_pays_the_player_s_length(cards: str, odds: int) -> None:
    result = settle(dp(DP_987), player(2, cards, flush_bonus=5))
    line = result.seat(2).lines[2]
    assert (line.wager, str(line.outcome), line.amount, line.odds) == (
        "flush_bonus",
        "win",
        5 * odds,
        f"{odds}:1",
    )
    assert result.seat(2).net == 20 + 5 * odds


def test_clause_10_flush_bonus_pushes_on_an_exact_tie() -> None:
    result = settle(dp("Kh Qh Jh Th 3s 5d 6c"), player(2, "Ks Qs Js Ts 2c 4d 7c", flush_bonus=5))
    assert lines(result.seat(2))["flush_bonus"] == ("push", 0)
    assert "Seat 2: flush bonus pushes; the flushes tie." in result.explanation


def test_clause_10_flush_bonus_loses_to_a_better_dp_flush() -> None:
    result = settle(dp("Ks Qs 8s 4s 3s 7h 2c"), player(2, "Ah Kh 6h 2h Qd 9d 4c", flush_bonus=5))
    assert lines(result.seat(2)) == {
        "ante": ("lose", -10),
        "raise": ("lose", -10),
        "flush_bonus": ("lose", -5),
    }


def test_clause_10_flush_bonus_needs_a_4_card_flush() -> None:
    result = settle(dp(DP_862), player(2, "Ac Kc 2c Qd 9d 3h 4s", flush_bonus=5))
    line = result.seat(2).lines[2]
    assert (str(line.outcome), line.amount, line.odds) == ("lose", -5, None)
    assert "Seat 2: flush bonus loses 5; it needs at least a 4-card flush." in result.explanation


# --------------------------------------------------------------------------- clause 11


@pytest.mark.parametrize(
    ("cards", "odds"),
    [
        ("9s 8s 7s Kh Qd 4d 5h", 8),
        ("Ts 9s 8s 7s Kh 4d 5h", 60),
        ("Js Ts 9s 8s 7s Kh 4d", 100),
        ("Qs Js Ts 9s 8s 7s Kh", 500),
        ("Ks Qs Js Ts 9s 8s 7s", 1000),
    ],
    ids=["3", "4", "5", "6", "7"],
)
def test_clause_11_straight_flush_bonus_pays_the_player_s_run(cards: str, odds: int) -> None:
    result = settle(dp(DP_Q963), player(2, cards, straight_flush_bonus=5))
    assert lines(result.seat(2))["straight_flush_bonus"] == ("win", 5 * odds)
    assert result.seat(2).lines[-1].odds == f"{odds}:1"


def test_clause_11_equal_run_and_top_wins_for_the_player() -> None:
    result = settle(dp(DP_987), player(2, "9c 8c 7c Kd Qd 2h 3s", straight_flush_bonus=5))
    assert lines(result.seat(2)) == {
        "ante": ("push", 0),
        "raise": ("push", 0),
        "straight_flush_bonus": ("win", 40),
    }
    assert (
        "Seat 2: straight flush bonus wins 40 at 8:1; 3-card straight flush 9-8-7 ties the "
        "designated player's 3-card straight flush 9-8-7." in result.explanation
    )


@pytest.mark.parametrize(
    ("dealer", "cards"),
    [
        (DP_987, "8c 7c 6c Kd Qd 2h 3s"),  # equal length, lower top
        ("Kh Qh Jh Th 3s 5d 6c", "Ac Kc Qc 2d 4h 7s 9d"),  # shorter run, higher top
    ],
    ids=["lower-top", "shorter"],
)
def test_clause_11_straight_flush_bonus_loses_to_a_better_dp_run(dealer: str, cards: str) -> None:
    result = settle(dp(dealer), player(2, cards, straight_flush_bonus=5))
    assert lines(result.seat(2))["straight_flush_bonus"] == ("lose", -5)


def test_clause_11_a_longer_run_beats_a_higher_top() -> None:
    result = settle(
        dp("Ah Kh Qh 7c 9d Td 2s"), player(2, "5c 4c 3c 2c Kd 8s 9s", straight_flush_bonus=5)
    )
    assert lines(result.seat(2))["straight_flush_bonus"] == ("win", 300)


@pytest.mark.parametrize(
    ("cards", "run"),
    [
        ("Ah 2h 3h Jd 9s 7s 5d", "3-card straight flush 3-2-A"),
        ("Jh Ah Kh Qh 4d 9s 7s", "4-card straight flush A-K-Q-J"),
        ("9h 8h 7h Ad Jd 5d 3d", "3-card straight flush 9-8-7"),  # not the flush suit
    ],
    ids=["A-2-3", "Q-K-A", "off-suit"],
)
def test_clause_11_ace_low_ace_high_and_off_flush_runs_count(cards: str, run: str) -> None:
    result = settle(dp(DP_Q963), player(2, cards, straight_flush_bonus=5))
    assert result.seat(2).extra["straight_flush"] == run
    assert lines(result.seat(2))["straight_flush_bonus"][0] == "win"


def test_clause_11_k_a_2_is_not_a_straight_flush() -> None:
    result = settle(dp(DP_Q963), player(2, "Kh Ah 2h Jd 9s 7s 5d", straight_flush_bonus=5))
    line = result.seat(2).lines[-1]
    assert (str(line.outcome), line.amount, line.odds) == ("lose", -5, None)
    assert result.seat(2).extra["straight_flush"] is None
    assert (
        "Seat 2: straight flush bonus loses 5; it needs a straight flush of at least 3 cards "
        "and the best run is 2." in result.explanation
    )


# --------------------------------------------------------------------------- clause 12


def test_clause_12_bonuses_are_judged_when_the_dp_does_not_qualify() -> None:
    result = settle(
        dp(DP_862), player(2, "Ah Kh Qh Jh 9s 4d 2s", flush_bonus=5, straight_flush_bonus=5)
    )
    assert lines(result.seat(2)) == {
        "ante": ("win", 10),
        "raise": ("push", 0),
        "flush_bonus": ("win", 10),
        "straight_flush_bonus": ("win", 300),
    }
    assert nets(result) == {1: -320, 2: 320}


def test_clause_12_only_the_highest_line_not_above_the_length_pays() -> None:
    table = {"flush_paytable": {"7": 200, "5": 10}}
    six = settle(dp(DP_987), player(2, "Jd 9d 6d 5d 4d Td Ac", flush_bonus=5), **table)
    assert lines(six.seat(2))["flush_bonus"] == ("win", 50)
    assert six.seat(2).lines[2].odds == "10:1"
    four = settle(dp(DP_987), player(2, "Ac Kc 5c 4c Jd 6h 4d", flush_bonus=5), **table)
    assert lines(four.seat(2))["flush_bonus"] == ("lose", -5)


CAP_PLAYER = player(2, "9s 8s 7s 6s 5s 4s Ad", raise_=30, flush_bonus=10, straight_flush_bonus=10)
CAP_DP = dp("Ah Kh Qh 2c 3d 4d 5c")


def test_clause_12_uncapped_winnings_of_the_cap_hand() -> None:
    result = settle(CAP_DP, CAP_PLAYER, max_payout_per_hand=5540)
    assert lines(result.seat(2)) == {
        "ante": ("win", 10),
        "raise": ("win", 30),
        "flush_bonus": ("win", 500),
        "straight_flush_bonus": ("win", 5000),
    }
    assert all("capped_from" not in line.extra for line in result.seat(2).lines)


@pytest.mark.parametrize(
    ("cap", "amounts"),
    [
        (
            1000,
            {
                "ante": (10, None),
                "raise": (30, None),
                "flush_bonus": (500, None),
                "straight_flush_bonus": (460, 5000),
            },
        ),
        (
            400,
            {
                "ante": (10, None),
                "raise": (30, None),
                "flush_bonus": (360, 500),
                "straight_flush_bonus": (0, 5000),
            },
        ),
        (
            20,
            {
                "ante": (10, None),
                "raise": (10, 30),
                "flush_bonus": (0, 500),
                "straight_flush_bonus": (0, 5000),
            },
        ),
        (
            5,
            {
                "ante": (5, 10),
                "raise": (0, 30),
                "flush_bonus": (0, 500),
                "straight_flush_bonus": (0, 5000),
            },
        ),
    ],
)
def test_clause_12_payout_cap_cuts_bonuses_first_and_records_the_cut(
    cap: int, amounts: dict[str, tuple[int, int | None]]
) -> None:
    result = settle(CAP_DP, CAP_PLAYER, max_payout_per_hand=cap)
    seat = result.seat(2)
    assert {
        line.wager: (line.amount, line.extra.get("capped_from")) for line in seat.lines
    } == amounts
    assert seat.net == cap
    assert any(
        sentence.startswith(
            f"Seat 2: winnings 5540 exceed the maximum payout per hand {cap}; cut by {5540 - cap}"
        )
        for sentence in result.explanation
    )
    assert seat.to_dict()["lines"][3]["capped_from"] == 5000


def test_clause_12_the_cap_counts_winnings_not_losses() -> None:
    result = settle(
        dp(DP_Q963),
        player(2, "As Ks 7s 4s Qd Jd 4h", straight_flush_bonus=5),
        max_payout_per_hand=15,
    )
    assert lines(result.seat(2)) == {
        "ante": ("win", 10),
        "raise": ("win", 5),
        "straight_flush_bonus": ("lose", -5),
    }
    assert result.seat(2).net == 10


# --------------------------------------------------------------------------- clause 13

# DP seat 3 with a 4-card flush; every player antes and raises 10, so each hand is worth 20.
COVERAGE_TABLE = (
    player(1, "Ad Kd Qd 2s 3s 7c 8c"),  # 3-card flush: loses 20
    player(2, "As Ks Qs Js 9s 2d 4c"),  # 5-card flush: wins 20
    player(5, "Th 7h 5h 3h 2h 8s 7s"),  # 5-card flush: wins 20
    player(6, "Ac Kc Qc Jc 9c 6s 4d"),  # 5-card flush: wins 20
)


def _statuses(result: Any) -> dict[int, str]:
    return {seat.seat: str(seat.status) for seat in result.seats}


@pytest.mark.parametrize(
    ("coverage", "bank", "dead", "dp_net"),
    [
        ("running", 20, [5], -20),  # 2 paid from the bank, 1's loss then pays 6
        ("running", 10, [2, 5], 0),  # 2 is more than the bank; 1's loss pays 6
        ("running", 60, [], -40),
        ("original_bank", 20, [5, 6], 0),  # 1's loss does not add to what can be paid
        ("original_bank", 60, [], -40),
    ],
)
def test_clause_13_bank_coverage_in_settlement_order(
    coverage: str, bank: int, dead: list[int], dp_net: int
) -> None:
    result = settle(dp(DP_9864, seat=3, bank=bank), *COVERAGE_TABLE, coverage=coverage)
    assert result.extra["order"] == [2, 1, 6, 5]
    assert [seat for seat, status in _statuses(result).items() if status == "dead"] == dead
    assert result.seat(3).net == dp_net
    assert result.seat(3).extra["bank_after"] == bank + dp_net
    assert result.seat(3).extra["bank_after"] >= 0


def test_clause_13_a_dead_hand_returns_every_bet_and_has_no_dp_line() -> None:
    result = settle(
        dp(DP_9864, seat=3, bank=20), *COVERAGE_TABLE, coverage="running", rake={"amount": 1}
    )
    seat = result.seat(5)
    assert seat.status is SeatStatus.DEAD
    assert [(str(line.outcome), line.amount) for line in seat.lines] == [("dead", 0), ("dead", 0)]
    assert (seat.rake, seat.net) == (0, 0)
    assert 5 not in {line.extra["against"] for line in result.seat(3).lines}
    assert (
        "Seat 5: dead hand, all bets returned; the designated player's bank cannot cover the 20 "
        "it would win (only 0 available)." in result.explanation
    )


def test_clause_13_original_bank_dp_may_not_win_more_than_the_bank() -> None:
    losers = (player(3, "Ad Kd Qd 2s 3s 7c 8c"), player(2, "Jd Td 9d 4s 6s 5c 6c"))
    running = settle(dp(DP_9864, bank=20), *losers, coverage="running")
    assert nets(running) == {1: 40, 2: -20, 3: -20}
    capped = settle(dp(DP_9864, bank=20), *losers, coverage="original_bank")
    assert capped.extra["order"] == [3, 2]
    assert nets(capped) == {1: 20, 2: 0, 3: -20}
    assert capped.seat(2).status is SeatStatus.DEAD
    assert (
        "Seat 2: dead hand, all bets returned; the designated player may not win more than the "
        "original bank 20 (already up 20, this hand would take 20)." in capped.explanation
    )


def test_clause_13_a_folded_hand_takes_its_turn_and_funds_later_seats() -> None:
    winner = player(1, "As Ks Qs Js 9s 2d 4c")
    folder = player(2, "Ad Kd Qd 2s 3s 7c 8c", raise_=0, flush_bonus=10)
    alone = settle(dp(DP_9864, seat=3, bank=0), winner)
    assert alone.seat(1).status is SeatStatus.DEAD
    funded = settle(dp(DP_9864, seat=3, bank=0), winner, folder)
    assert funded.extra["order"] == [2, 1]
    assert nets(funded) == {1: 20, 2: -20, 3: 0}


def test_clause_13_a_hand_worth_nothing_is_never_dead() -> None:
    result = settle(dp(DP_987, bank=0), player(2, "9c 8c 7c Kd Qd 2h 3s"), coverage="original_bank")
    assert result.seat(2).status is SeatStatus.SETTLED


# --------------------------------------------------------------------------- clause 14

RAKE_TABLE = (
    player(2, "Ac Kc 2c Qd 9d 3h 4s"),  # beats 9-8-7: wins 20
    player(3, "Ad Jd 5d 4h 6h 5c 6c", raise_=0),  # folds: loses 10
)


@pytest.mark.parametrize(
    ("scheme", "fees"),
    [
        ("per_player", {1: 5, 2: 5, 3: 5}),
        ("per_player_except_dp", {1: 0, 2: 5, 3: 5}),
        ("dp_only", {1: 5, 2: 0, 3: 0}),
    ],
)
def test_clause_14_rake_schemes(scheme: str, fees: dict[int, int]) -> None:
    result = settle(dp(DP_987), *RAKE_TABLE, rake={"scheme": scheme, "amount": 5})
    assert {seat.seat: seat.rake for seat in result.seats} == fees
    assert result.rake == sum(fees.values())
    assert nets(result) == {1: -10 - fees[1], 2: 20 - fees[2], 3: -10 - fees[3]}
    assert result.to_dict()["rake"] == sum(fees.values())


@pytest.mark.parametrize("scheme", ["per_player", "dp_only"])
def test_clause_14_no_rake_when_every_player_hand_is_dead(scheme: str) -> None:
    result = settle(dp(DP_987, bank=0), RAKE_TABLE[0], rake={"scheme": scheme, "amount": 5})
    assert result.seat(2).status is SeatStatus.DEAD
    assert result.rake == 0
    assert "No rake on dead hands: seat 2." in result.explanation


BANDS = {
    "bands": [
        {"up_to": 10, "amount": 1},
        {"up_to": 100, "amount": 5},
        {"up_to": None, "amount": 20},
    ]
}


def test_clause_14_banded_rake_by_ante() -> None:
    table = (
        player(2, "Ac Kc 2c Qd 9d 3h 4s", ante=10),
        player(3, "Ad Jd 5d 4h 6h 5c 6c", ante=50),
        player(4, "As Ks Qs 2h Jc Tc 8c", ante=150, raise_=0),
    )
    result = settle(dp(DP_987), *table, rake=BANDS)
    assert {seat.seat: seat.rake for seat in result.seats} == {1: 20, 2: 1, 3: 5, 4: 20}
    assert (
        "Rake: seat 4 pays 20, seat 3 pays 5, seat 2 pays 1, the designated player pays 20; total 46."
        in result.explanation
    )


def test_clause_14_banded_rake_dp_fee_ignores_dead_hands() -> None:
    table = (player(2, "Ac Kc 2c Qd 9d 3h 4s", ante=10), player(3, "Ad Jd Td 4d 6h 5c 6c", ante=50))
    result = settle(dp(DP_987, bank=20), *table, rake=BANDS)
    assert result.seat(3).status is SeatStatus.DEAD
    assert {seat.seat: seat.rake for seat in result.seats} == {1: 1, 2: 1, 3: 0}


def test_clause_14_an_ante_above_a_closed_top_band_is_rejected() -> None:
    with pytest.raises(RuleError) as error:
        settle(
            dp(DP_987),
            player(2, "Ac Kc 2c Qd 9d 3h 4s", ante=200),
            rake={"bands": [{"up_to": 100, "amount": 5}]},
        )
    assert problems(error) == [
        ("players[0].ante", "seat 2: ante 200 is above the rake schedule's top band (up to 100)")
    ]


# --------------------------------------------------------------------------- the settlement's shape


def test_settlement_shape_and_dp_mirror_lines() -> None:
    result = settle(
        dp(DP_987, seat=4, bank=1000),
        player(2, "Ac Kc 5c 4c Jd 6h 4d", flush_bonus=5),
        player(6, "9d 8d 6d Jc Qs 2h 4s", raise_=0),
        rake={"amount": 1},
    )
    data = result.to_dict()
    assert data["game"] == "high-card-flush"
    assert data["rules"] == Rules.from_dict({"rake": {"amount": 1}}).to_dict()
    assert [seat["seat"] for seat in data["seats"]] == [2, 4, 6]
    assert data["order"] == [2, 6]
    dealer = data["seats"][1]
    assert dealer["role"] == "designated_player" and dealer["status"] == "settled"
    assert (dealer["bank"], dealer["bank_after"], dealer["qualifies"]) == (1000, 980, True)
    assert dealer["lines"] == [
        {
            "wager": "ante",
            "stake": 10,
            "outcome": "lose",
            "amount": -10,
            "odds": "1:1",
            "against": 2,
        },
        {
            "wager": "raise",
            "stake": 10,
            "outcome": "lose",
            "amount": -10,
            "odds": "1:1",
            "against": 2,
        },
        {
            "wager": "flush_bonus",
            "stake": 5,
            "outcome": "lose",
            "amount": -10,
            "odds": "2:1",
            "against": 2,
        },
        {"wager": "ante", "stake": 10, "outcome": "win", "amount": 10, "odds": "1:1", "against": 6},
    ]
    assert (dealer["rake"], dealer["net"]) == (1, -21)
    assert data["seats"][0]["net"] == 29 and data["seats"][2]["net"] == -11
    assert data["seats"][0]["cards"] == ["Ac", "Kc", "5c", "4c", "Jd", "6h", "4d"]
    assert sum(seat["net"] for seat in data["seats"]) + data["rake"] == 0
    assert (
        data["explanation"][-1]
        == "Rake: seat 2 pays 1, seat 6 pays 1, the designated player pays 1; total 3."
    )


def test_input_cards_are_echoed_canonically() -> None:
    result = evaluate(
        {
            "designated_player": {
                "seat": 1,
                "bank": 100,
                "cards": ["9S", "8s", "7s", "kh", "QH", "2d", "3c"],
            },
            "players": [
                {
                    "seat": 2,
                    "cards": ["10c", "4c", "2c", "9d", "8d", "7d", "ah"],
                    "ante": 10,
                    "raise": 10,
                }
            ],
        }
    )
    assert result.seat(1).cards == ("9s", "8s", "7s", "Kh", "Qh", "2d", "3c")
    assert result.seat(2).cards == ("Tc", "4c", "2c", "9d", "8d", "7d", "Ah")
    assert result.seat(2).hand == "3-card flush T-4-2"
