"""The audit check: the chain, its anchors, and every hand held to what the chain says.

1. The chain: sequence without gaps, every seal and link (``chain.chain_verify``), and every
   anchor written outside the database still in it (a truncated or rolled-back chain).
2. Every hand, against the chain:
   - the hand was opened through the system, and its frozen rules and set-up hash to its
     ``hand_open`` entry;
   - its stored action log is the one the chain recorded, action by action;
   - a settled hand has exactly one ``hand_settle`` entry and one stored settlement; an open
     or voided hand has neither;
   - the settlement's history ``{game, rules, config, actions}`` is the hand's own (its frozen
     rules and set-up and its stored actions), and it and the result hash to what the
     ``hand_settle`` entry says, and so do its nets and rake;
   - replaying the stored history through the game (every game: each hand is stored as a
     history) gives the stored result;
   - every seat row and payout line matches the result.
   Chain entries for hands that are no longer in the database are findings too.

Each finding names the hand (and its table and number), and where it applies the seat and
the payout line (0-based, in the order the result lists them).

A check reports its progress as it goes (:class:`Progress`, passed by `audit_check_run`): the audit
entries and hands to check, counted when it starts, and how many are done, written to the
check's row every :data:`PROGRESS_EVERY` items or :data:`PROGRESS_SECONDS`, each write in a
short transaction of its own so a reader sees it while the check runs.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import zip_longest
from typing import Any

from django.db import transaction

from casino.rules.contract import History, game
from tables.models import Hand

from .chain import (
    RunningDigest,
    anchors_compare,
    anchors_read,
    chain_verify,
    stored_form,
)
from .models import AuditCheck, AuditEntry, Settlement
from .services import (
    hand_setup_digest,
    result_nets,
    result_parties,
    reversed_result,
    settlement_binding,
)

MAX_FINDINGS = 500  # listed in a report; the total is always counted
PROGRESS_EVERY = 200  # items (audit entries and hands) between progress writes ...
PROGRESS_SECONDS = 1.0  # ... or this long, whichever comes first


class Progress:
    """How far a running check has got, written to its :class:`AuditCheck` row as it goes.

    Without a check (``check_id`` None) it only counts: ``audit_report()`` called on its own
    writes nothing."""

    def __init__(self, check_id: int | None = None) -> None:
        self.check_id = check_id
        self.stage = AuditCheck.Stage.QUEUED
        self.checked = 0
        self.total = 0
        self.entries = 0  # of the total, audit entries (the rest are hands)
        self._written_at = time.monotonic()
        self._written = 0

    def start(self) -> None:
        """Count what is to be checked: every audit entry, then every hand."""
        if self.check_id is not None:
            self.entries = AuditEntry.objects.count()
            self.total = self.entries + Hand.objects.count()
        self.enter(AuditCheck.Stage.CHAIN)

    def enter(self, stage: str) -> None:
        self.stage = AuditCheck.Stage(stage)
        self._write()

    def step(self) -> None:
        self.checked += 1
        if (
            self.checked - self._written >= PROGRESS_EVERY
            or time.monotonic() - self._written_at >= PROGRESS_SECONDS
        ):
            self._write()

    def chain_done(self) -> None:
        """The chain is verified, every entry counted as checked (a broken chain stops at
        its first bad entry: the ones after it are not verified one by one); the hands next."""
        self.checked = max(self.checked, self.entries)
        self.enter(AuditCheck.Stage.HANDS)

    def finish(self) -> None:
        """All checked; entries or hands added while the check ran count too."""
        self.total = self.checked = max(self.total, self.checked)
        self.enter(AuditCheck.Stage.DONE)

    def _write(self) -> None:
        self._written, self._written_at = self.checked, time.monotonic()
        if self.check_id is None:
            return
        self.total = max(self.total, self.checked)
        with transaction.atomic():
            AuditCheck.objects.filter(pk=self.check_id).update(
                stage=self.stage, checked=self.checked, total=self.total
            )


@dataclass
class ChainHand:
    """What the chain says about one hand."""

    setup: str | None = None
    opened: bool = False
    actions: RunningDigest = field(default_factory=RunningDigest)
    settles: list[dict[str, Any]] = field(default_factory=list)
    corrections: list[dict[str, Any]] = field(default_factory=list)


class ChainFacts:
    """Collects, while the chain is verified, what it says about each hand, and the seals
    of the anchored entries."""

    def __init__(self, anchored: set[int]) -> None:
        self.hands: dict[int, ChainHand] = {}
        self.anchored = anchored
        self.seals: dict[int, str] = {}

    def visit(self, entry: AuditEntry) -> None:
        if entry.seq in self.anchored:
            self.seals[entry.seq] = entry.hash
        if entry.hand_id is None:
            return
        hand = self.hands.setdefault(entry.hand_id, ChainHand())
        after = entry.after if isinstance(entry.after, dict) else {}
        if entry.action == "hand_open":
            hand.opened = True
            hand.setup = after.get("setup_sha256")
        elif entry.action == "hand_action":
            hand.actions.add(after.get("action"))
        elif entry.action == "hand_actions":  # a record imported as the hand's actions
            for action in after.get("actions") or ():
                hand.actions.add(action)
        elif entry.action == "hand_settle":
            hand.settles.append({**after, "seq": entry.seq})
        elif entry.action == "hand_correct":
            hand.corrections.append({**after, "seq": entry.seq})


class Findings:
    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []
        self.total = 0

    def add(
        self,
        hand: Hand | int,
        problem: str,
        *,
        seat: int | None = None,
        line: int | None = None,
    ) -> None:
        self.total += 1
        if len(self.items) >= MAX_FINDINGS:
            return
        where: dict[str, Any]
        if isinstance(hand, Hand):
            where = {"hand": hand.pk, "table": hand.table.name, "hand_number": hand.number}
        else:
            where = {"hand": hand, "table": None, "hand_number": None}
        if seat is not None:
            where["seat"] = seat
        if line is not None:
            where["line"] = line
        self.items.append({**where, "problem": problem})


def _short(value: Any, limit: int = 120) -> str:
    text = stored_form(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _differing_keys(old: dict[str, Any], new: dict[str, Any], skip: str) -> list[str]:
    return sorted(k for k in old.keys() | new.keys() if k != skip and old.get(k) != new.get(k))


def _differing_lines(old: list[Any], new: list[Any]) -> Iterator[tuple[int, Any, Any]]:
    """``(index, old, new)`` wherever two lists of lines differ (None past the shorter)."""
    for index, (a, b) in enumerate(zip_longest(old, new)):
        if a != b:
            yield index, a, b


def _line_key(line: dict[str, Any]) -> tuple[Any, ...]:
    return (
        line.get("wager"),
        line.get("stake"),
        line.get("outcome"),
        line.get("amount"),
        line.get("odds") or "",
        line.get("against"),
        line.get("capped_from"),
    )


def _compare_results(
    hand: Hand, stored: dict[str, Any], fresh: dict[str, Any], findings: Findings
) -> None:
    """Name every difference between the stored result and the re-settled one."""
    for key in _differing_keys(stored, fresh, skip="seats"):
        if key == "house":
            continue
        findings.add(
            hand,
            f"re-settling gives a different {key}: stored {_short(stored.get(key))}, "
            f"re-settled {_short(fresh.get(key))}",
        )
    stored_seats = {s["seat"]: s for s in result_parties(stored)}
    fresh_seats = {s["seat"]: s for s in result_parties(fresh)}
    for number in sorted(stored_seats.keys() | fresh_seats.keys()):
        old, new = stored_seats.get(number), fresh_seats.get(number)
        if old is None or new is None:
            side = "stored result" if old is None else "re-settled result"
            findings.add(hand, f"seat {number} is missing from the {side}", seat=number)
            continue
        for key in _differing_keys(old, new, skip="lines"):
            findings.add(
                hand,
                f"seat {number}: re-settling gives a different {key}: stored "
                f"{_short(old.get(key))}, re-settled {_short(new.get(key))}",
                seat=number,
            )
        for index, a, b in _differing_lines(old.get("lines", []), new.get("lines", [])):
            findings.add(
                hand,
                f"seat {number} line {index}: stored {_short(a)}, re-settled {_short(b)}",
                seat=number,
                line=index,
            )


def _compare_rows(
    hand: Hand, settlement: Settlement, result: dict[str, Any], findings: Findings
) -> None:
    """Every stored seat row and payout line against the result."""
    if settlement.rake != result.get("rake"):
        findings.add(
            hand, f"stored rake {settlement.rake} differs from the result's {result.get('rake')}"
        )
    rows = {row.seat: row for row in settlement.seats.all()}
    seats = {s["seat"]: s for s in result_parties(result)}
    for number in sorted(rows.keys() | seats.keys()):
        row, seat = rows.get(number), seats.get(number)
        if row is None or seat is None:
            problem = "has no stored seat row" if row is None else "has a stored row but no result"
            findings.add(hand, f"seat {number} {problem}", seat=number)
            continue
        stored = (row.role, row.status, row.hand_description, row.rake, row.net)
        expected = (seat["role"], seat["status"], seat.get("hand") or "", seat["rake"], seat["net"])
        if stored != expected:
            findings.add(
                hand,
                f"seat {number}: stored seat row (role, status, hand, rake, net) {stored} "
                f"differs from the result's {expected}",
                seat=number,
            )
        lines = [
            (p.wager, p.stake, p.outcome, p.amount, p.odds, p.against, p.capped_from)
            for p in row.lines.all()
        ]
        wanted = [_line_key(line) for line in seat.get("lines", [])]
        for index, a, b in _differing_lines(lines, wanted):
            findings.add(
                hand,
                f"seat {number} line {index}: stored payout line {a} differs from the result's {b}",
                seat=number,
                line=index,
            )


def _check_binding(
    hand: Hand, settlement: Settlement, entry: dict[str, Any], findings: Findings
) -> None:
    """The stored settlement against its ``hand_settle`` entry."""
    seq = entry["seq"]
    binding = settlement_binding(history=settlement.history, result=settlement.result)
    if binding["history_sha256"] != entry.get("history_sha256"):
        findings.add(
            hand,
            f"the stored history (rules, set-up or actions) is not the one settled "
            f"in audit entry {seq}",
        )
    if binding["result_sha256"] != entry.get("result_sha256"):
        findings.add(hand, f"the stored result is not the one settled in audit entry {seq}")
    if entry.get("settlement") != settlement.pk:
        findings.add(
            hand,
            f"audit entry {seq} settled it as settlement {entry.get('settlement')}, "
            f"the database holds settlement {settlement.pk}",
        )
    nets = result_nets(settlement.result)
    if entry.get("nets") != nets or entry.get("rake") != settlement.result.get("rake"):
        findings.add(hand, f"the stored nets or rake differ from audit entry {seq}")


def _check_resettle(
    hand: Hand, settlement: Settlement, actions: list[Any], findings: Findings
) -> None:
    """Replay the stored history; compare it with the hand's own, the result and every row."""
    own = History(hand.game, hand.rules, hand.config, tuple(actions)).to_dict()
    if stored_form(own) != stored_form(settlement.history):
        findings.add(
            hand,
            "the settlement's history differs from the hand's frozen rules, set-up and "
            "stored actions",
        )
    _check_replay(hand, settlement, findings)


