"""Five Card Draw 7-A: the table between hands (the game's table hooks), clauses 11-14.

The button, blinds and missed-blind markers are the table's state between hands; where the
next hand's button and blinds go, who posts what and who waits is decided in
:mod:`casino.rules.five_card_draw.blinds` (:func:`~.blinds.next_hand`).

Table state: ``{"blinds": BlindState, "dealt": {seat: player dealt a hand there},
"choices": {seat: a returning player's choice}, "stacks": {seat: {"player", "stack"}}}``. A
seat's player is new until dealt a hand at that seat (``dealt``); a returning player's choice
(clause 12) is a between-hand action and holds until it is used by a post or the player leaves.

``stacks`` carries each player's chips forward ("Between hands: stacks carried forward" in
docs/rules/five-card-draw-7a.md): when a hand is settled, every dealt-in seat's stack after it
(its stack in the hand's set-up plus its net) is recorded with the seat's player; a voided hand
records nothing. A stack belongs to the player it was recorded with: it goes when that player
leaves the seat, and a different player in the seat never gets it. :func:`opening_proposal`
offers the recorded stacks as the next opening body's, for the dealer to confirm or correct.
A table stored before ``stacks`` existed simply has none recorded yet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from casino.rules.contract import JSON, Change, ClosedHand, Event, Opening, TableView
from casino.rules.errors import Problems, Refusal, RuleError
from casino.rules.five_card_draw.blinds import (
    BlindState,
    Choice,
    HandBlinds,
    Marker,
    SeatInfo,
    next_hand,
)
from casino.rules.messages import _, msg
from casino.rules.options import is_int
from casino.rules.rule_titles import five_card_draw_rule

BLIND_AMOUNTS = ("small_blind", "big_blind", "big_bet")
CHOICES = tuple(str(choice) for choice in Choice)


def _seat_map(data: object) -> dict[int, Any]:
    if not isinstance(data, Mapping):
        return {}
    return {int(key): value for key, value in data.items() if str(key).isdigit()}


def _json_map(data: Mapping[int, Any]) -> dict[str, Any]:
    return {str(seat): value for seat, value in sorted(data.items())}


def initial_state() -> JSON:
    return {"blinds": BlindState().to_dict(), "dealt": {}, "choices": {}}


def parts(table: TableView) -> tuple[BlindState, dict[int, str], dict[int, str]]:
    state = table.state
    return (
        BlindState.from_dict(state.get("blinds")),
        _seat_map(state.get("dealt")),
        _seat_map(state.get("choices")),
    )


def seat_infos(table: TableView) -> list[SeatInfo]:
    _blinds, dealt, choices = parts(table)
    return [
        SeatInfo(
            seat=seat.number,
            present=seat.in_play,
            new=dealt.get(seat.number) != seat.player,
            choice=Choice(choices[seat.number]) if seat.number in choices else None,
        )
        for seat in table.seats
        if seat.player
    ]


def next_blinds(table: TableView) -> HandBlinds:
    """The next hand's button, blinds, posts and markers (Refusal if none can be dealt)."""
    blinds, _dealt, _choices = parts(table)
    try:
        return next_hand(
            blinds,
            seat_infos(table),
            small_blind=table.limits["small_blind"],
            big_blind=table.limits["big_blind"],
        )
    except RuleError as exc:
        raise Refusal(exc.problems) from None


def next_seats(table: TableView) -> list[int]:
    try:
        return list(next_blinds(table).dealt_in)
    except Refusal:
        return table.in_play


def table_view(table: TableView) -> JSON:
    blinds, dealt, choices = parts(table)
    try:
        upcoming: JSON = dict(next_blinds(table).to_dict())
    except Refusal as exc:
        upcoming = {"error": str(exc)}
    return {
        **blinds.to_dict(),
        "new": [
            seat.number
            for seat in table.seats
            if seat.player and dealt.get(seat.number) != seat.player
        ],
        "choices": _json_map(choices),
        "next_hand": upcoming,
    }


def table_actions(table: TableView) -> list[JSON]:
    """A choice for each seated player it matters to (clause 12): one who owes missed
    blinds, or one the next hand would leave waiting; ``post_small_dead`` only to a seat
    that owes MS alone."""
    if table.hand_open:
        return []
    blinds, _dealt, choices = parts(table)
    try:
        waiting = set(next_blinds(table).waiting)
    except Refusal:
        waiting = set()
    actions = []
    for seat in table.seats:
        owes = blinds.markers.get(seat.number, frozenset())
        if not seat.player or not (owes or seat.number in waiting or seat.number in choices):
            continue
        offered = [c for c in CHOICES if c != Choice.POST_SMALL_DEAD or owes == {Marker.MS}]
        actions.append(
            {
                "type": "blind_choice",
                "seat": seat.number,
                "owes": sorted(str(m) for m in owes),
                "choices": offered,
                "chosen": choices.get(seat.number),
            }
        )
    return actions


