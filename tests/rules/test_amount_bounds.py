"""One maximum for every amount an engine reads, and no settlement figure it cannot store.

Amounts above ``MAX_AMOUNT`` (10**12 minor units) are refused with a RuleError naming the
field and the maximum, so a hand that was accepted can always be settled; and
``Settlement.check_conserved`` refuses any figure that could not be stored (no Django here).
"""

from __future__ import annotations

from typing import Any

import pytest

from casino.rules import five_card_draw, high_card_flush, paiute, palace_poker, pontoon
from casino.rules.contract import registry
from casino.rules.errors import RuleError
from casino.rules.options import MAX_AMOUNT, MAX_CHIP
from casino.rules.settlement import (
    MAX_SETTLED_FIGURE,
    Line,
    Outcome,
    Role,
    SeatResult,
    SeatStatus,
    Settlement,
)
from tests.rules import draw_helpers as draw
from tests.rules import helpers as hcf
from tests.rules import palace_helpers as palace
from tests.rules import pontoon_helpers as pont

HUGE = 10**30
TOO_BIG = MAX_AMOUNT + 1
MAXIMUM = str(MAX_AMOUNT)

DP_CARDS = "As Ks 9s 5s 2d 3c 4h"
P2_CARDS = "Ah Kh 7h 2h Qd 9c 4c"


def problems_of(call: Any) -> dict[str, str]:
    """The problems a call raises, as ``{path: message}``."""
    with pytest.raises(RuleError) as error:
        call()
    return {problem.path: problem.message for problem in error.value.problems}


def test_the_maximum_is_ten_to_the_twelve_minor_units():
    assert MAX_AMOUNT == 10**12
    assert MAX_SETTLED_FIGURE * 9000 < 2**63  # storable even summed over a table


# --------------------------------------------------------------------------- Five Card Draw 7-A


def test_a_7a_stack_of_10_to_the_30_is_refused_naming_the_seat_and_the_maximum():
    record = draw.record(draw.seat(1, "As Ad Ac Kh Kd", stack=HUGE), draw.seat(2, "7s 8d 9c Jh Qd"))
    found = problems_of(lambda: five_card_draw.evaluate(record))
    assert found == {"seats[0].stack": f"seat 1: stack {HUGE} is above the maximum of {MAXIMUM}"}


def test_a_7a_stack_at_the_maximum_plays_and_settles():
    record = draw.record(
        draw.seat(1, "As Ad Ac Kh Kd", stack=MAX_AMOUNT),
        draw.seat(2, "7s 8d 9c Jh Qd", stack=MAX_AMOUNT),
        actions=[draw.fold(1)],
    )
    settlement = five_card_draw.evaluate(record)
    assert sum(seat.net for seat in settlement.seats) + settlement.rake == 0


@pytest.mark.parametrize("field", ["small_blind", "big_blind", "big_bet"])
def test_7a_blinds_and_bets_above_the_maximum_are_refused(field):
    record = draw.record(draw.seat(1, "As Ad Ac Kh Kd"), draw.seat(2, "7s 8d 9c Jh Qd"))
    record[field] = TOO_BIG
    found = problems_of(lambda: five_card_draw.evaluate(record))
    assert MAXIMUM in found[field]


def test_7a_rake_cap_above_the_maximum_is_one_problem_at_its_path():
    found = problems_of(lambda: five_card_draw.parse_rules({"rake": {"percent": 5, "cap": HUGE}}))
    assert found == {"rules.rake.cap": f"rake cap {HUGE} is above the maximum of {MAXIMUM}"}


# --------------------------------------------------------------------------- High Card Flush


@pytest.mark.parametrize("wager", ["flush_bonus", "straight_flush_bonus", "ante", "raise"])
def test_a_hcf_wager_of_2_to_the_63_is_refused_naming_the_field(wager):
    player = hcf.player(2, P2_CARDS, ante=1000)
    player[wager] = 2**63
    record = hcf.record(hcf.dp(DP_CARDS), player)
    found = problems_of(lambda: high_card_flush.evaluate(record))
    assert f"players[0].{wager}" in found
    assert MAXIMUM in found[f"players[0].{wager}"]


def test_a_hcf_bank_above_the_maximum_is_refused():
    record = hcf.record(hcf.dp(DP_CARDS, bank=TOO_BIG), hcf.player(2, P2_CARDS))
    found = problems_of(lambda: high_card_flush.evaluate(record))
    assert found["designated_player.bank"] == (
        f"designated player bank {TOO_BIG} is above the maximum of {MAXIMUM}"
    )


def test_hcf_amounts_at_the_maximum_settle_within_the_storable_bound():
    player = hcf.player(
        2, P2_CARDS, ante=MAX_AMOUNT, flush_bonus=MAX_AMOUNT, straight_flush_bonus=MAX_AMOUNT
    )
    rules = {"flush_paytable": {"7": 10_000, "4": 10_000}}
    settlement = high_card_flush.evaluate(
        hcf.record(hcf.dp(DP_CARDS, bank=MAX_AMOUNT), player), rules
    )
    assert all(abs(seat.net) <= MAX_SETTLED_FIGURE for seat in settlement.seats)


