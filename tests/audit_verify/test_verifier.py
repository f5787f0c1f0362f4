"""The standalone verifier (``python -m casino.audit_verify``) against bundles and proofs
made from scratch by :mod:`tests.audit_verify.builder`: a whole bundle verifies, and each
kind of tampering is named in the sentence a regulator reads. No database is used."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from casino.audit_verify import formats
from casino.audit_verify.verify import (
    InputError,
    Report,
    verify_bundle,
    verify_lines,
    verify_proof,
)

from .builder import Builder, Signer, simple_result, write_key, write_lines

ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------- helpers


def standard() -> tuple[Builder, Signer, Signer]:
    """Three chains, a correction, four checkpoints (two by the first key, two by the key it
    hands over to, the last of a passed check), and a little after the last checkpoint."""
    first, second = Signer(), Signer()
    log = Builder(first)
    log.entry(None, "user_create", after={"username": "dealer1"})
    settled = log.settle(3)
    log.settle(5, result=simple_result(250, house=-300))
    log.checkpoint()
    log.settle(3)
    log.entry(None, "user_update", after={"role": "floor"})
    log.checkpoint()
    log.handover(second)
    log.settle(5)
    log.checkpoint()
    log.correct(settled)
    log.checkpoint(verified=True)
    log.settle(3)  # after the last checkpoint: not yet covered
    log.entry(None, "login")
    return log, first, second


def check(records: list[dict[str, Any]], signer: Signer, **options: Any) -> Report:
    lines = [formats.canonical(record) + "\n" for record in records]
    return verify_lines(lines, signer.public, **options)


def has(report: Report, *fragments: str) -> None:
    """Some problem of the report holds every fragment."""
    assert any(all(part in problem for part in fragments) for problem in report.problems), (
        "\n".join(report.problems) or "no problems"
    )


def index(records: list[dict[str, Any]], kind: str, **match: Any) -> int:
    """The position in ``records`` of the first record of ``kind`` matching ``match``."""
    for position, record in enumerate(records):
        if record["type"] == kind and all(record.get(k) == v for k, v in match.items()):
            return position
    raise LookupError(f"no {kind} record {match}")


def cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "casino.audit_verify", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


# ---------------------------------------------------------------- a whole bundle


def test_a_whole_bundle_verifies_through_the_command_line(tmp_path: Path) -> None:
    log, first, _ = standard()
    bundle = write_lines(tmp_path / "casino-audit.jsonl", log.records())
    key = write_key(tmp_path / "casino-audit.pub", first)
    done = cli(bundle, "--public-key", key)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "result: no problems found" in done.stdout
    assert "4 checkpoints" in done.stdout
    assert "3 chains, 19 entries: 15 covered by checkpoint 4, 4 not yet covered" in done.stdout
    assert "7 settlements in the tree: 6 included in checkpoint 4, 1 not yet covered" in done.stdout
    assert "problem:" not in done.stdout
    as_json = cli(bundle, "--public-key", first.public, "--json")
    assert as_json.returncode == 0, as_json.stderr
    data = json.loads(as_json.stdout)
    assert data["ok"] is True and data["counts"]["checkpoints"] == 4


def test_a_whole_bundle_verifies_through_the_python_api(tmp_path: Path) -> None:
    log, first, second = standard()
    bundle = write_lines(tmp_path / "bundle.jsonl", log.records())
    anchors = write_lines(tmp_path / "anchors.jsonl", log.anchors())
    report = verify_bundle(bundle, first.public, anchors=anchors)
    assert report.ok, report.problems
    counts = report.counts
    assert (counts.checkpoints, counts.consistency_proofs, counts.chains) == (4, 3, 3)
    assert (counts.entries, counts.entries_covered, counts.entries_not_covered) == (19, 15, 4)
    assert (counts.settlements, counts.settlements_covered, counts.settlements_not_covered) == (
        7,
        6,
        1,
    )
    assert counts.anchors == 5 and counts.key_handovers_accepted == 1
    # Checkpoints 3 and 4 are the new key's, after a valid hand-over: accepted.
    assert report.facts["keys"] == [first.key_id, second.key_id]
    assert report.facts["last_checkpoint"]["number"] == 4


def test_the_verifier_imports_no_django() -> None:
    code = (
        "import sys, casino.audit_verify.__main__, casino.audit_verify.verify;"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'django', 'payouts', 'tables'}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


# ---------------------------------------------------------------- the chains


def test_an_entry_changed() -> None:
    log, first, _ = standard()
    records = log.records()
    at = index(records, "entry", chain="house", seq=2)
    records[at]["after"] = {"role": "admin"}
    report = check(records, first)
    has(report, "the house chain up to entry 2 is not what checkpoint 2 signed", "digest")


def test_an_entry_removed_from_the_middle_of_a_chain() -> None:
    log, first, _ = standard()
    records = log.records()
    del records[index(records, "entry", chain="3", seq=4)]
    report = check(records, first)
    has(report, "table 3's chain: entry 4 is missing (line", "holds entry 5 after entry 3)")
    has(report, "table 3's chain up to entry 6 is not what checkpoint 2 signed")


def test_a_chain_truncated_below_a_checkpoint() -> None:
    log, first, _ = standard()
    records = log.records()
    stated = log.checkpoints[-1]["statement"]["chains"]["3"]["size"]
    for seq in range(stated, stated + 4):  # the last stated entry and the three after it
        del records[index(records, "entry", chain="3", seq=seq)]
    report = check(records, first)
    has(
        report,
        f"checkpoint 4 states table 3's chain at {stated} entries, but the bundle holds "
        f"{stated - 1}: entry {stated} is missing",
    )


# ---------------------------------------------------------------- the settlements


def test_a_settlement_result_changed() -> None:
    log, first, _ = standard()
    records = log.records()
    at = index(records, "settlement", position=1)
    records[at]["result"]["seats"][0]["net"] += 1
    report = check(records, first)
    has(
        report,
        "settlement 42 (position 1, line",
        "its result does not hash to the result_sha256 its leaf states",
    )


def test_a_settlement_removed() -> None:
    log, first, _ = standard()
    records = log.records()
    del records[index(records, "settlement", position=2)]
    report = check(records, first)
    has(report, "settlement position 2 is missing from the tree (line 31 holds position 3 after")
    assert sum("missing from the tree" in problem for problem in report.problems) == 1
    has(report, "the tree of the first 4 settlements does not have the root checkpoint 3 signed")


def test_a_result_that_does_not_conserve_chips() -> None:
    log = Builder(first := Signer())
    result = simple_result(100, rake=10)
    result["seats"][1]["net"] += 5  # every hash, leaf, entry and root made over it
    log.settle(3)
    log.settle(3, result=result)
    log.checkpoint()
    report = check(log.records(), first)
    assert report.problem_count == 1, report.problems
    has(
        report,
        "settlement 42 (position 1, line",
        "chips are not conserved: the seats' nets (-5), the house's net (0) and the rake (10) "
        "sum to 5, not 0",
    )


def test_a_binding_entry_that_states_another_hash() -> None:
    log = Builder(first := Signer())
    log.settle(3, entry_result_sha256="ab" * 32)
    log.checkpoint()
    report = check(log.records(), first)
    assert report.problem_count == 1, report.problems
    has(
        report,
        "settlement 41 (position 0, line",
        "its hand_settle entry (table 3's chain, entry 3) states another result hash",
    )


# ---------------------------------------------------------------- checkpoints and keys


def test_a_checkpoint_signed_by_an_unknown_key() -> None:
    log = Builder(first := Signer())
    log.settle(3)
    log.checkpoint()
    log.settle(3)
    log.checkpoint(signer=Signer())
    report = check(log.records(), first)
    assert report.problem_count == 1, report.problems
    has(report, "checkpoint 2 (line", "is signed by a key the verifier does not trust")


def test_a_checkpoint_statement_altered_after_signing() -> None:
    log, first, _ = standard()
    records = log.records()
    at = index(records, "checkpoint")
    records[at]["statement"]["at"] = records[at]["statement"]["at"].replace(".0000", ".0001")
    report = check(records, first)
    has(
        report,
        "checkpoint 1 (line",
        f"does not carry a valid signature of the key it names ({first.key_id}): its statement "
        "was changed after it was signed",
    )


def test_a_checkpoint_missing() -> None:
    log, first, _ = standard()
    records = log.records()
    del records[index(records, "checkpoint") + 1]
    report = check(records, first)
    has(report, "checkpoint 2 is missing: checkpoint 3 (line", "follows checkpoint 1")


def test_a_consistency_proof_altered() -> None:
    log, first, _ = standard()
    records = log.records()
    at = index(records, "consistency", to=3)
    proof = records[at]["proof"]
    proof[0] = ("0" if proof[0][0] != "0" else "1") + proof[0][1:]
    report = check(records, first)
    assert report.problem_count == 1, report.problems
    has(
        report,
        "the consistency proof from checkpoint 2 to checkpoint 3 (line",
        "does not hold",
    )


def test_a_consistency_proof_missing() -> None:
    log, first, _ = standard()
    records = log.records()
    del records[index(records, "consistency", to=2)]
    report = check(records, first)
    has(report, "the bundle holds no consistency proof from checkpoint 1 to checkpoint 2")


def test_a_bundle_cut_short() -> None:
    log, first, _ = standard()
    records = log.records()[:-3]
    report = check(records, first)
    has(report, "the bundle has no end record: it was cut short")


def test_a_bundle_cut_mid_line(tmp_path: Path) -> None:
    log, first, _ = standard()
    bundle = write_lines(tmp_path / "bundle.jsonl", log.records())
    text = bundle.read_text()
    bundle.write_text(text[: len(text) - 40])
    report = verify_bundle(bundle, first.public)
    has(report, "is incomplete and not JSON: the bundle was cut short")
    has(report, "the bundle has no end record")


def test_a_handover_signed_only_by_the_new_key_is_refused() -> None:
    first, second = Signer(), Signer()
    log = Builder(first)
    log.settle(3)
    log.checkpoint()
    log.handover(second, old_signer=second)  # the old key's signature forged by the new key
    log.settle(3)
    log.checkpoint()
    report = check(log.records(), first)
    has(
        report,
        "the key hand-over at line 2",
        f"is refused: the key it hands over from ({first.key_id}) did not sign it, only the new "
        f"key ({second.key_id})",
    )
    has(report, "checkpoint 2 (line", "is signed by a key the verifier does not trust")
    assert report.counts.keys_trusted == 1


def test_the_old_key_signing_after_its_handover_is_refused() -> None:
    first, second = Signer(), Signer()
    log = Builder(first)
    log.settle(3)
    log.checkpoint()
    log.handover(second)
    log.settle(3)
    log.checkpoint()  # the new key's: accepted
    log.checkpoint(signer=first)  # the old key's, after its hand-over
    report = check(log.records(), first)
    assert report.problem_count == 1, report.problems
    has(
        report,
        f"checkpoint 3 (line 5) is signed by key {first.key_id} at",
        "but that key is trusted only before its hand-over at",
    )


def test_a_checkpoint_of_another_database() -> None:
    log = Builder(first := Signer())
    log.settle(3)
    log.checkpoint()
    log.database = "another-database"
    log.checkpoint()
    records = log.records()
    records[0]["database"] = "0f3c2a9e-test-database"
    report = check(records, first)
    has(report, "checkpoint 2 (line 3) is of database another-database, but the bundle is of")


def test_records_out_of_order_and_miscounted() -> None:
    log, first, _ = standard()
    records = log.records()
    moved = records.pop(index(records, "entry", chain="house", seq=1))
    records.insert(len(records) - 1, moved)  # after the settlements
    records[-1]["checkpoints"] = 9
    report = check(records, first)
    has(report, "an entry after settlements: the bundle's records are out of order")
    has(report, "the end record counts 9 checkpoints, but the bundle holds 4")


def test_problems_are_listed_up_to_the_limit_and_all_counted() -> None:
    log, first, _ = standard()
    records = log.records()
    for record in records:
        if record["type"] == "settlement":
            record["history"] = {"game": "changed"}
    report = verify_lines(
        [formats.canonical(record) + "\n" for record in records], first.public, limit=3
    )
    assert len(report.problems) == 3
    assert report.problem_count > 7
    assert any("more problems are not listed" in line for line in report.summary_lines())


# ---------------------------------------------------------------- anchors


def test_anchors_holding_a_checkpoint_the_bundle_lacks(tmp_path: Path) -> None:
    log, first, _ = standard()
    exported = write_lines(tmp_path / "bundle.jsonl", log.records())  # checkpoints 1-4
    log.checkpoint()  # checkpoint 5: in the anchor file, then the database was rolled back
    anchors = write_lines(tmp_path / "anchors.jsonl", log.anchors())
    report = verify_bundle(exported, first.public, anchors=anchors)
    assert report.problem_count == 1, report.problems
    has(report, "anchor file line 6: checkpoint 5 (of", "is not in the bundle: the bundle was")
    done = cli(exported, "--public-key", first.public, "--anchors", anchors)
    assert done.returncode == 1
    assert "problem: anchor file line 6: checkpoint 5" in done.stdout


def test_anchors_holding_a_rewritten_checkpoint_and_a_stray_line() -> None:
    log, first, _ = standard()
    anchors = [formats.canonical(record) + "\n" for record in log.anchors()]
    changed = json.loads(anchors[0])
    changed["signature"] = "AAAA"
    anchors[0] = json.dumps(changed) + "\n"
    anchors.append('{"type": "entry", "seq": 1}\n')
    report = check(log.records(), first, anchors=anchors)
    has(report, "anchor file line 1: checkpoint 1 (of", "differs from the bundle's checkpoint 1")
    has(report, "anchor file line 6 is neither a checkpoint nor a key hand-over")


# ---------------------------------------------------------------- replaying


def _real_hand() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A High Card Flush hand's history and result, and a corrected one's, from the engine."""
    from casino.rules.contract import game
    from casino.rules.high_card_flush.game import RECORD_EXAMPLE

    engine = game("high-card-flush")
    history = engine.import_record(RECORD_EXAMPLE, engine.default_rules())
    record = copy.deepcopy(RECORD_EXAMPLE)
    record["players"][1]["raise"] = 1000
    corrected = engine.import_record(record, engine.default_rules())

    def stored(value: Any) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(json.dumps(value))
        return parsed

    return (
        stored(history.to_dict()),
        stored(engine.replay(history).settle().to_dict()),
        stored(corrected.to_dict()),
        stored(engine.replay(corrected).settle().to_dict()),
    )


