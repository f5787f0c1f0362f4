"""What each write costs the database, in every game: a dealer's request is one transaction
with no savepoint inside it, a High Card Flush settle makes at most 12 queries (2 of them
authentication), and accept, open and settle cost the same at a table's 3rd hand and its 30th.

Queries are counted per request through the API as a tablet sends it. Inside a test, the
request's transaction shows as one SAVEPOINT and its RELEASE (the test's own transaction is
around it; on a server they are BEGIN and COMMIT): those two are not counted, and a second
savepoint would mean a nested one.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from payouts.models import Settlement
from tests.conftest import record
from tests.tables.test_draw_live import test_a_live_hand_from_blinds_to_settlement as draw_hand
from tests.tables.test_paiute_live import paiute_table  # noqa: F401  (fixtures)
from tests.tables.test_paiute_live import test_a_call_the_final_turns_and_the_pot as paiute_hand
from tests.tables.test_palace_live import palace_table  # noqa: F401
from tests.tables.test_palace_live import test_battles_to_the_last_player_standing as palace_hand
from tests.tables.test_pontoon_live import pontoon_table  # noqa: F401
from tests.tables.test_pontoon_live import (
    test_a_player_pontoon_is_paid_double_and_takes_the_bank as pontoon_hand,
)
from tests.tables.test_queries import deal

pytestmark = pytest.mark.django_db

HCF_SETTLE_MOST = 12
AUTHENTICATION = 2  # the token with its user, and the user's groups (roles)


def kind(path: str) -> str:
    """Which write a path is (the between-hand ``/game/actions/`` before a hand's actions)."""
    for end, name in (
        ("/game/actions/", "accept"),
        ("/settle/", "settle"),
        ("/actions/", "action"),
        ("/hands/", "open"),
    ):
        if path.endswith(end):
            return name
    return "other"


class Counting:
    """An API client that counts each POST's queries (less the test's savepoint pair)."""

    def __init__(self, client: Any, log: dict[str, list[int]]) -> None:
        self.client, self.log = client, log

    def post(self, path: str, *args: Any, **kwargs: Any) -> Any:
        with CaptureQueriesContext(connection) as captured:
            response = self.client.post(path, *args, **kwargs)
        sqls = [q["sql"] for q in captured]
        savepoints = [s for s in sqls if s.startswith("SAVEPOINT")]
        if response.status_code < 300 and response.get("Idempotent-Replay") != "true":
            assert len(savepoints) == 1, (path, savepoints)  # the request's, none nested
            self.log[kind(path)].append(len(sqls) - 2)  # less its SAVEPOINT and RELEASE
        return response

    def __getattr__(self, name: str) -> Any:
        return getattr(self.client, name)


@pytest.fixture
def counted(client_for):
    log: dict[str, list[int]] = defaultdict(list)
    return log, lambda user: Counting(client_for(user), log)


def hcf_routine(client, table) -> None:
    """One hand as the tablet sends it: open with the offer accepted, then settle."""
    table.refresh_from_db()
    offered = table.game_state["offer"]
    hand = client.post(
        f"/api/v1/tables/{table.pk}/hands/",
        {"accept": {"seat": offered, "bank": 50_000}},
        format="json",
    )
    assert hand.status_code == 201, hand.json()
    body = record()
    body["designated_player"]["seat"] = offered
    players = [seat for seat in (1, 2, 3, 4) if seat != offered][:2]
    for player, seat in zip(body["players"], players, strict=True):
        player["seat"] = seat
    settled = client.post(f"/api/v1/hands/{hand.json()['id']}/settle/", body, format="json")
    assert settled.status_code == 201, settled.json()


def test_a_high_card_flush_settle_makes_at_most_12_queries(open_table, dealer, counted):
    log, client_for = counted
    hcf_routine(client_for(dealer), open_table)
    [settle] = log["settle"]
    assert settle <= HCF_SETTLE_MOST, settle
    assert log["open"] == [log["open"][0]]


def test_accept_open_and_settle_do_not_grow_with_the_hands_dealt(open_table, dealer, counted):
    log, client_for = counted
    client = client_for(dealer)
    deal(open_table, dealer, 2)
    hcf_routine(client, open_table)
    open_table.refresh_from_db()
    accepted = client.post(
        f"/api/v1/tables/{open_table.pk}/game/actions/",
        {"type": "decline", "seat": open_table.game_state["offer"]},
        format="json",
    )
    assert accepted.status_code == 200, accepted.json()
    early = {name: list(counts) for name, counts in log.items()}
    log.clear()
    deal(open_table, dealer, 27)
    hcf_routine(client, open_table)
    open_table.refresh_from_db()
    client.post(
        f"/api/v1/tables/{open_table.pk}/game/actions/",
        {"type": "decline", "seat": open_table.game_state["offer"]},
        format="json",
    )
    assert dict(log) == early


@pytest.mark.parametrize(
    ("scenario", "table"),
    [
        (draw_hand, "draw_table"),
        (pontoon_hand, "pontoon_table"),
        (paiute_hand, "paiute_table"),
        (palace_hand, "palace_table"),
    ],
    ids=["five-card-draw-7a", "pontoon", "paiute", "palace-poker"],
)
def test_every_games_actions_and_settle_are_lean(scenario, table, dealer, counted, request):
    """Each game's live hand, counted: an action costs what the engine needs (the hand and
    its table locked in one query, the actions, the action and its audit entry stored, the
    chain's head moved with the table's row), and a settle stays near High Card Flush's."""
    log, client_for = counted
    scenario(request.getfixturevalue(table), dealer, client_for)
    assert log["action"], "the hand was played one action at a time"
    assert max(log["action"]) <= AUTHENTICATION + 5, log["action"]
    # The same at every action (the first reads no earlier actions: there are none).
    assert len(set(log["action"][1:])) == 1, log["action"]
    assert max(log["settle"]) <= HCF_SETTLE_MOST, log["settle"]


def test_an_idempotency_key_costs_a_settle_one_query(open_table, dealer, counted):
    """The key stored with its answer, in one statement; a retry with the key answers from
    the stored answer without settling again."""
    log, client_for = counted
    client = client_for(dealer)
    hcf_routine(client, open_table)
    [plain] = log["settle"]
    log.clear()
    open_table.refresh_from_db()
    offered = open_table.game_state["offer"]
    hand = client.post(
        f"/api/v1/tables/{open_table.pk}/hands/",
        {"accept": {"seat": offered, "bank": 50_000}},
        format="json",
    ).json()
    body = record()
    body["designated_player"]["seat"] = offered
    players = [seat for seat in (1, 2, 3, 4) if seat != offered][:2]
    for player, seat in zip(body["players"], players, strict=True):
        player["seat"] = seat
    url = f"/api/v1/hands/{hand['id']}/settle/"
    first = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="settle-1")
    again = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="settle-1")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replay"] == "true" and again.json() == first.json()
    assert log["settle"] == [plain + 1], (plain, log["settle"])
    assert Settlement.objects.filter(hand_id=hand["id"]).count() == 1  # the retry stored nothing
