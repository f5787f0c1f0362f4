"""Casino War's theoretical hold comes from its own package (``theory.py``, through
``Game.theory()``): the figure is checked against the game's edge worked out exactly for its
rules, and shows on the hold page and in the approvals queue like any game's. A variant of the
game that supplies no theory (and no demo table or example record) is said, once per page, to
have no theoretical hold."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from django.urls import reverse

from approvals.models import Approval
from casino.rules import theory
from casino.rules.contract import register, unregister
from hold import services as hold_services
from hold.models import Theory
from hold.selectors import hold_charts, theory_for_change
from payouts.figures import gaming_day
from tables import live, services
from tests.conftest import seat_and_open
from tests.games.casino_war.game import GAME, CasinoWar
from tests.games.casino_war.samples import TABLE

LIMITS = TABLE["limits"]
RANKS = range(2, 15)


def exact_hold(tie_bonus: int) -> Fraction:
    """The house's win over the handle for a player who always goes to war, one deck: every
    rank of the player's card, the dealer's and, after a tie, the two war cards, weighted by
    how many cards of each rank are left. The house wins what the player loses; the handle is
    the ante, and the raise when there is a war."""
    win = handle = Fraction(0)
    for mine in RANKS:
        for theirs in RANKS:
            deal = Fraction(4 * (4 - (mine == theirs)), 52 * 51)
            if mine != theirs:
                win += -deal if mine > theirs else deal
                handle += deal
                continue
            handle += 2 * deal  # the ante and the raise
            left = {rank: 4 - 2 * (rank == mine) for rank in RANKS}
            for card in RANKS:
                first = deal * Fraction(left[card], 50)
                for other in RANKS:
                    war = first * Fraction(left[other] - (other == card), 49)
                    if card > other:
                        win -= war  # the raise wins, the ante pushes
                    elif card < other:
                        win += 2 * war  # the ante and the raise lose
                    else:
                        win -= war * (1 + tie_bonus)  # the raise wins, the ante its bonus
    return win / handle


def test_the_exact_edge_is_the_closed_form_the_rules_document_gives() -> None:
    for bonus in range(11):
        assert exact_hold(bonus) == Fraction(1006 - 146 * bonus, 44100)
    assert float(exact_hold(1)) == pytest.approx(0.019501, abs=1e-6)  # RULES.md: 1.950%


def test_the_simulated_hold_lies_in_its_interval_around_the_exact_edge() -> None:
    """Through the engine, with the package's strategy: the exact edge lies in the 95%
    interval, which is narrow enough to tell war from surrender (a player who surrendered every
    tie would give the house 3/51 x 1/2 of the handle, 2.94%)."""
    run = theory.simulate(GAME.code, LIMITS, 25, {"tie_bonus": 1}, hands=50_000)
    exact = float(exact_hold(1))
    assert run.house.low <= exact <= run.house.high, run.house
    surrendering = 3 / 51 / 2
    assert run.house.high < surrendering
    generous = theory.simulate(GAME.code, LIMITS, 25, {"tie_bonus": 10}, hands=20_000, seed=7)
    assert generous.house.low <= float(exact_hold(10)) <= generous.house.high
    assert generous.house.value < 0  # a 10:1 tie bonus: the house loses on average
    # The bonus is paid on the ante with no stake of its own: the ante's return counts it.
    assert set(run.wagers) == {"ante", "raise"} and run.wagers["ante"].value > -1


def test_the_figure_depends_on_the_tie_bonus_alone() -> None:
    def digest(limits, chip, rules):
        [spec] = theory.specs(GAME.code, limits, chip, rules)
        return spec

    base = digest(LIMITS, 25, {"tie_bonus": 1})
    assert base.measure == theory.HOUSE and base.method == theory.SIMULATION
    assert base.inputs == {"strategy": 1, "players": 6, "limits": {}, "rules": {"tie_bonus": 1}}
    assert digest({"bet_min": 500, "bet_max": 9000}, 100, {"tie_bonus": 1, "surrender": False}) == (
        base
    )
    assert digest(LIMITS, 25, {"tie_bonus": 2}).digest != base.digest


# --------------------------------------------------------------------------- on the pages


def war_table(floor, dealer, name: str, rules: dict, game: str = GAME.code):
    table = services.table_create(
        user=floor,
        name=name,
        game=game,
        seat_count=6,
        dealer=dealer,
        limits=LIMITS,
        smallest_chip=25,
        rules=rules,
    )
    return seat_and_open(floor, table, {1: "Ana", 2: "Bela", 3: "Csilla"})


def play_hands(dealer, table, hands: int, seed: int) -> None:
    """Settle ``hands`` hands through the services, as the tablet does: everyone bets the
    minimum and goes to war on a tie."""
    rng = random.Random(seed)
    for _ in range(hands):
        hand = services.hand_open(user=dealer, table_id=table.pk)
        deck = [str(card) for card in GAME.deck(3)]
        rng.shuffle(deck)
        actions = [{"type": "bet", "seat": seat, "amount": 100} for seat in (1, 2, 3)]
        actions += [{"type": "card", "seat": seat, "card": deck.pop()} for seat in (1, 2, 3, 0)]
        for action in actions:
            state = live.hand_act(user=dealer, hand_id=hand.pk, action=action)
        while state["legal_actions"]:
            first = state["legal_actions"][0]
            action = {"type": "war", "seat": first["seat"]}
            if first["type"] == "war_cards":
                action = {**first, "card": deck.pop(), "dealer_card": deck.pop()}
            state = live.hand_act(user=dealer, hand_id=hand.pk, action=action)
        services.hand_settle(user=dealer, hand_id=hand.pk, record={})


@pytest.mark.django_db
def test_a_new_table_gets_its_theoretical_hold_and_the_hold_page_shows_it(
    floor, dealer, compliance, client, settings, django_capture_on_commit_callbacks
):
    """No worker runs here (tasks eager): creating the table simulates its rules version's
    hold once the request commits, with the inline number of hands; the hold page then judges
    its days against it."""
    with django_capture_on_commit_callbacks(execute=True):
        table = war_table(floor, dealer, "WAR-T", {"tie_bonus": 1})
    spec = hold_services.house_spec(hold_services.table_specs(table))
    row = Theory.objects.get(game=GAME.code, digest=spec.digest)
    assert row.ready and row.hands == settings.HOLD_THEORY_INLINE_HANDS == 200
    assert row.low <= row.value <= row.high

    play_hands(dealer, table, 3, seed=2)
    [chart] = hold_charts(gaming_day(), gaming_day(), table_id=table.pk)
    assert chart.offered and not chart.computing and chart.figure.pk == row.pk
    client.force_login(compliance)
    html = client.get(reverse("compliance-hold")).content.decode()
    assert f"its theoretical hold is {row.value:.2%}" in html
    days = html[html.index('aria-label="Hold per gaming day at WAR-T"') :]
    assert f"{row.value * 100:.3f}%" in days[: days.index("</table>")]
    assert "no theoretical hold" not in html and "computing…" not in html


@pytest.mark.django_db
def test_a_tie_bonus_change_shows_the_edge_before_and_after_in_the_queue(
    floor, dealer, client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        table = war_table(floor, dealer, "WAR-Q", {"tie_bonus": 1})
        services.change_request(
            user=dealer, table_id=table.pk, changes={"rules": {"tie_bonus": 5}}, reason="promotion"
        )
    approval = Approval.objects.get(kind=Approval.Kind.LIMIT_CHANGE, table=table)
    shown = theory_for_change(approval)
    assert shown is not None and shown.offered and shown.changes_theory
    [pair] = shown.pairs
    assert pair.measure == theory.HOUSE and pair.label == "House win per unit wagered (hold)"
    # Both rules versions were simulated when the request committed: nothing waits.
    assert pair.before.ready and pair.after.ready and not shown.computing
    assert pair.before.row.inputs["rules"] == {"tie_bonus": 1}
    assert pair.after.row.inputs["rules"] == {"tie_bonus": 5}
    client.force_login(floor)
    page = client.get(reverse("floor-approvals")).content.decode()
    assert f"{pair.after.row.value * 100:.3f}%" in page
    assert f"{pair.before.row.value * 100:.3f}%" in page


# --------------------------------------------------------------------------- no theory at all


class PlainWar(CasinoWar):
    """Casino War as a package that supplies no theory: no strategy, no demo table, no
    example record."""

    code = "casino-war-plain"
    name = "Plain War"

    def theory(self) -> None:
        return None


@pytest.fixture
def plain():
    game = register(PlainWar())
    yield game
    unregister(game.code)


@pytest.mark.django_db
def test_a_game_without_theory_is_said_to_have_none_once_per_page(
    plain, floor, dealer, compliance, client, django_capture_on_commit_callbacks
):
    assert plain.demo_table is None and plain.record_example is None
    assert theory.specs(plain.code, LIMITS, 25, {}) == [] and not theory.offered(plain.code)
    with django_capture_on_commit_callbacks(execute=True):
        table = war_table(floor, dealer, "PLAIN-1", {}, game=plain.code)
        services.change_request(
            user=dealer, table_id=table.pk, changes={"rules": {"tie_bonus": 3}}, reason="x"
        )
    assert not Theory.objects.exists()  # nothing to compute, nothing waiting
    play_hands(dealer, table, 2, seed=3)

    client.force_login(compliance)
    html = client.get(reverse("compliance-hold")).content.decode()
    assert html.count("no theoretical hold") == 1
    assert "Plain War has no theoretical hold, so its days are not judged against one" in html
    assert "no theoretical line to judge it against" in html  # the chart's description
    assert "being computed" not in html and "computing…" not in html
    days = html[html.index('aria-label="Hold per gaming day at PLAIN-1"') :]
    days = days[: days.index("</table>")]
    assert days.count("<td>not judged</td>") == 1 and "—</td>" in days  # one gaming day

    approval = Approval.objects.get(kind=Approval.Kind.LIMIT_CHANGE, table=table)
    shown = theory_for_change(approval)
    assert shown is not None and not shown.offered and shown.pairs == []
    client.force_login(floor)
    queue = client.get(reverse("floor-approvals")).content.decode()
    assert queue.lower().count("no theoretical") == 1
