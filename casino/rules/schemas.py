"""Small builders for the JSON schemas games declare: the API document shows them and the
desks build their forms from them, field by field.

They write the OpenAPI 3.0 dialect of JSON Schema, which the API document uses: ``nullable``
rather than a list of types, a one-value ``enum`` rather than ``const``.

**What a schema says to a person** (the vocabulary every game uses, so a form built from any
game's schemas, one written elsewhere included, reads the same; ``docs/schemas.md``):

* ``title``: the option's name as people say it ("ante maximum", "flush pay table"), and
  ``description``: one sentence of help, citing a rule by number and title, never a file.
* ``format`` says what a number is: ``"money"`` (an integer amount in minor units, entered and
  shown in the house currency), ``"odds"`` (an integer N paid N to 1, written ``500:1``),
  ``"percent"`` (a number from 0 to 100, at most two decimals), ``"count"`` (a number of
  things: players, raises, packs, hands, a card total), ``"minutes"``. A number without a
  ``format`` is a plain number.
* A choice is an ``enum`` with, beside it, ``oneOf`` one titled one-value ``enum`` per value
  (``{"enum": ["dp_only"], "title": "the designated player only"}``): JSON Schema's way of
  naming each value (``const`` with a ``title``) in the OpenAPI 3.0 dialect.
* ``nullable`` with ``x-null``: what an empty value means in words ("no cap", "no upper
  end"). JSON Schema has no keyword for it, hence the one ``x-`` keyword.
* ``readOnly`` on a rules option the table sets from elsewhere (its limits, its smallest
  chip): a table's rules override may not set it, so a form does not ask for it.
* Nested options are typed all the way down: an object lists its ``properties`` (a pay table
  is an object whose properties are its lines, each odds: ``{"7": ..., "6": ...}``), a list
  of bands is an ``array`` whose ``items`` is the band's object.

A schema is for display and a first check; the engine's own validation
(``Game.parse_rules``, ``Game.check_limits``) is the judge.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from .options import MAX_AMOUNT

JSON = dict[str, Any]

#: The ``format`` values that say what a number is (see the module's description).
MONEY: Final = "money"
ODDS: Final = "odds"
PERCENT: Final = "percent"
COUNT: Final = "count"
MINUTES: Final = "minutes"
FORMATS: Final = (MONEY, ODDS, PERCENT, COUNT, MINUTES)
#: The keyword naming what an empty (null) value means.
NULL_WORDS: Final = "x-null"


def _titled(schema: JSON, title: str | None, description: str | None = None) -> JSON:
    if title:
        schema = {"title": title, **schema}
    if description:
        schema["description"] = description
    return schema


def nullable(schema: JSON, none: str | None = None) -> JSON:
    """``schema`` or null; ``none`` says what null means ("no cap")."""
    out = {**schema, "nullable": True}
    if none:
        out[NULL_WORDS] = none
    return out


_or_null = nullable


def amount(
    description: str,
    *,
    minimum: int = 1,
    nullable: bool = False,
    title: str | None = None,
    none: str | None = None,
) -> JSON:
    """A sum of money in minor units (``format: money``)."""
    schema: JSON = {
        "type": "integer",
        "format": MONEY,
        "minimum": minimum,
        "maximum": MAX_AMOUNT,
        "description": description,
    }
    if title:
        schema = {"title": title, **schema}
    if nullable:
        schema["nullable"] = True
        if none:
            schema[NULL_WORDS] = none
    return schema


def money(
    title: str,
    description: str = "",
    *,
    minimum: int = 1,
    nullable: bool = False,
    none: str | None = None,
) -> JSON:
    """An amount of money with its title (minor units; ``format: money``)."""
    schema = amount(description, minimum=minimum, nullable=nullable, title=title, none=none)
    if not description:
        del schema["description"]
    return schema


def odds(title: str, description: str = "", *, most: int, least: int = 1) -> JSON:
    """Odds paid "to 1": ``500`` is paid 500:1 (``format: odds``)."""
    return _titled(
        {"type": "integer", "format": ODDS, "minimum": least, "maximum": most}, title, description
    )


def percent(title: str, description: str = "", *, least: float = 0, most: float = 100) -> JSON:
    """A percentage, from ``least`` to ``most`` (``format: percent``)."""
    return _titled(
        {"type": "number", "format": PERCENT, "minimum": least, "maximum": most},
        title,
        description,
    )


def count(
    title: str,
    description: str = "",
    *,
    least: int,
    most: int | None = None,
    nullable: bool = False,
    none: str | None = None,
    unit: str = COUNT,
) -> JSON:
    """A whole number of things (``format: count``), or of minutes (``unit=MINUTES``)."""
    schema: JSON = {"type": "integer", "format": unit, "minimum": least}
    if most is not None:
        schema["maximum"] = most
    schema = _titled(schema, title, description)
    return _or_null(schema, none) if nullable else schema


def minutes(title: str, description: str = "", *, least: int = 1, most: int | None = None) -> JSON:
    """A length of time in whole minutes (``format: minutes``)."""
    return count(title, description, least=least, most=most, unit=MINUTES)


def flag(title: str, description: str = "") -> JSON:
    """Yes or no."""
    return _titled({"type": "boolean"}, title, description)


def seat(description: str = "a seat number", *, title: str = "seat") -> JSON:
    return {
        "title": title,
        "type": "integer",
        "minimum": 1,
        "maximum": 99,
        "description": description,
    }


def card(
    description: str = "a card: rank 2-9, T, J, Q, K, A and suit c, d, h, s, e.g. 'Ah'",
    *,
    title: str | None = None,
) -> JSON:
    schema: JSON = {"type": "string", "pattern": "^[2-9TJQKA][cdhs]$", "description": description}
    return {"title": title, **schema} if title else schema


def cards(
    description: str,
    *,
    least: int | None = None,
    most: int | None = None,
    title: str | None = None,
) -> JSON:
    schema: JSON = {"type": "array", "items": card(), "description": description}
    if title:
        schema = {"title": title, **schema}
    if least is not None:
        schema["minItems"] = least
    if most is not None:
        schema["maxItems"] = most
    return schema


def choice(
    values: Sequence[Any],
    description: str,
    *,
    titles: Mapping[Any, str] | None = None,
    title: str | None = None,
) -> JSON:
    """One of ``values``; with ``titles``, each value's words (``oneOf`` of titled one-value
    enums beside the ``enum``). Strings unless every value is an integer."""
    kind = "integer" if all(type(value) is int for value in values) else "string"
    schema: JSON = {"type": kind, "enum": list(values), "description": description}
    if titles:
        schema["oneOf"] = [
            {"enum": [value], "title": titles.get(value, str(value).replace("_", " "))}
            for value in values
        ]
    return {"title": title, **schema} if title else schema


def obj(
    properties: Mapping[str, JSON],
    *,
    required: Sequence[str] = (),
    description: str = "",
    title: str | None = None,
) -> JSON:
    schema: JSON = {
        "type": "object",
        "properties": dict(properties),
        "additionalProperties": False,
    }
    if title:
        schema = {"title": title, **schema}
    if required:
        schema["required"] = list(required)
    if description:
        schema["description"] = description
    return schema


def rows(
    title: str,
    item: JSON,
    description: str = "",
    *,
    least: int | None = None,
    most: int | None = None,
) -> JSON:
    """A list of objects, each ``item`` (a list of bands, of players)."""
    schema = _titled({"type": "array", "items": item}, title, description)
    if least is not None:
        schema["minItems"] = least
    if most is not None:
        schema["maxItems"] = most
    return schema


def paytable(
    title: str,
    description: str,
    lines: Iterable[int],
    *,
    most_odds: int,
    line_title: str = "{line} cards",
) -> JSON:
    """A pay table: the odds paid on each line (a length, a hand), longest first; a line left
    out is not paid. As JSON ``{"7": 200, "6": 50}``: an object whose properties are the
    lines, each odds."""
    return obj(
        {
            str(line): odds(line_title.format(line=line), most=most_odds)
            for line in sorted(lines, reverse=True)
        },
        title=title,
        description=description,
    )


def action(
    kind: str,
    properties: Mapping[str, JSON],
    *,
    required: Sequence[str] = (),
    description: str = "",
) -> JSON:
    """One action's body: ``{"type": kind, ...}``."""
    return obj(
        {"type": {"type": "string", "enum": [kind]}, **properties},
        required=["type", *required],
        description=description,
    )


