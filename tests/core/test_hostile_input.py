"""Hostile text, on PostgreSQL: NUL characters and bytes that are not text, wherever a client
can put them (a JSON body, a query string, a form, the Authorization and Idempotency-Key
headers, a path).

PostgreSQL refuses a NUL in every text and JSON column, so each of these used to be a 500
where it reached the database (a table's dealer, an audit filter, a token lookup, a stored
key, a void's reason on the floor desk). Each is now a 4xx that names the field, parameter
or header and says what is wrong, and nothing is written.
"""

from __future__ import annotations

import html
import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from approvals.models import Approval
from casino.core.authentication import NOT_A_TOKEN
from casino.core.models import IdempotencyRecord
from payouts.models import AuditEntry
from tables import services
from tables.models import Hand, Table
from tests.conftest import record

pytestmark = pytest.mark.django_db

EVALUATE = "/api/v1/games/high-card-flush/evaluate/"
NEW_TABLE = {
    "name": "HCF-9",
    "game": "high-card-flush",
    "limits": {"ante_min": 500, "ante_max": 5000, "bank_min": 10_000, "bank_max": 200_000},
}
NUL_STRING = (
    "this string contains a NUL character (\\u0000), which is not text and cannot be stored"
)
NUL_KEY = "this key contains a NUL character (\\u0000), which is not text"


def json_error(response: Any, status: int) -> dict:
    """The contract's JSON error body with ``status``, holding no NUL itself; returns it."""
    assert response.status_code == status, response.content[:500]
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = json.loads(response.content.decode("utf-8"))
    assert body["errors"] and all(set(e) == {"path", "message"} for e in body["errors"])
    assert "\x00" not in json.dumps(body, ensure_ascii=False)
    return body


def page_text(response: Any) -> str:
    return html.unescape(response.content.decode("utf-8"))


# --------------------------------------------------------------------------- JSON bodies


def test_a_nul_in_a_new_tables_name_is_a_400_naming_name_and_nothing_is_written(floor, client_for):
    response = client_for(floor).post(
        "/api/v1/tables/", {**NEW_TABLE, "name": "a\u0000b"}, format="json"
    )
    body = json_error(response, 400)
    assert body["errors"] == [{"path": "name", "message": f"name: {NUL_STRING}"}]
    assert not Table.objects.exists()
    assert not AuditEntry.objects.filter(action="table_create").exists()


def test_a_nul_in_the_dealer_of_a_table_is_a_400_naming_dealer_not_a_500(
    open_table, floor, dealer, client_for
):
    url = f"/api/v1/tables/{open_table.pk}/dealer/"
    body = json_error(client_for(floor).post(url, {"dealer": "a\u0000b"}, format="json"), 400)
    assert body["errors"] == [{"path": "dealer", "message": f"dealer: {NUL_STRING}"}]
    open_table.refresh_from_db()
    assert open_table.dealer == dealer


def test_a_nul_deep_in_a_body_is_named_by_its_path(dealer, client_for):
    data = record()
    data["players"][1]["cards"][2] = "6\u0000d"
    body = json_error(client_for(dealer).post(EVALUATE, data, format="json"), 400)
    assert body["errors"] == [
        {"path": "players[1].cards[2]", "message": f"players[1].cards[2]: {NUL_STRING}"}
    ]


def test_a_nul_in_a_key_is_a_400_showing_the_key_escaped(dealer, client_for):
    data = {**record(), "designated_player": {"seat": 1, "ba\u0000nk": 50_000}}
    body = json_error(client_for(dealer).post(EVALUATE, data, format="json"), 400)
    path = "designated_player.ba\\u0000nk"
    assert body["errors"] == [{"path": path, "message": f"{path}: {NUL_KEY}"}]


def test_a_nul_in_the_login_username_is_a_400_naming_username(floor):
    response = APIClient().post(
        "/api/v1/auth/token/", {"username": "floor\u0000", "password": "x"}, format="json"
    )
    body = json_error(response, 400)
    assert body["errors"] == [{"path": "username", "message": f"username: {NUL_STRING}"}]


# --------------------------------------------------------------------------- query strings


