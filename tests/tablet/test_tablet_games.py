"""One ordinary hand of every game on the demo table's five players, by touch, within the tap
budget (cards dealt + decisions + 3: open, settle, confirm) and with nothing typed; the seat
to act and its buttons always inside the viewport; every screen accessible."""

from __future__ import annotations

from typing import Any

import pytest

from payouts.models import Settlement
from tests.tablet.dealing import Dealer, demo_table

pytestmark = pytest.mark.django_db(transaction=True)

VIEWPORTS = [{"width": 1024, "height": 768}, {"width": 768, "height": 1024}]


@pytest.fixture(params=VIEWPORTS, ids=["landscape", "portrait"])
def viewport(request: Any, page: Any) -> dict[str, int]:
    page.set_viewport_size(request.param)
    return request.param


def nets_shown(page: Any) -> dict[int, str]:
    return {
        int(node.get_attribute("data-seat-view")): node.locator(".net").inner_text()
        for node in page.locator("[data-seat-view]").all()
        if node.locator(".net").count()
    }


def test_high_card_flush(floor, dealer, live_server, page, viewport):
    table = demo_table("high-card-flush", floor, dealer)
    tablet = Dealer(page, live_server)
    tablet.at_table(dealer, table)
    tablet.check_screen("hcf between hands")
    tablet.shot("hcf-table")
    tablet.act("accept", 1, "min")  # opens the hand, seat 1 banking the least
    deck = iter(
        ["2c", "5d", "7h", "9s", "Jc", "Kd", "Ah"]
        + ["2d", "4c", "6h", "8s", "Tc", "Qd", "As"]
        + ["3h", "5s", "7c", "9d", "Jh", "Ks", "Ac"]
        + ["3c", "4d", "6s", "8h", "Td", "Qs", "Ad"]
        + ["2h", "3s", "4h", "5c", "6d", "7s", "8c"]
    )
    cards = decisions = 0
    for seat in (2, 3, 4, 5):
        tablet.check_screen("hcf wagers")
        tablet.act("wager", seat, "min")
        decisions += 1
    tablet.shot("hcf-wagers-done")
    while True:
        kinds = {a[0] for a in tablet.actions()}
        if "deal" in kinds:
            tablet.check_screen("hcf deal")
            for _ in range(7):
                tablet.card(next(deck))
                cards += 1
        elif "raise" in kinds or "fold" in kinds:
            tablet.check_screen("hcf decisions")
            seat = tablet.to_act()
            action = next(a for a in tablet.actions() if a[0] in ("raise", "fold"))
            tablet.act("raise", action[1], "min") if decisions % 2 else tablet.act(
                "fold", action[1]
            )
            decisions += 1
        else:
            break
    tablet.shot("hcf-complete")
    tablet.check_screen("hcf settle")
    tablet.settle()
    tablet.shot("hcf-settled")
    settlement = Settlement.objects.get()
    assert tablet.typed == 0
    tablet.report(cards, decisions)
    assert tablet.taps <= cards + decisions + 3, (tablet.taps, cards, decisions)
    assert set(nets_shown(page)) >= {1, 2, 3, 4, 5}
    assert sum(row.net for row in settlement.seats.all()) + settlement.rake == 0


# ---------------------------------------------------------------- Five Card Draw 7-A

DRAW_DEAL = {  # five players, the 36-card deck (sixes added)
    1: ["As", "Ad", "Ac", "Kh", "Kd"],  # full house: stands pat
    2: ["7s", "8d", "9c", "Jh", "Qd"],  # draws three
    3: ["7h", "8c", "9d", "Js", "Qc"],  # draws one
    4: ["Th", "Tc", "8s", "9s", "Jd"],  # draws three
    5: ["6s", "6h", "7c", "Ts", "Qs"],  # stands pat
}
DRAWS = {
    2: (["7s", "8d", "9c"], ["Ah", "Kc", "Ks"]),
    3: (["7h"], ["Td"]),
    4: (["8s", "9s", "Jd"], ["6c", "6d", "7d"]),
}


