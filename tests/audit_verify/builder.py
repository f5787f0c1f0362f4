"""A test-only maker of audit bundles and inclusion proofs, built from scratch the way
``docs/audit-verify.md`` describes them (no database, no Django): Ed25519 keys made on the
spot, chains of entries whose seals are arbitrary hex chained by ``prev_hash``, settlements
bound by ``hand_settle`` and ``hand_correct`` entries, signed checkpoints, consistency proofs
and key hand-overs.

Each method takes optional overrides so a test can build a bundle that is consistent in every
respect but one (a result that does not conserve chips, an entry stating another hash, a
checkpoint signed by a stranger's key), and then see the verifier name exactly that.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from casino.audit_verify import formats, merkle

DATABASE = "0f3c2a9e-test-database"
START = datetime(2026, 12, 2, 10, 0, tzinfo=UTC)


@dataclass
class Signer:
    """An Ed25519 key pair, as the system's signing key is."""

    private: Ed25519PrivateKey = field(default_factory=Ed25519PrivateKey.generate)

    @property
    def public(self) -> str:
        raw = self.private.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        return formats.public_key_text(raw)

    @property
    def key_id(self) -> str:
        return formats.key_id(self.public)

    def sign(self, statement: dict[str, Any]) -> str:
        return base64.b64encode(self.private.sign(formats.signed_bytes(statement))).decode()


def seal(*parts: Any) -> str:
    """A stand-in for an entry's HMAC seal: any 64 hex digits do for the verifier."""
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def simple_result(amount: int, *, rake: int = 0, house: int | None = None) -> dict[str, Any]:
    """A result that conserves chips: seat 1 wins ``amount``, seat 2 pays the rest of it, the
    house (banking when ``house`` is given) nets ``house``, and the rake is taken."""
    loser = -(amount + rake + (house or 0))
    seats = [
        {
            "seat": 1,
            "role": "player",
            "net": amount,
            "rake": 0,
            "lines": [{"wager": "ante", "stake": abs(amount), "amount": amount}],
        },
        {
            "seat": 2,
            "role": "player",
            "net": loser,
            "rake": rake,
            "lines": [{"wager": "ante", "stake": abs(loser), "amount": loser}],
        },
    ]
    banker = None
    if house is not None:
        banker = {
            "seat": 0,
            "role": "house",
            "net": house,
            "rake": 0,
            "lines": [{"wager": "bank", "stake": abs(house), "amount": house}],
        }
    return {"seats": seats, "house": banker, "rake": rake, "explanation": ["a test hand"]}


def simple_history(hand: int, game: str = "test-game") -> dict[str, Any]:
    return {
        "game": game,
        "rules": {"ante_min": 10},
        "config": {"players": [1, 2]},
        "actions": [{"type": "deal", "hand": hand}],
    }


def negated(result: dict[str, Any], settlement: int) -> dict[str, Any]:
    """A reversal's result as the specification states it: every amount of the settlement it
    corrects negated (written here independently of the verifier's own)."""

    def party(seat: dict[str, Any]) -> dict[str, Any]:
        lines = [
            {**line, "stake": -line["stake"], "amount": -line["amount"]}
            | ({"capped_from": -line["capped_from"]} if line.get("capped_from") is not None else {})
            for line in seat["lines"]
        ]
        return {**seat, "net": -seat["net"], "rake": -seat["rake"], "lines": lines}

    moved = {
        **result,
        "seats": [party(seat) for seat in result["seats"]],
        "rake": -result["rake"],
        "explanation": [f"reversal of settlement {settlement}: every amount moves back"],
    }
    if isinstance(result.get("house"), dict):
        moved["house"] = party(result["house"])
    return moved


