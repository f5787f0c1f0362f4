"""Every engine marks the amounts of money in its sentences as such (:class:`Money`).

The stored English ``explanation`` is unchanged (an amount is written as its integer), but a
message's parameters say which numbers are money, so the API's edge can write them in the
house currency. These tests render each game's messages with a formatter that shows where
the amounts are (``<1000>``) and check that every amount the settlement works out is written
as money, and that nothing else is: not a seat, a rule's number, a card count, a card total
(Pontoon's 18), odds (``2:1``), a multiplier or a percentage.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.rules.contract import game
from casino.rules.errors import Problem, RuleError
from casino.rules.messages import Money, format_template, msg, render
from casino.rules.options import as_money, beyond_maximum, money_or_repr
from tests.core.test_engine_messages import PAIUTE_RAKE, PAIUTE_SHOWDOWN
from tests.rules import draw_helpers as draw
from tests.rules import palace_helpers as palace
from tests.rules import pontoon_helpers as pontoon

SAMPLES = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.nested_given],
)


def same(text: str) -> str:
    """English: every template is its own translation."""
    return text


def marked(minor: int, signed: bool) -> str:
    """Where an amount is: ``<1000>``, a net ``<-120>``."""
    return f"<{minor}>"


def marked_exactly(minor: int, signed: bool) -> str:
    """As :func:`marked`, a net with its sign as ``%(net)+d`` writes it (``<+2500>``), so
    that taking the marks away gives the English back."""
    return f"<{minor:+d}>" if signed else f"<{minor}>"


def unmarked(text: str) -> str:
    return re.sub(r"<([-+]?\d+)>", r"\1", text)


#: A number on its own in a sentence: not part of a card (``7c``), a run or a card range
#: (``A-K-9``, ``K-8``, ``5-card``), odds (``2:1``), a percentage (``10%``) or a decimal; a
#: net's sign is part of it (``net -120``).
BARE = re.compile(r"(?<![\w.:%<>+-])([-+]?)(\d+)(?![\w.:%<>-])")
#: Words before a number that is never money: a seat, a rule, a side pot's number.
NOT_MONEY_BEFORE = re.compile(r"(?i)\b(seats?|rules?|and|pot|card)\s$")


def bare_numbers(text: str) -> set[int]:
    """The absolute values of the numbers standing on their own in ``text`` (see
    :data:`BARE`), leaving out seats, rules and a side pot's number."""
    found: set[int] = set()
    for match in BARE.finditer(text):
        if NOT_MONEY_BEFORE.search(text[: match.start()]):
            continue
        found.add(int(match.group(2)))
    return found


def money_params(item: Any) -> Iterator[int]:
    """Every ``{"money": n}`` in a serialised message, nested ones too."""
    if isinstance(item, dict):
        if set(item) == {"money"}:
            yield item["money"]
            return
        for value in item.values():
            yield from money_params(value)
    elif isinstance(item, list):
        for value in item:
            yield from money_params(value)


def money_said(item: dict[str, Any]) -> Iterator[int]:
    """Every ``{"money": n}`` a serialised message writes: a parameter its template has a
    placeholder for (a sentence may carry one it does not say, ``rake`` 0), nested
    messages' in turn."""
    for key, value in item.get("params", {}).items():
        if f"%({key})" not in item["id"]:
            continue
        if isinstance(value, dict) and set(value) == {"money"}:
            yield value["money"]
        elif isinstance(value, dict) and "id" in value and "params" in value:
            yield from money_said(value)


def figures(result: dict[str, Any]) -> set[int]:
    """The settlement's own amounts: every non-zero line amount and net (the house's too)."""
    parties = [*result["seats"], *([result["house"]] if result.get("house") else [])]
    found = {line["amount"] for party in parties for line in party["lines"]}
    found |= {party["net"] for party in parties}
    return {amount for amount in found if amount}


