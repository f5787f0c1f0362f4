"""Bounded input everywhere, as a careless (or hostile) client meets it through the API.

Every request below used to end in a 500, an HTML page or a megabytes-long answer; each now
gets the contract's JSON error body (``{"detail", "errors": [{"path", "message"}]}``) with
the right status, and nothing is stored.
"""

from __future__ import annotations

import io
import json
import logging

import pytest
from django.core.exceptions import RequestDataTooBig
from rest_framework.test import APIClient

from casino.core.errors import MAX_PROBLEMS_SHOWN
from casino.core.parsers import MAX_DEPTH, BoundedJSONParser
from casino.rules.options import MAX_AMOUNT
from payouts.models import AuditEntry, Settlement
from tables import services
from tables.models import Hand, TableEvent
from tests.conftest import draw_seats, record

pytestmark = pytest.mark.django_db

EVALUATE = "/api/v1/games/high-card-flush/evaluate/"
BODY_LIMIT = 262_144


def assert_json_error(response, status: int) -> dict:
    """The response is the contract's JSON error body with ``status``; returns it."""
    assert response.status_code == status, response.content[:500]
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = json.loads(response.content.decode("utf-8"))
    assert isinstance(body["detail"], str) and body["detail"]
    # Each problem has its path and message; one written as a message id also its code and
    # params (ErrorProblemSerializer), nothing else.
    assert body["errors"] and all(
        {"path", "message"} <= set(e) <= {"path", "message", "code", "params"}
        for e in body["errors"]
    )
    return body


def post_raw(client: APIClient, url: str, text: str):
    """POST ``text`` as it is, as a JSON body (for bodies the test client would not encode)."""
    return client.post(url, data=text.encode("utf-8"), content_type="application/json")


def paths(body: dict) -> set[str]:
    return {error["path"] for error in body["errors"]}


# --------------------------------------------------------------------------- amounts


def dealt_seats(client, table, stack: int) -> list[dict]:
    """The opening body's seats for the next 7-A hand, as the game view says who is dealt in."""
    view = client.get(f"/api/v1/tables/{table.pk}/game/").json()
    return draw_seats(view["state"]["next_hand"]["dealt_in"], stack)


def test_a_7a_hand_with_a_stack_of_10_to_the_30_is_refused_and_the_table_plays_on(
    draw_table, dealer, client_for
):
    client = client_for(dealer)
    url = f"/api/v1/tables/{draw_table.pk}/hands/"
    seats = dealt_seats(client, draw_table, 10_000)
    seats[0]["stack"] = 10**30
    body = assert_json_error(client.post(url, {"seats": seats}, format="json"), 400)
    assert body["errors"] == [
        {
            "path": "seats[0].stack",
            "message": "seats[0].stack: 1000000000000000000000000000000 is above the largest "
            f"number the API accepts ({MAX_AMOUNT})",
        }
    ]
    assert not Hand.objects.filter(table=draw_table).exists()
    assert not AuditEntry.objects.filter(action="hand_open").exists()

    opened = client.post(url, {"seats": dealt_seats(client, draw_table, 10_000)}, format="json")
    assert opened.status_code == 201, opened.json()
    hand = opened.json()
    to_act = hand["state"]["to_act"]
    while to_act is not None:  # everyone folds to the last seat
        response = client.post(
            f"/api/v1/hands/{hand['id']}/actions/", {"seat": to_act, "type": "fold"}, format="json"
        )
        assert response.status_code == 200, response.json()
        to_act = response.json()["to_act"]
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json")
    assert settled.status_code == 201, settled.json()
    assert Settlement.objects.filter(hand_id=hand["id"]).exists()


@pytest.mark.parametrize(
    ("action", "path"),
    [
        ({"type": "blind_choice", "seat": 10**30, "choice": "post_all"}, "seat"),
        ({"type": "blind_choice", "seat": 2**63, "choice": "post_all"}, "seat"),
        ({"type": "blind_choice", "seat": [2], "choice": "post_all"}, "seat"),
        ({"type": "blind_choice", "seat": 2, "choice": {"post_all": True}}, "choice"),
        ({"type": "x" * 10_000}, "type"),
    ],
)
def test_a_between_hand_action_out_of_bounds_is_a_400_and_nothing_is_stored(
    action, path, draw_table, dealer, client_for
):
    client = client_for(dealer)
    url = f"/api/v1/tables/{draw_table.pk}/game/actions/"
    response = client.post(url, action, format="json")
    body = assert_json_error(response, 400)
    assert paths(body) == {path}
    assert len(response.content) < 2_000
    assert not TableEvent.objects.filter(kind="blind_choice").exists()
    view = client.get(f"/api/v1/tables/{draw_table.pk}/game/").json()
    assert view["state"]["choices"] == {}


