"""The chip-custody pages' tags: ``{% load custody_tags %}``.

- ``<form data-counts {% money_attrs %}>``: what a count form's live totals need to write
  money as the pages do (the amount's prefix, ``$`` or the currency's code, and its
  decimals), for ``desk/custody.js``;
- ``{{ closer|closer_words }}``: a closer against the tray expected, in words;
- ``{{ entry|signed_by:user }}``: whether a record carries the user's signature."""

from __future__ import annotations

from django import template
from django.conf import settings
from django.utils.html import format_html
from django.utils.safestring import SafeString

from casino.core.money import SYMBOLS

register = template.Library()


@register.simple_tag
def money_attrs() -> SafeString:
    code = settings.CURRENCY
    prefix = SYMBOLS.get(code) or f"{code}\u00a0"
    return format_html(
        'data-money-prefix="{}" data-money-exponent="{}"', prefix, settings.CURRENCY_EXPONENT
    )


@register.filter
def closer_words(inventory: object) -> str:
    """A closer against the tray expected: ``$200.00 short of the expected $5,600.00``."""
    from desk.custody.selectors import variance_words

    return variance_words(
        getattr(inventory, "variance", None), getattr(inventory, "expected", None)
    )


@register.filter
def signed_by(record: object, user: object) -> bool:
    """``record`` (a slip's or a count's view) carries ``user``'s signature."""
    check = getattr(record, "signed_by", None)
    return bool(check(user)) if callable(check) else False


@register.filter
def since(moment: object) -> str:
    """How long ago ``moment`` was, as the pit says a wait: ``7 min``, ``2 h 15 min``."""
    from desk.floor.selectors import clock, duration, minutes_since

    return duration(minutes_since(moment, clock())) if moment else ""
