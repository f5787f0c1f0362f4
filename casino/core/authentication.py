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

The token cache
---------------
A token found in the database is kept in this process's memory with its user and the
user's groups (roles, and whether it is a demo user) for at most ``AUTH_CACHE_SECONDS``
(10 unless set; 0 turns the cache off). Within that time a request with the token costs no
query; after it the token, its user and the groups are read again (two queries). What the
cache never holds back:

* a token's expiry is checked at every request against the expiry read with it: an expired
  token is refused (and deleted) at once;
* the demo-user refusal is checked at every request (against the cached groups);
* a token deleted, or a user saved (deactivated, renamed, a new password), deleted or given
  or taken a group, or a group renamed or deleted, *through this process* (a logout, the
  admin, a management command run in it) drops what the cache holds for it at once, and
  again when the transaction that did it commits;
* the same done by another process (another server process, a ``manage.py`` command, SQL)
  takes effect here within ``AUTH_CACHE_SECONDS``: that is the bound on revocation.

Each request gets its own copies of the cached user and token (a view may change them).
The cache holds at most :data:`MAX_ENTRIES` tokens (the stale ones are dropped first).
"""

from __future__ import annotations

import binascii
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from hmac import compare_digest
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.db.models.base import ModelState
from django.db.models.signals import m2m_changed, post_delete, post_save
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


#: The most tokens the cache holds (a floor has a few hundred tablets at most).
MAX_ENTRIES = 4096


def cache_seconds() -> float:
    """``AUTH_CACHE_SECONDS``: how long a token, its user and their groups are trusted
    without reading them again (read at each request, so a changed setting applies)."""
    return float(getattr(settings, "AUTH_CACHE_SECONDS", 10))


@dataclass(frozen=True, slots=True)
class _Entry:
    """What a token authenticated as: its model instances' field values (copied out to each
    request), the user's groups, the token's expiry and until when (``time.monotonic``) the
    entry may be used."""

    token_class: type
    token_fields: dict[str, Any]
    user_class: type
    user_fields: dict[str, Any]
    db: str | None
    groups: frozenset[str]
    expiry: datetime | None
    user_id: Any
    fresh_until: float


_entries: dict[str, _Entry] = {}
_lock = threading.Lock()
#: Moved on by every invalidation: a read that began before one is not cached.
_generation = 0
#: The cache's clock (seconds; tests move it).
_clock = time.monotonic


def _fields(instance: Any) -> dict[str, Any]:
    """An instance's own attributes (its field values), without Django's state."""
    return {name: value for name, value in instance.__dict__.items() if name != "_state"}


def _instance(cls: type, fields: dict[str, Any], db: str | None) -> Any:
    """A fresh model instance with ``fields``, as loaded from ``db``."""
    instance = cls.__new__(cls)
    instance.__dict__.update(fields)
    state = ModelState()
    state.adding = False
    state.db = db
    instance._state = state
    return instance


def _remember(digest: str, auth_token: Any, groups: frozenset[str], generation: int) -> None:
    seconds = cache_seconds()
    if seconds <= 0:
        return
    user = auth_token.user
    user_fields = _fields(user)
    user_fields.pop("_casino_groups", None)
    entry = _Entry(
        token_class=type(auth_token),
        token_fields=_fields(auth_token),
        user_class=type(user),
        user_fields=user_fields,
        db=auth_token._state.db,
        groups=groups,
        expiry=auth_token.expiry,
        user_id=user.pk,
        fresh_until=_clock() + seconds,
    )
    with _lock:
        if generation != _generation:
            return  # something was revoked while this was read: read it again next time
        if len(_entries) >= MAX_ENTRIES:
            now = _clock()
            for key in [key for key, old in _entries.items() if old.fresh_until <= now]:
                del _entries[key]
            if len(_entries) >= MAX_ENTRIES:
                _entries.clear()
        _entries[digest] = entry


def _cached(digest: str) -> tuple[Any, Any] | None:
    """The token and its user from the cache, as fresh instances; None if not cached or
    stale."""
    entry = _entries.get(digest)
    if entry is None:
        return None
    if entry.fresh_until <= _clock():
        with _lock:
            if _entries.get(digest) is entry:
                del _entries[digest]
        return None
    user = _instance(entry.user_class, entry.user_fields, entry.db)
    user._casino_groups = entry.groups
    auth_token = _instance(entry.token_class, entry.token_fields, entry.db)
    auth_token._state.fields_cache["user"] = user
    return auth_token, user


def forget_token(digest: str) -> None:
    """Drop one token from the cache (it was deleted)."""
    global _generation
    with _lock:
        _generation += 1
        _entries.pop(digest, None)


def forget_user(user_id: Any) -> None:
    """Drop every token of one user from the cache (the user or their groups changed)."""
    global _generation
    with _lock:
        _generation += 1
        for key in [key for key, entry in _entries.items() if entry.user_id == user_id]:
            del _entries[key]


def forget_all() -> None:
    """Empty the cache (a group was renamed or deleted)."""
    global _generation
    with _lock:
        _generation += 1
        _entries.clear()


def _now_and_at_commit(forget: Any, *args: Any) -> None:
    """Forget now and again once the transaction commits: a request of another thread of
    this process may read the old rows in between and cache them."""
    forget(*args)
    transaction.on_commit(lambda: forget(*args))


def _token_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    _now_and_at_commit(forget_token, instance.digest)


def _user_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    _now_and_at_commit(forget_user, instance.pk)


def _groups_changed(
    sender: Any, instance: Any, action: str, reverse: bool, pk_set: Any, **kwargs: Any
) -> None:
    if not action.startswith("post_"):
        return
    if not reverse:  # user.groups.add(...)
        _now_and_at_commit(forget_user, instance.pk)
    elif pk_set is None:  # group.user_set.clear(): whoever they were
        _now_and_at_commit(forget_all)
    else:  # group.user_set.add(user, ...)
        for user_id in pk_set:
            _now_and_at_commit(forget_user, user_id)


def _group_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    _now_and_at_commit(forget_all)


def connect_signals() -> None:
    """Forget what changed through this process (see the module docstring)."""
    user_model = get_user_model()
    post_delete.connect(_token_deleted, sender=get_token_model(), dispatch_uid="casino-token")
    post_save.connect(_user_changed, sender=user_model, dispatch_uid="casino-token-user-save")
    post_delete.connect(_user_changed, sender=user_model, dispatch_uid="casino-token-user-del")
    m2m_changed.connect(
        _groups_changed, sender=user_model.groups.through, dispatch_uid="casino-token-groups"
    )
    post_save.connect(_group_changed, sender=Group, dispatch_uid="casino-token-group-save")
    post_delete.connect(_group_changed, sender=Group, dispatch_uid="casino-token-group-del")


connect_signals()


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
        cached = _cached(digest)
        if cached is not None:
            auth_token = cached[0]
            if auth_token.expiry is not None and auth_token.expiry < timezone.now():
                auth_token.delete()  # and forgotten (the signal)
                raise failed
            return self.validate_user(auth_token)
        generation = _generation
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
            answer = self.validate_user(auth_token)
            from casino.core.roles import user_groups  # at request time: see the docstring

            _remember(digest, auth_token, user_groups(auth_token.user), generation)
            return answer
        raise failed

    def validate_user(self, auth_token: Any) -> tuple[Any, Any]:
        from casino.core.accounts import is_demo_user  # at request time: see the docstring

        user, token = super().validate_user(auth_token)
        if not settings.DEBUG and is_demo_user(user):
            raise exceptions.AuthenticationFailed(DEMO_REFUSED)
        return user, token
