"""A dealer deals and settles a High Card Flush hand on the tablet by touch only, and a double
tap or a dropped request never stores a step twice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from casino.rules.contract import registry
from payouts.models import Settlement
from tables.models import HandAction, TableEvent
from tests.conftest import DP_CARDS, P2_CARDS, P3_CARDS

pytestmark = [
    pytest.mark.django_db(transaction=True),
    # Written against the form-based tablet that issue 22 replaced; the per-game hands are
    # covered by test_tablet_games.py, the rest (double tap, cut-off retry, waiting for the
    # floor, void, Greek, seating, reload) is being ported to the action bar.
    pytest.mark.skip(reason="written for the replaced form-based tablet; being ported (issue 22)"),
]
PASSWORD = "a dealer's password 42"
ARTEFACTS = Path(__file__).resolve().parents[2] / "test-artefacts"


@pytest.fixture
def hcf(open_table: Any, dealer: Any) -> Any:
    """The open High Card Flush table (seats 1-4, rake 100 a player), its dealer with a
    password to type on the tablet."""
    dealer.set_password(PASSWORD)
    dealer.save()
    return open_table


def at_table(page: Any, live_server: Any, dealer: Any, table: Any) -> None:
    """Log in on the tablet and tap the table's tile."""
    dealer.set_password(PASSWORD)
    dealer.save()
    log_in(page, live_server, dealer)
    page.locator("button.tile", has_text=table.name).tap()


def log_in(page: Any, live_server: Any, dealer: Any) -> None:
    page.goto(f"{live_server.url}/tablet/")
    page.fill("#username", dealer.username)
    page.fill("#password", PASSWORD)
    page.get_by_role("button", name="Log in").tap()
    page.get_by_role("heading", name="Your tables").wait_for()


def settled(page: Any) -> None:
    """Wait until the tablet has its answer on screen (nothing in flight, screen redrawn)."""
    page.wait_for_function(
        "() => !document.body.hasAttribute('data-busy') && document.body.dataset.ready === 'true'"
    )


def form(page: Any, action: str, seat: int) -> Any:
    return page.locator(f"form[data-action={action}]").filter(has_text=f"seat {seat}")


def submit(page: Any, action: str, seat: int) -> None:
    form(page, action, seat).locator("button.action").tap()
    settled(page)


def deal(page: Any, seat: int, cards: tuple[str, ...]) -> None:
    picker = form(page, "deal", seat)
    for card in cards:
        picker.locator(f"button[data-card='{card}']").tap()
    submit(page, "deal", seat)


def play_to_the_settle_screen(page: Any, live_server: Any, dealer: Any) -> None:
    log_in(page, live_server, dealer)
    page.locator("button.tile", has_text="HCF-T").tap()
    page.get_by_role("heading", name="Between hands").wait_for()
    # Seat 1 accepts as the hand opens: the bank pre-filled at the table's minimum, 5000.
    page.get_by_role("button", name="Open hand").tap()
    page.get_by_role("heading", name="Actions").wait_for()
    settled(page)
    wager = form(page, "wager", 2)
    wager.get_by_label("ante", exact=True).fill("1000")
    wager.get_by_label("flush bonus", exact=True).fill("500")
    submit(page, "wager", 2)
    form(page, "wager", 3).get_by_label("ante", exact=True).fill("1000")
    submit(page, "wager", 3)
    deal(page, 2, P2_CARDS)
    deal(page, 3, P3_CARDS)
    deal(page, 1, DP_CARDS)
    form(page, "raise", 2).get_by_role("button", name="min 1000").tap()
    submit(page, "raise", 2)
    submit(page, "fold", 3)
    page.get_by_role("heading", name="Check before settling").wait_for()


