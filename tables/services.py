"""Writes for tables: set-up, seats, limit/rule changes, the game's table state and hands.

Every function that writes is atomic, locks the table row it decides on, and appends its
audit entries in the same transaction. Nothing here knows a game: what differs between games
is behind the one game contract (``casino.rules.contract``), read from the registry by the
table's game code.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError
from django.utils import timezone

from approvals.models import Approval
from casino.core.errors import ApplicationError, Conflict, Forbidden, NotFound
from casino.core.roles import DEALER, FLOOR_MANAGER, has_role
from casino.core.transactions import atomic_service
from casino.rules.contract import Change, ClosedHand, Game, History
from casino.rules.contract import game as registered_game
from casino.rules.errors import Problems, RuleError
from casino.rules.settlement import Settlement as EngineSettlement
from payouts.chain import AuditTrail, stored_form, stored_text
from payouts.models import Settlement
from payouts.rows import Rows, Select, create, on_postgresql, save_fields
from payouts.services import (
    audit_append,
    hand_setup_digest,
    result_nets,
    reversed_result,
    settlement_store,
)
from payouts.signoff import Needs, needs_of, policy_annotated, policy_annotations, policy_columns

from .models import Hand, HandAction, Seat, Table, TableChange, TableEvent
from .selectors import hand_history, table_config, table_view

# ---------------------------------------------------------------- helpers


# The hot path's reads on PostgreSQL, each one statement built once (``payouts.rows``):
# what the ORM queries beside them read, without compiling them on every request.
_TABLE_LOCK = Select(Table, '"tables_table"."id" = %b', lock=True)
_OPEN_HAND = Select(
    Hand, '"tables_hand"."table_id" = %b AND "tables_hand"."status" = \'open\'', lock=False
)
_HAND_LOCK = Select(Hand, '"tables_hand"."id" = %b', related="table", lock=True)
_POLICY_JOINS, _POLICY_COLUMNS = policy_columns('"tables_hand"."table_id"', '"tables_table"."game"')
_SETTLING_HAND_LOCK = Select(
    Hand,
    '"tables_hand"."id" = %b',
    related="table",
    extra=_POLICY_COLUMNS,
    joins=_POLICY_JOINS,
    lock=True,
)
_ACTION_ROWS = Rows(HandAction, ("hand", "index", "action", "by", "at"))
_EVENT_ROWS = Rows(TableEvent, ("table", "hand", "kind", "data", "by", "at"))


def _lock_table(table_id: int) -> Table:
    table = (
        _TABLE_LOCK.first(table_id)
        if on_postgresql()
        else Table.objects.select_for_update().filter(pk=table_id).first()
    )
    if table is None:
        raise NotFound(f"table {table_id} does not exist")
    return table


def _open_hand(table: Table) -> Hand | None:
    """The table's open hand, read once its row is locked. (Read in a query of its own: a
    subquery in the locking query would answer as of before a writer it waited for.)"""
    if on_postgresql():
        return _OPEN_HAND.first(table.pk)
    return table.hands.filter(status=Hand.Status.OPEN).first()


def custody_kept() -> bool:
    """The property keeps chip custody: it has a chip set (``custody``)."""
    from django.conf import settings

    from custody.models import ChipSet

    return ChipSet.objects.filter(property_name=settings.CASINO_PROPERTY).exists()


def require_table_actor(user: Any, table: Table) -> None:
    """Floor managers act on every table; a dealer only on the table assigned to them."""
    if has_role(user, FLOOR_MANAGER):
        return
    if has_role(user, DEALER) and table.dealer_id == user.pk:
        return
    raise Forbidden(f"you are not the dealer assigned to table {table.name}")


def game_of(table: Table | Hand) -> Game:
    """The table's (or hand's) game from the registry."""
    return registered_game(table.game)


def changeable(game: Game) -> tuple[str, ...]:
    return (*game.limit_fields, "smallest_chip", "rules")


def _validate_config(game: Game, config: dict[str, Any]) -> None:
    """Check limits and game rules together; raise every problem."""
    problems = Problems()
    limits = {name: config.get(name) for name in game.limit_fields}
    game.check_limits(limits, problems)
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
                game.hand_rules(limits, chip, rules)  # type: ignore[arg-type]
            except RuleError as exc:
                problems.extend(exc)
    problems.raise_if_any()


def _record_change(
    table: Table,
    change: Change,
    user: Any,
    trail: AuditTrail,
    *,
    hand: Hand | None = None,
    before: Any = None,
) -> tuple[str, ...]:
    """Take the game's new table state and record each of its events, audited in ``trail``.
    The state is written with the table's row when the trail is (one write): returns the
    table's fields this changed."""
    changed: tuple[str, ...] = ()
    if change.state != table.game_state:
        table.game_state = change.state
        changed = ("game_state",)
    if change.events:
        events = change.events
        count = len(events)
        _EVENT_ROWS.insert(
            [
                [table.pk] * count,
                [hand.pk if hand is not None else None] * count,
                [event.kind for event in events],
                [stored_text(event.data) for event in events],
                [user.pk] * count,
                [timezone.now()] * count,
            ]
        )
        for event in events:
            trail.add(
                actor=user,
                action=event.kind,
                subject=f"table:{table.pk}",
                table=table,
                hand=hand,
                before=before,
                after=event.data,
            )
    return changed


