"""One error type for business failures and one 400 body for every kind of bad input.

Every error response has the same shape::

    {"detail": "seat 3: raise 4000 exceeds 1x ante for a 4-card flush",
     "errors": [{"path": "players[1].raise", "message": "seat 3: raise 4000 ..."}]}

``detail`` repeats the messages for a quick read; ``errors`` names every problem and
where it is. The body is bounded: past :data:`MAX_PROBLEMS_SHOWN` problems the rest are only
counted (``"errors_not_shown": 12`` beside ``errors``, and the detail ends "... and 12 more
problems"), and every message and path is cut to :data:`MAX_TEXT` characters.

Rules engines raise :class:`casino.rules.errors.RuleError` (400); services raise
:class:`ApplicationError` with the status that fits (400, 403, 404, 409).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from casino.rules.errors import Problem, Refusal, RuleError

from .i18n import problem_text


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


class ErrorProblemSerializer(serializers.Serializer):
    path = serializers.CharField(
        help_text='where the problem is: a field path ("players[0].raise"), an action index '
        '("actions[3]"), a header ("headers.Idempotency-Key"); "" for the request as a whole'
    )
    message = serializers.CharField(
        help_text="what is wrong, in words a dealer understands, in the request's language "
        "(the django_language cookie, else Accept-Language; English by default)"
    )
    code = serializers.CharField(
        required=False,
        help_text="the message's id (its English template, e.g. \"seat %(seat)s cannot stick "
        'on %(value)s: ..."); absent for a message that has none',
    )
    params = serializers.DictField(
        required=False,
        help_text="the message's parameters (amounts as integers, cards as codes, seats as "
        'integers; a parameter in words is itself {"id", "params"})',
    )


class ErrorResponseSerializer(serializers.Serializer):
    """The one error body, for the OpenAPI document (every 4xx and 5xx answer has it)."""

    detail = serializers.CharField(help_text="every problem's message, for a quick read")
    errors = ErrorProblemSerializer(many=True)
    errors_not_shown = serializers.IntegerField(
        required=False, help_text="problems beyond the first 50, counted and not listed"
    )


#: An error body lists at most this many problems; ``errors_not_shown`` counts the rest.
MAX_PROBLEMS_SHOWN = 50
#: Each problem's message and path is cut to at most this many characters.
MAX_TEXT = 300


def _clip(text: str) -> str:
    """``text`` cut to :data:`MAX_TEXT` characters, lone surrogates written as escapes (an
    error body must always be writable as UTF-8)."""
    text = text[: MAX_TEXT * 4].encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 3] + "..."


def _problem_dict(problem: Problem) -> dict[str, Any]:
    """One problem as the body lists it: its message in the request's language and, for a
    message written as a message id, its ``code`` (the id) and ``params``."""
    data: dict[str, Any] = {"path": _clip(problem.path), "message": _clip(problem_text(problem))}
    if problem.code is not None:
        data["code"] = problem.code
        data["params"] = problem.params
    return data


def error_body(problems: list[Problem]) -> dict[str, Any]:
    """The contract's error body, bounded: at most :data:`MAX_PROBLEMS_SHOWN` problems, each
    cut to :data:`MAX_TEXT` characters, so no error body is ever large. Each message is in
    the request's active language, with its ``code`` and ``params``."""
    shown = [_problem_dict(p) for p in problems[:MAX_PROBLEMS_SHOWN]]
    hidden = len(problems) - len(shown)
    detail = "; ".join(p["message"] for p in shown)
    body: dict[str, Any] = {"detail": detail, "errors": shown}
    if hidden:
        body["detail"] = f"{detail} ... and {hidden} more problem{'s' if hidden > 1 else ''}"
        body["errors_not_shown"] = hidden
    return body


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
    return Response(error_body(problems), status=status_code)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, Refusal):
        return problems_response(list(exc.problems), status.HTTP_409_CONFLICT)
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
    response.data = error_body(problems)
    return response
