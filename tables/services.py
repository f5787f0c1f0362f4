"""Writes for tables: set-up, seats, limit/rule changes and hands.

Every function that writes is atomic, locks the table row it decides on, and appends its
audit entries in the same transaction. What differs between games is behind the game's
adapter (``games/``); the designated-player rotation of High Card Flush is in
``rotation.py``.
"""

from __future__ import annotations

import copy
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from casino.core.errors import ApplicationError, Conflict, Forbidden, NotFound
from casino.core.roles import DEALER, FLOOR_MANAGER, has_role
from casino.rules.errors import Problems, RuleError
from casino.rules.five_card_draw.blinds import Choice
from casino.rules.rotation import RotationPolicy
from payouts.models import Settlement
from payouts.services import (
    audit_append,
    hand_setup_digest,
    settlement_binding,
    settlement_store,
)

from . import bank, rotation
from .games import ADAPTERS, GameAdapter, adapter
from .models import Hand, HandAction, Seat, Table, TableChange
from .selectors import hand_actions, table_config

BLIND_CHOICES = tuple(str(choice) for choice in Choice)

# ---------------------------------------------------------------- helpers


def _lock_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise NotFound(f"table {table_id} does not exist") from None


def require_table_actor(user: Any, table: Table) -> None:
    """Floor managers act on every table; a dealer only on the table assigned to them."""
    if has_role(user, FLOOR_MANAGER):
        return
    if has_role(user, DEALER) and table.dealer_id == user.pk:
        return
    raise Forbidden(f"you are not the dealer assigned to table {table.name}")


def changeable(game: GameAdapter) -> tuple[str, ...]:
    return (*game.limit_fields, "smallest_chip", "rules", "rotation_policy")


def _validate_config(game: GameAdapter, config: dict[str, Any]) -> None:
    """Check limits, game rules and rotation policy together; raise every problem."""
    problems = Problems()
    game.check_limits(config, problems)
    chip = config.get("smallest_chip")
    if isinstance(chip, bool) or not isinstance(chip, int) or chip < 1:
        problems.add("smallest_chip", "smallest_chip must be a whole number, at least 1")
    rules = config.get("rules") or {}
    if not isinstance(rules, dict):
        problems.add("rules", "rules must be an object")
    else:
        clash = sorted(set(rules) & {*game.limit_fields, "smallest_chip"})
        for key in clash:
            problems.add(f"rules.{key}", f"{key} is a table limit; change it as {key}")
        if not clash and not problems:
            try:
                game.hand_rules(config)
            except RuleError as exc:
                problems.extend(exc)
    try:
        RotationPolicy.from_dict(config.get("rotation_policy") or {})
    except RuleError as exc:
        problems.extend(exc)
    problems.raise_if_any()


# ---------------------------------------------------------------- tables and seats


@transaction.atomic
def table_create(
    *,
    user: AbstractBaseUser,
    name: str,
    game: str,
    limits: dict[str, Any],
    smallest_chip: int = 1,
    seat_count: int = 7,
    dealer: AbstractBaseUser | None = None,
    rules: dict[str, Any] | None = None,
    rotation_policy: dict[str, Any] | None = None,
) -> Table:
    if game not in ADAPTERS:
        raise ApplicationError(f"unknown game {game!r}", path="game")
    game_adapter = adapter(game)
    problems = Problems()
    if seat_count > game_adapter.max_seats:
        problems.add("seat_count", f"a {game} table has at most {game_adapter.max_seats} seats")
    for key in limits:
        if key not in game_adapter.limit_fields:
            problems.add(
                f"limits.{key}",
                f"{key!r} is not a {game} limit; limits: {', '.join(game_adapter.limit_fields)}",
            )
    problems.raise_if_any()
    config = {
        **limits,
        "smallest_chip": smallest_chip,
        "rules": rules or {},
        "rotation_policy": rotation_policy or {},
    }
    _validate_config(game_adapter, config)
    if dealer is not None and not has_role(dealer, DEALER):
        raise ApplicationError(f"{dealer.get_username()} is not a dealer", path="dealer")
    if Table.objects.filter(name=name).exists():
        raise ApplicationError(f"a table named {name!r} already exists", path="name")
    table = Table.objects.create(
        name=name,
        game=game,
        seat_count=seat_count,
        dealer=dealer,
        limits=limits,
        smallest_chip=smallest_chip,
        rules=config["rules"],
        rotation_policy=config["rotation_policy"],
    )
    Seat.objects.bulk_create(Seat(table=table, number=n) for n in range(1, seat_count + 1))
    audit_append(
        actor=user,
        action="table_create",
        subject=f"table:{table.pk}",
        table=table,
        after={
            "name": name,
            "game": game,
            "seat_count": seat_count,
            "dealer": dealer.get_username() if dealer else None,
            **table_config(table),
        },
    )
    return table