def words(key: str) -> str:
    """A key as words: ``ante_max`` -> ``ante max`` (a title for an option that has none)."""
    return str(key).replace("_", " ")


def inferred(value: Any, key: str = "") -> JSON:
    """A schema for an option known only by its default value (a game that declares no
    schema of its own): its type, with nested objects and lists of objects typed all the
    way down, and its key in words as its title."""
    schema: JSON = {"title": words(key)} if key else {}
    if isinstance(value, bool):
        schema["type"] = "boolean"
    elif isinstance(value, int):
        schema["type"] = "integer"
    elif isinstance(value, float):
        schema["type"] = "number"
    elif isinstance(value, str):
        schema["type"] = "string"
    elif isinstance(value, dict):
        schema.update(
            {
                "type": "object",
                "properties": {k: inferred(v, str(k)) for k, v in value.items()},
                "additionalProperties": False,
            }
        )
    elif isinstance(value, list):
        schema["type"] = "array"
        if value:
            schema["items"] = inferred(value[0])
    elif value is None:
        schema["nullable"] = True
    return schema


def from_defaults(
    defaults: Mapping[str, Any], descriptions: Mapping[str, str] | None = None
) -> JSON:
    """A rules-options schema from the game's default rules: each key, its JSON type (nested
    ones inferred from the default), its key in words as its title and its default (every key
    optional: a table overrides only what it changes). A game that describes its options
    uses :func:`rules` instead."""
    descriptions = descriptions or {}
    properties: JSON = {}
    for key, value in defaults.items():
        prop = {**inferred(value, key), "default": value}
        if key in descriptions:
            prop["description"] = descriptions[key]
        properties[key] = prop
    return {"type": "object", "properties": properties, "additionalProperties": False}


