"""The audit check: every chain, its anchors, and every hand held to what its chain says.

1. Each chain (one per table, and the house chain): sequence without gaps, every seal and
   link (``chain.chain_verify``), every anchor written outside the database still in it, and
   no chain cut short of an anchored head (a truncated or rolled-back chain).
2. Every hand, against its table's chain:
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
   - every seat row and payout line matches the result;
   - corrections: each reversal moves back exactly what it cancels, each corrected
     settlement replays, both are the ones a ``hand_correct`` entry stored.
   Chain entries for hands that are no longer in the database, and hands the chain never
   opened, are findings too.
3. Chip custody, every record in every check (``custody/audit.py``): slips numbered without
   gaps, every signature by a role its step allows, every total the sum of its counts, and
   every record and signature in its table's chain with the same figures.

**Incremental by default.** A passed check anchors the heads it verified (``verified``), and
the next check starts each chain there: the anchored entry must still carry its seal and the
next entry must link to it, so nothing before it can change unnoticed without the key; hands
are re-checked when an entry about them follows the anchor (a correction a year later
re-checks that hand). A ``full`` check verifies everything from each chain's first entry.

**In chunks.** :func:`check_plan` divides the work into chunks of at most
:data:`CHUNK_ENTRIES` entries of one chain (by table, then by position in time), each checked
by :func:`chunk_check` on its own (a Celery worker each, in parallel) in one consistent read,
and :func:`report_combine` joins their results; the settlements' tree and chip custody are a
chunk each. A hand is checked once, in the chunk holding its last entry. Each finding names
the hand (and its table and number), and where it applies the seat and the payout line
(0-based, in the order the result lists them); a custody finding names its table and record.

Rows are read as plain values by hand-written SQL (:mod:`payouts.reads`), a few statements
per few hundred hands, with Python's cycle collector paused while a chunk runs: a worker
re-verifies a few thousand hands a second (``scripts/bench.py``).

**Quick paths** (PostgreSQL, :mod:`payouts.audit_fast`): a chain's entries are read as JSON
the database builds and their seals taken over their sorted bytes; the tree's leaves are read
and hashed without model instances. A quick path only ever confirms: whatever it cannot
confirm is checked by the full path, so the findings are the full path's
(``tests/payouts/test_audit_quick_pg.py`` compares both on tampered data). A hand's own quick
path (one row a hand built by the database, its history and result compared there) was
tried and left out: it saved this process a third of a millisecond a hand and cost
PostgreSQL over a millisecond more.
"""

from __future__ import annotations

import gc
import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import zip_longest
from operator import itemgetter
from typing import Any

import orjson
from django.db import transaction
from django.db.models import F

from casino.audit_verify import formats
from casino.rules.contract import History, game
from casino.rules.messages import pre_messages_form
from tables.models import Hand, Table

from .audit_fast import chain_verify_quick
from .audit_plan import CUSTODY, TREE, Chunk, _boundary_hashes, check_plan
from .audit_tree import tree_check
from .chain import (
    chain_name,
    digest_matches,
    fast_text,
    stored_form,
)
from .models import AuditCheck, AuditEntry, Settlement
from .reads import (
    LINE_FIELDS,
    HandRow,
    SettlementRow,
    entries_of_hands,
    event_entries,
    hands_load,
    table_events,
    unopened_hands,
)
from .services import (
    hand_setup,
    result_nets,
    result_parties,
    reversed_result,
    settlement_binding,
)

MAX_FINDINGS = 500  # listed in a report; the total is always counted
HAND_BATCH = 500  # hands read together
PROGRESS_EVERY = 500  # items (audit entries and hands) between progress writes ...
PROGRESS_SECONDS = 1.0  # ... or this long, whichever comes first