@pytest.mark.parametrize(
    ("url", "parameter"),
    [
        ("/api/v1/audit/entries/", "action"),
        ("/api/v1/audit/entries/", "hand"),
        ("/api/v1/settlements/", "table"),
        ("/api/v1/approvals/", "kind"),
        ("/api/v1/tables/{table}/changes/", "status"),
        ("/api/v1/tables/", "offset"),
    ],
)
def test_a_nul_in_an_api_query_parameter_is_a_400_naming_it(
    url, parameter, open_table, compliance, client_for
):
    url = url.format(table=open_table.pk)
    response = client_for(compliance).get(f"{url}?{parameter}=a%00b")
    body = json_error(response, 400)
    message = (
        f"{parameter}: this query parameter contains a NUL character (\\u0000), which is not text"
    )
    assert body["errors"] == [{"path": parameter, "message": message}]


def test_a_nul_in_a_query_parameters_name_is_a_400_showing_the_name_escaped(compliance, client_for):
    response = client_for(compliance).get("/api/v1/audit/entries/?act%00ion=x")
    body = json_error(response, 400)
    message = (
        "act\\u0000ion: this query parameter's name contains a NUL character (\\u0000), "
        "which is not text"
    )
    assert body["errors"] == [{"path": "act\\u0000ion", "message": message}]


# --------------------------------------------------------------------------- Authorization


@pytest.mark.parametrize(
    "header",
    [
        "Token \u00e9\u00e9\u00e9",  # UTF-8 bytes as a WSGI server hands them over (latin-1)
        "Token \xc3\xa9\xc3\xa9",
        "Token \xff\xfe\xfd",  # bytes that are not UTF-8 at all
        "Token \u20ac\u20ac",  # text no header can carry: only a test client sends it
        "Token abc\x00def",
        "Token abc\x7f",
    ],
)
def test_a_token_that_is_not_printable_ascii_is_a_401_not_a_500(header):
    response = APIClient().get("/api/v1/auth/me/", HTTP_AUTHORIZATION=header)
    body = json_error(response, 401)
    assert body["errors"] == [{"path": "", "message": NOT_A_TOKEN}]
    assert response["WWW-Authenticate"] == "Token"


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ("Token", "Invalid token header. No credentials provided."),
        ("Token   ", "Invalid token header. No credentials provided."),
        ("Token abc def", "Invalid token header. Token string should not contain spaces."),
        ("Token a b c", "Invalid token header. Token string should not contain spaces."),
        ("Token \u00e9 \u00e9", "Invalid token header. Token string should not contain spaces."),
    ],
)
def test_a_token_header_without_exactly_one_token_is_a_401(header, message):
    response = APIClient().get("/api/v1/auth/me/", HTTP_AUTHORIZATION=header)
    assert json_error(response, 401)["errors"] == [{"path": "", "message": message}]


def test_a_good_token_still_works_beside_the_refused_ones(floor, client_for):
    assert client_for(floor).get("/api/v1/auth/me/").json()["username"] == "floor"


# --------------------------------------------------------------------------- Idempotency-Key


