"""The API's token authentication: django-rest-knox tokens (``Authorization: Token <token>``),
refusing demo users while ``DEBUG`` is off.

Whatever the ``Authorization`` header holds, a request is answered, never a 500: a header
that names the ``Token`` scheme with no token, with more than one word after it, or with a
token that is not printable ASCII (a NUL, a control character, any other byte) is a 401,
and no such token is looked up in the database. (A WSGI server hands a header over as
latin-1 text; Django's test client may hand over any text.)

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
NOT_A_TOKEN = (
    "Invalid token header. A token is printable ASCII (letters and digits); this one holds "
    "other characters."
)


def authorization_header(request: Any) -> bytes:
    """The ``Authorization`` header as the bytes it came in (latin-1, as WSGI decoded it;
    text no header can carry, which only a test client sends, as UTF-8)."""
    value = request.META.get("HTTP_AUTHORIZATION", b"")
    if isinstance(value, bytes):
        return value
    try:
        return value.encode("latin-1")
    except UnicodeEncodeError:
        return value.encode("utf-8", "surrogatepass")


def _is_token_text(token: bytes) -> bool:
    """Whether ``token`` is printable ASCII, as every token this server issues is."""
    return all(0x20 < byte < 0x7F for byte in token)


class TokenAuthentication(knox_auth.TokenAuthentication):
    """knox's token authentication; a demo user's token, even one issued while ``DEBUG``
    was on, is refused while it is off.

    One query finds the token with its user. knox itself also reads every other token of the
    user on each request to delete the expired ones; here an expired token is deleted when
    it is presented, and the others when their user logs in (``casino.core.accounts``)."""

    def authenticate(self, request: Any) -> tuple[Any, Any] | None:
        """knox's, reading the header as :func:`authorization_header` does."""
        words = authorization_header(request).split()
        if not words:
            return None
        if words[0].lower() != self.authenticate_header(request).encode().lower():
            return None  # another scheme: not this class's header
        if len(words) == 1:
            raise exceptions.AuthenticationFailed("Invalid token header. No credentials provided.")
        if len(words) > 2:
            raise exceptions.AuthenticationFailed(
                "Invalid token header. Token string should not contain spaces."
            )
        return self.authenticate_credentials(words[1])

    def authenticate_credentials(self, token: bytes) -> tuple[Any, Any]:
        failed = exceptions.AuthenticationFailed("Invalid token.")
        if not _is_token_text(token):
            raise exceptions.AuthenticationFailed(NOT_A_TOKEN)
        text = token.decode("ascii")
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
