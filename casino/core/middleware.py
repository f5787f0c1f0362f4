"""Every error under ``/api/`` in the contract's JSON body, whatever raised it.

DRF views already answer in the contract's shape (``casino/core/errors.py``). This middleware
(the first in ``MIDDLEWARE``) covers what happens around them, for paths under ``/api/`` only
(pages outside it keep Django's HTML):

* an uncaught exception in a view is logged (``logger.exception``) and answered with a JSON
  500, ``{"detail": "internal error; it has been logged", ...}``, also when ``DEBUG`` is on;
* ``RequestDataTooBig`` and any other ``SuspiciousOperation`` is a JSON 400 (``Http404`` a
  404, ``PermissionDenied`` a 403);
* any other 4xx or 5xx response that is not JSON (Django's 404 for an unknown route, a CSRF
  failure's 403, the 400 for a bad ``Host``, a 405, a 413, ...) is replaced by a JSON body
  with the same status.

A NUL character, which PostgreSQL refuses in every text column (a 500 wherever such text
would be stored or looked up), is refused before any view runs: in a query parameter under
``/api/`` (``?action=a%00b``) with a JSON 400 whose path is the parameter, and in a field of
a form posted to a page (outside ``/api/``) with a plain 400 page naming the field; a
parameter's or field's name holding one is refused alike. Nothing is written. A JSON body is
the parser's to check (``casino/core/parsers.py``), headers their readers'; a page's query
string is its filter form's (a Django form refuses NUL in its fields).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from http import HTTPStatus

from django.core.exceptions import PermissionDenied, RequestDataTooBig, SuspiciousOperation
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    JsonResponse,
    QueryDict,
)
from django.urls import Resolver404, resolve
from django.utils.html import escape
from django.views.decorators.csrf import csrf_exempt

from casino.rules.errors import Problem

from .errors import error_body
from .parsers import max_body_size, too_big_message

logger = logging.getLogger(__name__)

API_PREFIX = "/api/"
INTERNAL_ERROR = "internal error; it has been logged"
#: Response headers a replaced error response keeps.
KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate", "Vary")


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX) or request.path_info.startswith(API_PREFIX)


def json_error(status: int, message: str, path: str = "") -> JsonResponse:
    """A response with the contract's error body: one problem, at ``path``."""
    return JsonResponse(error_body([Problem(path, message)]), status=status)


NUL = "\x00"
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
NUL_WORDS = "a NUL character (\\u0000), which is not text"


def _nul_in(fields: QueryDict) -> tuple[str, bool] | None:
    """The first of ``fields`` whose name or a value holds a NUL: its name (the NUL shown as
    ``\\u0000``) and whether the name itself holds it; or None."""
    for name, values in fields.lists():
        if NUL in name or any(NUL in value for value in values):
            return name.replace(NUL, "\\u0000"), NUL in name
    return None


def nul_problem(request: HttpRequest) -> tuple[str, str, bool] | None:
    """The API's query parameter, or a page's posted form field, holding a NUL: its kind, its
    name as shown and whether the name holds the NUL; or None."""
    if is_api(request):
        found = _nul_in(request.GET)
        return None if found is None else ("query parameter", *found)
    if request.method == "POST" and request.content_type in FORM_TYPES:
        found = _nul_in(request.POST)
        return None if found is None else ("form field", *found)
    return None


def nul_message(kind: str, name: str, in_name: bool, *, api: bool) -> str:
    """What is wrong, as the API says it (``action: this query parameter contains ...``) or
    a page does (``The form field reason contains ...``)."""
    if api:
        subject = f"{name}: this {kind}'s name" if in_name else f"{name}: this {kind}"
    else:
        subject = f"The name of the {kind} {name}" if in_name else f"The {kind} {name}"
    return f"{subject} contains {NUL_WORDS}"


def _is_json(response: HttpResponse) -> bool:
    content_type = response.get("Content-Type", "").split(";", 1)[0].strip().lower()
    return content_type == "application/json" or content_type.endswith("+json")


def _message(request: HttpRequest, status: int) -> str:
    if status == 404:
        return f"not found: there is no API endpoint at {request.path}"
    if status == 405:
        return f"method {request.method} is not allowed here"
    if status == 413:
        return too_big_message(max_body_size())
    if status == 403:
        return "forbidden: the request was refused (a browser session needs its CSRF token)"
    if status == 400:
        return (
            "bad request: the server refused the request (such as for its Host header, or a "
            f"body over {max_body_size()} bytes)"
        )
    if status >= 500:
        return INTERNAL_ERROR
    try:
        return HTTPStatus(status).phrase.lower()
    except ValueError:
        return f"error {status}"


class JSONErrorsMiddleware:
    """See the module docstring."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            response = self.get_response(request)
        except Exception as exc:  # raised by a middleware after this one
            if not is_api(request):
                raise
            response = self.process_exception(request, exc)
        if not is_api(request) or response.status_code < 400 or _is_json(response):
            return response
        data = getattr(response, "data", None)  # a DRF response rendered as HTML (browsable)
        if isinstance(data, dict) and isinstance(data.get("errors"), list):
            replaced = JsonResponse(data, status=response.status_code)
        else:
            replaced = json_error(response.status_code, _message(request, response.status_code))
        for header in KEPT_HEADERS:
            if header in response:
                replaced[header] = response[header]
        return replaced

    def process_view(
        self, request: HttpRequest, view: Callable[..., HttpResponse], *args: object
    ) -> HttpResponse | None:
        """Refuse a NUL in an API query parameter or a page's form field (the module
        docstring)."""
        found = nul_problem(request)
        if found is None:
            return None
        kind, name, in_name = found
        if is_api(request):
            return json_error(400, nul_message(kind, name, in_name, api=True), path=name)
        message = nul_message(kind, name, in_name, api=False)
        return HttpResponseBadRequest(
            '<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8">'
            "<title>Bad request (400)</title></head>\n<body>\n<h1>Bad request (400)</h1>\n"
            f"<p>{escape(message)}; nothing was done.</p>\n</body>\n</html>\n",
            content_type="text/html; charset=utf-8",
        )

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_api(request):
            return None
        if isinstance(exception, RequestDataTooBig):
            return json_error(400, too_big_message(max_body_size()))
        if isinstance(exception, SuspiciousOperation):
            logging.getLogger(f"django.security.{type(exception).__name__}").warning(
                "%s", exception
            )
            return json_error(400, "bad request: the request was refused as suspicious")
        if isinstance(exception, Http404):
            return json_error(404, f"not found: {request.path}")
        if isinstance(exception, PermissionDenied):
            return json_error(403, "forbidden: you may not do this")
        logger.exception("uncaught exception on %s %s", request.method, request.path)
        return json_error(500, INTERNAL_ERROR)


@csrf_exempt
def api_not_found(request: HttpRequest, *args: object, **kwargs: object) -> JsonResponse:
    """The last route under ``/api/``: any path no endpoint matched is a JSON 404, with
    ``DEBUG`` on too (a hint when only the trailing slash is missing)."""
    message = f"not found: there is no API endpoint at {request.path}"
    if not request.path_info.endswith("/"):
        try:
            match = resolve(request.path_info + "/")
        except Resolver404:
            match = None
        if match is not None and match.func is not api_not_found:
            message += f"; did you mean {request.path}/ (with the slash)?"
    return json_error(404, message)