def test_replay_of_real_hands_and_a_reversal() -> None:
    history, result, corrected_history, corrected_result = _real_hand()
    log = Builder(first := Signer())
    settled = log.settle(3, history=history, result=result)
    log.correct(settled, history=corrected_history, result=corrected_result)
    log.checkpoint()
    report = check(log.records(), first, replay=True)
    assert report.ok, report.problems
    assert (report.counts.replayed, report.counts.reversals_checked) == (2, 1)


def test_replay_finds_a_reversal_that_does_not_negate() -> None:
    history, result, corrected_history, corrected_result = _real_hand()
    log = Builder(first := Signer())
    settled = log.settle(3, history=history, result=result)
    wrong = json.loads(json.dumps(result))
    wrong["explanation"] = ["not a reversal"]
    log.correct(settled, history=corrected_history, result=corrected_result, reversal_result=wrong)
    log.checkpoint()
    assert check(log.records(), first).ok  # without replaying, nothing tells
    report = check(log.records(), first, replay=True)
    has(report, "settlement 42 (position 1", "does not move back exactly what settlement 41 moved")


def test_replay_finds_a_result_the_engine_does_not_give() -> None:
    history, result, _, _ = _real_hand()
    result["seats"][0]["hand"] = "a royal flush"
    log = Builder(first := Signer())
    log.settle(3, history=history, result=result)
    log.checkpoint()
    report = check(log.records(), first, replay=True)
    has(report, "settlement 41 (position 0", "gives another result than the one stored")


