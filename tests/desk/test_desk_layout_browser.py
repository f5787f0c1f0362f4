"""Every desk page at a desk's 1280x800 and at 768 px wide (Chromium): the page never scrolls
sideways (a wide table scrolls in a box of its own), and the colours pass WCAG 2.2 AA contrast
(axe-core). The pages are every GET page under /desk/ that answers a full HTML page, found
from the URL configuration, so a page added later is held to the same."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from custody import services as custody
from payouts.models import AuditCheck, Settlement
from payouts.tasks import audit_check_task
from tables import services
from tests.browser import assert_accessible
from tests.conftest import record
from tests.custody.conftest import OPENER
from tests.desk.helpers import log_in

pytestmark = pytest.mark.django_db(transaction=True)
ARTEFACTS = Path(__file__).resolve().parents[2] / "test-artefacts"
WIDTHS = ({"width": 1280, "height": 800}, {"width": 768, "height": 1024})
#: The pages whose templates this part of the desk owns: every axe rule the browser tests
#: hold screens to, at both widths. Every other page: contrast (the desk's colours).
FULL_CHECK = {
    "floor-pit",
    "compliance-settlements",
    "compliance-audit-check",
    "compliance-reports",
    "compliance-reports-table",
    # Chip custody's pages.
    "floor-custody-count",
    "floor-custody-fill",
    "floor-custody-credit",
    "cage-queue",
    "count-sheet",
    "slip-print",
}
#: Who reads the pages under each path (the floor, unless named here).
READERS = (
    ("/desk/cage/", "cage"),
    ("/desk/count/", "count"),
    ("/desk/compliance/", "compliance"),
)


DOWNLOADS = (".csv", ".pdf", ".json")


def desk_routes() -> list[tuple[str, list[str]]]:
    """Every named route under /desk/ with the names of its arguments (a file to download,
    ``….csv``, is no page)."""
    found: list[tuple[str, list[str]]] = []

    def walk(patterns: list[Any], prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern) and pattern.name:
                route = prefix + str(pattern.pattern)
                if route.startswith("desk/") and not route.endswith(DOWNLOADS):
                    found.append((pattern.name, list(pattern.pattern.converters)))

    walk(get_resolver().url_patterns, "")
    return found


def custody_floor(floor: Any, dealer: Any, cage: Any, counter: Any, counter2: Any) -> dict:
    """Chip custody kept: HCF-K opened with its counted opener, a hand settled, a fill waiting
    for the cage, a credit on its way to it and its closer counted by the dealer; HCF-V
    filled, then closed $200.00 short (its variance waits for review), its drop box counted,
    signed and corrected."""
    custody.chip_set_setup()
    limits = {"ante_min": 100, "ante_max": 10_000, "bank_min": 5_000, "bank_max": 1_000_000}
    made = {}
    for name in ("HCF-K", "HCF-V"):
        table = services.table_create(
            user=floor,
            name=name,
            game="high-card-flush",
            seat_count=7,
            dealer=dealer,
            limits=limits,
            rules={"rake": {"scheme": "per_player", "amount": 100}},
        )
        for seat, player in {1: "Ana", 2: "Bela", 3: "Csilla"}.items():
            services.seat_update(
                user=floor, table_id=table.pk, number=seat, player=player, sitting_out=False
            )
        opener = custody.inventory_count(
            user=dealer, table_id=table.pk, kind="opener", counts=OPENER
        )
        custody.inventory_sign(user=floor, inventory_id=opener.pk)
        made[name] = table
    kept, short = made["HCF-K"], made["HCF-V"]
    services.game_act(
        user=dealer, table_id=kept.pk, action={"type": "accept", "seat": 1, "bank": 50_000}
    )
    hand = services.hand_open(user=dealer, table_id=kept.pk)
    services.hand_settle(user=dealer, hand_id=hand.pk, record=record())
    fill = custody.slip_request(user=floor, table_id=kept.pk, kind="fill", counts={"500": 20})
    credit = custody.slip_request(user=floor, table_id=kept.pk, kind="credit", counts={"10000": 5})
    custody.slip_sign(user=floor, slip_id=credit.pk)
    custody.slip_sign(user=dealer, slip_id=credit.pk)
    received = custody.slip_request(user=floor, table_id=short.pk, kind="fill", counts={"500": 20})
    for signer in (cage, dealer, floor):
        custody.slip_sign(user=signer, slip_id=received.pk)
    closer = custody.inventory_count(
        user=dealer,
        table_id=short.pk,
        kind="closer",
        counts={**OPENER, "500": OPENER["500"] + 20, "10000": OPENER["10000"] - 2},
        reason="recounted twice",
    )
    custody.inventory_sign(user=floor, inventory_id=closer.pk)
    day = closer.gaming_day
    drop = custody.drop_count(
        user=counter, table_id=short.pk, gaming_day=day, cash={"2000": 3}, chips={"100": 3}
    )
    custody.drop_sign(user=counter2, drop_id=drop.pk)
    custody.drop_count(
        user=counter2,
        table_id=short.pk,
        gaming_day=day,
        cash={"2000": 3},
        chips={"100": 4},
        corrects=drop.pk,
        reason="a chip stuck in the box",
    )
    pending = custody.inventory_count(
        user=dealer, table_id=kept.pk, kind="closer", counts=OPENER, reason="short: a test"
    )
    return {"table": kept, "slip": fill, "inventory": pending, "drop": drop}


@pytest.fixture
def desk_pages(
    dp_table, draw_table, dealer, floor, compliance, cage, counter, counter2, client_for
) -> list[dict]:
    """A floor with a settled hand, a waiting limit change and a finished audit check, and
    chip custody kept (:func:`custody_floor`); every desk page that answers GET with a whole
    HTML page, with the user who reads it."""
    api = client_for(dealer)
    hand = api.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    settled = api.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    assert settled.status_code == 201, settled.json()
    change = services.change_request(
        user=dealer, table_id=draw_table.pk, changes={"big_blind": 300}
    )
    check = AuditCheck.objects.create(requested_by=compliance, full=True)
    audit_check_task(check.pk)
    kept = custody_floor(floor, dealer, cage, counter, counter2)
    # Each argument a desk route takes; ``pk`` names a settlement or an audit check.
    arguments = {
        "table_id": kept["table"].pk,
        "hand_id": hand["id"],
        "approval_id": change.approval.pk,
        "section": "voids",
        "slip_id": kept["slip"].pk,
        "inventory_id": kept["inventory"].pk,
        "drop_id": kept["drop"].pk,
    }
    pks = {
        "compliance-settlement": Settlement.objects.order_by("pk").first().pk,
        "compliance-audit-check": check.pk,
    }
    queries = {"compliance-reports-table": f"?table={dp_table.pk}"}  # a report, not the form
    pages = []
    users = {"floor": floor, "compliance": compliance, "cage": cage, "count": counter}
    readers = {who: Client() for who in users}
    for who, user in users.items():
        readers[who].force_login(user)
    for name, names in desk_routes():
        kwargs = {}
        for argument in names:
            value = arguments.get(argument)
            if argument == "pk":
                value = next((pk for key, pk in pks.items() if name.startswith(key)), None)
            assert value is not None, f"the layout test knows no {argument!r} for {name}"
            kwargs[argument] = value
        url = reverse(name, kwargs=kwargs) + queries.get(name, "")
        who = next((who for path, who in READERS if url.startswith(path)), "floor")
        response = readers[who].get(url)
        whole = response.status_code == 200 and b"<html" in response.content[:200]
        if whole and response["Content-Type"].startswith("text/html"):
            pages.append({"name": name, "url": url, "who": who})
    assert {
        "floor-pit",
        "compliance-settlements",
        "compliance-reports",
        "floor-custody-count",
        "floor-custody-fill",
        "cage-queue",
        "count-sheet",
        "slip-print",
    } <= {page["name"] for page in pages}
    return pages


def sideways(page: Any) -> str:
    """What sticks out past the window's right edge (empty when nothing does)."""
    return page.evaluate(
        """() => {
      const root = document.documentElement;
      if (root.scrollWidth <= root.clientWidth) return "";
      const out = [];
      for (const e of document.querySelectorAll("body *")) {
        const box = e.getBoundingClientRect();
        if (box.right > root.clientWidth + 0.5 && box.width > 0)
          out.push(e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + " to " + Math.round(box.right));
      }
      return `the page is ${root.scrollWidth} px wide in ${root.clientWidth}: ` + out.slice(0, 5).join(", ");
    }"""
    )