def _check_replay(hand: Hand, settlement: Settlement, findings: Findings) -> None:
    """Replay a settlement's own history; compare the result and every stored row."""
    try:
        history = History.from_dict(settlement.history)
        state = game(history.game).replay(history)
        fresh = state.settle()
    except Exception as exc:  # a stored history the engine now refuses is a finding
        findings.add(hand, f"re-settling failed: {exc}")
    else:
        _compare_results(
            hand, settlement.result, json.loads(stored_form(fresh.to_dict())), findings
        )
    _compare_rows(hand, settlement, settlement.result, findings)


def _settlement_of(hand: Hand) -> Settlement | None:
    """The hand's own settlement (corrections aside)."""
    return next((s for s in hand.settlements.all() if s.kind == Settlement.Kind.SETTLEMENT), None)


def _check_corrections(
    hand: Hand, chain_hand: ChainHand | None, chain_whole: bool, findings: Findings
) -> None:
    """Each correction's reversal moves back exactly what the settlement it cancels moved, each
    corrected settlement replays to its result, and both are the ones a ``hand_correct``
    entry stored (by their hashes)."""
    rows = {row.pk: row for row in hand.settlements.all()}
    bound: set[int] = set()
    for entry in chain_hand.corrections if chain_whole and chain_hand else ():
        for part in ("reversal", "correction"):
            info = entry.get(part) if isinstance(entry.get(part), dict) else {}
            row = rows.get(info.get("settlement"))  # type: ignore[arg-type]
            if row is None:
                findings.add(
                    hand,
                    f"audit entry {entry['seq']} stored a {part} (settlement "
                    f"{info.get('settlement')}) that is missing",
                )
                continue
            bound.add(row.pk)
            binding = settlement_binding(history=row.history, result=row.result)
            stated = {key: info.get(key) for key in binding}
            if binding != stated or row.corrects_id != entry.get("corrects"):
                findings.add(
                    hand,
                    f"the stored {part} (settlement {row.pk}) is not the one audit entry "
                    f"{entry['seq']} stored",
                )
    for row in rows.values():
        if row.kind == Settlement.Kind.SETTLEMENT:
            continue
        if chain_whole and row.pk not in bound:
            findings.add(
                hand,
                f"{row.get_kind_display()} {row.pk} is not in the audit log: it was written "
                "outside the system",
            )
        if row.kind == Settlement.Kind.CORRECTION:
            _check_replay(hand, row, findings)
            continue
        cancelled = rows.get(row.corrects_id)  # type: ignore[arg-type]
        if cancelled is None:
            findings.add(hand, f"reversal {row.pk} cancels a settlement the hand does not have")
        elif stored_form(row.result) != stored_form(
            reversed_result(cancelled.result, cancelled.pk)
        ) or stored_form(row.history) != stored_form(cancelled.history):
            findings.add(
                hand,
                f"reversal {row.pk} does not move back exactly what settlement {cancelled.pk} "
                "moved",
            )
        _compare_rows(hand, row, row.result, findings)