# ---------------------------------------------------------------- inclusion proofs


def test_a_proof_verifies(tmp_path: Path) -> None:
    log, first, _ = standard()
    proof = log.proof(43)
    report = verify_proof(proof, first.public)
    assert report.ok, report.problems
    assert (report.facts["settlement"], report.facts["position"]) == (43, 2)
    file = tmp_path / "settlement-43-proof.json"
    file.write_text(json.dumps(proof))
    done = cli("--proof", file, "--public-key", write_key(tmp_path / "key.pub", first))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "verified: settlement 43 (position 2) is included in checkpoint 4 of" in done.stdout


def test_a_proof_with_a_path_hash_changed(tmp_path: Path) -> None:
    log, first, _ = standard()
    proof = log.proof(43)
    step = proof["path"][1]
    proof["path"][1] = ("f" if step[0] != "f" else "e") + step[1:]
    report = verify_proof(proof, first.public)
    has(
        report,
        "settlement 43 (position 2) is not shown to be in the tree of 6 settlements whose root "
        "checkpoint 4 signed",
    )
    file = tmp_path / "proof.json"
    file.write_text(json.dumps(proof))
    assert cli("--proof", file, "--public-key", first.public).returncode == 1


def test_a_proof_with_its_leaf_changed() -> None:
    log, first, _ = standard()
    proof = log.proof(43)
    proof["settlement"]["leaf"]["settled_by"] = "someone-else"
    report = verify_proof(proof, first.public)
    has(report, "settlement 43 (position 2) is not shown to be in the tree")
    proof = log.proof(43)
    proof["settlement"]["result"]["rake"] = 0
    report = verify_proof(proof, first.public)
    has(report, "its result does not hash to the result_sha256 its leaf states")


