"""The checks of the standalone verifier: an exported audit bundle (``verify_bundle``) or one
settlement's inclusion proof (``verify_proof``), with nothing but the public key the casino
published (``docs/audit-verify.md``, sections "The bundle", "What the verifier checks" and
"Inclusion proof").

The bundle is read one line at a time and never held whole: per chain only its running state
(last number, last seal, the digest so far), for the settlements' tree only its right edge
(:class:`merkle.Frontier`), and from the entries only, per settlement id, the hashes the chain
states for it. The checkpoints come before the entries in the bundle, so the sizes they state
are known before the entries and settlements they are compared with.

Every problem is a plain sentence naming the record it is about (line number, checkpoint
number, chain and entry number, settlement id and position). The report lists the first
:data:`MAX_PROBLEMS` and counts them all.

Standard library and ``cryptography`` only; ``--replay`` alone imports ``casino.rules`` (the
pure Python rules engines), and only when asked for.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from . import formats, merkle

#: How many problems a report lists (it counts every one).
MAX_PROBLEMS = 200

#: The record types of a bundle, in the order the bundle holds them.
ORDER = ("bundle", "key_handover", "checkpoint", "consistency", "entry", "settlement", "end")

#: What the end record counts, and the record type each count is of.
END_COUNTS = {
    "key_handovers": ("key_handover", "key hand-overs"),
    "checkpoints": ("checkpoint", "checkpoints"),
    "consistency": ("consistency", "consistency proofs"),
    "entries": ("entry", "entries"),
    "settlements": ("settlement", "settlements"),
}

#: Each record type in words: one record of it, and the records of it.
WORDS = {
    "bundle": ("a bundle record", "the bundle record"),
    "key_handover": ("a key hand-over", "key hand-overs"),
    "checkpoint": ("a checkpoint", "checkpoints"),
    "consistency": ("a consistency proof", "consistency proofs"),
    "entry": ("an entry", "entries"),
    "settlement": ("a settlement", "settlements"),
    "end": ("an end record", "the end record"),
}

KINDS = ("settlement", "reversal", "correction")

PathLike = str | os.PathLike[str]


class InputError(Exception):
    """The input cannot be read at all (a missing file, a line that is not JSON, a public key
    that is not one): nothing was verified. The command line exits 2 with this message."""


# ---------------------------------------------------------------- the report


@dataclass
class Counts:
    """How much of each kind of record was checked."""

    key_handovers: int = 0  # hand-over records read
    key_handovers_accepted: int = 0
    keys_trusted: int = 0  # the trusted key and every key handed over to from it
    checkpoints: int = 0
    consistency_proofs: int = 0
    chains: int = 0
    entries: int = 0
    entries_covered: int = 0  # at or below the last checkpoint's size of their chain
    entries_not_covered: int = 0
    settlements: int = 0
    settlements_covered: int = 0  # at a position below the last checkpoint's tree size
    settlements_not_covered: int = 0
    anchors: int = 0  # records of the anchor file read
    replayed: int = 0  # settlements and corrections replayed through the rules engines
    reversals_checked: int = 0


@dataclass
class Report:
    """What was verified, and every problem found (the first :data:`MAX_PROBLEMS` listed)."""

    mode: str  # "bundle" or "proof"
    source: str  # the file (or "<lines>") verified
    problems: list[str] = field(default_factory=list)
    problem_count: int = 0
    counts: Counts = field(default_factory=Counts)
    facts: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    limit: int = MAX_PROBLEMS

    @property
    def ok(self) -> bool:
        return self.problem_count == 0

    def problem(self, text: str) -> None:
        """Count a problem; list it while fewer than ``limit`` are listed."""
        self.problem_count += 1
        if len(self.problems) < self.limit:
            self.problems.append(text)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "mode": self.mode,
            "source": self.source,
            "problem_count": self.problem_count,
            "problems": list(self.problems),
            "counts": asdict(self.counts),
            "facts": dict(self.facts),
            "notes": list(self.notes),
        }

    def summary_lines(self) -> list[str]:
        """The report as a few lines a reader takes in at a glance, each problem on its own
        line prefixed ``problem:``."""
        lines = _proof_summary(self) if self.mode == "proof" else _bundle_summary(self)
        lines.extend(f"note: {note}" for note in self.notes)
        lines.extend(f"problem: {problem}" for problem in self.problems)
        hidden = self.problem_count - len(self.problems)
        if hidden:
            lines.append(f"({hidden} more problems are not listed)")
        if self.ok:
            lines.append("result: no problems found")
        else:
            lines.append(f"result: {_plural(self.problem_count, 'problem')} found")
        return lines


def _plural(count: int, noun: str, many: str | None = None) -> str:
    return f"{count} {noun if count == 1 else (many or noun + 's')}"


def _bundle_summary(report: Report) -> list[str]:
    c, f = report.counts, report.facts
    last = f.get("last_checkpoint")
    keys = ", ".join(f.get("keys") or []) or "none"
    lines = [
        f"audit bundle {report.source} (database {f.get('database')}, exported "
        f"{f.get('exported_at')})",
        f"checked: trusted key {f.get('trusted_key')}; {_plural(c.key_handovers, 'key hand-over')}"
        f" ({c.key_handovers_accepted} accepted); keys trusted: {keys}",
    ]
    if last:
        lines.append(
            f"checked: {_plural(c.checkpoints, 'checkpoint')}, the last number {last['number']} "
            f"of {last['at']}; {_plural(c.consistency_proofs, 'consistency proof')}"
        )
        covered = f"covered by checkpoint {last['number']}"
    else:
        lines.append("checked: no checkpoint (nothing in the bundle is signed)")
        covered = "covered by a checkpoint"
    lines.append(
        f"checked: {_plural(c.chains, 'chain')}, {_plural(c.entries, 'entry', 'entries')}: "
        f"{c.entries_covered} {covered}, {c.entries_not_covered} not yet covered"
    )
    lines.append(
        f"checked: {_plural(c.settlements, 'settlement')} in the tree: "
        f"{c.settlements_covered} included in {covered.removeprefix('covered by ')}, "
        f"{c.settlements_not_covered} not yet covered"
    )
    if f.get("anchors"):
        lines.append(
            f"checked: anchor file {f['anchors']}: {_plural(c.anchors, 'record')} held against "
            "the bundle"
        )
    if f.get("replay"):
        lines.append(
            f"checked: {c.replayed} settlements and corrections replayed through the rules "
            f"engines, {_plural(c.reversals_checked, 'reversal')} against what they reverse"
        )
    return lines


def _proof_summary(report: Report) -> list[str]:
    f = report.facts
    lines = [f"inclusion proof {report.source}"]
    if "checkpoint" in f:
        lines.append(
            f"checked: checkpoint {f['checkpoint']} of {f.get('at')} (database "
            f"{f.get('database')}), signed by key {f.get('key')}; "
            f"{_plural(report.counts.key_handovers, 'key hand-over')} "
            f"({report.counts.key_handovers_accepted} accepted)"
        )
    if "settlement" in f:
        lines.append(
            f"checked: settlement {f['settlement']} ({f.get('kind')}, table {f.get('table')}, "
            f"hand {f.get('hand')}) at position {f.get('position')} of a tree of "
            f"{f.get('tree_size')} settlements"
        )
    if report.ok and "settlement" in f and "checkpoint" in f:
        lines.append(
            f"verified: settlement {f['settlement']} (position {f['position']}) is included in "
            f"checkpoint {f['checkpoint']} of {f['at']}"
        )
    return lines


# ---------------------------------------------------------------- small readers


def _int(value: Any) -> int | None:
    """``value`` when it is a whole number (not a boolean), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _hex64(value: Any) -> bool:
    """Whether ``value`` is a SHA-256 written as 64 lowercase hex digits."""
    return (
        isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)
    )