def _seats_changed(table: Table, user: Any, trail: AuditTrail) -> tuple[str, ...]:
    game = game_of(table)
    before = table.game_state  # replaced by the game's new state, never changed in place
    view = table_view(table)
    return _record_change(table, game.seats_changed(view), user, trail, before=before)


# ---------------------------------------------------------------- tables and seats


@atomic_service
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
) -> Table:
    found = registered_game(game)
    problems = Problems()
    least = max(2, found.min_players)
    if seat_count < least:
        problems.add("seat_count", f"a {found.name} table has at least {least} seats")
    if seat_count > found.max_seats:
        problems.add("seat_count", f"a {found.name} table has at most {found.max_seats} seats")
    for key in limits:
        if key not in found.limit_fields:
            problems.add(
                f"limits.{key}",
                f"{key!r} is not a {found.name} limit; limits: {', '.join(found.limit_fields)}",
            )
    problems.raise_if_any()
    config = {**limits, "smallest_chip": smallest_chip, "rules": rules or {}}
    _validate_config(found, config)
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
        game_state=found.initial_state(),
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
    from hold.services import prepare_after_commit  # its theoretical figures, once committed

    prepare_after_commit(game, table_config(table))
    return table


@atomic_service
def table_set_status(
    *, user: AbstractBaseUser, table_id: int, status: str, counted: bool = False
) -> Table:
    """Open or close a table. Where the property keeps chip custody (it has a chip set), a
    table opens and closes only through its signed opener or closer (``counted``: called by
    ``custody.services``)."""
    table = _lock_table(table_id)
    if not counted and custody_kept():
        word = "opener" if status == Table.Status.OPEN else "closer"
        raise Conflict(
            f"table {table.name} {'opens' if word == 'opener' else 'closes'} with its "
            f"inventory: count the {word} by denomination, signed by the dealer and a floor "
            "manager"
        )
    if status == table.status:
        raise Conflict(f"table {table.name} is already {status}")
    if status == Table.Status.CLOSED and _open_hand(table) is not None:
        raise Conflict(f"table {table.name} has an open hand; settle or void it first")
    before = table.status
    table.status = status
    trail = AuditTrail()
    trail.add(
        actor=user,
        action=f"table_{status}",
        subject=f"table:{table.pk}",
        table=table,
        before={"status": before},
        after={"status": status},
    )
    changed = _seats_changed(table, user, trail) if status == Table.Status.OPEN else ()
    trail.write(table, ("status", *changed))
    return table


@atomic_service
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


