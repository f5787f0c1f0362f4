"""The tablet's workflow around a hand, on the High Card Flush table HCF-T (seats 1-4, rake
100 a player), by touch: what it shows is what the engine settles; a double tap or a dropped
request never stores a step twice, and offline the hand stays on screen with a calm marker;
a large payout and a void wait for the floor; a player leaves only at a second tap; Greek is
Greek; every control is named and big enough; a reload resumes the hand."""

from __future__ import annotations

from typing import Any

import pytest

from casino.rules.contract import History, registry
from payouts.models import Settlement
from tables.models import Hand, HandAction, TableEvent
from tests.conftest import DP_CARDS, P2_CARDS, P3_CARDS
from tests.tablet.dealing import BAR, Dealer

pytestmark = pytest.mark.django_db(transaction=True)

P4_CARDS = ["Tc", "8s", "6h", "3s", "Jh", "Qc", "7d"]  # no flush: folds
#: Seat 1 banks; seat 3's five-card flush beats it (and raises), seats 2 and 4 fold.
HANDS = {1: DP_CARDS, 2: P2_CARDS, 3: P3_CARDS, 4: P4_CARDS}


def nets_on_screen(page: Any) -> dict[int, int]:
    """Each seat view's net, in minor units, as the tablet shows it."""
    return {
        int(node.get_attribute("data-seat-view")): int(
            node.locator(".net").get_attribute("data-net")
        )
        for node in page.locator("[data-seat-view]").all()
        if node.locator(".net").count()
    }


def minor_units(shown: str) -> int:
    """ "+$1.00", "−$2.00", "$0.00" as minor units (the default currency, USD)."""
    sign = -1 if shown.startswith(("−", "-")) else 1
    return sign * round(float(shown.lstrip("+−-$").replace(",", "")) * 100)


def engine_nets(settlement: Settlement) -> dict[int, int]:
    """The engine's own answer for the stored hand: its history replayed."""
    history = History.from_dict(settlement.history)
    result = registry()[history.game].replay(history).settle()
    return {seat.seat: seat.net for seat in result.parties}


def play_to_the_end(tablet: Dealer, raising: frozenset[int] = frozenset({3})) -> None:
    """Open with seat 1 banking the least, the least ante from seats 2-4, the cards as the
    bar asks for them, ``raising`` seats raise the least, the others fold."""
    tablet.act("accept", 1, "min")
    for seat in (2, 3, 4):
        tablet.act("wager", seat, "min")
    cards = {seat: list(hand) for seat, hand in HANDS.items()}
    for _ in range(60):
        kinds = {a[0] for a in tablet.actions()}
        if "settle" in kinds:
            return
        if "deal" in kinds:
            seat = int(tablet.bar("[data-armed=deal]").get_attribute("data-seat"))
            tablet.card(cards[seat].pop(0))
        elif "raise" in kinds or "fold" in kinds:
            seat = tablet.to_act()
            tablet.act("raise", seat, "min") if seat in raising else tablet.act("fold", seat)
        else:
            tablet.shot("failed")
            alerts = tablet.page.locator("[role=alert]").all_inner_texts()
            raise AssertionError(
                f"nothing to do: {kinds} then {tablet.actions()} {alerts} {tablet.traffic[-12:]}"
            )
    raise AssertionError("the hand did not end")


@pytest.fixture
def tablet(open_table: Any, dealer: Any, live_server: Any, page: Any) -> Dealer:
    """The dealer at HCF-T, between hands."""
    at = Dealer(page, live_server)
    at.at_table(dealer, open_table)
    return at


def test_what_the_tablet_shows_is_what_the_engine_settles(tablet, page):
    play_to_the_end(tablet)
    preview = nets_on_screen(page)  # before anything is stored
    assert Settlement.objects.count() == 0
    assert preview[3] > 0 and preview[2] < 0 and preview[4] < 0, preview
    tablet.check_screen("hcf before settling")
    tablet.settle()
    settlement = Settlement.objects.get()
    wanted = engine_nets(settlement)
    assert nets_on_screen(page) == preview == wanted
    assert {row.seat: row.net for row in settlement.seats.all()} == wanted
    assert sum(wanted.values()) + settlement.rake == 0
    page.locator("details.result summary").tap()
    assert page.locator("details.result .explanation li").count() >= 3
    tablet.check_screen("hcf settled")
    tablet.shot("hcf-settled-explained")


