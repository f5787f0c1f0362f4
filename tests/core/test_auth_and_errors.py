"""Identity, roles and the one error format, as a tablet or a back-office page sees them."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from casino.rules.contract import registry

pytestmark = pytest.mark.django_db


def test_token_login_returns_a_token_that_authenticates(dealer):
    client = APIClient()
    response = client.post(
        "/api/v1/auth/token/",
        {"username": "dealer", "password": "pw-secret-1"},
        format="json",
    )
    assert response.status_code == 200
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert client.get("/api/v1/tables/").status_code == 200


def test_wrong_password_is_a_400_in_the_common_error_format(dealer):
    response = APIClient().post(
        "/api/v1/auth/token/", {"username": "dealer", "password": "nope"}, format="json"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["errors"] and "Unable to log in" in body["detail"]


def test_missing_credentials_name_each_field():
    response = APIClient().post("/api/v1/auth/token/", {}, format="json")
    assert response.status_code == 400
    paths = {e["path"] for e in response.json()["errors"]}
    assert paths == {"username", "password"}


@pytest.mark.parametrize("url", ["/api/v1/tables/", "/api/v1/games/", "/api/v1/audit/entries/"])
def test_anonymous_requests_get_401(url):
    response = APIClient().get(url)
    assert response.status_code == 401
    assert response.json()["errors"][0]["message"]


def test_a_user_without_a_casino_role_gets_403(make_user, client_for):
    response = client_for(make_user(None)).get("/api/v1/tables/")
    assert response.status_code == 403
    assert "casino role" in response.json()["detail"]


def test_games_list_names_high_card_flush_with_its_default_rules(client_for, compliance):
    response = client_for(compliance).get("/api/v1/games/")
    assert response.status_code == 200
    games = {g["code"]: g for g in response.json()}
    assert list(games) == list(registry())  # every registered game, Casino War too
    assert games["high-card-flush"]["rules_doc"] == "docs/rules/high-card-flush.md"
    assert games["high-card-flush"]["record_settled"] is True
    assert games["pontoon"]["schemas"]["table_actions"]["choose_banker"]["required"] == [
        "type",
        "seat",
    ]
    assert games["five-card-draw-7a"]["rules"]["max_raises"] == 3
    assert games["pontoon"]["rules"]["stick_minimum"] == 15
    hcf = games["high-card-flush"]
    assert hcf["rules"]["coverage"] == "running"
    assert hcf["rules"]["flush_paytable"]["7"] == 200
    assert hcf["rules"]["straight_flush_paytable"]["3"] == 8


def test_openapi_schema_and_docs_are_served():
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    for path in [
        "/api/v1/games/{code}/evaluate/",
        "/api/v1/tables/{id}/hands/",
        "/api/v1/hands/{id}/settle/",
        "/api/v1/hands/{id}/void/",
        "/api/v1/audit/checks/",
        "/api/v1/auth/token/",
        "/api/v1/hands/{id}/actions/",
        "/api/v1/tables/{id}/game/",
        "/api/v1/tables/{id}/game/actions/",
    ]:
        assert path in paths
    for gone in ("blinds", "bank", "rotation"):  # one contract: the game's state is /game/
        assert f"/api/v1/tables/{{id}}/{gone}/" not in paths
    assert APIClient().get("/api/docs/").status_code == 200


def test_unknown_object_is_a_404_in_the_common_format(client_for, floor):
    response = client_for(floor).get("/api/v1/hands/999999/")
    assert response.status_code == 404
    assert response.json()["errors"][0]["message"]


def test_session_login_page_and_home(dealer, client):
    assert client.get("/").status_code == 302
    response = client.post("/accounts/login/", {"username": "dealer", "password": "pw-secret-1"})
    assert response.status_code == 302
    assert "Welcome, dealer" in client.get("/").content.decode()


@pytest.mark.django_db
def test_an_accept_header_naming_nothing_we_render_still_gets_json(dealer, client_for):
    response = client_for(dealer).get("/api/v1/games/", HTTP_ACCEPT="z")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json()[0]["code"]


@pytest.mark.parametrize(
    ("who", "floor_desk", "compliance_desk"),
    [("dealer", False, False), ("floor", True, True), ("compliance", False, True)],
)
def test_the_home_page_links_the_desks_a_user_may_open(
    who, floor_desk, compliance_desk, client, request
):
    client.force_login(request.getfixturevalue(who))
    page = client.get("/").content.decode()
    assert ('href="/desk/floor/"' in page) is floor_desk
    assert ('href="/desk/compliance/"' in page) is compliance_desk
    assert 'href="/tablet/"' in page
