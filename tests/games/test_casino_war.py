"""A sixth game, house-banked, registered for the whole test run (``tests/conftest.py``) and
played end to end through the real API: the proof that a game is one package and nothing else.

Casino War lives in ``tests/games/casino_war/`` (its rules in ``RULES.md`` there). Nothing
outside that package mentions it, and the package imports only the rules package's shared
pieces; yet the platform creates its tables, opens, plays, settles (with the house's side)
and voids its hands, documents its bodies in the OpenAPI document and replays its hands in
the audit check.
"""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules import presentation
from casino.rules.cards import standard_deck
from casino.rules.contract import History, registry
from payouts.models import SeatSettlement
from tests.games.casino_war.game import GAME

PACKAGE = Path(__file__).with_name("casino_war")
ROOT = Path(__file__).resolve().parents[2]
SHARED = {
    "casino.rules",
    "casino.rules.cards",
    "casino.rules.contract",
    "casino.rules.errors",
    "casino.rules.options",
    "casino.rules.presentation",
    "casino.rules.schemas",
    "casino.rules.settlement",
    "casino.rules.theory.base",  # its theoretical hold: the hook's type and the shared driver
    "casino.rules.theory.play",
}


@pytest.fixture
def war():
    """The game, registered for the whole run by ``tests/conftest.py``."""
    assert registry()[GAME.code] is GAME
    return GAME