def test_a_hcf_settle_with_a_flush_bonus_of_2_to_the_63_is_a_400_naming_the_field(
    dp_table, dealer, client_for
):
    client = client_for(dealer)
    hand = client.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    url = f"/api/v1/hands/{hand['id']}/settle/"
    bad = record()
    bad["players"][0]["flush_bonus"] = 2**63
    body = assert_json_error(client.post(url, bad, format="json"), 400)
    assert paths(body) == {"players[0].flush_bonus"}
    assert str(MAX_AMOUNT) in body["detail"]
    assert Hand.objects.get(pk=hand["id"]).status == "open"
    assert client.post(url, record(), format="json").status_code == 201


def test_a_hcf_evaluate_with_a_flush_bonus_of_2_to_the_63_is_a_400_naming_the_field(
    dealer, client_for
):
    bad = record()
    bad["players"][0]["flush_bonus"] = 2**63
    body = assert_json_error(client_for(dealer).post(EVALUATE, bad, format="json"), 400)
    assert body["errors"][0]["path"] == "players[0].flush_bonus"


def test_an_amount_just_above_the_maximum_is_refused_by_the_engine_too(dealer, client_for):
    bad = record()
    bad["designated_player"]["bank"] = MAX_AMOUNT + 1
    body = assert_json_error(client_for(dealer).post(EVALUATE, bad, format="json"), 400)
    assert body["errors"][0]["path"] == "designated_player.bank"


def test_a_table_limit_above_the_maximum_is_refused(floor, client_for):
    limits = {"ante_min": 100, "ante_max": 10**15, "bank_min": 5_000, "bank_max": 1_000_000}
    response = client_for(floor).post(
        "/api/v1/tables/",
        {"name": "HCF-X", "game": "high-card-flush", "seat_count": 7, "limits": limits},
        format="json",
    )
    body = assert_json_error(response, 400)
    assert str(MAX_AMOUNT) in body["detail"]


def test_a_smallest_chip_too_big_for_its_column_is_a_400_not_a_500(floor, client_for):
    limits = {"ante_min": 2**35, "ante_max": 2**35, "bank_min": 2**35, "bank_max": 2**35}
    client = client_for(floor)
    client.raise_request_exception = False
    response = client.post(
        "/api/v1/tables/",
        {"name": "HCF-C", "game": "high-card-flush", "limits": limits, "smallest_chip": 2**35},
        format="json",
    )
    body = assert_json_error(response, 400)
    assert body["errors"][0]["path"].endswith("smallest_chip")


# --------------------------------------------------------------------------- pages and filters


@pytest.fixture
def many_entries(floor):
    """More than 200 audit entries (seat changes at a closed table)."""
    table = services.table_create(
        user=floor,
        name="busy",
        game="high-card-flush",
        seat_count=7,
        limits={"ante_min": 100, "ante_max": 10_000, "bank_min": 5_000, "bank_max": 1_000_000},
    )
    for turn in range(105):
        for number in (1, 2):
            services.seat_update(
                user=floor, table_id=table.pk, number=number, player="Ana", sitting_out=turn % 2
            )
    assert AuditEntry.objects.count() > 210
    return table


def test_a_limit_of_2_to_the_63_gets_a_page_of_at_most_200(many_entries, compliance, client_for):
    client = client_for(compliance)
    for url in ("/api/v1/audit/entries/", "/api/v1/settlements/"):
        response = client.get(url, {"limit": str(2**63)})
        assert response.status_code == 200, response.content[:300]
        assert len(response.json()["results"]) <= 200
    page = client.get("/api/v1/audit/entries/", {"limit": str(2**63)}).json()
    assert len(page["results"]) == 200 and page["count"] > 210 and page["next"]
    assert len(client.get("/api/v1/audit/entries/").json()["results"]) == 50  # the default


