"""Asking for a limit or rule change from the dealer's tablet, by touch, for every registered
game (Casino War, the suite's sixth, included): the form built from the game's schemas with
each value in force beside the new one; one money limit and one rule changed (a pay-table line
where the game has one); the preview's before and after, the theoretical edge and the hand it
applies from; the request sent with its Idempotency-Key, waiting for the floor and found in the
approvals queue with the changes in minor units; a bad amount refused next to its field;
withdrawing; mid-hand without losing the hand; Greek; axe and both orientations."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from approvals import services as approvals
from approvals.models import Approval
from casino.rules import theory
from casino.rules.contract import Game, registry
from hold import services as hold
from hold.models import Theory
from tables import services
from tables.models import HandAction, Table
from tables.serializers import TableSerializer
from tests.browser import PATIENCE_MS
from tests.core.test_tablet_translations import entries
from tests.game_samples import table_config
from tests.tablet import test_tablet_browser as base
from tests.tablet.dealing import ARTEFACTS, Dealer

tablet = base.tablet  # the fixture: High Card Flush table HCF-T on a touch tablet, between hands

pytestmark = pytest.mark.django_db(transaction=True)

VIEWPORTS = [{"width": 1024, "height": 768}, {"width": 768, "height": 1024}]
GREEK = entries(
    Path(__file__).resolve().parents[2] / "tablet" / "locale" / "el" / "LC_MESSAGES" / "djangojs.po"
)
PREVIEW = "#change-preview"


@pytest.fixture(params=VIEWPORTS, ids=["landscape", "portrait"])
def viewport(request: Any, page: Any) -> dict[str, int]:
    page.set_viewport_size(request.param)
    return request.param


def a_table(floor: Any, dealer: Any, code: str) -> Table:
    """An open table of the game (its demo table, or its samples' one), dealt by ``dealer``."""
    config = table_config(registry()[code])
    table = services.table_create(
        user=floor,
        name=f"{config['name']}-X",
        game=code,
        seat_count=config["seat_count"],
        dealer=dealer,
        limits={k: v for k, v in config["limits"].items() if v is not None},
        smallest_chip=config["smallest_chip"],
        rules=config.get("rules") or {},
    )
    return services.table_set_status(user=floor, table_id=table.pk, status="open")


def money_limit(game: Game, table: Table) -> tuple[str, int]:
    """The game's money limit with the largest value at the table, and twice that value (a
    multiple of the smallest chip still)."""
    props = game.limits_schema["properties"]
    value, key = max(
        (table.limits[key], key)
        for key, prop in props.items()
        if prop.get("format") == "money" and table.limits.get(key)
    )
    return key, value * 2


def pay_table_lines(prop: dict[str, Any]) -> list[str]:
    lines = list(prop.get("properties") or {})
    return (
        lines
        if lines and all(p.get("format") == "odds" for p in prop["properties"].values())
        else []
    )


def a_rule(game: Game, table: Table) -> tuple[str, str, Any]:
    """A rule the form asks for and its new value: a pay table's first line one better where
    the game has a pay table (``("paytable", "<rule>.<line>", table)``), else a yes/no rule
    turned over (``("boolean", rule, value)``)."""
    in_force = TableSerializer(table).data["rules_in_force"]
    table_set = {*game.limits_schema["properties"], "smallest_chip"}
    rules = {
        key: prop
        for key, prop in game.rules_schema["properties"].items()
        if key not in table_set and not prop.get("readOnly")
    }
    for key, prop in rules.items():
        lines = pay_table_lines(prop)
        if lines:
            line = max(lines, key=lambda k: int(k) if k.isdigit() else -1)
            return "paytable", f"{key}.{line}", {**in_force[key], line: in_force[key][line] + 1}
    key = next(key for key, prop in rules.items() if prop.get("type") == "boolean")
    return "boolean", key, not in_force[key]


def major(minor: int) -> str:
    return f"{Decimal(minor) / 100:.2f}"


def dollars(minor: int) -> str:
    return f"${Decimal(minor) / 100:,.2f}"


def preview_ready(page: Any) -> None:
    """The preview answered for what is typed now (a figure may still be computing)."""
    page.wait_for_function(
        "(sel) => ['ready', 'computing'].includes(document.querySelector(sel).dataset.state)",
        arg=PREVIEW,
    )


def open_form(tablet: Dealer) -> None:
    tablet.touch(tablet.page.locator("[data-action=change]"))
    tablet.page.get_by_role("heading", name=re.compile("Ask for a change at")).wait_for()
    preview_ready(tablet.page)


def assert_no_sideways_scroll(page: Any, where: str) -> None:
    widths = page.evaluate(
        """() => [document.documentElement.scrollWidth, document.querySelector('main').scrollWidth,
                  document.querySelector('main').clientWidth, innerWidth]"""
    )
    assert widths[0] <= widths[3] and widths[1] <= widths[2], (where, widths)


# ---------------------------------------------------------------- every game


@pytest.mark.parametrize("code", sorted(registry()))
def test_every_game_s_change_is_asked_from_the_tablet_and_waits_in_the_queue(
    code, floor, dealer, live_server, page, viewport, client_for
):
    game = registry()[code]
    table = a_table(floor, dealer, code)
    limit, new_amount = money_limit(game, table)
    kind, rule, new_rule = a_rule(game, table)
    at = Dealer(page, live_server)
    at.at_table(dealer, table)
    keys: list[str | None] = []
    page.on(
        "request",
        lambda r: (
            keys.append(r.headers.get("idempotency-key"))
            if r.method == "POST" and r.url.endswith(f"/tables/{table.pk}/changes/")
            else None
        ),
    )
    open_form(at)

    # Every amount of the limits and the smallest chip, each with the value in force beside
    # the new one, in major units.
    amounts = {
        key: value
        for key, value in table.limits.items()
        if game.limits_schema["properties"][key].get("format") == "money"
    }
    for key, value in {**amounts, "smallest_chip": table.smallest_chip}.items():
        field = page.locator(f".chg-field[data-path='{key}']")
        assert field.locator(".chg-now").inner_text() == f"Now: {dollars(value)}", key
        assert field.locator("input").input_value() == major(value), key
    at.check_screen(f"{code} change form")
    assert_no_sideways_scroll(page, code)

    at.type(page.locator(f".chg-field[data-path='{limit}'] input"), major(new_amount))
    if kind == "paytable":
        key, line = rule.split(".")
        row = page.locator(f".chg-field[data-path='rules.{rule}']")
        assert row.locator(".chg-now").inner_text() == f"Now: {new_rule[line] - 1}:1"
        at.type(row.locator("input"), str(new_rule[line]))
        assert row.locator(".chg-unit").inner_text() == "to 1"
    else:
        key = rule
        box = page.locator(f".chg-field[data-path='rules.{rule}']")
        assert box.locator("button[aria-pressed=true]").count() == 1
        box.locator(f"button[data-value={'yes' if new_rule else 'no'}]").tap()
    preview_ready(page)

    # The preview: each option before and after, in words; the edge; the hand it applies from.
    changed = page.locator(f"{PREVIEW} .chg-diff-item[data-path='{limit}']")
    assert changed.locator(".before").inner_text() == f"Now: {dollars(table.limits[limit])}"
    assert changed.locator(".after").inner_text() == f"New: {dollars(new_amount)}"
    rule_row = page.locator(f"{PREVIEW} .chg-diff-item[data-path='rules.{key}']")
    if kind == "paytable":
        assert f"{new_rule[line] - 1}:1" in rule_row.locator(".before").inner_text()
        assert f"{new_rule[line]}:1" in rule_row.locator(".after").inner_text()
    else:
        assert rule_row.locator(".after").inner_text() == f"New: {'yes' if new_rule else 'no'}"
    edge = page.locator(f"{PREVIEW} .chg-theory")
    assert edge.locator("h3").inner_text() == "Theoretical edge before and after"
    figures = edge.locator(".chg-edge-item")
    if figures.count():
        assert figures.first.locator(".before").inner_text().startswith("Before: ")
        assert figures.first.locator(".after").inner_text().startswith("After: ")
    else:
        assert edge.inner_text().endswith("This game has no theoretical hold.")
    applies = page.locator(f"{PREVIEW} .chg-applies")
    assert applies.get_attribute("data-hand") == str(table.next_hand_number)
    assert applies.inner_text().startswith(f"Hand {table.next_hand_number} at the earliest")
    at.check_screen(f"{code} change previewed")
    size = page.viewport_size
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTEFACTS / f"tablet-change-{code}-{size['width']}x{size['height']}.png")

    at.type(page.locator("#change-reason"), "a busy night")
    at.touch(page.locator("#change-send"))
    waiting = page.locator(".chg-waiting-panel")
    waiting.get_by_role("heading", name="Waiting for the floor").wait_for()
    assert page.locator(".chg-flash").inner_text().startswith("Your request waits for the floor")
    assert waiting.locator(f".chg-diff-item[data-path='{limit}'] .after").inner_text() == (
        f"Asked for: {dollars(new_amount)}"
    )
    at.check_screen(f"{code} change waiting")

    expected = {limit: new_amount, "rules": {key: new_rule}}
    queue = client_for(floor).get("/api/v1/approvals/", {"kind": "limit_change"}).json()
    mine = [row for row in queue["results"] if row["table"] == table.pk]
    assert len(mine) == 1
    assert mine[0]["status"] == "pending" and mine[0]["requested_by"] == "dealer"
    assert mine[0]["reason"] == "a busy night"
    assert mine[0]["detail"]["changes"] == expected
    assert len(keys) == 1 and keys[0] and len(keys[0]) == 32  # the outbox's key, sent once
    # Nothing applies before a floor manager approves.
    table.refresh_from_db()
    assert table.limits[limit] == new_amount // 2


