"""Browser tests of the floor and compliance desks: Debian's Chromium driven by Playwright at
1280x800 (a desk's screen). Without a Chromium they are skipped, saying how to get one."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import browser_type_launch_args, skip_without_chromium  # noqa: F401


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    skip_without_chromium(items, "desk")


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": {"width": 1280, "height": 800}, "locale": "en"}