def settle_by_api(client: Any, table: Any, body: dict[str, Any]) -> None:
    """A first hand through the API (everybody folds to the big blind), so the tablet's hand
    starts from where a settlement left the stacks."""
    opened = client.post(f"/api/v1/tables/{table.pk}/hands/", body, format="json")
    assert opened.status_code == 201, opened.json()
    hand = opened.json()
    state = hand["state"]
    while not state["complete"]:
        legal = {a["type"]: a for a in state["legal_actions"]}
        seat = state["to_act"]
        kind = "fold" if "fold" in legal else "check" if "check" in legal else next(iter(legal))
        response = client.post(
            f"/api/v1/hands/{hand['id']}/actions/", {"type": kind, "seat": seat}, format="json"
        )
        assert response.status_code == 200, response.json()
        state = response.json()
    assert client.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json").status_code in (
        200,
        201,
    )


def test_five_card_draw_7a(floor, dealer, live_server, page, viewport, client_for):
    table = demo_table("five-card-draw-7a", floor, dealer)
    first = [{"seat": s, "stack": 10_000, "cards": cards} for s, cards in DRAW_DEAL.items()]
    settle_by_api(client_for(dealer), table, {"seats": first})
    tablet = Dealer(page, live_server)
    tablet.at_table(dealer, table)
    tablet.check_screen("7a between hands")
    for seat in tablet.page.locator("[data-seat-view]").all()[:5]:
        assert "$" in seat.locator(".stack").inner_text()  # carried from the last settlement
    cards = decisions = 0
    cards += tablet.deal_opening(DRAW_DEAL)
    tablet.shot("7a-dealt")
    tablet.check_screen("7a dealt")
    tablet.act("open")
    tablet.check_screen("7a betting")
    drawn: set[int] = set()
    for _ in range(60):
        kinds = {a[0] for a in tablet.actions()}
        if "settle" in kinds:
            break
        seat = tablet.to_act()
        if "draw" in kinds:
            tablet.check_screen("7a draw")
            thrown, new = DRAWS.get(seat, ([], []))
            if not thrown:
                tablet.act("draw", seat)  # stands pat
                decisions += 1
            else:
                tablet.card(thrown[0])
                tablet.check_screen("7a a discard picked")  # the pressed card's colours too
                tablet.cards(thrown[1:])
                decisions += len(thrown)
                if seat == 2:
                    tablet.shot("7a-drawing")
                tablet.cards(new)
                cards += len(new)
            drawn.add(seat)
        elif "check" in kinds:
            tablet.act("check", seat)
            decisions += 1
        elif "call" in kinds:
            tablet.act("call", seat)
            decisions += 1
        else:
            tablet.shot("failed")
            raise AssertionError(f"nothing to do: {tablet.actions()}")
    assert drawn == {1, 2, 3, 4, 5}
    tablet.shot("7a-complete")
    tablet.settle()
    tablet.shot("7a-settled")
    assert tablet.typed == 0
    tablet.report(cards, decisions)
    assert tablet.taps <= cards + decisions + 3, (tablet.taps, cards, decisions)
    hand = Settlement.objects.order_by("-pk").first().hand
    draws = {
        a.action["seat"]: len(a.action["discard"])
        for a in hand.actions.all()
        if a.action.get("type") == "draw"
    }
    assert draws == {1: 0, 2: 3, 3: 1, 4: 3, 5: 0}


# ---------------------------------------------------------------- Pontoon

PONTOON_CARDS = {  # banker: seat 5 (the demo's first banker)
    1: ["Kc", "9c"],  # 19: sticks
    2: ["9h", "8d"],  # 17: sticks
    3: ["Td", "7d"],  # 17: sticks
    4: ["5s", "6s", "8h"],  # 11, twists an 8: 19, sticks
    5: ["8c", "9s"],  # the banker's 17: stands
}


