"""The API's token authentication: django-rest-knox tokens (``Authorization: Token <token>``),
refusing demo users while ``DEBUG`` is off.

A module of its own because DRF imports ``DEFAULT_AUTHENTICATION_CLASSES`` while
``rest_framework.views`` is still loading: nothing here may import the views (the login
views in ``casino.core.accounts`` do).
"""

from __future__ import annotations

import binascii
from hmac import compare_digest
from typing import Any

from django.conf import settings
from django.utils import timezone
from knox import auth as knox_auth
from knox.crypto import hash_token
from knox.models import get_token_model
from knox.settings import CONSTANTS
from rest_framework import exceptions

DEMO_REFUSED = "Demo accounts are refused while DEBUG is off."


class TokenAuthentication(knox_auth.TokenAuthentication):
    """knox's token authentication; a demo user's token, even one issued while ``DEBUG``
    was on, is refused while it is off.

    One query finds the token with its user. knox itself also reads every other token of the
    user on each request to delete the expired ones; here an expired token is deleted when
    it is presented, and the others when their user logs in (``casino.core.accounts``)."""

    def authenticate_credentials(self, token: bytes) -> tuple[Any, Any]:
        failed = exceptions.AuthenticationFailed("Invalid token.")
        text = token.decode("utf-8")
        try:
            digest = hash_token(text)
        except (TypeError, binascii.Error):
            raise failed from None
        candidates = (
            get_token_model()
            .objects.filter(token_key=text[: CONSTANTS.TOKEN_KEY_LENGTH])
            .select_related("user")
        )
        for auth_token in candidates:
            if not compare_digest(digest, auth_token.digest):
                continue
            if auth_token.expiry is not None and auth_token.expiry < timezone.now():
                auth_token.delete()
                break
            return self.validate_user(auth_token)
        raise failed

    def validate_user(self, auth_token: Any) -> tuple[Any, Any]:
        from casino.core.accounts import is_demo_user  # at request time: see the docstring

        user, token = super().validate_user(auth_token)
        if not settings.DEBUG and is_demo_user(user):
            raise exceptions.AuthenticationFailed(DEMO_REFUSED)
        return user, token
