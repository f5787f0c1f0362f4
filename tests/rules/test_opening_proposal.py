"""``Game.opening_proposal`` on the engines (no Django): a settled hand carries each player's
stack forward, a voided one changes nothing, a stack belongs to the player it was recorded
with, and a game without stacks proposes nothing."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import Any

import pytest

from casino.rules.contract import ClosedHand, Game, SeatView, TableView, registry
from casino.rules.settlement import Line, Outcome, Role, SeatResult, SeatStatus, Settlement
from tests.game_samples import table_config

NOW = datetime(2026, 12, 1, tzinfo=UTC)
PLAYERS = {1: "Ana", 2: "Bela", 3: "Csilla"}
WITH_STACKS = {"five-card-draw-7a": "seats", "palace-poker": "players"}


def table(game: Game, state: dict[str, Any] | None = None, **players: Any) -> TableView:
    """A table of ``game`` (its demo limits, or its test samples' for a game without a demo
    table) with ``PLAYERS`` seated; ``players`` (``s2="Zoltan"`` or ``s2=("Bela", True)`` to sit
    out) change seats."""
    demo = table_config(game)
    seated: dict[int, Any] = {**PLAYERS, **{int(k[1:]): v for k, v in players.items()}}
    seats = []
    for number in range(1, 6):
        name, out = seated.get(number, ""), False
        if isinstance(name, tuple):
            name, out = name
        seats.append(SeatView(number, name, out))
    return TableView(
        seats=tuple(seats),
        limits=demo["limits"],
        smallest_chip=demo["smallest_chip"],
        rules=demo.get("rules", {}),
        state=game.initial_state() if state is None else state,
        now=NOW,
    )


def with_state(view: TableView, state: dict[str, Any]) -> TableView:
    return dataclasses.replace(view, state=state)


def settlement(code: str, nets: dict[int, int], rake: dict[int, int]) -> Settlement:
    return Settlement(
        game=code,
        rules={},
        seats=tuple(
            SeatResult(
                seat=seat,
                role=Role.PLAYER,
                cards=(),
                hand=None,
                status=SeatStatus.SETTLED,
                lines=(
                    Line(
                        "pot",
                        0,
                        Outcome.WIN if net > 0 else Outcome.LOSE,
                        net + rake.get(seat, 0),
                    ),
                ),
                rake=rake.get(seat, 0),
            )
            for seat, net in nets.items()
        ),
        explanation=(),
    )


def closed(code: str, opening: dict[int, int], result: Settlement | None) -> ClosedHand:
    key = WITH_STACKS[code]
    config = {key: [{"seat": seat, "stack": stack} for seat, stack in opening.items()]}
    return ClosedHand(1, config, tuple(opening), NOW, result)


def proposed(game: Game, view: TableView) -> dict[int, int | None]:
    body = game.opening_proposal(view)
    return {entry["seat"]: entry.get("stack") for entry in body[WITH_STACKS[game.code]]}


@pytest.mark.parametrize("code", sorted(WITH_STACKS))
def test_a_settled_hand_carries_each_stack_forward_and_a_voided_one_nothing(code: str) -> None:
    game = registry()[code]
    view = table(game)
    assert proposed(game, view) == {1: None, 2: None, 3: None}
    opening = {1: 10_000, 2: 8_000, 3: 12_000}
    result = settlement(code, {1: 550, 2: -300, 3: -300}, rake={1: 50})
    result.check_conserved()
    after = with_state(view, game.hand_closed(view, closed(code, opening, result)).state)
    assert proposed(game, after) == {1: 10_550, 2: 7_700, 3: 11_700}
    assert sum(v for v in proposed(game, after).values() if v) == sum(opening.values()) - 50
    assert after.state["stacks"]["1"] == {"player": "Ana", "stack": 10_550}
    # A voided hand changes nothing.
    voided = game.hand_closed(after, closed(code, {1: 1, 2: 2, 3: 3}, None))
    assert voided.state == after.state and voided.events == ()


@pytest.mark.parametrize("code", sorted(WITH_STACKS))
def test_a_stack_belongs_to_its_player(code: str) -> None:
    game = registry()[code]
    view = table(game)
    result = settlement(code, {1: 0, 2: 0, 3: 0}, rake={})
    after = with_state(
        view, game.hand_closed(view, closed(code, {1: 100, 2: 200, 3: 300}, result)).state
    )
    # Another player in seat 2 (even before the platform tells the game) gets no stack.
    swapped = with_state(table(game, s2="Zoltan"), after.state)
    assert proposed(game, swapped) == {1: 100, 2: None, 3: 300}
    # Once told, the game forgets Bela's stack: she does not get it back on returning.
    forgot = with_state(swapped, game.seats_changed(swapped).state)
    assert "2" not in forgot.state["stacks"]
    back = with_state(table(game), forgot.state)
    assert proposed(game, back) == {1: 100, 2: None, 3: 300}
    # Sitting out keeps the stack (the seat is not dealt in meanwhile).
    away = with_state(table(game, s3=("Csilla", True)), after.state)
    kept = game.seats_changed(away).state
    assert kept["stacks"] == after.state["stacks"]
    assert proposed(game, with_state(table(game), kept))[3] == 300


def test_7a_keeps_its_blinds_and_markers_beside_the_stacks() -> None:
    game = registry()["five-card-draw-7a"]
    view = with_state(table(game), game.seats_changed(table(game)).state)
    body = {"seats": [{"seat": s, "stack": 1_000, "cards": []} for s in game.next_seats(view)]}
    opening = game.open_hand(view, body)
    opened = with_state(view, opening.state)
    assert set(opened.state) == {"blinds", "dealt", "choices"}  # no stacks before a hand closes
    result = settlement(game.code, {1: 300, 2: -100, 3: -200}, rake={})
    hand = ClosedHand(1, opening.config, opening.seats, NOW, result)
    after = game.hand_closed(opened, hand).state
    assert {k: v for k, v in after.items() if k != "stacks"} == opened.state
    assert game.table_view(with_state(opened, after)) == game.table_view(opened)
    # The next opening keeps the stacks, the blinds move on as before.
    moved = game.open_hand(with_state(opened, after), body).state
    assert moved["stacks"] == after["stacks"] and moved["blinds"] != after["blinds"]


@pytest.mark.parametrize("code", sorted(WITH_STACKS))
def test_a_malformed_stack_record_is_ignored(code: str) -> None:
    game = registry()[code]
    state = {
        **game.initial_state(),
        "stacks": {"1": {"player": "Ana", "stack": "lots"}, "2": 5, "x": {}, "3": None},
    }
    assert proposed(game, table(game, state)) == {1: None, 2: None, 3: None}


@pytest.mark.parametrize(
    "game",
    [g for g in registry().values() if g.code not in WITH_STACKS and g.code != "pontoon"],
    ids=lambda g: g.code,
)
def test_a_game_without_stacks_proposes_nothing(game: Game) -> None:
    view = table(game)
    assert game.opening_proposal(with_state(view, game.seats_changed(view).state)) == {}


def test_shoot_pontoon_proposes_the_least_kitty_only_when_a_banker_must_put_one_up() -> None:
    game = registry()["pontoon"]
    view = table(game)  # the demo table plays Shoot Pontoon: kitty 2,000-20,000
    assert view.limits["kitty_min"] == 2000
    assert game.opening_proposal(with_state(view, {"banker": 5, "kitty": None})) == {"kitty": 2000}
    emptied = with_state(view, {"banker": 5, "kitty": 0})  # an emptied kitty is put up again
    assert game.opening_proposal(emptied) == {"kitty": 2000}
    carried = with_state(view, {"banker": 5, "kitty": 3500})
    assert game.opening_proposal(carried) == {}
    plain = dataclasses.replace(view, limits={**view.limits, "kitty_min": None, "kitty_max": None})
    assert game.opening_proposal(with_state(plain, {"banker": 5, "kitty": None})) == {}