def pontoon_round(
    tablet: Dealer, cards: dict[int, list[str]], splits: set[int] = frozenset()
) -> tuple[int, int]:
    """Play the hand the bar asks for: deal the next card of the seat to act, stake the
    least, split where the seat is in ``splits`` (each split hand then sticks on its two
    cards), stick or stand where the seat has had its cards, twist otherwise. Returns the cards dealt and the decisions taken."""
    dealt = decisions = 0
    split = set()
    for _ in range(80):
        offered = tablet.actions()
        kinds = {a[0] for a in offered}
        if "settle" in kinds:
            return dealt, decisions
        seat = int(next(a[1] for a in offered if a[1]))
        if "split" in kinds and seat in splits and seat not in split:
            tablet.check_screen("pontoon split")
            tablet.act("split", seat)
            split.add(seat)
            decisions += 1
        elif kinds == {"deal"} or ("deal" in kinds and len(kinds) == 1):
            if not cards[seat]:
                tablet.shot("failed")
            assert cards[seat], (seat, offered)
            tablet.card(cards[seat].pop(0))
            dealt += 1
        elif seat in split and "stick" in kinds:
            tablet.act("stick", seat)
            decisions += 1
        elif "stake" in kinds:
            tablet.check_screen("pontoon stakes")
            tablet.act("stake", seat, "min")
            decisions += 1
        elif "no_shoot" in kinds:
            tablet.act("no_shoot", seat)
            decisions += 1
        elif cards[seat]:  # more cards to come: twist (the picker is armed for it)
            tablet.check_screen("pontoon twist")
            tablet.card(cards[seat].pop(0))
            dealt += 1
            decisions += 1
        else:
            kind = next(k for k in ("stick", "stand") if k in kinds)
            tablet.act(kind, seat)
            decisions += 1
    raise AssertionError(f"the hand did not end: {tablet.actions()}")


def test_pontoon(floor, dealer, live_server, page, viewport):
    table = demo_table("pontoon", floor, dealer)
    tablet = Dealer(page, live_server)
    tablet.at_table(dealer, table)
    tablet.check_screen("pontoon between hands")
    tablet.shot("pontoon-table")
    tablet.act("open")
    tablet.check_screen("pontoon deal")
    cards, decisions = pontoon_round(tablet, {s: list(c) for s, c in PONTOON_CARDS.items()})
    tablet.shot("pontoon-complete")
    tablet.settle()
    tablet.shot("pontoon-settled")
    assert tablet.typed == 0
    tablet.report(cards, decisions)
    assert tablet.taps <= cards + decisions + 3, (tablet.taps, cards, decisions)
    assert Settlement.objects.count() == 1


def test_pontoon_split(floor, dealer, live_server, page, viewport):
    """Seat 1 splits its sevens; both hands get their second card and stick, each with its
    own total on the seat's view."""
    table = demo_table("pontoon", floor, dealer)
    tablet = Dealer(page, live_server)
    tablet.at_table(dealer, table)
    tablet.act("open")
    cards = {s: list(c) for s, c in PONTOON_CARDS.items()}
    cards[1] = ["7h", "7c", "Kh", "Qs"]  # the pair, then each split hand's second card
    dealt, decisions = pontoon_round(tablet, cards, splits={1})
    tablet.shot("pontoon-split")
    hands = page.locator("[data-seat-view='1'] .sub-hand")
    assert hands.count() == 2
    totals = [hands.nth(i).locator(".total").inner_text() for i in range(2)]
    assert totals == ["17", "17"], totals
    faces = [
        [f.get_attribute("data-face") for f in h.locator("[data-face]").all()] for h in hands.all()
    ]
    assert faces == [["7h", "Kh"], ["7c", "Qs"]]
    tablet.settle()
    tablet.report(dealt, decisions)
    assert tablet.typed == 0
    assert tablet.taps <= dealt + decisions + 3, (tablet.taps, dealt, decisions)
    result = Settlement.objects.get().result
    seat = next(s for s in result["seats"] if s["seat"] == 1)
    assert len([line for line in seat["lines"] if line["amount"]]) == 2  # a line a hand


# ---------------------------------------------------------------- Paiute

PAIUTE_DEAL = {  # the dealer is seat 1; the three of clubs turned up: threes are wild
    1: ["2c", "4d", "6h", "8s", "Tc"],
    2: ["Ks", "Kh", "Kd", "3s", "7s"],  # four kings with the wild three
    3: ["2d", "4h", "6s", "8d", "Jc"],
    4: ["5c", "9h", "Qd", "Jd", "2h"],
    5: ["5d", "5h", "Qh", "Th", "2s"],
}
PAIUTE_TURNS = {  # seat: (card drawn from the stock or None for the discard, card thrown)
    3: ("9c", "9c"),
    4: ("4c", "4c"),
    5: ("4s", "4s"),
    1: (None, "2c"),  # takes the four of spades from the discard
}


