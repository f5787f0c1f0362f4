"""A quicker ``__init__`` for the frozen, slotted dataclasses built on every settlement.

A frozen dataclass's generated ``__init__`` sets each field with ``object.__setattr__(self,
name, value)``, which looks the field up by name every time; a hand's settlement builds
hundreds of such objects (its lines, seats, decoded actions). :func:`quick_init` gives the
class an ``__init__`` with the same signature, defaults and ``__post_init__`` call that sets
each slot through its own descriptor instead. Nothing else about the class changes: it is
still frozen (assignment raises ``FrozenInstanceError``), compares, hashes and prints the same.
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any, TypeVar

T = TypeVar("T")

_MISSING = object()


def quick_init(cls: type[T]) -> type[T]:
    """Replace the generated ``__init__`` of the frozen, slotted dataclass ``cls`` (applied
    above ``@dataclass(frozen=True, slots=True)``). Only plain fields are supported: no
    ``InitVar``, ``kw_only`` or ``init=False`` field."""
    if not (
        dataclasses.is_dataclass(cls)
        and cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
        and "__slots__" in cls.__dict__
    ):
        raise TypeError(f"{cls.__name__} is not a frozen, slotted dataclass")
    generated = inspect.signature(cls.__init__)
    namespace: dict[str, Any] = {"_MISSING": _MISSING}
    arguments: list[str] = []
    body: list[str] = []
    for item in dataclasses.fields(cls):
        name = item.name
        if not item.init or item.kw_only:
            raise TypeError(f"{cls.__name__}.{name}: quick_init takes plain fields only")
        namespace[f"_set_{name}"] = cls.__dict__[name].__set__
        value = name
        if item.default is not dataclasses.MISSING:
            namespace[f"_default_{name}"] = item.default
            arguments.append(f"{name}=_default_{name}")
        elif item.default_factory is not dataclasses.MISSING:
            namespace[f"_factory_{name}"] = item.default_factory
            arguments.append(f"{name}=_MISSING")
            value = f"_factory_{name}() if {name} is _MISSING else {name}"
        else:
            arguments.append(name)
        body.append(f"    _set_{name}(self, {value})")
    if list(generated.parameters) != ["self", *(item.name for item in dataclasses.fields(cls))]:
        raise TypeError(f"{cls.__name__}: quick_init takes plain fields only (no InitVar)")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    source = f"def __init__(self, {', '.join(arguments)}):\n" + "\n".join(body or ["    pass"])
    exec(source, namespace)  # built from the class's own field names only
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__signature__ = generated  # what the dataclass's says
    setattr(cls, "__init__", init)  # noqa: B010 (a method replaced on the class)
    return cls
