"""The dealer tablet: one page served by Django; the app in ``static/tablet/`` talks to the
REST API only (the same endpoints as any client), with its own token."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.views.generic import TemplateView


class TabletView(TemplateView):
    """The tablet's page, with the currency amounts are shown in (``currency``, an ISO 4217
    code, and ``currency_exponent``, its minor-unit digits: amounts are minor units)."""

    template_name = "tablet/index.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["currency"] = settings.CURRENCY
        context["currency_exponent"] = settings.CURRENCY_EXPONENT
        return context
