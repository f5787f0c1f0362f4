"""axe-core, as tests/browser.py runs it, finds what WCAG 2.2 AA forbids and passes what it
allows: a low-contrast button, an unlabelled input and a too-small tap target are reported
by rule and selector; a clean page yields nothing."""

from __future__ import annotations

import pytest

from tests.browser import assert_accessible, axe_violations

HEAD = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'

BAD = (
    HEAD.format(title="Bad")
    + """<style>#pale { color: #aaa; background: #fff; border: 1px solid #555;
    font-size: 16px; padding: 12px 16px; }</style></head>
<body><main>
  <h1>Settle</h1>
  <button id="pale" type="button">Pay out</button>
  <input id="amount" type="text">
</main></body></html>"""
)

GOOD = (
    HEAD.format(title="Good")
    + """<style>button { color: #fff; background: #1a4d2e; border: 0;
    font-size: 16px; padding: 12px 16px; min-width: 44px; min-height: 44px; }</style></head>
<body><main>
  <h1>Settle</h1>
  <label for="amount">Amount</label> <input id="amount" type="text">
  <button type="button">Pay out</button>
  <button type="button" aria-label="Close"><span aria-hidden="true">&times;</span></button>
</main></body></html>"""
)


def by_rule(violations: list[dict]) -> dict[str, list[str]]:
    return {v["id"]: [node["target"] for node in v["nodes"]] for v in violations}


def test_low_contrast_and_unlabelled_input_are_reported(page) -> None:
    page.set_content(BAD)
    found = by_rule(axe_violations(page))
    assert found["color-contrast"] == ["#pale"]
    assert found["label"] == ["#amount"]
    assert set(found) == {"color-contrast", "label"}


def test_violation_carries_help_and_failure_summary(page) -> None:
    page.set_content(BAD)
    contrast = next(v for v in axe_violations(page) if v["id"] == "color-contrast")
    assert contrast["help"] and contrast["impact"] == "serious"
    (node,) = contrast["nodes"]
    assert "contrast" in node["summary"].lower()
    assert 'id="pale"' in node["html"]


def test_assert_accessible_lists_every_violation(page) -> None:
    page.set_content(BAD)
    with pytest.raises(AssertionError) as failure:
        assert_accessible(page, "settle screen")
    message = str(failure.value)
    assert message.startswith("settle screen: 2 accessibility violation(s)")
    assert "- color-contrast (serious) at #pale:" in message
    assert "- label (critical) at #amount:" in message
    assert (
        "\n    Fix any of the following:\n      Element has insufficient color contrast" in message
    )


def test_good_page_has_no_violations(page) -> None:
    page.set_content(GOOD)
    assert axe_violations(page) == []
    assert axe_violations(page, rules=None) == []  # every WCAG 2.2 A/AA rule
    assert_accessible(page, "good page")


def test_small_tap_target_is_reported(page) -> None:
    """target-size (WCAG 2.2 2.5.8) is off in axe by default; it runs here."""
    page.set_content(
        HEAD.format(title="Tiny")
        + """</head><body><main><h1>Chips</h1>
        <button id="tiny" type="button" style="width:12px;height:12px;padding:0;border:0;
        font-size:8px">+</button>
        <button id="other" type="button" style="width:12px;height:12px;padding:0;border:0;
        font-size:8px;margin-left:2px">-</button></main></body></html>"""
    )
    assert "target-size" in by_rule(axe_violations(page, rules=["target-size"]))


def test_runs_under_a_strict_content_security_policy(page) -> None:
    page.set_content(
        BAD.replace(
            "<title>",
            """<meta http-equiv="Content-Security-Policy"
            content="default-src 'none'; style-src 'unsafe-inline'"><title>""",
        )
    )
    assert set(by_rule(axe_violations(page))) == {"color-contrast", "label"}


def test_reinjects_after_navigation_and_checks_the_new_document(page) -> None:
    page.set_content(BAD)
    assert axe_violations(page)
    page.goto("about:blank")
    page.set_content(GOOD)
    assert axe_violations(page) == []


def test_unknown_rule_is_refused(page) -> None:
    page.set_content(GOOD)
    with pytest.raises(ValueError, match="colour-contrast"):
        axe_violations(page, rules=["colour-contrast"])