@pytest.mark.parametrize("url", ["/api/v1/audit/entries/", "/api/v1/settlements/"])
def test_a_huge_offset_gets_an_empty_page(url, open_table, compliance, client_for):
    response = client_for(compliance).get(url, {"offset": "9" * 30})
    assert response.status_code == 200, response.content[:300]
    assert response.json()["results"] == []


@pytest.mark.parametrize("url", ["/api/v1/audit/entries/", "/api/v1/settlements/"])
@pytest.mark.parametrize("value", ["99999999999999999999", "abc", "-1", "0", "1.5"])
def test_a_bad_table_filter_is_a_400_naming_table(url, value, compliance, client_for):
    body = assert_json_error(client_for(compliance).get(url, {"table": value}), 400)
    assert paths(body) == {"table"}
    assert body["detail"].startswith("table: must be a table id")


@pytest.mark.parametrize("value", ["99999999999999999999", "x"])
def test_a_bad_hand_filter_is_a_400_naming_hand(value, compliance, client_for):
    response = client_for(compliance).get("/api/v1/audit/entries/", {"hand": value})
    assert paths(assert_json_error(response, 400)) == {"hand"}


def test_a_valid_filter_still_filters(open_table, compliance, client_for):
    client = client_for(compliance)
    mine = client.get("/api/v1/audit/entries/", {"table": open_table.pk}).json()
    assert mine["count"] and all(e["table"] == open_table.pk for e in mine["results"])
    assert client.get("/api/v1/audit/entries/", {"table": open_table.pk + 1}).json()["count"] == 0
    too_long = client.get("/api/v1/audit/entries/", {"action": "x" * 51})
    assert paths(assert_json_error(too_long, 400)) == {"action"}


# --------------------------------------------------------------------------- the body itself


def nested(depth: int) -> str:
    return '{"players": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"


def test_1000_deep_json_is_a_400_for_a_signed_in_user(dealer, client_for):
    body = assert_json_error(post_raw(client_for(dealer), EVALUATE, nested(1000)), 400)
    assert f"more than {MAX_DEPTH} levels" in body["detail"]


def test_1000_deep_json_is_a_400_for_an_anonymous_login(db):
    response = post_raw(APIClient(), "/api/v1/auth/token/", nested(1000))
    body = assert_json_error(response, 400)
    assert f"more than {MAX_DEPTH} levels" in body["detail"]


def test_json_deep_enough_to_exhaust_the_stack_is_a_400(dealer, client_for):
    assert_json_error(post_raw(client_for(dealer), EVALUATE, "[" * 100_000), 400)
    assert_json_error(post_raw(client_for(dealer), EVALUATE, nested(100_000)), 400)


def test_twenty_levels_are_accepted(dealer, client_for):
    response = post_raw(client_for(dealer), EVALUATE, nested(MAX_DEPTH))
    assert response.status_code == 400  # not a hand record, but the engine's answer
    assert "levels" not in response.json()["detail"]
    too_deep = assert_json_error(post_raw(client_for(dealer), EVALUATE, nested(MAX_DEPTH + 1)), 400)
    assert "levels" in too_deep["detail"]


def test_a_lone_surrogate_in_a_card_is_a_400_naming_its_path(dealer, client_for):
    data = record()
    data["players"][0]["cards"][3] = "\ud800"
    body = assert_json_error(post_raw(client_for(dealer), EVALUATE, json.dumps(data)), 400)
    assert paths(body) == {"players[0].cards[3]"}
    assert "lone surrogate" in body["detail"]


def test_a_lone_surrogate_in_a_key_is_a_400_that_is_still_valid_utf8(dealer, client_for):
    data = {**record(), "\udfff": 1}
    body = assert_json_error(post_raw(client_for(dealer), EVALUATE, json.dumps(data)), 400)
    assert paths(body) == {"\\udfff"}


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_non_finite_numbers_are_a_400(number, dealer, client_for):
    text = json.dumps(record()).replace('"ante": 1000', f'"ante": {number}', 1)
    body = assert_json_error(post_raw(client_for(dealer), EVALUATE, text), 400)
    assert "JSON parse error" in body["detail"]


