"""Pontoon's bank: who holds it, the Shoot Pontoon kitty, and every change of hands
(chosen for the first hand, passed after a pontoon, sold after a hand with the hand's
``sell_bank`` action), each recorded as a BankEvent and audited.

The table's ``game_state`` holds ``{"banker": seat, "kitty": amount or None}``.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from casino.core.errors import ApplicationError, Conflict
from payouts.services import audit_append

from .models import BankEvent, Hand, Table
from .selectors import seats_in_play


def bank_state(table: Table) -> dict[str, Any]:
    return {"banker": table.game_state.get("banker"), "kitty": table.game_state.get("kitty")}


def _require_between_hands(table: Table) -> None:
    if table.game != "pontoon":
        raise ApplicationError(f"{table.game} has no bank to hold")
    current = table.hands.filter(status=Hand.Status.OPEN).first()
    if current is not None:
        raise Conflict(f"hand {current.number} is in progress; the bank changes between hands")


def _require_in_play(table: Table, seat: int, path: str) -> None:
    if seat not in seats_in_play(table):
        raise ApplicationError(f"seat {seat} has no player in play", path=path)


def _change(
    table: Table,
    *,
    kind: str,
    to_seat: int,
    user: Any,
    price: int | None = None,
    hand: Hand | None = None,
    leaves_with: int | None = None,
) -> None:
    """Move the bank to ``to_seat``; the old banker leaves with their kitty (``leaves_with``)
    and the new banker puts up a kitty of their own at the next hand."""
    before = bank_state(table)
    table.game_state = {**table.game_state, "banker": to_seat, "kitty": None}
    table.save(update_fields=["game_state"])
    BankEvent.objects.create(
        table=table,
        kind=kind,
        from_seat=before["banker"],
        to_seat=to_seat,
        price=price,
        kitty=leaves_with,
        hand=hand,
        by=user,
        at=timezone.now(),
    )
    audit_append(
        actor=user,
        action=f"bank_{kind}",
        subject=f"table:{table.pk}",
        table=table,
        hand=hand,
        before=before,
        after={**bank_state(table), "price": price, "old_banker_leaves_with_kitty": leaves_with},
    )


def bank_assign(*, table: Table, seat: int, user: Any) -> Table:
    """Choose the first banker (e.g. by the cut); ``table`` is locked by the caller."""
    _require_between_hands(table)
    if table.game_state.get("banker") is not None:
        raise Conflict(
            f"seat {table.game_state['banker']} holds the bank; it passes after a pontoon "
            "or by a sale"
        )
    _require_in_play(table, seat, "seat")
    _change(table, kind=BankEvent.Kind.ASSIGN, to_seat=seat, user=user)
    return table


def after_hand(
    table: Table,
    hand: Hand,
    user: Any,
    *,
    next_banker: int,
    kitty: int | None,
    sale: dict[str, int] | None,
) -> None:
    """After settlement: the bank passes after a player's pontoon or is sold (clause 16; the
    sale's price is settled in the hand), and the old banker leaves with the kitty; otherwise
    the banker keeps it and the kitty carries over (clause 17)."""
    banker = table.game_state.get("banker")
    if next_banker != banker:
        _change(
            table,
            kind=BankEvent.Kind.SALE if sale else BankEvent.Kind.PASS,
            to_seat=next_banker,
            user=user,
            hand=hand,
            price=sale["price"] if sale else None,
            leaves_with=kitty,
        )
    else:
        table.game_state = {**table.game_state, "kitty": kitty}
        table.save(update_fields=["game_state"])
