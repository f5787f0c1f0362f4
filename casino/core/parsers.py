"""The API's only request parser: JSON, bounded in size, depth and numbers.

Whatever a client sends, the body an API view sees is JSON that

* is at most ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes (a bigger body is refused without reading
  the rest of it);
* nests objects and lists at most :data:`MAX_DEPTH` levels deep;
* holds no ``NaN``, ``Infinity`` or other number that is not finite;
* holds no whole number beyond :data:`~casino.rules.options.MAX_AMOUNT` either way (the
  largest amount any rules engine accepts, so no number can overflow a database column);
* holds no string (object keys included) with a lone UTF-16 surrogate such as ``"\\ud800"``,
  which is not text and cannot be stored or written back out;
* holds no string (object keys included) with a NUL character (``"\\u0000"``), which is not
  text either and which PostgreSQL refuses in every text and JSON column.

A body that breaks one of these is a 400 in the contract's error body: a ``ParseError`` for
the body as a whole, a ``ValidationError`` naming the path of every bad number or string
(``seats[0].stack``; a bad key is shown escaped, ``players.a\\u0000b``). The parsed body is
walked without recursion, and nothing in it reaches a view.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import BaseParser, get_encoding

from casino.rules.options import MAX_AMOUNT

#: The deepest nesting of objects and lists a body may have (the top-level object is level 1).
#: Every record the API takes is a handful of levels deep.
MAX_DEPTH = 20
#: The body limit when ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is unset (None): 256 KiB.
DEFAULT_MAX_BODY = 262_144
_CHUNK = 65_536
NUL = "\x00"


def max_body_size() -> int:
    """The largest request body the API reads, in bytes."""
    limit = getattr(settings, "DATA_UPLOAD_MAX_MEMORY_SIZE", None)
    return int(limit) if limit is not None else DEFAULT_MAX_BODY


def too_big_message(limit: int) -> str:
    return (
        f"the request body is larger than {limit} bytes ({limit // 1024} KiB), "
        "the most the API accepts"
    )


class BoundedJSONParser(BaseParser):
    """JSON with every bound in the module docstring checked."""

    media_type = "application/json"

    def parse(
        self,
        stream: IO[bytes] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        context = parser_context or {}
        encoding = get_encoding(context)
        raw = _read_bounded(stream, context.get("request"), max_body_size())
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError as exc:
            raise ParseError(
                f"the request body is not valid {encoding} text: {exc.reason}"
            ) from None
        try:
            data = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
        except RecursionError:
            raise ParseError(_too_deep()) from None
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        check_body(data)
        return data


def _read_bounded(stream: IO[bytes] | None, request: Any, limit: int) -> bytes:
    """The body's bytes; a ParseError as soon as it is known to be over ``limit``."""
    if stream is None:
        return b""
    meta = getattr(request, "META", {})
    try:
        declared = int(meta.get("CONTENT_LENGTH") or 0)
    except (TypeError, ValueError):
        declared = 0
    if declared > limit:
        raise ParseError(too_big_message(limit))
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        chunk = stream.read(min(_CHUNK, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    if size > limit:
        raise ParseError(too_big_message(limit))
    return b"".join(chunks)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number the API accepts (numbers must be finite)")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:40]} is out of range (numbers must be finite)")
    return value


def _too_deep() -> str:
    return f"the JSON body is nested more than {MAX_DEPTH} levels deep, the most the API accepts"


def _show_number(value: int) -> str:
    digits = len(str(abs(value))) if abs(value) < 10**100 else None
    if digits is not None and digits <= 40:
        return str(value)
    return "a number with more than 40 digits" if digits is None else f"a {digits}-digit number"


def _safe(text: str) -> str:
    """``text`` with lone surrogates and NUL characters written as escapes, so it can be
    shown in an error."""
    shown = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return shown.replace(NUL, "\\u0000")


def _is_text(value: str) -> bool:
    if value.isascii():
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _key_problem(key: str) -> str | None:
    """Why an object key is refused, or None."""
    if not _is_text(key):
        return "this key holds a lone surrogate, which is not text"
    if NUL in key:
        return "this key contains a NUL character (\\u0000), which is not text"
    return None


def _string_problem(value: str) -> str | None:
    """Why a string is refused, or None."""
    if not _is_text(value):
        return "this string holds a lone surrogate (such as \\ud800), which is not text"
    if NUL in value:
        return (
            "this string contains a NUL character (\\u0000), which is not text and cannot be stored"
        )
    return None


def check_body(data: object) -> None:
    """Refuse a parsed body nested too deep, or with a number or string the API does not take.

    A ParseError when it is too deep; otherwise one ValidationError naming every bad number
    and string by its path.
    """
    problems: dict[str, list[str]] = {}
    pending: list[tuple[str, object, int]] = [("", data, 1)]
    while pending:
        path, value, depth = pending.pop()
        if isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                raise ParseError(_too_deep())
            children: list[tuple[str, object, int]] = []
            if isinstance(value, dict):
                for key, item in value.items():
                    problem = _key_problem(key)
                    shown = key if problem is None else _safe(key)
                    child = f"{path}.{shown}" if path else shown
                    if problem is not None:
                        problems.setdefault(child, []).append(problem)
                    children.append((child, item, depth + 1))
            else:
                children = [(f"{path}[{i}]", item, depth + 1) for i, item in enumerate(value)]
            pending.extend(reversed(children))
        elif isinstance(value, bool):
            continue
        elif isinstance(value, int):
            if value > MAX_AMOUNT:
                problems[path] = [
                    f"{_show_number(value)} is above the largest number the API accepts "
                    f"({MAX_AMOUNT})"
                ]
            elif value < -MAX_AMOUNT:
                problems[path] = [
                    f"{_show_number(value)} is below the smallest number the API accepts "
                    f"({-MAX_AMOUNT})"
                ]
        elif isinstance(value, str):
            problem = _string_problem(value)
            if problem is not None:
                problems.setdefault(path, []).append(problem)
    if problems:
        raise ValidationError(problems)
