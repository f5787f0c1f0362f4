"""The API's token authentication: django-rest-knox tokens (``Authorization: Token <token>``),
refusing demo users while ``DEBUG`` is off.

A module of its own because DRF imports ``DEFAULT_AUTHENTICATION_CLASSES`` while
``rest_framework.views`` is still loading: nothing here may import the views (the login
views in ``casino.core.accounts`` do).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from knox import auth as knox_auth
from rest_framework import exceptions

DEMO_REFUSED = "Demo accounts are refused while DEBUG is off."


class TokenAuthentication(knox_auth.TokenAuthentication):
    """knox's token authentication; a demo user's token, even one issued while ``DEBUG``
    was on, is refused while it is off."""

    def validate_user(self, auth_token: Any) -> tuple[Any, Any]:
        from casino.core.accounts import is_demo_user  # at request time: see the docstring

        user, token = super().validate_user(auth_token)
        if not settings.DEBUG and is_demo_user(user):
            raise exceptions.AuthenticationFailed(DEMO_REFUSED)
        return user, token