def test_a_double_tap_on_settle_stores_one_settlement(tablet, page):
    play_to_the_end(tablet)
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    settle = tablet.bar("button[data-action=settle]")
    settle.tap()  # armed: "Tap again to settle"
    assert settle.get_attribute("data-confirm") == "armed"
    tablet.check_screen("settle armed")  # the armed button's colours too
    assert Settlement.objects.count() == 0
    # The second tap bounces: two clicks in the same moment.
    settle.evaluate("(button) => { button.click(); button.click(); }")
    page.locator("details.result").wait_for()
    tablet.settled()
    assert Settlement.objects.count() == 1
    assert len([url for url in posts if url.endswith("/settle/")]) == 1


def test_an_unanswered_write_is_retried_with_its_key_while_the_hand_stays_on_screen(tablet, page):
    tablet.act("accept", 1, "min")
    keys: list[str] = []

    def lose_the_first_answer(route: Any) -> None:
        keys.append(route.request.headers["idempotency-key"])
        if len(keys) == 1:
            # The request reaches the server, but its answer is lost on the way back.
            response = route.fetch()
            assert response.status == 200
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route("**/api/v1/hands/*/actions/", lose_the_first_answer)
    marker = page.locator("#outbox.unsent")
    tablet.bar("button[data-action=wager][data-seat='2'][data-chip=min]").tap()
    marker.wait_for()
    assert "Not sent yet" in marker.inner_text()
    body = page.locator("body").inner_text()
    assert "Failed to fetch" not in body and "TypeError" not in body
    assert page.locator("[data-seat-view]").count() >= 4  # the hand is still drawn
    assert not page.locator(".alert").count()
    # The outbox retries by itself with the same key; the server replays its first answer.
    marker.wait_for(state="detached")
    page.wait_for_function("() => !document.getElementById('outbox').textContent")
    tablet.settled()
    assert len(keys) >= 2 and len(set(keys)) == 1
    assert HandAction.objects.filter(action__type="wager").count() == 1
    # And the tablet goes on from the stored step: seat 3's wager is next.
    assert tablet.bar("button[data-action=wager][data-seat='3']").count()


def test_a_large_payout_waits_on_the_tablet_until_the_floor_signs_it(
    tablet, open_table, floor, page
):
    from approvals import services as approvals
    from approvals.models import Approval
    from payouts.models import SignoffPolicy

    SignoffPolicy.objects.create(
        table=open_table, tiers=[{"above": 50, "role": "floor_manager", "count": 1}], set_by=floor
    )
    play_to_the_end(tablet)
    preview = nets_on_screen(page)
    tablet.act("settle")
    tablet.act("settle")
    page.get_by_role("heading", name="Waiting for the floor").wait_for()
    assert page.get_by_text("The settlement is above the sign-off limit").count() == 1
    shown = {
        int(row.get_attribute("data-seat")): minor_units(row.locator("td.net").inner_text())
        for row in page.locator(".settlement tbody tr").all()
    }
    assert shown == preview  # what signing it will pay, in money
    assert Settlement.objects.count() == 0
    assert tablet.bar("button[data-action]").count() == 0  # nothing to record meanwhile
    tablet.check_screen("waiting for the floor")
    tablet.shot("waiting-for-the-floor")
    request = Approval.objects.get(kind="payout", status="pending")
    approvals.approval_decide(user=floor, approval_id=request.pk, approve=True)
    tablet.touch(page.get_by_role("button", name="Check again"))
    page.locator("[data-action=next]").wait_for()
    settlement = Settlement.objects.get()
    assert engine_nets(settlement) == preview


