"""Entering the records a held payout needs, and what is still missing.

A floor manager who may sign a payout request names the patron for a seat (an existing
patron by id, or a minimal identity, matched to the patron already on record by their ID),
which writes the seat's :class:`PatronPayout` (the MTL entry when above the MTL line) and its
W-2G records; and records a CTR for a patron whose gaming day goes above the CTR line with
this payout. Each entry is audited in the table's chain with the patron's id and masked
numbers only (the audit log is exported; the identity stays in the database).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, Sum

from approvals.models import Approval
from casino.core.errors import ApplicationError, Conflict, NotFound
from casino.rules.errors import Problem
from payouts.chain import audit_append
from payouts.figures import gaming_day
from payouts.models import Settlement
from payouts.signoff import amount_words

from .models import CTR, W2G, Patron, PatronPayout, RegulatorNotice

LIMITS = {"name": 200, "id_number": 40, "address": 300, "tin": 20}


def signoff_of(approval: Approval) -> dict[str, Any]:
    """What the payout request needs, as frozen when it was asked for."""
    return (approval.detail or {}).get("signoff") or {}


def day_of(approval: Approval) -> dt.date:
    """The gaming day a held payout belongs to: the day the dealer settled the hand."""
    return gaming_day(approval.requested_at)


def _clean(value: Any) -> str:
    return " ".join(str(value).split()) if isinstance(value, str) else ""


def _number(value: Any) -> str:
    """An ID or taxpayer number as stored: capitals, without spaces."""
    return "".join(str(value).split()).upper() if isinstance(value, str) else ""


@dataclass(frozen=True)
class Seat:
    """A winning seat of a held payout and what it needs."""

    seat: int
    win: int
    w2g: list[dict[str, Any]]
    mtl: bool

    @property
    def needs_patron(self) -> bool:
        return bool(self.w2g) or self.mtl

    @property
    def w2g_shown(self) -> list[dict[str, Any]]:
        """The W-2G lines with their wager's name in words."""
        return [{**line, "words": str(line["name"]).replace("_", " ")} for line in self.w2g]


def seats_of(approval: Approval) -> dict[int, Seat]:
    signoff = signoff_of(approval)
    mtl = set(signoff.get("mtl") or [])
    w2g: dict[int, list[dict[str, Any]]] = {}
    for line in signoff.get("w2g") or []:
        w2g.setdefault(int(line["seat"]), []).append(line)
    return {
        int(seat): Seat(int(seat), int(win), w2g.get(int(seat), []), int(seat) in mtl)
        for seat, win in (signoff.get("wins") or {}).items()
    }


# ---------------------------------------------------------------- patrons


def _patron(user: Any, given: Mapping[str, Any], where: str, who: str, full: bool) -> Patron:
    """The patron ``given`` names: ``{"patron": id}``, or an identity matched by its ID to
    the patron on record (its blanks filled, its address and taxpayer id replaced by newer
    ones given), else recorded new. ``full``: the address and taxpayer id are required.
    ``where`` is the problems' path, ``who`` their words ("seat 3")."""
    problems: list[Problem] = []
    if not isinstance(given, Mapping):
        raise ApplicationError(f"{who}: the patron is an object", path=where)
    if given.get("patron") is not None:
        pk = given["patron"]
        patron = (
            Patron.objects.filter(pk=pk).first()
            if isinstance(pk, int) and not isinstance(pk, bool) and 0 < pk < 2**63
            else None
        )
        if patron is None:
            raise ApplicationError(f"{who}: there is no patron {pk!r}", path=f"{where}.patron")
        address, tin = _clean(given.get("address")), _number(given.get("tin"))
        return _completed(user, patron, address, tin, where, who, full)
    name, address = _clean(given.get("name")), _clean(given.get("address"))
    id_kind, id_number, tin = (
        given.get("id_kind"),
        _number(given.get("id_number")),
        _number(given.get("tin")),
    )
    if id_kind not in Patron.IdKind.values:
        kinds = ", ".join(str(label) for label in Patron.IdKind.labels)
        problems.append(Problem(f"{where}.id_kind", f"{who}: the ID is one of: {kinds}"))
    if not id_number:
        problems.append(Problem(f"{where}.id_number", f"{who}: the ID's number is missing"))
    for key, value in (
        ("name", name),
        ("id_number", id_number),
        ("address", address),
        ("tin", tin),
    ):
        if len(value) > LIMITS[key]:
            problems.append(Problem(f"{where}.{key}", f"{who}: at most {LIMITS[key]} characters"))
    if problems:
        raise ApplicationError(problems[0].message, problems=problems)
    patron = Patron.objects.select_for_update().filter(id_kind=id_kind, id_number=id_number).first()
    if patron is None:
        if not name:
            problems.append(Problem(f"{where}.name", f"{who}: the patron's name is missing"))
        if full and not address:
            problems.append(
                Problem(f"{where}.address", f"{who}: a W-2G or a CTR needs the address")
            )
        if full and not tin:
            problems.append(
                Problem(f"{where}.tin", f"{who}: a W-2G or a CTR needs the taxpayer id")
            )
        if problems:
            raise ApplicationError(problems[0].message, problems=problems)
        patron = Patron.objects.create(
            name=name,
            id_kind=id_kind,
            id_number=id_number,
            address=address,
            tin=tin,
            created_by=user,
        )
        audit_append(
            actor=user,
            action="patron_recorded",
            subject=f"patron:{patron.pk}",
            after={"id_kind": id_kind, "id_number": patron.id_masked, "tin": patron.tin_masked},
        )
        return patron
    if name and name.casefold() != patron.name.casefold():
        raise ApplicationError(
            f"{who}: this {patron.get_id_kind_display()} ({patron.id_masked}) is on record "
            f"for {patron.name}; check the ID",
            path=f"{where}.name",
        )
    return _completed(user, patron, address, tin, where, who, full)