@pytest.mark.parametrize("who", ["floor", "compliance", "cage", "count"])
def test_no_desk_page_scrolls_sideways_and_every_colour_passes(
    who, desk_pages, floor, compliance, cage, counter, live_server, browser
):
    ARTEFACTS.mkdir(exist_ok=True)
    user = {"floor": floor, "compliance": compliance, "cage": cage, "count": counter}[who]
    mine = [page for page in desk_pages if page["who"] == who]
    assert mine
    problems = []
    for size in WIDTHS:
        context = browser.new_context(viewport=size, locale="en")
        page = context.new_page()
        log_in(page, live_server, user, "/")
        for desk_page in mine:
            page.goto(live_server.url + desk_page["url"])
            page.wait_for_load_state("networkidle")
            where = f"{desk_page['url']} at {size['width']} px"
            if stuck := sideways(page):
                problems.append(f"{where}: {stuck}")
            page.screenshot(
                path=str(ARTEFACTS / f"layout-{desk_page['name']}-{size['width']}.png"),
                full_page=True,
            )
            rules = None if desk_page["name"] in FULL_CHECK else ("color-contrast",)
            try:
                if rules is None:
                    assert_accessible(page, where)
                else:
                    assert_accessible(page, where, rules=rules)
            except AssertionError as failed:
                problems.append(str(failed))
        context.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", ["/", "/accounts/login/"])
def test_the_home_and_login_pages_fit_and_pass(path, floor, live_server, browser):
    for size in WIDTHS:
        context = browser.new_context(viewport=size, locale="en")
        page = context.new_page()
        if path == "/":
            log_in(page, live_server, floor, "/")
        page.goto(live_server.url + path)
        assert sideways(page) == ""
        assert_accessible(page, f"{path} at {size['width']} px")
        # Its links and buttons are 48 px targets.
        for control in page.locator("main a, button").all():
            assert control.bounding_box()["height"] >= 48, control.inner_text()
        context.close()