def test_a_void_is_asked_for_in_two_taps_and_can_be_taken_back(tablet, floor, page):
    from approvals import services as approvals
    from approvals.models import Approval

    def ask(reason: str) -> None:
        page.locator("details.void summary").tap()
        page.locator("#void-reason").fill(reason)
        send = page.locator("#void-send")
        tablet.touch(send)
        assert send.get_attribute("data-confirm") == "armed"
        assert not Approval.objects.filter(status="pending").exists()  # one tap asks nothing
        tablet.touch(send)
        page.get_by_role("heading", name="Waiting for the floor").wait_for()

    tablet.act("accept", 1, "min")
    # Without a reason the first tap says so, next to the field, and arms nothing.
    page.locator("details.void summary").tap()
    tablet.touch(page.locator("#void-send"))
    problem = page.locator(".void-form .problem")
    assert problem.is_visible() and "reason" in problem.inner_text()
    assert page.locator("#void-send").get_attribute("data-confirm") == ""
    assert page.locator("#void-reason").get_attribute("aria-describedby") == "void-problem"
    tablet.check_screen("void form with a problem")
    page.locator("#void-reason").fill("x")  # typing the reason takes the problem away
    assert not problem.count()
    assert page.locator("#void-reason").get_attribute("aria-invalid") is None
    page.locator("#void-reason").fill("")
    page.locator("details.void summary").tap()  # closed again
    # Asked by mistake, then taken back: the hand's actions come back.
    ask("wrong button")
    tablet.touch(page.locator("#withdraw"))
    tablet.bar("button[data-action=wager]").first.wait_for()
    ask("misdeal: seat 3 has 8 cards")
    assert page.get_by_text("dealer asked to void this hand: misdeal: seat 3 has 8 cards").count()
    request = Approval.objects.get(status="pending")
    approvals.approval_decide(user=floor, approval_id=request.pk, approve=True)
    tablet.touch(page.get_by_role("button", name="Check again"))
    page.get_by_role("heading", name="Hand 1: voided").wait_for()
    assert page.get_by_text("Voided by floor: misdeal: seat 3 has 8 cards").count() == 1
    assert Hand.objects.get().status == "voided"
    assert list(Approval.objects.values_list("status", flat=True).order_by("id")) == [
        "withdrawn",
        "approved",
    ]


def test_the_bank_is_offered_on_and_its_acceptance_opens_the_hand_in_one_request(
    tablet, open_table, live_server, page
):
    """Seat 1 takes the bank at the least as the hand opens; after the hand seat 2 declines
    (its own step) and seat 3 takes it at the most: each opening is one POST with the
    acceptance riding in it."""
    posts: list[Any] = []
    page.on("request", lambda r: posts.append(r) if r.method == "POST" else None)
    play_to_the_end(tablet, raising=frozenset())
    opening = [r for r in posts if r.url.endswith(f"/tables/{open_table.pk}/hands/")]
    assert [r.post_data_json for r in opening] == [{"accept": {"seat": 1, "bank": 5000}}]
    assert opening[0].headers.get("idempotency-key")
    tablet.settle()
    posts.clear()
    tablet.act("decline", 2)
    assert [r.url for r in posts] == [
        f"{live_server.url}/api/v1/tables/{open_table.pk}/game/actions/"
    ]
    accept = tablet.bar("button[data-action=accept][data-seat='3'][data-chip=max]")
    assert "Open hand" in accept.inner_text() or "Open hand" in (
        accept.get_attribute("aria-label") or ""
    )
    posts.clear()
    tablet.tap(accept)
    assert [r.post_data_json for r in posts] == [{"accept": {"seat": 3, "bank": 1_000_000}}]
    hand = Hand.objects.order_by("-number").first()
    assert hand.number == 2 and hand.config["designated_player"] == {"seat": 3, "bank": 1_000_000}
    kinds = TableEvent.objects.filter(kind__in=("rotation_accept", "rotation_decline"))
    assert list(kinds.order_by("id").values_list("kind", "data__seat")) == [
        ("rotation_accept", 1),
        ("rotation_decline", 2),
        ("rotation_accept", 3),
    ]


def test_a_player_leaves_only_at_the_second_tap(tablet, open_table, page):
    tablet.touch(page.get_by_role("button", name="Seats and players"))
    # Seat a player by name, sit one out.
    page.get_by_label("Player for seat 5").fill("Eva")
    tablet.touch(page.locator("li", has_text="Seat 5").get_by_role("button", name="Seat player"))
    tablet.touch(page.locator("li", has_text="Seat 2").get_by_role("button", name="Sit out"))
    leave = page.locator("button[data-action=leave][data-seat='4']")
    tablet.touch(leave)
    assert "Tap again" in leave.inner_text() and "Dani" in leave.inner_text()
    assert open_table.seats.get(number=4).player == "Dani"  # one tap did nothing
    tablet.check_screen("seats and players")
    tablet.touch(leave)
    seats = {seat.number: (seat.player, seat.sitting_out) for seat in open_table.seats.all()}
    assert seats[5] == ("Eva", False) and seats[2] == ("Bela", True) and seats[4] == ("", False)
    assert page.locator("li", has_text="Seat 2").get_by_role("button", name="Back in").count() == 1