def check_rendering(result: dict[str, Any]) -> list[str]:
    """The checks that hold for any settlement; the explanation marked (:func:`marked`)."""
    english = result["explanation"]
    messages = result["messages"]
    assert len(messages) == len(english)
    # (a) the English explanation is the messages rendered without a money formatter
    assert [render(item) for item in messages] == english
    assert [render(item, same, None) for item in messages] == english
    shown = [render(item, same, marked) for item in messages]
    # (b) amounts are marked: at least one line changes, and only where an amount is (taking
    # the marks away gives the English back, word for word and figure for figure)
    assert any(a != b for a, b in zip(shown, english, strict=True)), english
    exact = [render(item, same, marked_exactly) for item in messages]
    assert [unmarked(line) for line in exact] == english
    for item, line in zip(messages, shown, strict=True):
        for amount in money_said(item):
            assert f"<{amount}>" in line, (line, amount)
        # a seat or a rule is never written as money
        assert not re.search(r"(?i)\b(seats?|rules?) <", line), line
        if not list(money_said(item)):
            assert "<" not in line, line
    return shown


def check_amounts(result: dict[str, Any]) -> list[str]:
    """:func:`check_rendering`, and: every line amount and net the English explanation
    writes as a number of its own is written as money somewhere, and no number left
    unmarked is one of them.

    Only for the sample hands below, chosen so that no amount is also a seat, a rule's
    number or a card total (in a random hand a stake of 10 and "rule 10" could be the same
    number, one money and the other not, and the check would fail for nothing). A figure no
    sentence states (a Paiute or Palace line is a share less what was put in) is checked
    only in that no unmarked number equals it; the random hands get :func:`check_rendering`
    only."""
    shown = check_rendering(result)
    english, text = "\n".join(result["explanation"]), "\n".join(shown)
    stated = bare_numbers(english)
    assert stated, english
    for amount in figures(result):
        if abs(amount) in stated:
            assert f"<{amount}>" in text or f"<{abs(amount)}>" in text, (amount, text)
    left = bare_numbers(text)
    assert not left & {abs(amount) for amount in figures(result)}, (left, text)
    return shown


# --------------------------------------------------------------------------- the five games


def high_card_flush() -> dict[str, Any]:
    """The game's own example: a fold, a win with a flush bonus at 2:1, the bank's loss."""
    hcf = game("high-card-flush")
    return hcf.evaluate(hcf.record_example, None).to_dict()


def high_card_flush_raked_and_capped() -> dict[str, Any]:
    """Seat 3's winnings are cut to the maximum payout; every hand pays a rake of 100."""
    from tests.conftest import record

    rules = {
        "rake": {"scheme": "per_player", "amount": 100},  # the designated player pays too
        "max_payout_per_hand": 2500,
    }
    return game("high-card-flush").evaluate(record(), rules).to_dict()


def pontoon_shoot() -> dict[str, Any]:
    """Shoot Pontoon: a win, a bust, a buy, a shoot bet paid from the kitty."""
    record = pontoon.record(
        pontoon.banker("Tc 7d"),
        pontoon.player(1, pontoon.hand("Kd 8s", pontoon.stick()), stake=20),
        pontoon.player(2, pontoon.hand("Kh 6s Qs", pontoon.twist()), stake=30),
        pontoon.player(3, pontoon.hand("9c 4s 5h", pontoon.buy(40), pontoon.stick()), stake=40),
        kitty=100,
        bets=[pontoon.bet(3, 1, 50)],
    )
    return game("pontoon").evaluate(record, {"kitty_min": 100, "kitty_max": 500}).to_dict()


def five_card_draw() -> dict[str, Any]:
    """No limit: seat 3 all-in short, a main pot and a side pot, each raked."""
    record = draw.record(
        draw.seat(1, "As Ad Ac Kh Kd"),
        draw.seat(2, "7s 8d 9c Jh Qd"),
        draw.seat(3, "7h 8c 9d Js Qc", stack=700),
        structure="no_limit",
        big_bet=None,
        actions=[
            draw.raise_(1, 1000),
            draw.call(2),
            draw.call(3),
            draw.draw(2, "7s", "Ts"),
            draw.draw(3),
            draw.draw(1),
            draw.check(2),
            draw.check(1),
        ],
    )
    rules = {"rake": {"percent": 5, "cap": 300}}
    return game("five-card-draw-7a").evaluate(record, rules).to_dict()


def paiute() -> dict[str, Any]:
    """A tie split after a rake of 10% capped at 5 (the raked hand of the catalog tests)."""
    return game("paiute").evaluate(PAIUTE_SHOWDOWN, PAIUTE_RAKE).to_dict()