@pytest.fixture
def war_table(war, floor, dealer, client_for):
    client = client_for(floor)
    created = client.post(
        "/api/v1/tables/",
        {
            "name": "WAR-1",
            "game": "casino-war",
            "seat_count": 6,
            "dealer": dealer.username,
            "limits": {"bet_min": 100, "bet_max": 5000},
            "smallest_chip": 25,
            "rules": {"tie_bonus": 2},
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    table = created.json()
    for seat, player in ((1, "Ana"), (2, "Bela"), (3, "Csilla")):
        seated = client.post(
            f"/api/v1/tables/{table['id']}/seats/{seat}/", {"player": player}, format="json"
        )
        assert seated.status_code == 200, seated.json()
    opened = client.post(f"/api/v1/tables/{table['id']}/status/", {"status": "open"}, format="json")
    assert opened.status_code == 200
    return table


HAND = [
    {"type": "bet", "seat": 1, "amount": 1000},
    {"type": "bet", "seat": 2, "amount": 500},
    {"type": "bet", "seat": 3, "amount": 400},
    {"type": "card", "seat": 1, "card": "Kh"},
    {"type": "card", "seat": 2, "card": "4c"},
    {"type": "card", "seat": 3, "card": "9s"},
    {"type": "card", "seat": 0, "card": "9d"},  # the dealer: seat 3 ties
    {"type": "war", "seat": 3},
    {"type": "war_cards", "seat": 3, "card": "Jh", "dealer_card": "Jc"},  # tie again
]


def play(client, table_id, actions):
    hand = client.post(f"/api/v1/tables/{table_id}/hands/", {}, format="json")
    assert hand.status_code == 201, hand.json()
    hand = hand.json()
    for index, action in enumerate(actions):
        answer = client.post(
            f"/api/v1/hands/{hand['id']}/actions/",
            action,
            format="json",
            HTTP_IDEMPOTENCY_KEY=f"war-{hand['id']}-{index}",
        )
        assert answer.status_code == 200, (action, answer.json())
    return hand, answer.json() if actions else hand["state"]


def test_a_house_banked_game_is_played_settled_voided_and_audited_through_the_api(
    war_table, dealer, floor, compliance, client_for, void_hand, django_capture_on_commit_callbacks
):
    client = client_for(dealer)
    hand, state = play(client, war_table["id"], HAND)
    assert state["complete"] is True and state["legal_actions"] == []
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json")
    assert settled.status_code == 201, settled.json()
    result = settled.json()
    nets = {seat["seat"]: seat["net"] for seat in result["seats"]}
    # Seat 1 wins 1000; seat 2 loses 500; seat 3 ties twice: the raise wins 400 and the
    # ante the tie bonus, 2 x 400.
    assert nets == {1: 1000, 2: -500, 3: 1200}
    house = result["house"]
    assert (house["seat"], house["role"], house["net"]) == (0, "house", -1700)
    assert sum(nets.values()) + house["net"] + result["rake"] == 0
    assert {line["against"] for line in house["lines"]} == {1, 2, 3}
    rows = SeatSettlement.objects.filter(settlement_id=settled.json()["settlement"])
    assert {(row.seat, row.role, row.net) for row in rows} >= {(0, "house", -1700)}

    stored = client.get(f"/api/v1/settlements/{result['settlement']}/").json()
    assert stored["history"]["game"] == "casino-war"
    assert stored["history"]["actions"] == HAND
    assert GAME.replay(History.from_dict(stored["history"])).settle().to_dict()["house"] == house

    # A second hand is voided by the floor with a reason; nothing is paid.
    second, _ = play(client, war_table["id"], HAND[:2])
    voided = void_hand(second["id"], asks=dealer, approves=floor)
    assert voided["status"] == "approved"
    assert client.get(f"/api/v1/hands/{second['id']}/").json()["status"] == "voided"

    # The audit check replays the stored hand through the game and finds nothing wrong.
    with django_capture_on_commit_callbacks(execute=True):
        check = client_for(compliance).post("/api/v1/audit/checks/")
    report = client_for(compliance).get(f"/api/v1/audit/checks/{check.json()['id']}/").json()
    assert report["status"] == "passed", report["report"]["findings"]
    assert report["report"]["settlements_checked"] == 1
    assert report["report"]["hands_checked"] == 2


def test_the_dealers_cards_show_through_the_contract(war_table, dealer, client_for):
    """A house-banked game added as one package shows the house's own hand (seat 0) in the
    presentation every hand's state carries, as the tablet reads it."""
    client = client_for(dealer)
    hand, state = play(client, war_table["id"], HAND[:7])  # the dealer's 9d ties seat 3
    shown = state["presentation"]
    assert presentation.problems(shown) == []
    jsonschema.validate(shown, presentation.SCHEMA)
    house = shown["house"]
    assert (house["seat"], house["house"], house["badges"]) == (0, True, ["house", "dealer"])
    assert house["cards"] == [{"card": "9d", "up": True}]
    seat3 = next(party for party in shown["seats"] if party["seat"] == 3)
    assert (seat3["status"], seat3["to_act"], shown["to_act"]) == ("to_act", True, 3)
    assert seat3["cards"] == [{"card": "9s", "up": True}]
    assert seat3["wagers"] == [{"name": "ante", "amount": 400}]
    for action in HAND[7:]:
        answer = client.post(f"/api/v1/hands/{hand['id']}/actions/", action, format="json")
        assert answer.status_code == 200, answer.json()
    done = answer.json()["presentation"]
    assert done["house"]["groups"] == [{"name": "war", "cards": [{"card": "Jc", "up": True}]}]
    seat3 = next(party for party in done["seats"] if party["seat"] == 3)
    assert seat3["groups"] == [{"name": "war", "cards": [{"card": "Jh", "up": True}]}]
    assert [w["name"] for w in seat3["wagers"]] == ["ante", "war"]


def test_an_illegal_action_is_refused_naming_the_rule_and_nothing_is_stored(
    war_table, dealer, client_for
):
    client = client_for(dealer)
    hand, _ = play(client, war_table["id"], HAND[:4])
    refused = client.post(
        f"/api/v1/hands/{hand['id']}/actions/",
        {"type": "card", "seat": 2, "card": "Kh"},
        format="json",
    )
    assert refused.status_code == 400
    assert "rule 3" in refused.json()["errors"][0]["message"]
    assert client.get(f"/api/v1/hands/{hand['id']}/").json()["state"]["players"][1]["card"] is None
    early = client.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json")
    assert early.status_code == 400


def test_the_api_document_and_game_list_show_the_registered_game(war, client_for, compliance):
    client = client_for(compliance)
    listed = {game["code"]: game for game in client.get("/api/v1/games/").json()}
    assert listed["casino-war"]["rules_doc"] == "tests/games/casino_war/RULES.md"
    assert set(listed["casino-war"]["schemas"]["actions"]) == {
        "bet",
        "card",
        "war",
        "surrender",
        "war_cards",
    }
    document = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    components = document["components"]["schemas"]
    assert {"CasinoWarLimits", "CasinoWarActionWarCards", "CasinoWarTableCreate"} <= set(components)
    body = document["paths"]["/api/v1/hands/{id}/actions/"]["post"]["requestBody"]
    refs = [ref["$ref"] for ref in body["content"]["application/json"]["schema"]["anyOf"]]
    assert "#/components/schemas/CasinoWarActionBet" in refs


def test_the_game_is_one_package_and_nothing_else_knows_it():
    """Its package imports only the rules package's shared pieces, and no code outside it names
    the game: adding it changed nothing in the platform."""
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                top = node.module.split(".")[0]
                assert top not in {"django", "rest_framework", "tables", "payouts"}, path
                if top == "casino":
                    assert node.module in SHARED, (path, node.module)
    tracked = subprocess.run(
        ["git", "grep", "-l", "-i", "-e", "casino-war", "-e", "casino_war", "-e", "CasinoWar"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout.split()
    assert tracked, "git grep found nothing: is this a git checkout?"
    # The README's "Adding a game" may point at it as the example, and the suite registers it
    # for the whole run (tests/conftest.py); no other code may name it.
    outside = [
        f
        for f in tracked
        if not f.startswith("tests/games/") and f not in {"README.md", "tests/conftest.py"}
    ]
    assert outside == []


CARDS = [str(card) for card in standard_deck()]


@settings(max_examples=150, deadline=None)
@given(
    bets=st.lists(st.integers(1, 40).map(lambda n: n * 25), min_size=1, max_size=6),
    order=st.permutations(CARDS),
    choices=st.lists(st.sampled_from(["war", "surrender"]), min_size=6, max_size=6),
)
def test_chips_are_conserved_in_every_hand(bets, order, choices):
    """Seats' nets, the house's net and the rake sum to zero, whatever is dealt."""
    rules = GAME.hand_rules({"bet_min": 25, "bet_max": 1000}, 25, {})
    seats = list(range(1, len(bets) + 1))
    state = GAME.new_hand({"players": seats}, rules)
    deck = iter(order)
    for seat, bet in zip(seats, bets, strict=True):
        state.apply({"type": "bet", "seat": seat, "amount": bet})
    for seat in [*seats, 0]:
        state.apply({"type": "card", "seat": seat, "card": next(deck)})
    while not state.complete:
        pending = state.legal_actions()[0]
        seat = pending["seat"]
        if pending["type"] == "war_cards":
            state.apply(
                {"type": "war_cards", "seat": seat, "card": next(deck), "dealer_card": next(deck)}
            )
        else:
            state.apply({"type": choices[seat - 1], "seat": seat})
    result = state.settle()
    assert sum(seat.net for seat in result.seats) + result.house.net + result.rake == 0
