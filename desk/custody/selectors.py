"""What the desk's chip-custody pages read, in words: a table's custody (its window, the
count waiting for a signature, its slips), the cage's queue, the count team's sheet, and what
the pit's tiles say about slips and counts that wait.

Everything is read through ``custody.selectors`` and the custody models; nothing here writes.
A slip's next signature is worked out the way ``custody.services.slip_sign`` decides it: a
fill is signed by the cage, then by the dealer and a floor manager at the table; a credit by
the dealer and a floor manager, then by the cage.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, Q

from casino.core.money import money
from casino.core.roles import FLOOR_MANAGER, has_role
from custody import selectors as custody
from custody.models import ChipSet, Denomination, DropCount, Inventory, Signature, Slip
from payouts.figures import gaming_day
from tables.models import Table

#: How many of a table's finished slips (received or void) its page lists.
DONE_SHOWN = 20
_HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")

# ---------------------------------------------------------------- denominations


@dataclass(frozen=True)
class Chip:
    """A denomination as a page shows it: a chip with its colour, or a cash note."""

    form: str
    value: int
    colour: str = ""
    hex: str = ""

    @property
    def key(self) -> str:
        """How counts name it: the value in minor units, as text."""
        return str(self.value)

    @property
    def css(self) -> str:
        """The class that draws its colour (:func:`chip_styles`)."""
        return f"chip-{self.value}" if self.is_chip else "note"

    @property
    def is_chip(self) -> bool:
        return self.form == Denomination.Form.CHIP

    @property
    def amount(self) -> str:
        return money(self.value)

    @property
    def words(self) -> str:
        """``$5.00 red chip``, ``$20.00 note``."""
        if not self.is_chip:
            return f"{self.amount} note"
        return f"{self.amount} {self.colour} chip" if self.colour else f"{self.amount} chip"


def chips_of(chip_set: ChipSet | None, form: str = Denomination.Form.CHIP) -> list[Chip]:
    """The set's denominations of ``form``, smallest first."""
    if chip_set is None:
        return []
    return [
        Chip(d.form, d.value, d.colour, d.hex if _HEX.fullmatch(d.hex or "") else "")
        for d in chip_set.denominations.filter(form=form).order_by("value")
    ]


def chip_set() -> ChipSet | None:
    """The property's chip set, or None where custody is not kept."""
    from django.conf import settings

    return ChipSet.objects.filter(property_name=settings.CASINO_PROPERTY).first()


def chip_styles(chips: Iterable[Chip]) -> list[tuple[str, str]]:
    """``(class, colour)`` for each chip with a colour: the page's nonce'd style block draws
    the swatches (an element's own style attribute is refused by the CSP)."""
    return [(chip.css, chip.hex) for chip in chips if chip.is_chip and chip.hex]


@dataclass(frozen=True)
class Line:
    """One denomination of an amount: how many, and what they come to."""

    chip: Chip
    count: int

    @property
    def amount(self) -> int:
        return self.chip.value * self.count


def lines(counts: dict[str, Any] | None, chips: list[Chip]) -> list[Line]:
    """The denominations ``counts`` holds, in the set's order (a value the set no longer
    has is shown as a plain chip)."""
    counts = counts or {}
    known = {chip.key: chip for chip in chips}
    form = chips[0].form if chips else Denomination.Form.CHIP
    found = [Line(known[key], int(counts[key])) for key in known if int(counts.get(key) or 0)]
    for key, count in counts.items():
        if key not in known and int(count or 0):
            found.append(Line(Chip(form, int(key)), int(count)))
    return found


# ---------------------------------------------------------------- signatures and slips

#: Who signs each step, in words.
WHO = {
    Signature.Step.DEALER: "the dealer",
    Signature.Step.FLOOR: "a floor manager",
    Signature.Step.CAGE: "the cage",
    Signature.Step.COUNT: "a counter",
}
#: A slip's steps in signing order, with what each signature says.
STEPS = {
    Slip.Kind.FILL: (
        (Signature.Step.CAGE, "Cage", "the chips left the cage"),
        (Signature.Step.DEALER, "Dealer", "received at the table"),
        (Signature.Step.FLOOR, "Floor manager", "received at the table"),
    ),
    Slip.Kind.CREDIT: (
        (Signature.Step.DEALER, "Dealer", "the chips left the table"),
        (Signature.Step.FLOOR, "Floor manager", "the chips left the table"),
        (Signature.Step.CAGE, "Cage", "received at the cage"),
    ),
}


@dataclass(frozen=True)
class Step:
    step: str
    title: str
    says: str
    signature: Signature | None

    @property
    def signed(self) -> bool:
        return self.signature is not None


