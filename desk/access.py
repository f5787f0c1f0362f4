"""Who may open a desk page: a signed-in user with one of the page's roles (the cage and
the count team open their own pages only; a refusal names whose page it is).

Pages read through the same selectors and write through the same services as the API; a
refusal by a service (an ``ApplicationError``) is shown on the page, never a 500.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django_htmx.http import HttpResponseClientRedirect

from casino.core.roles import CAGE, COMPLIANCE, COUNT_TEAM, FLOOR_MANAGER, has_role

FLOOR = (FLOOR_MANAGER,)
READERS = (COMPLIANCE, FLOOR_MANAGER)  # compliance reads everything; the floor reads too
CAGE_DESK = (CAGE,)  # the cage's queue of fills and credits: the cage only
COUNT_DESK = (COUNT_TEAM,)  # the drop count sheet: the count team only
SLIP_PRINTERS = (FLOOR_MANAGER, CAGE)  # a fill or credit slip is printed at the pit or the cage
#: A role as a refusal names it.
ROLE_WORDS = {
    FLOOR_MANAGER: "floor managers",
    COMPLIANCE: "compliance",
    CAGE: "the cage",
    COUNT_TEAM: "the count team",
}


def role_required(
    *roles: str,
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Log in first; then a 403 page unless the user has one of ``roles``."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not has_role(request.user, *roles):
                whose = " and ".join(ROLE_WORDS.get(role, role) for role in roles)
                raise PermissionDenied(f"This page is for {whose} only.")
            return view(request, *args, **kwargs)

        guarded = login_required(checked)

        @wraps(view)
        def entry(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            htmx = getattr(request, "htmx", None)
            if htmx and not request.user.is_authenticated:
                # A part of a page refreshing after the session ended: the whole page goes
                # to the login, rather than the login page swapped into the part.
                page = htmx.current_url_abs_path or request.get_full_path()
                login = resolve_url(settings.LOGIN_URL)
                return HttpResponseClientRedirect(f"{login}?{urlencode({'next': page})}")
            return guarded(request, *args, **kwargs)

        return entry

    return decorate
