"""``python -m casino.audit_verify``: verify an exported audit bundle, or one settlement's
inclusion proof, with the public key the casino published (``docs/audit-verify.md``).

    python -m casino.audit_verify BUNDLE --public-key KEYFILE [--anchors FILE] [--replay] [--json]
    python -m casino.audit_verify --proof PROOFFILE --public-key KEYFILE [--json]

Exits 0 when there is no problem, 1 when there are problems, 2 when the input cannot be read
(a missing file, a line that is not JSON, a key that is not one) or the command is misused.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .verify import InputError, Report, load_public_key, verify_bundle, verify_proof


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m casino.audit_verify",
        description=(
            "Verify the casino's audit log without its secret key: an exported bundle "
            "(manage.py audit_export) or one settlement's inclusion proof, against the "
            "published Ed25519 public key."
        ),
    )
    parser.add_argument(
        "bundle", nargs="?", metavar="BUNDLE", help="the exported bundle (JSON Lines)"
    )
    parser.add_argument(
        "--public-key",
        required=True,
        metavar="KEYFILE",
        help="the trusted public key: a file whose first line is ed25519:<base64>, or that text",
    )
    parser.add_argument(
        "--proof", metavar="PROOFFILE", help="verify this inclusion proof instead of a bundle"
    )
    parser.add_argument(
        "--anchors",
        metavar="FILE",
        help="a copy of the anchor file: every checkpoint and hand-over in it must be in the bundle",
    )
    parser.add_argument(
        "--replay",
        action="store_true",
        help="replay every settlement's history through the rules engines (casino/rules)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    return parser


def _run(args: argparse.Namespace) -> Report:
    key = load_public_key(args.public_key)
    if args.proof is not None:
        return verify_proof(args.proof, key)
    return verify_bundle(args.bundle, key, anchors=args.anchors, replay=args.replay)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the verifier; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    if (args.bundle is None) == (args.proof is None):
        parser.error("give either a BUNDLE or --proof PROOFFILE (one of them)")
    if args.proof is not None and (args.anchors or args.replay):
        parser.error("--anchors and --replay are for a bundle, not for --proof")
    try:
        report = _run(args)
    except InputError as exc:
        print(f"audit_verify: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.to_dict(), indent=2, sort_keys=True))
    else:
        print("\n".join(report.summary_lines()))
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