class Progress:
    """How far a running check has got, added to its :class:`AuditCheck` row as it goes (each
    chunk adds what it did; the rows' sum is the check's progress).

    Without a check (``check_id`` None) it only counts: ``audit_report()`` writes nothing."""

    def __init__(self, check_id: int | None = None) -> None:
        self.check_id = check_id
        self.checked = 0
        self._written = 0
        self._written_at = time.monotonic()

    def step(self, count: int = 1) -> None:
        self.checked += count
        if (
            self.checked - self._written >= PROGRESS_EVERY
            or time.monotonic() - self._written_at >= PROGRESS_SECONDS
        ):
            self.flush()

    def flush(self) -> None:
        done, self._written, self._written_at = (
            self.checked - self._written,
            self.checked,
            time.monotonic(),
        )
        if self.check_id is None or not done:
            return
        with transaction.atomic():
            AuditCheck.objects.filter(pk=self.check_id).update(checked=F("checked") + done)


# ---------------------------------------------------------------- what the chain says of each hand


@dataclass
class ChainHand:
    """What the chain says about one hand."""

    setup: str | None = None
    opened: bool = False
    actions: list[Any] = field(default_factory=list)
    settles: list[dict[str, Any]] = field(default_factory=list)
    corrections: list[dict[str, Any]] = field(default_factory=list)
    voids: list[int] = field(default_factory=list)  # the seqs of its hand_void entries


class ChainFacts:
    """Collects, while a chain is verified, what it says about each hand."""

    def __init__(self) -> None:
        self.hands: dict[int, ChainHand] = {}

    def visit(self, entry: dict[str, Any]) -> None:
        hand_id = entry["hand_id"]
        if hand_id is None:
            return
        hand = self.hands.get(hand_id)
        if hand is None:
            hand = self.hands[hand_id] = ChainHand()
        action = entry["action"]
        after = entry["after"] if isinstance(entry["after"], dict) else {}
        if action == "hand_open":
            hand.opened = True
            hand.setup = after.get("setup_sha256")
        elif action == "hand_action":
            hand.actions.append(after.get("action"))
        elif action == "hand_actions":  # a record imported as the hand's actions
            hand.actions.extend(after.get("actions") or ())
        elif action == "hand_settle":
            hand.settles.append({**after, "seq": entry["seq"]})
        elif action == "hand_correct":
            hand.corrections.append({**after, "seq": entry["seq"]})
        elif action == "hand_void":
            hand.voids.append(entry["seq"])


class Findings:
    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []
        self.total = 0

    def add(
        self,
        hand: HandRow | int | None,
        problem: str,
        *,
        seat: int | None = None,
        line: int | None = None,
        table: str | None = None,
        record: str | None = None,
    ) -> None:
        """A finding about a hand (its row, or its id when it is missing), or about no hand
        (a table event, a settlement's place in the tree, a custody record: ``table`` names
        where, ``record`` which row, as ``slip:12``)."""
        self.total += 1
        if len(self.items) >= MAX_FINDINGS:
            return
        where: dict[str, Any]
        if isinstance(hand, HandRow):
            where = {"hand": hand.pk, "table": hand.table_name, "hand_number": hand.number}
        else:
            where = {"hand": hand, "table": table, "hand_number": None}
        if seat is not None:
            where["seat"] = seat
        if line is not None:
            where["line"] = line
        if record is not None:
            where["record"] = record
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
    hand: HandRow, stored: dict[str, Any], fresh: dict[str, Any], findings: Findings
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


def _rows_match(settlement: SettlementRow, result: dict[str, Any]) -> bool:
    """Whether every stored seat row and payout line is the result's, on a quick path: rows
    (read in seat order) and the result's parties paired in seat order, without the maps and
    words :func:`_compare_rows` makes. True only where it would find nothing; anything
    else (a difference, a seat twice, a malformed result) is left to it."""
    try:
        if settlement.rake != result.get("rake"):
            return False
        parties = sorted(result_parties(result), key=itemgetter("seat"))
        rows = settlement.seats
        if len(parties) != len(rows):
            return False
        previous = None
        for row, seat in zip(rows, parties, strict=True):
            number = row.seat
            if (
                number == previous
                or number != seat["seat"]
                or row.role != seat["role"]
                or row.status != seat["status"]
                or row.hand_description != (seat.get("hand") or "")
                or row.rake != seat["rake"]
                or row.net != seat["net"]
            ):
                return False
            previous = number
            lines = seat.get("lines", [])
            if len(lines) != len(row.lines):
                return False
            for stored, line in zip(row.lines, lines, strict=True):
                # The line's fields in one pass, as _line_key gives them where the odds are
                # set; a line without odds (stored as "") is keyed by _line_key itself.
                quick = stored == tuple(map(line.get, LINE_FIELDS)) and stored[4]
                if not quick and stored != _line_key(line):
                    return False
    except Exception:  # a malformed result: the full comparison words it (or raises as before)
        return False
    return True


