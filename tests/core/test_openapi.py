"""The OpenAPI document tells a client what every endpoint answers, errors included."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from casino.rules.contract import registry

pytestmark = pytest.mark.django_db
ERROR = {"$ref": "#/components/schemas/ErrorResponse"}
# POSTs that change nothing, or belong to no one yet: no Idempotency-Key.
NOT_IDEMPOTENT = {
    "/api/v1/games/{code}/evaluate/",
    "/api/v1/tables/{id}/changes/preview/",
    "/api/v1/auth/token/",
    "/api/v1/auth/logout/",
    "/api/v1/auth/logout-all/",
}


@pytest.fixture(scope="module")
def document(django_db_blocker):
    with django_db_blocker.unblock():
        return APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()


def operations(document):
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


def test_every_error_answer_has_the_one_error_body(document):
    seen = 0
    for path, method, operation in operations(document):
        for code, response in operation["responses"].items():
            if code.startswith(("4", "5")):
                seen += 1
                assert response["content"]["application/json"]["schema"] == ERROR, (
                    path,
                    method,
                    code,
                )
    assert seen > 100


def test_every_operation_needing_a_role_documents_401_and_403(document):
    for path, method, operation in operations(document):
        if path.startswith("/api/v1/auth/"):
            continue
        assert {"401", "403"} <= set(operation["responses"]), (path, method)
        if "{" in path:
            assert "404" in operation["responses"], (path, method)


def test_every_state_changing_post_documents_the_idempotency_key_and_409(document):
    posts = [(path, op) for path, method, op in operations(document) if method == "post"]
    assert len(posts) > 15
    for path, operation in posts:
        headers = {p["name"] for p in operation.get("parameters", []) if p["in"] == "header"}
        if path in NOT_IDEMPOTENT:
            assert "Idempotency-Key" not in headers, path
        else:
            assert "Idempotency-Key" in headers, path
            assert {"400", "409"} <= set(operation["responses"]), path


def test_the_evaluate_path_names_the_games(document):
    operation = document["paths"]["/api/v1/games/{code}/evaluate/"]["post"]
    [code] = [p for p in operation["parameters"] if p["name"] == "code"]
    assert sorted(code["schema"]["enum"]) == sorted(registry())


def test_every_documented_record_example_settles(document, compliance, client_for):
    """A game's example record is optional (``Game.record_example``): each one given is in
    the document and settles; a game without one (the suite's Casino War) is documented all the
    same."""
    operation = document["paths"]["/api/v1/games/{code}/evaluate/"]["post"]
    examples = operation["requestBody"]["content"]["application/json"]["examples"].values()
    given = {game.name: game for game in registry().values() if game.record_example is not None}
    assert sorted(example["summary"] for example in examples) == sorted(given)
    assert len(given) < len(registry()), "a registered game without an example record"
    for example in examples:
        game = given[example["summary"]]
        response = client_for(compliance).post(
            f"/api/v1/games/{game.code}/evaluate/", example["value"], format="json"
        )
        assert response.status_code == 200, (game.code, response.json())
        body = response.json()
        house = body.get("house", {}).get("net", 0)
        assert sum(seat["net"] for seat in body["seats"]) + house + body["rake"] == 0
        if game.code == "high-card-flush":
            assert {seat["seat"] for seat in body["seats"]} == {1, 2, 7}


def _resolve(document, schema):
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def _body_refs(document, path):
    schema = document["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    return [ref["$ref"].rsplit("/", 1)[1] for ref in schema["schema"]["anyOf"]]


@pytest.mark.parametrize("code", list(registry()))
def test_every_game_s_bodies_are_documented_from_the_registry(document, code):
    """Per game: its limits and rules in the table body, its opening body, each of its hand
    and between-hand actions and its record, each naming where its rules are written."""
    from casino.core.game_schema import component_name

    game = registry()[code]
    name = component_name(game)
    created = _body_refs(document, "/api/v1/tables/")
    assert f"{name}TableCreate" in created
    table = _resolve(document, {"$ref": f"#/components/schemas/{name}TableCreate"})
    assert table["properties"]["game"]["enum"] == [code]
    limits = _resolve(document, table["properties"]["limits"])
    assert set(limits["properties"]) == set(game.limit_fields)
    rules = _resolve(document, table["properties"]["rules"])
    assert set(rules["properties"]) == set(game.default_rules())
    assert game.rules_doc in rules["description"]
    assert f"{name}Open" in _body_refs(document, "/api/v1/tables/{id}/hands/")
    actions = _body_refs(document, "/api/v1/hands/{id}/actions/")
    for kind in game.action_schemas:
        [component] = [
            a
            for a in actions
            if a.startswith(f"{name}Action")
            and _resolve(document, {"$ref": f"#/components/schemas/{a}"})["properties"]["type"][
                "enum"
            ]
            == [kind]
        ]
        assert component
    between = _body_refs(document, "/api/v1/tables/{id}/game/actions/")
    assert len([b for b in between if b.startswith(f"{name}TableAction")]) == len(
        game.table_action_schemas
    )
    assert f"{name}Evaluate" in _body_refs(document, "/api/v1/games/{code}/evaluate/")
    settle = _body_refs(document, "/api/v1/hands/{id}/settle/")
    assert (f"{name}Record" in settle) is game.record_settled


def test_the_rules_documents_the_api_names_ship_with_the_repository():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    for game in registry().values():
        text = (root / game.rules_doc).read_text()
        assert game.name in text.splitlines()[0], game.rules_doc


def test_the_document_validates_against_the_openapi_specification(tmp_path):
    """drf-spectacular's validation (the OpenAPI 3.0 JSON schema), warnings as failures."""
    from django.core.management import call_command

    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    assert "HighCardFlushActionWager" in out.read_text()
