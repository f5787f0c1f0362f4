"""What every browser test shares: Debian's Chromium (Playwright cannot download browsers
here) and skipping, with a reason, where there is none."""

from __future__ import annotations

import os
import shutil
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Playwright's sync API runs an event loop in the test's thread; the test's own database
# calls (fixtures, checks) are still plain synchronous ones.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def skip_without_chromium(items: list[Any], folder: str) -> None:
    """Mark the tests under ``folder`` skipped when no Chromium is installed."""
    if CHROMIUM:
        return
    skip = pytest.mark.skip(
        reason="no Chromium found: install Debian's (apt-get install chromium) to run the "
        "browser tests"
    )
    for item in items:
        if f"tests/{folder}/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": ["--no-sandbox"]}
