"""The one error type every rules engine raises for bad input or an illegal step.

A ``RuleError`` carries every problem found, each with the place it was found
(a field path such as ``players[0].raise`` or an action index such as
``actions[3]``) and a message written for a dealer. The API layer turns it into
the contract's 400 body; engines never know about HTTP.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from .messages import Message


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with the input: where it is and what is wrong, in words.

    ``message`` is the English text. When it is a :class:`~casino.rules.messages.Message`
    (or ``code`` is given), ``code`` is its message id and ``params`` its parameters (nested
    messages as ``{"id", "params"}``), for the API to say it in the dealer's language; a plain
    message has no code. Two problems are equal when their path and text are."""

    path: str
    message: str
    code: str | None = field(default=None, compare=False)
    params: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if self.code is None and isinstance(self.message, Message):
            data = self.message.to_dict()
            object.__setattr__(self, "code", data["id"])
            object.__setattr__(self, "params", _bounded(data["params"]))

    def to_dict(self) -> dict[str, str]:
        return {"path": self.path, "message": str(self.message)}


#: A text parameter of a problem (a refused value repeated) is cut to this many characters,
#: so an error body stays small whatever was sent (the message itself is cut where it is
#: shown).
MAX_PARAM_TEXT = 300


def _bounded(value: Any) -> Any:
    """``value`` with every text in it cut to :data:`MAX_PARAM_TEXT` characters."""
    if isinstance(value, str):
        if len(value) <= MAX_PARAM_TEXT:
            return value
        return value[: MAX_PARAM_TEXT - 3] + "..."
    if isinstance(value, dict):
        return {key: _bounded(item) for key, item in value.items()}
    return value


class RuleError(ValueError):
    """Input breaks a rule; ``problems`` names every one of them."""

    def __init__(self, problems: Iterable[Problem] | Problem | str, path: str = "") -> None:
        if isinstance(problems, str):
            problems = [Problem(path, problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__("; ".join(str(p.message) for p in self.problems))


class Refusal(RuleError):
    """Well-formed input the table's state does not allow now (no designated player yet, a
    hand needs two players, ...); the API answers 409 with the message."""


class Problems:
    """Collects problems while a record is checked, then raises them all at once.

    >>> problems = Problems()
    >>> problems.add("players[0].ante", "seat 2: ante must be positive")
    >>> problems.raise_if_any()
    Traceback (most recent call last):
    ...
    casino.rules.errors.RuleError: seat 2: ante must be positive
    """

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def add(self, path: str, message: str) -> None:
        """``message``: English text or a :class:`~casino.rules.messages.Message`."""
        self.items.append(Problem(path, message))

    def extend(self, error: RuleError) -> None:
        self.items.extend(error.problems)

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise RuleError(self.items)


def action_path(index: int | None) -> str:
    """Where a replayed action's problems are reported: ``actions[3]``, or ``action`` live."""
    return f"actions[{index}]" if index is not None else "action"


def reported(error: RuleError, path: str) -> RuleError:
    """``error``'s problems, every one reported at ``path`` (raise it ``from None``)."""
    return RuleError([Problem(path, p.message, p.code, p.params) for p in error.problems])


class reported_at:  # used as a function: ``with reported_at(path):``
    """Report every problem raised inside the block at ``path`` (e.g. ``actions[3]``)."""

    __slots__ = ("path",)

    def __init__(self, path: str) -> None:
        self.path = path

    def __enter__(self) -> None:
        return None

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if isinstance(error, RuleError):
            raise reported(error, self.path) from None
