"""The floor's forms in Chromium, at a desk (1280x800) and at 768 px wide: a table of every
registered game created without typing JSON (a pay table line changed, rake bands added, a
percentage rake chosen), a limit and rule change asked for from the table's page with its
preview (each option before and after, the edge before and after, the hand it applies from)
and then read in words in the queue, and a settled hand corrected by editing one action's
amount. Every screen passes axe-core (WCAG 2.2 AA) and none scrolls sideways."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from approvals.models import Approval
from casino.rules.contract import registry
from desk.floor.schema_fields import major
from tables.models import Table
from tests.browser import assert_accessible
from tests.conftest import record
from tests.desk.helpers import log_in
from tests.game_samples import table_config

pytestmark = pytest.mark.django_db(transaction=True)
ARTEFACTS = Path(__file__).resolve().parents[2] / "test-artefacts"


def no_sideways_scroll(page: Any) -> None:
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    ), "the page scrolls sideways"


def at_768(page: Any, where: str) -> None:
    page.set_viewport_size({"width": 768, "height": 1024})
    no_sideways_scroll(page)
    assert_accessible(page, f"{where} at 768 px")
    page.screenshot(path=str(ARTEFACTS / f"{where}-768.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})


def controls_are_tall_enough(page: Any) -> None:
    for control in page.locator("main button, main input:not([type=hidden]), main select").all():
        if control.is_visible():
            assert control.bounding_box()["height"] >= 48, control.evaluate("e => e.outerHTML")


def shot(page: Any, name: str) -> None:
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=True)


# ---------------------------------------------------------------- a new table of every game


@pytest.mark.parametrize("code", sorted(registry()))
def test_a_table_of_every_game_is_created_field_by_field(code, floor, dealer, live_server, page):
    game = registry()[code]
    config = table_config(game)
    log_in(page, live_server, floor)
    page.goto(f"{live_server.url}/desk/floor/tables/new/?game={code}")
    page.get_by_role("heading", name=f"New table: {game.name}").wait_for()
    assert page.locator("textarea").count() == 0
    assert "{" not in page.locator("main").inner_text()  # no JSON anywhere
    page.get_by_label("Table name").fill(f"{config['name']}-B")
    page.get_by_label("Seats").fill(str(config["seat_count"]))
    page.get_by_label("Smallest chip").fill(major(config["smallest_chip"]))
    page.get_by_label("Dealer").select_option(label=dealer.username)
    limits = game.limits_schema["properties"]
    for key, value in config["limits"].items():
        if value is None:
            continue
        field = page.locator(f"#f-limits-{key}")
        if limits[key].get("enum"):
            field.select_option(str(value))
        else:
            field.fill(major(value))
    expected: dict[str, Any] = dict(config.get("rules") or {})
    rules = game.rules_schema["properties"]
    if "flush_paytable" in rules:  # a pay table line changed
        page.get_by_role("textbox", name="7 cards").first.fill("250")
        expected["flush_paytable"] = {"7": 250, "6": 50, "5": 10, "4": 2}
    rake = rules.get("rake", {}).get("properties", {})
    if "bands" in rake:  # two bands added, the last with no upper end
        for index in range(2):
            page.get_by_role("button", name="Add band").click()
            expect(page.locator(f"#f-rules-rake-bands-{index}-up_to")).to_be_focused()
        page.locator("#f-rules-rake-bands-0-up_to").fill("25")
        page.locator("#f-rules-rake-bands-0-amount").fill("0.50")
        page.locator("#f-rules-rake-bands-1-amount").fill("1.00")
        if "kind" in rake:
            page.locator("#f-rules-rake-kind").select_option("banded")
    elif "percent" in rake:  # a percentage rake with a cap
        page.locator("#f-rules-rake-kind").select_option("percent")
        page.locator("#f-rules-rake-percent").fill("5")
        page.locator("#f-rules-rake-cap").fill("3")
    assert_accessible(page, f"the new {game.name} table form")
    controls_are_tall_enough(page)
    shot(page, f"forms-new-table-{code}")
    if code == "high-card-flush":
        at_768(page, "forms-new-table-high-card-flush")
    page.get_by_role("button", name="Create the table").click()
    page.get_by_role("heading", name="The pit").wait_for()
    table = Table.objects.get(name=f"{config['name']}-B")
    assert table.game == code and table.dealer == dealer
    assert table.limits == {k: v for k, v in config["limits"].items() if v is not None}
    assert table.smallest_chip == config["smallest_chip"]
    if "bands" in rake:
        assert table.rules["rake"]["bands"] == [
            {"up_to": 2500, "amount": 50},
            {"up_to": None, "amount": 100},
        ]
    elif "percent" in rake:
        assert (table.rules["rake"]["kind"], table.rules["rake"]["percent"]) == ("percent", 5)
        assert table.rules["rake"]["cap"] == 300
    if "flush_paytable" in expected:
        assert table.rules["flush_paytable"] == expected["flush_paytable"]
    # The game reads the table's rules as the form meant them.
    effective = game.parse_rules(table.rules)
    for key in ("flush_paytable",):
        if key in expected:
            assert effective[key] == expected[key]


def test_a_refused_new_table_says_why_next_to_each_field(floor, live_server, page):
    log_in(page, live_server, floor)
    page.goto(f"{live_server.url}/desk/floor/tables/new/?game=high-card-flush")
    page.get_by_label("Table name").fill("HCF-X")
    page.locator("#f-limits-ante_min").fill("10.005")  # more decimals than dollars have
    page.locator("#f-limits-ante_max").fill("5")
    page.locator("#f-limits-bank_min").fill("200")
    page.locator("#f-limits-bank_max").fill("100")  # below the minimum: the game says so
    page.get_by_role("button", name="Create the table").click()
    expect(page.locator("#f-limits-ante_min")).to_have_attribute("aria-invalid", "true")
    ante = page.locator(".field", has=page.locator("#f-limits-ante_min"))
    expect(ante.locator(".error")).to_have_text("at most 2 decimals: the smallest amount is $0.01")
    page.locator("#f-limits-ante_min").fill("1")
    page.get_by_role("button", name="Create the table").click()
    bank = page.locator(".field", has=page.locator("#f-limits-bank_max"))
    expect(bank.locator(".error")).to_contain_text("$100.00")
    expect(bank.locator(".error")).to_contain_text("$200.00")
    assert page.locator("#f-limits-ante_min").input_value() == "1"  # nothing typed is lost
    assert_accessible(page, "a refused new table")
    assert not Table.objects.filter(name="HCF-X").exists()


# ---------------------------------------------------------------- a change asked for


def test_the_floor_asks_for_a_change_from_the_table_s_page_and_the_queue_says_it_in_words(
    dp_table, floor, floor2, live_server, page, browser
):
    log_in(page, live_server, floor)
    page.goto(f"{live_server.url}/desk/floor/tables/{dp_table.pk}/")
    page.get_by_role("heading", name="Limits and rules").wait_for()
    limits = page.get_by_label("Limits", exact=True)
    expect(limits).to_contain_text("Ante maximum")
    expect(limits).to_contain_text("$100.00")
    expect(page.get_by_label("Rules", exact=True)).to_contain_text("7 cards 200:1")
    assert_accessible(page, "a table's page")
    shot(page, "forms-table-page")
    at_768(page, "forms-table-page")

    page.get_by_role("link", name="Ask for a limit or rule change…").click()
    page.get_by_role("heading", name=f"Ask for a change at {dp_table.name}").wait_for()
    ante_max = page.locator("#f-ante_max")
    expect(ante_max).to_have_value("100.00")
    expect(page.locator(".field", has=ante_max).locator(".sf-now")).to_have_text("Now: $100.00")
    preview = page.locator("#change-preview")
    expect(preview).to_contain_text("Nothing yet")
    expect(preview.locator("dd[data-measure='flush_bonus']")).to_contain_text("%")
    ante_max.fill("200")
    ante_max.press("Tab")
    expect(preview.locator("tr[data-path='ante_max'] .before")).to_have_text("$100.00")
    expect(preview.locator("tr[data-path='ante_max'] .after")).to_have_text("$200.00")
    seven = page.locator("#f-rules-flush_paytable-7")
    seven.fill("500")
    seven.press("Tab")
    paytable = preview.locator("tr[data-path='rules.flush_paytable']")
    expect(paytable.locator(".before")).to_contain_text("7 cards 200:1")
    expect(paytable.locator(".before")).to_contain_text("the game's default")
    expect(paytable.locator(".after")).to_have_text("7 cards 500:1")
    flush = preview.locator("tr[data-measure='flush_bonus']")
    expect(flush).to_contain_text("(changes)")
    expect(flush.locator(".before")).to_contain_text("%")
    expect(flush.locator(".after")).to_contain_text("%")
    expect(preview).to_contain_text("Hand 1 at the earliest")
    # A value the game refuses is said in the preview before anything is asked.
    page.locator("#f-ante_min").fill("300")
    page.locator("#f-ante_min").press("Tab")
    expect(preview).to_contain_text("This change would be refused")
    page.locator("#f-ante_min").fill("1.00")
    page.locator("#f-ante_min").press("Tab")
    expect(preview).not_to_contain_text("This change would be refused")
    assert_accessible(page, "the change form with its preview")
    controls_are_tall_enough(page)
    shot(page, "forms-change")
    # The reason is required, and said next to its field.
    page.get_by_role("button", name="Ask for the change").click()
    reason = page.get_by_label("Reason")
    expect(reason).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#reason-error")).to_contain_text("Give the reason")
    assert page.locator("#f-ante_max").input_value() == "200"
    at_768(page, "forms-change")
    reason.fill("high rollers at ten")
    page.get_by_role("button", name="Ask for the change").click()
    page.get_by_role("heading", name="Approvals").wait_for()
    change = Approval.objects.get(kind="limit_change")
    assert change.detail["changes"] == {
        "ante_max": 20_000,
        "rules": {"flush_paytable": {"7": 500, "6": 50, "5": 10, "4": 2}},
    }
    assert change.reason == "high rollers at ten"

    # Another floor manager reads it in words, with its edge, and approves it.
    other = browser.new_page(viewport={"width": 1280, "height": 800})
    log_in(other, live_server, floor2)
    other.goto(f"{live_server.url}/desk/floor/approvals/")
    row = other.locator(f"#approval-{change.pk}")
    expect(row.locator("tr[data-key='ante_max'] th")).to_have_text("Ante maximum")
    expect(row.locator("tr[data-key='ante_max'] .before")).to_have_text("$100.00")
    expect(row.locator("tr[data-key='ante_max'] .after")).to_have_text("$200.00")
    expect(row.locator("tr[data-key='rules.flush_paytable'] .after")).to_have_text("7 cards 500:1")
    expect(row.locator("tr[data-key='rules.flush_paytable'] .before")).to_contain_text(
        "(the game's default)"
    )
    expect(row).to_contain_text("hand 1 at the earliest")
    edge = row.locator(".change-theory")
    expect(edge.locator("tr[data-measure='flush_bonus'] .after")).to_contain_text("%")
    assert "ante_max" not in row.inner_text() and "{" not in row.inner_text()
    assert_accessible(other, "a change in the queue")
    other.screenshot(path=str(ARTEFACTS / "forms-queue-change.png"), full_page=True)
    row.get_by_role("button", name="Approve").click()
    expect(row).to_contain_text("Approved")
    dp_table.refresh_from_db()
    assert dp_table.limits["ante_max"] == 20_000
    assert dp_table.rules["flush_paytable"]["7"] == 500
    other.close()


# ---------------------------------------------------------------- a correction


def test_a_settled_hand_is_corrected_by_editing_one_action_s_amount(
    dp_table, dealer, floor, floor2, client_for, live_server, page
):
    api = client_for(dealer)
    hand = api.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    settled = api.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    assert settled.status_code == 201, settled.json()
    log_in(page, live_server, floor)
    page.goto(f"{live_server.url}/desk/floor/tables/{dp_table.pk}/")
    page.get_by_role("link", name="Correct…").click()
    page.get_by_role("heading", name="Correct hand 1").wait_for()
    assert page.locator("textarea").count() == 0
    assert "{" not in page.locator("main").inner_text()
    # Seat 2's wager: its flush bonus was $5.00; it should have been $2.00.
    rows = page.locator(".sf-row")
    wager = rows.filter(has=page.locator("select option[value='wager']:checked")).filter(
        has=page.locator("input[name$='.seat'][value='2']")
    )
    expect(wager).to_have_count(1)
    bonus = wager.get_by_label("Flush bonus", exact=False).first
    expect(bonus).to_have_value("5.00")
    # A card that is not one is said next to it, and nothing is asked.
    deal = rows.filter(has=page.locator("select option[value='deal']:checked")).first
    cards = deal.locator("input[name$='.cards']")
    dealt = cards.input_value()
    cards.fill("Ah Kh 9h 3c 5d 8s Zz")
    page.get_by_label("Reason").fill("seat 2 bet $2.00 on the flush bonus")
    page.get_by_role("button", name="Ask for the correction").click()
    expect(deal.locator(".error")).to_contain_text("'Zz' is not a card")
    assert not Approval.objects.filter(kind="correction").exists()
    deal.locator("input[name$='.cards']").fill(dealt)
    # A row inserted takes a type, which brings its fields; then it goes again.
    count = rows.count()
    page.get_by_role("button", name="Insert action before action 1").click()
    expect(rows).to_have_count(count + 1)
    expect(page.locator("#f-actions-0-type")).to_be_focused()
    page.locator("#f-actions-0-type").select_option("fold")
    expect(page.locator("#f-actions-0-seat")).to_be_visible()
    assert page.locator("#f-actions-0-cards").count() == 0
    page.get_by_role("button", name="Remove action 1").click()
    expect(rows).to_have_count(count)
    assert page.locator("input[name$='.cards']").first.input_value() != ""
    wager = rows.filter(has=page.locator("select option[value='wager']:checked")).filter(
        has=page.locator("input[name$='.seat'][value='2']")
    )
    wager.get_by_label("Flush bonus", exact=False).first.fill("2")
    assert_accessible(page, "the correction form")
    shot(page, "forms-correct")
    at_768(page, "forms-correct")
    page.get_by_role("button", name="Ask for the correction").click()
    page.get_by_role("heading", name="Approvals").wait_for()
    correction = Approval.objects.get(kind="correction")
    changed = [
        (a, b)
        for a, b in zip(
            settled.json()["history"]["actions"]
            if "history" in settled.json()
            else correction.detail["actions"],
            correction.detail["actions"],
            strict=False,
        )
        if a != b
    ]
    assert len(changed) <= 1
    assert any(
        a.get("type") == "wager" and a.get("seat") == 2 and a.get("flush_bonus") == 200
        for a in correction.detail["actions"]
    )
    row = page.locator(f"#approval-{correction.pk}")
    expect(row.locator("table.steps")).to_contain_text("flush bonus $2.00")
    expect(row.locator("table.steps")).to_contain_text("flush bonus $5.00")
    moves = row.locator("table.moves")
    expect(moves.locator("tr[data-party='seat 2'] td").last).to_have_text("+$3.00")
    assert_accessible(page, "a correction in the queue")
    shot(page, "forms-queue-correction")