def test_paiute(floor, dealer, live_server, page, viewport):
    table = demo_table("paiute", floor, dealer)
    tablet = Dealer(page, live_server)
    tablet.at_table(dealer, table)
    tablet.check_screen("paiute between hands")
    cards = tablet.deal_opening(PAIUTE_DEAL, ["3c"])
    tablet.shot("paiute-dealt")
    tablet.act("open")
    tablet.check_screen("paiute draw")
    decisions = 0
    assert page.locator(".middle .wild").inner_text().endswith("3")
    # Seat 2 draws the seven of diamonds from the stock (a tap of the armed picker) and calls
    # with four kings and sevens: the call button says the combination.
    tablet.card("7d")
    cards += 1
    call = tablet.bar("button[data-action=call][data-seat='2']").first
    assert "king" in call.inner_text().lower(), call.inner_text()
    tablet.shot("paiute-call")
    tablet.tap(call)
    decisions += 1
    for _ in range(len(PAIUTE_TURNS)):
        seat = tablet.to_act()
        drawn, thrown = PAIUTE_TURNS[seat]
        tablet.check_screen("paiute final turns")
        if drawn:
            tablet.card(drawn)
            cards += 1
        else:
            tablet.tap(
                tablet.bar(
                    f"button[data-action=draw][data-seat='{seat}'][data-choice=discard]"
                ).first
            )
            decisions += 1
        tablet.tap(tablet.bar(f"button[data-action=discard][data-card='{thrown}']").first)
        decisions += 1
    tablet.shot("paiute-complete")
    tablet.settle()
    tablet.shot("paiute-settled")
    assert tablet.typed == 0
    tablet.report(cards, decisions)
    assert tablet.taps <= cards + decisions + 3, (tablet.taps, cards, decisions)
    result = Settlement.objects.get().result
    assert {s["seat"]: s["net"] for s in result["seats"]}[2] > 0


# ---------------------------------------------------------------- Palace Poker

PALACE_DEAL = {  # seat: banner, then the three palace cards (four players from the dealer's
    # left need banners of four suits: seats 2-5 in the first hand, 3-5 and 1 in the second)
    1: ["2c", "As", "Ad", "Ac"],
    2: ["9c", "3d", "4d", "9s"],
    3: ["Ks", "5s", "6d", "8c"],
    4: ["Qd", "2s", "3h", "4s"],
    5: ["Jh", "5c", "6c", "7c"],
}


def open_palace_by_api(client: Any, table: Any) -> None:
    """A first hand through the API, everybody folding to the last player, so the tablet's
    hand starts from the stacks a settlement left."""
    players = [
        {"seat": seat, "stack": 20_000, "banner": cards[0], "palace": cards[1:]}
        for seat, cards in PALACE_DEAL.items()
    ]
    settle_by_api(client, table, {"players": players})


def test_palace_poker(floor, dealer, live_server, page, viewport, client_for):
    table = demo_table("palace-poker", floor, dealer)
    open_palace_by_api(client_for(dealer), table)
    tablet = Dealer(page, live_server)
    tablet.at_table(dealer, table)
    tablet.check_screen("palace between hands")
    cards = tablet.deal_opening(PALACE_DEAL)
    tablet.shot("palace-dealt")
    tablet.act("open")
    decisions = 0
    for _ in range(40):
        offered = tablet.actions()
        kinds = {a[0] for a in offered}
        if "settle" in kinds:
            break
        seat = tablet.to_act()
        targets = page.locator("button[data-seat-view].selectable")
        if targets.count():
            # the battle is chosen from the seat views: the target's own box
            tablet.check_screen("palace battle")
            if decisions == 0:
                tablet.shot("palace-battle")
            tablet.tap(targets.first)
        elif "fold" in kinds:
            tablet.check_screen("palace answer")
            tablet.act("fold", seat)
        else:
            raise AssertionError(f"nothing to do: {offered}")
        decisions += 1
    tablet.shot("palace-complete")
    tablet.settle()
    tablet.shot("palace-settled")
    assert tablet.typed == 0
    tablet.report(cards, decisions)
    assert tablet.taps <= cards + decisions + 3, (tablet.taps, cards, decisions)
    assert Settlement.objects.count() == 2
