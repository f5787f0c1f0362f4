"""The engines' sentences in the request's language: translation happens here, at the edge.

The rules engines (``casino/rules``, no Django) write their explanations and errors as
message ids with parameters (:mod:`casino.rules.messages`); the catalogs are the ``django``
domain under ``casino/locale`` (``LOCALE_PATHS``). ``LocaleMiddleware`` activates the
request's language (the ``django_language`` cookie, else ``Accept-Language``) for every path,
``/api/`` included; English, the default, has no catalog and reads as the engines wrote it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext

from casino.core.money import money
from casino.rules.errors import Problem
from casino.rules.messages import Message, format_template, render
from casino.rules.rule_titles import TITLES, citer

#: A rule cited by its document's path, in text an engine has not yet written as a message.
_DOCUMENT_CITATION = re.compile(r"clauses? (\d+)(?:-(\d+))? of docs/rules/([\w-]+)\.md")


def cited_by_title(text: str) -> str:
    """``text`` with every ``clause N of docs/rules/<game>.md`` written as the rule's number
    and title in the active language (``rule 13 (“...”)``): a dealer never sees a file name."""

    def cite(match: re.Match[str]) -> str:
        first, second, code = match.groups()
        titles = TITLES.get(code, {})
        numbers = [int(first), *([int(second)] if second else [])]
        if not all(number in titles for number in numbers):
            return match.group(0).replace(f" of docs/rules/{code}.md", "")
        return citer(code)(*numbers).render(gettext)

    return _DOCUMENT_CITATION.sub(cite, text) if "docs/rules/" in text else text


def translated(message: str) -> str:
    """One engine sentence (a :class:`Message`, or plain text) in the active language."""
    if isinstance(message, Message):
        return message.render(gettext, money)
    return cited_by_title(gettext(message)) if message else message


def problem_text(problem: Problem) -> str:
    """A problem's message in the active language (its code and params, if it has them)."""
    if problem.code is not None:
        return format_template(problem.code, problem.params, gettext, money)
    return translated(problem.message)


def explanation_text(result: Mapping[str, Any]) -> list[str]:
    """A settlement result's explanation in the active language: from its ``messages`` where
    it has them (a result settled before they existed: each English line looked up as is)."""
    messages = result.get("messages")
    explanation = result.get("explanation") or []
    if isinstance(messages, list) and len(messages) == len(explanation):
        return [
            cited_by_title(render(item, gettext, money)) if isinstance(item, Mapping) else str(line)
            for item, line in zip(messages, explanation, strict=True)
        ]
    return [translated(line) if isinstance(line, str) else line for line in explanation]


def with_explanation_text(result: Mapping[str, Any]) -> dict[str, Any]:
    """``result`` as served: the same, plus ``explanation_text`` (nothing stored changes)."""
    served = dict(result)
    if "explanation" in served:
        served["explanation_text"] = explanation_text(result)
    return served


__all__ = [
    "cited_by_title",
    "explanation_text",
    "problem_text",
    "translated",
    "with_explanation_text",
]