@atomic_service
def seat_update(
    *,
    user: AbstractBaseUser,
    table_id: int,
    number: int,
    player: str,
    sitting_out: bool,
) -> Seat:
    """Seat a player, sit them out or empty the seat; the game then moves its table state on
    (an offer passes, a leaving player's choices go)."""
    table = _lock_table(table_id)
    require_table_actor(user, table)
    seat = Seat.objects.filter(table=table, number=number).first()
    if seat is None:
        raise ApplicationError(
            f"table {table.name} has no seat {number} (seats 1-{table.seat_count})", path="seat"
        )
    open_hand = _open_hand(table)
    if open_hand is not None and number in open_hand.seats and not (player and not sitting_out):
        raise Conflict(
            f"seat {number} is in hand {open_hand.number}; it can leave when the "
            "hand is settled or voided"
        )
    before = {"player": seat.player, "sitting_out": seat.sitting_out}
    seat.player = player
    seat.sitting_out = sitting_out
    seat.save(update_fields=["player", "sitting_out"])
    trail = AuditTrail()
    trail.add(
        actor=user,
        action="seat_update",
        subject=f"table:{table.pk}:seat:{number}",
        table=table,
        before=before,
        after={"player": player, "sitting_out": sitting_out},
    )
    trail.write(table, _seats_changed(table, user, trail))
    return seat


# ---------------------------------------------------------------- limit and rule changes


def _check_change_keys(game: Game, changes: dict[str, Any]) -> None:
    problems = Problems()
    for key in changes:
        if key not in changeable(game):
            problems.add(
                f"changes.{key}",
                f"{key!r} cannot be changed; changeable: " + ", ".join(changeable(game)),
            )
    problems.raise_if_any()


@atomic_service
def change_request(
    *, user: AbstractBaseUser, table_id: int, changes: dict[str, Any], reason: str = ""
) -> TableChange:
    table = _lock_table(table_id)
    require_table_actor(user, table)
    game = game_of(table)
    if not isinstance(changes, dict) or not changes:
        raise ApplicationError(
            "changes must name at least one of: " + ", ".join(changeable(game)), path="changes"
        )
    _check_change_keys(game, changes)
    before = table_config(table)
    _validate_config(game, _merged(before, changes))
    change = TableChange.objects.create(table=table, changes=changes, before=before)
    Approval.objects.create(
        kind=Approval.Kind.LIMIT_CHANGE,
        table=table,
        change=change,
        reason=reason,
        detail={"changes": changes, "before": before},
        requested_by=user,
    )
    audit_append(
        actor=user,
        action="table_change_requested",
        subject=f"change:{change.pk}",
        table=table,
        before=before,
        after={"changes": changes, "reason": reason},
    )
    from hold.services import prepare_after_commit  # the figures before and after, once committed

    prepare_after_commit(game.code, before, _merged(before, changes))
    return change