@transaction.atomic
def table_set_status(*, user: AbstractBaseUser, table_id: int, status: str) -> Table:
    table = _lock_table(table_id)
    if status == table.status:
        raise Conflict(f"table {table.name} is already {status}")
    if status == Table.Status.CLOSED and table.hands.filter(status=Hand.Status.OPEN).exists():
        raise Conflict(f"table {table.name} has an open hand; settle or void it first")
    before = table.status
    table.status = status
    table.save(update_fields=["status"])
    audit_append(
        actor=user,
        action=f"table_{status}",
        subject=f"table:{table.pk}",
        table=table,
        before={"status": before},
        after={"status": status},
    )
    if status == Table.Status.OPEN:
        adapter(table.game).on_table_open(table, user)
    return table


@transaction.atomic
def table_assign_dealer(
    *, user: AbstractBaseUser, table_id: int, dealer: AbstractBaseUser | None
) -> Table:
    table = _lock_table(table_id)
    if dealer is not None and not has_role(dealer, DEALER):
        raise ApplicationError(f"{dealer.get_username()} is not a dealer", path="dealer")
    before = table.dealer.get_username() if table.dealer else None
    table.dealer = dealer
    table.save(update_fields=["dealer"])
    audit_append(
        actor=user,
        action="table_dealer",
        subject=f"table:{table.pk}",
        table=table,
        before={"dealer": before},
        after={"dealer": dealer.get_username() if dealer else None},
    )
    return table


@transaction.atomic
def seat_update(
    *,
    user: AbstractBaseUser,
    table_id: int,
    number: int,
    player: str,
    sitting_out: bool,
    blind_choice: str = "",
) -> Seat:
    """Seat a player, sit them out, empty the seat; a returning 7-A player also says whether
    they post what they owe or wait for the big blind (clause 12)."""
    table = _lock_table(table_id)
    require_table_actor(user, table)
    seat = Seat.objects.filter(table=table, number=number).first()
    if seat is None:
        raise ApplicationError(
            f"table {table.name} has no seat {number} (seats 1-{table.seat_count})", path="seat"
        )
    if blind_choice and blind_choice not in BLIND_CHOICES:
        raise ApplicationError(
            f"blind_choice must be one of {', '.join(BLIND_CHOICES)}", path="blind_choice"
        )
    open_hand = table.hands.filter(status=Hand.Status.OPEN).first()
    if open_hand is not None and number in open_hand.seats and not (player and not sitting_out):
        raise Conflict(
            f"seat {number} is in hand {open_hand.number}; it can leave when the "
            "hand is settled or voided"
        )
    before = {
        "player": seat.player,
        "sitting_out": seat.sitting_out,
        "blind_choice": seat.blind_choice,
    }
    if player != seat.player:
        seat.new = bool(player)  # a different player has not been dealt a hand here yet
    seat.player = player
    seat.sitting_out = sitting_out
    seat.blind_choice = blind_choice if player else ""
    seat.save(update_fields=["player", "sitting_out", "blind_choice", "new"])
    audit_append(
        actor=user,
        action="seat_update",
        subject=f"table:{table.pk}:seat:{number}",
        table=table,
        before=before,
        after={"player": player, "sitting_out": sitting_out, "blind_choice": seat.blind_choice},
    )
    game = adapter(table.game)
    if not seat.in_play:
        game.on_seat_left(table, seat, user)
    if table.status == Table.Status.OPEN:
        game.on_table_open(table, user)
    return seat


# ---------------------------------------------------------------- limit and rule changes


def _check_change_keys(game: GameAdapter, changes: dict[str, Any]) -> None:
    problems = Problems()
    for key in changes:
        if key not in changeable(game):
            problems.add(
                f"changes.{key}",
                f"{key!r} cannot be changed; changeable: " + ", ".join(changeable(game)),
            )
    problems.raise_if_any()


@transaction.atomic
def change_request(
    *, user: AbstractBaseUser, table_id: int, changes: dict[str, Any], reason: str = ""
) -> TableChange:
    table = _lock_table(table_id)
    require_table_actor(user, table)
    game = adapter(table.game)
    if not isinstance(changes, dict) or not changes:
        raise ApplicationError(
            "changes must name at least one of: " + ", ".join(changeable(game)), path="changes"
        )
    _check_change_keys(game, changes)
    before = table_config(table)
    _validate_config(game, _merged(before, changes))
    change = TableChange.objects.create(
        table=table, changes=changes, before=before, reason=reason, requested_by=user
    )
    audit_append(
        actor=user,
        action="table_change_requested",
        subject=f"change:{change.pk}",
        table=table,
        before=before,
        after={"changes": changes, "reason": reason},
    )
    return change


