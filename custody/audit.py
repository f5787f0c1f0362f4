"""The audit check's part for chip custody: one part of every audit check (a chunk of its
own beside the chains' and the settlements' tree, planned in ``payouts/audit_plan.py``),
which reads every custody record, in a full check and an incremental one alike: slips,
openers, closers and drop counts are a few hundred rows a day, and a slip or a count changes
status long after it was written, where an incremental check would not look again.

1. **Slips numbered without gaps.** Per property, kind and calendar year: numbers 1 to the
   last with none missing and none repeated, and the series' ``last`` the highest number.
2. **Every signature by an allowed role.** The step signed against the signer's roles when
   signing (dealer: ``dealer``; floor: ``floor_manager`` or ``shift_manager``; cage:
   ``cage``; count: ``count_team``); one person once per record; and the signatures a
   record's status implies (a signed opener or closer: dealer + floor; a received fill or
   credit: cage + dealer + floor; a drop count: one or two counters; and so on,
   :data:`STEPS`).
3. **Sums match.** Every total is Σ value × count of its counts (a drop count's cash, chips
   and total); every denomination is one of the chip set's (chips, or the count's cash
   notes); a closer's variance is its total less the expected tray.
4. **Recorded in the chain.** Every inventory, slip and drop count has the entry that wrote it
   in its table's chain, stating the same figures (counts, total, and the rest the entry
   states), and every signature its ``custody_sign`` entry (the same person, step and
   roles); a slip's issue, receipt, void and prints and an inventory's withdrawal have
   theirs. A row written past the services (an insider's SQL) has none; an entry whose row
   is gone is a finding too.

Each finding names the table (a slip series' findings name none: a series is the
property's), and ``record`` says which row (``slip:12``, ``inventory:4``, ``drop:3``, or
``series:<property>/<kind>/<year>``). The rows of one table are read together in one
snapshot (PostgreSQL's repeatable read, when the check runs outside a transaction as a worker
does): a record and its entries commit together, so none is seen without the other.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Count, Max, Min

from casino.core.money import major_text
from casino.core.roles import CAGE, COUNT_TEAM, DEALER, FLOOR_MANAGER, SHIFT_MANAGER
from payouts.audit import Findings, Progress
from payouts.chain import chain_name
from payouts.models import AuditEntry
from tables.models import Table

from .models import ChipSet, Denomination, DropCount, Inventory, Signature, Slip, SlipSeries

# ---------------------------------------------------------------- the rules

DEALER_STEP, FLOOR_STEP, CAGE_STEP, COUNT_STEP = (
    Signature.Step.DEALER.value,
    Signature.Step.FLOOR.value,
    Signature.Step.CAGE.value,
    Signature.Step.COUNT.value,
)

#: The roles that may sign each step (any one of them, as recorded when signing).
STEP_ROLES: dict[str, frozenset[str]] = {
    DEALER_STEP: frozenset({DEALER}),
    FLOOR_STEP: frozenset({FLOOR_MANAGER, SHIFT_MANAGER}),
    CAGE_STEP: frozenset({CAGE}),
    COUNT_STEP: frozenset({COUNT_TEAM}),
}
STEP_NEEDS = {
    DEALER_STEP: "a dealer",
    FLOOR_STEP: "a floor manager (or shift manager)",
    CAGE_STEP: "the cage",
    COUNT_STEP: "the count team",
}


def _steps(*alternatives: str) -> frozenset[tuple[str, ...]]:
    """Signature sets as ``"cage+dealer"`` (steps in any order; ``""``: none)."""
    return frozenset(tuple(sorted(a.split("+"))) if a else () for a in alternatives)


_FILL_REQUESTED, _FILL_ISSUED = _steps(""), _steps("cage", "cage+dealer", "cage+floor")
_CREDIT_REQUESTED = _steps("", "dealer", "floor")
#: The signatures (their steps) a record may have in each status: a second signature at the
#: table moves a fill to received and a credit to issued; a void slip keeps what it had (a
#: credit is voided only before its chips leave the table).
STEPS: dict[tuple[str, str], frozenset[tuple[str, ...]]] = {
    **{
        (kind, status): _steps("dealer", "floor")
        for kind in Inventory.Kind.values
        for status in (Inventory.Status.COUNTED, Inventory.Status.WITHDRAWN)
    },
    **{(kind, Inventory.Status.SIGNED): _steps("dealer+floor") for kind in Inventory.Kind.values},
    ("fill", Slip.Status.REQUESTED): _FILL_REQUESTED,
    ("fill", Slip.Status.ISSUED): _FILL_ISSUED,
    ("fill", Slip.Status.RECEIVED): _steps("cage+dealer+floor"),
    ("fill", Slip.Status.VOID): _FILL_REQUESTED | _FILL_ISSUED,
    ("credit", Slip.Status.REQUESTED): _CREDIT_REQUESTED,
    ("credit", Slip.Status.ISSUED): _steps("dealer+floor"),
    ("credit", Slip.Status.RECEIVED): _steps("cage+dealer+floor"),
    ("credit", Slip.Status.VOID): _CREDIT_REQUESTED,
    ("drop count", "counted"): _steps("count", "count+count"),
}

#: The entries a slip's status needs in its chain; a void fill may also have been issued
#: (:func:`_slip_may`).
SLIP_NEEDS = {
    Slip.Status.REQUESTED: frozenset(),
    Slip.Status.ISSUED: frozenset({"issued"}),
    Slip.Status.RECEIVED: frozenset({"issued", "received"}),
    Slip.Status.VOID: frozenset({"void"}),
}


def _slip_may(kind: str, status: str) -> frozenset[str]:
    if kind == Slip.Kind.FILL and status == Slip.Status.VOID:
        return frozenset({"issued", "void"})
    return SLIP_NEEDS[status]


#: Every action the services write about custody records (``custody/services.py``).
RECORD_ACTIONS = {
    "custody_opener": "inventory",
    "custody_closer": "inventory",
    "custody_fill_request": "slip",
    "custody_credit_request": "slip",
    "custody_drop": "drop",
    "custody_drop_correct": "drop",
}
STATUS_ACTIONS = ("custody_withdraw",) + tuple(
    f"custody_{kind}_{step}"
    for kind in Slip.Kind.values
    for step in ("issued", "received", "void", "print")
)
SIGN_ACTION = "custody_sign"
ACTIONS = (*RECORD_ACTIONS, *STATUS_ACTIONS, SIGN_ACTION)


def records_count() -> int:
    """The rows the part checks (the check's progress counts them)."""
    return sum(model._default_manager.count() for model in (Inventory, Slip, DropCount, Signature))


# ---------------------------------------------------------------- reading


@contextmanager
def _snapshot() -> Iterator[None]:
    """The reads inside see one moment of the database: on PostgreSQL a repeatable-read,
    read-only transaction (only where the check is not inside a transaction already: a
    worker's is not); elsewhere one writer at a time, or the caller's transaction."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


INVENTORY_FIELDS = (
    *("pk", "kind", "status", "counts", "total", "expected", "variance", "reason"),
    "proposed_id",
)
SLIP_FIELDS = (
    *("pk", "kind", "property_name", "year", "number", "status", "counts", "total"),
    *("void_reason", "prints"),
)
DROP_FIELDS = (
    *("pk", "gaming_day", "cash", "chips", "cash_total", "chips_total", "total"),
    *("corrects_id", "reason"),
)


def _rows(model: Any, table_id: int, fields: tuple[str, ...]) -> list[dict[str, Any]]:
    return list(model._default_manager.filter(table_id=table_id).order_by("pk").values(*fields))


@dataclass
class TableRows:
    """One table's custody records, their signatures and its chain's custody entries."""

    inventories: list[dict[str, Any]]
    slips: list[dict[str, Any]]
    drops: list[dict[str, Any]]
    signatures: list[dict[str, Any]]
    entries: list[dict[str, Any]]

    @classmethod
    def read(cls, table_id: int) -> TableRows:
        signed = ("pk", "step", "signed_by_id", "roles")
        with _snapshot():
            return cls(
                inventories=_rows(Inventory, table_id, INVENTORY_FIELDS),
                slips=_rows(Slip, table_id, SLIP_FIELDS),
                drops=_rows(DropCount, table_id, DROP_FIELDS),
                signatures=[
                    {**row, "field": name, "record": row[f"{name}_id"]}
                    for name in ("inventory", "slip", "drop")
                    for row in Signature.objects.filter(**{f"{name}__table_id": table_id})
                    .order_by("pk")
                    .values(*signed, f"{name}_id")
                ],
                entries=list(
                    AuditEntry.objects.filter(table_id=table_id, action__in=ACTIONS)
                    .order_by("seq")
                    .values("seq", "action", "subject", "actor_id", "actor_name", "after")
                ),
            )

    def empty(self) -> bool:
        return not (self.inventories or self.slips or self.drops or self.entries)


def _chip_sets() -> dict[str, dict[str, frozenset[int]]]:
    """Each property's denominations by form: ``{property: {"chip": ..., "cash": ...}}``."""
    sets: dict[str, dict[str, set[int]]] = {
        name: {"chip": set(), "cash": set()}
        for name in ChipSet.objects.values_list("property_name", flat=True)
    }
    for name, form, value in Denomination.objects.values_list(
        "chip_set__property_name", "form", "value"
    ):
        sets.setdefault(name, {"chip": set(), "cash": set()})[form].add(value)
    return {name: {form: frozenset(v) for form, v in forms.items()} for name, forms in sets.items()}


# ---------------------------------------------------------------- what was checked


@dataclass
class Checked:
    series_checked: int = 0
    slips_checked: int = 0
    inventories_checked: int = 0
    drops_checked: int = 0
    signatures_checked: int = 0


def custody_check(progress: Progress) -> dict[str, Any]:
    """The custody part of a check; its result has the shape of a chunk's
    (``payouts.audit.ChunkResult``), with what it checked under ``custody``."""
    findings, checked = Findings(), Checked()
    numbering_check(findings, checked)
    chip_sets = _chip_sets()
    users = _Users()
    names = dict(Table.objects.values_list("pk", "name"))
    for table_id in sorted(names):
        rows = TableRows.read(table_id)
        if not rows.empty():
            TableCheck(table_id, names, rows, chip_sets, users, findings).run(progress, checked)
    progress.flush()
    return {
        "chain": {
            "table": None,
            "ok": True,
            "entries_checked": 0,
            "broken_at": None,
            "problem": None,
            "last_seq": 0,
        },
        "in_play": 0,
        "last_hash": "",
        "anchor_problems": [],
        "hands_checked": 0,
        "settlements_checked": 0,
        "custody": asdict(checked),
        "findings": findings.items,
        "findings_total": findings.total,
    }


# ---------------------------------------------------------------- 1. slip numbers


def numbering_check(findings: Findings, checked: Checked) -> None:
    """Every slip series: numbers 1 to the last, each once; its ``last`` the highest."""
    with _snapshot():
        lasts = {
            (p, k, y): last
            for p, k, y, last in SlipSeries.objects.values_list(
                "property_name", "kind", "year", "last"
            )
        }
        numbered = {
            (row["property_name"], row["kind"], row["year"]): row
            for row in Slip.objects.order_by()
            .values("property_name", "kind", "year")
            .annotate(
                slips=Count("pk"),
                numbers=Count("number", distinct=True),
                lowest=Min("number"),
                highest=Max("number"),
            )
        }
        keys = sorted(lasts.keys() | numbered.keys())
        whole = {key for key in keys if key in numbered and _whole(numbered[key], lasts.get(key))}
        numbers = {
            key: Counter(
                Slip.objects.filter(property_name=key[0], kind=key[1], year=key[2]).values_list(
                    "number", flat=True
                )
            )
            for key in keys
            if key not in whole
        }
    several = len({key[0] for key in keys}) > 1
    for key in keys:
        checked.series_checked += 1
        prop, kind, year = key
        name = f"{kind} slips of {year}" + (f" at {prop}" if several else "")
        record = f"series:{prop}/{kind}/{year}"
        last = lasts.get(key)
        highest = (numbered.get(key) or {}).get("highest") or 0
        if last is None:
            findings.add(
                None,
                f"{name}: no series holds their last number, but slips are numbered up to "
                f"{highest}: written outside the system",
                record=record,
            )
        elif last != highest:
            top = f"number {highest}" if highest else "none"
            findings.add(
                None,
                f"{name}: the series' last number is {last}, but the highest slip is {top}",
                record=record,
            )
        if key in whole:
            continue
        given = numbers[key]
        for start, end in _gaps(given, max(last or 0, highest)):
            missing = (
                f"number {start} is missing"
                if start == end
                else f"numbers {start} to {end} are missing"
            )
            findings.add(None, f"{name}: {missing}", record=record)
        for number, times in sorted(given.items()):
            if times > 1:
                findings.add(None, f"{name}: number {number} is on {times} slips", record=record)
            if number < 1:
                findings.add(
                    None, f"{name}: number {number} is not a slip number (from 1)", record=record
                )


def _whole(row: dict[str, Any], last: int | None) -> bool:
    """Whether a series' slips are numbered 1 to ``last``, each once (from their count,
    distinct numbers and extremes: its numbers need not be read)."""
    return row["lowest"] == 1 and row["slips"] == row["numbers"] == row["highest"] == last


def _gaps(given: Counter[int], end: int) -> Iterator[tuple[int, int]]:
    """The runs of numbers from 1 to ``end`` not in ``given``: ``(first, last)``."""
    start = None
    for number in range(1, end + 2):
        if number <= end and number not in given:
            start = number if start is None else start
        elif start is not None:
            yield start, number - 1
            start = None


# ---------------------------------------------------------------- 2.-4. one table's records


class _Users:
    """Usernames by id, read as they are needed."""

    def __init__(self) -> None:
        self.names: dict[int, str] = {}

    def load(self, ids: set[int]) -> None:
        wanted = ids - self.names.keys()
        if wanted:
            self.names.update(
                get_user_model().objects.filter(pk__in=wanted).values_list("pk", "username")
            )

    def __getitem__(self, pk: int) -> str:
        return self.names.get(pk, f"user {pk}")


def _listed(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _amount(counts: Any, values: frozenset[int] | None, word: str) -> tuple[int | None, list[str]]:
    """Σ value × count of ``counts`` (None when they are not denomination → count), and what
    is wrong with them. ``values``: the chip set's denominations of the form (None: there is
    no set); ``word``: what one is called ("chip", "cash note")."""
    if not isinstance(counts, dict):
        return None, [f"its {word} counts are not denomination → count"]
    problems: list[str] = []
    total: int | None = 0
    for key, count in counts.items():
        if not (isinstance(key, str) and key.isdigit()):
            problems.append(f"{key!r} is not a denomination")
            total = None
            continue
        value = int(key)
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            problems.append(f"the count of {major_text(value)} is {count!r}, not a whole number")
            total = None
            continue
        if values is not None and value not in values:
            problems.append(f"{major_text(value)} is not a {word} of the chip set")
        if total is not None:
            total += value * count
    return total, problems


class TableCheck:
    """Checks 2 to 4 on one table's rows (:class:`TableRows`)."""

    def __init__(
        self,
        table_id: int,
        names: dict[int, str],
        rows: TableRows,
        chip_sets: dict[str, dict[str, frozenset[int]]],
        users: _Users,
        findings: Findings,
    ) -> None:
        self.table, self.names, self.rows = names.get(table_id), names, rows
        self.chain = chain_name(table_id, names)
        self.chip_sets, self.users, self.findings = chip_sets, users, findings
        self.house_set = chip_sets.get(settings.CASINO_PROPERTY)
        # The chain's entries about each record, by subject, in order.
        self.entries: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for entry in rows.entries:
            if not isinstance(entry["after"], dict):
                entry["after"] = {}
            self.entries[entry["subject"]].append(entry)
        self.signatures: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for signature in rows.signatures:
            self.signatures[f"{signature['field']}:{signature['record']}"].append(signature)
        users.load({s["signed_by_id"] for s in rows.signatures})

    def add(self, record: str, problem: str) -> None:
        self.findings.add(None, problem, table=self.table, record=record)

    def run(self, progress: Progress, checked: Checked) -> None:
        for row in self.rows.inventories:
            self.inventory(row)
            checked.inventories_checked += 1
            progress.step()
        for row in self.rows.slips:
            self.slip(row)
            checked.slips_checked += 1
            progress.step()
        for row in self.rows.drops:
            self.drop(row)
            checked.drops_checked += 1
            progress.step()
        checked.signatures_checked += len(self.rows.signatures)
        progress.step(len(self.rows.signatures))
        self.removed()

    # -------------------------------------------------------- the records

    def known(self, record: str, what: str, row: dict[str, Any], model: Any) -> None:
        """The row's kind and status are its model's (the checks of a status skip others)."""
        for name in ("kind", "status"):
            choices = model._meta.get_field(name).choices
            if row[name] not in {value for value, _ in choices}:
                self.add(
                    record,
                    f"{what}: its {name} {row[name]!r} is none of a {model.__name__.lower()}'s",
                )

    def inventory(self, row: dict[str, Any]) -> None:
        record, what = f"inventory:{row['pk']}", f"{row['kind']} {row['pk']}"
        self.known(record, what, row, Inventory)
        self.total(record, what, row["counts"], row["total"])
        if row["kind"] == Inventory.Kind.CLOSER:
            if row["expected"] is None or row["variance"] is None:
                self.add(record, f"{what} has no expected tray or variance")
            elif row["variance"] != row["total"] - row["expected"]:
                self.add(
                    record,
                    f"{what}: its variance is {major_text(row['variance'])}, but its total less "
                    f"the expected tray is {major_text(row['total'] - row['expected'])}",
                )
        self.signed(record, what, row["kind"], row["status"])
        entry = self.written(record, what, f"custody_{row['kind']}")
        if entry is not None:
            self.same(
                record,
                what,
                entry,
                {
                    "counts": row["counts"],
                    "total": row["total"],
                    "expected": row["expected"],
                    "variance": row["variance"],
                    "reason": row["reason"],
                    "proposed": row["proposed_id"],
                },
            )
        withdrawn = self.status_entries(record, "custody_withdraw")
        if row["status"] == Inventory.Status.WITHDRAWN and not withdrawn:
            self.add(record, f"{what} is withdrawn, but the audit log never withdrew it")
        elif row["status"] != Inventory.Status.WITHDRAWN and withdrawn:
            self.add(
                record,
                f"{what} is {row['status']}, but audit entry {withdrawn[0]['seq']} of "
                f"{self.chain} withdrew it",
            )

    def slip(self, row: dict[str, Any]) -> None:
        kind, status = row["kind"], row["status"]
        label = f"{'F' if kind == Slip.Kind.FILL else 'C'}-{row['year']}-{row['number']:06d}"
        record, what = f"slip:{row['pk']}", f"{kind} slip {label}"
        self.known(record, what, row, Slip)
        self.total(record, what, row["counts"], row["total"], property_name=row["property_name"])
        self.signed(record, what, kind, status)
        entry = self.written(record, what, f"custody_{kind}_request")
        if entry is not None:
            self.same(
                record,
                what,
                entry,
                {"slip": label, "counts": row["counts"], "total": row["total"]},
            )
        for step in ("issued", "received", "void") if status in SLIP_NEEDS else ():
            found = self.status_entries(record, f"custody_{kind}_{step}")
            if step in SLIP_NEEDS[status] and not found:
                self.add(record, f"{what} is {status}, but the audit log never recorded it {step}")
            elif step not in _slip_may(kind, status) and found:
                self.add(
                    record,
                    f"{what} is {status}, but audit entry {found[0]['seq']} of {self.chain} "
                    f"recorded it {step}",
                )
            elif len(found) > 1:
                seqs = ", ".join(str(e["seq"]) for e in found)
                self.add(record, f"{what}: the audit log records it {step} in entries {seqs}")
            if found:
                figures = (
                    {"reason": row["void_reason"]} if step == "void" else {"total": row["total"]}
                )
                self.same(record, what, found[0], {"slip": label, **figures})
        prints = self.status_entries(record, f"custody_{kind}_print")
        if len(prints) != row["prints"]:
            self.add(
                record,
                f"{what} counts {row['prints']} prints, the audit log {len(prints)}",
            )

    def drop(self, row: dict[str, Any]) -> None:
        record, what = f"drop:{row['pk']}", f"drop count {row['pk']} of {row['gaming_day']}"
        cash = self.total(
            record, what, row["cash"], row["cash_total"], Denomination.Form.CASH, part="cash"
        )
        chips = self.total(record, what, row["chips"], row["chips_total"], part="chips")
        if cash is not None and chips is not None and row["total"] != cash + chips:
            self.add(
                record,
                f"{what}: its total is {major_text(row['total'])}, but its cash and chips add "
                f"up to {major_text(cash + chips)}",
            )
        self.signed(record, what, "drop count", "counted")
        action = "custody_drop_correct" if row["corrects_id"] else "custody_drop"
        entry = self.written(record, what, action)
        if entry is not None:
            self.same(
                record,
                what,
                entry,
                {
                    "gaming_day": str(row["gaming_day"]),
                    "cash": row["cash"],
                    "chips": row["chips"],
                    "total": row["total"],
                    "corrects": row["corrects_id"],
                    "reason": row["reason"],
                },
            )

    # -------------------------------------------------------- 3. sums

    def total(
        self,
        record: str,
        what: str,
        counts: Any,
        total: int,
        form: str = Denomination.Form.CHIP,
        property_name: str | None = None,
        part: str = "",
    ) -> int | None:
        """``counts`` held to ``total`` and to the chip set (``property_name``'s; the
        house's by default); their sum (None: not readable). ``form``: chips, or a drop
        count's cash notes; ``part``: which of a drop count's totals ("cash", "chips")."""
        owner = property_name or settings.CASINO_PROPERTY
        chips = self.chip_sets.get(owner)
        word = "cash note" if form == Denomination.Form.CASH else "chip"
        summed, problems = _amount(counts, None if chips is None else chips[form], word)
        for problem in problems:
            self.add(record, f"{what}: {problem}")
        if chips is None and counts:
            self.add(record, f"{what}: there is no chip set of {owner} to hold its counts to")
        if summed is not None and summed != total:
            of = f"{part} " if part else ""
            self.add(
                record,
                f"{what}: its {of}total is {major_text(total)}, but its {word} counts add up "
                f"to {major_text(summed)}",
            )
        return summed

    # -------------------------------------------------------- 2. signatures

    def signed(self, record: str, what: str, kind: str, status: str) -> None:
        signatures = self.signatures.get(record, [])
        people = Counter(s["signed_by_id"] for s in signatures)
        for person, times in people.items():
            if times > 1:
                steps = ", ".join(s["step"] for s in signatures if s["signed_by_id"] == person)
                self.add(
                    record,
                    f"{what}: {self.users[person]} signed it {times} times ({steps}): each "
                    "signature is another person's",
                )
        for signature in signatures:
            step, roles = signature["step"], signature["roles"]
            held = set(roles) if isinstance(roles, list) else set()
            if not held & STEP_ROLES.get(step, frozenset()):
                holding = f"the roles {', '.join(sorted(held))}" if held else "no role"
                self.add(
                    record,
                    f"{what}: {self.users[signature['signed_by_id']]} signed the {step} step "
                    f"holding {holding}; the {step} step is signed by "
                    f"{STEP_NEEDS.get(step, 'nobody: it is no step')}",
                )
        got = tuple(sorted(s["step"] for s in signatures))
        allowed = STEPS.get((kind, status))
        if allowed is not None and got not in allowed:
            options = " or ".join(sorted(" + ".join(a) or "none" for a in allowed))
            article = "an" if status[0] in "aeiou" else "a"
            self.add(
                record,
                f"{what} ({status}) has the signatures {' + '.join(got) or 'none'}; "
                f"{article} {status} {kind} has {options}",
            )
        self.sign_entries(record, what, signatures)

    # -------------------------------------------------------- 4. the chain

    def written(self, record: str, what: str, action: str) -> dict[str, Any] | None:
        """The entry that wrote the record (one), or None (a finding)."""
        found = [e for e in self.entries.get(record, []) if e["action"] in RECORD_ACTIONS]
        if not found:
            self.add(
                record,
                f"{what} is not in the audit log ({self.chain}): it was written outside the system",
            )
            return None
        if len(found) > 1:
            seqs = ", ".join(str(e["seq"]) for e in found)
            self.add(record, f"{what}: the audit log writes it more than once (entries {seqs})")
        if found[0]["action"] != action:
            self.add(
                record,
                f"{what}: audit entry {found[0]['seq']} of {self.chain} wrote it as "
                f"{found[0]['action']}, not {action}",
            )
        return found[0]

    def status_entries(self, record: str, action: str) -> list[dict[str, Any]]:
        return [e for e in self.entries.get(record, []) if e["action"] == action]

    def same(self, record: str, what: str, entry: dict[str, Any], stored: dict[str, Any]) -> None:
        """The figures ``entry`` states are the row's."""
        stated = entry["after"]
        differ = [key for key, value in stored.items() if stated.get(key) != value]
        if not differ:
            return
        detail = ""
        if "total" in differ:
            recorded = stated.get("total")
            recorded = major_text(recorded) if isinstance(recorded, int) else repr(recorded)
            detail = f": total {major_text(stored['total'])}, recorded {recorded}"
        self.add(
            record,
            f"{what}: its {_listed(differ)} {'differ' if len(differ) > 1 else 'differs'} from "
            f"what audit entry {entry['seq']} of {self.chain} recorded{detail}",
        )

    def sign_entries(self, record: str, what: str, signatures: list[dict[str, Any]]) -> None:
        """Every signature has its ``custody_sign`` entry: the same person, step and roles."""
        entries = [e for e in self.entries.get(record, []) if e["action"] == SIGN_ACTION]
        for signature in signatures:
            person, step = signature["signed_by_id"], signature["step"]
            match = next(
                (e for e in entries if e["actor_id"] == person and e["after"].get("step") == step),
                None,
            )
            name = self.users[person]
            if match is None:
                self.add(
                    record,
                    f"{what}: {name}'s {step} signature is not in the audit log: it was written "
                    "outside the system",
                )
                continue
            entries.remove(match)
            if match["after"].get("roles") != signature["roles"]:
                self.add(
                    record,
                    f"{what}: {name}'s {step} signature states the roles "
                    f"{signature['roles']!r}, audit entry {match['seq']} of {self.chain} "
                    f"recorded {match['after'].get('roles')!r}",
                )
        for entry in entries:
            self.add(
                record,
                f"{what}: audit entry {entry['seq']} of {self.chain} records "
                f"{entry['actor_name'] or entry['actor_id']}'s {entry['after'].get('step')} "
                "signature, which is not stored: it was removed",
            )

    def removed(self) -> None:
        """Entries about records this table does not hold: removed, or moved to another
        table."""
        held = {
            *(f"inventory:{r['pk']}" for r in self.rows.inventories),
            *(f"slip:{r['pk']}" for r in self.rows.slips),
            *(f"drop:{r['pk']}" for r in self.rows.drops),
        }
        models = {"inventory": Inventory, "slip": Slip, "drop": DropCount}
        for subject, entries in sorted(self.entries.items()):
            if subject in held:
                continue
            written = [e for e in entries if e["action"] in RECORD_ACTIONS]
            if not written:
                continue  # a variance's review, say: not a record's own entries
            entry = written[0]
            kind, _, pk = subject.partition(":")
            label = entry["after"].get("slip")
            named = f"{RECORD_ACTIONS[entry['action']]} {pk}" + (f" ({label})" if label else "")
            model = models.get(kind)
            elsewhere = (
                model._default_manager.filter(pk=pk).values_list("table_id", flat=True).first()
                if model is not None and pk.isdigit()
                else None
            )
            where = (
                f"it is at table {self.names.get(elsewhere, elsewhere)} now: moved outside the "
                "system"
                if elsewhere is not None
                else "it is missing: removed outside the system"
            )
            self.add(
                subject,
                f"audit entry {entry['seq']} of {self.chain} records {named} ({entry['action']}), "
                f"but {where}",
            )
