"""High Card Flush designated-player rotation (brief clauses 15-17): the offer, the answers
and the policy checks, with every event recorded and audited.

The policy itself is pure (``casino.rules.rotation``); this module keeps the table's state.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from casino.core.errors import Conflict
from casino.rules import rotation
from casino.rules.errors import Problems, RuleError
from payouts.services import audit_append

from .models import Hand, RotationEvent, Seat, Table
from .selectors import dp_position, seats_in_play


def holdings(table: Table) -> list[rotation.Holding]:
    return [
        rotation.Holding(opened_at=h.opened_at, seat=h.dp_seat)
        for h in table.hands.exclude(dp_seat=None).order_by("opened_at")
    ]


def policy(table: Table) -> rotation.RotationPolicy:
    return rotation.RotationPolicy.from_dict(table.rotation_policy)


def _event(
    table: Table,
    kind: str,
    seat: int,
    user: Any,
    before: dict[str, Any],
    bank: int | None = None,
) -> None:
    """Record a rotation event and its audit entry (state before and after)."""
    RotationEvent.objects.create(
        table=table, kind=kind, seat=seat, bank=bank, by=user, at=timezone.now()
    )
    audit_append(
        actor=user,
        action=f"rotation_{kind}",
        subject=f"table:{table.pk}",
        table=table,
        before=before,
        after={"seat": seat, "bank": bank, **dp_position(table)},
    )


def offer_from(
    table: Table, user: Any, after: int | None, before: dict[str, Any] | None = None
) -> None:
    """Offer the position to the next seat in play clockwise after ``after``.

    ``before`` is the rotation state to record as the audit entry's "before" (by default the
    table's state on entry)."""
    before = before or dp_position(table)
    seat = rotation.next_seat_clockwise(seats_in_play(table), after)
    table.offer_seat = seat
    table.offer_round_start = seat
    table.save(
        update_fields=[
            "offer_seat",
            "offer_round_start",
            "dp_seat",
            "dp_bank",
            "stopped",
            "last_dp_seat",
        ]
    )
    if seat is not None:
        _event(table, RotationEvent.Kind.OFFER, seat, user, before)


def ensure_offer(table: Table, user: Any) -> None:
    """Start an offer round when nobody holds or is offered the position."""
    if table.dp_seat is None and table.offer_seat is None:
        offer_from(table, user, table.last_dp_seat)


def seat_left(table: Table, seat: Seat, user: Any) -> None:
    """A seat left or sat out: pass on the offer or the position it had."""
    if table.dp_seat == seat.number:
        table.dp_seat, table.dp_bank = None, None
        offer_from(table, user, seat.number)
    elif table.offer_seat == seat.number:
        offer_from(table, user, seat.number)


def after_hand(table: Table, hand: Hand, user: Any) -> None:
    """After a hand, the position moves on: offered clockwise from this DP (clause 15)."""
    before = dp_position(table)
    table.last_dp_seat = hand.dp_seat
    table.dp_seat, table.dp_bank, table.stopped = None, None, False
    offer_from(table, user, hand.dp_seat, before)


def check_dp_may_open(table: Table) -> None:
    """Refuse (409) to open a hand that would break clauses 15-17, naming the rule."""
    in_play = seats_in_play(table)
    if table.stopped or table.dp_seat is None:
        offer = f"; the offer is with seat {table.offer_seat}" if table.offer_seat else ""
        reason = (
            "the offer went round the table without acceptance; the game stops until a "
            "player accepts (clause 16)"
            if table.stopped
            else "no player has accepted the designated player position (clause 15)"
        )
        raise Conflict(reason + offer)
    if table.dp_seat not in in_play:
        raise Conflict(f"the designated player's seat {table.dp_seat} is not in play")
    if len(in_play) < 2:
        raise Conflict("a hand needs at least one player besides the designated player")
    problems = Problems()
    try:
        rotation.check_may_hold(
            policy(table), seat=table.dp_seat, history=holdings(table), now=timezone.now()
        )
    except RuleError as exc:
        problems.extend(exc)
    bank_min, bank_max = table.limits["bank_min"], table.limits["bank_max"]
    if not bank_min <= (table.dp_bank or 0) <= bank_max:
        problems.add(
            "designated_player.bank",
            f"designated player bank {table.dp_bank} is outside the table's limits "
            f"{bank_min}-{bank_max}",
        )
    if problems:
        raise Conflict(problems.items[0].message, problems=problems.items)


@transaction.atomic
def rotation_decide(
    *, user: AbstractBaseUser, table: Table, seat: int, accept: bool, bank: int | None = None
) -> Table:
    """Record the offered seat's answer (clauses 15-17). ``table`` is locked by the caller."""
    if table.status != Table.Status.OPEN:
        raise Conflict(f"table {table.name} is closed")
    if table.hands.filter(status=Hand.Status.OPEN).exists():
        raise Conflict("a hand is in progress; the position is offered when it ends")
    ensure_offer(table, user)
    if table.dp_seat is not None:
        raise Conflict(f"seat {table.dp_seat} already holds the designated player position")
    if table.offer_seat != seat:
        raise Conflict(
            f"the position is offered to seat {table.offer_seat}, not seat {seat}", path="seat"
        )
    before = dp_position(table)
    if accept:
        _check_bank(table, bank)
        rotation.check_may_hold(
            policy(table), seat=seat, history=holdings(table), now=timezone.now()
        )
        table.dp_seat, table.dp_bank = seat, bank
        table.offer_seat, table.offer_round_start, table.stopped = None, None, False
        table.save(
            update_fields=["dp_seat", "dp_bank", "offer_seat", "offer_round_start", "stopped"]
        )
        _event(table, RotationEvent.Kind.ACCEPT, seat, user, before, bank)
        return table
    following = rotation.next_seat_clockwise(seats_in_play(table), seat)
    # Back at the round's first seat with no acceptance: the game stops (clause 16), and the
    # offer keeps going round.
    stops = following == table.offer_round_start
    table.offer_seat = following
    table.stopped = table.stopped or stops
    table.save(update_fields=["offer_seat", "stopped"])
    _event(table, RotationEvent.Kind.DECLINE, seat, user, before)
    if stops:
        _event(table, RotationEvent.Kind.STOP, seat, user, before)
    if following is not None:
        _event(table, RotationEvent.Kind.OFFER, following, user, before)
    return table


def _check_bank(table: Table, bank: int | None) -> None:
    problems = Problems()
    bank_min, bank_max = table.limits["bank_min"], table.limits["bank_max"]
    if isinstance(bank, bool) or not isinstance(bank, int):
        problems.add("bank", "the designated player's bank is needed to accept")
    elif not bank_min <= bank <= bank_max:
        problems.add(
            "bank",
            f"designated player bank {bank} is outside the table's limits {bank_min}-{bank_max}",
        )
    elif bank % table.smallest_chip:
        problems.add(
            "bank", f"bank {bank} is not a multiple of the smallest chip {table.smallest_chip}"
        )
    problems.raise_if_any()