# ---------------------------------------------------------------- bad input, refusals


def test_an_amount_with_more_decimals_than_the_currency_is_refused_next_to_its_field(tablet, page):
    open_form(tablet)
    field = page.locator(".chg-field[data-path='ante_max']")
    tablet.type(field.locator("input"), "12.345")
    error = field.locator(".chg-error")
    error.wait_for()
    assert error.inner_text() == "Too many decimals: the smallest amount is $0.01"
    assert field.locator("input").get_attribute("aria-invalid") == "true"
    assert (
        field.locator("input").get_attribute("aria-describedby").endswith(error.get_attribute("id"))
    )
    preview_ready(page)
    assert "Correct the fields marked" in page.locator(PREVIEW).inner_text()
    tablet.type(page.locator("#change-reason"), "x")
    page.locator("#change-send").tap()
    status = page.locator("#change-status")
    page.wait_for_function(
        "() => document.querySelector('#change-status').textContent.startsWith('Nothing was sent')"
    )
    assert status.inner_text() == "Nothing was sent: correct the fields marked."
    assert not Approval.objects.exists()
    tablet.check_screen("change form with a bad amount")

    # Read exactly: thousands marked as people write them, and cents.
    tablet.type(field.locator("input"), "1,250")
    page.locator(".chg-field[data-path='ante_max'] .chg-error[hidden]").wait_for(state="attached")
    preview_ready(page)
    shown = page.locator(f"{PREVIEW} .chg-diff-item[data-path='ante_max'] .after")
    assert shown.inner_text() == "New: $1,250.00"
    tablet.type(field.locator("input"), "0.29")
    preview_ready(page)
    page.locator(f"{PREVIEW} .chg-diff-item[data-path='ante_max']").wait_for()
    # below the minimum: the server's refusal, in words, next to the field it is about
    assert "This change would be refused" in page.locator(PREVIEW).inner_text()
    assert (
        field.locator(".chg-error").inner_text() == "ante maximum $0.29 is below the minimum $1.00"
    )
    assert shown.inner_text() == "New: $0.29"