def _merged(config: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """Apply a change: limits replace, ``rules`` merge by key."""
    merged = copy.deepcopy(config)
    for key, value in changes.items():
        if key == "rules" and isinstance(value, dict):
            merged[key] = {**merged.get(key, {}), **value}
        else:
            merged[key] = value
    return merged


def change_apply(*, user: AbstractBaseUser, change: TableChange, note: str) -> TableChange:
    """Apply an approved change from the table's next hand (the approval locked ``change``)."""
    table = _lock_table(change.table_id)
    game = game_of(table)
    before = table_config(table)
    after = _merged(before, change.changes)
    _validate_config(game, after)
    table.limits = {name: after[name] for name in game.limit_fields if after.get(name) is not None}
    table.smallest_chip = after["smallest_chip"]
    table.rules = after["rules"]
    table.save(update_fields=["limits", "smallest_chip", "rules"])
    change.applies_from_hand = table.next_hand_number
    change.save(update_fields=["applies_from_hand"])
    audit_append(
        actor=user,
        action="table_change_approved",
        subject=f"change:{change.pk}",
        table=table,
        before=before,
        after={**after, "applies_from_hand": change.applies_from_hand, "note": note},
    )
    return change


def change_close(
    *, user: AbstractBaseUser, change: TableChange, status: str, note: str
) -> TableChange:
    """A change rejected by the floor, or withdrawn by whoever asked: nothing applies."""
    audit_append(
        actor=user,
        action=f"table_change_{status}",
        subject=f"change:{change.pk}",
        table=change.table,
        before=change.before,
        after={"changes": change.changes, "note": note},
    )
    return change


# ---------------------------------------------------------------- the game between hands


@atomic_service
def game_act(*, user: AbstractBaseUser, table_id: int, action: dict[str, Any]) -> Table:
    """Apply one of the game's between-hand actions (accept the designated-player offer,
    choose the first banker, a returning player's blind choice); its events are recorded and
    audited. An action the state does not allow now is a 409, bad input a 400."""
    table = _lock_table(table_id)
    require_table_actor(user, table)
    game = game_of(table)
    before = table.game_state  # replaced by the game's new state, never changed in place
    change = game.table_act(table_view(table), action)
    trail = AuditTrail()
    trail.write(table, _record_change(table, change, user, trail, before=before))
    return table


# ---------------------------------------------------------------- hands


@atomic_service
def hand_open(*, user: AbstractBaseUser, table_id: int, body: dict[str, Any] | None = None) -> Hand:
    """Open the next hand, freezing what applies to it (rules, limits, pay tables, rake, the
    game's set-up: designated player and bank, button and blinds, banker and kitty, seats)."""
    table = _lock_table(table_id)
    require_table_actor(user, table)
    if table.status != Table.Status.OPEN:
        raise Conflict(f"table {table.name} is closed")
    current = _open_hand(table)
    if current is not None:
        raise Conflict(f"hand {current.number} is still open at table {table.name}")
    game = game_of(table)
    view = table_view(table, hand_open=False)
    opening = game.open_hand(view, body or {})
    rules = game.hand_rules(table.limits, table.smallest_chip, table.rules)
    game.new_hand(opening.config, rules)  # the set-up is checked against the rules it freezes
    hand = Hand(
        table=table,
        number=table.next_hand_number,
        game=table.game,
        rules=rules,
        config=opening.config,
        seats=list(opening.seats),
        opened_by=user,
        opened_at=view.now,
    )
    try:
        create(hand)
    except IntegrityError:
        raise Conflict(f"another hand was opened at table {table.name}") from None
    table.next_hand_number += 1
    before = table.game_state  # replaced by the game's new state, never changed in place
    trail = AuditTrail()
    changed = _record_change(
        table, Change(opening.state, opening.events), user, trail, hand=hand, before=before
    )
    trail.add(
        actor=user,
        action="hand_open",
        subject=f"hand:{hand.pk}",
        table=table,
        hand=hand,
        after={
            "number": hand.number,
            "seats": hand.seats,
            "rules": hand.rules,
            "config": hand.config,
            "setup_sha256": hand_setup_digest(hand),
        },
    )
    trail.write(table, ("next_hand_number", *changed))
    return hand


def _lock_hand(
    hand_id: int,
    statement: Select = _HAND_LOCK,
    annotations: Callable[[], dict[str, Any]] | None = None,
) -> Hand:
    """The hand and its table, both locked, in one statement: on PostgreSQL ``statement``
    (built once, prepared; what it adds to the hand's row is its own), elsewhere the ORM's
    query with ``annotations()`` in their place."""
    if on_postgresql():
        hand = statement.first(hand_id)
        if hand is None:
            raise NotFound(f"hand {hand_id} does not exist")
        return hand  # type: ignore[no-any-return]
    try:
        return (
            Hand.objects.select_for_update()
            .select_related("table")
            .annotate(**(annotations() if annotations else {}))
            .get(pk=hand_id)
        )
    except Hand.DoesNotExist:
        raise NotFound(f"hand {hand_id} does not exist") from None


def _lock_settling_hand(hand_id: int) -> Hand:
    """An open hand no request holds, locked with its table, with the sign-off policy in
    force at the table (``policy_annotated`` reads it), in one statement."""
    return _lock_playable_hand(
        hand_id,
        _SETTLING_HAND_LOCK,
        lambda: policy_annotations("table_id", "table__game"),
    )


def _refuse_if_not_open(hand: Hand) -> None:
    if hand.status != Hand.Status.OPEN:
        raise Conflict(f"hand {hand.number} at table {hand.table.name} is already {hand.status}")


def _lock_open_hand(
    hand_id: int,
    statement: Select = _HAND_LOCK,
    annotations: Callable[[], dict[str, Any]] | None = None,
) -> Hand:
    hand = _lock_hand(hand_id, statement, annotations)
    _refuse_if_not_open(hand)
    return hand


def _append_actions(
    hand: Hand, user: Any, start: int, actions: list[dict[str, Any]], trail: AuditTrail
) -> None:
    """Store actions of a hand from index ``start`` on with their audit entry: one
    ``hand_action`` entry for one action, one ``hand_actions`` entry listing them all for a
    record imported at once."""
    count = len(actions)
    try:
        _ACTION_ROWS.insert(
            [
                [hand.pk] * count,
                list(range(start, start + count)),
                [stored_text(action) for action in actions],
                [user.pk] * count,
                [timezone.now()] * count,
            ]
        )
    except IntegrityError:  # the index is taken: the hand has actions a record would replace
        raise _record_over_actions(hand) from None
    if len(actions) == 1:
        kind, after = "hand_action", {"index": start, "action": actions[0]}
    else:
        kind, after = "hand_actions", {"from_index": start, "actions": actions}
    trail.add(
        actor=user,
        action=kind,
        subject=f"hand:{hand.pk}",
        table=hand.table,
        hand=hand,
        after=after,
    )


def _closed(hand: Hand, user: Any, result: Any, trail: AuditTrail) -> tuple[str, ...]:
    """The game moves its table state on after a hand (``hand.table`` is locked with it);
    returns the table's fields this changed."""
    table = hand.table
    game = game_of(table)
    closed = ClosedHand(hand.number, hand.config, tuple(hand.seats), hand.opened_at, result)
    before = table.game_state  # replaced by the game's new state, never changed in place
    change = game.hand_closed(table_view(table, hand_open=False), closed)
    return _record_change(table, change, user, trail, hand=hand, before=before)


@atomic_service
def hand_settle(
    *, user: AbstractBaseUser, hand_id: int, record: dict[str, Any]
) -> Settlement | Approval:
    """Settle an open hand once, from its own actions; a game whose dealers post a paper
    record (High Card Flush) imports it as the hand's actions first. Atomic: all or
    nothing. A settlement that reaches the table's sign-off tiers or a tax or cash-reporting
    prompt (``payouts/signoff.py``) is not stored: it waits in the approvals queue (the
    answer is that request) until every tier it reaches is signed, each signature by a
    different person than the dealer, and its records are entered."""
    hand = _lock_settling_hand(hand_id)
    require_table_actor(user, hand.table)
    history, imported, result = _settle_from(hand, record)
    data = result.to_dict()  # read by the sign-off and stored: made once
    needs = needs_of(data, policy_annotated(hand))
    if needs.held:
        if imported and hand.actions.exists():  # refused before anything waits on it
            raise _record_over_actions(hand)
        return _ask_signoff(user, hand, record, result, needs)
    return _store_settlement(user, hand, history, imported, result, data=data)


def settle_signed_off(*, user: AbstractBaseUser, approval: Approval) -> Settlement:
    """Store a held settlement once its last signature is given (inside the decision's
    transaction, by ``approvals.services``): the hand is settled again from the same record
    and must come out the same. Its ``hand_settle`` entry names every signature."""
    hand = _lock_open_hand(approval.hand_id)  # type: ignore[arg-type]
    history, imported, result = _settle_from(hand, approval.detail.get("record") or {})
    if result.to_dict() != approval.detail["result"]:
        raise Conflict(
            f"hand {hand.number} no longer settles as it did when the sign-off was asked for"
        )
    return _store_settlement(user, hand, history, imported, result, approval=approval)


def _settle_from(
    hand: Hand, record: dict[str, Any]
) -> tuple[History, list[dict[str, Any]], EngineSettlement]:
    """The hand's history (with a posted record imported as its actions, not yet stored),
    and its settlement; a 400 if the hand is unfinished.

    A posted record is the hand's whole action log: a hand that already has actions is
    refused when the record's are stored (:func:`_append_actions`, by the one-action-per-index
    constraint), so the actions are not read for it."""
    game = game_of(hand)
    imported: list[dict[str, Any]] = []
    if record:
        # The game imports a posted record as the hand's actions (a game that settles from
        # its own actions refuses any record, 400), onto a hand that has none yet.
        imported = list(game.settle_actions(hand.config, hand.rules, record))
        history = History(hand.game, hand.rules, hand.config, tuple(imported))
    else:
        history = hand_history(hand)
    state = game.replay(history)
    if not state.complete:
        raise ApplicationError(
            f"hand {hand.number} is not finished: record its remaining actions first "
            f"({', '.join(sorted({a['type'] for a in state.legal_actions()})) or 'none legal'})"
        )
    return history, imported, state.settle()


def _record_over_actions(hand: Hand) -> Conflict:
    """A posted record refused: the hand was played action by action."""
    return Conflict(
        f"hand {hand.number} already has recorded actions; settle it from them "
        "(send {}) or void it"
    )


def _ask_signoff(
    user: Any,
    hand: Hand,
    record: dict[str, Any],
    result: EngineSettlement,
    needs: Needs,
) -> Approval:
    """The settlement waits for its signatures and records: a payout request carrying the
    settlement it would store and everything it needs, frozen as asked."""
    data = result.to_dict()
    signoff = needs.to_dict()
    first = needs.policy.first
    approval = Approval.objects.create(
        kind=Approval.Kind.PAYOUT,
        table=hand.table,
        hand=hand,
        reason="; ".join(needs.reasons),
        detail={
            "record": record or None,
            "result": data,
            "over": list(needs.reasons),
            # The threshold it was held above, for a line and a seat's net alike (the shift
            # report lists the lines and nets above it).
            "limits": {"line": first, "net": first, "source": needs.policy.source},
            "signoff": signoff,
        },
        requested_by=user,
    )
    _hold(hand)
    trail = AuditTrail()
    trail.add(
        actor=user,
        action="hand_settle_held",
        subject=f"hand:{hand.pk}",
        table=hand.table,
        hand=hand,
        after={
            "approval": approval.pk,
            "over": list(needs.reasons),
            "signoff": signoff,
            "rake": result.rake,
            "nets": {str(s.seat): s.net for s in result.parties},
        },
    )
    trail.write(hand.table)
    return approval


def _store_settlement(
    user: Any,
    hand: Hand,
    history: History,
    imported: list[dict[str, Any]],
    result: EngineSettlement,
    *,
    approval: Approval | None = None,
    data: dict[str, Any] | None = None,
) -> Settlement:
    """Store the settlement (and a posted record's actions), close the hand and let the game
    move its table state on. A signed settlement is the dealer's, signed by ``user``;
    ``data`` is ``result.to_dict()`` when the caller has made it."""
    settled_by = approval.requested_by if approval is not None else user
    trail = AuditTrail()
    if imported:
        _append_actions(hand, settled_by, 0, imported, trail)
    stored = history.to_dict()
    settlement = settlement_store(
        hand=hand, history=stored, result=result if data is None else data, user=settled_by
    )
    hand.status = Hand.Status.SETTLED
    hand.closed_at = settlement.settled_at
    save_fields(hand, ("status", "closed_at"))
    signed = _signatures_of(user, approval) if approval is not None else {}
    trail.add(
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
            "nets": {str(s.seat): s.net for s in result.parties},
            **signed,
            **settlement.binding,  # type: ignore[attr-defined]
        },
    )
    trail.write(hand.table, _closed(hand, user, result, trail))
    return settlement