def paiute_worked() -> dict[str, Any]:
    """The worked example of the rules, played to its end (three calls, a split)."""
    from tests.rules.paiute_helpers import act, call, discard, take
    from tests.rules.paiute_helpers import draw as draw_card
    from tests.rules.test_paiute_presentation import worked

    hand = worked()
    act(hand, draw_card(1, "5d"), discard(1, "5d"), draw_card(2, "7d"), discard(2, "2d"))
    act(hand, take(3), discard(3, "Qd"), draw_card(1, "3d"), call(1, "As"), draw_card(2, "3h"))
    act(hand, call(2), draw_card(3, "Th"), call(3, "2d"))
    return hand.settle().to_dict()


def palace_poker() -> dict[str, Any]:
    """The rules' worked example (a battle, a raise, a showdown), raked 5% capped at 250."""
    from tests.rules.test_palace_poker_rake import EXAMPLE

    rules = {"rake": {"percent": 5, "cap": 250}}
    return game("palace-poker").evaluate(palace.four(EXAMPLE), rules).to_dict()


HANDS: dict[str, Callable[[], dict[str, Any]]] = {
    "high-card-flush": high_card_flush,
    "high-card-flush-raked-and-capped": high_card_flush_raked_and_capped,
    "pontoon-shoot": pontoon_shoot,
    "five-card-draw-7a": five_card_draw,
    "paiute": paiute,
    "palace-poker": palace_poker,
}


@pytest.mark.parametrize("name", list(HANDS))
def test_every_amount_of_a_sample_hand_is_money_and_nothing_else_is(name: str) -> None:
    check_amounts(HANDS[name]())


def test_paiute_worked_example_marks_its_amounts() -> None:
    # Paiute's lines are a seat's share less its ante, which no sentence states: the check
    # is then that every ante, pot and share the sentences state is money, and nothing else.
    result = paiute_worked()
    shown = check_rendering(result)
    text = "\n".join(shown)
    ante = result["seats"][0]["lines"][0]["stake"]
    assert f"<{ante}>" in text
    for party in result["seats"]:
        share = party["lines"][0]["share"] - party["rake"]
        if share:
            assert f"<{share}>" in text, (share, text)


def test_high_card_flush_marks_antes_raises_bonuses_and_the_bank_not_odds_or_lengths() -> None:
    shown = check_amounts(high_card_flush())
    assert shown[1] == "Seat 2 folds with a 2-card flush K-6: ante <1000> lost."
    assert shown[3] == (
        "Seat 1: flush bonus wins <1000> at 2:1; the 4-card flush beats the designated player's."
    )
    assert shown[4] == (
        "Designated player (seat 7): bank <100000>, loses <2000>, bank after the hand <98000>."
    )


def test_high_card_flush_marks_the_cap_its_cuts_and_the_rake() -> None:
    result = high_card_flush_raked_and_capped()
    text = "\n".join(check_amounts(result))
    assert "the maximum payout per hand <2500>; cut by <" in text
    assert "Rake: seat 3 pays <100>, seat 2 pays <100>, the designated player pays <100>" in text


def test_pontoon_marks_stakes_payouts_and_the_kitty_not_totals() -> None:
    shown = check_amounts(pontoon_shoot())
    text = "\n".join(shown)
    assert "Seat 1: 18 (K-8) beats the banker's 17: paid <20> (rule 13 (" in text
    assert "Seat 2: bust (26) with K-6-Q: the banker took the stake <30> at once" in text
    assert "Seat 3's shoot bet <50> is paid <50> from the kitty." in text
    assert "Kitty: <100> at the start, <50> after the hand (shoot bets lost <0> into it" in text
    assert "Banker (seat 9): net <-120>." in shown


def test_five_card_draw_marks_pots_rake_and_nets_not_the_side_pots_number() -> None:
    shown = check_amounts(five_card_draw())
    text = "\n".join(shown)
    assert "Main pot <2100> (seats 1, 2 and 3 eligible)" in text
    assert "Side pot 1 <600> (seats 1 and 2 eligible)" in text
    assert "Rake <135> (5% of each pot, capped at <300> (no draw, no drop))" in text
    assert "Seat 1: put in <1000>, takes <2565> after rake <135>; net <1565>." in shown


