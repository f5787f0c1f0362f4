"""The High Card Flush table between hands: the designated-player rotation is the table's state
(clauses 15-17 of ``docs/rules/high-card-flush.md``), and these are the logic of the game's
table hooks (``game.py`` wires them into the contract).

Table state::

    {"designated_player": seat or None, "bank": amount or None,
     "offer": the seat offered the position or None, "round_start": where the offer round began,
     "stopped": the round went by without acceptance (clause 16),
     "last_holder": the last hand's designated player,
     "holdings": [[opened_at ISO time, seat], ...]}

``holdings`` keeps only what the rotation policy needs (the hands inside its window, the one
before it, and the latest ``max_consecutive``), so opening a hand never reads the table's
whole history. The policy itself (who may hold the position) is ``rotation.py``'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from casino.rules.contract import JSON, Change, ClosedHand, Event, Opening, TableView
from casino.rules.errors import Problem, Problems, Refusal, RuleError
from casino.rules.messages import Message, Money, _, msg
from casino.rules.options import as_money, is_int, not_a_chip_multiple
from casino.rules.rule_titles import high_card_flush_rule
from casino.rules.seating import next_seat_clockwise

from .hand import setup
from .rotation import Holding, RotationPolicy, check_may_hold
from .rules import Rules, hand_rules

#: The between-hand actions (``game.py`` gives each one's schema).
TABLE_ACTIONS = ("accept", "decline")


def _position(state: Mapping[str, Any]) -> JSON:
    return {
        "designated_player": state.get("designated_player"),
        "bank": state.get("bank"),
        "offer_seat": state.get("offer"),
        "offer_round_start": state.get("round_start"),
        "stopped": bool(state.get("stopped")),
    }


def initial_state() -> JSON:
    return {
        "designated_player": None,
        "bank": None,
        "offer": None,
        "round_start": None,
        "stopped": False,
        "last_holder": None,
        "holdings": [],
    }


def _policy(table: TableView) -> RotationPolicy:
    return Rules.from_dict(
        hand_rules(table.limits, table.smallest_chip, table.rules)
    ).rotation_policy


def table_view(table: TableView) -> JSON:
    return {
        **_position(table.state),
        "last_holder": table.state.get("last_holder"),
        "policy": _policy(table).to_dict(),
        "bank_limits": {"min": table.limits["bank_min"], "max": table.limits["bank_max"]},
    }


def table_actions(table: TableView) -> list[JSON]:
    state = _ensure_offer(table, table.state)[0]
    offer = state.get("offer")
    if (
        not table.is_open
        or table.hand_open
        or offer is None
        or state.get("designated_player") is not None
    ):
        return []
    bank = {
        "min": table.limits["bank_min"],
        "max": table.limits["bank_max"],
        "step": table.smallest_chip,
    }
    return [{"type": "accept", "seat": offer, "bank": bank}, {"type": "decline", "seat": offer}]


def _offer_from(table: TableView, state: JSON, after: int | None) -> tuple[JSON, list[Event]]:
    """Offer the position to the next seat in play clockwise after ``after``."""
    seat = next_seat_clockwise(table.in_play, after)
    state = {**state, "offer": seat, "round_start": seat}
    events = (
        [Event("rotation_offer", {"seat": seat, **_position(state)})] if seat is not None else []
    )
    return state, events


def _ensure_offer(table: TableView, state: JSON) -> tuple[JSON, list[Event]]:
    """Start an offer round when the table is open and nobody holds or is offered it."""
    if (
        table.is_open
        and state.get("designated_player") is None
        and state.get("offer") is None
        and table.in_play
    ):
        return _offer_from(table, state, state.get("last_holder"))
    return state, []


def seats_changed(table: TableView) -> Change:
    """A seat that left or sat out passes on the offer or the position it had."""
    state = dict(table.state) or initial_state()
    events: list[Event] = []
    in_play = table.in_play
    holder, offer = state.get("designated_player"), state.get("offer")
    if holder is not None and holder not in in_play and not table.hand_open:
        state = {**state, "designated_player": None, "bank": None}
        state, events = _offer_from(table, state, holder)
    elif holder is None and offer is not None and offer not in in_play:
        state, events = _offer_from(table, state, offer)
    state, more = _ensure_offer(table, state)
    return Change(state, tuple(events + more))


def table_act(table: TableView, action: Mapping[str, Any]) -> Change:
    kind = action.get("type")
    if kind not in TABLE_ACTIONS:
        raise RuleError(
            msg(_("the between-hand actions of High Card Flush are accept and decline")),
            path="type",
        )
    allowed = {"type", "seat", "bank"} if kind == "accept" else {"type", "seat"}
    problems = Problems()
    for key in sorted(set(action) - allowed):
        problems.add(
            str(key),
            msg(_("unknown field %(key)s for %(action)s"), key=repr(key), action=str(kind)),
        )
    seat = action.get("seat")
    if not is_int(seat) or seat < 1:
        problems.add("seat", msg(_("seat must be a seat number, got %(value)s"), value=repr(seat)))
    problems.raise_if_any()
    if not table.is_open:
        raise Refusal(msg(_("the table is closed")))
    if table.hand_open:
        raise Refusal(msg(_("a hand is in progress; the position is offered when it ends")))
    state, events = _ensure_offer(table, dict(table.state) or initial_state())
    holder = state.get("designated_player")
    if holder is not None:
        raise Refusal(
            msg(_("seat %(seat)s already holds the designated player position"), seat=holder)
        )
    if not is_int(seat) or state.get("offer") != seat:
        raise Refusal(
            msg(
                _("the position is offered to seat %(offer)s, not seat %(seat)s"),
                offer=str(state.get("offer")),
                seat=str(seat),
            ),
            path="seat",
        )
    if kind == "accept":
        bank = _check_bank(table, action.get("bank"))
        _check_may_hold(table, state, seat)
        state = {
            **state,
            "designated_player": seat,
            "bank": bank,
            "offer": None,
            "round_start": None,
            "stopped": False,
        }
        events.append(Event("rotation_accept", {"seat": seat, "bank": bank, **_position(state)}))
        return Change(state, tuple(events))
    following = next_seat_clockwise(table.in_play, seat)
    # Back at the round's first seat with no acceptance: the game stops (clause 16), and
    # the offer keeps going round.
    stops = following == state.get("round_start")
    state = {**state, "offer": following, "stopped": bool(state.get("stopped")) or stops}
    events.append(Event("rotation_decline", {"seat": seat, **_position(state)}))
    if stops:
        events.append(Event("rotation_stop", {"seat": seat, **_position(state)}))
    if following is not None:
        events.append(Event("rotation_offer", {"seat": following, **_position(state)}))
    return Change(state, tuple(events))


def _check_bank(table: TableView, bank: object) -> int:
    low, high = table.limits["bank_min"], table.limits["bank_max"]
    if not is_int(bank):
        raise RuleError(msg(_("the designated player's bank is needed to accept")), path="bank")
    if not low <= bank <= high:
        raise RuleError(_outside_limits(bank, low, high), path="bank")
    if bank % table.smallest_chip:
        raise RuleError(
            not_a_chip_multiple(Message(_("bank")), bank, table.smallest_chip), path="bank"
        )
    return int(bank)


def _outside_limits(bank: object, low: int, high: int) -> str:
    return msg(
        _("designated player bank %(bank)s is outside the table's limits %(low)s-%(high)s"),
        bank=as_money(bank),
        low=Money(low),
        high=Money(high),
    )


def _holdings(state: Mapping[str, Any]) -> list[Holding]:
    return [Holding(datetime.fromisoformat(at), seat) for at, seat in state.get("holdings") or ()]


def _check_may_hold(
    table: TableView, state: Mapping[str, Any], seat: int, path: str = "seat"
) -> None:
    try:
        check_may_hold(_policy(table), seat=seat, history=_holdings(state), now=table.now)
    except RuleError as exc:
        raise Refusal([Problem(path, p.message) for p in exc.problems]) from None


def open_hand(table: TableView, body: Mapping[str, Any]) -> Opening:
    """Refuse (409) a hand that would break clauses 15-17, naming the rule. An ``accept``
    in the body takes the offered seat's acceptance first, as ``accept`` between hands
    would (the dealer's routine in one call)."""
    accepted: tuple[Event, ...] = ()
    unknown = sorted(set(body) - {"accept"})
    if unknown:
        raise RuleError(
            [
                Problem(
                    str(key),
                    msg(_("unknown field %(key)s; the body may hold accept"), key=repr(key)),
                )
                for key in unknown
            ]
        )
    if "accept" in body:
        accept = body["accept"]
        if not isinstance(accept, Mapping):
            raise RuleError(msg(_("accept must be {seat, bank}")), path="accept")
        try:
            change = table_act(table, {**accept, "type": "accept"})
        except RuleError as exc:  # named where the body holds it
            moved = [
                Problem(f"accept.{p.path}" if p.path else "accept", p.message) for p in exc.problems
            ]
            raise type(exc)(moved) from None
        table, accepted = replace(table, state=change.state), change.events
    state = dict(table.state) or initial_state()
    in_play = table.in_play
    holder, bank = state.get("designated_player"), state.get("bank")
    if state.get("stopped") or holder is None:
        reason = (
            msg(
                _(
                    "the offer went round the table without acceptance; the game stops until "
                    "a player accepts (%(rule)s)"
                ),
                rule=high_card_flush_rule(16),
            )
            if state.get("stopped")
            else msg(
                _("no player has accepted the designated player position (%(rule)s)"),
                rule=high_card_flush_rule(15),
            )
        )
        if state.get("offer"):
            reason = msg(
                _("%(reason)s; the offer is with seat %(seat)s"),
                reason=reason,
                seat=state.get("offer"),
            )
        raise Refusal(reason)
    if holder not in in_play:
        raise Refusal(msg(_("the designated player's seat %(seat)s is not in play"), seat=holder))
    if len(in_play) < 2:
        raise Refusal(msg(_("a hand needs at least one player besides the designated player")))
    _check_may_hold(table, state, holder, "designated_player.seat")
    low, high = table.limits["bank_min"], table.limits["bank_max"]
    if not is_int(bank) or not low <= bank <= high:
        raise Refusal(_outside_limits(bank, low, high), path="designated_player.bank")
    players = [seat for seat in in_play if seat != holder]
    holdings = _trimmed([*_holdings(state), Holding(table.now, holder)], _policy(table), table.now)
    state = {**state, "holdings": [[h.opened_at.isoformat(), h.seat] for h in holdings]}
    return Opening(setup(holder, bank, players), tuple(in_play), state, accepted)


def _trimmed(holdings: list[Holding], policy: RotationPolicy, now: datetime) -> list[Holding]:
    """What the policy can still look at: the latest ``max_consecutive`` holdings, those
    inside the window and the last one before it."""
    start = now - timedelta(minutes=policy.window_minutes)
    before = [i for i, h in enumerate(holdings) if h.opened_at <= start]
    first = min(before[-1] if before else 0, max(0, len(holdings) - policy.max_consecutive))
    return holdings[first:]


def hand_closed(table: TableView, hand: ClosedHand) -> Change:
    """After a hand the position moves on: offered clockwise from this holder (clause 15)."""
    holder = hand.config["designated_player"]["seat"]
    state = {
        **table.state,
        "last_holder": holder,
        "designated_player": None,
        "bank": None,
        "stopped": False,
    }
    state, events = _offer_from(table, state, holder)
    return Change(state, tuple(events))
