"""Writes for chip custody: openers and closers, fills and credits, drop counts, and the
review of a closer's variance.

Every function is atomic, locks the table row (or the slip's number series) it decides on,
and appends its audit entries to the table's chain in the same transaction. A signature is
one person's, in a step their role allows, and never a second one by the same person on the
same record; a record's amounts are counts per denomination whose total, when a client sends
one, must match.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError
from django.utils import timezone

from approvals.models import Approval
from casino.core.errors import ApplicationError, Conflict, Forbidden, NotFound
from casino.core.money import major_text
from casino.core.roles import (
    CAGE,
    COUNT_TEAM,
    FLOOR_MANAGER,
    has_role,
    user_roles,
)
from casino.core.transactions import atomic_service
from casino.rules.errors import Problem
from payouts.chain import AuditTrail
from payouts.figures import gaming_day
from tables.models import Hand, Table
from tables.services import require_table_actor, table_set_status

from . import selectors
from .models import ChipSet, Denomination, DropCount, Inventory, Signature, Slip, SlipSeries

# ---------------------------------------------------------------- amounts


def chip_set() -> ChipSet:
    """The property's chip set (``CASINO_PROPERTY``); a clear error until one is set up."""
    found = ChipSet.objects.filter(property_name=settings.CASINO_PROPERTY).first()
    if found is None:
        raise Conflict(
            f"no chip set for {settings.CASINO_PROPERTY!r}: a manager adds its denominations "
            "first (the admin's Chip sets, or manage.py load_demo)"
        )
    return found


def counted(
    counts: Mapping[str, Any],
    chips: ChipSet,
    *,
    form: str = Denomination.Form.CHIP,
    path: str = "counts",
    total: int | None = None,
    some: bool = False,
) -> tuple[dict[str, int], int]:
    """``counts`` checked against the set's denominations of ``form``: ``{value: count}``
    with whole counts of 0 or more, keyed by a denomination's value in minor units. Returns
    them (zero counts dropped, by value) and their total; ``total``, when given, must match.
    ``some``: at least one chip."""
    values = set(chips.denominations.filter(form=form).values_list("value", flat=True))
    problems: list[Problem] = []
    if not isinstance(counts, Mapping):
        raise ApplicationError(
            f'{path} is an object of denomination → count, such as {{"500": 20}}', path=path
        )
    clean: dict[int, int] = {}
    for key, count in counts.items():
        where = f"{path}[{key}]"  # as the API names an object's numeric key
        try:
            value = int(str(key))
        except ValueError:
            problems.append(Problem(where, f"{key!r} is not a denomination (minor units)"))
            continue
        if value not in values:
            known = ", ".join(major_text(v) for v in sorted(values)) or "none"
            problems.append(
                Problem(where, f"{major_text(value)} is not a {form} of this set ({known})")
            )
            continue
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            problems.append(Problem(where, f"the count of {major_text(value)} is a whole number"))
            continue
        if count:
            clean[value] = clean.get(value, 0) + count
    if problems:
        raise ApplicationError(problems[0].message, problems=problems)
    summed = sum(value * count for value, count in clean.items())
    if total is not None and total != summed:
        raise ApplicationError(
            f"the counts add up to {major_text(summed)}, not the {major_text(total)} given",
            path=f"{path}_total" if path != "counts" else "total",
        )
    if some and not summed:
        raise ApplicationError("count at least one chip", path=path)
    return {str(value): clean[value] for value in sorted(clean)}, summed


def _lock_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise NotFound(f"table {table_id} does not exist") from None


def _roles(user: Any) -> list[str]:
    return sorted(user_roles(user))


def _sign(trail: AuditTrail, table: Table, user: Any, step: str, **record: Any) -> Signature:
    """``user``'s signature on one record in ``step`` (refused: a second by the same
    person), audited with the record."""
    ((field, row),) = record.items()
    if row.signatures.filter(signed_by=user).exists():
        raise Conflict(
            f"you already signed this {_what(row)}; the next signature is another person's"
        )
    signature = Signature.objects.create(
        **record, step=step, signed_by=user, roles=_roles(user), signed_at=timezone.now()
    )
    trail.add(
        actor=user,
        action="custody_sign",
        subject=f"{field}:{row.pk}",
        table=table,
        after={"step": step, "roles": signature.roles, field: row.pk},
    )
    return signature


