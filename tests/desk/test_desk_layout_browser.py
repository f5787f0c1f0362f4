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

from payouts.models import AuditCheck, Settlement
from payouts.tasks import audit_check_task
from tables import services
from tests.browser import assert_accessible
from tests.conftest import record
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
}


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


@pytest.fixture
def desk_pages(dp_table, draw_table, dealer, floor, compliance, client_for) -> list[dict]:
    """A floor with a settled hand, a waiting limit change and a finished audit check; every
    desk page that answers GET with a whole HTML page, with the user who reads it."""
    api = client_for(dealer)
    hand = api.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    settled = api.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    assert settled.status_code == 201, settled.json()
    change = services.change_request(
        user=dealer, table_id=draw_table.pk, changes={"big_blind": 300}
    )
    check = AuditCheck.objects.create(requested_by=compliance, full=True)
    audit_check_task(check.pk)
    # Each argument a desk route takes; ``pk`` names a settlement or an audit check.
    arguments = {
        "table_id": dp_table.pk,
        "hand_id": hand["id"],
        "approval_id": change.approval.pk,
        "section": "voids",
    }
    pks = {
        "compliance-settlement": Settlement.objects.get().pk,
        "compliance-audit-check": check.pk,
    }
    queries = {"compliance-reports-table": f"?table={dp_table.pk}"}  # a report, not the form
    pages = []
    readers = {"floor": Client(), "compliance": Client()}
    readers["floor"].force_login(floor)
    readers["compliance"].force_login(compliance)
    for name, names in desk_routes():
        kwargs = {}
        for argument in names:
            value = arguments.get(argument)
            if argument == "pk":
                value = next((pk for key, pk in pks.items() if name.startswith(key)), None)
            assert value is not None, f"the layout test knows no {argument!r} for {name}"
            kwargs[argument] = value
        url = reverse(name, kwargs=kwargs) + queries.get(name, "")
        who = "floor" if url.startswith("/desk/floor/") else "compliance"
        response = readers[who].get(url)
        whole = response.status_code == 200 and b"<html" in response.content[:200]
        if whole and response["Content-Type"].startswith("text/html"):
            pages.append({"name": name, "url": url, "who": who})
    assert {"floor-pit", "compliance-settlements", "compliance-reports"} <= {
        page["name"] for page in pages
    }
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


@pytest.mark.parametrize("who", ["floor", "compliance"])
def test_no_desk_page_scrolls_sideways_and_every_colour_passes(
    who, desk_pages, floor, compliance, live_server, browser
):
    ARTEFACTS.mkdir(exist_ok=True)
    user = {"floor": floor, "compliance": compliance}[who]
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
