"""Every registered game keeps the one contract the platform relies on: the games are the
registry's (Casino War, the suite's sixth, among them), each one's test data its own
(``tests/game_samples.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from casino.rules.contract import VIEW_KEYS, Game, History, TableView, hand_view, registry
from casino.rules.errors import Problems
from tests.game_samples import samples, table_config

GAMES = list(registry().values())
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.code)
def test_the_schemas_match_what_the_game_accepts(game: Game) -> None:
    assert game.limit_fields, game.code
    assert set(game.rules_schema["properties"]) == set(game.default_rules())
    assert game.parse_rules(None) == game.default_rules()
    for kind, schema in {**game.action_schemas, **game.table_action_schemas}.items():
        assert schema["properties"]["type"]["enum"] == [kind]
        assert "type" in schema["required"]
    # A built-in game's rules are docs/rules/<code>.md; any game's ship with the repository.
    if type(game).__module__.startswith("casino.rules."):
        assert game.rules_doc == f"docs/rules/{game.code}.md"
    assert (ROOT / game.rules_doc).is_file(), game.rules_doc


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.code)
def test_the_demo_table_is_valid_and_its_rules_freeze(game: Game) -> None:
    """A game's demo table (optional: its samples' table otherwise) is valid."""
    demo = table_config(game)
    problems = Problems()
    game.check_limits(demo["limits"], problems)
    assert not problems, problems.items
    rules = game.hand_rules(demo["limits"], demo["smallest_chip"], demo.get("rules", {}))
    assert rules["smallest_chip"] == demo["smallest_chip"]
    assert game.parse_rules(rules) == rules  # the frozen rules are a fixed point


@pytest.mark.parametrize("code", sorted(registry()))
def test_a_new_hand_shows_what_a_display_needs_and_replays_from_its_history(code: str) -> None:
    game = registry()[code]
    config, rules = samples(code).new_hand()
    state = game.new_hand(config, rules)
    view = hand_view(state, code)
    assert set(VIEW_KEYS) <= set(view), code
    assert view["game"] == code and view["complete"] is False
    legal = state.legal_actions()
    assert legal and all(isinstance(action.get("type"), str) for action in legal)
    assert {action["type"] for action in legal} <= set(game.action_schemas), code
    # A history of no actions replays to the same state.
    assert hand_view(game.replay(History(code, rules, config)), code) == view


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.code)
def test_a_fresh_table_offers_what_its_game_needs_first(game: Game) -> None:
    """What each game's table hooks say of a fresh open table with seats 1-3 in play (its
    samples' ``fresh``)."""
    from datetime import UTC, datetime

    from casino.rules.contract import SeatView

    demo = table_config(game)
    table = TableView(
        seats=tuple(SeatView(n, f"P{n}") for n in range(1, 4)),
        limits=demo["limits"],
        smallest_chip=demo["smallest_chip"],
        rules=demo.get("rules", {}),
        state=game.initial_state(),
        now=datetime(2026, 12, 1, tzinfo=UTC),
    )
    change = game.seats_changed(table)
    table = TableView(**{**{f: getattr(table, f) for f in table.__slots__}, "state": change.state})
    actions, events = samples(game.code).fresh
    offered = [
        {k: a[k] for k in ("type", "seat", "seats") if k in a} for a in game.table_actions(table)
    ]
    assert offered == actions
    assert [event.kind for event in change.events] == events
    assert game.next_seats(table) == [1, 2, 3]


@pytest.mark.parametrize(
    "module",
    [
        "casino.rules.five_card_draw",
        "casino.rules.pontoon.ops",
        "casino.rules.paiute.ops",
        "casino.rules.palace_poker.ops",
    ],
)
def test_every_operation_of_every_game_is_an_operation(module: str) -> None:
    """One Operation base: each entry of a hand's log says the action that made it (or
    None) and itself as JSON."""
    import importlib
    import typing

    from casino.rules.contract import Operation

    kinds = typing.get_args(importlib.import_module(module).Operation)
    assert len(kinds) >= 6
    for kind in kinds:
        assert issubclass(kind, Operation), kind


def test_a_live_hand_logs_operations() -> None:
    from casino.rules.contract import Operation

    config, rules = samples("palace-poker").new_hand()
    state = registry()["palace-poker"].new_hand(config, rules)
    assert state.log and all(isinstance(op, Operation) for op in state.log)  # the antes
