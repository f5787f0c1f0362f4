"""A dealer at the tablet, for the browser tests: every tap and every typed field counted,
controls found by the tablet's test contract (``data-card``, ``data-action``, ``data-seat``,
``data-role="actions"``, ``data-seat-view``), and the checks every screen must pass (the
seat to act and its buttons inside the viewport, no accessibility violation)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from casino.rules.contract import game as game_by_code
from tables import services
from tables.management.commands.load_demo import PLAYERS
from tests.browser import PATIENCE_MS, assert_accessible

PASSWORD = "a dealer's password 42"
ARTEFACTS = Path(__file__).resolve().parents[2] / "test-artefacts"
BAR = "[data-role=actions]"


def demo_table(code: str, floor: Any, dealer: Any) -> Any:
    """The demo floor's table of the game (``Game.demo_table``) with its five players, open,
    dealt by ``dealer``: what ``manage.py load_demo`` sets up."""
    spec = dict(game_by_code(code).demo_table or {})
    between = spec.pop("between_hands", [])
    table = services.table_create(user=floor, dealer=dealer, game=code, **spec)
    for number, player in PLAYERS.items():
        services.seat_update(
            user=floor, table_id=table.pk, number=number, player=player, sitting_out=False
        )
    table = services.table_set_status(user=floor, table_id=table.pk, status="open")
    for action in between:
        table = services.game_act(user=floor, table_id=table.pk, action=action)
    return table


class Dealer:
    """The tablet in a dealer's hands."""

    def __init__(self, page: Any, live_server: Any) -> None:
        self.page = page
        self.url = live_server.url
        self.taps = 0
        self.typed = 0
        self.checked: set[str] = set()
        self.errors: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.traffic: list[str] = []
        page.on(
            "requestfinished",
            lambda r: self.traffic.append(f"{r.method} {r.url.split('/api/v1/')[-1]}"),
        )
        page.on(
            "requestfailed",
            lambda r: self.traffic.append(f"FAILED {r.method} {r.url.split('/api/v1/')[-1]}"),
        )

    # ------------------------------------------------------------- getting there

    def log_in(self, user: Any) -> None:
        user.set_password(PASSWORD)
        user.save()
        self.page.goto(f"{self.url}/tablet/")
        self.page.fill("#username", user.username)
        self.page.fill("#password", PASSWORD)
        self.page.get_by_role("button", name="Log in").tap()
        self.page.get_by_role("heading", name="Your tables").wait_for()

    def at_table(self, user: Any, table: Any) -> None:
        self.log_in(user)
        self.touch(self.page.locator("button.tile", has_text=table.name))

    # ------------------------------------------------------------- touching

    def settled(self) -> None:
        """Wait until the tablet has its answer on screen."""
        self.page.wait_for_function(
            "() => !document.body.hasAttribute('data-busy') && document.body.dataset.ready === 'true'"
        )

    def tap(self, locator: Any) -> None:
        """A dealer's tap, counted."""
        self.touch(locator)
        self.taps += 1

    def touch(self, locator: Any) -> None:
        """Tap and wait for the screen to redraw and the answer to be in."""
        try:
            locator.wait_for(timeout=PATIENCE_MS)
        except Exception:
            self.shot("failed")
            raise
        painted = self.page.evaluate("() => document.body.dataset.painted")
        locator.tap()
        # every tap redraws (a step sent, a card picked): wait for it, then for the answer
        self.page.wait_for_function(
            "(before) => document.body.dataset.painted !== before", arg=painted
        )
        self.settled()

    def type(self, locator: Any, text: str) -> None:
        locator.fill(text)
        self.typed += 1

    def bar(self, selector: str = "") -> Any:
        return self.page.locator(f"{BAR} {selector}".strip())

    def card(self, card: str) -> None:
        """Tap a card in the action bar (the picker or the seat's own cards)."""
        self.tap(self.bar(f"button[data-card='{card}']:not([disabled])").first)

    def cards(self, cards: list[str] | tuple[str, ...]) -> None:
        for card in cards:
            self.card(card)

    def act(self, action: str, seat: int | None = None, chip: str | None = None) -> None:
        """Tap the action bar's button for ``action`` (of ``seat``; the quick chip ``chip``)."""
        selector = f"button[data-action='{action}']"
        if seat is not None:
            selector += f"[data-seat='{seat}']"
        if chip is not None:
            selector += f"[data-chip='{chip}']"
        self.tap(self.bar(selector).first)

    def actions(self) -> list[tuple[str, str | None, str | None, str]]:
        """What the bar offers now: each action button (action, seat, chip, label), and the
        plan armed for cards from the deck (action, seat, "cards", prompt)."""
        found = self.page.eval_on_selector_all(
            f"{BAR} button[data-action]:not([data-action=undo]), {BAR} [data-armed]",
            """nodes => nodes.map(n => n.dataset.armed
                ? [n.dataset.armed, n.dataset.seat || null, "cards", n.textContent]
                : [n.dataset.action, n.dataset.seat || null, n.dataset.chip || null, n.textContent])""",
        )
        return [tuple(item) for item in found]

    def labels(self) -> list[str]:
        return [
            item[3]
            for item in self.page.eval_on_selector_all(
                f"{BAR} button[data-action]", "nodes => nodes.map(n => [0, 0, 0, n.textContent])"
            )
        ]

    def deal_opening(self, hands: dict[Any, list[str]], table_cards: list[str] = ()) -> int:
        """Deal the next hand's cards as the bar asks for them, seat by seat: ``hands`` by
        seat, then ``table_cards`` (an upcard). Returns the number of cards tapped."""
        given = {int(seat): list(cards) for seat, cards in hands.items()}
        rest = list(table_cards)
        taps = 0
        while True:
            box = self.page.locator(f"{BAR} [data-armed=opening]")
            if not box.count():
                return taps
            seat = box.get_attribute("data-seat")
            self.card(given[int(seat)].pop(0) if seat else rest.pop(0))
            taps += 1

    def settle(self) -> None:
        """Settle: two taps, the second confirming."""
        self.act("settle")
        self.act("settle")
        self.page.locator("details.result").wait_for()

    # ------------------------------------------------------------- checks

    def to_act(self) -> int | None:
        seat = self.page.locator("[data-seat-view][aria-current=true]")
        if not seat.count():
            return None
        return int(seat.first.get_attribute("data-seat-view"))

    def assert_in_view(self, where: str) -> None:
        """The seat to act and every button of the bar are inside the viewport (measured in
        one go, on the screen as it is)."""
        boxes = self.page.evaluate(
            """(bar) => {
                const out = [];
                const seat = document.querySelector("[data-seat-view][aria-current=true]");
                const rect = (node) => { const r = node.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
                if (seat) out.push(["seat to act " + seat.dataset.seatView, rect(seat)]);
                for (const button of document.querySelectorAll(bar + " button")) {
                    if (!button.offsetParent) continue;  // not shown (a closed form)
                    out.push(["bar button " + JSON.stringify(button.textContent.slice(0, 40)), rect(button)]);
                }
                return {out, width: innerWidth, height: innerHeight};
            }""",
            BAR,
        )
        assert not self.errors, f"{where}: the page failed: {self.errors}"
        if not boxes["out"]:
            self.shot("failed")
        assert boxes["out"], f"{where}: nothing to act on"
        for name, (left, top, right, bottom) in boxes["out"]:
            inside = (
                left >= -1
                and top >= -1
                and right <= boxes["width"] + 1
                and bottom <= boxes["height"] + 1
            )
            if not inside:
                self.shot("failed")
            assert inside, (
                f"{where}: {name} outside the {boxes['width']}x{boxes['height']} viewport: {(left, top, right, bottom)}"
            )

    def check_screen(self, where: str) -> None:
        """Every new kind of screen: inside the viewport and accessible (once per name)."""
        self.assert_in_view(where)
        if where not in self.checked:
            self.checked.add(where)
            assert_accessible(self.page, where)

    def report(self, cards: int, decisions: int) -> None:
        """The hand's taps against its budget, kept in test-artefacts/tablet-taps.txt (the
        README's figures)."""
        ARTEFACTS.mkdir(exist_ok=True)
        size = self.page.viewport_size
        line = (
            f"{self.page.title()} {self.page.locator('#title').inner_text()} "
            f"{size['width']}x{size['height']}: {self.taps} taps, budget "
            f"{cards + decisions + 3} ({cards} cards + {decisions} decisions + 3), "
            f"{self.typed} typed\n"
        )
        with open(ARTEFACTS / "tablet-taps.txt", "a", encoding="utf-8") as out:
            out.write(line)

    def shot(self, name: str) -> None:
        ARTEFACTS.mkdir(exist_ok=True)
        size = self.page.viewport_size
        self.page.screenshot(
            path=str(ARTEFACTS / f"tablet-{name}-{size['width']}x{size['height']}.png")
        )
