"""The dealer tablet: one page served by Django; the app in ``static/tablet/`` talks to the
REST API only (the same endpoints as any client), with its own token."""

from __future__ import annotations

from django.views.generic import TemplateView


class TabletView(TemplateView):
    template_name = "tablet/index.html"
