"""One error type for business failures and one 400 body for every kind of bad input.

Every error response has the same shape::

    {"detail": "seat 3: raise 4000 exceeds 1x ante for a 4-card flush",
     "errors": [{"path": "players[1].raise", "message": "seat 3: raise 4000 ..."}]}

``detail`` repeats the messages for a quick read; ``errors`` names every problem and
where it is. Rules engines raise :class:`casino.rules.errors.RuleError` (400); services
raise :class:`ApplicationError` with the status that fits (400, 403, 404, 409).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from casino.rules.errors import Problem, RuleError


class ApplicationError(Exception):
    """A business rule refused the request. ``status`` is the HTTP status to answer with."""

    status = status.HTTP_400_BAD_REQUEST

    def __init__(self, message: str, *, path: str = "", problems: list[Problem] | None = None):
        super().__init__(message)
        self.problems = problems or [Problem(path, message)]


class Conflict(ApplicationError):
    """The object's state forbids this now (already settled, key reused, stale state)."""

    status = status.HTTP_409_CONFLICT


class Forbidden(ApplicationError):
    status = status.HTTP_403_FORBIDDEN


class NotFound(ApplicationError):
    status = status.HTTP_404_NOT_FOUND


def _body(problems: list[Problem]) -> dict[str, Any]:
    return {
        "detail": "; ".join(p.message for p in problems),
        "errors": [p.to_dict() for p in problems],
    }


def _flatten(detail: Any, path: str = "") -> list[Problem]:
    """Turn DRF's nested validation errors into path-named problems."""
    if isinstance(detail, dict):
        problems: list[Problem] = []
        for key, value in detail.items():
            if key == "non_field_errors":
                child = path
            elif isinstance(key, int) or (isinstance(key, str) and key.isdigit()):
                child = f"{path}[{key}]"
            else:
                child = f"{path}.{key}" if path else str(key)
            problems.extend(_flatten(value, child))
        return problems
    if isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            return [Problem(path, _with_path(path, str(item))) for item in detail]
        problems = []
        for index, item in enumerate(detail):
            if item:
                problems.extend(_flatten(item, f"{path}[{index}]"))
        return problems
    return [Problem(path, _with_path(path, str(detail)))]


def _with_path(path: str, message: str) -> str:
    return f"{path}: {message}" if path else message


def problems_response(problems: list[Problem], status_code: int) -> Response:
    return Response(_body(problems), status=status_code)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RuleError):
        return problems_response(list(exc.problems), status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, ApplicationError):
        return problems_response(exc.problems, exc.status)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        problems = _flatten(exc.detail)
    else:
        detail = exc.detail if isinstance(exc, exceptions.APIException) else str(exc)
        problems = [Problem("", str(detail))]
    response.data = _body(problems)
    return response
