"""Money on every page in one format: ``{% load money %}`` then ``{{ amount|money }}``
(``$1,250.00``, the house currency and the language's digits, :func:`casino.core.money.money`)
and ``{{ net|money_signed }}`` for a net (``+$12.00``, ``−$5.00``). Stored amounts stay in
minor units; ``None`` or an empty value shows as an en dash."""

from __future__ import annotations

from typing import Any

from django import template

from casino.core.money import money as as_money

register = template.Library()

EMPTY = "–"


def _minor(value: Any) -> int | None:
    if value is None or value == "" or isinstance(value, bool):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@register.filter
def money(value: Any) -> str:
    """Minor units as the house currency: ``125000`` -> ``$1,250.00``."""
    minor = _minor(value)
    return EMPTY if minor is None else as_money(minor)


@register.filter
def money_signed(value: Any) -> str:
    """A net with its sign: ``1200`` -> ``+$12.00``, ``-500`` -> ``−$5.00``, ``0`` -> ``$0.00``."""
    minor = _minor(value)
    return EMPTY if minor is None else as_money(minor, True)
