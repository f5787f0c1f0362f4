"""Template helpers for the hold figures: the change include's selector and formatting (money
is ``{% load money %}``'s, the one format of every page)."""

from __future__ import annotations

from typing import Any

from django import template

from approvals.models import Approval

from ..selectors import ChangeTheory, theory_for_change

register = template.Library()


@register.simple_tag
def change_theory(approval: Approval) -> ChangeTheory | None:
    """``{% change_theory approval as theory %}``: the change's figures before and after."""
    return theory_for_change(approval)


@register.filter
def percent(value: Any, places: int = 3) -> str:
    """A ratio as a percentage: ``-0.0724`` -> ``-7.242%`` (an empty string for None)."""
    if value is None or value == "":
        return ""
    return f"{float(value) * 100:.{int(places)}f}%"


@register.filter
def count(value: Any) -> str:
    """A whole number with thousands separators: ``20000`` -> ``20,000``."""
    if value is None or value == "":
        return ""
    return f"{int(value):,}"
