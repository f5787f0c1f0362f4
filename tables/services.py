"""Writes for tables: set-up, seats, limit/rule changes, rotation and hands.

Every function that writes is atomic, locks the table row it decides on, and
appends its audit entries in the same transaction.
"""

from __future__ import annotations

import copy
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from casino.core.errors import ApplicationError, Conflict, Forbidden, NotFound
from casino.core.roles import DEALER, FLOOR_MANAGER, has_role
from casino.rules import rotation
from casino.rules.errors import Problems, RuleError
from casino.rules.games import GAMES
from payouts.models import Settlement
from payouts.services import audit_append, settlement_store

from .models import Hand, RotationEvent, Seat, Table, TableChange

LIMIT_FIELDS = ("ante_min", "ante_max", "bank_min", "bank_max", "smallest_chip")
CHANGEABLE = (*LIMIT_FIELDS, "rules", "rotation_policy")


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


def table_config(table: Table) -> dict[str, Any]:
    """What a change request may alter, as it stands now."""
    return {
        **table.limits,
        "rules": copy.deepcopy(table.rules),
        "rotation_policy": copy.deepcopy(table.rotation_policy),
    }


def _validate_config(game: str, config: dict[str, Any]) -> None:
    """Check limits, game rules and rotation policy together; raise every problem."""
    problems = Problems()
    for name in LIMIT_FIELDS:
        value = config.get(name)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            problems.add(name, f"{name} must be a whole number of minor units, at least 1")
    if not problems:
        if config["ante_min"] > config["ante_max"]:
            problems.add(
                "ante_max",
                f"ante maximum {config['ante_max']} is below the minimum {config['ante_min']}",
            )
        if config["bank_min"] > config["bank_max"]:
            problems.add(
                "bank_max",
                f"bank maximum {config['bank_max']} is below the minimum {config['bank_min']}",
            )
    rules = config.get("rules") or {}
    if not isinstance(rules, dict):
        problems.add("rules", "rules must be an object")
    else:
        clash = sorted(set(rules) & {*LIMIT_FIELDS})
        for key in clash:
            problems.add(f"rules.{key}", f"{key} is a table limit; change it as {key}")
        if not clash:
            try:
                hand_rules(game, config)
            except RuleError as exc:
                problems.extend(exc)
    try:
        rotation.RotationPolicy.from_dict(config.get("rotation_policy") or {})
    except RuleError as exc:
        problems.extend(exc)
    problems.raise_if_any()


def hand_rules(game: str, config: dict[str, Any]) -> dict[str, Any]:
    """The effective rules a hand freezes: the game's defaults, the table's rules, its limits."""
    limits = {name: config[name] for name in LIMIT_FIELDS}
    return GAMES[game].parse_rules({**(config.get("rules") or {}), **limits})


def _seats_in_play(table: Table) -> list[int]:
    return [s.number for s in table.seats.all() if s.in_play]


def _holdings(table: Table) -> list[rotation.Holding]:
    return [
        rotation.Holding(opened_at=h.opened_at, seat=h.dp_seat)
        for h in table.hands.exclude(dp_seat=None).order_by("opened_at")
    ]


def _policy(table: Table) -> rotation.RotationPolicy:
    return rotation.RotationPolicy.from_dict(table.rotation_policy)


def _rotation_state(table: Table) -> dict[str, Any]:
    return {
        "designated_player": table.dp_seat,
        "bank": table.dp_bank,
        "offer_seat": table.offer_seat,
        "offer_round_start": table.offer_round_start,
        "stopped": table.stopped,
    }


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
        after={"seat": seat, "bank": bank, **_rotation_state(table)},
    )


def _offer_from(
    table: Table, user: Any, after: int | None, before: dict[str, Any] | None = None
) -> None:
    """Offer the position to the next seat in play clockwise after ``after``.

    ``before`` is the rotation state to record as the audit entry's "before" (by default the
    table's state on entry)."""
    before = before or _rotation_state(table)
    seat = rotation.next_seat_clockwise(_seats_in_play(table), after)
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


def _ensure_offer(table: Table, user: Any) -> None:
    """Start an offer round when nobody holds or is offered the position."""
    if table.dp_seat is None and table.offer_seat is None:
        _offer_from(table, user, table.last_dp_seat)


# ---------------------------------------------------------------- tables and seats


