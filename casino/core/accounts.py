"""Accounts: token login and logout, login throttling, demo users.

- ``POST /api/v1/auth/token/`` exchanges a username and password for a django-rest-knox
  token. Only a hash of each token is stored; every tablet gets its own token, which
  expires ``TOKEN_TTL_HOURS`` after it was issued (no refresh: a new shift logs in again).
  ``POST /api/v1/auth/logout/`` revokes the token used, ``.../logout-all/`` every token of
  the user.
- Password logins (this endpoint and the ``/accounts/login/`` page) are throttled per client
  IP and per username (``LOGIN_RATE_IP``, ``LOGIN_RATE_USER``), counted in the default cache.
- Users in the group ``demo`` (``manage.py load_demo`` creates them with printed passwords)
  are refused while ``DEBUG`` is off: by password login, by an existing session and by a
  token issued earlier.
"""

from __future__ import annotations

import hashlib
import math
import unicodedata
from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate, user_logged_in, user_logged_out
from django.contrib.auth import views as auth_views
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiResponse, extend_schema
from knox.models import AuthToken
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from casino.core.authentication import TokenAuthentication
from casino.core.errors import ErrorResponseSerializer

DEMO_GROUP = "demo"
LOGIN_FAILED = "Unable to log in with provided credentials."
THROTTLED = "Too many login attempts; wait before trying again."


# ---- demo users


def is_demo_user(user: Any) -> bool:
    """Whether ``user`` is one of the demo users ``load_demo`` creates (group ``demo``)."""
    from casino.core.roles import user_groups

    if user is None or not user.is_authenticated:
        return False
    return DEMO_GROUP in user_groups(user)


def _demo_refused(user: Any) -> bool:
    return not settings.DEBUG and is_demo_user(user)


class DemoAwareBackend(ModelBackend):
    """Django's username/password backend, refusing demo users while ``DEBUG`` is off.

    ``user_can_authenticate`` is asked both at password login (session page, token
    endpoint, admin) and when a session's user is loaded, so an open session of a demo
    user is logged out too.
    """

    def user_can_authenticate(self, user: Any) -> bool:
        return bool(super().user_can_authenticate(user)) and not _demo_refused(user)


class TokenScheme(OpenApiAuthenticationExtension):
    target_class = TokenAuthentication
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": 'Send "Authorization: Token <token>"; tokens come from '
            "POST /api/v1/auth/token/ and expire after TOKEN_TTL_HOURS.",
        }


# ---- throttling


def login_username(request: Any) -> str:
    """The username a login attempt names, normalized as a login would (NFKC, trimmed) and
    case-folded so that changing case does not escape the per-username limit."""
    data = request.data if isinstance(request, Request) else request.POST
    value = data.get("username") if hasattr(data, "get") else None
    if not isinstance(value, str):
        return ""
    return unicodedata.normalize("NFKC", value).strip().casefold()


class _LoginThrottle(SimpleRateThrottle):
    def get_rate(self) -> str:
        # Read at each request rather than once at import, so a changed setting applies.
        try:
            return str(api_settings.DEFAULT_THROTTLE_RATES[self.scope])
        except KeyError as error:
            raise ImproperlyConfigured(f"no throttle rate for scope {self.scope!r}") from error


class LoginIPThrottle(_LoginThrottle):
    """Login attempts per client address (``REMOTE_ADDR``, or the address ``NUM_PROXIES``
    trusted proxies put in ``X-Forwarded-For``)."""

    scope = "login_ip"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class LoginUserThrottle(_LoginThrottle):
    """Login attempts per username, from any address (the cache key holds a hash of it)."""

    scope = "login_user"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        username = login_username(request)
        if not username:
            return None  # nothing to count against; the address limit still applies
        ident = hashlib.sha256(username.encode()).hexdigest()
        return self.cache_format % {"scope": self.scope, "ident": ident}


LOGIN_THROTTLES = (LoginIPThrottle, LoginUserThrottle)


def login_throttle_wait(request: Any, view: Any) -> float | None:
    """``None`` if the login attempt may go ahead (and it is counted), otherwise the seconds
    to wait. Every throttle is asked, as DRF does."""
    waits = []
    for throttle_class in LOGIN_THROTTLES:
        throttle = throttle_class()
        if not throttle.allow_request(request, view):
            waits.append(throttle.wait() or 0.0)
    return max(waits) if waits else None


