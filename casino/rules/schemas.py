"""Small builders for the JSON schemas games declare (shown in the API document).

They write the OpenAPI 3.0 dialect of JSON Schema, which the API document uses: ``nullable``
rather than a list of types, a one-value ``enum`` rather than ``const``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .options import MAX_AMOUNT

JSON = dict[str, Any]


def amount(description: str, *, minimum: int = 1, nullable: bool = False) -> JSON:
    """A sum of money in minor units."""
    schema: JSON = {
        "type": "integer",
        "minimum": minimum,
        "maximum": MAX_AMOUNT,
        "description": description,
    }
    if nullable:
        schema["nullable"] = True
    return schema


def nullable(schema: JSON) -> JSON:
    return {**schema, "nullable": True}


def seat(description: str = "a seat number") -> JSON:
    return {"type": "integer", "minimum": 1, "maximum": 99, "description": description}


def card(
    description: str = "a card: rank 2-9, T, J, Q, K, A and suit c, d, h, s, e.g. 'Ah'",
) -> JSON:
    return {"type": "string", "pattern": "^[2-9TJQKA][cdhs]$", "description": description}


def cards(description: str, *, least: int | None = None, most: int | None = None) -> JSON:
    schema: JSON = {"type": "array", "items": card(), "description": description}
    if least is not None:
        schema["minItems"] = least
    if most is not None:
        schema["maxItems"] = most
    return schema


def choice(values: Sequence[str], description: str) -> JSON:
    return {"type": "string", "enum": list(values), "description": description}


def obj(
    properties: Mapping[str, JSON], *, required: Sequence[str] = (), description: str = ""
) -> JSON:
    schema: JSON = {
        "type": "object",
        "properties": dict(properties),
        "additionalProperties": False,
    }
    if required:
        schema["required"] = list(required)
    if description:
        schema["description"] = description
    return schema


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


def from_defaults(
    defaults: Mapping[str, Any], descriptions: Mapping[str, str] | None = None
) -> JSON:
    """A rules-options schema from the game's default rules: each key, its JSON type and
    default (every key optional: a table overrides only what it changes)."""
    descriptions = descriptions or {}
    properties: JSON = {}
    for key, value in defaults.items():
        prop: JSON = {"default": value}
        if isinstance(value, bool):
            prop["type"] = "boolean"
        elif isinstance(value, int):
            prop["type"] = "integer"
        elif isinstance(value, str):
            prop["type"] = "string"
        elif isinstance(value, dict):
            prop["type"] = "object"
        elif isinstance(value, list):
            prop["type"] = "array"
        if key in descriptions:
            prop["description"] = descriptions[key]
        properties[key] = prop
    return {"type": "object", "properties": properties, "additionalProperties": False}


def integers(description: str) -> JSON:
    return {"type": "array", "items": {"type": "integer"}, "description": description}


def result(properties: Mapping[str, JSON], *, required: Sequence[str] = ()) -> JSON:
    """A game's own figures beside a settlement's seats, house, rake and explanation (open:
    the common fields sit beside them)."""
    schema: JSON = {"type": "object", "properties": dict(properties)}
    if required:
        schema["required"] = list(required)
    return schema