def test_the_offered_seat_accepts_as_the_hand_opens_in_one_request(hcf, dealer, live_server, page):
    """Between hands the dealer's routine is one request: the offered seat's acceptance with
    its bank rides in the opening call. Two hands: seat 1 accepts at once; then seat 2
    declines (its own action) and seat 3 accepts with the largest bank."""
    from tables.models import Hand

    requests: list[Any] = []
    page.on("request", lambda request: requests.append(request))

    def open_with(seat: int, bank: int, choose: Any) -> None:
        opening = page.get_by_role("form", name="Open hand")
        ride = opening.locator("fieldset[data-rides=accept]")
        assert ride.locator("legend").inner_text() == f"accept · seat {seat}"
        choose(ride)
        requests.clear()
        opening.get_by_role("button", name="Open hand").tap()
        page.get_by_role("heading", name="Actions").wait_for()
        settled(page)
        posts = [r for r in requests if r.method == "POST"]
        assert [(r.url, r.post_data_json) for r in posts] == [
            (
                f"{live_server.url}/api/v1/tables/{hcf.pk}/hands/",
                {"accept": {"seat": seat, "bank": bank}},
            )
        ]
        assert posts[0].headers.get("idempotency-key")
        assert not [r for r in requests if "/game/actions/" in r.url]
        hand = Hand.objects.order_by("-number").first()
        assert hand.config["designated_player"] == {"seat": seat, "bank": bank}
        shown = page.locator("dt:has-text('Designated player') + dd").inner_text()
        assert shown == f"seat {seat} · Bank {bank}"

    def play_and_settle(dp: int, player: int) -> None:
        form(page, "wager", player).get_by_label("ante", exact=True).fill("1000")
        submit(page, "wager", player)
        deal(page, player, P2_CARDS)
        deal(page, dp, DP_CARDS)
        submit(page, "fold", player)
        page.get_by_role("button", name="Settle hand").tap()
        page.get_by_role("button", name="Next hand").wait_for()
        settled(page)
        page.get_by_role("button", name="Next hand").tap()
        page.get_by_role("heading", name="Between hands").wait_for()
        settled(page)

    log_in(page, live_server, dealer)
    page.locator("button.tile", has_text="HCF-T").tap()
    page.get_by_role("heading", name="Between hands").wait_for()
    settled(page)
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / "tablet-open-with-acceptance.png"), full_page=True)

    def typed_in_the_accept_form(ride: Any) -> None:
        # Typed where the acceptance is its own action: the opening carries the same bank.
        form(page, "accept", 1).get_by_label("bank", exact=True).fill("20000")
        assert ride.get_by_label("bank", exact=True).input_value() == "20000"

    def the_largest_in_the_opening(ride: Any) -> None:
        ride.get_by_role("button", name="max 1000000").tap()
        own = form(page, "accept", 3).get_by_label("bank", exact=True)
        assert own.input_value() == "1000000"

    open_with(1, 20_000, typed_in_the_accept_form)
    play_and_settle(1, 2)
    # The position is offered on clockwise: seat 2 declines on its own, seat 3 accepts.
    requests.clear()
    submit(page, "decline", 2)
    assert [r.url for r in requests if r.method == "POST"] == [
        f"{live_server.url}/api/v1/tables/{hcf.pk}/game/actions/"
    ]
    open_with(3, 1_000_000, the_largest_in_the_opening)
    play_and_settle(3, 1)
    kinds = list(
        TableEvent.objects.filter(kind__startswith="rotation_")
        .order_by("id")
        .values_list("kind", "data__seat")
    )
    assert [k for k in kinds if k[0] in ("rotation_accept", "rotation_decline")] == [
        ("rotation_accept", 1),
        ("rotation_decline", 2),
        ("rotation_accept", 3),
    ]
    assert Settlement.objects.count() == 2


def expected_nets() -> dict[int, int]:
    record = {
        "designated_player": {"seat": 1, "bank": 5000, "cards": list(DP_CARDS)},
        "players": [
            {"seat": 2, "cards": list(P2_CARDS), "ante": 1000, "raise": 1000, "flush_bonus": 500},
            {"seat": 3, "cards": list(P3_CARDS), "ante": 1000, "raise": 0},
        ],
    }
    rules = {"rake": {"scheme": "per_player", "amount": 100}}
    result = registry()["high-card-flush"].evaluate(record, rules)
    return {seat.seat: seat.net for seat in result.seats}


def shown_nets(page: Any) -> dict[int, int]:
    rows = page.locator(".settlement tbody tr")
    return {
        int(rows.nth(i).get_attribute("data-seat")): int(
            rows.nth(i).locator("td.net").inner_text().replace("+", "")
        )
        for i in range(rows.count())
    }


