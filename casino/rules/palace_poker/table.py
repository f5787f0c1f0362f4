"""Palace Poker: the table between hands.

A Palace Poker table keeps two things between hands: the dealer button
(:class:`~casino.rules.seating.DealerButton`: the last dealer, shown with the next one) and
the stacks carried forward. The deal passes one seat clockwise each hand (clause 2b); the
first hand's dealer may be named when it is opened (for example after the cut of clause 2),
otherwise it is the first seat in play. :func:`open_hand` builds the next hand's set-up from
the table's limits and the opening body (every seat in play with its stack, banner and
palace cards) and checks it as a record (:func:`~casino.rules.palace_poker.config.parse_config`).

Table state: ``{"dealer": the last dealer, "stacks": {seat: {"player", "stack"}}}``.
``stacks`` carries each player's chips forward ("Between hands: stacks carried forward" in
docs/rules/palace-poker.md): when a hand is settled (:func:`hand_closed`), every dealt-in
seat's stack after it (its stack in the hand's set-up, before the ante, plus its net) is
recorded with the seat's player; a voided hand records nothing. A stack belongs to the
player it was recorded with: it goes when that player leaves the seat
(:func:`seats_changed`), and a different player in the seat never gets it.
:func:`opening_proposal` offers the recorded stacks as the next opening body's, for the dealer
to confirm or correct. The table view (the dealer button) does not show them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from casino.rules.contract import JSON, Change, ClosedHand, Opening, TableView
from casino.rules.errors import RuleError
from casino.rules.messages import _, msg
from casino.rules.options import is_int
from casino.rules.palace_poker.config import parse_config
from casino.rules.palace_poker.rules import LIMIT_AMOUNTS, PalaceRules, hand_rules
from casino.rules.seating import DealerButton, next_dealer


def open_hand(table: TableView, body: Mapping[str, Any]) -> Opening:
    """The next hand's set-up: the next dealer, the table's limits and the players given."""
    dealer = next_dealer(table, body)
    in_play = table.in_play
    players = body.get("players")
    given = (
        [p.get("seat") for p in players if isinstance(p, dict)] if isinstance(players, list) else []
    )
    if sorted((seat for seat in given if is_int(seat)), key=int) != in_play or len(given) != len(
        in_play
    ):
        raise RuleError(
            msg(
                _("players: give seats %(seats)s their stack, banner and three palace cards"),
                seats=", ".join(map(str, in_play)),
            ),
            path="players",
        )
    rules = hand_rules(table.limits, table.smallest_chip, table.rules)
    engine_rules = PalaceRules.from_dict(rules)
    record = {
        **{name: table.limits[name] for name in ("structure", *LIMIT_AMOUNTS)},
        "dealer": dealer,
        "players": players,
    }
    config = parse_config(record, engine_rules).to_dict()
    state, events = DealerButton.moved(table, dealer)
    return Opening(config, tuple(in_play), state, events)


# ---------------------------------------------------------------- stacks carried forward


def _seat_map(data: object) -> dict[int, Any]:
    if not isinstance(data, Mapping):
        return {}
    return {int(key): value for key, value in data.items() if str(key).isdigit()}


def _json_map(data: Mapping[int, Any]) -> dict[str, Any]:
    return {str(seat): value for seat, value in sorted(data.items())}


def recorded_stacks(table: TableView) -> dict[int, JSON]:
    """The stacks recorded after the last settled hands: ``{seat: {"player", "stack"}}``
    (a malformed entry is left out)."""
    return {
        seat: {"player": entry["player"], "stack": entry["stack"]}
        for seat, entry in _seat_map(table.state.get("stacks")).items()
        if isinstance(entry, Mapping)
        and isinstance(entry.get("player"), str)
        and is_int(entry.get("stack"))
    }


def hand_closed(table: TableView, hand: ClosedHand) -> Change:
    """A settled hand records each dealt-in seat's stack after it (its stack in the hand's
    set-up plus its net), with the player now in the seat; a voided hand changes nothing.
    The dealer button moved when the hand opened."""
    if hand.result is None:
        return Change(table.state)
    nets = {party.seat: party.net for party in hand.result.parties}
    names = {seat.number: seat.player for seat in table.seats if seat.player}
    stacks = recorded_stacks(table)
    players = hand.config.get("players")
    for player in players if isinstance(players, list) else []:
        seat = player.get("seat") if isinstance(player, Mapping) else None
        if not is_int(seat) or seat not in hand.seats:
            continue
        stacks.pop(seat, None)
        stack = player.get("stack")
        if seat in names and is_int(stack):
            stacks[seat] = {"player": names[seat], "stack": stack + nets.get(seat, 0)}
    return Change({**table.state, "stacks": _json_map(stacks)})


def seats_changed(table: TableView) -> Change:
    """A player who leaves the seat (or a different player in it) ends the stack recorded
    there; sitting out keeps it."""
    if "stacks" not in table.state:
        return Change(table.state)
    stacks = recorded_stacks(table)
    seated = {seat.number: seat.player for seat in table.seats if seat.player}
    kept = {seat: entry for seat, entry in stacks.items() if seated.get(seat) == entry["player"]}
    if kept == stacks:
        return Change(table.state)
    return Change({**table.state, "stacks": _json_map(kept)})


def opening_proposal(table: TableView, seats: Sequence[int]) -> JSON:
    """The next opening body as far as the table knows it: ``{"players": [{"seat",
    "stack"}]}`` for ``seats``, the seats the next hand deals in (every seat in play);
    ``stack`` only where one was recorded for the player now in the seat (never the banner
    or palace cards, which are dealt anew)."""
    stacks = recorded_stacks(table)
    names = {seat.number: seat.player for seat in table.seats if seat.player}
    proposed: list[JSON] = []
    for seat in seats:
        entry: JSON = {"seat": seat}
        known = stacks.get(seat)
        if known is not None and names.get(seat) == known["player"]:
            entry["stack"] = known["stack"]
        proposed.append(entry)
    return {"players": proposed}