def _signatures_of(user: Any, approval: Approval) -> dict[str, Any]:
    """What a signed settlement's ``hand_settle`` entry says of its sign-off: the request,
    the last signer (who stored it), every signature with the tier it counted for, and
    whether the regulator is notified."""
    signoff = approval.detail.get("signoff") or {}
    return {
        "signed_off_by": user.get_username(),
        "approval": approval.pk,
        "signatures": [
            {"by": s.signed_by.get_username(), "tier": s.tier + 1, "at": s.signed_at.isoformat()}
            for s in approval.signatures.select_related("signed_by")
        ],
        "regulator_notice": bool(signoff.get("notice")),
    }


# ---------------------------------------------------------------- corrections


@atomic_service
def correction_request(
    *,
    user: AbstractBaseUser,
    hand_id: int,
    reason: str,
    record: dict[str, Any] | None = None,
    actions: list[Any] | None = None,
) -> Approval:
    """Ask for a settled hand to be corrected: the corrected hand (a record, for a game whose
    dealers post one, or the hand's whole corrected list of actions) is settled now, without
    storing anything, and waits in the approvals queue with what it changes for each seat."""
    reason = _reason(reason, "a correction")
    hand = _lock_hand(hand_id)
    require_table_actor(user, hand.table)
    if hand.status != Hand.Status.SETTLED:
        raise Conflict(f"hand {hand.number} is {hand.status}: only a settled hand is corrected")
    _refuse_if_waiting(hand)
    current = hand.settlement
    _, result = _corrected(hand, record, actions)
    data = json.loads(stored_form(result.to_dict()))
    if data == current.result:
        raise ApplicationError(
            f"the corrected hand settles exactly as settlement {current.pk} did: nothing to correct"
        )
    differences = _differences(current.result, data)
    approval = Approval.objects.create(
        kind=Approval.Kind.CORRECTION,
        table=hand.table,
        hand=hand,
        reason=reason,
        detail={
            "record": record,
            "actions": actions if record is None else None,
            "corrects": current.pk,
            "before": current.result,
            "result": data,
            "differences": differences,
        },
        requested_by=user,
    )
    _hold(hand)
    audit_append(
        actor=user,
        action="hand_correction_requested",
        subject=f"hand:{hand.pk}",
        table=hand.table,
        hand=hand,
        after={
            "approval": approval.pk,
            "corrects": current.pk,
            "reason": approval.reason,
            "differences": differences,
        },
    )
    return approval


