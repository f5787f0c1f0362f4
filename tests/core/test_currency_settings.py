"""The currency amounts are shown in: ``CURRENCY`` and ``CURRENCY_EXPONENT`` from the
environment, checked, and given to the dealer tablet's page."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from casino.settings import check_currency, currency_from_environment


def test_the_defaults_are_us_dollars_in_cents(monkeypatch):
    monkeypatch.delenv("CURRENCY", raising=False)
    monkeypatch.delenv("CURRENCY_EXPONENT", raising=False)
    assert currency_from_environment() == ("USD", 2)
    assert (settings.CURRENCY, settings.CURRENCY_EXPONENT) == ("USD", 2)


@pytest.mark.parametrize(("code", "exponent"), [("EUR", "2"), ("JPY", "0"), ("KWD", "3")])
def test_the_environment_sets_them(monkeypatch, code, exponent):
    monkeypatch.setenv("CURRENCY", code)
    monkeypatch.setenv("CURRENCY_EXPONENT", exponent)
    assert currency_from_environment() == (code, int(exponent))


@pytest.mark.parametrize("code", ["usd", "US", "USDT", "U$D", "", " USD"])
def test_a_currency_is_three_capital_letters(monkeypatch, code):
    monkeypatch.setenv("CURRENCY", code)
    monkeypatch.delenv("CURRENCY_EXPONENT", raising=False)
    with pytest.raises(ImproperlyConfigured, match="CURRENCY must be an ISO 4217") as error:
        currency_from_environment()
    assert repr(code) in str(error.value)


@pytest.mark.parametrize("exponent", ["5", "-1", "two", "2.5", ""])
def test_an_exponent_is_0_to_4(monkeypatch, exponent):
    monkeypatch.setenv("CURRENCY", "EUR")
    monkeypatch.setenv("CURRENCY_EXPONENT", exponent)
    with pytest.raises(ImproperlyConfigured, match="CURRENCY_EXPONENT must be a whole number"):
        currency_from_environment()


@pytest.mark.parametrize("exponent", [True, 2.0, None])
def test_the_check_takes_whole_numbers_only(exponent):
    with pytest.raises(ImproperlyConfigured, match="CURRENCY_EXPONENT"):
        check_currency("EUR", exponent)
    assert check_currency("EUR", 4) == ("EUR", 4)


def test_the_tablet_page_has_the_default_currency():
    response = Client().get("/tablet/")
    assert response.status_code == 200
    assert response.context["currency"] == "USD"
    assert response.context["currency_exponent"] == 2


def test_the_tablet_page_has_the_configured_currency(settings):
    settings.CURRENCY, settings.CURRENCY_EXPONENT = "JPY", 0
    response = Client().get("/tablet/")
    assert response.status_code == 200
    assert (response.context["currency"], response.context["currency_exponent"]) == ("JPY", 0)


# --------------------------------------------------------------------------- money()


@pytest.mark.parametrize(
    ("language", "minor", "shown"),
    [
        ("en", 125_000, "$1,250.00"),
        ("en", 5, "$0.05"),
        ("en", -250, "−$2.50"),
        ("el", 125_000, "$1.250,00"),
        ("hu", 125_000, "$1\u00a0250,00"),
    ],
)
def test_money_is_shown_in_the_house_currency_and_the_languages_digits(language, minor, shown):
    from django.utils import translation

    from casino.core.money import money

    with translation.override(language):
        assert money(minor) == shown


def test_a_net_is_signed_and_other_currencies_and_exponents_are_honoured(settings):
    from casino.core.money import money

    assert [money(n, signed=True) for n in (1200, -500, 0)] == ["+$12.00", "−$5.00", "$0.00"]
    settings.CURRENCY, settings.CURRENCY_EXPONENT = "JPY", 0
    assert money(1250) == "¥1,250"
    settings.CURRENCY, settings.CURRENCY_EXPONENT = "KWD", 3
    assert money(1250) == "KWD\u00a01.250"
