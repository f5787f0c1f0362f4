"""What every browser test shares: Debian's Chromium (Playwright cannot download browsers
here) and skipping, with a reason, where there is none; and axe-core's WCAG 2.2 AA checks
(``assert_accessible(page, "where")``) for any screen."""

from __future__ import annotations

import functools
import os
import shutil
from collections.abc import Iterable
from importlib.resources import files
from typing import Any

import pytest
from playwright.sync_api import expect

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
#: How long a browser test waits for what the page does by itself (a poll, a redraw, an
#: answer) before it fails: a bound against hanging, not a claim about speed. Playwright's
#: ``expect`` gives up after 5 s by default, which a loaded machine stretches past; a
#: passing test never waits longer for a bound being larger.
PATIENCE_MS = 60_000
expect.set_options(timeout=PATIENCE_MS)
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


# --- Accessibility: axe-core (Deque's engine) in the page, against WCAG 2.2 AA -------------
# axe.min.js comes from PyPI's axe-playwright-python (pinned in requirements-dev.txt), which
# ships it as package data: nothing is fetched at run time. Only the file is used; the call
# is ours (the tags, the rules, the report).

# Every WCAG 2.0/2.1/2.2 level A and AA tag (2.2 AA conformance takes them all).
WCAG22AA_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa")

# What every screen is held to by default: contrast, names for every control, tap targets,
# and the ARIA and document basics. ``rules=None`` runs every WCAG 2.2 A/AA rule instead.
AXE_RULES = (
    "color-contrast",
    "label",
    "button-name",
    "input-button-name",
    "select-name",
    "link-name",
    "image-alt",
    "target-size",
    "nested-interactive",
    "aria-allowed-attr",
    "aria-required-attr",
    "aria-valid-attr",
    "aria-valid-attr-value",
    "aria-hidden-focus",
    "html-has-lang",
    "document-title",
)

# In the page: the asked rules that carry a WCAG 2.2 A/AA tag (every such one without
# ``rules``, less the experimental and deprecated), run explicitly by id (so rules off by
# default, like target-size, run too) on the document alone, iframes skipped.
_AXE_RUN = """async ([tags, rules]) => {
  const wcag = axe.getRules(tags).filter(
    (r) => !r.tags.includes("experimental") && !r.tags.includes("deprecated"));
  const known = new Set(axe.getRules(tags).map((r) => r.ruleId));
  const unknown = (rules || []).filter((id) => !known.has(id));
  if (unknown.length) return {unknown};
  const ids = rules || wcag.map((r) => r.ruleId);
  const results = await axe.run(document, {
    runOnly: {type: "rule", values: ids},
    resultTypes: ["violations", "incomplete"],
    iframes: false,
    elementRef: false,
  });
  // axe leaves text as dark as its background (1:1, e.g. white on white) "to review", taking
  // it for text hidden on purpose; on these screens every such text is a control's label.
  const equal = results.incomplete
    .filter((r) => r.id === "color-contrast")
    .map((r) => ({...r, id: "color-contrast", nodes: r.nodes.filter((n) =>
      n.any.some((c) => c.data && c.data.messageKey === "equalRatio"))}))
    .filter((r) => r.nodes.length);
  return {violations: [...results.violations, ...equal].map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({
      target: n.target.map((t) => [].concat(t).join(" >> ")).join(" >> "),
      summary: n.failureSummary || "",
      html: n.html,
    })),
  }))};
}"""


@functools.cache
def _axe_script() -> str:
    return (files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")


def axe_violations(page: Any, *, rules: Iterable[str] | None = AXE_RULES) -> list[dict[str, Any]]:
    """Run axe-core on ``page``'s document (Playwright, sync API) for WCAG 2.2 A/AA.

    ``rules`` are axe rule ids (default :data:`AXE_RULES`); ``None`` runs every WCAG 2.2 A/AA
    rule. Returns the violations, each ``{"id", "impact", "help", "nodes": [{"target",
    "summary", "html"}]}`` with ``target`` a CSS selector and ``summary`` axe's failure
    summary; an empty list when the page passes. axe is injected once per document, through
    the DevTools protocol, so the page's Content-Security-Policy does not stand in its way.
    """
    asked = None if rules is None else list(rules)
    if asked == []:
        return []
    if not page.evaluate("() => typeof window.axe === 'object' && !!window.axe.run"):
        page.evaluate(_axe_script())
    out = page.evaluate(_AXE_RUN, [list(WCAG22AA_TAGS), asked])
    if "unknown" in out:
        raise ValueError(f"not axe WCAG 2.2 A/AA rules: {', '.join(out['unknown'])}")
    return out["violations"]


def format_violations(violations: list[dict[str, Any]]) -> str:
    """Each failing element: rule id (impact), its selector and the rule's help on one line,
    then axe's failure summary (what would fix it) indented below."""
    lines = []
    for v in violations:
        for node in v["nodes"]:
            lines.append(f"- {v['id']} ({v['impact']}) at {node['target']}: {v['help']}")
            lines += [
                f"    {line.rstrip()}" for line in node["summary"].splitlines() if line.strip()
            ]
    return "\n".join(lines)


def assert_accessible(page: Any, where: str, *, rules: Iterable[str] | None = AXE_RULES) -> None:
    """Fail, listing every violation, unless axe finds none on ``page`` (``where`` names the
    screen in the message)."""
    violations = axe_violations(page, rules=rules)
    if violations:
        count = sum(len(v["nodes"]) for v in violations)
        raise AssertionError(
            f"{where}: {count} accessibility violation(s) (WCAG 2.2 AA, axe-core):\n"
            + format_violations(violations)
        )