def test_a_change_needs_a_value_that_differs_and_a_reason(tablet, page):
    open_form(tablet)
    page.locator("#change-send").tap()
    page.wait_for_function(
        "() => document.querySelector('#change-status').textContent.startsWith('Nothing was sent')"
    )
    assert page.locator("#change-status").inner_text() == (
        "Nothing was sent: no value differs from the one in force."
    )
    tablet.type(page.locator(".chg-field[data-path='ante_max'] input"), "150")
    preview_ready(page)
    page.locator("#change-send").tap()
    page.locator("#change-reason-error:not([hidden])").wait_for()
    assert page.locator("#change-reason-error").inner_text() == "Give the reason for the change."
    assert page.locator("#change-reason").get_attribute("aria-invalid") == "true"
    assert not Approval.objects.exists()


# ---------------------------------------------------------------- bands


def test_fee_bands_are_rows_added_and_removed(tablet, page):
    open_form(tablet)
    tablet.type(page.locator(".chg-field[data-path='rules.rake.amount'] input"), "0")
    bands = page.locator(".chg-rows[data-path='rules.rake.bands']")
    assert bands.locator(".chg-now").inner_text() == "Now: none"
    add = bands.locator("button[data-action=add-row]")
    assert add.inner_text() == "Add band"

    def field(row: int, key: str) -> Any:
        return bands.locator(f".chg-field[data-path='rules.rake.bands[{row}].{key}'] input")

    for _ in range(3):
        add.tap()
    # a row is drawn when the form redraws after the tap: waited for, not read at once
    expect(bands.locator(".chg-row")).to_have_count(3)
    # the new row's first input takes the focus
    expect(page.locator(":focus")).to_have_attribute("data-path", "rules.rake.bands[2].up_to")
    tablet.type(field(0, "up_to"), "10")
    tablet.type(field(0, "amount"), "9.00")
    tablet.type(field(1, "up_to"), "25")
    tablet.type(field(1, "amount"), "0.50")
    tablet.type(field(2, "amount"), "1.00")  # no upper end: left empty
    bands.locator(".chg-row").first.get_by_role("button", name="Remove band 1").tap()
    expect(bands.locator(".chg-row")).to_have_count(2)
    assert bands.locator(".chg-row legend").all_inner_texts() == ["Band 1", "Band 2"]
    assert field(0, "up_to").input_value() == "25" and field(1, "up_to").input_value() == ""
    preview_ready(page)
    fee = page.locator(f"{PREVIEW} .chg-diff-item[data-path='rules.rake']")
    assert "up to $25.00, fee $0.50" in fee.locator(".after").inner_text()
    assert "no upper end, fee $1.00" in fee.locator(".after").inner_text()
    tablet.check_screen("change form with fee bands")
    tablet.type(page.locator("#change-reason"), "bands for the weekend")
    tablet.touch(page.locator("#change-send"))
    page.locator(".chg-waiting-panel").wait_for()
    assert Approval.objects.get(kind="limit_change").detail["changes"] == {
        "rules": {
            "rake": {
                "scheme": "per_player",
                "amount": 0,
                "bands": [{"up_to": 2500, "amount": 50}, {"up_to": None, "amount": 100}],
            }
        }
    }