def _completed(
    user: Any, patron: Patron, address: str, tin: str, where: str, who: str, full: bool
) -> Patron:
    """The patron on record with a newer address or taxpayer id given (audited, the number
    masked); a W-2G or a CTR (``full``) refused while either is still missing."""
    for key, value in (("address", address), ("tin", tin)):
        if len(value) > LIMITS[key]:
            raise ApplicationError(
                f"{who}: at most {LIMITS[key]} characters", path=f"{where}.{key}"
            )
    changed = [
        key
        for key, value in (("address", address), ("tin", tin))
        if value and value != getattr(patron, key)
    ]
    for key in changed:
        setattr(patron, key, address if key == "address" else tin)
    if full and not patron.complete:
        missing = "address" if not patron.address.strip() else "tin"
        raise ApplicationError(
            f"{who}: a W-2G or a CTR needs {patron.name}'s address and taxpayer id",
            path=f"{where}.{missing}",
        )
    if changed:
        patron.save(update_fields=changed)
        audit_append(
            actor=user,
            action="patron_updated",
            subject=f"patron:{patron.pk}",
            after={"changed": changed, "tin": patron.tin_masked},
        )
    return patron


# ---------------------------------------------------------------- totals and what is missing


def day_total(patron: Patron, day: dt.date, approval: Approval) -> int:
    """The patron's recorded wins in the gaming day: the stored ones and this request's."""
    total = (
        PatronPayout.objects.filter(patron=patron, gaming_day=day)
        .filter(Q(settlement__isnull=False) | Q(approval=approval))
        .aggregate(total=Sum("amount"))["total"]
    )
    return int(total or 0)


def ctr_on_record(patron: Patron, day: dt.date, approval: Approval) -> CTR | None:
    """The patron's CTR for the day, recorded with a stored payout or this request's."""
    return (
        CTR.objects.filter(patron=patron, gaming_day=day)
        .filter(Q(settlement__isnull=False) | Q(approval=approval))
        .first()
    )


@dataclass
class SeatRecords:
    """A winning seat of a held payout: what it needs, what is entered and what is missing."""

    seat: Seat
    payout: PatronPayout | None
    w2g: list[W2G]
    day_total: int | None
    ctr_line: int
    ctr: CTR | None

    @property
    def ctr_needed(self) -> bool:
        return self.day_total is not None and self.day_total > self.ctr_line

    @property
    def missing(self) -> list[str]:
        seat = self.seat
        words: list[str] = []
        if seat.w2g and self.payout is None:
            words.append(
                f"seat {seat.seat}: a W-2G (the winner's name, ID, address and taxpayer id)"
            )
        elif seat.mtl and self.payout is None:
            words.append(f"seat {seat.seat}: an MTL entry (the patron's name and ID)")
        if self.ctr_needed and self.ctr is None and self.payout is not None:
            words.append(
                f"seat {seat.seat}: a CTR ({self.payout.patron.name}'s gaming day comes to "
                f"{amount_words(self.day_total)}, above {amount_words(self.ctr_line)})"
            )
        return words


def records_of(approval: Approval) -> list[SeatRecords]:
    """Each winning seat of a held payout with its records (in seat order)."""
    signoff = signoff_of(approval)
    line = int((signoff.get("prompts") or {}).get("ctr_above") or 0)
    payouts = {
        p.seat: p
        for p in PatronPayout.objects.filter(approval=approval)
        .select_related("patron")
        .prefetch_related("w2g")
    }
    day = day_of(approval)
    rows = []
    for number, seat in sorted(seats_of(approval).items()):
        payout = payouts.get(number)
        total = ctr = None
        if payout is not None:
            total = day_total(payout.patron, day, approval)
            ctr = ctr_on_record(payout.patron, day, approval)
        rows.append(
            SeatRecords(seat, payout, list(payout.w2g.all()) if payout else [], total, line, ctr)
        )
    return rows


def missing_records(approval: Approval) -> list[str]:
    """What the request cannot be signed without, in words (empty: nothing)."""
    return [word for row in records_of(approval) for word in row.missing]


# ---------------------------------------------------------------- entering records


