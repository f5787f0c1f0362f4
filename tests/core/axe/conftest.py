"""Browser tests of the accessibility checks (axe-core in Debian's Chromium, driven by
Playwright). Without a Chromium they are skipped, saying how to get one."""

from __future__ import annotations

from typing import Any

from tests.browser import browser_type_launch_args, skip_without_chromium  # noqa: F401


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    skip_without_chromium(items, "core/axe")
