"""What the floor's views share: the refusals a service raises, and reading ids typed in."""

from __future__ import annotations

from casino.core.errors import ApplicationError
from casino.rules.errors import Problem, RuleError

#: What a service raises when it refuses: its own errors and the games' rule errors.
REFUSALS = (ApplicationError, RuleError)
#: The queue shows at most this many requests (the newest).
QUEUE_LENGTH = 100
#: A table's hands page lists this many of its latest hands.
HANDS_SHOWN = 30
#: A decision's note is at most this long.
NOTE_LENGTH = 500


def whole(text: str) -> int | None:
    """A database id typed into a form or a query string, or None."""
    return int(text) if text.isascii() and text.isdigit() and len(text) < 12 else None


def problems_of(exc: ApplicationError | RuleError) -> list[Problem]:
    return list(exc.problems) or [Problem("", str(exc))]


def refusal_text(exc: ApplicationError | RuleError) -> str:
    return "; ".join(problem.message for problem in problems_of(exc))