def _moment(value: Any) -> datetime | None:
    """An ISO 8601 time with its UTC offset, or None when ``value`` is not one."""
    if not isinstance(value, str):
        return None
    try:
        moment = formats.parse_moment(value)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None


def _chain_name(key: str) -> str:
    return "the house chain" if key == formats.HOUSE else f"table {key}'s chain"


def _span(first: int, last: int, noun: str, many: str) -> str:
    """``entry 5 is`` or ``entries 5 to 9 are``."""
    return f"{noun} {first} is" if first == last else f"{many} {first} to {last} are"


def load_public_key(value: str | os.PathLike[str]) -> str:
    """The trusted public key: ``value`` itself when it is the key's text (``ed25519:...``),
    else the key read from the file ``value`` names (its first line that is not a comment).
    Raises :class:`InputError` when it is neither."""
    text = os.fspath(value)
    try:
        if text.strip().startswith("ed25519:"):
            formats.public_key_raw(text)
            return text.strip()
        try:
            content = Path(text).read_text(encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot read the public key file {text}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise InputError(f"the public key file {text} is not text") from None
        return formats.read_public_key_file(content)
    except formats.KeyError_ as exc:
        raise InputError(f"not a public key ({text}): {exc}") from None


def _open_lines(path: PathLike) -> Iterator[bytes]:
    """A file's lines as bytes (each with its line end, the last perhaps without)."""
    try:
        handle = open(path, "rb")  # noqa: SIM115 (closed when the generator ends)
    except OSError as exc:
        raise InputError(f"cannot read {os.fspath(path)}: {exc.strerror}") from None
    with handle:
        yield from handle


@dataclass
class _Cut:
    """The last line of a file, without a line end and not JSON: a file cut short."""

    text: str


def _records(lines: Iterable[bytes | str], source: str) -> Iterator[tuple[int, Any]]:
    """``(line number, parsed JSON)`` for every line that is not blank. A line that is not
    UTF-8 or not JSON is an :class:`InputError`, except the very last line when it has no
    line end either: a file cut short while written (a :class:`_Cut`)."""
    pending: tuple[int, str] | None = None
    for number, raw in enumerate(lines, start=1):
        if pending is not None:  # a line without an end that was not the last one
            raise InputError(f"{source}: line {pending[0]} is not JSON")
        try:
            text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        except UnicodeDecodeError:
            raise InputError(f"{source}: line {number} is not UTF-8 text") from None
        if not text.strip():
            continue
        try:
            yield number, json.loads(text)
        except ValueError as exc:
            if text.endswith("\n"):
                raise InputError(f"{source}: line {number} is not JSON ({exc})") from None
            pending = (number, text)
    if pending is not None:
        yield pending[0], _Cut(pending[1])


# ---------------------------------------------------------------- keys


def _normal_key(text: str) -> str:
    """A public key's one text (the same 32 bytes are always written the same way)."""
    return formats.public_key_text(formats.public_key_raw(text))


@dataclass
class _Window:
    """A time a key is trusted in: statements at ``since`` or later and before ``until``
    (None: without bound)."""

    since: datetime | None
    until: datetime | None

    def holds(self, at: datetime | None) -> bool:
        if at is None:
            return self.since is None and self.until is None
        return (self.since is None or at >= self.since) and (self.until is None or at < self.until)


class Keys:
    """The keys the verifier trusts: the public key it is given, and every key a hand-over
    from a trusted key names, both signatures valid. A key handed over is trusted only for
    statements made before its hand-over; the new key from the hand-over's time on."""

    def __init__(self, trusted: str) -> None:
        trusted = _normal_key(trusted)
        self.trusted = trusted
        self.windows: dict[str, list[_Window]] = {trusted: [_Window(None, None)]}
        self.last_handover: datetime | None = None

    def ids(self) -> list[str]:
        return [formats.key_id(key) for key in self.windows]

    def by_id(self, key_id: Any) -> str | None:
        return next((key for key in self.windows if formats.key_id(key) == key_id), None)

    def trusted_at(self, key: str, at: datetime | None) -> bool:
        return any(window.holds(at) for window in self.windows.get(key, ()))

    def _when(self, key: str) -> str:
        """When ``key`` is trusted, in words (for a refusal)."""
        parts = []
        for window in self.windows.get(key, ()):
            if window.since is not None and window.until is not None:
                parts.append(
                    f"from {window.since.isoformat()} to before {window.until.isoformat()}"
                )
            elif window.since is not None:
                parts.append(f"only from its hand-over at {window.since.isoformat()}")
            elif window.until is not None:
                parts.append(
                    f"only before its hand-over at {window.until.isoformat()}"
                    " (a key handed over signs nothing later)"
                )
        return "; ".join(parts) or "never"

    def handover(self, record: Mapping[str, Any]) -> str | None:
        """Take a hand-over record: None when accepted (its new key trusted from its time),
        else why it is refused."""
        statement = record.get("statement")
        if not isinstance(statement, dict):
            return "it holds no statement"
        if statement.get("type") != formats.HANDOVER:
            return f"its statement's type is {statement.get('type')!r}, not {formats.HANDOVER}"
        old, new = statement.get("old_key"), statement.get("new_key")
        try:
            old_id = formats.key_id(str(old))
            new_id = formats.key_id(str(new))
        except formats.KeyError_:
            return "it does not name its old and new keys as ed25519:<base64>"
        old, new = _normal_key(str(old)), _normal_key(str(new))
        at = _moment(statement.get("at"))
        if at is None:
            return "its time is not an ISO 8601 time with its UTC offset"
        if old == new:
            return "it hands a key over to itself"
        old_signed = formats.signature_valid(old, statement, str(record.get("old_signature")))
        new_signed = formats.signature_valid(new, statement, str(record.get("new_signature")))
        if not old_signed and not new_signed:
            return f"neither the old key ({old_id}) nor the new key ({new_id}) signed it"
        if not old_signed:
            return (
                f"the key it hands over from ({old_id}) did not sign it, only the new key "
                f"({new_id}): a key is handed over only by its holder"
            )
        if not new_signed:
            return f"the new key it names ({new_id}) did not sign it"
        if old not in self.windows:
            return f"it hands over from key {old_id}, which is not a key the verifier trusts"
        if not self.trusted_at(old, at):
            return f"key {old_id} was not trusted at its time: it is trusted {self._when(old)}"
        if self.last_handover is not None and at < self.last_handover:
            return (
                f"it is dated before the hand-over before it ({self.last_handover.isoformat()}): "
                "hand-overs are listed oldest first"
            )
        for window in self.windows[old]:
            if window.holds(at):
                window.until = at
        self.windows.setdefault(new, []).append(_Window(at, None))
        self.last_handover = at
        return None

    def signature_problem(self, statement: Mapping[str, Any], signature: Any) -> str | None:
        """Why a signed checkpoint statement is not signed by a key trusted at its time and
        named in it (``key``), or None when it is. The sentence follows the checkpoint's
        name."""
        named = statement.get("key")
        signer = next(
            (
                key
                for key in self.windows
                if formats.signature_valid(key, dict(statement), str(signature))
            ),
            None,
        )
        if signer is None:
            if self.by_id(named) is not None:
                return (
                    f"does not carry a valid signature of the key it names ({named}): its "
                    "statement was changed after it was signed, or another key signed it"
                )
            return (
                f"is signed by a key the verifier does not trust: it names key {named}, which "
                "is neither the trusted key nor a key handed over to from it"
            )
        signer_id = formats.key_id(signer)
        if named != signer_id:
            return f"is signed by key {signer_id}, but names key {named}"
        at = _moment(statement.get("at"))
        if not self.trusted_at(signer, at):
            return f"is signed by key {signer_id} at {statement.get('at')}, but that key is trusted {self._when(signer)}"
        return None


# ---------------------------------------------------------------- a checkpoint's statement


@dataclass
class _Stated:
    """What a checkpoint states, read into plain values."""

    number: int
    at: datetime | None
    at_text: str
    database: Any
    chains: dict[str, tuple[int, str, str]]  # key: (size, head, digest)
    tree_size: int | None
    root: str | None
    verified_chains: dict[str, tuple[int, str]] = field(default_factory=dict)
    verified_tree: int | None = None


def _read_statement(statement: Mapping[str, Any]) -> tuple[_Stated | None, list[str]]:
    """A checkpoint's statement as plain values, and what in it is malformed (None when it has
    no number to go by)."""
    wrong: list[str] = []
    number = _int(statement.get("number"))
    if number is None or number < 1:
        return None, ["its number is not a whole number from 1"]
    if statement.get("type") != formats.CHECKPOINT:
        wrong.append(f"its type is {statement.get('type')!r}, not {formats.CHECKPOINT}")
    at = _moment(statement.get("at"))
    if at is None:
        wrong.append("its time is not an ISO 8601 time with its UTC offset")
    chains: dict[str, tuple[int, str, str]] = {}
    raw_chains = statement.get("chains")
    if not isinstance(raw_chains, dict):
        wrong.append("it states no chains")
        raw_chains = {}
    for key, value in raw_chains.items():
        size = _int(value.get("size")) if isinstance(value, dict) else None
        if (
            size is None
            or size < 0
            or not _hex64(value.get("head"))
            or not _hex64(value.get("digest"))
        ):
            wrong.append(f"it misstates {_chain_name(key)} (a size, a head and a digest)")
            continue
        chains[key] = (size, value["head"], value["digest"])
    tree = statement.get("settlements")
    tree_size = _int(tree.get("size")) if isinstance(tree, dict) else None
    root = tree.get("root") if isinstance(tree, dict) else None
    if tree_size is None or tree_size < 0 or not _hex64(root):
        wrong.append("it misstates the settlements' tree (a size and a root)")
        tree_size, root = None, None
    stated = _Stated(
        number, at, str(statement.get("at")), statement.get("database"), chains, tree_size, root
    )
    verified = statement.get("verified")
    if verified is not None:
        _read_verified(verified, stated, wrong)
    return stated, wrong


def _read_verified(verified: Any, stated: _Stated, wrong: list[str]) -> None:
    """A passed check's ``verified`` part: where it verified each chain and the tree to."""
    if not isinstance(verified, dict):
        wrong.append("its verified part is neither null nor an object")
        return
    chains = verified.get("chains")
    for key, value in (chains if isinstance(chains, dict) else {}).items():
        size = _int(value.get("size")) if isinstance(value, dict) else None
        if size is None or size < 0 or not _hex64(value.get("head")):
            wrong.append(f"its verified part misstates {_chain_name(key)} (a size and a head)")
            continue
        stated.verified_chains[key] = (size, value["head"])
    if not isinstance(chains, dict):
        wrong.append("its verified part states no chains")
    tree = verified.get("settlements")
    size = _int(tree.get("size")) if isinstance(tree, dict) else None
    if size is None or size < 0:
        wrong.append("its verified part misstates the settlements (a size)")
    stated.verified_tree = size


@dataclass
class _Target:
    """What a checkpoint states at one size of a chain (or of the tree): compared when the
    bundle's entries (or settlements) reach that size."""

    head: str  # the chain's head, or the tree's root
    digest: str | None  # the chain's digest (None: a verified part states only the head)
    source: str  # "checkpoint 4", "checkpoint 4's verified part"
    number: int


# ---------------------------------------------------------------- per-chain state


@dataclass
class _Chain:
    key: str
    count: int = 0
    last_seq: int = 0
    last_hash: str = formats.GENESIS
    digest: str = formats.GENESIS


@dataclass(frozen=True)
class _Binding:
    """What an entry of a chain states about one settlement: only these few values are kept
    of the entries."""

    kind: str  # settlement (hand_settle), reversal or correction (hand_correct)
    chain: str
    seq: int
    hand: Any
    history_sha256: Any
    result_sha256: Any
    corrects: Any

    @property
    def where(self) -> str:
        action = "hand_settle" if self.kind == "settlement" else "hand_correct"
        return f"its {action} entry ({_chain_name(self.chain)}, entry {self.seq})"


# ---------------------------------------------------------------- the anchor file


class _Anchors:
    """The records of an anchor file (a copy of ``AUDIT_ANCHOR_FILE``), each of which must be
    in the bundle unchanged: kept as the SHA-256 of their canonical JSON, by number for
    checkpoints."""

    def __init__(self, source: str, lines: Iterable[bytes | str], report: Report) -> None:
        self.source = source
        self.checkpoints: dict[int, list[tuple[int, str, str, Any]]] = {}
        self.handovers: dict[str, tuple[int, str]] = {}
        self.bundle_checkpoints: dict[int, str] = {}
        self.bundle_handovers: set[str] = set()
        for number, record in _records(lines, source):
            report.counts.anchors += 1
            where = f"anchor file line {number}"
            kind = record.get("type") if isinstance(record, dict) else None
            statement = record.get("statement") if isinstance(record, dict) else None
            if isinstance(record, _Cut):
                report.problem(f"{where} is incomplete and not JSON: the anchor file was cut short")
            elif kind not in ("checkpoint", "key_handover") or not isinstance(statement, dict):
                report.problem(f"{where} is neither a checkpoint nor a key hand-over")
            elif kind == "checkpoint":
                checkpoint = _int(statement.get("number"))
                if checkpoint is None:
                    report.problem(f"{where} is a checkpoint without a number")
                    continue
                self.checkpoints.setdefault(checkpoint, []).append(
                    (
                        number,
                        formats.json_digest(record),
                        str(statement.get("at")),
                        statement.get("database"),
                    )
                )
            else:
                self.handovers.setdefault(
                    formats.json_digest(record), (number, str(statement.get("at")))
                )

    def seen_checkpoint(self, number: int, record: Mapping[str, Any]) -> None:
        if number in self.checkpoints and number not in self.bundle_checkpoints:
            self.bundle_checkpoints[number] = formats.json_digest(record)

    def seen_handover(self, record: Mapping[str, Any]) -> None:
        digest = formats.json_digest(record)
        if digest in self.handovers:
            self.bundle_handovers.add(digest)

    def finish(self, database: Any, report: Report) -> None:
        """Name every anchor the bundle lacks or holds changed."""
        for number, held in sorted(self.checkpoints.items()):
            for line, digest, at, other in held:
                where = f"anchor file line {line}"
                mine = self.bundle_checkpoints.get(number)
                if mine == digest:
                    continue
                if other != database:
                    report.problem(
                        f"{where}: checkpoint {number} (of {at}) is of database {other}, not the "
                        f"bundle's ({database}), and is not in the bundle"
                    )
                elif mine is None:
                    report.problem(
                        f"{where}: checkpoint {number} (of {at}) is not in the bundle: the bundle "
                        "was exported from a database rolled back or restored since, or the "
                        "checkpoint was removed from it"
                    )
                else:
                    report.problem(
                        f"{where}: checkpoint {number} (of {at}) differs from the bundle's "
                        f"checkpoint {number}: one of them was rewritten"
                    )
        for digest, (line, at) in sorted(self.handovers.items(), key=lambda item: item[1]):
            if digest not in self.bundle_handovers:
                report.problem(
                    f"anchor file line {line}: the key hand-over of {at} is not in the bundle "
                    "unchanged"
                )


# ---------------------------------------------------------------- settlements


def _chips_problem(result: Any) -> str | None:
    """Why a result does not conserve chips (the seats' nets, the house's net where the house
    banks, and the rake summing to zero), or None when it does."""
    if not isinstance(result, dict) or not isinstance(result.get("seats"), list):
        return "its result states no seats, so its chips cannot be counted"
    seats = 0
    for index, seat in enumerate(result["seats"]):
        net = _int(seat.get("net")) if isinstance(seat, dict) else None
        if net is None:
            return f"its result's seats[{index}] has no whole-number net"
        seats += net
    house = 0
    if isinstance(result.get("house"), dict):
        net = _int(result["house"].get("net"))
        if net is None:
            return "the house in its result has no whole-number net"
        house = net
    rake = _int(result.get("rake"))
    if rake is None:
        return "its result has no whole-number rake"
    total = seats + house + rake
    if total != 0:
        return (
            f"chips are not conserved: the seats' nets ({seats}), the house's net ({house}) "
            f"and the rake ({rake}) sum to {total}, not 0"
        )
    return None


def _stored_form(value: Any) -> str:
    """``value``'s canonical JSON as it reads back from JSON (object keys as strings)."""
    return formats.canonical(json.loads(json.dumps(value)))


def _first_difference(stored: Any, fresh: Any, path: str = "result") -> str | None:
    """Where two JSON values first differ, in words (``result.seats[1].net: ...``)."""
    if isinstance(stored, dict) and isinstance(fresh, dict):
        for key in sorted(set(stored) | set(fresh)):
            if key not in stored:
                return f"{path}.{key} is not stored, the replay gives {formats.canonical(fresh[key])[:80]}"
            if key not in fresh:
                return f"{path}.{key} is stored, the replay gives none"
            found = _first_difference(stored[key], fresh[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(stored, list) and isinstance(fresh, list):
        for index, (a, b) in enumerate(zip(stored, fresh, strict=False)):
            found = _first_difference(a, b, f"{path}[{index}]")
            if found:
                return found
        if len(stored) != len(fresh):
            return f"{path} has {len(stored)} items stored, {len(fresh)} replayed"
        return None
    if formats.canonical(stored) != formats.canonical(fresh):
        return (
            f"{path} is {formats.canonical(stored)[:80]} stored, "
            f"{formats.canonical(fresh)[:80]} replayed"
        )
    return None


class _Replayer:
    """Replays settlement histories through the rules engines of ``casino/rules`` (imported
    only when replaying is asked for), as the system's audit check does."""

    def __init__(self) -> None:
        try:
            from casino.rules.contract import History, game
            from casino.rules.messages import pre_messages_form
        except ImportError as exc:
            raise InputError(
                f"--replay needs the rules engines (casino/rules) beside the verifier: {exc}"
            ) from None
        self._history: Any = History
        self._game: Callable[[str], Any] = game
        self._pre_messages_form: Callable[[Any, Any], Any] = pre_messages_form

    def problem(self, history: Any, result: Any) -> str | None:
        """Why replaying ``history`` does not give ``result``, or None when it does."""
        try:
            parsed = self._history.from_dict(history)
            fresh = self._game(parsed.game).replay(parsed).settle().to_dict()
            if isinstance(result, dict):  # a result settled before the explanation's messages
                fresh = self._pre_messages_form(fresh, result)
            text = _stored_form(fresh)
        except Exception as exc:  # an engine refusing a stored history is a finding
            return f"replaying its history through the rules engine fails: {exc}"
        if text == formats.canonical(result):
            return None
        where = _first_difference(result, json.loads(text))
        return (
            "replaying its history through the rules engine gives another result than the one "
            f"stored ({where or 'they differ'})"
        )


# ---------------------------------------------------------------- the bundle


class _BundleCheck:
    """Every check of a bundle, fed one record at a time (:meth:`feed`) and finished at the
    end (:meth:`finish`)."""

    def __init__(
        self, public_key: str, report: Report, anchors: _Anchors | None, replay: _Replayer | None
    ) -> None:
        self.report = report
        self.keys = Keys(public_key)
        self.anchors = anchors
        self.replay = replay
        self.stage = -1  # index in ORDER of the last record's type
        self.seen: dict[str, int] = dict.fromkeys(ORDER, 0)
        self.database: Any = None
        self.last_line = 0
        self.end: Mapping[str, Any] | None = None
        # checkpoints
        self.previous: _Stated | None = None
        self.previous_hash: str | None = None
        self.last: _Stated | None = None  # the bundle's last checkpoint, as stated
        self.points: dict[int, tuple[int | None, str | None]] = {}  # number: (tree size, root)
        self.chain_targets: dict[str, dict[int, _Target]] = {}
        self.tree_targets: dict[int, _Target] = {}
        self.proofs: set[int] = set()  # "to" of every consistency proof read
        # entries
        self.chains: dict[str, _Chain] = {}
        self.current: str | None = None
        self.bindings: dict[int, _Binding] = {}
        self.corrected: set[int] = set()  # settlements a hand_correct entry corrects
        # settlements
        self.frontier = merkle.Frontier()
        self.next_position = 0
        self.settlement_ids: set[int] = set()
        self.reversal_of: dict[int, tuple[str, str]] = {}  # corrected id: (history, reversal)

    @property
    def problem(self) -> Callable[[str], None]:
        return self.report.problem

    # ------------------------------------------------------------ dispatch

    def feed(self, line: int, record: Any) -> None:
        self.last_line = line
        if isinstance(record, _Cut):
            self.problem(f"line {line} is incomplete and not JSON: the bundle was cut short")
            return
        kind = record.get("type") if isinstance(record, dict) else None
        if self.stage < 0 and kind != "bundle":
            self.problem(
                f"line {line} is not the bundle record: a bundle starts with a record of type "
                "bundle"
            )
            self.stage = 0
        if kind not in ORDER:
            self.problem(f"line {line} is not a record of a bundle (its type is {kind!r})")
            return
        assert isinstance(record, dict)
        if self.end is not None:
            self.problem(f"line {line}: {WORDS[kind][0]} after the end record")
        stage = ORDER.index(kind)
        if stage < self.stage or (kind == "bundle" and self.seen["bundle"]):
            self.problem(
                f"line {line}: {WORDS[kind][0]} after {WORDS[ORDER[self.stage]][1]}: the "
                "bundle's records are out of order"
            )
        self.stage = max(self.stage, stage)
        self.seen[kind] += 1
        handler = {
            "bundle": self._bundle,
            "key_handover": self._handover,
            "checkpoint": self._checkpoint,
            "consistency": self._consistency,
            "entry": self._entry,
            "settlement": self._settlement,
            "end": self._end,
        }[kind]
        handler(line, record)

    # ------------------------------------------------------------ header and end

    def _bundle(self, line: int, record: dict[str, Any]) -> None:
        if record.get("format") != formats.BUNDLE:
            self.problem(
                f"line {line}: the bundle's format is {record.get('format')!r}, not "
                f"{formats.BUNDLE}"
            )
        database = record.get("database")
        if not isinstance(database, str) or not database:
            self.problem(f"line {line}: the bundle record names no database")
        if self.database is None:
            self.database = database
            self.report.facts["database"] = database
            self.report.facts["exported_at"] = record.get("exported_at")

    def _same_database(self, what: str, database: Any) -> None:
        if self.database is not None and database != self.database:
            self.problem(
                f"{what} is of database {database}, but the bundle is of database "
                f"{self.database}: a bundle describes one database"
            )

    def _end(self, line: int, record: dict[str, Any]) -> None:
        if self.end is None:
            self.end = record

    # ------------------------------------------------------------ keys

    def _handover(self, line: int, record: dict[str, Any]) -> None:
        self.report.counts.key_handovers += 1
        statement = record.get("statement")
        at = statement.get("at") if isinstance(statement, dict) else None
        what = f"the key hand-over at line {line} (of {at})"
        if isinstance(statement, dict):
            self._same_database(what, statement.get("database"))
        if self.anchors is not None:
            self.anchors.seen_handover(record)
        refused = self.keys.handover(record)
        if refused is None:
            self.report.counts.key_handovers_accepted += 1
        else:
            self.problem(f"{what} is refused: {refused}; its new key is not trusted")

    # ------------------------------------------------------------ checkpoints

    def _checkpoint(self, line: int, record: dict[str, Any]) -> None:
        self.report.counts.checkpoints += 1
        statement = record.get("statement")
        if not isinstance(statement, dict):
            self.problem(f"the checkpoint at line {line} holds no statement")
            return
        stated, wrong = _read_statement(statement)
        if stated is None:
            self.problem(f"the checkpoint at line {line} is malformed: {'; '.join(wrong)}")
            return
        name = f"checkpoint {stated.number} (line {line})"
        for problem in wrong:
            self.problem(f"{name} is malformed: {problem}")
        if self.anchors is not None:
            self.anchors.seen_checkpoint(stated.number, record)
        refused = self.keys.signature_problem(statement, record.get("signature"))
        if refused is not None:
            self.problem(f"{name} {refused}")
        self._same_database(name, stated.database)
        self._follows(name, stated, statement)
        self._targets(name, stated)
        self.points.setdefault(stated.number, (stated.tree_size, stated.root))
        self.previous = self.last = stated
        self.previous_hash = formats.statement_hash(statement)

    def _follows(self, name: str, stated: _Stated, statement: Mapping[str, Any]) -> None:
        """Numbering, the link to the checkpoint before, and nothing going back from it."""
        before, number = self.previous, stated.number
        if before is None:
            if number != 1:
                self.problem(
                    f"{_span(1, number - 1, 'checkpoint', 'checkpoints')} missing: the first "
                    f"checkpoint of the bundle is {name}"
                )
            elif statement.get("previous") is not None:
                self.problem(f"{name} names a checkpoint before it, but it is the first")
            return
        if number == before.number + 1:
            if statement.get("previous") != self.previous_hash:
                self.problem(
                    f"{name} does not name checkpoint {before.number} by its hash (its previous "
                    f"is not the SHA-256 of checkpoint {before.number}'s statement)"
                )
        elif number > before.number + 1:
            self.problem(
                f"{_span(before.number + 1, number - 1, 'checkpoint', 'checkpoints')} missing: "
                f"{name} follows checkpoint {before.number}"
            )
        else:
            self.problem(
                f"{name} follows checkpoint {before.number}: checkpoint numbers go back or repeat"
            )
        if stated.at and before.at and stated.at < before.at:
            self.problem(
                f"{name} is dated {stated.at_text}, before checkpoint {before.number} "
                f"({before.at_text}): times go back"
            )
        for key, (size, _, _) in before.chains.items():
            now = stated.chains.get(key)
            if now is None:
                self.problem(
                    f"{name} no longer states {_chain_name(key)}, which checkpoint "
                    f"{before.number} stated at {size} entries"
                )
            elif now[0] < size:
                self.problem(
                    f"{name} states {_chain_name(key)} at {now[0]} entries, fewer than "
                    f"checkpoint {before.number}'s {size}: the chain shrank"
                )
        if (
            stated.tree_size is not None
            and before.tree_size is not None
            and stated.tree_size < before.tree_size
        ):
            self.problem(
                f"{name} states {stated.tree_size} settlements in the tree, fewer than "
                f"checkpoint {before.number}'s {before.tree_size}: the tree shrank"
            )

    def _targets(self, name: str, stated: _Stated) -> None:
        """Remember what the checkpoint states at each size, to compare with the entries and
        settlements when the bundle reaches that size."""
        source = f"checkpoint {stated.number}"
        for key, (size, head, digest) in stated.chains.items():
            self._chain_target(key, size, _Target(head, digest, source, stated.number))
        for key, (size, head) in stated.verified_chains.items():
            own = stated.chains.get(key)
            if own is None or size > own[0]:
                self.problem(
                    f"{name}'s verified part states {_chain_name(key)} verified to entry {size}, "
                    f"beyond the {own[0] if own else 0} entries the checkpoint states"
                )
            self._chain_target(
                key, size, _Target(head, None, f"{source}'s verified part", stated.number)
            )
        if stated.tree_size is not None and stated.root is not None:
            if stated.tree_size == 0 and stated.root != merkle.EMPTY_ROOT.hex():
                self.problem(f"{name} states an empty tree whose root is not the empty tree's")
            known = self.tree_targets.get(stated.tree_size)
            if known is None:
                self.tree_targets[stated.tree_size] = _Target(
                    stated.root, None, source, stated.number
                )
            elif known.head != stated.root:
                self.problem(
                    f"{name} states another root for the tree of {stated.tree_size} settlements "
                    f"than {known.source} did"
                )
        if stated.verified_tree is not None and (
            stated.tree_size is None or stated.verified_tree > stated.tree_size
        ):
            self.problem(
                f"{name}'s verified part states {stated.verified_tree} settlements verified, "
                f"beyond the tree of {stated.tree_size} the checkpoint states"
            )

    def _chain_target(self, key: str, size: int, target: _Target) -> None:
        if size == 0:
            return
        targets = self.chain_targets.setdefault(key, {})
        known = targets.get(size)
        if known is None:
            targets[size] = target
            return
        if known.head != target.head or (
            known.digest and target.digest and known.digest != target.digest
        ):
            self.problem(
                f"{target.source} states {_chain_name(key)} at {size} entries with another head "
                f"or digest than {known.source} did"
            )
        elif known.digest is None and target.digest is not None:
            targets[size] = _Target(known.head, target.digest, target.source, target.number)

    # ------------------------------------------------------------ consistency proofs

    def _consistency(self, line: int, record: dict[str, Any]) -> None:
        self.report.counts.consistency_proofs += 1
        old, new, proof = _int(record.get("from")), _int(record.get("to")), record.get("proof")
        name = f"the consistency proof from checkpoint {old} to checkpoint {new} (line {line})"
        if old is None or new is None or new != old + 1:
            self.problem(f"{name} is not between successive checkpoints")
            return
        if new in self.proofs:
            self.problem(f"{name} repeats an earlier one")
            return
        self.proofs.add(new)
        if old not in self.points or new not in self.points:
            self.problem(f"{name} names a checkpoint the bundle does not hold")
            return
        if not isinstance(proof, list) or not all(_hex64(step) for step in proof):
            self.problem(f"{name} is not a list of SHA-256 values")
            return
        (old_size, old_root), (new_size, new_root) = self.points[old], self.points[new]
        if old_size is None or old_root is None or new_size is None or new_root is None:
            return  # a malformed tree in either checkpoint, already named
        if not merkle.verify_consistency(
            old_size,
            new_size,
            bytes.fromhex(old_root),
            bytes.fromhex(new_root),
            [bytes.fromhex(step) for step in proof],
        ):
            self.problem(
                f"{name} does not hold: it does not show the tree of checkpoint {old} "
                f"({old_size} settlements) to be the beginning of checkpoint {new}'s "
                f"({new_size} settlements)"
            )

    # ------------------------------------------------------------ entries

    def _entry(self, line: int, record: dict[str, Any]) -> None:
        self.report.counts.entries += 1
        key = record.get("chain")
        missing = [name for name in (*formats.ENTRY_FIELDS, "hash") if name not in record]
        seq = _int(record.get("seq"))
        if not isinstance(key, str) or missing or seq is None:
            lacks = f"lacks {', '.join(missing)}" if missing else "names no chain or number"
            self.problem(f"the entry at line {line} {lacks}")
            return
        chain = self._chain(key, line)
        where = f"{_chain_name(key)}, entry {seq} (line {line})"
        self._sequence(chain, seq, record, where, line)
        table = record.get("table_id")
        if (table is not None and _int(table) is None) or formats.chain_key(table) != key:
            self.problem(f"{where} states table {table!r}, but is in {_chain_name(key)}")
        if not _hex64(record.get("hash")):
            self.problem(f"{where} has a seal that is not 64 hex digits")
        try:
            content = formats.canonical(formats.entry_content(record))
        except (TypeError, ValueError):
            self.problem(f"{where} holds a value that is not JSON")
            content = ""
        chain.digest = formats.entry_digest(chain.digest, content)
        chain.count += 1
        chain.last_seq, chain.last_hash = seq, str(record.get("hash"))
        self._covered(key, seq)
        self._compare(chain, seq, where)
        self._bind_entry(key, seq, record, where)

    def _chain(self, key: str, line: int) -> _Chain:
        if key != self.current:
            if key in self.chains:
                self.problem(
                    f"line {line}: {_chain_name(key)}'s entries resume after other chains' "
                    "entries: a bundle holds each chain's entries together, in order"
                )
            self.current = key
        return self.chains.setdefault(key, _Chain(key))

    def _sequence(
        self, chain: _Chain, seq: int, record: dict[str, Any], where: str, line: int
    ) -> None:
        """Numbers from 1 without gaps, and each entry linked to the one before."""
        expected = chain.last_seq + 1
        if seq > expected:
            self.problem(
                f"{_chain_name(chain.key)}: {_span(expected, seq - 1, 'entry', 'entries')} "
                f"missing (line {line} holds entry {seq} after entry {chain.last_seq})"
            )
        elif seq < expected:
            self.problem(
                f"{where} comes after entry {chain.last_seq}: entries repeat or are out of order"
            )
        elif record.get("prev_hash") != chain.last_hash:
            if seq == 1:
                self.problem(f"{where}: the first entry's prev_hash is not 64 zeros")
            else:
                self.problem(
                    f"{where} does not link to entry {seq - 1}: its prev_hash is not that "
                    "entry's seal"
                )

    def _covered(self, key: str, seq: int) -> None:
        last = self.last.chains.get(key) if self.last is not None else None
        if last is not None and seq <= last[0]:
            self.report.counts.entries_covered += 1
        else:
            self.report.counts.entries_not_covered += 1

    def _compare(self, chain: _Chain, seq: int, where: str) -> None:
        """At a size a checkpoint states, its head and digest against the entries'."""
        target = self.chain_targets.get(chain.key, {}).get(seq)
        if target is None:
            return
        if target.digest is not None and target.digest != chain.digest:
            self.problem(
                f"{_chain_name(chain.key)} up to entry {seq} is not what {target.source} signed: "
                f"the digest recomputed from the entries differs from the one it states (an "
                "entry at or before it was changed, removed or added)"
            )
        if target.head != chain.last_hash:
            self.problem(
                f"{where}: its seal is not the head {target.source} states for "
                f"{_chain_name(chain.key)} at {seq} entries"
            )

    def _bind_entry(self, key: str, seq: int, record: dict[str, Any], where: str) -> None:
        """Remember the hashes a hand_settle or hand_correct entry states per settlement."""
        action, after = record.get("action"), record.get("after")
        if not isinstance(after, dict) or action not in ("hand_settle", "hand_correct"):
            return
        hand = record.get("hand_id")
        if action == "hand_settle":
            parts: list[tuple[str, Any]] = [("settlement", after)]
            corrects = None
        else:
            parts = [("reversal", after.get("reversal")), ("correction", after.get("correction"))]
            corrects = after.get("corrects")
            corrected = _int(corrects)
            if corrected is not None:
                self.corrected.add(corrected)
        for kind, info in parts:
            settlement = _int(info.get("settlement")) if isinstance(info, dict) else None
            if settlement is None:
                self.problem(f"{where} ({action}) names no {kind} settlement")
                continue
            assert isinstance(info, dict)
            binding = _Binding(
                kind,
                key,
                seq,
                hand,
                info.get("history_sha256"),
                info.get("result_sha256"),
                corrects,
            )
            known = self.bindings.get(settlement)
            if known is not None:
                self.problem(
                    f"{where} states settlement {settlement} again: {known.where} already did"
                )
                continue
            self.bindings[settlement] = binding

    # ------------------------------------------------------------ settlements

    def _settlement(self, line: int, record: dict[str, Any]) -> None:
        self.report.counts.settlements += 1
        position, leaf = _int(record.get("position")), record.get("leaf")
        expected = self.next_position
        if position is None:
            self.problem(f"the settlement at line {line} has no position")
        elif position > expected:
            self.problem(
                f"settlement {_span(expected, position - 1, 'position', 'positions')} missing "
                f"from the tree (line {line} holds position {position}"
                f"{f' after position {expected - 1}' if expected else ' first'})"
            )
        elif position < expected:
            self.problem(
                f"the settlement at line {line} is at position {position}, after position "
                f"{expected - 1}: positions repeat or are out of order"
            )
        if position is not None:
            self.next_position = position + 1
        settlement = leaf.get("settlement") if isinstance(leaf, dict) else None
        name = f"settlement {settlement} (position {position}, line {line})"
        if not isinstance(leaf, dict):
            self.problem(f"{name} has no leaf")
            leaf = {}
        exact = set(leaf) == set(formats.LEAF_FIELDS)
        if not exact:
            missing = sorted(set(formats.LEAF_FIELDS) - set(leaf))
            extra = sorted(set(leaf) - set(formats.LEAF_FIELDS))
            lacks = f"lacks {', '.join(missing)}" if missing else ""
            adds = f"adds {', '.join(extra)}" if extra else ""
            self.problem(f"{name}: its leaf {' and '.join(filter(None, (lacks, adds)))}")
        value = (
            formats.settlement_leaf_hash(leaf)
            if exact
            else merkle.leaf_hash(formats.canonical(leaf).encode("ascii"))
        )
        self.frontier.append(value)
        if position is not None and self.last is not None and self.last.tree_size is not None:
            if position < self.last.tree_size:
                self.report.counts.settlements_covered += 1
            else:
                self.report.counts.settlements_not_covered += 1
        else:
            self.report.counts.settlements_not_covered += 1
        self._tree_root()
        if exact:
            self._leaf(name, leaf, record)

    def _tree_root(self) -> None:
        target = self.tree_targets.get(self.frontier.size)
        if target is not None and self.frontier.root().hex() != target.head:
            self.problem(
                f"the tree of the first {self.frontier.size} settlements does not have the root "
                f"{target.source} signed: a settlement at a position below "
                f"{self.frontier.size} was changed, removed or added"
            )

    def _leaf(self, name: str, leaf: dict[str, Any], record: dict[str, Any]) -> None:
        """One settlement's own checks: its id, hashes, chips, kind and binding."""
        settlement = _int(leaf["settlement"])
        if settlement is None:
            self.problem(f"{name}: its leaf has no settlement id")
        elif settlement in self.settlement_ids:
            self.problem(f"{name} is in the tree twice: settlement ids are unique")
        else:
            self.settlement_ids.add(settlement)
        history: Any = record.get("history")
        result: Any = record.get("result")
        if "history" not in record or formats.json_digest(history) != leaf["history_sha256"]:
            self.problem(f"{name}: its history does not hash to the history_sha256 its leaf states")
        if "result" not in record or formats.json_digest(result) != leaf["result_sha256"]:
            self.problem(f"{name}: its result does not hash to the result_sha256 its leaf states")
        chips = _chips_problem(result)
        if chips:
            self.problem(f"{name}: {chips}")
        elif leaf["rake"] != result.get("rake"):
            self.problem(
                f"{name}: its leaf states rake {leaf['rake']}, its result {result.get('rake')}"
            )
        if isinstance(history, dict) and history.get("game") != leaf["game"]:
            self.problem(
                f"{name}: its leaf states game {leaf['game']!r}, its history {history.get('game')!r}"
            )
        kind, corrects = leaf["kind"], leaf["corrects"]
        if kind not in KINDS:
            self.problem(f"{name}: its kind {kind!r} is none of {', '.join(KINDS)}")
            return
        if kind == "settlement" and corrects is not None:
            self.problem(f"{name} is a settlement, but states it corrects settlement {corrects}")
        if kind != "settlement" and (corrects == settlement or corrects not in self.settlement_ids):
            self.problem(
                f"{name} is a {kind} of settlement {corrects}, which is not before it in the tree"
            )
        if settlement is not None:
            self._binding(name, settlement, leaf)
        if self.replay is not None:
            self._replay(name, settlement, leaf, history, result)

    def _binding(self, name: str, settlement: int, leaf: dict[str, Any]) -> None:
        """The settlement against the entry of its table's chain that settled or corrected it."""
        kind = leaf["kind"]
        action = "hand_settle" if kind == "settlement" else "hand_correct"
        chain = formats.chain_key(leaf["table"]) if _int(leaf["table"]) is not None else None
        binding = self.bindings.get(settlement)
        if binding is None:
            where = _chain_name(chain) if chain else "its table's chain"
            self.problem(
                f"{name}: no {action} entry in {where} states it: it was stored outside the "
                "system, or its entry was removed"
            )
            return
        if binding.kind != kind:
            self.problem(
                f"{name} is a {kind} by its leaf, but {binding.where} states it as a {binding.kind}"
            )
        if binding.chain != chain:
            self.problem(
                f"{name} is of table {leaf['table']}, but {binding.where} is not in its chain"
            )
        if binding.hand != leaf["hand"]:
            self.problem(
                f"{name} is of hand {leaf['hand']}, but {binding.where} is about hand {binding.hand}"
            )
        for part in ("history", "result"):
            stated = getattr(binding, f"{part}_sha256")
            if stated != leaf[f"{part}_sha256"]:
                self.problem(
                    f"{name}: {binding.where} states another {part} hash ({stated}) than its "
                    f"leaf ({leaf[f'{part}_sha256']}): the {part} is not the one the chain "
                    "recorded"
                )
        if kind != "settlement" and binding.corrects != leaf["corrects"]:
            self.problem(
                f"{name} corrects settlement {leaf['corrects']} by its leaf, but "
                f"{binding.where} corrects settlement {binding.corrects}"
            )

    def _replay(
        self, name: str, settlement: int | None, leaf: dict[str, Any], history: Any, result: Any
    ) -> None:
        """Replay a settlement or correction; hold a reversal to what it reverses."""
        assert self.replay is not None
        kind = leaf["kind"]
        if kind in ("settlement", "correction"):
            self.report.counts.replayed += 1
            problem = self.replay.problem(history, result)
            if problem:
                self.problem(f"{name}: {problem}")
            if settlement is not None and settlement in self.corrected:
                try:
                    reversal = formats.json_digest(formats.reversed_result(result, settlement))
                except (KeyError, TypeError, AttributeError):
                    reversal = ""
                self.reversal_of[settlement] = (formats.json_digest(history), reversal)
            return
        self.report.counts.reversals_checked += 1
        expected = self.reversal_of.get(leaf["corrects"])
        if expected is None:
            self.problem(
                f"{name} reverses settlement {leaf['corrects']}, which the bundle does not hold "
                "before it as a corrected settlement"
            )
            return
        if formats.json_digest(history) != expected[0]:
            self.problem(
                f"{name}: its history is not the history of settlement {leaf['corrects']}, "
                "which it reverses"
            )
        if formats.json_digest(result) != expected[1]:
            self.problem(
                f"{name} does not move back exactly what settlement {leaf['corrects']} moved: "
                "its result is not that settlement's with every amount negated"
            )

    # ------------------------------------------------------------ the end

    def finish(self) -> None:
        """What can only be told at the end: the end record and counts, sizes the bundle never
        reached, missing consistency proofs, anchors, and what is not yet covered."""
        report = self.report
        if not self.seen["bundle"] and self.last_line == 0:
            self.problem("the bundle is empty")
        if self.end is None:
            self.problem(
                f"the bundle has no end record: it was cut short (it ends at line {self.last_line})"
            )
        else:
            for name, (kind, noun) in END_COUNTS.items():
                if self.end.get(name) != self.seen[kind]:
                    self.problem(
                        f"the end record counts {self.end.get(name)} {noun}, "
                        f"but the bundle holds {self.seen[kind]}: records were removed or added"
                    )
        self._missing_entries()
        self._missing_settlements()
        for number in sorted(self.points):
            if number > 1 and number - 1 in self.points and number not in self.proofs:
                self.problem(
                    f"the bundle holds no consistency proof from checkpoint {number - 1} to "
                    f"checkpoint {number}"
                )
        if self.anchors is not None:
            self.anchors.finish(self.database, report)
        report.counts.chains = len(self.chains)
        report.counts.keys_trusted = len(self.keys.windows)
        report.facts["trusted_key"] = formats.key_id(self.keys.trusted)
        report.facts["keys"] = self.keys.ids()
        if self.last is not None:
            report.facts["last_checkpoint"] = {"number": self.last.number, "at": self.last.at_text}
        self._notes()

    def _missing_entries(self) -> None:
        for key, targets in sorted(self.chain_targets.items()):
            chain = self.chains.get(key)
            have = chain.last_seq if chain else 0
            beyond = [size for size in targets if size > have]
            if beyond:
                size = max(beyond)
                self.problem(
                    f"{targets[size].source} states {_chain_name(key)} at {size} entries, but the "
                    f"bundle holds {have}: {_span(have + 1, size, 'entry', 'entries')} missing "
                    "(the chain was cut short or the bundle is incomplete)"
                )

    def _missing_settlements(self) -> None:
        size = self.frontier.size
        beyond = [target for target in self.tree_targets if target > size]
        if beyond:
            top = max(beyond)
            self.problem(
                f"{self.tree_targets[top].source} states {top} settlements in the tree, but the "
                f"bundle holds {size}: settlement "
                f"{_span(size, top - 1, 'position', 'positions')} missing"
            )

    def _notes(self) -> None:
        c, last = self.report.counts, self.last
        if last is None and (c.entries or c.settlements):
            self.report.notes.append(
                "the bundle holds no checkpoint: none of its entries or settlements is signed"
            )
            return
        if last is None:
            return
        for count, noun, many, where in (
            (c.entries_not_covered, "entry", "entries", f"the last checkpoint ({last.number})"),
            (
                c.settlements_not_covered,
                "settlement",
                "settlements",
                f"the last checkpoint's tree ({last.tree_size} settlements)",
            ),
        ):
            if count:
                self.report.notes.append(
                    f"{_plural(count, noun, many)} {'comes' if count == 1 else 'come'} after "
                    f"{where}: {'it is' if count == 1 else 'they are'} not yet covered by a "
                    "signature"
                )


# ---------------------------------------------------------------- entry points


def verify_lines(
    lines: Iterable[bytes | str],
    public_key: str | os.PathLike[str],
    anchors: Iterable[bytes | str] | None = None,
    replay: bool = False,
    *,
    source: str = "<lines>",
    anchors_source: str = "<anchors>",
    limit: int = MAX_PROBLEMS,
) -> Report:
    """Verify a bundle given as its lines (text or bytes, one JSON record each), against the
    trusted ``public_key`` (its text, or a key file's path); ``anchors`` are the lines of an
    anchor file to hold against it; ``replay`` replays every history through the rules
    engines. Raises :class:`InputError` when the input cannot be read."""
    report = Report("bundle", source, limit=limit)
    key = load_public_key(public_key)
    held = _Anchors(anchors_source, anchors, report) if anchors is not None else None
    if held is not None:
        report.facts["anchors"] = anchors_source
    report.facts["replay"] = replay
    check = _BundleCheck(key, report, held, _Replayer() if replay else None)
    for number, record in _records(lines, source):
        check.feed(number, record)
    check.finish()
    return report


def verify_bundle(
    path: PathLike,
    public_key: str | os.PathLike[str],
    anchors: PathLike | None = None,
    replay: bool = False,
    *,
    limit: int = MAX_PROBLEMS,
) -> Report:
    """Verify the bundle file ``path`` (``manage.py audit_export``) against the trusted
    ``public_key`` (its ``ed25519:`` text, or a key file's path), with the anchor file
    ``anchors`` if given, replaying every history when ``replay``. Raises
    :class:`InputError` when a file cannot be read."""
    key = load_public_key(public_key)
    if anchors is not None:
        anchor_lines: list[bytes] | None = list(_open_lines(anchors))
    else:
        anchor_lines = None
    if not os.path.isfile(path):
        raise InputError(f"cannot read {os.fspath(path)}: no such file")
    return verify_lines(
        _open_lines(path),
        key,
        anchor_lines,
        replay,
        source=os.fspath(path),
        anchors_source=os.fspath(anchors) if anchors is not None else "<anchors>",
        limit=limit,
    )


def _load_proof(proof: Mapping[str, Any] | bytes | PathLike) -> tuple[Any, str]:
    """The proof document, and what to call it."""
    if isinstance(proof, Mapping):
        return proof, "<proof>"
    if isinstance(proof, bytes):
        text, source = proof, "<proof>"
    else:
        source = os.fspath(proof)
        try:
            text = Path(source).read_bytes()
        except OSError as exc:
            raise InputError(f"cannot read {source}: {exc.strerror}") from None
    try:
        return json.loads(text), source
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputError(f"{source} is not JSON ({exc})") from None


def verify_proof(
    proof: Mapping[str, Any] | bytes | PathLike, public_key: str | os.PathLike[str]
) -> Report:
    """Verify one settlement's inclusion proof (the compliance desk's download): the
    checkpoint's signature by a trusted key (with the hand-overs it carries), the tree size it
    signed, the leaf against the settlement's history and result, and the audit path to the
    signed root. ``proof`` is the parsed document, its JSON bytes, or its file's path.
    Raises :class:`InputError` when it cannot be read."""
    key = load_public_key(public_key)
    data, source = _load_proof(proof)
    report = Report("proof", source)
    if not isinstance(data, Mapping) or data.get("type") != formats.INCLUSION_PROOF:
        kind = data.get("type") if isinstance(data, Mapping) else None
        report.problem(
            f"this is not an inclusion proof (its type is {kind!r}, not {formats.INCLUSION_PROOF})"
        )
        return report
    root, tree_size = _proof_checkpoint(data, key, report)
    _proof_settlement(data, root, tree_size, report)
    return report


def _proof_checkpoint(
    data: Mapping[str, Any], public_key: str, report: Report
) -> tuple[str | None, int | None]:
    """The proof's checkpoint and hand-overs: the signed root and tree size, when they hold."""
    keys = Keys(public_key)
    record = data.get("checkpoint")
    statement = record.get("statement") if isinstance(record, dict) else None
    if (
        not isinstance(record, dict)
        or record.get("type") != "checkpoint"
        or not isinstance(statement, dict)
    ):
        report.problem("the proof holds no checkpoint record")
        return None, None
    handovers = data.get("key_handovers") or []
    if not isinstance(handovers, list):
        report.problem("the proof's key_handovers is not a list")
        handovers = []
    for index, handover in enumerate(handovers):
        report.counts.key_handovers += 1
        hand_statement = handover.get("statement") if isinstance(handover, dict) else None
        if not isinstance(handover, dict):
            refused: str | None = "it is not a record"
        elif isinstance(hand_statement, dict) and hand_statement.get("database") != statement.get(
            "database"
        ):
            refused = "it is of another database than the checkpoint"
        else:
            refused = keys.handover(handover)
        if refused is None:
            report.counts.key_handovers_accepted += 1
        else:
            report.problem(f"key hand-over {index + 1} of the proof is refused: {refused}")
    report.counts.keys_trusted = len(keys.windows)
    report.counts.checkpoints = 1
    stated, wrong = _read_statement(statement)
    name = f"checkpoint {stated.number if stated else statement.get('number')}"
    for problem in wrong:
        report.problem(f"{name} is malformed: {problem}")
    refused = keys.signature_problem(statement, record.get("signature"))
    if refused:
        report.problem(f"{name} {refused}")
    report.facts.update(
        checkpoint=statement.get("number"),
        at=statement.get("at"),
        database=statement.get("database"),
        key=statement.get("key"),
    )
    if stated is None or stated.tree_size is None or stated.root is None:
        return None, None
    if data.get("tree_size") != stated.tree_size:
        report.problem(
            f"the proof's tree_size ({data.get('tree_size')}) is not the {stated.tree_size} "
            f"settlements {name} states"
        )
    return stated.root, stated.tree_size


def _proof_settlement(
    data: Mapping[str, Any], root: str | None, tree_size: int | None, report: Report
) -> None:
    """The proof's settlement: its leaf, history and result, and its audit path to ``root``."""
    part = data.get("settlement")
    leaf = part.get("leaf") if isinstance(part, dict) else None
    if not isinstance(part, dict) or not isinstance(leaf, dict):
        report.problem("the proof holds no settlement leaf")
        return
    position = _int(part.get("position"))
    report.facts.update(
        settlement=leaf.get("settlement"),
        position=position,
        kind=leaf.get("kind"),
        table=leaf.get("table"),
        hand=leaf.get("hand"),
        hand_number=leaf.get("hand_number"),
        tree_size=tree_size,
    )
    name = f"settlement {leaf.get('settlement')} (position {position})"
    report.counts.settlements = 1
    if set(leaf) != set(formats.LEAF_FIELDS):
        report.problem(
            f"{name}: its leaf does not hold exactly the fields {', '.join(formats.LEAF_FIELDS)}"
        )
        return
    for field_name in ("history", "result"):
        if part.get(field_name) is None:
            report.notes.append(f"the proof holds no {field_name}: only its leaf was checked")
        elif formats.json_digest(part[field_name]) != leaf[f"{field_name}_sha256"]:
            report.problem(
                f"{name}: its {field_name} does not hash to the {field_name}_sha256 its leaf states"
            )
    if part.get("result") is not None:
        chips = _chips_problem(part["result"])
        if chips:
            report.problem(f"{name}: {chips}")
    path = data.get("path")
    if position is None or not isinstance(path, list) or not all(_hex64(step) for step in path):
        report.problem(f"{name}: the proof's position or audit path is malformed")
        return
    if root is None or tree_size is None:
        return
    if not merkle.verify_inclusion(
        formats.settlement_leaf_hash(leaf),
        position,
        tree_size,
        [bytes.fromhex(step) for step in path],
        bytes.fromhex(root),
    ):
        report.problem(
            f"{name} is not shown to be in the tree of {tree_size} settlements whose root "
            f"checkpoint {report.facts.get('checkpoint')} signed: the audit path from its leaf "
            "does not lead to that root"
        )