def _what(row: Any) -> str:
    if isinstance(row, Inventory):
        return row.kind
    if isinstance(row, Slip):
        return f"{row.kind} slip {row.label}"
    return "drop count"


def _table_step(user: Any, table: Table, taken: set[str]) -> str:
    """The table-side step ``user`` signs in: ``dealer`` (the table's dealer) or ``floor``;
    each once, by two different people."""
    require_table_actor(user, table)
    step = Signature.Step.FLOOR if has_role(user, FLOOR_MANAGER) else Signature.Step.DEALER
    if step in taken:
        other = "the dealer" if step == Signature.Step.FLOOR else "a floor manager"
        raise Forbidden(
            f"the {Signature.Step(step).label} has signed; the other signature is {other}'s"
        )
    return step


# ---------------------------------------------------------------- openers and closers


@atomic_service
def inventory_count(
    *,
    user: AbstractBaseUser,
    table_id: int,
    kind: str,
    counts: Mapping[str, Any],
    total: int | None = None,
    reason: str = "",
) -> Inventory:
    """The dealer or a floor manager counts the tray (an opener for a closed table, a closer
    for an open one with no hand open) and signs first. A count not yet co-signed is
    replaced by a new one (kept, withdrawn). A closer further from the expected tray than the
    set's report line needs ``reason``."""
    table = _lock_table(table_id)
    require_table_actor(user, table)
    chips = chip_set()
    clean, summed = counted(counts, chips, total=total)
    want = Table.Status.CLOSED if kind == Inventory.Kind.OPENER else Table.Status.OPEN
    if table.status != want:
        raise Conflict(
            f"table {table.name} is {table.status}: an {kind} is counted when it is {want}"
        )
    fields: dict[str, Any] = {}
    if kind == Inventory.Kind.OPENER:
        fields["proposed"] = selectors.last_closer(table)
    else:
        if table.hands.filter(status=Hand.Status.OPEN).exists():
            raise Conflict(f"table {table.name} has an open hand; settle or void it first")
        travelling = table.slips.filter(kind=Slip.Kind.FILL, status=Slip.Status.ISSUED).first()
        if travelling is not None:
            raise Conflict(
                f"fill {travelling.label} is on its way to table {table.name}: receive it (or "
                "void it) before the closer"
            )
        window = selectors.window(table)
        if window.opener is None:
            raise Conflict(f"table {table.name} has no signed opener to close against")
        variance = summed - window.expected_tray
        if abs(variance) > chips.report_variance_above and not reason.strip():
            raise ApplicationError(
                f"the closer is {major_text(variance)} from the expected "
                f"{major_text(window.expected_tray)}: above "
                f"{major_text(chips.report_variance_above)} it needs a reason",
                path="reason",
            )
        fields.update(opener=window.opener, expected=window.expected_tray, variance=variance)
    trail = AuditTrail()
    pending = table.inventories.filter(status=Inventory.Status.COUNTED).first()
    if pending is not None:
        pending.status = Inventory.Status.WITHDRAWN
        pending.save(update_fields=["status"])
        trail.add(
            actor=user,
            action="custody_withdraw",
            subject=f"inventory:{pending.pk}",
            table=table,
            after={"kind": pending.kind, "replaced": True},
        )
    inventory = Inventory.objects.create(
        table=table,
        kind=kind,
        gaming_day=gaming_day(),
        counts=clean,
        total=summed,
        reason=reason.strip(),
        counted_by=user,
        **fields,
    )
    trail.add(
        actor=user,
        action=f"custody_{kind}",
        subject=f"inventory:{inventory.pk}",
        table=table,
        after={
            "counts": clean,
            "total": summed,
            "expected": inventory.expected,
            "variance": inventory.variance,
            "reason": inventory.reason,
            "proposed": inventory.proposed_id,
        },
    )
    _sign(trail, table, user, _table_step(user, table, set()), inventory=inventory)
    trail.write(table)
    return inventory