class Builder:
    """Grows an audit log in memory and writes it out as a bundle (:meth:`records`)."""

    def __init__(self, signer: Signer, database: str = DATABASE) -> None:
        self.signer = signer
        self.database = database
        self.clock = START
        self.chains: dict[str, list[dict[str, Any]]] = {}
        self.digests: dict[str, str] = {}
        self.settlements: list[dict[str, Any]] = []  # bundle records, by position
        self.by_id: dict[int, dict[str, Any]] = {}
        self.frontier = merkle.Frontier()
        self.nodes: dict[merkle.Key, bytes] = {}
        self.checkpoints: list[dict[str, Any]] = []
        self.handovers: list[dict[str, Any]] = []
        self.next_settlement = 41
        self.next_hand = 17
        self.hand_numbers: dict[int, int] = {}

    # ------------------------------------------------------------ time and entries

    def tick(self) -> str:
        self.clock += timedelta(seconds=1, microseconds=1)
        return self.clock.isoformat()

    def entry(
        self,
        table: int | None,
        action: str,
        *,
        hand: int | None = None,
        before: Any = None,
        after: Any = None,
    ) -> dict[str, Any]:
        """Append an entry to its table's chain (the house chain for ``None``)."""
        key = formats.chain_key(table)
        chain = self.chains.setdefault(key, [])
        seq = len(chain) + 1
        record = {
            "type": "entry",
            "chain": key,
            "seq": seq,
            "at": self.tick(),
            "actor_id": 5,
            "actor_name": "dealer1",
            "action": action,
            "table_id": table,
            "hand_id": hand,
            "subject": f"hand:{hand}" if hand is not None else f"table:{table}",
            "before": before,
            "after": after,
            "prev_hash": chain[-1]["hash"] if chain else formats.GENESIS,
            "hash": seal(key, seq, action, len(self.chains)),
        }
        chain.append(record)
        content = formats.canonical(formats.entry_content(record))
        self.digests[key] = formats.entry_digest(self.digests.get(key, formats.GENESIS), content)
        return record

    # ------------------------------------------------------------ settlements

    def _leaf(
        self,
        table: int,
        hand: int,
        history: dict[str, Any],
        result: dict[str, Any],
        kind: str,
        corrects: int | None,
    ) -> dict[str, Any]:
        """Take a settlement into the tree; its record."""
        settlement = self.next_settlement
        self.next_settlement += 1
        leaf = {
            "settlement": settlement,
            "kind": kind,
            "corrects": corrects,
            "hand": hand,
            "table": table,
            "hand_number": self.hand_numbers[hand],
            "game": history["game"],
            "settled_at": self.tick(),
            "settled_by": "dealer1",
            "rake": result["rake"],
            "history_sha256": formats.json_digest(history),
            "result_sha256": formats.json_digest(result),
        }
        record = {
            "type": "settlement",
            "position": self.frontier.size,
            "leaf": leaf,
            "history": history,
            "result": result,
        }
        for level, index, value in self.frontier.append(formats.settlement_leaf_hash(leaf)):
            self.nodes[(level, index)] = value
        self.settlements.append(record)
        self.by_id[settlement] = record
        return record

    def settle(
        self,
        table: int,
        *,
        history: dict[str, Any] | None = None,
        result: dict[str, Any] | None = None,
        entry_result_sha256: str | None = None,
    ) -> int:
        """Open a hand at ``table``, act once and settle it (``hand_settle``); the settlement's
        id. ``entry_result_sha256`` makes the entry state another result hash than stored."""
        hand = self.next_hand
        self.next_hand += 1
        self.hand_numbers[hand] = len(self.hand_numbers) + 1
        history = history or simple_history(hand)
        result = result or simple_result(100 * hand, rake=10)
        self.entry(table, "hand_open", hand=hand, after={"setup_sha256": seal("setup", hand)})
        self.entry(table, "hand_action", hand=hand, after={"action": {"type": "deal"}})
        record = self._leaf(table, hand, history, result, "settlement", None)
        leaf = record["leaf"]
        self.entry(
            table,
            "hand_settle",
            hand=hand,
            before={"status": "open"},
            after={
                "status": "settled",
                "settlement": leaf["settlement"],
                "rake": result["rake"],
                "nets": {str(seat["seat"]): seat["net"] for seat in result["seats"]},
                "history_sha256": leaf["history_sha256"],
                "result_sha256": entry_result_sha256 or leaf["result_sha256"],
            },
        )
        return int(leaf["settlement"])

    def correct(
        self,
        settlement: int,
        *,
        history: dict[str, Any] | None = None,
        result: dict[str, Any] | None = None,
        reversal_result: dict[str, Any] | None = None,
    ) -> tuple[int, int]:
        """Correct a settlement: its reversal and the corrected settlement, bound by one
        ``hand_correct`` entry; their ids."""
        current = self.by_id[settlement]
        leaf = current["leaf"]
        table, hand = leaf["table"], leaf["hand"]
        reversal = self._leaf(
            table,
            hand,
            current["history"],
            reversal_result or negated(current["result"], settlement),
            "reversal",
            settlement,
        )
        corrected = self._leaf(
            table,
            hand,
            history or current["history"],
            result or simple_result(7 * hand, rake=5),
            "correction",
            settlement,
        )

        def bound(record: dict[str, Any]) -> dict[str, Any]:
            return {
                "settlement": record["leaf"]["settlement"],
                "history_sha256": record["leaf"]["history_sha256"],
                "result_sha256": record["leaf"]["result_sha256"],
            }

        self.entry(
            table,
            "hand_correct",
            hand=hand,
            after={
                "approval": 1,
                "requested_by": "dealer1",
                "corrects": settlement,
                "reversal": bound(reversal),
                "correction": bound(corrected),
                "differences": [],
            },
        )
        return reversal["leaf"]["settlement"], corrected["leaf"]["settlement"]

    # ------------------------------------------------------------ checkpoints and keys

    def chain_states(self) -> dict[str, dict[str, Any]]:
        return {
            key: {"size": len(chain), "head": chain[-1]["hash"], "digest": self.digests[key]}
            for key, chain in self.chains.items()
            if chain
        }

    def checkpoint(self, *, signer: Signer | None = None, verified: bool = False) -> dict[str, Any]:
        """Sign a checkpoint of everything now (by ``signer``, the current key by default)."""
        signer = signer or self.signer
        chains = self.chain_states()
        before = self.checkpoints[-1]["statement"] if self.checkpoints else None
        statement = {
            "type": formats.CHECKPOINT,
            "database": self.database,
            "number": len(self.checkpoints) + 1,
            "previous": formats.statement_hash(before) if before else None,
            "at": self.tick(),
            "key": signer.key_id,
            "chains": chains,
            "settlements": {"size": self.frontier.size, "root": self.frontier.root().hex()},
            "verified": (
                {
                    "check": 1,
                    "full": True,
                    "chains": {
                        k: {"size": v["size"], "head": v["head"]} for k, v in chains.items()
                    },
                    "settlements": {"size": self.frontier.size},
                    "rows": {
                        "payouts_settlement": {"max_id": self.next_settlement - 1, "count": 3}
                    },
                }
                if verified
                else None
            ),
        }
        record = {"type": "checkpoint", "statement": statement, "signature": signer.sign(statement)}
        self.checkpoints.append(record)
        return record

    def handover(
        self, new: Signer, *, old_signer: Signer | None = None, switch: bool = True
    ) -> dict[str, Any]:
        """The current key hands over to ``new`` (``old_signer`` signs the old key's part:
        another key there makes a forged hand-over); later checkpoints are ``new``'s."""
        statement = {
            "type": formats.HANDOVER,
            "database": self.database,
            "at": self.tick(),
            "old_key": self.signer.public,
            "new_key": new.public,
        }
        record = {
            "type": "key_handover",
            "statement": statement,
            "old_signature": (old_signer or self.signer).sign(statement),
            "new_signature": new.sign(statement),
        }
        self.handovers.append(record)
        if switch:
            self.signer = new
        return record

    # ------------------------------------------------------------ output

    def lookup(self) -> merkle.Lookup:
        return merkle.from_mapping(self.nodes)

    def consistency(self) -> list[dict[str, Any]]:
        proofs = []
        for old, new in zip(self.checkpoints, self.checkpoints[1:], strict=False):
            a, b = old["statement"], new["statement"]
            path = merkle.consistency_proof(
                self.lookup(), a["settlements"]["size"], b["settlements"]["size"]
            )
            proofs.append(
                {
                    "type": "consistency",
                    "from": a["number"],
                    "to": b["number"],
                    "proof": [step.hex() for step in path],
                }
            )
        return proofs

    def records(self) -> list[dict[str, Any]]:
        """The bundle, record by record, in the order the specification gives."""
        entries = [entry for key in sorted(self.chains) for entry in self.chains[key]]
        proofs = self.consistency()
        return [
            {
                "type": "bundle",
                "format": formats.BUNDLE,
                "database": self.database,
                "exported_at": self.tick(),
            },
            *self.handovers,
            *self.checkpoints,
            *proofs,
            *entries,
            *self.settlements,
            {
                "type": "end",
                "key_handovers": len(self.handovers),
                "checkpoints": len(self.checkpoints),
                "consistency": len(proofs),
                "entries": len(entries),
                "settlements": len(self.settlements),
            },
        ]

    def anchors(self) -> list[dict[str, Any]]:
        """What the anchor file holds: every hand-over and checkpoint, in the order written."""
        return sorted(
            [*self.handovers, *self.checkpoints], key=lambda record: record["statement"]["at"]
        )

    def proof(self, settlement: int, checkpoint: int | None = None) -> dict[str, Any]:
        """A settlement's inclusion proof against a checkpoint (the last by default)."""
        record = self.by_id[settlement]
        signed = self.checkpoints[(checkpoint or len(self.checkpoints)) - 1]
        size = signed["statement"]["settlements"]["size"]
        path = merkle.inclusion_proof(self.lookup(), record["position"], size)
        return {
            "type": formats.INCLUSION_PROOF,
            "settlement": {key: record[key] for key in ("position", "leaf", "history", "result")},
            "tree_size": size,
            "path": [step.hex() for step in path],
            "checkpoint": signed,
            "key_handovers": list(self.handovers),
        }


def write_lines(path: Path, records: list[dict[str, Any]]) -> Path:
    """Write records as JSON Lines (canonical JSON, one a line)."""
    path.write_text("".join(formats.canonical(record) + "\n" for record in records))
    return path


def write_key(path: Path, signer: Signer) -> Path:
    path.write_text(f"# the casino's audit key {signer.key_id}\n{signer.public}\n")
    return path