def test_a_hand_is_dealt_and_settled_by_touch_and_matches_the_engine(
    hcf, dealer, live_server, page
):
    play_to_the_settle_screen(page, live_server, dealer)
    wanted = expected_nets()
    assert shown_nets(page) == wanted  # the preview, before anything is stored
    assert Settlement.objects.count() == 0
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / "tablet-high-card-flush.png"), full_page=True)
    page.get_by_role("button", name="Settle hand").tap()
    page.get_by_role("button", name="Next hand").wait_for()
    assert shown_nets(page) == wanted
    assert page.locator(".explanation li").count() >= 3
    settlement = Settlement.objects.get()
    assert {row.seat: row.net for row in settlement.seats.all()} == wanted


def test_a_double_tap_on_settle_stores_one_settlement(hcf, dealer, live_server, page):
    play_to_the_settle_screen(page, live_server, dealer)
    page.get_by_role("button", name="Settle hand").dblclick()
    page.get_by_role("button", name="Next hand").wait_for()
    assert Settlement.objects.count() == 1


def test_a_request_cut_off_is_retried_with_its_key_and_stored_once(hcf, dealer, live_server, page):
    log_in(page, live_server, dealer)
    page.locator("button.tile", has_text="HCF-T").tap()
    submit(page, "accept", 1)
    page.get_by_role("button", name="Open hand").tap()
    page.get_by_role("heading", name="Actions").wait_for()
    settled(page)
    cut: list[str] = []

    def drop_the_first_answer(route: Any) -> None:
        if not cut:
            # The request reaches the server, but its answer is lost on the way back.
            response = route.fetch()
            cut.append(route.request.headers["idempotency-key"])
            assert response.status == 200
            route.abort("connectionreset")
        else:
            assert route.request.headers["idempotency-key"] == cut[0]
            route.continue_()

    page.route("**/api/v1/hands/*/actions/", drop_the_first_answer)
    form(page, "wager", 2).get_by_label("ante", exact=True).fill("1000")
    form(page, "wager", 2).locator("button.action").tap()
    page.get_by_role("status").filter(has_text="Not sent yet").wait_for()
    # The outbox retries by itself with the same key; the server replays its first answer.
    settled(page)
    page.locator("form[data-action=deal]").first.wait_for()
    assert HandAction.objects.filter(action__type="wager").count() == 1


def test_a_large_payout_waits_on_the_tablet_until_the_floor_signs_it(
    hcf, dealer, floor, live_server, page
):
    from approvals import services as approvals
    from approvals.models import Approval
    from payouts.models import SignoffLimit

    SignoffLimit.objects.create(table=hcf, line=1000, net=1000, set_by=floor)
    play_to_the_settle_screen(page, live_server, dealer)
    wanted = expected_nets()
    page.get_by_role("button", name="Settle hand").tap()
    page.get_by_role("heading", name="Waiting for the floor").wait_for()
    settled(page)
    assert page.get_by_text("The settlement is above the sign-off limit").count() == 1
    assert shown_nets(page) == wanted  # what signing it will pay
    assert Settlement.objects.count() == 0
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / "tablet-waiting-for-the-floor.png"), full_page=True)
    request = Approval.objects.get(kind="payout", status="pending")
    approvals.approval_decide(user=floor, approval_id=request.pk, approve=True)
    page.get_by_role("button", name="Check again").tap()
    page.get_by_role("button", name="Next hand").wait_for()
    assert shown_nets(page) == wanted
    assert {row.seat: row.net for row in Settlement.objects.get().seats.all()} == wanted