@transaction.atomic
def table_create(
    *,
    user: AbstractBaseUser,
    name: str,
    game: str,
    ante_min: int,
    ante_max: int,
    bank_min: int,
    bank_max: int,
    smallest_chip: int = 1,
    seat_count: int = 7,
    dealer: AbstractBaseUser | None = None,
    rules: dict[str, Any] | None = None,
    rotation_policy: dict[str, Any] | None = None,
) -> Table:
    limits = {
        "ante_min": ante_min,
        "ante_max": ante_max,
        "bank_min": bank_min,
        "bank_max": bank_max,
        "smallest_chip": smallest_chip,
    }
    if game not in GAMES:
        raise ApplicationError(f"unknown game {game!r}", path="game")
    config = {**limits, "rules": rules or {}, "rotation_policy": rotation_policy or {}}
    _validate_config(game, config)
    if dealer is not None and not has_role(dealer, DEALER):
        raise ApplicationError(f"{dealer.get_username()} is not a dealer", path="dealer")
    if Table.objects.filter(name=name).exists():
        raise ApplicationError(f"a table named {name!r} already exists", path="name")
    table = Table.objects.create(
        name=name,
        game=game,
        seat_count=seat_count,
        dealer=dealer,
        rules=config["rules"],
        rotation_policy=config["rotation_policy"],
        **limits,
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
        _ensure_offer(table, user)
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
    *, user: AbstractBaseUser, table_id: int, number: int, player: str, sitting_out: bool
) -> Seat:
    table = _lock_table(table_id)
    require_table_actor(user, table)
    seat = Seat.objects.filter(table=table, number=number).first()
    if seat is None:
        raise ApplicationError(
            f"table {table.name} has no seat {number} (seats 1-{table.seat_count})", path="seat"
        )
    open_hand = table.hands.filter(status=Hand.Status.OPEN).first()
    if open_hand is not None and number in open_hand.seats and not (player and not sitting_out):
        raise Conflict(
            f"seat {number} is in hand {open_hand.number}; it can leave when the "
            "hand is settled or voided"
        )
    before = {"player": seat.player, "sitting_out": seat.sitting_out}
    seat.player = player
    seat.sitting_out = sitting_out
    seat.save(update_fields=["player", "sitting_out"])
    audit_append(
        actor=user,
        action="seat_update",
        subject=f"table:{table.pk}:seat:{number}",
        table=table,
        before=before,
        after={"player": player, "sitting_out": sitting_out},
    )
    if not seat.in_play:
        if table.dp_seat == number:
            table.dp_seat, table.dp_bank = None, None
            _offer_from(table, user, number)
        elif table.offer_seat == number:
            _offer_from(table, user, number)
    if table.status == Table.Status.OPEN:
        _ensure_offer(table, user)
    return seat


# ---------------------------------------------------------------- limit and rule changes


@transaction.atomic
def change_request(
    *, user: AbstractBaseUser, table_id: int, changes: dict[str, Any], reason: str = ""
) -> TableChange:
    table = _lock_table(table_id)
    require_table_actor(user, table)
    problems = Problems()
    if not isinstance(changes, dict) or not changes:
        raise ApplicationError(
            "changes must name at least one of: " + ", ".join(CHANGEABLE), path="changes"
        )
    for key in changes:
        if key not in CHANGEABLE:
            problems.add(
                f"changes.{key}", f"{key!r} cannot be changed; changeable: " + ", ".join(CHANGEABLE)
            )
    problems.raise_if_any()
    before = table_config(table)
    _validate_config(table.game, _merged(before, changes))
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
    change = TableChange.objects.select_related("table").filter(pk=change_id).first()
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
    before = table_config(table)
    after = _merged(before, change.changes)
    _validate_config(table.game, after)
    for name in LIMIT_FIELDS:
        setattr(table, name, after[name])
    table.rules = after["rules"]
    table.rotation_policy = after["rotation_policy"]
    table.save()
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


# ---------------------------------------------------------------- rotation


@transaction.atomic
def rotation_decide(
    *, user: AbstractBaseUser, table_id: int, seat: int, accept: bool, bank: int | None = None
) -> Table:
    """Record the offered seat's answer (clauses 15-17)."""
    table = _lock_table(table_id)
    require_table_actor(user, table)
    if table.status != Table.Status.OPEN:
        raise Conflict(f"table {table.name} is closed")
    if table.hands.filter(status=Hand.Status.OPEN).exists():
        raise Conflict("a hand is in progress; the position is offered when it ends")
    _ensure_offer(table, user)
    if table.dp_seat is not None:
        raise Conflict(f"seat {table.dp_seat} already holds the designated player position")
    if table.offer_seat != seat:
        raise Conflict(
            f"the position is offered to seat {table.offer_seat}, not seat {seat}", path="seat"
        )
    before = _rotation_state(table)
    if accept:
        problems = Problems()
        if isinstance(bank, bool) or not isinstance(bank, int):
            problems.add("bank", "the designated player's bank is needed to accept")
        elif not table.bank_min <= bank <= table.bank_max:
            problems.add(
                "bank",
                f"designated player bank {bank} is outside the table's "
                f"limits {table.bank_min}-{table.bank_max}",
            )
        elif bank % table.smallest_chip:
            problems.add(
                "bank", f"bank {bank} is not a multiple of the smallest chip {table.smallest_chip}"
            )
        problems.raise_if_any()
        rotation.check_may_hold(
            _policy(table), seat=seat, history=_holdings(table), now=timezone.now()
        )
        table.dp_seat, table.dp_bank = seat, bank
        table.offer_seat, table.offer_round_start, table.stopped = None, None, False
        table.save(
            update_fields=["dp_seat", "dp_bank", "offer_seat", "offer_round_start", "stopped"]
        )
        _event(table, RotationEvent.Kind.ACCEPT, seat, user, before, bank)
        return table
    following = rotation.next_seat_clockwise(_seats_in_play(table), seat)
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