def table_act(table: TableView, action: Mapping[str, Any]) -> Change:
    if action.get("type") != "blind_choice":
        raise RuleError(
            msg(_("the between-hand action of Five Card Draw 7-A is blind_choice")), path="type"
        )
    problems = Problems()
    seat, choice = action.get("seat"), action.get("choice")
    unknown = sorted(set(action) - {"type", "seat", "choice"})
    for key in unknown:
        problems.add(str(key), msg(_("unknown field %(key)s"), key=repr(key)))
    view = table.seat(seat) if is_int(seat) else None
    if not is_int(seat):
        problems.add("seat", msg(_("seat must be a seat number, got %(value)s"), value=repr(seat)))
    elif view is None or not view.player:
        problems.add("seat", msg(_("seat %(seat)s has no player"), seat=seat))
    if choice not in CHOICES:
        problems.add(
            "choice", msg(_("choice must be one of %(choices)s"), choices=", ".join(CHOICES))
        )
    problems.raise_if_any()
    blinds, dealt, _choices = parts(table)
    assert is_int(seat) and view is not None
    owes = blinds.markers.get(seat, frozenset())
    new = dealt.get(seat) != view.player
    if choice == str(Choice.POST_SMALL_DEAD) and (new or owes != {Marker.MS}):
        if new:
            who = msg(_("seat %(seat)s is a new player"), seat=seat)
        elif owes:
            who = msg(
                _("seat %(seat)s owes %(owing)s"),
                seat=seat,
                owing=", ".join(sorted(str(m) for m in owes)),
            )
        else:
            who = msg(_("seat %(seat)s owes nothing"), seat=seat)
        raise RuleError(
            msg(
                _(
                    "post_small_dead settles a missed small blind (MS) only; %(who)s: choose "
                    "post_all or wait (%(rule)s)"
                ),
                who=who,
                rule=five_card_draw_rule(12),
            ),
            path="choice",
        )
    if table.hand_open:
        raise Refusal(msg(_("a hand is in progress; a returning player chooses between hands")))
    _blinds, _dealt, choices = parts(table)
    choices[seat] = str(choice)
    state = {**table.state, "choices": _json_map(choices)}
    return Change(state, (Event("blind_choice", {"seat": seat, "choice": choice}),))


def seats_changed(table: TableView) -> Change:
    """A player who leaves takes their choice and their stack with them; a new player starts
    afresh."""
    _blinds, dealt, choices = parts(table)
    stacks = recorded_stacks(table)
    seated = {seat.number: seat.player for seat in table.seats if seat.player}
    kept_dealt = {seat: name for seat, name in dealt.items() if seated.get(seat) == name}
    kept_choices = {seat: choice for seat, choice in choices.items() if seat in seated}
    kept_stacks = {
        seat: entry for seat, entry in stacks.items() if seated.get(seat) == entry["player"]
    }
    if kept_dealt == dealt and kept_choices == choices and kept_stacks == stacks:
        return Change(table.state)
    state = {**table.state, "dealt": _json_map(kept_dealt), "choices": _json_map(kept_choices)}
    if kept_stacks != stacks:
        state["stacks"] = _json_map(kept_stacks)
    return Change(state)


# ---------------------------------------------------------------- stacks carried forward


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
    The button, blinds and markers moved when the hand opened."""
    if hand.result is None:
        return Change(table.state)
    nets = {party.seat: party.net for party in hand.result.parties}
    names = {seat.number: seat.player for seat in table.seats if seat.player}
    stacks = recorded_stacks(table)
    entries = hand.config.get("seats")
    for entry in entries if isinstance(entries, list) else []:
        seat = entry.get("seat") if isinstance(entry, Mapping) else None
        if not is_int(seat) or seat not in hand.seats:
            continue
        stacks.pop(seat, None)
        stack = entry.get("stack")
        if seat in names and is_int(stack):
            stacks[seat] = {"player": names[seat], "stack": stack + nets.get(seat, 0)}
    return Change({**table.state, "stacks": _json_map(stacks)})


def opening_proposal(table: TableView, seats: Sequence[int]) -> JSON:
    """The next opening body as far as the table knows it: ``{"seats": [{"seat", "stack"}]}``
    for ``seats``, the seats the next hand deals in (:func:`next_seats`), in that order;
    ``stack`` only where one was recorded for the player now in the seat (never cards)."""
    stacks = recorded_stacks(table)
    names = {seat.number: seat.player for seat in table.seats if seat.player}
    proposed: list[JSON] = []
    for seat in seats:
        entry: JSON = {"seat": seat}
        known = stacks.get(seat)
        if known is not None and names.get(seat) == known["player"]:
            entry["stack"] = known["stack"]
        proposed.append(entry)
    return {"seats": proposed}


def open_hand(table: TableView, body: Mapping[str, Any]) -> Opening:
    blinds = next_blinds(table)
    seats = body.get("seats")
    if not isinstance(seats, list):
        raise RuleError(
            msg(
                _("seats: give each dealt-in seat's stack and five cards (seats %(seats)s)"),
                seats=", ".join(map(str, blinds.dealt_in)),
            ),
            path="seats",
        )
    given = [entry.get("seat") for entry in seats if isinstance(entry, dict)]
    if sorted(map(str, given)) != sorted(map(str, blinds.dealt_in)) or len(given) != len(seats):
        dealt_in = ", ".join(map(str, blinds.dealt_in))
        raise RuleError(
            msg(
                _("seats %(seats)s are dealt in this hand; the request gives %(given)s"),
                seats=dealt_in,
                given=", ".join(map(str, given)),
            )
            if given
            else msg(
                _("seats %(seats)s are dealt in this hand; the request gives none"),
                seats=dealt_in,
            ),
            path="seats",
        )
    config = {
        "structure": table.limits["structure"],
        **{name: table.limits[name] for name in BLIND_AMOUNTS},
        "button": blinds.button,
        "seats": seats,
        "posts": [post.to_dict() for post in blinds.posts],
    }
    _blinds, dealt, choices = parts(table)
    names = {seat.number: seat.player for seat in table.seats}
    dealt.update({seat: names[seat] for seat in blinds.dealt_in})
    posted = {post.seat for post in blinds.posts}
    state = {
        **table.state,  # the stacks carried forward stay until the hand closes
        "blinds": blinds.state.to_dict(),
        "dealt": _json_map(dealt),
        "choices": _json_map({seat: c for seat, c in choices.items() if seat not in posted}),
    }
    return Opening(config, tuple(blinds.dealt_in), state, (Event("blinds", blinds.to_dict()),))