def test_a_proof_signed_by_the_old_key_after_its_handover() -> None:
    log, first, _ = standard()
    log.checkpoint(signer=first)
    report = verify_proof(log.proof(43), first.public)
    has(report, "checkpoint 5", "but that key is trusted only before its hand-over")


# ---------------------------------------------------------------- usage and input errors


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    log, first, _ = standard()
    bundle = write_lines(tmp_path / "bundle.jsonl", log.records())
    missing = cli(tmp_path / "nothing.jsonl", "--public-key", first.public)
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    bad_key = cli(bundle, "--public-key", "ed25519:not-base64!")
    assert bad_key.returncode == 2 and "not a public key" in bad_key.stderr
    neither = cli("--public-key", first.public)
    assert neither.returncode == 2 and "give either a BUNDLE or --proof" in neither.stderr
    broken = tmp_path / "broken.jsonl"
    lines = bundle.read_text().splitlines(keepends=True)
    lines[2] = lines[2][1:]  # the first checkpoint's line, its opening brace gone
    broken.write_text("".join(lines))
    not_json = cli(broken, "--public-key", first.public)
    assert not_json.returncode == 2, not_json.stdout
    assert "broken.jsonl: line 3 is not JSON" in not_json.stderr, not_json.stderr
    proof = cli("--proof", bundle, "--public-key", first.public)
    assert proof.returncode == 2 and "is not JSON" in proof.stderr
    both = cli(bundle, "--proof", bundle, "--public-key", first.public)
    assert both.returncode == 2


def test_input_errors_through_the_api(tmp_path: Path) -> None:
    signer = Signer()
    with pytest.raises(InputError, match="cannot read"):
        verify_bundle(tmp_path / "absent.jsonl", signer.public)
    with pytest.raises(InputError, match="line 2 is not JSON"):
        verify_lines(['{"type": "bundle"}\n', "not json\n", "{}\n"], signer.public)
    with pytest.raises(InputError, match="the file holds no public key"):
        verify_proof({}, write_text(tmp_path / "empty.pub", "# nothing here\n"))


def write_text(path: Path, text: str) -> Path:
    path.write_text(text)
    return path
