"""What the desks' tests share: a page's text, one request's row of the approvals queue, and
logging in through the login page in a browser."""

from __future__ import annotations

import html
import re
from typing import Any

from approvals.models import Approval

PASSWORD = "a desk password 42"


def text(response: Any) -> str:
    """A page's HTML as read (entities unescaped)."""
    return html.unescape(response.content.decode())


def row(response: Any, approval: Approval) -> str:
    """The markup of one request in the approvals queue."""
    found = re.search(
        rf'<article class="approval[^"]*" id="approval-{approval.pk}".*?</article>',
        text(response),
        re.S,
    )
    assert found, f"no row for request {approval.pk}"
    return found.group(0)


def log_in(page: Any, live_server: Any, user: Any, path: str = "/desk/floor/") -> None:
    """Log ``user`` in through the login page, which sends them on to ``path``."""
    user.set_password(PASSWORD)
    user.save()
    page.goto(f"{live_server.url}/accounts/login/?next={path}")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{live_server.url}{path}")