# ---------------------------------------------------------------- hands


@transaction.atomic
def hand_open(*, user: AbstractBaseUser, table_id: int) -> Hand:
    """Open the next hand, freezing limits, rules, pay tables, rake, DP and button."""
    table = _lock_table(table_id)
    require_table_actor(user, table)
    if table.status != Table.Status.OPEN:
        raise Conflict(f"table {table.name} is closed")
    current = table.hands.filter(status=Hand.Status.OPEN).first()
    if current is not None:
        raise Conflict(f"hand {current.number} is still open at table {table.name}")
    in_play = _seats_in_play(table)
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
    now = timezone.now()
    try:
        rotation.check_may_hold(
            _policy(table), seat=table.dp_seat, history=_holdings(table), now=now
        )
    except RuleError as exc:
        raise Conflict(str(exc), path="designated_player.seat") from None
    if not table.bank_min <= (table.dp_bank or 0) <= table.bank_max:
        raise Conflict(
            f"designated player bank {table.dp_bank} is outside the table's limits "
            f"{table.bank_min}-{table.bank_max}"
        )
    rules = hand_rules(table.game, table_config(table))
    try:
        hand = Hand.objects.create(
            table=table,
            number=table.next_hand_number,
            game=table.game,
            rules=rules,
            dp_seat=table.dp_seat,
            dp_bank=table.dp_bank,
            button=table.dp_seat,
            seats=in_play,
            opened_by=user,
            opened_at=now,
        )
    except IntegrityError:
        raise Conflict(f"another hand was opened at table {table.name}") from None
    table.next_hand_number += 1
    table.save(update_fields=["next_hand_number"])
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
            "seats": in_play,
            "rules": rules,
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


def _end_hand(hand: Hand, user: Any) -> None:
    """After a hand, the position moves on: offered clockwise from this DP (clause 15)."""
    table = _lock_table(hand.table_id)
    before = _rotation_state(table)
    table.last_dp_seat = hand.dp_seat
    table.dp_seat, table.dp_bank, table.stopped = None, None, False
    _offer_from(table, user, hand.dp_seat, before)


def _settle_record(hand: Hand, record: Any) -> dict[str, Any]:
    """Check the record belongs to this hand and fill in what the hand froze."""
    if not isinstance(record, dict):
        raise ApplicationError("the hand record must be a JSON object")
    record = copy.deepcopy(record)
    problems = Problems()
    dp = record.get("designated_player")
    if isinstance(dp, dict):
        if dp.get("seat") != hand.dp_seat:
            problems.add(
                "designated_player.seat",
                f"seat {dp.get('seat')} is not this hand's designated player (seat {hand.dp_seat})",
            )
        if "bank" not in dp:
            dp["bank"] = hand.dp_bank
        elif dp["bank"] != hand.dp_bank:
            problems.add(
                "designated_player.bank",
                f"bank {dp['bank']} differs from the bank {hand.dp_bank} posted "
                "when the hand opened",
            )
    players = record.get("players")
    if isinstance(players, list):
        for index, player in enumerate(players):
            seat = player.get("seat") if isinstance(player, dict) else None
            if isinstance(seat, int) and seat not in hand.seats:
                problems.add(
                    f"players[{index}].seat",
                    f"seat {seat} was not in play when hand {hand.number} opened",
                )
    problems.raise_if_any()
    return record


@transaction.atomic
def hand_settle(*, user: AbstractBaseUser, hand_id: int, record: Any) -> Settlement:
    """Settle an open hand with its record, once. Atomic: all or nothing."""
    hand = _lock_open_hand(hand_id)
    require_table_actor(user, hand.table)
    record = _settle_record(hand, record)
    result = GAMES[hand.game].evaluate(record, hand.rules)
    settlement = settlement_store(hand=hand, record=record, result=result, user=user)
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
        },
    )
    _end_hand(hand, user)
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
    _end_hand(hand, user)
    return hand
