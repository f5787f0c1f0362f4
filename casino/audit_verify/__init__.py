"""The standalone verifier of the casino's audit log: anyone holding only the casino's
published Ed25519 public key checks an exported bundle, or one settlement's inclusion proof,
offline (``python -m casino.audit_verify``; ``docs/audit-verify.md``).

* :mod:`.formats`: what the signed statements, bundles and proofs are made of, byte for
  byte (shared with the system that writes them);
* :mod:`.merkle`: the settlements' Merkle tree, as Certificate Transparency hashes it;
* :mod:`.verify`: the checks (``verify_bundle``, ``verify_lines``, ``verify_proof``);
* :mod:`.__main__`: the command line.

Python's standard library and the ``cryptography`` package only: no Django, no database, no
secret. Nothing is imported here, so importing one module loads only what it needs.
"""