@atomic_service
def inventory_sign(*, user: AbstractBaseUser, inventory_id: int) -> Inventory:
    """The second signature (the dealer's and a floor manager's, two people): an opener opens
    the table, a closer closes it; a closer beyond the report line waits for review in the
    approvals queue."""
    row = Inventory.objects.filter(pk=inventory_id).only("table_id").first()
    if row is None:
        raise NotFound(f"inventory {inventory_id} does not exist")
    table = _lock_table(row.table_id)
    inventory = Inventory.objects.select_for_update().get(pk=inventory_id)
    if inventory.status != Inventory.Status.COUNTED:
        raise Conflict(f"{inventory.kind} {inventory.pk} is {inventory.status}")
    taken = set(inventory.signatures.values_list("step", flat=True))
    if inventory.signatures.filter(signed_by=user).exists():
        raise Conflict(
            f"you already signed this {inventory.kind}; the second signature is another person's"
        )
    if inventory.kind == Inventory.Kind.CLOSER:
        now = selectors.window(table).expected_tray
        if now != inventory.expected:
            raise Conflict(
                f"the expected tray moved since the closer was counted ({major_text(now)}, "
                f"not {major_text(inventory.expected)}: a hand or a slip since): count it again"
            )
    trail = AuditTrail()
    _sign(trail, table, user, _table_step(user, table, taken), inventory=inventory)
    inventory.status = Inventory.Status.SIGNED
    inventory.signed_at = timezone.now()
    inventory.save(update_fields=["status", "signed_at"])
    trail.write(table)
    status = Table.Status.OPEN if inventory.kind == Inventory.Kind.OPENER else Table.Status.CLOSED
    table_set_status(user=user, table_id=table.pk, status=status, counted=True)
    if inventory.kind == Inventory.Kind.CLOSER:
        _review_variance(user, table, inventory)
    return inventory


def _review_variance(user: Any, table: Table, closer: Inventory) -> None:
    chips = chip_set()
    variance = closer.variance or 0
    if abs(variance) <= chips.report_variance_above:
        return
    notify = abs(variance) > chips.notify_variance_above
    Approval.objects.create(
        kind=Approval.Kind.VARIANCE,
        table=table,
        reason=closer.reason,
        requested_by=user,
        detail={
            "inventory": closer.pk,
            "counted": closer.total,
            "expected": closer.expected,
            "variance": variance,
            "report_above": chips.report_variance_above,
            "notify_above": chips.notify_variance_above,
            "notify": notify,
            "gaming_day": closer.gaming_day.isoformat(),
        },
    )


def variance_reviewed(user: Any, approval: Approval, status: str, note: str) -> None:
    """A floor manager (not the one who signed the closer) accepts a variance or sends it
    back for investigation; audited on the table."""
    from payouts.services import audit_append

    audit_append(
        actor=user,
        action=f"custody_variance_{status}",
        subject=f"inventory:{approval.detail.get('inventory')}",
        table=approval.table,
        after={"approval": approval.pk, "variance": approval.detail.get("variance"), "note": note},
    )


# ---------------------------------------------------------------- fills and credits


def _next_number(property_: str, kind: str, year: int) -> int:
    """The series' next number, its row locked until the caller's transaction ends: a
    rolled-back slip gives its number back, so numbers have no gaps."""
    SlipSeries.objects.bulk_create(
        [SlipSeries(property_name=property_, kind=kind, year=year)], ignore_conflicts=True
    )
    series = SlipSeries.objects.select_for_update().get(
        property_name=property_, kind=kind, year=year
    )
    series.last += 1
    series.save(update_fields=["last"])
    return series.last