def correction_apply(*, user: AbstractBaseUser, approval: Approval) -> Settlement:
    """Store an approved correction (inside the decision's transaction): a reversal of the
    settlement in force, every amount negated, and the corrected settlement, the asker's,
    both bound by one audit entry signed by ``user``. The table's state after the hand (a
    rotation, a bank) is not rewound: the correction moves the chips between the parties."""
    hand = _lock_hand(approval.hand_id)  # type: ignore[arg-type]
    current = hand.settlement
    if current is None or current.pk != approval.detail["corrects"]:
        raise Conflict(f"hand {hand.number} was corrected since this correction was asked for")
    history, result = _corrected(
        hand, approval.detail.get("record"), approval.detail.get("actions")
    )
    if json.loads(stored_form(result.to_dict())) != approval.detail["result"]:
        raise Conflict(
            f"hand {hand.number} no longer settles as it did when the correction was asked for"
        )
    asker = approval.requested_by
    reversal = settlement_store(
        hand=hand,
        history=current.history,
        result=reversed_result(current.result, current.pk),
        user=asker,
        kind=Settlement.Kind.REVERSAL,
        corrects=current,
    )
    stored = history.to_dict()
    corrected = settlement_store(
        hand=hand,
        history=stored,
        result=result,
        user=asker,
        kind=Settlement.Kind.CORRECTION,
        corrects=current,
    )
    audit_append(
        actor=user,
        action="hand_correct",
        subject=f"hand:{hand.pk}",
        table=hand.table,
        hand=hand,
        after={
            "approval": approval.pk,
            "requested_by": asker.get_username(),
            "corrects": current.pk,
            "reversal": {
                "settlement": reversal.pk,
                **reversal.binding,  # type: ignore[attr-defined]
            },
            "correction": {
                "settlement": corrected.pk,
                "rake": result.rake,
                "nets": {str(s.seat): s.net for s in result.parties},
                **corrected.binding,  # type: ignore[attr-defined]
            },
            "differences": approval.detail["differences"],
        },
    )
    return corrected