@pytest.mark.parametrize(
    ("rules", "path"),
    [
        ({"rake": {"scheme": "per_player", "amount": HUGE}}, "rules.rake.amount"),
        ({"rake": {"bands": [{"up_to": HUGE, "amount": 10}]}}, "rules.rake.bands[0].up_to"),
        ({"rake": {"bands": [{"up_to": None, "amount": HUGE}]}}, "rules.rake.bands[0].amount"),
        ({"max_payout_per_hand": HUGE}, "rules.max_payout_per_hand"),
        ({"ante_max": HUGE}, "rules.ante_max"),
        ({"bank_max": HUGE}, "rules.bank_max"),
    ],
)
def test_hcf_rules_amounts_above_the_maximum_are_refused_at_their_path(rules, path):
    found = problems_of(lambda: high_card_flush.parse_rules(rules))
    assert list(found) == [path]
    assert found[path].endswith(f"{HUGE} is above the maximum of {MAXIMUM}")


def test_hcf_pay_table_odds_are_capped_at_10000_to_1():
    assert high_card_flush.parse_rules({"flush_paytable": {"7": 10_000}})["flush_paytable"] == {
        "7": 10_000
    }
    found = problems_of(lambda: high_card_flush.parse_rules({"flush_paytable": {"7": 10_001}}))
    assert found == {
        "rules.flush_paytable.7": (
            "flush pay table odds 10001 are above the longest allowed, 10000 (10000:1)"
        )
    }


def test_rules_built_in_python_are_bounded_too():
    with pytest.raises(RuleError, match="above the maximum"):
        high_card_flush.Rules(max_payout_per_hand=HUGE)


# --------------------------------------------------------------------------- Pontoon


def test_a_pontoon_stake_above_the_maximum_is_refused_in_a_record_and_live():
    record = pont.record(pont.banker("Th 9h"), pont.player(1, pont.hand("Ah Kh"), stake=HUGE))
    found = problems_of(lambda: pontoon.evaluate(record))
    assert MAXIMUM in found["players[0].stake"]

    live = pont.live()
    pont.act(live, pont.deal(1, "Ah"), pont.deal(2, "Kd"), pont.deal(9, "Th"))
    with pytest.raises(RuleError, match=f"above the maximum of {MAXIMUM}"):
        pont.act(live, pont.stake(1, TOO_BIG))


def test_a_pontoon_kitty_above_the_maximum_is_refused():
    record = pont.record(pont.banker("Th 9h"), pont.player(1, pont.hand("Ah Kh")), kitty=TOO_BIG)
    found = problems_of(lambda: pontoon.evaluate(record, {"kitty_min": 100}))
    assert found["shoot.kitty"] == f"kitty {TOO_BIG} is above the maximum of {MAXIMUM}"


def test_pontoon_stake_limits_above_the_maximum_are_refused():
    found = problems_of(lambda: pontoon.parse_rules({"stake_max": HUGE}))
    assert list(found) == ["rules.stake_max"]


# --------------------------------------------------------------------------- Paiute, Palace


def test_a_paiute_ante_above_the_maximum_is_refused():
    found = problems_of(lambda: paiute.parse_rules({"ante_max": HUGE}))
    assert list(found) == ["rules.ante_max"]
    record = {"dealer": 1, "ante": TOO_BIG, "wild_card": "3c", "players": [], "caller": 1}
    found = problems_of(lambda: paiute.evaluate(record))
    assert found["ante"] == f"ante {TOO_BIG} is above the maximum of {MAXIMUM}"


def test_a_palace_stack_above_the_maximum_is_refused():
    record = palace.four()
    record["players"][0]["stack"] = HUGE
    found = problems_of(lambda: palace_poker.evaluate(record))
    assert MAXIMUM in found["players[0].stack"]


@pytest.mark.parametrize("code", list(registry()))
@pytest.mark.parametrize("chip", [MAX_CHIP + 1, HUGE])
def test_every_game_refuses_a_smallest_chip_above_its_maximum(code, chip):
    found = problems_of(lambda: registry()[code].parse_rules({"smallest_chip": chip}))
    assert found == {
        "rules.smallest_chip": f"smallest chip {chip} is above the maximum of {MAX_CHIP}"
    }


# --------------------------------------------------------------------------- the last line


def _settlement(amount: int, stake: int = 100) -> Settlement:
    winner = SeatResult(
        seat=2,
        role=Role.PLAYER,
        cards=(),
        hand=None,
        status=SeatStatus.SETTLED,
        lines=(Line("flush_bonus", stake, Outcome.WIN, amount),),
        rake=0,
    )
    loser = SeatResult(
        seat=1,
        role=Role.DESIGNATED_PLAYER,
        cards=(),
        hand=None,
        status=SeatStatus.SETTLED,
        lines=(Line("dp", 0, Outcome.LOSE, -amount),),
        rake=0,
    )
    return Settlement("test", {}, (winner, loser), ())


def test_a_settlement_figure_beyond_the_storable_bound_is_a_rule_error_naming_seat_and_wager():
    _settlement(MAX_SETTLED_FIGURE).check_conserved()  # at the bound: fine
    with pytest.raises(RuleError) as error:
        _settlement(MAX_SETTLED_FIGURE + 1).check_conserved()
    messages = [problem.message for problem in error.value.problems]
    assert messages[0].startswith(f"seat 2: flush_bonus amount {MAX_SETTLED_FIGURE + 1} is beyond")
    assert any(message.startswith("seat 1: dp amount") for message in messages)
    assert any(message.startswith("seat 2: net") for message in messages)


def test_a_stake_beyond_the_storable_bound_is_refused_too():
    with pytest.raises(RuleError, match="seat 2: flush_bonus stake"):
        _settlement(10, stake=2**63).check_conserved()