def test_a_void_is_asked_for_by_touch_and_the_hand_waits_for_the_floor(
    hcf, dealer, floor, live_server, page
):
    from approvals import services as approvals
    from approvals.models import Approval
    from tables.models import Hand

    def ask(reason: str) -> None:
        page.get_by_text("Void request").tap()
        page.get_by_label("Reason").fill(reason)
        page.get_by_role("button", name="Ask the floor to void the hand").tap()
        page.get_by_role("heading", name="Waiting for the floor").wait_for()
        settled(page)

    log_in(page, live_server, dealer)
    page.locator("button.tile", has_text="HCF-T").tap()
    submit(page, "accept", 1)
    page.get_by_role("button", name="Open hand").tap()
    page.get_by_role("heading", name="Actions").wait_for()
    settled(page)
    # Asked by mistake, then taken back: the hand's actions come back.
    ask("wrong button")
    assert page.locator("form[data-action]").count() == 0  # nothing to record meanwhile
    page.get_by_role("button", name="Withdraw the request").tap()
    page.get_by_role("heading", name="Actions").wait_for()
    ask("misdeal: seat 3 has 8 cards")
    assert page.get_by_text("dealer asked to void this hand: misdeal: seat 3 has 8 cards").count()
    # A floor manager approves from the queue; the tablet sees it at its next look.
    request = Approval.objects.get(status="pending")
    approvals.approval_decide(user=floor, approval_id=request.pk, approve=True)
    page.get_by_role("button", name="Check again").tap()
    page.get_by_role("heading", name="Hand 1: voided").wait_for()
    assert page.get_by_text("Voided by floor: misdeal: seat 3 has 8 cards").count() == 1
    assert Hand.objects.get().status == "voided"
    assert list(Approval.objects.values_list("status", flat=True).order_by("id")) == [
        "withdrawn",
        "approved",
    ]


def engine_nets(settlement: Settlement) -> dict[int, int]:
    """The engine's own answer for the stored hand: its history replayed."""
    from casino.rules.contract import History

    history = History.from_dict(settlement.history)
    result = registry()[history.game].replay(history).settle()
    return {seat.seat: seat.net for seat in result.parties}


def test_a_five_card_draw_hand_is_opened_and_settled_by_touch(
    draw_table, dealer, live_server, page
):
    from tests.conftest import DRAW_HANDS

    at_table(page, live_server, dealer, draw_table)
    opening = page.get_by_role("form", name="Open hand")
    opening.wait_for()
    for seat in (1, 2, 3):
        # One seat at a time: the card that completes a seat's five moves on to the next.
        part = opening.locator(f"fieldset.seat-part[data-seat='{seat}']")
        assert opening.locator("fieldset.seat-part:visible").count() == 1 and part.is_visible()
        part.get_by_label("stack", exact=True).fill("10000")
        for card in DRAW_HANDS[seat]:
            part.locator(f"button[data-card='{card}']").tap()
        if seat > 1:  # cards given to the seats before are taken here
            assert part.locator(f"button[data-card='{DRAW_HANDS[1][0]}']").is_disabled()
    tabs = opening.get_by_role("tab")
    assert [tabs.nth(i).inner_text() for i in range(tabs.count())] == [
        "seat 1 ✓",
        "seat 2 ✓",
        "seat 3 ✓",
    ]
    page.get_by_role("button", name="Open hand").tap()
    page.get_by_role("heading", name="Actions").wait_for()
    settled(page)
    for _ in range(2):  # the first two to act fold: the big blind takes the pot
        page.locator("form[data-action=fold] button.action").first.tap()
        settled(page)
    page.get_by_role("heading", name="Check before settling").wait_for()
    page.get_by_role("button", name="Settle hand").tap()
    page.get_by_role("button", name="Next hand").wait_for()
    settlement = Settlement.objects.get()
    assert shown_nets(page) == engine_nets(settlement)
    assert sum(shown_nets(page).values()) + settlement.rake == 0
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / "tablet-five-card-draw-7a.png"), full_page=True)


def test_a_paiute_hand_is_dealt_drawn_called_and_settled_by_touch(
    paiute_table, dealer, live_server, page
):
    from tests.tables.test_paiute_live import DEAL

    at_table(page, live_server, dealer, paiute_table)
    opening = page.get_by_role("form", name="Open hand")
    opening.wait_for()
    for seat, cards in DEAL["hands"].items():
        part = opening.locator(f"fieldset.seat-part[data-seat='{seat}']")
        for card in cards:
            part.locator(f"button[data-card='{card}']").tap()
    opening.locator("fieldset.picker", has_text="upcard").locator("button[data-card='3c']").tap()
    page.get_by_role("button", name="Open hand").tap()
    page.get_by_role("heading", name="Actions").wait_for()
    settled(page)

    def draw(seat: int, source: str, card: str | None = None) -> None:
        step = form(page, "draw", seat)
        step.get_by_role("radio", name=source).tap()
        if card:
            step.locator(f"button[data-card='{card}']").tap()
        submit(page, "draw", seat)

    def discard(seat: int, card: str) -> None:
        form(page, "discard", seat).locator(f"[role=radio][data-card='{card}']").tap()
        submit(page, "discard", seat)

    draw(2, "stock", "7d")
    submit(page, "call", 2)  # four kings with a wild three, and sevens: six cards
    draw(3, "stock", "9c")
    discard(3, "9c")
    draw(1, "discard")
    discard(1, "2c")
    page.get_by_role("heading", name="Check before settling").wait_for()
    page.get_by_role("button", name="Settle hand").tap()
    page.get_by_role("button", name="Next hand").wait_for()
    settlement = Settlement.objects.get()
    assert shown_nets(page) == engine_nets(settlement) == {1: -100, 2: 200, 3: -100}
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / "tablet-paiute.png"), full_page=True)