def _corrected(
    hand: Hand, record: dict[str, Any] | None, actions: list[Any] | None
) -> tuple[History, EngineSettlement]:
    """The corrected hand's history and settlement (nothing stored)."""
    game = game_of(hand)
    if (record is None) == (actions is None):
        raise ApplicationError(
            "send the corrected hand: its record (a game whose dealers post one) or its whole "
            "list of actions",
            path="actions",
        )
    if record is not None:
        moves = list(game.settle_actions(hand.config, hand.rules, record))
    elif isinstance(actions, list) and all(isinstance(a, dict) for a in actions):
        moves = list(actions)
    else:
        raise ApplicationError("actions must be a list of action objects", path="actions")
    history = History(hand.game, hand.rules, hand.config, tuple(moves))
    state = game.replay(history)
    if not state.complete:
        raise ApplicationError(
            f"the corrected hand {hand.number} is not finished: it needs more actions "
            f"({', '.join(sorted({a['type'] for a in state.legal_actions()})) or 'none legal'})",
            path="actions",
        )
    return history, state.settle()


def _differences(before: dict[str, Any], after: dict[str, Any]) -> dict[str, int]:
    """Each party's net after minus before, and the rake's (a correction moves these)."""

    old, new = result_nets(before), result_nets(after)
    moved = {seat: new.get(seat, 0) - old.get(seat, 0) for seat in sorted(old.keys() | new.keys())}
    return {**moved, "rake": after["rake"] - before["rake"]}