def _compare_rows(
    hand: HandRow, settlement: SettlementRow, result: dict[str, Any], findings: Findings
) -> None:
    """Every stored seat row and payout line against the result."""
    if _rows_match(settlement, result):
        return
    if settlement.rake != result.get("rake"):
        findings.add(
            hand, f"stored rake {settlement.rake} differs from the result's {result.get('rake')}"
        )
    rows = {row.seat: row for row in settlement.seats}
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
        lines = row.lines
        wanted = [_line_key(line) for line in seat.get("lines", [])]
        for index, a, b in _differing_lines(lines, wanted):
            findings.add(
                hand,
                f"seat {number} line {index}: stored payout line {a} differs from the result's {b}",
                seat=number,
                line=index,
            )


def _check_binding(
    hand: HandRow, settlement: SettlementRow, entry: dict[str, Any], findings: Findings
) -> None:
    """The stored settlement against its ``hand_settle`` entry."""
    seq = entry["seq"]
    if not digest_matches(settlement.history, entry.get("history_sha256")):
        findings.add(
            hand,
            f"the stored history (rules, set-up or actions) is not the one settled "
            f"in audit entry {seq}",
        )
    if not digest_matches(settlement.result, entry.get("result_sha256"), _result_text(settlement)):
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
    hand: HandRow, settlement: SettlementRow, actions: list[Any], findings: Findings
) -> None:
    """Replay the stored history; compare it with the hand's own, the result and every row."""
    own = {"game": hand.game, "rules": hand.rules, "config": hand.config, "actions": actions}
    # Both read back from the database, so compared as JSON values (no text needed).
    if own != settlement.history:
        findings.add(
            hand,
            "the settlement's history differs from the hand's frozen rules, set-up and "
            "stored actions",
        )
    _check_replay(hand, settlement, findings)


def _check_replay(hand: HandRow, settlement: SettlementRow, findings: Findings) -> None:
    """Replay a settlement's own history; compare the result and every stored row."""
    try:
        history = History.from_dict(settlement.history)
        state = game(history.game).replay(history)
        fresh = state.settle()
    except Exception as exc:  # a stored history the engine now refuses is a finding
        findings.add(hand, f"re-settling failed: {exc}")
    else:
        result = fresh.to_dict()
        # The same sorted text is the same result (and then the older forms below change
        # nothing: a result equal to the stored one is its own pre-messages form).
        if fast_text(result) == _result_text(settlement) is not None:
            _compare_rows(hand, settlement, settlement.result, findings)
            return
        # A result stored before the explanation's messages compares without them.
        replayed = pre_messages_form(result, settlement.result)
        text = fast_text(replayed)
        # The same sorted text is the same result; otherwise compare in the stored form.
        if text is None or text != _result_text(settlement):
            stored = orjson.loads(orjson.dumps(replayed, option=orjson.OPT_NON_STR_KEYS))
            if stored != settlement.result:  # name every difference (in the stored form)
                _compare_results(
                    hand, settlement.result, json.loads(stored_form(replayed)), findings
                )
    _compare_rows(hand, settlement, settlement.result, findings)


def _result_text(settlement: SettlementRow) -> bytes | None:
    """The stored result's sorted compact text, worked out once per check of a hand."""
    if settlement.result_text is None:
        settlement.result_text = fast_text(settlement.result) or b""
    return settlement.result_text or None


def _settlement_of(hand: HandRow) -> SettlementRow | None:
    """The hand's own settlement (corrections aside)."""
    return next((s for s in hand.settlements if s.kind == Settlement.Kind.SETTLEMENT), None)


