"""Money as people read it: integer minor units shown in the house currency (settings
``CURRENCY``, ``CURRENCY_EXPONENT``), with the active language's digit grouping and decimal
mark. ``money(125000)`` is ``"$1,250.00"`` in English, ``"$1.250,00"`` in Greek; the API and
everything stored stay in minor units."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.utils.formats import number_format

#: The sign written before the amount, for the currencies a card room is likely to use; any
#: other is written as its code ("CHF 12.50").
SYMBOLS = {"USD": "$", "CAD": "$", "AUD": "$", "NZD": "$", "EUR": "€", "GBP": "£", "JPY": "¥"}


def money(minor: int, signed: bool = False) -> str:
    """``minor`` units as an amount of the house currency; ``signed`` writes a net's sign
    (``+$12.00``, ``−$5.00``; zero unsigned), as the tablet does."""
    exponent = settings.CURRENCY_EXPONENT
    value = abs(int(minor)) if signed else int(minor)
    digits = number_format(
        Decimal(value).scaleb(-exponent),
        decimal_pos=exponent,
        use_l10n=True,
        force_grouping=True,
    )
    code = settings.CURRENCY
    symbol = SYMBOLS.get(code)
    if digits.startswith("-"):
        digits, sign = digits[1:], "−"
    else:
        sign = ""
    if signed and minor:
        sign = "+" if minor > 0 else "−"
    return f"{sign}{symbol}{digits}" if symbol else f"{sign}{code}\u00a0{digits}"