def short_label(slip: Slip) -> str:
    """A slip's number as a tile has room for: ``F-…42``."""
    return f"{slip.label[0]}-…{slip.number}"


@dataclass
class SlipView:
    """A slip as a page shows it: its denominations, its signatures step by step (blank
    where one is still to come) and who it waits for, in words."""

    slip: Slip
    lines: list[Line]
    steps: list[Step]
    #: The user looking may sign it now (set where a page knows who looks).
    may_sign: bool = False

    @property
    def label(self) -> str:
        return self.slip.label

    @property
    def short(self) -> str:
        return short_label(self.slip)

    @property
    def kind(self) -> str:
        return self.slip.kind

    @property
    def is_open(self) -> bool:
        return self.slip.status in (Slip.Status.REQUESTED, Slip.Status.ISSUED)

    @property
    def at_cage(self) -> bool:
        """Its next signature is the cage's."""
        if not self.is_open:
            return False
        fill = self.slip.kind == Slip.Kind.FILL
        return (self.slip.status == Slip.Status.REQUESTED) == fill

    @property
    def table_missing(self) -> list[str]:
        """The table-side steps still unsigned, while the slip waits at the table."""
        if not self.is_open or self.at_cage:
            return []
        return [
            s.step
            for s in self.steps
            if s.step in (Signature.Step.DEALER, Signature.Step.FLOOR) and not s.signed
        ]

    @property
    def waiting(self) -> str:
        """``waiting for the cage``, ``on its way: waiting for the dealer``, ``received``."""
        status = self.slip.status
        if status == Slip.Status.VOID:
            return "void"
        if status == Slip.Status.RECEIVED:
            return "received at the cage" if self.kind == Slip.Kind.CREDIT else "received"
        if self.at_cage:
            prefix = "on its way: " if status == Slip.Status.ISSUED else ""
            return f"{prefix}waiting for the cage"
        missing = " and ".join(WHO[step] for step in self.table_missing) or "the table"
        prefix = "on its way: " if status == Slip.Status.ISSUED else ""
        return f"{prefix}waiting for {missing} at the table"

    @property
    def tile_words(self) -> str:
        """Who it waits for, as short as a pit tile needs: ``waiting for the cage``,
        ``waiting for the table`` (both signatures there), ``waiting for the dealer``."""
        if self.at_cage:
            return "waiting for the cage"
        missing = self.table_missing
        if len(missing) == 1:
            return f"waiting for {WHO[missing[0]]}"
        return "waiting for the table" if missing else self.waiting

    def signed_by(self, user: Any) -> bool:
        return any(s.signature and s.signature.signed_by_id == user.pk for s in self.steps)

    @property
    def voidable(self) -> bool:
        """Not received yet, and (a credit) its chips have not left the table."""
        if not self.is_open:
            return False
        return not (self.kind == Slip.Kind.CREDIT and self.slip.status == Slip.Status.ISSUED)

    @property
    def moves_tray(self) -> bool:
        """Open, and the table's tray has yet to count it: a fill not received, a credit
        whose chips have not left the table."""
        return self.voidable

    def floor_may_sign(self, user: Any) -> bool:
        """``user`` (a floor manager) may sign it at the table now (an open table)."""
        return (
            has_role(user, FLOOR_MANAGER)
            and self.slip.table.status == Table.Status.OPEN
            and Signature.Step.FLOOR in self.table_missing
            and not self.signed_by(user)
        )


def slip_view(slip: Slip, chips: list[Chip]) -> SlipView:
    signatures = {s.step: s for s in slip.signatures.all()}
    steps = [
        Step(step, title, says, signatures.get(step)) for step, title, says in STEPS[slip.kind]
    ]
    return SlipView(slip, lines(slip.counts, chips), steps)


def _slips() -> Any:
    return Slip.objects.select_related("table", "requested_by", "voided_by").prefetch_related(
        Prefetch("signatures", queryset=Signature.objects.select_related("signed_by"))
    )


def slip_of(slip_id: int) -> Slip | None:
    return _slips().filter(pk=slip_id).first()


# ---------------------------------------------------------------- a table's custody