# ---------------------------------------------------------------- the edge, computed later


def test_a_figure_still_computing_is_asked_for_again_until_it_is_ready(tablet, page, monkeypatch):
    """Where a worker takes the simulations, a new one waits as ``computing`` until the worker
    stores it; the tablet asks again by itself and shows the figure once it is stored (here a
    worker that takes the task and answers when the test stores the figure)."""
    from hold import services as hold_services
    from hold import tasks as hold_tasks

    queued: list[Any] = []
    monkeypatch.setattr(hold_services, "_worker_runs", lambda: True)
    monkeypatch.setattr(hold_tasks.compute_theory_task, "delay", queued.append)
    open_form(tablet)
    # a fee of $2.00 a hand instead of $1.00: the house's hold is simulated afresh
    tablet.type(page.locator(".chg-field[data-path='rules.rake.amount'] input"), "2.00")
    page.wait_for_function(
        "(sel) => document.querySelector(sel).dataset.state === 'computing'", arg=PREVIEW
    )
    house = page.locator(f"{PREVIEW} .chg-edge-item[data-measure=house] .after")
    assert house.inner_text() == "After: computing…"
    # Asked again by itself, nothing touched.
    with page.expect_request(lambda r: r.url.endswith("/preview/"), timeout=PATIENCE_MS):
        pass
    assert queued  # the simulation went to the worker
    for row in Theory.objects.filter(status=Theory.Status.COMPUTING):
        hold.compute_theory(theory.Spec(row.game, row.measure, row.method, row.inputs), hands=200)
    page.wait_for_function(
        "(sel) => document.querySelector(sel).dataset.state === 'ready'",
        arg=PREVIEW,
        timeout=PATIENCE_MS,
    )
    assert re.fullmatch(r"After: -?\d+\.\d{3}% simulated over 200 hands", house.inner_text())