@atomic_service
def slip_request(
    *,
    user: AbstractBaseUser,
    table_id: int,
    kind: str,
    counts: Mapping[str, Any],
    total: int | None = None,
) -> Slip:
    """A floor manager asks for a fill or a credit for an open table; the slip takes the next
    number of its series."""
    if not has_role(user, FLOOR_MANAGER):
        raise Forbidden(f"a {kind} is requested by a floor manager")
    table = _lock_table(table_id)
    if table.status != Table.Status.OPEN:
        raise Conflict(f"table {table.name} is closed: fills and credits go to an open table")
    chips = chip_set()
    clean, summed = counted(counts, chips, total=total, some=True)
    now = timezone.now()
    year = timezone.localtime(now).year
    slip = Slip.objects.create(
        kind=kind,
        property_name=chips.property_name,
        year=year,
        number=_next_number(chips.property_name, kind, year),
        table=table,
        gaming_day=gaming_day(now),
        counts=clean,
        total=summed,
        requested_by=user,
        requested_at=now,
    )
    trail = AuditTrail()
    trail.add(
        actor=user,
        action=f"custody_{kind}_request",
        subject=f"slip:{slip.pk}",
        table=table,
        after={"slip": slip.label, "counts": clean, "total": summed},
    )
    trail.write(table)
    return slip


def _lock_slip(slip_id: int) -> tuple[Table, Slip]:
    row = Slip.objects.filter(pk=slip_id).only("table_id").first()
    if row is None:
        raise NotFound(f"slip {slip_id} does not exist")
    table = _lock_table(row.table_id)
    return table, Slip.objects.select_for_update().get(pk=slip_id)


def _cage_step(user: Any, slip: Slip) -> str:
    if not has_role(user, CAGE):
        raise Forbidden(f"the cage signs {slip.label} now (a cage user)")
    return Signature.Step.CAGE


@atomic_service
def slip_sign(
    *,
    user: AbstractBaseUser,
    slip_id: int,
    counts: Mapping[str, Any] | None = None,
    total: int | None = None,
) -> Slip:
    """The next signature a slip waits for. A fill: the cage (what left the cage), then the
    dealer and a floor manager at the table; a credit: the dealer and a floor manager (what
    left the table), then the cage. Each signer may send the counts they saw, which must be
    the slip's."""
    table, slip = _lock_slip(slip_id)
    if slip.status in (Slip.Status.RECEIVED, Slip.Status.VOID):
        raise Conflict(f"{slip.label} is {slip.status}")
    if counts is not None:
        clean, summed = counted(counts, chip_set(), total=total, some=True)
        if clean != slip.counts:
            raise ApplicationError(
                f"the chips counted ({major_text(summed)}) are not the slip's "
                f"({major_text(slip.total)}): void the slip and request a new one",
                path="counts",
            )
    cage_first = slip.kind == Slip.Kind.FILL
    at_cage = (slip.status == Slip.Status.REQUESTED) == cage_first
    taken = set(slip.signatures.values_list("step", flat=True))
    if slip.signatures.filter(signed_by=user).exists():
        raise Conflict(f"you already signed {slip.label}; each signature is another person's")
    if not at_cage and table.status != Table.Status.OPEN:
        raise Conflict(
            f"table {table.name} is closed: {slip.label} is signed at an open table (or voided)"
        )
    step = _cage_step(user, slip) if at_cage else _table_step(user, table, taken)
    trail = AuditTrail()
    _sign(trail, table, user, step, slip=slip)
    table_done = {Signature.Step.DEALER, Signature.Step.FLOOR} <= taken | {step}
    moved = at_cage or table_done
    if moved:
        last = slip.status == Slip.Status.ISSUED
        slip.status = Slip.Status.RECEIVED if last else Slip.Status.ISSUED
        if last:
            slip.completed_at = timezone.now()
        else:
            slip.issued_at = timezone.now()
        slip.save(update_fields=["status", "issued_at", "completed_at"])
        trail.add(
            actor=user,
            action=f"custody_{slip.kind}_{slip.status}",
            subject=f"slip:{slip.pk}",
            table=table,
            after={"slip": slip.label, "total": slip.total},
        )
    trail.write(table)
    return slip


