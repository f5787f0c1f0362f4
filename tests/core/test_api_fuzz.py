"""Schemathesis over the whole OpenAPI document, as a floor manager and as a dealer.

Every operation gets its schema's examples, 25 generated requests valid and invalid (seeded,
so a run is repeatable; Hypothesis shrinks a failure to the smallest request that shows it)
and the coverage phase's valid boundary requests (every bound, enum value and optional part
of its parameters and body; the phase's invalid variants of every keyword are left to the
25 generated ones: with the games' option schemas typed all the way down they came to over
a thousand requests for each of the five operations that take them), each sent once with
each user's token, against a floor with tables of every game, open and settled hands, a pending change
and an audit check. Path ids are drawn half the time from the objects that exist, so the
requests reach the views' real work and not only their 404s. Every answer must be no
server error, and its status, content type and body must be what the document declares.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, settings
from knox.models import AuthToken
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.generation import GenerationMode

from casino.wsgi import application
from payouts.services import audit_check_request
from tables import services
from tests.conftest import draw_seats, record, seat_and_open

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
# Objects the path ids are drawn from, per the path's first segment (filled by ``floor``).
EXISTING: dict[str, list[int]] = {}

schema = schemathesis.openapi.from_dict(SchemaGenerator().get_schema(request=None, public=True))
schema.app = application
schema.config.phases.coverage.generation.modes = [GenerationMode.POSITIVE]


@schema.hook
def map_path_parameters(context: Any, path_parameters: dict[str, Any]) -> dict[str, Any]:
    """Half of the generated ids (the even ones) become ids of objects that exist."""
    if path_parameters is None or context.operation is None:
        return path_parameters
    kind = context.operation.path.split("/")[3]  # /api/v1/<kind>/...
    known = EXISTING.get(kind)
    mapped = dict(path_parameters)
    value = mapped.get("id")
    if known and isinstance(value, int) and value % 2 == 0:
        mapped["id"] = known[(value // 2) % len(known)]
    number = mapped.get("number")
    if isinstance(number, int) and number % 2 == 0:
        mapped["number"] = 1 + (number // 2) % 7
    return mapped


@pytest.fixture(autouse=True)
def _requests_keep_the_test_connection():
    """As Django's test client does: a request must not close the test's connection."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def floor_with_history(dp_table, draw_table, floor, floor2, dealer, compliance, settings):
    """Tables of every game dealt by ``dealer``; settled and open hands; a pending change."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"login_user": "10000/min", "login_ip": "10000/min"},
    }
    hand = services.hand_open(user=dealer, table_id=dp_table.pk)
    settled = services.hand_settle(user=dealer, hand_id=hand.pk, record=record())
    services.game_act(
        user=dealer, table_id=dp_table.pk, action={"type": "accept", "seat": 2, "bank": 50_000}
    )
    hcf_open = services.hand_open(user=dealer, table_id=dp_table.pk)
    pontoon = services.table_create(
        user=floor,
        name="PON-F",
        game="pontoon",
        seat_count=6,
        dealer=dealer,
        limits={"stake_min": 100, "stake_max": 2000, "kitty_min": None, "kitty_max": None},
    )
    seat_and_open(floor, pontoon, {1: "P1", 2: "P2", 3: "P3"})
    draw_hand = services.hand_open(
        user=dealer, table_id=draw_table.pk, body={"seats": draw_seats([1, 2, 3])}
    )
    services.game_act(user=dealer, table_id=pontoon.pk, action={"type": "choose_banker", "seat": 1})
    pontoon_hand = services.hand_open(user=dealer, table_id=pontoon.pk)
    change = services.change_request(
        user=floor2, table_id=dp_table.pk, changes={"ante_max": 20_000}, reason="busy night"
    )
    check = audit_check_request(user=compliance)
    EXISTING.update(
        tables=[dp_table.pk, draw_table.pk, pontoon.pk],
        hands=[hand.pk, hcf_open.pk, draw_hand.pk, pontoon_hand.pk],
        changes=[change.pk],
        settlements=[settled.pk],
        audit=[check.pk],
    )
    yield
    EXISTING.clear()


@pytest.fixture
def tokens(floor_with_history, floor, dealer):
    return [AuthToken.objects.create(user=user)[1] for user in (floor, dealer)]


@schema.parametrize()
@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_documented(case, tokens):
    for token in tokens:
        case.call_and_validate(headers={"Authorization": f"Token {token}"}, checks=CHECKS)