def test_a_2_mb_body_is_a_400_naming_the_limit(dealer, client_for):
    text = json.dumps({"players": ["As"] * 350_000})
    assert len(text) > 2_000_000
    body = assert_json_error(post_raw(client_for(dealer), EVALUATE, text), 400)
    assert str(BODY_LIMIT) in body["detail"]
    anonymous = assert_json_error(post_raw(APIClient(), "/api/v1/auth/token/", text), 400)
    assert str(BODY_LIMIT) in anonymous["detail"]


class _CountingStream(io.BytesIO):
    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.bytes_read = 0

    def read(self, size: int | None = -1) -> bytes:
        chunk = super().read(size)
        self.bytes_read += len(chunk)
        return chunk


def test_the_parser_stops_reading_past_the_limit_without_a_content_length():
    stream = _CountingStream(b"[" + b"1," * 1_000_000 + b"1]")
    with pytest.raises(Exception, match=str(BODY_LIMIT)):
        BoundedJSONParser().parse(stream, "application/json", {})
    assert stream.bytes_read <= BODY_LIMIT + 1


def test_a_200_kb_body_of_duplicate_cards_gets_a_short_answer(dealer, client_for):
    data = record()
    data["players"] = [
        {"seat": 2 + n % 5, "cards": ["As"] * 7, "ante": 1000, "raise": 1000} for n in range(2_400)
    ]
    text = json.dumps(data)
    assert 150_000 < len(text) < BODY_LIMIT
    response = post_raw(client_for(dealer), EVALUATE, text)
    body = assert_json_error(response, 400)
    assert len(response.content) < 20_000
    assert len(body["errors"]) == MAX_PROBLEMS_SHOWN
    assert body["errors_not_shown"] > 1000
    assert body["detail"].endswith(f"... and {body['errors_not_shown']} more problems")


# --------------------------------------------------------------------------- Django's own errors


@pytest.mark.parametrize("debug", [False, True])
def test_an_unknown_api_route_is_a_json_404(debug, settings, dealer, client_for):
    settings.DEBUG = debug
    client = client_for(dealer)
    body = assert_json_error(client.get("/api/v1/nope/"), 404)
    assert "/api/v1/nope/" in body["detail"]
    assert_json_error(client.post("/api/v1/nope/", {"a": 1}, format="json"), 404)
    assert_json_error(APIClient().get("/api/nothing"), 404)


def test_a_missing_slash_gets_a_hint(dealer, client_for):
    body = assert_json_error(client_for(dealer).get("/api/v1/tables"), 404)
    assert "did you mean /api/v1/tables/" in body["detail"]


def test_pages_outside_the_api_keep_djangos_html(db):
    response = APIClient().get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_a_bad_host_is_a_json_400(db):
    response = APIClient().get("/api/v1/games/", HTTP_HOST="evil.example")
    assert_json_error(response, 400)


@pytest.mark.parametrize("debug", [False, True])
def test_an_uncaught_exception_is_a_logged_json_500(
    debug, settings, monkeypatch, caplog, compliance, client_for
):
    settings.DEBUG = debug

    def broken(**kwargs):
        raise RuntimeError("the selector broke")

    monkeypatch.setattr("payouts.selectors.audit_entry_list", broken)
    client = client_for(compliance)
    client.raise_request_exception = False
    with caplog.at_level(logging.ERROR, logger="casino.core.middleware"):
        response = client.get("/api/v1/audit/entries/")
    body = assert_json_error(response, 500)
    assert body["detail"] == "internal error; it has been logged"
    assert "the selector broke" not in response.content.decode()
    logged = [r for r in caplog.records if r.name == "casino.core.middleware"]
    assert logged and logged[0].exc_info and "the selector broke" in str(logged[0].exc_info[1])


def test_an_error_asked_for_as_html_is_still_json_with_its_own_detail(make_user, client_for):
    response = client_for(make_user(None)).get("/api/v1/tables/", HTTP_ACCEPT="text/html")
    body = assert_json_error(response, 403)
    assert "casino role" in body["detail"]


def test_djangos_request_data_too_big_is_a_json_400_naming_the_limit(
    monkeypatch, compliance, client_for
):
    def too_big(**kwargs):
        raise RequestDataTooBig("Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.")

    monkeypatch.setattr("payouts.selectors.audit_entry_list", too_big)
    body = assert_json_error(client_for(compliance).get("/api/v1/audit/entries/"), 400)
    assert str(BODY_LIMIT) in body["detail"]
