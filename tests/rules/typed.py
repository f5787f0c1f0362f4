"""Checks that a settlement's own figures are what its game declares (``result_schema``)."""

from __future__ import annotations

from typing import Any

import jsonschema

from casino.rules.contract import registry
from casino.rules.settlement import Settlement


def _json_schema(schema: Any) -> Any:
    """The OpenAPI 3.0 dialect as plain JSON Schema: ``nullable`` becomes a null type."""
    if isinstance(schema, dict):
        out = {key: _json_schema(value) for key, value in schema.items() if key != "nullable"}
        if schema.get("nullable") and "type" in out:
            out["type"] = [out["type"], "null"]
            if "enum" in out:
                out["enum"] = [*out["enum"], None]
        return out
    if isinstance(schema, list):
        return [_json_schema(item) for item in schema]
    return schema


def assert_typed(settlement: Settlement) -> None:
    """The settlement's extras match its game's ``result_schema``, and every declared
    property it lists is one the settlement gives."""
    game = registry()[settlement.game]
    data = settlement.to_dict()
    jsonschema.validate(data, _json_schema(game.result_schema))
    assert set(game.result_schema.get("properties", {})) <= set(data), settlement.game