# ---------------------------------------------------------------- the key kept until answered


def test_a_request_whose_answer_is_lost_is_sent_again_with_its_key_and_stored_once(
    tablet, page, open_table
):
    open_form(tablet)
    tablet.type(page.locator(".chg-field[data-path='ante_max'] input"), "150")
    tablet.type(page.locator("#change-reason"), "a busy night")
    preview_ready(page)
    keys: list[str] = []

    def lose_the_first_answer(route: Any) -> None:
        keys.append(route.request.headers["idempotency-key"])
        if len(keys) == 1:
            # The request reaches the server, but its answer is lost on the way back.
            assert route.fetch().status == 201
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route(f"**/api/v1/tables/{open_table.pk}/changes/", lose_the_first_answer)
    page.locator("#change-send").tap()
    page.locator("#outbox.unsent").wait_for()
    assert page.locator("#change-status").inner_text() == "Not sent yet: the tablet keeps trying"
    assert page.locator("#change-reason").input_value() == "a busy night"  # nothing lost
    # The outbox sends it again by itself, with the same key: the server replays its answer.
    page.locator(".chg-waiting-panel").wait_for()
    assert page.locator(".chg-flash").inner_text().startswith("Your request waits for the floor")
    assert len(keys) == 2 and len(set(keys)) == 1
    assert Approval.objects.filter(kind="limit_change").count() == 1
    assert page.locator(".chg-field[data-path='ante_max'] input").input_value() == "100.00"


# ---------------------------------------------------------------- decided, withdrawn, mid-hand


def test_the_floor_s_decision_is_said_and_the_form_shows_the_new_values(tablet, page, floor):
    open_form(tablet)
    tablet.type(page.locator(".chg-field[data-path='ante_max'] input"), "150")
    tablet.type(page.locator("#change-reason"), "a busy night")
    preview_ready(page)
    tablet.touch(page.locator("#change-send"))
    request = Approval.objects.get(kind="limit_change")
    approvals.approval_decide(user=floor, approval_id=request.pk, approve=True)
    # the screen looks again by itself while a request waits
    page.get_by_text("floor approved the change: it applies from the next hand opened.").wait_for(
        timeout=PATIENCE_MS
    )
    assert not page.locator(".chg-waiting-panel").count()
    now = page.locator(".chg-field[data-path='ante_max'] .chg-now")
    assert now.inner_text() == "Now: $150.00"


def test_the_dealer_withdraws_a_waiting_request(tablet, page):
    open_form(tablet)
    tablet.type(page.locator(".chg-field[data-path='ante_max'] input"), "150")
    tablet.type(page.locator("#change-reason"), "a busy night")
    preview_ready(page)
    tablet.touch(page.locator("#change-send"))
    request = Approval.objects.get(kind="limit_change")
    assert request.status == "pending" and request.detail["changes"] == {"ante_max": 15_000}
    tablet.touch(page.locator("[data-action=withdraw-change]"))
    page.get_by_text("Withdrawn: nothing changes.").wait_for()
    request.refresh_from_db()
    assert request.status == "withdrawn"
    assert not page.locator(".chg-waiting-panel").count()
    # The way in says how many wait: none now.
    tablet.touch(page.get_by_role("button", name="Back to the table"))
    assert page.locator("[data-action=change]").inner_text() == "Ask for a change"