def records_enter(
    *,
    user: Any,
    approval: Approval,
    patrons: Mapping[str, Any] | None = None,
    ctr: list[Any] | None = None,
) -> list[SeatRecords]:
    """Name the patron of seats of a held payout (``{"3": {...}}``) and record the CTRs of
    seats whose patron's gaming day goes above the CTR line (``[3]``); inside the caller's
    transaction, with the request locked. A seat's patron, once named, stays (a wrong one is
    corrected by sending the payout back)."""
    if approval.kind != Approval.Kind.PAYOUT:
        raise ApplicationError("only a payout sign-off takes patrons and filings", path="patrons")
    seats = seats_of(approval)
    signoff = signoff_of(approval)
    day = day_of(approval)
    for key, given in (patrons or {}).items():
        where = f"patrons.{key}"
        number = int(key) if str(key).isdigit() and len(str(key)) < 4 else None
        if number is None or number not in seats:
            raise ApplicationError(
                f"seat {key} wins nothing on this hand; a patron is named for a "
                f"winning seat ({', '.join(str(s) for s in sorted(seats)) or 'none'})",
                path=where,
            )
        seat = seats[number]
        existing = PatronPayout.objects.filter(approval=approval, seat=number).first()
        patron = _patron(user, given, where, f"seat {number}", full=bool(seat.w2g))
        if existing is not None:
            if existing.patron_id != patron.pk:
                raise Conflict(
                    f"seat {number}'s patron is already recorded "
                    f"({existing.patron.name}); send the payout back to change it",
                    path=where,
                )
            continue
        payout = PatronPayout.objects.create(
            approval=approval,
            table_id=approval.table_id,
            hand_id=approval.hand_id,
            seat=number,
            patron=patron,
            amount=seat.win,
            gaming_day=day,
            mtl=seat.mtl,
            entered_by=user,
        )
        W2G.objects.bulk_create(
            W2G(
                payout=payout,
                line=int(line["line"]),
                name=str(line["name"]),
                wager=int(line["wager"]),
                amount=int(line["amount"]),
            )
            for line in seat.w2g
        )
        audit_append(
            actor=user,
            action="payout_patron_recorded",
            subject=f"hand:{approval.hand_id}",
            table=approval.table,
            hand=approval.hand,
            after={
                "approval": approval.pk,
                "seat": number,
                "patron": patron.pk,
                "win": seat.win,
                "mtl": seat.mtl,
                "w2g": [line["line"] for line in seat.w2g],
                "gaming_day": day.isoformat(),
            },
        )
    line = int((signoff.get("prompts") or {}).get("ctr_above") or 0)
    for index, key in enumerate(ctr or []):
        where = f"ctr[{index}]"
        number = key if isinstance(key, int) and not isinstance(key, bool) else None
        payout = (
            PatronPayout.objects.filter(approval=approval, seat=number)
            .select_related("patron")
            .first()
            if number is not None
            else None
        )
        if payout is None:
            raise ApplicationError(
                f"name seat {key}'s patron first; a CTR is the patron's", path=where
            )
        patron = payout.patron
        total = day_total(patron, day, approval)
        if total <= line:
            raise ApplicationError(
                f"{patron.name}'s gaming day comes to {amount_words(total)}, not above "
                f"{amount_words(line)}: no CTR is due",
                path=where,
            )
        if ctr_on_record(patron, day, approval) is not None:
            continue
        if not patron.complete:
            raise ApplicationError(
                f"a CTR needs {patron.name}'s address and taxpayer id; give them with "
                f"seat {number}'s patron",
                path=f"patrons.{number}.address",
            )
        filed = CTR.objects.create(
            patron=patron, gaming_day=day, total=total, approval=approval, filed_by=user
        )
        audit_append(
            actor=user,
            action="payout_ctr_recorded",
            subject=f"hand:{approval.hand_id}",
            table=approval.table,
            hand=approval.hand,
            after={
                "approval": approval.pk,
                "ctr": filed.pk,
                "seat": number,
                "patron": patron.pk,
                "total": total,
                "gaming_day": day.isoformat(),
            },
        )
    return records_of(approval)


def records_stored(*, approval: Approval, settlement: Settlement) -> None:
    """The payout is stored: its records count from now on, and a win at or above the
    notice line is a notice to the regulator."""
    PatronPayout.objects.filter(approval=approval).update(settlement=settlement)
    CTR.objects.filter(approval=approval).update(settlement=settlement)
    signoff = signoff_of(approval)
    if signoff.get("notice"):
        RegulatorNotice.objects.create(
            settlement=settlement,
            approval=approval,
            table_id=approval.table_id,
            hand_id=approval.hand_id,
            win=int(signoff.get("win") or 0),
            line=int((signoff.get("policy") or {}).get("notice") or 0),
        )


def patron_get(pk: int) -> Patron:
    patron = Patron.objects.filter(pk=pk).first()
    if patron is None:
        raise NotFound(f"patron {pk} does not exist")
    return patron