def test_a_palace_poker_hand_is_fought_and_settled_by_touch(
    palace_table, dealer, live_server, page
):
    from tests.tables.test_palace_live import PLAYERS

    at_table(page, live_server, dealer, palace_table)
    opening = page.get_by_role("form", name="Open hand")
    opening.wait_for()
    for player in PLAYERS:
        part = opening.locator(f"fieldset.seat-part[data-seat='{player['seat']}']")
        part.get_by_label("stack", exact=True).fill(str(player["stack"]))
        banner = part.locator("fieldset.picker", has_text="banner")
        banner.locator(f"button[data-card='{player['banner']}']").tap()
        palace = part.locator("fieldset.picker", has_text="palace")
        for card in player["palace"]:
            palace.locator(f"button[data-card='{card}']").tap()
    page.get_by_role("button", name="Open hand").tap()
    page.get_by_role("heading", name="Actions").wait_for()
    settled(page)

    def battle(target: int) -> None:
        step = page.locator("form[data-action=battle]").first
        step.get_by_role("radio", name=str(target)).tap()
        step.locator("button.action").tap()
        settled(page)

    def answer(kind: str) -> None:
        page.locator(f"form[data-action={kind}] button.action").first.tap()
        settled(page)

    battle(3)  # seat 2 attacks seat 3 with the least bet
    answer("fold")  # seat 3 folds: out
    battle(2)  # seat 1 attacks seat 2
    answer("call")
    page.get_by_role("heading", name="Check before settling").wait_for()
    page.get_by_role("button", name="Settle hand").tap()
    page.get_by_role("button", name="Next hand").wait_for()
    settlement = Settlement.objects.get()
    assert shown_nets(page) == engine_nets(settlement)
    assert shown_nets(page)[1] == 2750 - 250 - 500
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / "tablet-palace-poker.png"), full_page=True)


def test_a_pontoon_hand_from_the_first_banker_to_the_settlement_by_touch(
    floor, dealer, live_server, page
):
    from tests.tables.test_pontoon_live import make_table

    table = make_table(floor, dealer)
    at_table(page, live_server, dealer, table)
    between = page.locator("form[data-action=choose_banker]")
    between.get_by_role("radio", name="3").tap()
    between.locator("button.action").tap()
    settled(page)
    page.get_by_role("button", name="Open hand").tap()
    page.get_by_role("heading", name="Actions").wait_for()
    settled(page)
    cards = {1: ["As", "Kc"], 2: ["9h", "9c"], 3: ["Td", "7d"]}
    stakes = {1: "100", 2: "200"}
    while page.get_by_role("heading", name="Check before settling").count() == 0:
        seat = int(page.locator("dt:has-text('To act') + dd").inner_text().split()[-1])
        kinds = [f.get_attribute("data-action") for f in page.locator("form[data-action]").all()]
        if "deal" in kinds:
            step = page.locator("form[data-action=deal]").first
            step.locator(f"button[data-card='{cards[seat].pop(0)}']").tap()
        elif "stake" in kinds:
            step = page.locator("form[data-action=stake]").first
            step.get_by_label("amount", exact=True).fill(stakes[seat])
        else:
            kind = next(k for k in ("no_shoot", "stand", "stick") if k in kinds)
            step = page.locator(f"form[data-action={kind}]").first
        step.locator("button.action").tap()
        settled(page)
    page.get_by_role("button", name="Settle hand").tap()
    page.get_by_role("button", name="Next hand").wait_for()
    settlement = Settlement.objects.get()
    assert shown_nets(page) == engine_nets(settlement) == {1: 200, 2: 200, 3: -400}
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / "tablet-pontoon.png"), full_page=True)


