"""A game's options in words, from its schemas: what a page, the approvals queue and the
change preview say of a limit or rule (``docs/schemas.md``).

:func:`describe` writes any value as its schema says people read it: money in the house
currency (``$5.00``), odds as ``500:1``, a percentage as ``5%``, a choice by its title, yes or
no, an empty value by what it means (``no cap``), a pay table line by line, bands one by one.
:func:`title_of` is an option's name ("ante maximum"), :func:`changes_in_words` lists what a
change request alters, each option before and after.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from casino.core.money import money
from casino.rules import schemas as s
from casino.rules.contract import Game

JSON = dict[str, Any]

#: Words a description may hold that are a developer's (``legal_actions``): written as words.
_SNAKE = re.compile(r"\b([A-Za-z]+(?:_[A-Za-z0-9]+)+)\b")


def plain(text: str) -> str:
    """``text`` with every ``snake_case`` word written as words (``legal actions``)."""
    return _SNAKE.sub(lambda match: match.group(1).replace("_", " "), text or "")


def title_of(schema: Mapping[str, Any] | None, key: str = "") -> str:
    """An option's name: its schema's ``title``, else its key in words."""
    title = (schema or {}).get("title")
    return str(title) if title else s.words(key)


def choice_titles(schema: Mapping[str, Any]) -> dict[Any, str]:
    """Each value of a choice with its words (``oneOf`` titled one-value enums, else the value
    in words)."""
    titles: dict[Any, str] = {}
    for option in schema.get("oneOf") or ():
        values: list[Any] = list(option.get("enum") or [])
        if len(values) == 1 and option.get("title"):
            titles[values[0]] = str(option["title"])
    return {
        value: titles.get(value, s.words(str(value)))
        for value in schema.get("enum") or ()
        if value is not None
    }


def percent_text(value: Any) -> str:
    """``5`` -> ``5%``, ``2.5`` -> ``2.5%``."""
    number = Decimal(str(value)).normalize()
    text = format(number, "f")
    return f"{text}%"


def odds_text(value: Any) -> str:
    return f"{value}:1"


def none_words(schema: Mapping[str, Any]) -> str:
    return str(schema.get(s.NULL_WORDS) or "none")


def describe(schema: Mapping[str, Any] | None, value: Any) -> str:
    """``value`` in words, as its ``schema`` says people read it."""
    schema = schema or {}
    if value is None:
        return none_words(schema)
    kind = schema.get("type")
    form = schema.get("format")
    if isinstance(value, bool):
        return "yes" if value else "no"
    if schema.get("enum") and not isinstance(value, dict | list):
        return choice_titles(schema).get(value, s.words(str(value)))
    if isinstance(value, int | float) and not isinstance(value, bool):
        if form == s.MONEY and isinstance(value, int):
            return money(value)
        if form == s.ODDS:
            return odds_text(value)
        if form == s.PERCENT:
            return percent_text(value)
        if form == s.MINUTES:
            return f"{value} minute{'' if value == 1 else 's'}"
        return str(value)
    if isinstance(value, dict):
        return _describe_object(schema, value)
    if isinstance(value, list):
        return _describe_list(schema, value)
    if kind == "string" or isinstance(value, str):
        return plain(str(value))
    return str(value)


def _describe_object(schema: Mapping[str, Any], value: Mapping[str, Any]) -> str:
    properties = schema.get("properties") or {}
    if not value:
        return "none"
    if properties and all(p.get("format") == s.ODDS for p in properties.values()):
        # A pay table: its lines, longest first.
        lines = sorted(value.items(), key=lambda item: _number(item[0]), reverse=True)
        return ", ".join(
            f"{title_of(properties.get(str(key)), str(key))} {odds_text(odds)}"
            for key, odds in lines
        )
    parts = []
    extra = schema.get("additionalProperties")
    for key, item in value.items():
        prop = properties.get(key) or (extra if isinstance(extra, dict) else {})
        if _unset(prop, item):
            continue
        parts.append(_titled(prop, key, item))
    return "; ".join(parts) or "none"


def _unset(schema: Mapping[str, Any], value: Any) -> bool:
    """A part of an object that says nothing: an empty list, nothing where nothing has no
    meaning of its own, a zero where zero is allowed (a fee of 0 beside bands)."""
    if value is None:
        return not schema.get(s.NULL_WORDS)
    if isinstance(value, list | dict):
        return not value
    return value == 0 and not isinstance(value, bool) and schema.get("minimum") == 0


def _titled(schema: Mapping[str, Any], key: str, value: Any, *, mark: str = ":") -> str:
    """``title: value`` (a row's ``title value``); a null by its words alone (``no upper
    end``)."""
    if value is None:
        return none_words(schema)
    return f"{title_of(schema, key)}{mark} {describe(schema, value)}"


def _describe_list(schema: Mapping[str, Any], value: list[Any]) -> str:
    if not value:
        return "none"
    item = schema.get("items") or {}
    if all(isinstance(entry, dict) for entry in value):
        rows = []
        for entry in value:
            fields = item.get("properties") or {}
            rows.append(
                ", ".join(
                    _titled(fields.get(key) or {}, key, part, mark="")
                    for key, part in entry.items()
                )
            )
        return "; ".join(rows)
    return " ".join(describe(item, entry) for entry in value)


def _number(key: Any) -> float:
    try:
        return float(key)
    except (TypeError, ValueError):
        return 0.0


# ---------------------------------------------------------------- a change, option by option


def difference_in_words(schema: Mapping[str, Any], old: Any, new: Any) -> tuple[str, str]:
    """An option's value before and after, in words; of an object (a pay table, the rake)
    only the parts that differ: ``("7 cards 200:1", "7 cards 500:1")``, a pay table line
    left out as ``not paid``."""
    properties = schema.get("properties") or {}
    if not (isinstance(old, dict) and isinstance(new, dict) and properties):
        return describe(schema, old), describe(schema, new)
    keys = [key for key in properties if old.get(key) != new.get(key)]
    keys += [
        key for key in {**old, **new} if key not in properties and old.get(key) != new.get(key)
    ]
    if not keys:
        return describe(schema, old), describe(schema, new)
    pay_table = all(p.get("format") == s.ODDS for p in properties.values())

    def part(value: Mapping[str, Any], key: str) -> str:
        prop = properties.get(key) or {}
        if key not in value:
            return (
                f"{title_of(prop, key)} not paid" if pay_table else f"{title_of(prop, key)}: none"
            )
        if pay_table:
            return f"{title_of(prop, key)} {describe(prop, value[key])}"
        return _titled(prop, key, value[key])

    return "; ".join(part(old, k) for k in keys), "; ".join(part(new, k) for k in keys)


@dataclass(frozen=True)
class ChangedOption:
    """One option a change alters: where it is (``ante_max``, ``rules.rake``), its name and
    its value before and after, in words and as JSON; ``was_default``: a rule the table had
    not set (its game's default)."""

    path: str
    title: str
    before: str
    after: str
    before_value: Any
    after_value: Any
    was_default: bool = False
    is_rule: bool = False

    def to_dict(self) -> JSON:
        return {
            "path": self.path,
            "title": self.title,
            "before": self.before_value,
            "after": self.after_value,
            "before_words": self.before,
            "after_words": self.after,
            "was_default": self.was_default,
        }


#: The table's smallest chip, changeable beside the limits and rules.
CHIP_SCHEMA: JSON = s.money("smallest chip", "every amount at the table is a multiple of it")


def option_schema(game: Game | None, key: str, *, rule: bool = False) -> JSON:
    """The schema of a limit, the smallest chip or (``rule``) a rules option of ``game``."""
    if game is None:
        return {}
    if rule:
        return dict((game.rules_schema.get("properties") or {}).get(key) or {})
    if key == "smallest_chip":
        return CHIP_SCHEMA
    return dict((game.limits_schema.get("properties") or {}).get(key) or {})


def changes_in_words(
    game: Game | None, before: Mapping[str, Any], changes: Mapping[str, Any]
) -> list[ChangedOption]:
    """Every option a change request alters, in the order the game lists them: a limit or the
    smallest chip replaces its value; ``rules`` merge by key, each rule listed, a rule the
    table did not set shown with its game's default (``was_default``)."""
    out: list[ChangedOption] = []
    defaults = game.default_rules() if game is not None else {}
    for key, value in changes.items():
        if key == "rules" and isinstance(value, dict):
            current = before.get("rules") or {}
            for rule, new in value.items():
                schema = option_schema(game, rule, rule=True)
                was_default = rule not in current
                old = defaults.get(rule) if was_default else current[rule]
                before_words, after_words = difference_in_words(schema, old, new)
                out.append(
                    ChangedOption(
                        f"rules.{rule}",
                        title_of(schema, rule),
                        before_words,
                        after_words,
                        old,
                        new,
                        was_default,
                        True,
                    )
                )
        else:
            schema = option_schema(game, key)
            old = before.get(key)
            out.append(
                ChangedOption(
                    key,
                    title_of(schema, key),
                    describe(schema, old),
                    describe(schema, value),
                    old,
                    value,
                )
            )
    return out