def _merged(config: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """Apply a change: limits replace, ``rules`` and ``rotation_policy`` merge by key."""
    merged = copy.deepcopy(config)
    for key, value in changes.items():
        if key in ("rules", "rotation_policy") and isinstance(value, dict):
            merged[key] = {**merged.get(key, {}), **value}
        else:
            merged[key] = value
    return merged


def _decide(user: AbstractBaseUser, change_id: int) -> tuple[TableChange, Table]:
    change = TableChange.objects.filter(pk=change_id).first()
    if change is None:
        raise NotFound(f"change request {change_id} does not exist")
    table = _lock_table(change.table_id)
    change = TableChange.objects.select_for_update().get(pk=change_id)
    if change.status != TableChange.Status.PENDING:
        raise Conflict(f"change request {change.pk} was already {change.status}")
    if change.requested_by_id == user.pk:
        raise Forbidden("a floor manager cannot decide their own change request")
    return change, table


@transaction.atomic
def change_approve(*, user: AbstractBaseUser, change_id: int, note: str = "") -> TableChange:
    change, table = _decide(user, change_id)
    game = adapter(table.game)
    before = table_config(table)
    after = _merged(before, change.changes)
    _validate_config(game, after)
    table.limits = {name: after[name] for name in game.limit_fields}
    table.smallest_chip = after["smallest_chip"]
    table.rules = after["rules"]
    table.rotation_policy = after["rotation_policy"]
    table.save(update_fields=["limits", "smallest_chip", "rules", "rotation_policy"])
    change.status = TableChange.Status.APPROVED
    change.decided_by = user
    change.decided_at = timezone.now()
    change.decision_note = note
    change.applies_from_hand = table.next_hand_number
    change.save()
    audit_append(
        actor=user,
        action="table_change_approved",
        subject=f"change:{change.pk}",
        table=table,
        before=before,
        after={**after, "applies_from_hand": change.applies_from_hand, "note": note},
    )
    return change


@transaction.atomic
def change_reject(*, user: AbstractBaseUser, change_id: int, note: str = "") -> TableChange:
    change, table = _decide(user, change_id)
    change.status = TableChange.Status.REJECTED
    change.decided_by = user
    change.decided_at = timezone.now()
    change.decision_note = note
    change.save()
    audit_append(
        actor=user,
        action="table_change_rejected",
        subject=f"change:{change.pk}",
        table=table,
        before=change.before,
        after={"changes": change.changes, "note": note},
    )
    return change


# ---------------------------------------------------------------- rotation (High Card Flush)


@transaction.atomic
def rotation_decide(
    *, user: AbstractBaseUser, table_id: int, seat: int, accept: bool, bank: int | None = None
) -> Table:
    table = _lock_table(table_id)
    require_table_actor(user, table)
    if table.game != "high-card-flush":
        raise ApplicationError(f"{table.game} has no designated player")
    return rotation.rotation_decide(user=user, table=table, seat=seat, accept=accept, bank=bank)


# ---------------------------------------------------------------- the bank (Pontoon)


@transaction.atomic
def bank_assign(*, user: AbstractBaseUser, table_id: int, seat: int) -> Table:
    table = _lock_table(table_id)
    require_table_actor(user, table)
    return bank.bank_assign(table=table, seat=seat, user=user)


# ---------------------------------------------------------------- hands


@transaction.atomic
def hand_open(*, user: AbstractBaseUser, table_id: int, body: Any = None) -> Hand:
    """Open the next hand, freezing what applies to it (rules, limits, pay tables, rake,
    designated player or blinds, button, seats)."""
    table = _lock_table(table_id)
    require_table_actor(user, table)
    if table.status != Table.Status.OPEN:
        raise Conflict(f"table {table.name} is closed")
    current = table.hands.filter(status=Hand.Status.OPEN).first()
    if current is not None:
        raise Conflict(f"hand {current.number} is still open at table {table.name}")
    game = adapter(table.game)
    opening = game.open_hand(table, body if isinstance(body, dict) else {})
    try:
        hand = Hand.objects.create(
            table=table,
            number=table.next_hand_number,
            game=table.game,
            rules=opening.rules,
            config=opening.config,
            dp_seat=opening.dp_seat,
            dp_bank=opening.dp_bank,
            button=opening.button,
            seats=opening.seats,
            opened_by=user,
            opened_at=timezone.now(),
        )
    except IntegrityError:
        raise Conflict(f"another hand was opened at table {table.name}") from None
    table.next_hand_number += 1
    table.save(update_fields=["next_hand_number"])
    game.after_open(table, hand, opening, user)
    audit_append(
        actor=user,
        action="hand_open",
        subject=f"hand:{hand.pk}",
        table=table,
        hand=hand,
        after={
            "number": hand.number,
            "designated_player": hand.dp_seat,
            "bank": hand.dp_bank,
            "button": hand.button,
            "seats": hand.seats,
            "rules": hand.rules,
            "config": hand.config,
            **(opening.audit or {}),
            "setup_sha256": hand_setup_digest(hand),
        },
    )
    return hand


def _lock_open_hand(hand_id: int) -> Hand:
    hand = Hand.objects.select_for_update().select_related("table").filter(pk=hand_id).first()
    if hand is None:
        raise NotFound(f"hand {hand_id} does not exist")
    if hand.status != Hand.Status.OPEN:
        raise Conflict(f"hand {hand.number} at table {hand.table.name} is already {hand.status}")
    return hand


@transaction.atomic
def hand_act(*, user: AbstractBaseUser, hand_id: int, action: Any) -> dict[str, Any]:
    """Append one action to a live hand and return the new state (whose turn, legal actions
    with their bounds, pot). An illegal action is a 400 and nothing is stored."""
    hand = _lock_open_hand(hand_id)
    require_table_actor(user, hand.table)
    game = adapter(hand.game)
    if not game.live:
        raise ApplicationError(f"{hand.game} hands are settled from a record, not by actions")
    if not isinstance(action, dict):
        raise ApplicationError("an action must be a JSON object", path="action")
    actions = hand_actions(hand)
    state = game.replay(hand, actions)
    state.apply(action)
    HandAction.objects.create(
        hand=hand, index=len(actions), action=action, by=user, at=timezone.now()
    )
    audit_append(
        actor=user,
        action="hand_action",
        subject=f"hand:{hand.pk}",
        table=hand.table,
        hand=hand,
        after={"index": len(actions), "action": action},
    )
    return {"hand": hand.pk, "actions": len(actions) + 1, **state.view()}


@transaction.atomic
def hand_settle(*, user: AbstractBaseUser, hand_id: int, record: Any) -> Settlement:
    """Settle an open hand once: from the posted record, or a live hand from its own log.
    Atomic: all or nothing."""
    hand = _lock_open_hand(hand_id)
    require_table_actor(user, hand.table)
    game = adapter(hand.game)
    actions = hand_actions(hand) if game.live else []
    stored_record, result = game.settle(hand, record, actions)
    settlement = settlement_store(hand=hand, record=stored_record, result=result, user=user)
    hand.status = Hand.Status.SETTLED
    hand.closed_at = settlement.settled_at
    hand.save(update_fields=["status", "closed_at"])
    audit_append(
        actor=user,
        action="hand_settle",
        subject=f"hand:{hand.pk}",
        table=hand.table,
        hand=hand,
        before={"status": Hand.Status.OPEN},
        after={
            "status": Hand.Status.SETTLED,
            "settlement": settlement.pk,
            "rake": result.rake,
            "nets": {str(s.seat): s.net for s in result.seats},
            **settlement_binding(
                hand=hand, record=stored_record, actions=actions, result=settlement.result
            ),
        },
    )
    game.after_hand(_lock_table(hand.table_id), hand, user, result)
    return settlement


@transaction.atomic
def hand_void(*, user: AbstractBaseUser, hand_id: int, reason: str) -> Hand:
    if not reason or not reason.strip():
        raise ApplicationError("a void needs a reason", path="reason")
    hand = _lock_open_hand(hand_id)
    hand.status = Hand.Status.VOIDED
    hand.void_reason = reason.strip()
    hand.voided_by = user
    hand.closed_at = timezone.now()
    hand.save(update_fields=["status", "void_reason", "voided_by", "closed_at"])
    audit_append(
        actor=user,
        action="hand_void",
        subject=f"hand:{hand.pk}",
        table=hand.table,
        hand=hand,
        before={"status": Hand.Status.OPEN},
        after={"status": Hand.Status.VOIDED, "reason": hand.void_reason},
    )
    adapter(hand.game).after_hand(_lock_table(hand.table_id), hand, user, None)
    return hand
