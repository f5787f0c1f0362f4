"""The API's documentation pages ask nothing of any host but the app's own: no web font, no
logo, no script from outside (a casino LAN has no internet), and name no outside host in
their HTML (a preconnect is a DNS lookup)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("path", ["/api/redoc/", "/api/docs/"])
def test_the_api_docs_load_nothing_from_outside(live_server: Any, page: Any, path: str) -> None:
    own = urlsplit(live_server.url).netloc
    hosts: list[str] = []
    page.on("request", lambda request: hosts.append(urlsplit(request.url).netloc))
    errors: list[str] = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    response = page.goto(f"{live_server.url}{path}")
    assert response.status == 200
    page.wait_for_load_state("networkidle")
    page.get_by_text("Casino", exact=False).first.wait_for()  # the schema is drawn
    outside = sorted({host for host in hosts if host and host != own})
    assert outside == []
    html = response.text()
    assert "https://" not in html and "http://" not in html.replace(live_server.url, "")
    assert errors == []