@dataclass
class Pending:
    """A count waiting for its second signature."""

    inventory: Inventory
    lines: list[Line]
    signatures: list[Signature]
    #: The user looking may give the second signature (:meth:`may_sign`).
    signable: bool = False
    #: The user looking counted it.
    mine: bool = False
    #: A closer whose expected tray moved since it was counted (a hand or a slip since):
    #: it is counted again, not signed.
    stale: bool = False
    #: The tray expected now.
    expected_now: int | None = None

    @property
    def kind(self) -> str:
        return self.inventory.kind

    @property
    def counter_step(self) -> str:
        return self.signatures[0].step if self.signatures else ""

    @property
    def missing(self) -> str:
        """Whose signature it waits for, in words."""
        return "a floor manager" if self.counter_step == Signature.Step.DEALER else "the dealer"

    def may_sign(self, user: Any) -> bool:
        """``user``, a floor manager, may give the second signature."""
        return (
            has_role(user, FLOOR_MANAGER)
            and self.counter_step == Signature.Step.DEALER
            and self.inventory.counted_by_id != user.pk
        )

    @property
    def variance_words(self) -> str:
        return variance_words(self.inventory.variance, self.inventory.expected)


def variance_words(variance: int | None, expected: int | None) -> str:
    """``$200.00 short of the expected $5,600.00``, ``$5.00 over …``, ``exactly the
    expected …``."""
    if variance is None or expected is None:
        return ""
    if variance == 0:
        return f"exactly the expected {money(expected)}"
    side = "short of" if variance < 0 else "over"
    return f"{money(abs(variance))} {side} the expected {money(expected)}"


def pending_of(table: Table, chips: list[Chip]) -> Pending | None:
    row = (
        table.inventories.filter(status=Inventory.Status.COUNTED)
        .select_related("counted_by")
        .prefetch_related(
            Prefetch("signatures", queryset=Signature.objects.select_related("signed_by"))
        )
        .first()
    )
    if row is None:
        return None
    return Pending(row, lines(row.counts, chips), list(row.signatures.all()))


def _signers(inventory: Inventory | None) -> list[Signature]:
    if inventory is None:
        return []
    return list(inventory.signatures.select_related("signed_by").all())


@dataclass
class TableCustody:
    """A table's custody as its page shows it."""

    table: Table
    chip_set: ChipSet
    chips: list[Chip]
    window: custody.Window
    pending: Pending | None
    proposal: Inventory | None
    open_slips: list[SlipView]
    done_slips: list[SlipView]
    opener_signers: list[Signature] = field(default_factory=list)
    closer_signers: list[Signature] = field(default_factory=list)
    opener_lines: list[Line] = field(default_factory=list)

    @property
    def is_open(self) -> bool:
        return self.table.status == Table.Status.OPEN

    @property
    def unsettled(self) -> list[SlipView]:
        """The open slips the tray expected does not count yet (a closer waits for them)."""
        return [view for view in self.open_slips if view.moves_tray]

    @property
    def count_kind(self) -> str:
        """What the next count is: an opener for a closed table, a closer for an open one."""
        return Inventory.Kind.CLOSER if self.is_open else Inventory.Kind.OPENER


def table_custody(table: Table, chip_set_: ChipSet, user: Any) -> TableCustody:
    """``table``'s custody as ``user`` (a floor manager) sees it: what they may sign."""
    chips = chips_of(chip_set_)
    state = custody.state(table)
    window = state["window"]
    open_ids = [slip.pk for slip in state["slips"]]
    open_slips = [slip_view(s, chips) for s in _slips().filter(pk__in=open_ids)]
    open_slips.sort(key=lambda v: (v.slip.requested_at, v.slip.pk))
    done = (
        _slips()
        .filter(table=table, status__in=[Slip.Status.RECEIVED, Slip.Status.VOID])
        .order_by("-requested_at", "-pk")[:DONE_SHOWN]
    )
    for view in open_slips:
        view.may_sign = view.floor_may_sign(user)
    pending = pending_of(table, chips)
    if pending is not None:
        pending.mine = pending.inventory.counted_by_id == user.pk
        if pending.kind == Inventory.Kind.CLOSER:
            pending.expected_now = window.expected_tray
            pending.stale = pending.inventory.expected != window.expected_tray
        pending.signable = pending.may_sign(user) and not pending.stale
    return TableCustody(
        table=table,
        chip_set=chip_set_,
        chips=chips,
        window=window,
        pending=pending,
        proposal=state["proposal"],
        open_slips=open_slips,
        done_slips=[slip_view(s, chips) for s in done],
        opener_signers=_signers(window.opener),
        closer_signers=_signers(window.closer),
        opener_lines=lines(window.opener.counts, chips) if window.opener else [],
    )


# ---------------------------------------------------------------- the pit


@dataclass(frozen=True)
class TileNote:
    """Something a tile says about custody: a slip or a count waiting, and where to act."""

    words: str
    label: str = ""  # a slip's full number, for the short one shown
    short: str = ""
    kind: str = ""
    anchor: str = "custody"  # where on the table's page it is

    @property
    def is_slip(self) -> bool:
        return bool(self.label)


