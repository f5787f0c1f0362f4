"""Browser tests of the dealer tablet: Debian's Chromium driven by Playwright at 1024x768 with
touch. Without a Chromium they are skipped, saying how to get one."""

from __future__ import annotations

import os
import shutil
from typing import Any

import pytest

# The live-table tests' open tables, reused here (fixtures).
from tests.tables.test_paiute_live import paiute_table  # noqa: F401
from tests.tables.test_palace_live import palace_table  # noqa: F401

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Playwright's sync API runs an event loop in the test's thread; the test's own database
# calls (fixtures, checks) are still plain synchronous ones.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    if CHROMIUM:
        return
    skip = pytest.mark.skip(
        reason="no Chromium found: install Debian's (apt-get install chromium) to run the "
        "browser tests"
    )
    for item in items:
        if "tests/tablet/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": ["--no-sandbox"]}


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
