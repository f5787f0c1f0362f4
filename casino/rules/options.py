"""Building a game's rules options from JSON: one merge-and-validate for every engine."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeGuard, TypeVar

from .errors import Problems, RuleError


def is_int(value: object) -> TypeGuard[int]:
    """A whole number from JSON: ``True`` and ``1.0`` are not."""
    return isinstance(value, int) and not isinstance(value, bool)


class _Options(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


OptionsT = TypeVar("OptionsT", bound=_Options)


def options_from_dict(
    cls: type[OptionsT],
    data: Mapping[str, Any] | None,
    base: OptionsT | Mapping[str, Any] | None,
    *,
    keys: frozenset[str],
    parse: Callable[[dict[str, Any], Problems], dict[str, Any]],
) -> OptionsT:
    """Validated effective options: ``data`` overrides ``base`` (or the defaults) key by key.

    ``parse`` checks the merged settings, adding every problem with its path
    (``rules.rake.cap``); an unknown key is a problem too (``rules.colour``).
    """
    if base is None:
        start = cls()
    elif isinstance(base, cls):
        start = base
    else:
        start = options_from_dict(cls, base, None, keys=keys, parse=parse)  # type: ignore[arg-type]
    if data is None:
        return start
    if not isinstance(data, Mapping):
        raise RuleError("rules must be an object of settings", "rules")
    problems = Problems()
    merged = start.to_dict()
    for key, value in data.items():
        if key in keys:
            merged[key] = value
        else:
            problems.add(f"rules.{key}", f"unknown rules setting '{key}'")
    values = parse(merged, problems)
    problems.raise_if_any()
    return cls(**values)