def test_paiute_marks_the_pot_antes_and_shares_not_the_count_or_percentage() -> None:
    shown = check_rendering(paiute())
    text = "\n".join(shown)
    assert "Pot <75>: 3 antes of <25> (rule 1 (" in text
    assert "the pot of <75> less the rake of <5> (<70>) is split (seat 1 <35>, seat 3 <35>)" in text
    assert "Rake <5> (10% of the pot, capped at <5>), taken from the pot of <75>" in text


def test_palace_poker_marks_antes_battle_money_and_the_rake() -> None:
    shown = check_amounts(palace_poker())
    text = "\n".join(shown)
    assert "Each of 4 players antes <250>." in text
    assert "Seat 1 attacks seat 2 for <1000> (battle money: seat 1 <2000>, seat 2 <1500>)" in text
    assert "Rake <250> (5% of the pot, capped at <250>)" in text
    assert "Seat 1: put in <2750>, takes <5250> after rake <250>; net <2500>." in shown


def test_an_amount_is_serialised_as_money_and_a_count_or_percentage_is_not() -> None:
    result = palace_poker()
    (ante,) = [item for item in result["messages"] if item["id"].startswith("Each of")]
    assert ante["params"] == {"count": 4, "ante": {"money": 250}}
    rake = next(item for item in result["messages"] if item["id"] == "%(rake)s (%(rule)s).")
    schedule = rake["params"]["rake"]["params"]["schedule"]
    assert schedule["params"]["percent"] == 5 and schedule["params"]["cap"] == {"money": 250}


# --------------------------------------------------------------------------- random hands


@SAMPLES
@given(st.data())
def test_random_pontoon_hands_mark_their_amounts(data: st.DataObject) -> None:
    from casino.rules.pontoon import PontoonRules
    from tests.rules.test_pontoon_properties import play, setups

    config, raw_rules = data.draw(setups())
    rng = data.draw(st.randoms(use_true_random=False))
    hand, _ = play(rng, config, PontoonRules.from_dict(raw_rules))
    check_rendering(hand.settle().to_dict())


@SAMPLES
@given(st.data())
def test_random_palace_poker_hands_mark_their_amounts(data: st.DataObject) -> None:
    from tests.rules.test_palace_poker_properties import play, tables

    record, rules, seed = data.draw(tables())
    check_rendering(play(record, rules, seed).settle().to_dict())


@SAMPLES
@given(st.data())
def test_random_high_card_flush_hands_mark_their_amounts(data: st.DataObject) -> None:
    from casino.rules.high_card_flush import evaluate
    from tests.rules.test_high_card_flush_properties import hands

    record, rules = data.draw(hands())
    check_rendering(evaluate(record, rules).to_dict())


# --------------------------------------------------------------------------- errors


def only_problem(error: pytest.ExceptionInfo[RuleError]) -> Problem:
    (problem,) = error.value.problems
    return problem


def shown(problem: Problem) -> str:
    assert problem.code is not None
    return format_template(problem.code, problem.params, same, marked)


def test_a_pontoon_stake_below_the_table_minimum_names_both_amounts_as_money() -> None:
    record = pontoon.record(
        pontoon.banker("Tc 8c"), pontoon.player(1, pontoon.hand("Kd 9d", pontoon.stick()), stake=5)
    )
    with pytest.raises(RuleError) as error:
        game("pontoon").evaluate(record, {"stake_min": 10})
    problem = only_problem(error)
    rule = "(rule 3 (“The banker, the deal and the stakes”))"
    assert problem.message == f"seat 1: stake 5 is outside the table limits: at least 10 {rule}"
    assert problem.params["seat"] == 1
    assert problem.params["amount"] == {"money": 5}
    assert problem.params["bounds"] == {"id": "at least %(low)s", "params": {"low": {"money": 10}}}
    assert shown(problem) == f"seat 1: stake <5> is outside the table limits: at least <10> {rule}"


def test_a_high_card_flush_ante_above_the_maximum_names_both_amounts_as_money() -> None:
    hcf = game("high-card-flush")
    with pytest.raises(RuleError) as error:
        hcf.evaluate(hcf.record_example, {"ante_max": 500})
    problems = [p for p in error.value.problems if p.path.endswith(".ante")]
    assert problems
    for problem in problems:
        what = problem.params["what"]
        assert what["id"] == "ante %(ante)s is above the table maximum %(most)s"
        assert what["params"] == {"ante": {"money": 1000}, "most": {"money": 500}}
        assert str(problem.message).endswith("ante 1000 is above the table maximum 500")
        assert shown(problem).endswith("ante <1000> is above the table maximum <500>")