@atomic_service
def void_request(*, user: AbstractBaseUser, hand_id: int, reason: str) -> Approval:
    """Ask the floor to void an open hand (the table's dealer or a floor manager, with a
    reason). Until a floor manager other than the one asking decides, the hand is frozen:
    nothing is recorded or settled on it."""
    reason = _reason(reason, "a void")
    hand = _lock_open_hand(hand_id)
    require_table_actor(user, hand.table)
    _refuse_if_waiting(hand)
    actions = hand.actions.count()
    approval = Approval.objects.create(
        kind=Approval.Kind.VOID,
        table=hand.table,
        hand=hand,
        reason=reason,
        detail={"hand": hand.number, "seats": hand.seats, "actions": actions},
        requested_by=user,
    )
    _hold(hand)
    audit_append(
        actor=user,
        action="hand_void_requested",
        subject=f"hand:{hand.pk}",
        table=hand.table,
        hand=hand,
        after={"approval": approval.pk, "reason": approval.reason, "actions": actions},
    )
    return approval


def _pending(hand: Hand) -> Approval | None:
    """The request on the hand that waits for the floor (a void, a payout sign-off)."""
    return (
        Approval.objects.select_related("requested_by")
        .filter(hand=hand, status=Approval.Status.PENDING)
        .first()
    )


def _lock_playable_hand(
    hand_id: int,
    statement: Select = _HAND_LOCK,
    annotations: Callable[[], dict[str, Any]] | None = None,
) -> Hand:
    """An open hand no request holds (actions and settling wait for the floor), locked with
    its table (``statement`` and ``annotations`` as :func:`_lock_hand`)."""
    hand = _lock_open_hand(hand_id, statement, annotations)
    _refuse_if_waiting(hand)
    return hand


def _hold(hand: Hand) -> None:
    """The hand waits for the floor from now on (a request on it was made); deciding or
    withdrawing the request lets it go (``approvals.services``)."""
    hand.held = True
    save_fields(hand, ("held",))


def _refuse_if_waiting(hand: Hand) -> None:
    """A hand with a request waiting for the floor (a void, a payout sign-off, a correction)
    takes nothing else until a floor manager decides it (409)."""
    if not hand.held:
        return
    pending = _pending(hand)
    if pending is None:
        raise Conflict(f"hand {hand.number} waits for the floor")
    raise Conflict(
        f"hand {hand.number} already waits for the floor: {pending.get_kind_display()} "
        f"asked by {pending.requested_by.get_username()} ({pending.reason}); nothing is "
        "recorded until a floor manager decides"
    )


def _reason(reason: str, what: str) -> str:
    """A request's reason, trimmed; a 400 naming ``reason`` when there is none."""
    if not reason or not reason.strip():
        raise ApplicationError(f"{what} needs a reason", path="reason")
    return reason.strip()


def hand_void(*, user: AbstractBaseUser, approval: Approval) -> Hand:
    """Void the hand of an approved void request (inside the decision's transaction)."""
    hand = _lock_open_hand(approval.hand_id)  # type: ignore[arg-type]
    hand.status = Hand.Status.VOIDED
    hand.void_reason = approval.reason
    hand.voided_by = user
    hand.closed_at = timezone.now()
    hand.save(update_fields=["status", "void_reason", "voided_by", "closed_at"])
    trail = AuditTrail()
    trail.add(
        actor=user,
        action="hand_void",
        subject=f"hand:{hand.pk}",
        table=hand.table,
        hand=hand,
        before={"status": Hand.Status.OPEN},
        after={
            "status": Hand.Status.VOIDED,
            "reason": hand.void_reason,
            "requested_by": approval.requested_by.get_username(),
            "approval": approval.pk,
        },
    )
    trail.write(hand.table, _closed(hand, user, None, trail))
    return hand