#: What a rules option the table sets from elsewhere says (``readOnly``).
TABLE_SET: Final = {
    "smallest_chip": "set from the table's smallest chip",
}


def rules(
    defaults: Mapping[str, Any],
    properties: Mapping[str, JSON],
    *,
    from_table: Mapping[str, str] | Iterable[str] = (),
) -> JSON:
    """A game's rules-options schema: each option's schema from ``properties`` (an option
    left out is inferred from its default, :func:`inferred`) with its ``default``.

    ``from_table`` names the options a table sets from elsewhere (its limits; the smallest
    chip always), with what sets each (``{"ante_min": "set from the table's ante minimum"}``
    or a list of names): they are ``readOnly``, so no form asks for them, and a table's rules
    may not set them."""
    unknown = sorted(set(properties) - set(defaults))
    if unknown:
        raise ValueError(f"schemas for options with no default: {', '.join(unknown)}")
    table = dict(TABLE_SET)
    if isinstance(from_table, Mapping):
        table.update(from_table)
    else:
        table.update({name: f"set from the table's {words(name)}" for name in from_table})
    out: JSON = {}
    for key, value in defaults.items():
        prop = dict(properties[key]) if key in properties else inferred(value, key)
        if key in table:
            if key == "smallest_chip" and key not in properties:
                prop = money("smallest chip")
            prop["readOnly"] = True
            prop["description"] = table[key]
        if value is None and not prop.get("nullable"):
            prop["nullable"] = True
        prop["default"] = value
        out[key] = prop
    return {"type": "object", "properties": out, "additionalProperties": False}


def integers(description: str) -> JSON:
    return {"type": "array", "items": {"type": "integer"}, "description": description}


def result(properties: Mapping[str, JSON], *, required: Sequence[str] = ()) -> JSON:
    """A game's own figures beside a settlement's seats, house, rake and explanation (open:
    the common fields sit beside them)."""
    schema: JSON = {"type": "object", "properties": dict(properties)}
    if required:
        schema["required"] = list(required)
    return schema