def test_a_high_card_flush_raise_names_the_amount_as_money_not_the_multiple_or_length() -> None:
    hcf = game("high-card-flush")
    record = hcf.record_example
    record = {**record, "players": [{**record["players"][0], "raise": 4000}]}
    with pytest.raises(RuleError) as error:
        hcf.evaluate(record, None)
    problem = only_problem(error)
    assert problem.params["what"]["params"] == {
        "amount": {"money": 4000},
        "multiple": 1,
        "length": 4,
    }
    assert shown(problem) == "seat 1: raise <4000> exceeds 1x ante for a 4-card flush"


def test_a_five_card_draw_limit_raise_names_its_amounts_as_money_not_the_seat() -> None:
    record = draw.record(
        draw.seat(1, "As Ad Ac Kh Kd"),
        draw.seat(2, "7s 8d 9c Jh Qd"),
        draw.seat(3, "7h 8c 9d Js Qc"),
        actions=[draw.raise_(1, 300)],
    )
    with pytest.raises(RuleError) as error:
        game("five-card-draw-7a").evaluate(record, None)
    problem = only_problem(error)
    assert problem.path == "actions[0]"
    assert problem.params["seat"] == 1
    assert (problem.params["to"], problem.params["low"], problem.params["bet"]) == (
        {"money": 300},
        {"money": 400},
        {"money": 200},
    )
    assert shown(problem) == (
        "seat 1: raise to <300> is not the limit raise: in limit the raise is to exactly <400> "
        "(the small bet is <200>)"
    )


def test_a_palace_poker_battle_bet_below_the_minimum_is_money() -> None:
    data = palace.four([palace.battle(1, 2, 100)])
    with pytest.raises(RuleError) as error:
        game("palace-poker").evaluate(data, None)
    problem = only_problem(error)
    assert problem.params["amount"] == {"money": 100}
    assert problem.params["minimum"] == {"money": 500}
    assert problem.params["seat"] == 1
    assert "<100>" in shown(problem) and "<500>" in shown(problem)


def test_a_paiute_ante_outside_the_limits_is_money() -> None:
    with pytest.raises(RuleError) as error:
        game("paiute").evaluate(PAIUTE_SHOWDOWN, {"ante_min": 50, "ante_max": 100})
    problem = only_problem(error)
    assert problem.params["ante"] == {"money": 25}
    assert problem.params["bounds"]["params"] == {"low": {"money": 50}, "high": {"money": 100}}


def test_odds_are_not_money() -> None:
    with pytest.raises(RuleError) as error:
        game("high-card-flush").evaluate(
            game("high-card-flush").record_example, {"flush_paytable": {"7": 10**9}}
        )
    (problem,) = [p for p in error.value.problems if p.path == "rules.flush_paytable.7"]
    assert problem.params["odds"] == 10**9
    assert not list(money_params(problem.params))


def test_only_whole_numbers_are_marked_as_money() -> None:
    assert type(as_money(5)) is Money and as_money(5) == 5
    for value in (None, True, 2.5, "ten"):
        assert as_money(value) is value
    assert msg("bank %(bank)s", bank=as_money(None)) == "bank None"  # a missing one, said
    assert money_or_repr("ten") == "'ten'" and money_or_repr(True) == "True"
    assert money_or_repr(-5) == Money(-5)
    # a number beyond the bound among the settings (odds, a count) stays a number
    message = beyond_maximum(10**13, "odds", money=False)
    assert message is not None and not list(money_params(message.to_dict()))  # type: ignore[attr-defined]
    amount = beyond_maximum(10**13, "stake")
    assert amount is not None and list(money_params(amount.to_dict())) == [10**13, 10**12]  # type: ignore[attr-defined]


def test_a_refused_amount_that_is_not_a_number_is_shown_as_it_came() -> None:
    record = pontoon.record(
        pontoon.banker("Tc 8c"),
        pontoon.player(1, pontoon.hand("Kd 9d", pontoon.stick()), stake="ten"),  # type: ignore[arg-type]
    )
    with pytest.raises(RuleError) as error:
        game("pontoon").evaluate(record, None)
    problem = only_problem(error)
    assert problem.params["value"] == "'ten'"
    assert not list(money_params(problem.params))