class SessionLoginView(auth_views.LoginView):
    """Django's login page, throttled like the token endpoint. A throttled attempt gets the
    page back with 429, a message and ``Retry-After``; its password is not checked."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = login_throttle_wait(request, self)
        if wait is None:
            return super().post(request, *args, **kwargs)
        retry_after = max(1, math.ceil(wait))
        # An unbound form: binding it would validate it, i.e. check the password.
        form = self.get_form_class()(request, initial={"username": request.POST.get("username")})
        context = self.get_context_data(
            form=form, throttled=f"Too many login attempts. Try again in {retry_after} seconds."
        )
        response = self.render_to_response(context, status=status.HTTP_429_TOO_MANY_REQUESTS)
        response["Retry-After"] = str(retry_after)
        return response


# ---- the token endpoints


class TokenLoginSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(
        max_length=256, trim_whitespace=False, write_only=True, style={"input_type": "password"}
    )


class IssuedTokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text='send it as "Authorization: Token <token>"')
    expiry = serializers.DateTimeField(help_text="when the token stops working")


ERROR_400 = OpenApiResponse(
    ErrorResponseSerializer, "a field missing or too long; wrong credentials"
)
ERROR_401 = OpenApiResponse(
    ErrorResponseSerializer, "no token, or an unknown, expired or revoked one"
)
ERROR_429 = OpenApiResponse(
    ErrorResponseSerializer, "too many login attempts; the Retry-After header gives the seconds"
)


class TokenLoginView(APIView):
    """Exchange a username and password for a token of its own (one per tablet)."""

    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_classes = LOGIN_THROTTLES

    def throttled(self, request: Request, wait: float | None) -> None:
        raise exceptions.Throttled(wait, detail=THROTTLED)

    @extend_schema(
        summary="Log in: a token for this device",
        request=TokenLoginSerializer,
        responses={
            200: OpenApiResponse(IssuedTokenSerializer, "a new token and when it expires"),
            400: ERROR_400,
            429: ERROR_429,
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        serializer = TokenLoginSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = authenticate(
            request=request,
            username=serializer.validated_data["username"],
            password=serializer.validated_data["password"],
        )
        if user is None:
            raise exceptions.ValidationError(LOGIN_FAILED, code="authorization")
        # The user's expired tokens go now (not on every request, as knox would).
        AuthToken.objects.filter(user=user, expiry__lt=timezone.now()).delete()
        instance, token = AuthToken.objects.create(user=user)
        user_logged_in.send(sender=user.__class__, request=request, user=user)
        return Response(IssuedTokenSerializer({"token": token, "expiry": instance.expiry}).data)


class LogoutView(APIView):
    """Revoke the token this request is made with."""

    authentication_classes = (TokenAuthentication,)
    permission_classes = (IsAuthenticated,)

    def revoke(self, request: Request) -> None:
        request.auth.delete()

    @extend_schema(
        summary="Log out: revoke this token",
        request=None,
        responses={204: None, 401: ERROR_401},
    )
    def post(self, request: Request) -> Response:
        self.revoke(request)
        user_logged_out.send(sender=request.user.__class__, request=request, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LogoutAllView(LogoutView):
    """Revoke every token of the user (every device logged in as them)."""

    def revoke(self, request: Request) -> None:
        AuthToken.objects.filter(user=request.user).delete()

    @extend_schema(
        summary="Log out everywhere: revoke all of the user's tokens",
        request=None,
        responses={204: None, 401: ERROR_401},
    )
    def post(self, request: Request) -> Response:
        return super().post(request)


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    roles = serializers.ListField(child=serializers.CharField())


class MeView(APIView):
    """Who this token (or session) belongs to, and their roles: what a tablet shows and uses
    to pick the tables the dealer deals."""

    @extend_schema(responses={200: MeSerializer})
    def get(self, request: Request) -> Response:
        from casino.core.roles import user_roles

        return Response(
            {"username": request.user.get_username(), "roles": sorted(user_roles(request.user))}
        )