def _check_hand(
    hand: Hand, chain_hand: ChainHand | None, chain_whole: bool, findings: Findings
) -> None:
    actions = [action.action for action in hand.actions.all()]
    settlement = _settlement_of(hand)
    if chain_whole:
        if chain_hand is None or not chain_hand.opened:
            findings.add(
                hand, "the hand is not in the audit log: it was written outside the system"
            )
            return
        if chain_hand.setup != hand_setup_digest(hand):
            findings.add(
                hand,
                "the hand's frozen rules or set-up differ from what the audit log recorded "
                "when it opened",
            )
        stored = RunningDigest.of(actions)
        if (stored.count, stored.hexdigest()) != (
            chain_hand.actions.count,
            chain_hand.actions.hexdigest(),
        ):
            findings.add(
                hand,
                f"the hand's {stored.count} stored actions differ from the "
                f"{chain_hand.actions.count} actions in the audit log",
            )
        settles = chain_hand.settles
        if len(settles) > 1:
            seqs = ", ".join(str(s["seq"]) for s in settles)
            findings.add(hand, f"the audit log settles the hand more than once (entries {seqs})")
        if hand.status == Hand.Status.SETTLED:
            if not settles:
                findings.add(hand, "the hand is marked settled, but the audit log never settled it")
            if settlement is None:
                where = f" (audit entry {settles[0]['seq']})" if settles else ""
                findings.add(hand, f"the hand was settled{where} but its settlement is missing")
        else:
            if settles:
                findings.add(
                    hand,
                    f"the hand is {hand.status}, but audit entry {settles[0]['seq']} settled it",
                )
            if settlement is not None:
                findings.add(hand, f"the hand is {hand.status}, but a settlement is stored for it")
        if settlement is not None and settles:
            _check_binding(hand, settlement, settles[0], findings)
    # With a broken chain what it says cannot be trusted, but the stored rows can still be
    # re-settled and compared with each other.
    if settlement is not None:
        _check_resettle(hand, settlement, actions, findings)
    _check_corrections(hand, chain_hand, chain_whole, findings)