def test_a_change_asked_mid_hand_leaves_the_hand_as_it_was(tablet, page, open_table):
    tablet.act("accept", 1, "min")  # the hand opens, seat 1 banking
    tablet.act("wager", 2, "min")
    hand_title = page.locator("#title").inner_text()
    assert hand_title.startswith("Hand 1")
    recorded = HandAction.objects.count()
    open_form(tablet)
    assert "The hand in play keeps its rules" in page.locator(".chg-intro").inner_text()
    assert page.locator(f"{PREVIEW} .chg-applies").get_attribute("data-hand") == "2"
    tablet.type(page.locator(".chg-field[data-path='ante_max'] input"), "150")
    tablet.type(page.locator("#change-reason"), "the next shoe")
    preview_ready(page)
    tablet.touch(page.locator("#change-send"))
    page.locator(".chg-waiting-panel").wait_for()
    tablet.check_screen("change asked mid-hand")
    tablet.touch(page.get_by_role("button", name="Back to the hand"))
    assert page.locator("#title").inner_text() == hand_title
    assert any(a[0] == "wager" and a[1] == "3" for a in tablet.actions())
    assert HandAction.objects.count() == recorded
    assert page.locator("[data-action=change]").inner_text() == "Ask for a change (1 waiting)"
    tablet.act("wager", 3, "min")  # the hand goes on
    assert HandAction.objects.count() == recorded + 1
    open_table.refresh_from_db()
    assert open_table.limits["ante_max"] == 10_000


# ---------------------------------------------------------------- Greek


def test_the_form_speaks_greek(tablet, page, live_server):
    page.context.add_cookies([{"name": "django_language", "value": "el", "url": live_server.url}])
    page.reload()
    page.wait_for_function("() => document.documentElement.lang === 'el'")
    page.locator("[data-action=change]").wait_for()
    open_button = page.locator("[data-action=change]")
    assert open_button.inner_text() == GREEK["Ask for a change"]
    tablet.touch(open_button)
    preview_ready(page)
    heading = GREEK["Ask for a change at %(table)s"].replace("%(table)s", "HCF-T")
    assert page.locator("h1").inner_text().startswith(heading)
    field = page.locator(".chg-field[data-path='ante_max']")
    assert (
        field.locator("label").inner_text()
        == GREEK["ante maximum"][:1].upper() + GREEK["ante maximum"][1:]
    )
    in_greek = page.evaluate(
        "(v) => new Intl.NumberFormat('el', {style: 'currency', currency: 'USD'}).format(v)", 100
    )
    assert field.locator(".chg-now").inner_text() == GREEK["Now: %(value)s"].replace(
        "%(value)s", in_greek
    )
    assert page.locator("#change-send").inner_text() == GREEK["Ask for the change"]
    assert (
        page.locator(".chg-field[data-path='rules.flush_paytable.7'] .chg-unit").inner_text()
        == (GREEK["to 1"])
    )
    # The tablet's own check, in Greek, and the amount as Greek writes it (12,345 is 12.345).
    tablet.type(field.locator("input"), "12,345")
    field.locator(".chg-error:not([hidden])").wait_for()
    cent = page.evaluate(
        "() => new Intl.NumberFormat('el', {style: 'currency', currency: 'USD'}).format(0.01)"
    )
    assert field.locator(".chg-error").inner_text() == GREEK[
        "Too many decimals: the smallest amount is %(smallest)s"
    ].replace("%(smallest)s", cent)
    # The server's refusal, in Greek, next to the field.
    tablet.type(field.locator("input"), "0,50")
    preview_ready(page)
    page.wait_for_function(
        "() => document.querySelector(\".chg-field[data-path='ante_max'] .chg-error\").textContent"
    )
    refusal = field.locator(".chg-error").inner_text()
    assert "ante maximum" not in refusal and re.search("[α-ω]", refusal), refusal
    assert page.locator(f"{PREVIEW} h2").inner_text() == GREEK["What changes"]
    tablet.check_screen("change form in Greek")