def test_the_dealer_picks_greek_and_the_tablet_speaks_greek(open_table, dealer, live_server, page):
    dealer.set_password("a dealer's password 42")
    dealer.save()
    page.goto(f"{live_server.url}/tablet/")
    page.select_option("#language", "el")
    page.get_by_role("button", name="Change").tap()
    page.get_by_role("heading", name="Σύνδεση").wait_for()  # "Log in"
    assert page.locator("html").get_attribute("lang") == "el"
    page.fill("#username", dealer.username)
    page.fill("#password", "a dealer's password 42")
    page.get_by_role("button", name="Σύνδεση").tap()
    page.get_by_role("heading", name="Τα τραπέζια σας").wait_for()  # "Your tables"
    tablet = Dealer(page, live_server)
    tablet.touch(page.locator("button.tile", has_text="HCF-T"))
    assert page.get_by_text("Ανάμεσα στα χέρια").count() == 1  # "Between hands"
    opening = tablet.bar("button[data-action=accept][data-chip=min]")
    label = opening.get_attribute("aria-label") or opening.inner_text()
    assert label.startswith("Άνοιγμα χεριού"), label  # "Open hand: …"
    assert "€" not in label and "$" in label  # the house currency, in the Greek way
    assert page.get_by_role("button", name="Θέσεις και παίκτες").count() == 1
    assert page.locator("#title").inner_text() == "HCF-T · Φλος υψηλού φύλλου"  # the game's name
    tablet.check_screen("greek")


CONTROLS_WITHOUT_NAME_OR_SMALL = """() => {
  const problems = [];
  for (const node of document.querySelectorAll('button, input, select, summary')) {
    if (node.type === 'hidden' || node.offsetParent === null) continue;
    const box = node.getBoundingClientRect();
    const labelled = node.labels && node.labels.length;
    const name = node.getAttribute('aria-label') || node.textContent.trim() || labelled;
    if (!name) problems.push('no name: ' + node.outerHTML.slice(0, 80));
    if (box.width < 48 || box.height < 48) problems.push('small: ' + node.outerHTML.slice(0, 80));
    const size = parseFloat(getComputedStyle(node).fontSize);
    if (size < 16) problems.push('text ' + size + 'px: ' + node.outerHTML.slice(0, 80));
  }
  if (document.documentElement.scrollWidth > window.innerWidth) problems.push('scrolls sideways');
  return problems;
}"""


@pytest.mark.parametrize("size", [(1024, 768), (768, 1024)], ids=["landscape", "portrait"])
def test_every_control_is_named_and_big_enough_and_a_reload_resumes_the_hand(
    open_table, dealer, live_server, page, size
):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    tablet = Dealer(page, live_server)
    tablet.log_in(dealer)
    assert page.evaluate(CONTROLS_WITHOUT_NAME_OR_SMALL) == []
    tablet.touch(page.locator("button.tile", has_text="HCF-T"))
    assert page.evaluate(CONTROLS_WITHOUT_NAME_OR_SMALL) == []  # between hands
    tablet.act("accept", 1, "min")
    assert page.evaluate(CONTROLS_WITHOUT_NAME_OR_SMALL) == []  # wagers
    for seat in (2, 3, 4):
        tablet.act("wager", seat, "min")
    assert page.evaluate(CONTROLS_WITHOUT_NAME_OR_SMALL) == []  # the card picker
    page.locator("details.void summary").tap()
    assert page.evaluate(CONTROLS_WITHOUT_NAME_OR_SMALL) == []  # the void form open
    seat = int(tablet.bar("[data-armed=deal]").get_attribute("data-seat"))
    tablet.cards(HANDS[seat])  # one seat's cards, stored
    page.reload()
    page.locator(f"{BAR} [data-armed=deal]").wait_for()  # the same hand, from the server
    assert page.locator("#title").inner_text() == "Hand 1 · HCF-T · High Card Flush"
    on_felt = page.locator(f"[data-seat-view='{seat}'] [data-face]")
    assert [node.get_attribute("data-face") for node in on_felt.all()] == list(HANDS[seat])
    assert page.evaluate(CONTROLS_WITHOUT_NAME_OR_SMALL) == []