@atomic_service
def slip_void(*, user: AbstractBaseUser, slip_id: int, reason: str) -> Slip:
    """A floor manager voids a slip not yet received; it keeps its number, shown void."""
    if not has_role(user, FLOOR_MANAGER):
        raise Forbidden("a slip is voided by a floor manager")
    if not reason.strip():
        raise ApplicationError("a slip is voided with a reason", path="reason")
    table, slip = _lock_slip(slip_id)
    if slip.status in (Slip.Status.RECEIVED, Slip.Status.VOID):
        raise Conflict(f"{slip.label} is {slip.status}: it cannot be voided")
    if slip.kind == Slip.Kind.CREDIT and slip.status == Slip.Status.ISSUED:
        raise Conflict(f"the chips of {slip.label} left the table: the cage receives them")
    before = slip.status
    slip.status, slip.void_reason, slip.voided_by = Slip.Status.VOID, reason.strip(), user
    slip.save(update_fields=["status", "void_reason", "voided_by"])
    trail = AuditTrail()
    trail.add(
        actor=user,
        action=f"custody_{slip.kind}_void",
        subject=f"slip:{slip.pk}",
        table=table,
        before={"status": before},
        after={"slip": slip.label, "reason": slip.void_reason},
    )
    trail.write(table)
    return slip


@atomic_service
def slip_print(*, user: AbstractBaseUser, slip_id: int) -> Slip:
    """A print of the slip, counted and audited: every print after the first is a reprint."""
    table, slip = _lock_slip(slip_id)
    slip.prints += 1
    slip.save(update_fields=["prints"])
    trail = AuditTrail()
    trail.add(
        actor=user,
        action=f"custody_{slip.kind}_print",
        subject=f"slip:{slip.pk}",
        table=table,
        after={"slip": slip.label, "print": slip.prints, "reprint": slip.prints > 1},
    )
    trail.write(table)
    return slip


# ---------------------------------------------------------------- the drop count


def _counter(user: Any) -> None:
    if not has_role(user, COUNT_TEAM):
        raise Forbidden("the drop is counted and signed by the count team")


@atomic_service
def drop_count(
    *,
    user: AbstractBaseUser,
    table_id: int,
    gaming_day: Any,
    cash: Mapping[str, Any],
    chips: Mapping[str, Any],
    cash_total: int | None = None,
    chips_total: int | None = None,
    corrects: int | None = None,
    reason: str = "",
) -> DropCount:
    """A counter enters a drop box's count (signing it first); a correction names the
    count it corrects, with a reason, and keeps it."""
    _counter(user)
    table = _lock_table(table_id)
    chip_set_ = chip_set()
    cash_counts, cash_sum = counted(
        cash, chip_set_, form=Denomination.Form.CASH, path="cash", total=cash_total
    )
    chip_counts, chip_sum = counted(chips, chip_set_, path="chips", total=chips_total)
    original = None
    if corrects is not None:
        original = DropCount.objects.filter(pk=corrects, table=table).first()
        if original is None:
            raise NotFound(f"drop count {corrects} of table {table.name} does not exist")
        if hasattr(original, "correction"):
            raise Conflict(
                f"drop count {original.pk} was corrected by {original.correction.pk}: correct "
                "the latest"
            )
        if not reason.strip():
            raise ApplicationError("a correction says why", path="reason")
        gaming_day = original.gaming_day
    elif DropCount.objects.filter(table=table, gaming_day=gaming_day).exists():
        raise Conflict(
            f"table {table.name}'s drop box of {gaming_day} is counted: a change is a "
            "correction of the latest count (corrects), with a reason"
        )
    try:
        drop = DropCount.objects.create(
            table=table,
            gaming_day=gaming_day,
            cash=cash_counts,
            chips=chip_counts,
            cash_total=cash_sum,
            chips_total=chip_sum,
            total=cash_sum + chip_sum,
            corrects=original,
            reason=reason.strip(),
            counted_by=user,
        )
    except IntegrityError:
        raise Conflict("that count was corrected at the same moment: read it again") from None
    trail = AuditTrail()
    trail.add(
        actor=user,
        action="custody_drop_correct" if original else "custody_drop",
        subject=f"drop:{drop.pk}",
        table=table,
        after={
            "gaming_day": str(gaming_day),
            "cash": cash_counts,
            "chips": chip_counts,
            "total": drop.total,
            "corrects": original.pk if original else None,
            "reason": drop.reason,
        },
    )
    _sign(trail, table, user, Signature.Step.COUNT, drop=drop)
    trail.write(table)
    return drop


