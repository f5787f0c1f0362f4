"""What the approvals queue reads: each request as a row, with what approving it changes
(a limit change's keys before and after, the settlement a payout sign-off would store, what a
correction moves)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from approvals.models import Approval
from approvals.selectors import SignoffStatus, approval_list, signoff_status
from approvals.services import KINDS as DECIDABLE
from casino.core.option_words import changes_in_words, describe
from casino.core.roles import user_roles
from casino.rules.contract import registry
from desk.compliance.describe import action_words
from filings.models import Patron
from payouts.models import Settlement
from payouts.services import result_nets, result_parties
from payouts.signoff import Signer, assign
from tables.selectors import hand_state

STATES = [(value, label) for value, label in Approval.Status.choices]
KINDS = [(value, str(label)) for value, label in Approval.Kind.choices]


@dataclass(frozen=True)
class Diff:
    """One option a limit or rule change alters: ``key`` where it is (``ante_max``,
    ``rules.coverage``), ``title`` its name ("ante maximum"), its value before and after in
    words; ``was_default``: a rule the table had not set (its game's default)."""

    key: str
    before: str
    after: str
    was_default: bool = False
    title: str = ""


def shown(value: Any, schema: dict[str, Any] | None = None) -> str:
    """A value as the queue shows it, in words: money in the house currency, odds as 500:1,
    a choice by its title, nothing by what it means (``describe``)."""
    return describe(schema, value)


def change_diffs(approval: Approval) -> list[Diff]:
    """Every option a limit or rule change alters, titled, with its value before and after
    in words. ``rules`` merge by key, so each changed rule is listed; a rule the table did
    not override was at its game's default."""
    detail = approval.detail or {}
    found = registry().get(approval.table.game)
    return [
        Diff(option.path, option.before, option.after, option.was_default, option.title)
        for option in changes_in_words(
            found, detail.get("before") or {}, detail.get("changes") or {}
        )
    ]


@dataclass(frozen=True)
class HeldSeat:
    seat: int
    role: str
    lines: list[dict[str, Any]]
    net: int


def held_seats(approval: Approval) -> list[HeldSeat]:
    """The settlement a payout sign-off would store: each seat (the house's too, where it
    banks) with its lines and net."""
    parties = result_parties((approval.detail or {}).get("result") or {})
    return [
        HeldSeat(
            seat=party.get("seat", 0),
            role=str(party.get("role", "")).replace("_", " "),
            lines=[
                {
                    "wager": str(line.get("wager", "")).replace("_", " "),
                    "stake": line.get("stake"),
                    "amount": line.get("amount"),
                    "against": line.get("against"),
                }
                for line in party.get("lines") or []
            ],
            net=party.get("net", 0),
        )
        for party in parties
    ]


@dataclass
class PatronForm:
    """The patron fields of one winning seat on a payout's sign form: what was typed, and
    each field's problem."""

    seat: int
    w2g: bool  # a W-2G: the address and taxpayer id are needed too
    records: Any  # filings.services.SeatRecords
    typed: dict[str, str] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    #: The patron is named: only the address and taxpayer id a CTR needs may be asked.
    complete_only: bool = False


@dataclass(frozen=True)
class Variance:
    """A closer beyond its report line, as the queue says it: ``Table HCF-1's closer is
    $200.00 short of the expected $5,600.00``, the lines it crossed, who signed it."""

    words: str
    counted: int | None
    expected: int | None
    report_above: int | None
    notify_above: int | None
    notify: bool
    gaming_day: str
    inventory_id: int | None
    signers: tuple[str, ...] = ()
    signer_ids: frozenset[int] = frozenset()


def variance_of(approval: Approval) -> Variance:
    """A variance request's detail in words, with the closer's signers."""
    from custody.models import Signature as CustodySignature
    from desk.custody.selectors import variance_words

    detail = approval.detail or {}
    variance, expected = detail.get("variance"), detail.get("expected")
    said = variance_words(variance, expected) or "beyond its report line"
    signatures = list(
        CustodySignature.objects.filter(inventory_id=detail.get("inventory"))
        .select_related("signed_by")
        .order_by("signed_at", "pk")
    )
    return Variance(
        words=f"Table {approval.table.name}'s closer is {said}",
        counted=detail.get("counted"),
        expected=expected,
        report_above=detail.get("report_above"),
        notify_above=detail.get("notify_above"),
        notify=bool(detail.get("notify")),
        gaming_day=str(detail.get("gaming_day") or ""),
        inventory_id=detail.get("inventory"),
        signers=tuple(s.signed_by.get_username() for s in signatures),
        signer_ids=frozenset(s.signed_by_id for s in signatures),
    )


@dataclass
class Row:
    approval: Approval
    diffs: list[Diff] = field(default_factory=list)
    seats: list[HeldSeat] = field(default_factory=list)
    notice: str = ""
    failed: bool = False
    #: What a correction moves, party by party (and the rake).
    moves: list[dict[str, Any]] = field(default_factory=list)
    #: A kind the approvals service knows how to decide.
    decidable: bool = True
    #: A payout's sign-off: tiers, signatures, records, what is missing.
    signoff: SignoffStatus | None = None
    #: A closer's variance, in words.
    variance: Variance | None = None
    #: For the user looking (:func:`for_user`): they signed it already; their signature
    #: would count; the patron fields to fill; the CTRs to record.
    signed_by_me: bool = False
    can_count: bool = True
    patron_forms: list[PatronForm] = field(default_factory=list)
    ctr_seats: list[Any] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def is_payout(self) -> bool:
        return self.approval.kind == Approval.Kind.PAYOUT

    @property
    def is_pending(self) -> bool:
        return self.approval.status == Approval.Status.PENDING

    @property
    def over(self) -> list[str]:
        return list((self.approval.detail or {}).get("over") or [])

    @property
    def id_kinds(self) -> list[tuple[str, str]]:
        """The kinds of government ID a patron's record takes."""
        return [(value, str(label)) for value, label in Patron.IdKind.choices]

    @property
    def still_needed(self) -> list[str]:
        """The signatures still missing, in words ("1 shift manager")."""
        if self.signoff is None:
            return []
        return [
            f"{t.missing} {t.tier.role_words}{'s' if t.missing != 1 else ''}"
            for t in self.signoff.tiers
            if t.missing
        ]


def row_of(approval: Approval) -> Row:
    row = Row(approval, decidable=approval.kind in DECIDABLE)
    if approval.kind == Approval.Kind.LIMIT_CHANGE:
        row.diffs = change_diffs(approval)
    elif approval.kind == Approval.Kind.PAYOUT:
        row.seats = held_seats(approval)
        row.signoff = signoff_status(approval)
    elif approval.kind == Approval.Kind.CORRECTION:
        row.moves = correction_moves(approval)
    elif approval.kind == Approval.Kind.VARIANCE:
        row.variance = variance_of(approval)
    return row


def for_user(row: Row, user: Any, typed: Any = None, errors: Any = None) -> Row:
    """What ``user`` may do on a payout row: sign (or not, and why), and which records to
    enter (``typed`` values and ``errors`` by field, from a refused form, kept)."""
    if row.variance is not None:
        # Whoever signed the closer (counted it, or gave the second signature) does not
        # review its variance.
        row.signed_by_me = user.pk in row.variance.signer_ids
        return row
    status = row.signoff
    if status is None or not row.is_pending:
        return row
    signers = [Signer(s.signed_by_id, frozenset(s.roles)) for s in status.signatures]
    row.signed_by_me = any(s.signed_by_id == user.pk for s in status.signatures)
    tiers = [t.tier for t in status.tiers]
    me = Signer(user.pk, frozenset(user_roles(user)))
    row.can_count = not row.signed_by_me and len(signers) in assign(tiers, [*signers, me])
    typed, errors = typed or {}, errors or {}
    row.patron_forms = []
    row.ctr_seats = []
    for records in status.records:
        seat = records.seat
        key = str(seat.seat)
        if records.payout is None and seat.needs_patron:
            row.patron_forms.append(
                PatronForm(
                    seat.seat, bool(seat.w2g), records, typed.get(key, {}), errors.get(key, {})
                )
            )
        elif records.ctr_needed and records.ctr is None and records.payout is not None:
            row.ctr_seats.append(records)
            if not records.payout.patron.complete:
                row.patron_forms.append(
                    PatronForm(
                        seat.seat, True, records, typed.get(key, {}), errors.get(key, {}), True
                    )
                )
    return row


def correction_moves(approval: Approval) -> list[dict[str, Any]]:
    """Each party's net before and after a correction, what it moves, and the rake's."""
    detail = approval.detail or {}
    before, after = result_nets(detail["before"]), result_nets(detail["result"])
    rows = [
        {
            "label": "house" if seat == "0" else f"seat {seat}",
            "before": before.get(seat, 0),
            "after": after.get(seat, 0),
            "moves": after.get(seat, 0) - before.get(seat, 0),
        }
        for seat in sorted(before.keys() | after.keys(), key=int)
    ]
    old, new = detail["before"]["rake"], detail["result"]["rake"]
    return [*rows, {"label": "rake", "before": old, "after": new, "moves": new - old}]


@dataclass(frozen=True)
class Step:
    """One action a correction changes: its place in the hand (from 1), what it was and
    what it becomes, in words ("" where there was none or is none)."""

    number: int
    before: str
    after: str

    @property
    def change(self) -> str:
        if not self.before:
            return "added"
        return "removed" if not self.after else "changed"


def correction_steps(approval: Approval) -> list[Step]:
    """The actions a correction changes, adds or removes, each in words (the settled hand's
    against the corrected one; a correction given as a record shows none)."""
    detail = approval.detail or {}
    corrected = detail.get("actions")
    if not isinstance(corrected, list):
        return []
    settled = Settlement.objects.filter(pk=detail.get("corrects")).first()
    if settled is None:
        return []
    original = list((settled.history or {}).get("actions") or [])
    code = approval.table.game
    steps = []
    for index in range(max(len(original), len(corrected))):
        old = original[index] if index < len(original) else None
        new = corrected[index] if index < len(corrected) else None
        if old != new:
            steps.append(
                Step(
                    index + 1,
                    action_words(old, code) if old is not None else "",
                    action_words(new, code) if new is not None else "",
                )
            )
    return steps


def void_stakes(approval: Approval) -> list[dict[str, Any]]:
    """What each seat has put in the hand a void asks to cancel (it all goes back), from the
    hand as it stands: ``{"label", "amount", "wagers"}`` in minor units; [] when the hand is
    no longer open or its game does not say."""
    hand = approval.hand
    if hand is None or hand.status != "open":
        return []
    try:
        view = hand_state(hand=hand) or {}
    except Exception:  # a hand that no longer replays is shown without its stakes
        return []
    presentation = view.get("presentation") or {}
    stakes = []
    seats = sorted(presentation.get("seats") or [], key=lambda party: party.get("seat") or 0)
    for party in seats:
        wagers = [
            {"name": str(w.get("name", "")).replace("_", " "), "amount": w.get("amount", 0)}
            for w in party.get("wagers") or []
            if w.get("amount")
        ]
        total = party.get("committed_total")
        if total is None:
            total = sum(w["amount"] for w in wagers)
        if total:
            stakes.append({"label": f"seat {party.get('seat')}", "amount": total, "wagers": wagers})
    return stakes


def queue_rows(
    *, kind: str | None, status: str | None, table_id: int | None, limit: int
) -> tuple[list[Row], int]:
    """The newest ``limit`` requests matching the filters, and how many match in all."""
    queryset = approval_list(kind=kind, status=status, table_id=table_id)
    return [row_of(a) for a in queryset[:limit]], queryset.count()


def approval_row(approval_id: int) -> Row | None:
    approval = approval_list().filter(pk=approval_id).first()
    return row_of(approval) if approval is not None else None