def _check_corrections(
    hand: HandRow, chain_hand: ChainHand | None, chain_whole: bool, findings: Findings
) -> None:
    """Each correction's reversal moves back exactly what the settlement it cancels moved, each
    corrected settlement replays to its result, and both are the ones a ``hand_correct``
    entry stored (by their hashes)."""
    rows = {row.pk: row for row in hand.settlements}
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
                f"{Settlement.Kind(row.kind).label} {row.pk} is not in the audit log: it was written "
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
    hand: HandRow, chain_hand: ChainHand | None, chain_whole: bool, findings: Findings
) -> None:
    actions = hand.actions
    settlement = _settlement_of(hand)
    if chain_whole:
        if chain_hand is None or not chain_hand.opened:
            findings.add(
                hand, "the hand is not in the audit log: it was written outside the system"
            )
            return
        if not digest_matches(hand_setup(hand), chain_hand.setup):
            findings.add(
                hand,
                "the hand's frozen rules or set-up differ from what the audit log recorded "
                "when it opened",
            )
        if actions != chain_hand.actions:
            findings.add(
                hand,
                f"the hand's {len(actions)} stored actions differ from the "
                f"{len(chain_hand.actions)} actions in the audit log",
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
        voided = hand.status == Hand.Status.VOIDED
        if voided and not chain_hand.voids:
            findings.add(hand, "the hand is marked voided, but the audit log never voided it")
        elif not voided and chain_hand.voids:
            findings.add(
                hand, f"the hand is {hand.status}, but audit entry {chain_hand.voids[0]} voided it"
            )
        if settlement is not None and settles:
            _check_binding(hand, settlement, settles[0], findings)
    # With a broken chain what it says cannot be trusted, but the stored rows can still be
    # re-settled and compared with each other.
    if settlement is not None:
        _check_resettle(hand, settlement, actions, findings)
    _check_corrections(hand, chain_hand, chain_whole, findings)


# ---------------------------------------------------------------- one chunk


def _later_hands(key: int | None, hand_ids: set[int], through: int, end: int) -> set[int]:
    """Of ``hand_ids``, those with entries in a later chunk of the chain (checked there)."""
    if through >= end or not hand_ids:
        return set()
    queryset = AuditEntry.objects.filter(seq__gt=through, seq__lte=end, hand_id__in=hand_ids)
    queryset = queryset.filter(table__isnull=True) if key is None else queryset.filter(table=key)
    return set(queryset.values_list("hand_id", flat=True).distinct())


@dataclass
class ChunkResult:
    chain: dict[str, Any]
    last_hash: str
    anchor_problems: list[str]
    findings: Findings
    hands_checked: int = 0
    settlements_checked: int = 0
    in_play: int = 0  # hands with entries since the check was planned: the next check's

    def to_dict(self) -> dict[str, Any]:
        return {
            "chain": self.chain,
            "in_play": self.in_play,
            "last_hash": self.last_hash,
            "anchor_problems": self.anchor_problems,
            "hands_checked": self.hands_checked,
            "settlements_checked": self.settlements_checked,
            "findings": self.findings.items,
            "findings_total": self.findings.total,
        }


def chunk_check(chunk: Chunk, progress: Progress | None = None) -> dict[str, Any]:
    """Check one chunk. It runs beside the tables' work, without a long transaction: a hand
    is checked against entries read *after* its rows (a settlement's rows and its entry commit
    together, so the entries hold at least what the rows show), and a hand with entries
    written since the check was planned is still in play: it is left to the next check,
    which covers those entries."""
    with _collector_paused():
        return _chunk_check(chunk, progress or Progress())


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector off while a chunk is checked. A chunk makes hundreds of
    thousands of short-lived dicts and lists (decoded rows, replayed hands), which reference
    counting frees; the collector would only re-scan them, a fifth of the check's time. It is
    switched back on after, as it was."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _chunk_check(chunk: Chunk, progress: Progress) -> dict[str, Any]:
    if chunk.part == TREE:
        return tree_check(chunk.tree, progress)
    if chunk.part == CUSTODY:
        from custody.audit import custody_check  # custody's part: it builds on this module

        return custody_check(progress)
    key = chunk.table_id
    name = chain_name(key, dict(Table.objects.filter(pk=key).values_list("pk", "name")))
    facts = ChainFacts()
    anchored = {int(seq): (str(seal_), at) for seq, seal_, at in chunk.anchored}
    seals: dict[int, str] = {}
    seen: list[int] = []  # hands in the order the chunk meets them

    def visit(entry: dict[str, Any]) -> None:
        if entry["seq"] in anchored:
            seals[entry["seq"]] = entry["hash"]
        if entry["hand_id"] is not None and entry["hand_id"] not in facts.hands:
            seen.append(entry["hand_id"])
        facts.visit(entry)
        progress.step()

    anchor_problems: list[str] = []
    if chunk.after_seq and chunk.after_seq in anchored:  # where an incremental check starts
        start = _boundary_hashes(key, [chunk.after_seq]).get(chunk.after_seq)
        seal_, at = anchored[chunk.after_seq]
        if start != seal_:
            anchor_problems.append(
                f"audit entry {chunk.after_seq} of {name} differs from the one anchored at "
                f"{at}: the chain was rewritten"
            )
    report = chain_verify_quick(
        key,
        after_seq=chunk.after_seq,
        after_hash=chunk.after_hash,
        through_seq=chunk.through_seq,
        visit=visit,
        name=name,
    )
    for seq, (seal_, at) in anchored.items():
        if seq in seals and seals[seq] != seal_:
            anchor_problems.append(
                f"audit entry {seq} of {name} differs from the one anchored at {at}: "
                "the chain was rewritten"
            )
    findings = Findings()
    result = ChunkResult(report.to_dict(), report.last_hash, anchor_problems, findings)
    later = _later_hands(key, set(seen), chunk.through_seq, chunk.chain_end) if report.ok else set()
    mine = [hand_id for hand_id in seen if hand_id not in later]
    # Hands whose rows were written since the last check, with no entry in this stretch.
    mine += [hand_id for hand_id in chunk.recheck if hand_id not in facts.hands]
    for start in range(0, len(mine), HAND_BATCH):
        batch = mine[start : start + HAND_BATCH]
        hands = hands_load(batch)  # the rows first, then what else the chain says of them
        in_play: set[int] = set()
        if report.ok:
            for entry in entries_of_hands(
                key, batch, before=chunk.after_seq, after=chunk.chain_end
            ):
                if entry["seq"] > chunk.chain_end:
                    in_play.add(entry["hand_id"])
                else:
                    facts.visit(entry)
        result.in_play += len(in_play)
        for hand_id in batch:
            if hand_id in in_play:
                continue
            hand = hands.get(hand_id)
            if hand is None:
                if report.ok:
                    findings.add(hand_id, "the audit log records this hand, but it is missing")
                continue
            _check(hand, facts.hands.get(hand_id), report.ok, result)
            progress.step()
    if chunk.unopened and key is not None and report.ok:
        # The table's hands that no entry opened: written outside the system.
        for hand in hands_load(unopened_hands(key)).values():
            _check(hand, None, True, result)
    if chunk.events and key is not None and report.ok:
        events_check(key, name, chunk.events, chunk.chain_start, findings)
    progress.flush()
    return result.to_dict()


def _check(hand: HandRow, chain_hand: ChainHand | None, whole: bool, result: ChunkResult) -> None:
    result.hands_checked += 1
    result.settlements_checked += len(hand.settlements)
    _check_hand(hand, chain_hand, whole, result.findings)


def events_check(
    key: int, name: str, event_ids: list[int], after_seq: int, findings: Findings
) -> None:
    """Every table event written since the last check (``event_ids``; every event, in a full
    check) must be in its table's chain since then (entries after ``after_seq``, those
    written while the check runs included: an event and its entry commit together): an
    entry of the event's kind, by the same person, about the same hand, stating the same
    data. Events alike in all of that are matched by number (two need two entries)."""
    events = table_events(event_ids)
    entries: dict[tuple[Any, ...], int] = {}
    for alike in event_entries(key, after_seq, {kind for _, kind, *_ in events}):
        entries[alike] = entries.get(alike, 0) + 1
    for pk, kind, hand, by, data in events:
        alike = (kind, hand, by, data)
        if entries.get(alike, 0) > 0:
            entries[alike] -= 1
            continue
        findings.add(
            hand,
            f"table event {pk} ({kind}) at {name} is not in the audit log: it was written "
            "outside the system",
            table=name,
        )


# ---------------------------------------------------------------- the report


def report_combine(
    plan: dict[str, Any], results: list[tuple[Chunk, dict[str, Any]]]
) -> dict[str, Any]:
    """One report from a plan and its chunks' results (in the plan's order)."""
    problems = list(plan["problems"])
    chains: dict[str, dict[str, Any]] = {}
    broken: list[dict[str, Any]] = []
    findings: list[dict[str, Any]] = []
    findings_total = hands = settlements = entries = in_play = 0
    previous: tuple[Chunk, dict[str, Any]] | None = None
    tree: dict[str, Any] = {}
    custody: dict[str, int] = {}
    for chunk, result in results:
        chain = result["chain"]
        entries += chain["entries_checked"]
        hands += result["hands_checked"]
        settlements += result["settlements_checked"]
        in_play += result.get("in_play", 0)
        findings_total += result["findings_total"]
        findings.extend(result["findings"][: MAX_FINDINGS - len(findings)])
        problems.extend(result["anchor_problems"])
        if chunk.part == TREE:
            tree = {**result["tree"], "leaves_checked": result.get("leaves_checked", 0)}
            continue
        if chunk.part == CUSTODY:
            custody = result["custody"]
            continue
        key = formats.chain_key(chunk.table_id)
        summary = chains.setdefault(key, {"ok": True, "entries_checked": 0, "last_seq": 0})
        summary["entries_checked"] += chain["entries_checked"]
        summary["last_seq"] = max(summary["last_seq"], chain["last_seq"])
        if not chain["ok"] and summary["ok"]:
            summary["ok"] = False
            broken.append(chain)
        if (
            previous is not None
            and previous[0].table_id == chunk.table_id
            and previous[1]["chain"]["ok"]
            and chain["ok"]
            and previous[1]["last_hash"] != chunk.after_hash
        ):
            summary["ok"] = False
            broken.append(
                {
                    **chain,
                    "ok": False,
                    "broken_at": chunk.after_seq,
                    "problem": f"audit entry {chunk.after_seq} of "
                    f"{chain_name(chunk.table_id)} changed while it was checked",
                }
            )
        previous = chunk, result
    first = broken[0] if broken else {}
    ok_chain = not broken
    return {
        "ok": ok_chain and not problems and findings_total == 0,
        "full": plan["full"],
        "chain": {
            "ok": ok_chain,
            "chains": len(chains),
            "entries_checked": entries,
            "broken_at": first.get("broken_at"),
            "problem": first.get("problem"),
            "table": first.get("table"),
            "broken": broken[:MAX_FINDINGS],
        },
        "anchors": {**plan["anchors"], "ok": not problems, "problems": problems},
        "heads": plan["heads"],
        "tree": tree,
        "hands_checked": hands,
        "hands_in_play": in_play,
        "settlements_checked": settlements,
        "custody": custody,
        "findings": findings,
        "findings_total": findings_total,
    }


def verified_statement(check_id: int, plan: dict[str, Any], report: dict[str, Any]) -> dict:
    """What a passed check signs it verified (its checkpoint's ``verified``): where each
    chain was verified to, the tree's size and right edge, and every audited table's mark."""
    return {
        "check": check_id,
        "full": report["full"],
        "chains": plan["chains"],
        "settlements": {
            "size": report["tree"]["size"],
            "frontier": report["tree"]["frontier"],
        },
        "rows": plan["rows"],
    }


def audit_report(
    *, full: bool = True, progress: Callable[[], Progress] | None = None
) -> dict[str, Any]:
    """Plan a check and run every chunk here, one after another; the report a check stores.
    (A requested check runs its chunks on Celery workers instead: ``services``.)"""
    plan = check_plan(full=full)
    results = [
        (chunk, chunk_check(chunk, progress() if progress else None)) for chunk in plan.chunks
    ]
    return report_combine(plan.to_dict(), results)
