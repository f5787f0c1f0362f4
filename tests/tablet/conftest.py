"""Browser tests of the dealer tablet: Debian's Chromium driven by Playwright at 1024x768 with
touch. Without a Chromium they are skipped, saying how to get one."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import browser_type_launch_args, skip_without_chromium  # noqa: F401

# The live-table tests' open tables, reused here (fixtures).
from tests.tables.test_paiute_live import paiute_table  # noqa: F401
from tests.tables.test_palace_live import palace_table  # noqa: F401


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    skip_without_chromium(items, "tablet")


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_context_args,
        "viewport": {"width": 1024, "height": 768},
        "has_touch": True,
        "locale": "en",
    }


@pytest.fixture(scope="session", autouse=True)
def _translations_compiled() -> None:
    """``make test`` compiles the tablet's translations first; a bare pytest run does too."""
    from pathlib import Path

    from django.core.management import call_command

    locale = Path(__file__).resolve().parents[2] / "tablet" / "locale"
    if any(po.with_suffix(".mo").exists() is False for po in locale.rglob("*.po")):
        call_command("compilemessages", locale=[p.name for p in locale.iterdir()], verbosity=0)


@pytest.fixture(autouse=True)
def _no_content_security_policy_refusal(request: Any) -> Any:
    """Every tablet screen works within the page's Content-Security-Policy: a style or script
    the browser refuses (an inline ``style`` attribute, say) fails the test that showed it."""
    if "page" not in request.fixturenames:
        yield
        return
    refused: list[str] = []
    request.getfixturevalue("page").on(
        "console",
        lambda message: (
            refused.append(message.text)
            if message.type == "error" and "Content Security Policy" in message.text
            else None
        ),
    )
    yield
    assert not refused, refused