@pytest.mark.parametrize(
    ("key", "what"),
    [
        ("tap\x001", "a NUL character (\\u0000) at position 4"),
        ("tap\t1", "a control character (0x09) at position 4"),
        ("\xc3\xa9t\xc3\xa9", "the byte 0xC3 (beyond ASCII) at position 1"),  # "été" as UTF-8
        ("k-\u20ac", "the character U+20AC (beyond ASCII) at position 3"),
    ],
)
def test_an_idempotency_key_that_is_not_printable_ascii_is_a_400_and_nothing_is_written(
    key, what, floor, client_for
):
    response = client_for(floor).post(
        "/api/v1/tables/", NEW_TABLE, format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    body = json_error(response, 400)
    message = f"Idempotency-Key must be printable ASCII (such as a UUID); it holds {what}"
    assert body["errors"] == [{"path": "headers.Idempotency-Key", "message": message}]
    assert not Table.objects.exists()
    assert not IdempotencyRecord.objects.exists()


def test_a_printable_ascii_idempotency_key_still_replays(floor, client_for):
    client = client_for(floor)
    key = "0f1e2d3c-tap 1~"
    first = client.post("/api/v1/tables/", NEW_TABLE, format="json", HTTP_IDEMPOTENCY_KEY=key)
    again = client.post("/api/v1/tables/", NEW_TABLE, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert (first.status_code, again.status_code) == (201, 201)
    assert again["Idempotent-Replay"] == "true"
    assert Table.objects.count() == 1


# --------------------------------------------------------------------------- paths


@pytest.mark.parametrize(
    ("path", "shown"),
    [("a%00b", "'a\\x00b'"), ("a%C3%A9", "'aé'"), ("%FF", "'%FF'")],
)
def test_an_odd_game_code_in_the_path_is_a_404_naming_it(path, shown, dealer, client_for):
    response = client_for(dealer).post(f"/api/v1/games/{path}/evaluate/", {}, format="json")
    body = json_error(response, 404)
    assert body["detail"].startswith(f"unknown game {shown}; games: ")


# --------------------------------------------------------------------------- pages


def test_a_nul_on_the_login_page_is_a_400_page_naming_the_field(floor):
    response = Client().post("/accounts/login/", {"username": "fl\x00oor", "password": "x"})
    assert response.status_code == 400
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert (
        "The form field username contains a NUL character (\\u0000), which is not text; "
        "nothing was done." in page_text(response)
    )
    assert "_auth_user_id" not in Client().session


@pytest.fixture
def floor_client(floor: Any) -> Client:
    client = Client()
    client.force_login(floor)
    return client


def test_a_nul_in_a_void_reason_on_the_floor_desk_is_a_400_page_and_nothing_is_asked(
    dp_table, floor_client, dealer, client_for
):
    hand = client_for(dealer).post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    response = floor_client.post(
        reverse("floor-hand-void", args=[hand["id"]]), {"reason": "mis\x00deal"}
    )
    assert response.status_code == 400
    assert "The form field reason contains a NUL character (\\u0000)" in page_text(response)
    assert not Approval.objects.exists()
    assert Hand.objects.get(pk=hand["id"]).status == "open"


def test_a_nul_in_a_decisions_note_on_the_floor_desk_is_a_400_page_and_nothing_is_decided(
    dp_table, floor_client, dealer
):
    change = services.change_request(user=dealer, table_id=dp_table.pk, changes={"ante_max": 500})
    response = floor_client.post(
        reverse("floor-approval-approve", args=[change.approval.pk]),
        {"note": "ok\x00"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 400
    assert "The form field note contains a NUL character (\\u0000)" in page_text(response)
    change.approval.refresh_from_db()
    assert change.approval.status == "pending"


def test_a_nul_in_the_new_table_form_is_a_400_page_and_no_table_is_made(floor_client):
    response = floor_client.post(
        reverse("floor-table-new"),
        {"game": "high-card-flush", "name": "HCF\x00", "seat_count": "7", "smallest_chip": "1"},
    )
    assert response.status_code == 400
    assert "The form field name contains a NUL character (\\u0000)" in page_text(response)
    assert not Table.objects.exists()


@pytest.mark.parametrize(
    ("name", "query", "error"),
    [
        ("compliance-audit", {"actor": "an\x00a"}, "Null characters are not allowed."),
        ("compliance-audit", {"action": "hand\x00settle"}, "no audit entry has that action"),
        ("compliance-settlements", {"dealer": "deal\x00er"}, "Null characters are not allowed."),
        ("compliance-settlements", {"game": "pon\x00toon"}, "there is no such game"),
    ],
)
def test_a_nul_in_a_compliance_filter_is_the_400_filter_page_with_the_fields_error(
    name, query, error, client, compliance
):
    client.force_login(compliance)
    response = client.get(reverse(name), query)
    assert response.status_code == 400
    field = next(iter(query))
    assert error in response.context["form"].errors[field]
    assert error in page_text(response)


@pytest.mark.parametrize(
    "path",
    [
        "/desk/compliance/reports/table/",
        "/desk/compliance/reports/table.csv",
        "/desk/compliance/hold/",
    ],
)
@pytest.mark.parametrize("table", ["²", "1" * 40])
def test_a_table_that_is_not_a_number_is_a_400_page_on_the_reports_and_hold(
    client, compliance, path, table
):
    """A superscript digit passes str.isdigit() but is no number int() reads; forty digits
    are no table id."""
    client.force_login(compliance)
    response = client.get(path, {"table": table})
    assert response.status_code == 400
    assert "table must be a table" in response.content.decode()