def audit_report(progress: Progress | None = None) -> dict[str, Any]:
    """Verify the chain and its anchors, then every hand; the report a check stores.
    ``progress`` (a check's) hears how far it got."""
    progress = progress or Progress()
    progress.start()
    anchors = anchors_read()
    facts = ChainFacts({anchor["seq"] for anchor in anchors.found})

    def visit(entry: AuditEntry) -> None:
        facts.visit(entry)
        progress.step()

    chain = chain_verify(visit)
    progress.chain_done()
    anchoring = anchors_compare(anchors, facts.seals, chain)
    findings = Findings()
    hands_checked = settlements_checked = 0
    queryset = (
        Hand.objects.select_related("table")
        .prefetch_related("actions", "settlements__seats__lines")
        .order_by("id")
    )
    for hand in queryset.iterator(chunk_size=500):
        hands_checked += 1
        settlements_checked += len(hand.settlements.all())
        _check_hand(hand, facts.hands.pop(hand.pk, None), chain.ok, findings)
        progress.step()
    if chain.ok:
        for hand_id in sorted(facts.hands):
            findings.add(hand_id, "the audit log records this hand, but it is missing")
    progress.finish()
    return {
        "ok": chain.ok and anchoring["ok"] and findings.total == 0,
        "chain": chain.to_dict(),
        "anchors": anchoring,
        "hands_checked": hands_checked,
        "settlements_checked": settlements_checked,
        "findings": findings.items,
        "findings_total": findings.total,
    }