def pit_custody(table_ids: list[int]) -> dict[int, list[TileNote]]:
    """For each table: the counts and slips waiting, in words (two queries, however many
    tables)."""
    notes: dict[int, list[TileNote]] = {}
    counts = Inventory.objects.filter(
        table_id__in=table_ids, status=Inventory.Status.COUNTED
    ).prefetch_related("signatures")
    for row in counts:
        signed = [s.step for s in row.signatures.all()]
        missing = "a floor manager" if Signature.Step.DEALER in signed else "the dealer"
        notes.setdefault(row.table_id, []).append(
            TileNote(f"{row.kind} counted: waiting for {missing}", kind=row.kind)
        )
    slips = (
        Slip.objects.filter(
            table_id__in=table_ids, status__in=[Slip.Status.REQUESTED, Slip.Status.ISSUED]
        )
        .prefetch_related("signatures")
        .order_by("requested_at", "pk")
    )
    for slip in slips:
        view = slip_view(slip, [])
        notes.setdefault(slip.table_id, []).append(
            TileNote(view.tile_words, slip.label, view.short, slip.kind, f"slip-{slip.pk}")
        )
    return notes


# ---------------------------------------------------------------- the cage


@dataclass
class CageQueue:
    fills: list[SlipView]
    credits: list[SlipView]
    done: list[SlipView]
    chips: list[Chip]


def cage_queue(chip_set_: ChipSet | None) -> CageQueue:
    """Fills to issue and credits to receive, oldest first; and what the cage signed this
    gaming day, newest first."""
    chips = chips_of(chip_set_)
    fills = _slips().filter(kind=Slip.Kind.FILL, status=Slip.Status.REQUESTED)
    credits = _slips().filter(kind=Slip.Kind.CREDIT, status=Slip.Status.ISSUED)
    done = (
        _slips()
        .filter(signatures__step=Signature.Step.CAGE, gaming_day=gaming_day())
        .order_by("-pk")
        .distinct()[:DONE_SHOWN]
    )
    return CageQueue(
        fills=[slip_view(s, chips) for s in fills.order_by("requested_at", "pk")],
        credits=[slip_view(s, chips) for s in credits.order_by("requested_at", "pk")],
        done=[slip_view(s, chips) for s in done],
        chips=chips,
    )


# ---------------------------------------------------------------- the count team


@dataclass
class Entry:
    """One count of a drop box: its cash and chips by denomination, who signed it, and
    whether a later count corrects it."""

    drop: DropCount
    cash: list[Line]
    chips: list[Line]
    signatures: list[Signature]
    corrected: bool

    @property
    def signed(self) -> bool:
        return len(self.signatures) >= 2

    def signed_by(self, user: Any) -> bool:
        return any(s.signed_by_id == user.pk for s in self.signatures)


@dataclass
class Box:
    """A table's drop box of the gaming day: its counts, oldest first (the last is the one
    that stands)."""

    table: Table
    entries: list[Entry]
    #: The count form the sheet shows for it (set by the view: empty, or as typed).
    form: dict[str, Any] = field(default_factory=dict)

    @property
    def latest(self) -> Entry | None:
        return self.entries[-1] if self.entries else None


def count_sheet(
    day: dt.date, chip_set_: ChipSet | None
) -> tuple[list[Box], list[Chip], list[Chip]]:
    """The tables with a drop box on gaming day ``day`` (opened with a signed opener that
    day, or counted that day), by name, each with its counts; and the notes and chips."""
    chips = chips_of(chip_set_)
    notes = chips_of(chip_set_, Denomination.Form.CASH)
    opened = Inventory.objects.filter(
        kind=Inventory.Kind.OPENER, status=Inventory.Status.SIGNED, gaming_day=day
    ).values("table_id")
    counted = DropCount.objects.filter(gaming_day=day).values("table_id")
    tables = Table.objects.filter(Q(pk__in=opened) | Q(pk__in=counted)).order_by("name")
    drops = (
        DropCount.objects.filter(gaming_day=day)
        .select_related("counted_by")
        .prefetch_related(
            Prefetch("signatures", queryset=Signature.objects.select_related("signed_by"))
        )
        .order_by("pk")
    )
    by_table: dict[int, list[DropCount]] = {}
    for drop in drops:
        by_table.setdefault(drop.table_id, []).append(drop)
    boxes = []
    for table in tables:
        rows = by_table.get(table.pk, [])
        corrected = {row.corrects_id for row in rows if row.corrects_id}
        boxes.append(
            Box(
                table,
                [
                    Entry(
                        row,
                        lines(row.cash, notes),
                        lines(row.chips, chips),
                        list(row.signatures.all()),
                        row.pk in corrected,
                    )
                    for row in rows
                ],
            )
        )
    return boxes, notes, chips