@atomic_service
def drop_sign(*, user: AbstractBaseUser, drop_id: int) -> DropCount:
    """The second counter's signature (another member of the count team)."""
    _counter(user)
    row = DropCount.objects.filter(pk=drop_id).only("table_id").first()
    if row is None:
        raise NotFound(f"drop count {drop_id} does not exist")
    table = _lock_table(row.table_id)
    drop = DropCount.objects.get(pk=drop_id)
    if drop.signatures.count() >= 2:
        raise Conflict(f"drop count {drop.pk} is signed by both counters")
    trail = AuditTrail()
    _sign(trail, table, user, Signature.Step.COUNT, drop=drop)
    trail.write(table)
    return drop


# ---------------------------------------------------------------- set-up

#: A common chip set in minor units of a two-digit currency (US colours): the demo's and
#: the admin's starting point.
STANDARD_CHIPS = (
    (25, "light blue", "#7fb3d5"),
    (100, "white", "#f4f4f4"),
    (500, "red", "#c0392b"),
    (2_500, "green", "#1e8449"),
    (10_000, "black", "#222222"),
    (50_000, "purple", "#6c3483"),
    (100_000, "yellow", "#f1c40f"),
)
STANDARD_NOTES = (100, 500, 1_000, 2_000, 5_000, 10_000)


@atomic_service
def chip_set_setup(
    *,
    property_name: str | None = None,
    chips: tuple[tuple[int, str, str], ...] = STANDARD_CHIPS,
    notes: tuple[int, ...] = STANDARD_NOTES,
) -> ChipSet:
    """The property's chip set, created with ``chips`` (value, colour, colour code) and cash
    ``notes`` where it has none (an existing set is kept as it is)."""
    found, created = ChipSet.objects.get_or_create(
        property_name=property_name or settings.CASINO_PROPERTY,
        defaults={"currency": settings.CURRENCY},
    )
    if created:
        Denomination.objects.bulk_create(
            [
                Denomination(chip_set=found, form=Denomination.Form.CHIP, value=v, colour=c, hex=h)
                for v, c, h in chips
            ]
            + [Denomination(chip_set=found, form=Denomination.Form.CASH, value=v) for v in notes]
        )
    return found


@atomic_service
def chip_set_update(
    *,
    user: AbstractBaseUser | None,
    chips: tuple[tuple[int, str, str], ...] = (),
    notes: tuple[int, ...] = (),
    report_above: int | None = None,
    notify_above: int | None = None,
) -> ChipSet:
    """Add chip and note denominations to the property's chip set (made if it has none)
    and set its variance lines; audited in the house chain. A denomination is never removed
    or revalued: past counts name it."""
    from payouts.services import audit_append

    found = chip_set_setup(chips=(), notes=())
    before = _set_words(found)
    for value, colour, code in chips:
        Denomination.objects.update_or_create(
            chip_set=found,
            form=Denomination.Form.CHIP,
            value=value,
            defaults={"colour": colour, "hex": code},
        )
    for value in notes:
        Denomination.objects.get_or_create(chip_set=found, form=Denomination.Form.CASH, value=value)
    if report_above is not None:
        found.report_variance_above = report_above
    if notify_above is not None:
        found.notify_variance_above = notify_above
    if found.notify_variance_above < found.report_variance_above:
        raise ApplicationError(
            "the notify line is below the report line: it is the higher of the two",
            path="notify_above",
        )
    found.save()
    audit_append(
        actor=user,
        action="chip_set",
        subject=f"chip_set:{found.pk}",
        before=before,
        after=_set_words(found),
    )
    return found


def _set_words(chips: ChipSet) -> dict[str, Any]:
    return {
        "property": chips.property_name,
        "chips": {str(d.value): d.colour for d in chips.denominations.filter(form="chip")},
        "notes": sorted(chips.denominations.filter(form="cash").values_list("value", flat=True)),
        "report_above": chips.report_variance_above,
        "notify_above": chips.notify_variance_above,
    }
