"""Money as people read it: integer minor units shown in the house currency (settings
``CURRENCY``, ``CURRENCY_EXPONENT``), with the active language's digit grouping and decimal
mark. ``money(125000)`` is ``"$1,250.00"`` in English, ``"$1.250,00"`` in Greek; the API and
everything stored stay in minor units. :func:`parse_major` reads an amount typed in major units
back, exactly; :func:`major` and :func:`major_text` write one as a plain number (a CSV
column, an input's value)."""

from __future__ import annotations

import re
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


# ---------------------------------------------------------------- amounts typed and exported


def major(minor: int) -> Decimal:
    """Integer minor units as the exact number of major units (``125000`` -> ``1250.00``,
    ``-5`` -> ``-0.05``; with ``CURRENCY_EXPONENT`` 0, ``1250`` -> ``1250``): what a CSV
    column holds, a plain number a spreadsheet sums."""
    return Decimal(int(minor)).scaleb(-settings.CURRENCY_EXPONENT)


def major_text(minor: int | None) -> str:
    """Minor units as an input shows them: ``1250`` -> ``"12.50"`` (no symbol, no grouping;
    ``""`` for None)."""
    return "" if minor is None else f"{major(minor):f}"


def amount_example() -> str:
    """An amount as it is typed in the house currency: ``12.50`` (``1250`` with no
    decimals)."""
    return major_text(1250)


#: An amount as typed, once grouping, spaces and the currency's sign or code are dropped.
_TYPED = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")
#: More characters than any amount a person types (refused before any arithmetic).
_LONGEST = 40


def parse_major(text: str) -> int:
    """An amount typed in major units of the house currency (``12.50``, ``$1,250``,
    ``1 250``, ``USD 12``) as integer minor units, exactly; ValueError in words for anything
    else, more decimals than the currency has included."""
    exponent = int(settings.CURRENCY_EXPONENT)
    code = settings.CURRENCY
    cleaned = str(text).strip().replace("\u00a0", "").replace(" ", "").replace(",", "")
    for mark in (code, code.lower(), SYMBOLS.get(code) or code):
        cleaned = cleaned.replace(mark, "")
    if len(cleaned) > _LONGEST or not _TYPED.fullmatch(cleaned):
        raise ValueError(f"not an amount: write it like {amount_example()}")
    whole, _, part = cleaned.partition(".")
    if len(part.rstrip("0")) > exponent:
        smallest = money(1)
        if exponent == 0:
            raise ValueError(f"whole amounts only: the smallest amount is {smallest}")
        plural = "" if exponent == 1 else "s"
        raise ValueError(f"at most {exponent} decimal{plural}: the smallest amount is {smallest}")
    part = (part + "0" * exponent)[:exponent]
    scale: int = 10**exponent
    return int(whole or "0") * scale + int(part or "0")
