"""Content negotiation for a JSON API: a client whose ``Accept`` header names nothing the API
renders still gets the answer, in JSON, rather than a 406 with no body it asked for (the
tablet and every client read JSON; the browsable API stays available to a browser)."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation


class JSONFallbackNegotiation(DefaultContentNegotiation):
    def select_renderer(self, request: Any, renderers: Any, format_suffix: Any = None) -> Any:
        try:
            return super().select_renderer(request, renderers, format_suffix)
        except NotAcceptable:
            renderer = renderers[0]
            return renderer, renderer.media_type
