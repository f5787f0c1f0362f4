"""The games' part of the OpenAPI document, generated from the game registry.

The views take a game's bodies as JSON objects and the game checks them, so their shape per
game is written here from what each game declares (``casino.rules.contract.Game``): for every
registered game the document gets components for its table limits, rules options, opening
body, each hand action, each between-hand action and its record, and the request bodies of
the table, hand and evaluate operations become an ``anyOf`` of those (games may share an
action's shape). A game added to the
registry appears in the document with nothing else to change.

It runs as a drf-spectacular post-processing hook (``SPECTACULAR_SETTINGS``).
"""

from __future__ import annotations

import copy
import re
from typing import Any

from casino.rules import presentation
from casino.rules.contract import Game, games

from .schema import ERRORS

JSON = dict[str, Any]
ACTION = "application/json"


def component_name_of(text: str) -> str:
    """A game code or action type as a component name: ``red-dog`` -> ``RedDog``,
    ``sell_bank`` -> ``SellBank``."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^0-9A-Za-z]+", text))


def component_name(game: Game) -> str:
    return component_name_of(game.code)


def _ref(name: str) -> JSON:
    return {"$ref": f"#/components/schemas/{name}"}


def _described(schema: JSON, game: Game, what: str) -> JSON:
    schema = copy.deepcopy(schema)
    words = f"{game.name}: {what}. Rules as implemented: {game.rules_doc}."
    schema["description"] = (
        f"{words} {schema['description']}" if schema.get("description") else words
    )
    return schema


def _one_of(refs: list[JSON], description: str) -> JSON:
    return {"anyOf": refs, "description": description} if refs else {"type": "object"}


def _set_body(result: JSON, path: str, schema: JSON, examples: JSON | None = None) -> None:
    operation = result.get("paths", {}).get(path, {}).get("post")
    if operation is None:
        return
    content: JSON = {"schema": schema}
    if examples:
        content["examples"] = examples
    operation["requestBody"] = {"content": {ACTION: content}, "required": True}
    operation["responses"].setdefault(
        "400",
        {"description": ERRORS["400"], "content": {ACTION: {"schema": _ref("ErrorResponse")}}},
    )


def _set_response(result: JSON, path: str, code: str, schema: JSON) -> None:
    operation = result.get("paths", {}).get(path, {}).get("post")
    if operation is None or code not in operation["responses"]:
        return
    operation["responses"][code]["content"] = {ACTION: {"schema": schema}}


def _game_components(game: Game) -> tuple[JSON, dict[str, list[str]]]:
    """The game's components and the names of those each operation's body chooses from."""
    name = component_name(game)
    schemas: JSON = {
        f"{name}Limits": _described(game.limits_schema, game, "table limits"),
        f"{name}Rules": _described(
            game.rules_schema, game, "rules options (overrides of the defaults)"
        ),
        f"{name}Open": _described(game.open_schema, game, "the body that opens a hand"),
        f"{name}Record": _described(game.record_schema, game, "a whole hand's record"),
    }
    schemas[f"{name}TableCreate"] = {
        "type": "object",
        "description": f"A {game.name} table. Rules as implemented: {game.rules_doc}.",
        "properties": {
            "name": {"type": "string", "maxLength": 100},
            "game": {"type": "string", "enum": [game.code]},
            "seat_count": {
                "type": "integer",
                "minimum": 2,
                "maximum": game.max_seats,
                "default": min(7, game.max_seats),
            },
            "dealer": {"type": "string", "nullable": True, "description": "a dealer's username"},
            "limits": _ref(f"{name}Limits"),
            "smallest_chip": {"type": "integer", "minimum": 1, "default": 1},
            "rules": _ref(f"{name}Rules"),
        },
        "required": ["name", "game", "limits"],
        "additionalProperties": False,
    }
    limits = copy.deepcopy(game.limits_schema.get("properties", {}))
    schemas[f"{name}ChangeRequest"] = {
        "type": "object",
        "description": f"A change of a {game.name} table's limits or rules (rules merge by key).",
        "properties": {
            "changes": {
                "type": "object",
                "properties": {
                    **limits,
                    "smallest_chip": {"type": "integer", "minimum": 1},
                    "rules": _ref(f"{name}Rules"),
                },
                "additionalProperties": False,
                "minProperties": 1,
            },
            "reason": {"type": "string"},
        },
        "required": ["changes"],
        "additionalProperties": False,
    }
    schemas[f"{name}Result"] = {
        "allOf": [
            _ref("SettlementResult"),
            _described(game.result_schema, game, "its own figures in a settlement"),
        ]
    }
    evaluate = copy.deepcopy(schemas[f"{name}Record"])
    evaluate.setdefault("properties", {})["rules"] = _ref(f"{name}Rules")
    schemas[f"{name}Evaluate"] = evaluate
    chosen: dict[str, list[str]] = {
        "create": [f"{name}TableCreate"],
        "change": [f"{name}ChangeRequest"],
        "open": [f"{name}Open"],
        "evaluate": [f"{name}Evaluate"],
        "settle": [f"{name}Record"] if game.record_settled else [],
        "results": [f"{name}Result"],
        "actions": [],
        "table_actions": [],
    }
    for kind, schema in game.action_schemas.items():
        component = f"{name}Action{component_name_of(kind)}"
        schemas[component] = _described(schema, game, f"the hand action {kind}")
        chosen["actions"].append(component)
    for kind, schema in game.table_action_schemas.items():
        component = f"{name}TableAction{component_name_of(kind)}"
        schemas[component] = _described(schema, game, f"the between-hand action {kind}")
        chosen["table_actions"].append(component)
    return schemas, chosen


def openapi_dialect(schema: Any) -> Any:
    """A plain JSON Schema in the OpenAPI 3.0 dialect the document uses: a null type becomes
    ``nullable`` (``["integer", "null"]``, and ``oneOf`` a schema or null)."""
    if isinstance(schema, list):
        return [openapi_dialect(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: openapi_dialect(value) for key, value in schema.items()}
    kind = out.get("type")
    if isinstance(kind, list) and "null" in kind:
        rest = [name for name in kind if name != "null"]
        out["type"] = rest[0] if len(rest) == 1 else rest
        out["nullable"] = True
    choices = out.get("oneOf")
    if isinstance(choices, list) and {"type": "null"} in choices:
        kept = [choice for choice in choices if choice != {"type": "null"}]
        del out["oneOf"]
        out.update(kept[0] if len(kept) == 1 else {"oneOf": kept})
        out["nullable"] = True
    return out


#: A hand's state (``GET /api/v1/hands/{id}/``'s ``state``, every action's answer): the keys
#: every game has, the presentation view, and the game's own beside them.
HAND_STATE: JSON = {
    "type": "object",
    "nullable": True,
    "additionalProperties": True,
    "description": "the open hand's state: its game, phase, whose turn it is, whether it is "
    "complete, the legal actions with their bounds, what the hand looks like "
    "(presentation: the same shape for every game), and the game's own view beside them",
    "properties": {
        "game": {"type": "string"},
        "phase": {"type": "string", "nullable": True},
        "to_act": {"type": "integer", "nullable": True},
        "complete": {"type": "boolean"},
        "legal_actions": {"type": "array", "items": {"type": "object"}},
        "presentation": {
            "allOf": [{"$ref": "#/components/schemas/HandPresentation"}],
            "nullable": True,
        },
    },
}


def add_games(result: JSON, generator: Any, request: Any, public: bool) -> JSON:
    """drf-spectacular post-processing hook: the registered games' bodies, and the hand's
    presentation view."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components["HandPresentation"] = openapi_dialect(presentation.SCHEMA)
    chosen: dict[str, list[str]] = {}
    codes = []
    examples: JSON = {}
    tables: JSON = {}
    for game in games():
        codes.append(game.code)
        schemas, names = _game_components(game)
        components.update(schemas)
        for key, value in names.items():
            chosen.setdefault(key, []).extend(value)
        if game.record_example is not None:
            examples[component_name(game)] = {"summary": game.name, "value": game.record_example}
        if game.demo_table is not None:
            demo = {k: v for k, v in game.demo_table.items() if k != "between_hands"}
            tables[component_name(game)] = {
                "summary": game.name,
                "value": {**demo, "name": f"{demo['name']}-2", "game": game.code},
            }
    components["EmptyBody"] = {
        "type": "object",
        "additionalProperties": False,
        "description": "{}: the hand is settled from its own actions",
    }

    def refs(key: str) -> list[JSON]:
        return [_ref(name) for name in chosen.get(key, [])]

    _set_body(
        result, "/api/v1/tables/", _one_of(refs("create"), "a table of one of the games"), tables
    )
    for path in ("/api/v1/tables/{id}/changes/", "/api/v1/tables/{id}/changes/preview/"):
        _set_body(result, path, _one_of(refs("change"), "the table game's limits or rules"))
    _set_body(
        result, "/api/v1/tables/{id}/hands/", _one_of(refs("open"), "the table game's opening body")
    )
    _set_body(
        result,
        "/api/v1/hands/{id}/actions/",
        _one_of(refs("actions"), "one action of the hand's game"),
    )
    _set_body(
        result,
        "/api/v1/tables/{id}/game/actions/",
        _one_of(refs("table_actions"), "one between-hand action of the table's game"),
    )
    _set_body(
        result,
        "/api/v1/hands/{id}/settle/",
        _one_of(
            [_ref("EmptyBody"), *refs("settle")], "{} or, for a record-settled game, the record"
        ),
        examples,
    )
    _set_body(
        result,
        "/api/v1/games/{code}/evaluate/",
        _one_of(refs("evaluate"), "the game's whole record, with optional rules overrides"),
        examples,
    )
    results = _one_of(refs("results"), "the settlement, with the game's own figures")
    _set_response(result, "/api/v1/games/{code}/evaluate/", "200", results)
    _set_response(result, "/api/v1/hands/{id}/settle/", "201", results)
    evaluate = result.get("paths", {}).get("/api/v1/games/{code}/evaluate/", {}).get("post")
    for parameter in (evaluate or {}).get("parameters", []):
        if parameter.get("name") == "code":
            parameter["schema"] = {"type": "string", "enum": codes}
    return result