def test_the_dealer_picks_greek_and_the_tablet_speaks_greek(hcf, dealer, live_server, page):
    page.goto(f"{live_server.url}/tablet/")
    page.select_option("#language", "el")
    page.get_by_role("button", name="Change").tap()
    page.get_by_role("heading", name="Σύνδεση").wait_for()  # "Log in"
    assert page.locator("html").get_attribute("lang") == "el"
    assert page.get_by_label("Γλώσσα").count() == 1  # "Language"
    page.fill("#username", dealer.username)
    page.fill("#password", PASSWORD)
    page.get_by_role("button", name="Σύνδεση").tap()
    page.get_by_role("heading", name="Τα τραπέζια σας").wait_for()  # "Your tables"
    page.locator("button.tile", has_text="HCF-T").tap()
    page.get_by_role("heading", name="Ανάμεσα στα χέρια").wait_for()  # "Between hands"
    assert page.get_by_role("button", name="Άνοιγμα χεριού").count() == 1  # "Open hand"
    assert page.locator("form[data-action=accept] button.action").inner_text().startswith("αποδοχή")
    # The acceptance that rides in the opening call, said so in Greek.
    ride = page.get_by_role("form", name="Άνοιγμα χεριού").locator("fieldset[data-rides=accept]")
    assert ride.get_by_text("Καταγράφεται με το άνοιγμα του χεριού.").count() == 1


def test_the_dealer_seats_a_player_and_sits_one_out_between_hands(hcf, dealer, live_server, page):
    log_in(page, live_server, dealer)
    page.locator("button.tile", has_text="HCF-T").tap()
    page.get_by_role("heading", name="Between hands").wait_for()
    page.get_by_label("Player for seat 5").fill("Eva")
    page.locator("li.seat", has_text="Seat 5").get_by_role("button", name="Seat player").tap()
    settled(page)
    page.locator("li.seat", has_text="Seat 2").get_by_role("button", name="Sit out").tap()
    settled(page)
    seats = {seat.number: (seat.player, seat.sitting_out) for seat in hcf.seats.all()}
    assert seats[5] == ("Eva", False) and seats[2] == ("Bela", True)
    assert page.locator("li.seat", has_text="Seat 2").get_by_text("sitting out").count() == 1


CONTROLS_WITHOUT_NAME_OR_SMALL = """() => {
  const problems = [];
  for (const node of document.querySelectorAll('button, input, select')) {
    if (node.type === 'hidden' || node.offsetParent === null) continue;
    const box = node.getBoundingClientRect();
    const labelled = node.labels && node.labels.length;
    const name = node.getAttribute('aria-label') || node.textContent.trim() || labelled;
    if (!name) problems.push('no name: ' + node.outerHTML.slice(0, 80));
    if (box.width < 48 || box.height < 48) problems.push('small: ' + node.outerHTML.slice(0, 80));
  }
  if (document.documentElement.scrollWidth > window.innerWidth) problems.push('scrolls sideways');
  return problems;
}"""


@pytest.mark.parametrize("size", [(1024, 768), (768, 1024)], ids=["landscape", "portrait"])
def test_every_control_is_named_and_big_enough_and_a_reload_resumes_the_hand(
    hcf, dealer, live_server, page, size
):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    log_in(page, live_server, dealer)
    assert page.evaluate(CONTROLS_WITHOUT_NAME_OR_SMALL) == []
    page.locator("button.tile", has_text="HCF-T").tap()
    page.get_by_role("heading", name="Between hands").wait_for()
    settled(page)
    assert page.evaluate(CONTROLS_WITHOUT_NAME_OR_SMALL) == []  # the acceptance in the opening
    submit(page, "accept", 1)
    assert page.evaluate(CONTROLS_WITHOUT_NAME_OR_SMALL) == []
    page.get_by_role("button", name="Open hand").tap()
    page.get_by_role("heading", name="Actions").wait_for()
    settled(page)
    assert page.evaluate(CONTROLS_WITHOUT_NAME_OR_SMALL) == []
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"tablet-hand-{size[0]}x{size[1]}.png"), full_page=True)
    page.reload()
    page.get_by_role("heading", name="Actions").wait_for()  # the same hand, from the server
    assert page.get_by_role("heading", name="Hand 1 · High Card Flush").count() == 1
