"""A compliance officer replays a settled hand of every registered game at a desk (Chromium
at 1280x800, then 768 wide): the table drawn step by step with the dealer tablet's own
modules, Next and Previous (and the arrow keys) moving the seat to act and the action's
words, the end showing each party's net in money as stored; the page under three screens,
no sideways scroll at 768 px, no JSON, and axe-core's WCAG 2.2 AA checks on the page and on a
middle step. The audit log names a Five Card Draw 7-A raise in words."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from casino.core.money import money
from casino.rules.contract import History, game, hand_view, registry
from desk.compliance import describe
from payouts.models import Settlement
from tests.browser import assert_accessible
from tests.desk.any_hand import play_hand
from tests.desk.test_compliance_browser import log_in, watch_csp
from tests.tables.test_draw_live import act, open_hand

pytestmark = pytest.mark.django_db(transaction=True)
ARTEFACTS = Path(__file__).resolve().parents[2] / "test-artefacts"
SCREENS = 3 * 800  # three screens at 1280x800
JSON_TEXT = re.compile(r'[{\[]\s*"|"\s*:\s|\bnull\b|\btrue\b|\bfalse\b')


def expected_steps(settlement: Settlement) -> list[tuple[str, int | None]]:
    """Each step's words and seat to act, from the game's own replay of the stored hand: the
    hand as it opened, each action, then the settlement."""
    history = History.from_dict(settlement.history)
    found = game(history.game)
    state = found.new_hand(history.config, history.rules)

    def to_act() -> int | None:
        view = hand_view(state, history.game)["presentation"] or {}
        return None if state.complete else view.get("to_act")

    steps = [("The hand as it opened", to_act())]
    for index, action in enumerate(history.actions):
        state.apply(action, index)
        words = describe.action_words(action, history.game)
        steps.append((words[:1].upper() + words[1:], to_act()))
    steps.append(("The hand settled: ", None))
    return steps


def shown_step(page: Any) -> tuple[str, int | None]:
    title = page.locator("#replay-title").inner_text()
    focus = page.locator("#replay-felt .seat-view[aria-current=true]")
    seat = int(focus.get_attribute("data-seat-view")) if focus.count() else None
    return title, seat


def check_step(page: Any, number: int, expected: tuple[str, int | None]) -> None:
    expect(page.locator("#replay")).to_have_attribute("data-step", str(number))
    title, seat = shown_step(page)
    words, to_act = expected
    assert title.startswith(words) if words.endswith(": ") else title == words, (number, title)
    assert seat == to_act, (number, title, seat, to_act)


def no_json(page: Any, where: str) -> None:
    text = page.locator("body").inner_text()
    found = JSON_TEXT.search(text)
    assert found is None, (
        f"{where}: JSON on the page near {text[found.start() - 40 : found.end() + 40]!r}"
    )


def test_an_officer_replays_a_hand_of_every_game_step_by_step(
    compliance, floor, dealer, live_server, page
):
    codes = sorted(registry())
    # An ordinary hand: five players where the game seats five.
    settlements = {code: play_hand(code, floor=floor, dealer=dealer, players=5) for code in codes}
    blocked = watch_csp(page)
    log_in(page, live_server, compliance)
    ARTEFACTS.mkdir(exist_ok=True)
    for code, settlement in settlements.items():
        page.set_viewport_size({"width": 1280, "height": 800})
        page.goto(f"{live_server.url}/desk/compliance/settlements/{settlement.pk}/")
        controls = page.locator("#replay-controls")
        expect(controls).to_be_visible()
        steps = expected_steps(settlement)
        last = len(steps) - 1
        check_step(page, 0, steps[0])
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height <= SCREENS, (code, height)
        no_json(page, code)
        assert_accessible(page, f"{code}: the settlement's page")
        page.screenshot(path=str(ARTEFACTS / f"replay-{code}-1280.png"), full_page=True)

        # Step by step to the end: the words and the seat to act follow the hand.
        next_button = controls.get_by_role("button", name="Next")
        titles, seats = set(), set()
        for number in range(1, last + 1):
            next_button.click()
            check_step(page, number, steps[number])
            title, seat = shown_step(page)
            titles.add(title)
            seats.add(seat)
            if number == last // 2:
                assert_accessible(page, f"{code}: step {number} of the replay")
        assert len(titles) > 1 and seats == {to_act for _, to_act in steps[1:]}, code
        expect(next_button).to_be_disabled()
        expect(controls.get_by_role("button", name="Last")).to_be_disabled()

        # The end: each party's net in money, as stored.
        title = page.locator("#replay-title").inner_text()
        for row in settlement.seats.all():
            assert f"{describe.party_words(row.seat)} {money(row.net, True)}" in title, code
            net = page.locator(f"#replay-felt [data-seat-view='{row.seat}'] .net")
            if net.count():
                expect(net).to_have_text(money(row.net, True))
                assert int(net.get_attribute("data-net")) == row.net
        drawn = page.locator("#replay-felt .net")
        assert drawn.count() >= 2, code
        page.screenshot(path=str(ARTEFACTS / f"replay-{code}-end-1280.png"), full_page=True)

        # Back one, then the keyboard: the arrows move a step each, Home goes to the start.
        controls.get_by_role("button", name="Previous").click()
        check_step(page, last - 1, steps[last - 1])
        page.keyboard.press("ArrowRight")
        check_step(page, last, steps[last])
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")
        check_step(page, last - 2, steps[last - 2])
        controls.get_by_role("button", name="First").click()
        check_step(page, 0, steps[0])
        expect(controls.get_by_role("button", name="Previous")).to_be_disabled()

        # 768 px wide: nothing scrolls sideways, at the start, the middle and the end.
        page.set_viewport_size({"width": 768, "height": 1000})
        for number in (0, last // 2, last):
            page.locator("#replay-step").fill(str(number))
            check_step(page, number, steps[number])
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 768, (code, number, width)
        page.screenshot(path=str(ARTEFACTS / f"replay-{code}-768.png"), full_page=True)
    assert blocked == []


def test_the_audit_log_names_a_raise_in_words(
    compliance, draw_table, dealer, client_for, live_server, page
):
    api = client_for(dealer)
    hand = open_hand(api, draw_table)
    state, raised = hand["state"], None
    while state["to_act"] is not None:
        seat = state["to_act"]
        legal = {a["type"]: a for a in state["legal_actions"]}
        if "raise" in legal and raised is None:
            raised = {"seat": seat, "type": "raise", "to": legal["raise"]["min"]}
            action = raised
        elif "draw" in legal:
            action = {"seat": seat, "type": "draw", "discard": [], "receive": []}
        else:
            action = {"seat": seat, "type": "check" if "check" in legal else "call"}
        response = act(api, hand["id"], action)
        assert response.status_code == 200, response.json()
        state = response.json()
    assert raised is not None
    assert api.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json").status_code == 201
    log_in(page, live_server, compliance)
    page.locator("nav").get_by_role("link", name="Audit log").click()
    entries = page.locator("#audit-entries tbody tr")
    expect(
        entries.filter(has_text=f"seat {raised['seat']} raises to {money(raised['to'])}")
    ).to_have_count(1)
    expect(entries.filter(has_text=f"hand {hand['number']} opened (seats")).to_have_count(1)
    expect(entries.filter(has_text="hand settled: rake")).to_have_count(1)
    assert "hand_action" not in page.locator("#audit-entries").inner_text()
    assert_accessible(page, "the audit log")
    page.screenshot(path=str(ARTEFACTS / "audit-log-words.png"), full_page=True)
    page.set_viewport_size({"width": 768, "height": 1000})
    assert page.evaluate("document.documentElement.scrollWidth") <= 768


def test_the_felt_reads_in_the_desk_s_english_whatever_the_browser_asks_for(
    compliance, floor, dealer, live_server, browser
):
    """The tablet's modules speak the tablet's languages; on the desk, which is in English,
    the felt is too, for a browser that asks for Greek first."""
    settlement = play_hand("five-card-draw-7a", floor=floor, dealer=dealer)
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="el-GR")
    page = context.new_page()
    log_in(page, live_server, compliance)
    page.goto(f"{live_server.url}/desk/compliance/settlements/{settlement.pk}/")
    seats = page.locator("#replay-felt .seat-view .who strong")
    expect(seats.first).to_have_text(re.compile(r"^Seat \d+$"))
    assert not re.search("[\u0370-\u03ff]", page.locator("#replay").inner_text())
    context.close()
