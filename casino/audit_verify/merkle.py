"""Merkle tree hashing as Certificate Transparency does it (RFC 6962 section 2.1, RFC 9162
section 2.1): the tree over the settlements that every signed checkpoint states the root of.

* A leaf's hash is ``SHA-256(0x00 || leaf)``; an inner node's is ``SHA-256(0x01 || left ||
  right)``; the empty tree's root is ``SHA-256()``.
* The tree over ``n`` leaves splits at ``k``, the largest power of two below ``n``: the left
  part is a perfect tree of ``k`` leaves, the right part the tree over the rest. So every
  tree is made of *perfect subtrees* aligned on their size: the subtree of level ``L`` and
  index ``i`` covers leaves ``i * 2**L`` to ``(i + 1) * 2**L - 1`` and never changes once its
  last leaf is there. A store keeps those (level 0: the leaf hashes) and computes any tree,
  proof or root from a few of them (:func:`subtree`, :func:`inclusion_proof`,
  :func:`consistency_proof`, :func:`needed`).
* :func:`verify_inclusion` and :func:`verify_consistency` are RFC 9162's algorithms
  (sections 2.1.3.2 and 2.1.4.2): they need only the proof, the sizes and the roots.

Pure Python and the standard library only: the standalone verifier runs it without Django.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

Key = tuple[int, int]  # (level, index) of a perfect subtree
Lookup = Callable[[int, int], bytes]

EMPTY_ROOT = hashlib.sha256(b"").digest()


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(size: int) -> int:
    """The largest power of two strictly below ``size`` (``size`` at least 2)."""
    return 1 << ((size - 1).bit_length() - 1)


def _perfect(start: int, end: int) -> Key | None:
    """The perfect subtree that is exactly leaves ``start`` to ``end - 1``, if there is one."""
    width = end - start
    if width > 0 and width & (width - 1) == 0 and start % width == 0:
        level = width.bit_length() - 1
        return level, start >> level
    return None


def subtree(lookup: Lookup, start: int, end: int) -> bytes:
    """The tree hash of leaves ``start`` to ``end - 1`` (RFC 6962's ``MTH(D[start:end])``),
    from the perfect subtrees ``lookup(level, index)`` gives."""
    if start >= end:
        return EMPTY_ROOT
    key = _perfect(start, end)
    if key is not None:
        return lookup(*key)
    k = _split(end - start)
    return node_hash(subtree(lookup, start, start + k), subtree(lookup, start + k, end))


def root(lookup: Lookup, size: int) -> bytes:
    """The root of the tree of the first ``size`` leaves."""
    return subtree(lookup, 0, size)


def _path_ranges(index: int, start: int, end: int) -> list[tuple[int, int]]:
    """RFC 6962's PATH(index, D[start:end]), as the leaf ranges whose hashes make it."""
    if end - start <= 1:
        return []
    k = _split(end - start)
    if index < start + k:
        return [*_path_ranges(index, start, start + k), (start + k, end)]
    return [*_path_ranges(index, start + k, end), (start, start + k)]


def _subproof_ranges(old: int, start: int, end: int, whole: bool) -> list[tuple[int, int]]:
    """RFC 6962's SUBPROOF(old, D[start:end], whole), as leaf ranges."""
    if start + old == end:
        return [] if whole else [(start, end)]
    k = _split(end - start)
    if old <= k:
        return [*_subproof_ranges(old, start, start + k, whole), (start + k, end)]
    return [*_subproof_ranges(old - k, start + k, end, False), (start, start + k)]


def inclusion_ranges(index: int, size: int) -> list[tuple[int, int]]:
    if not 0 <= index < size:
        raise ValueError(f"leaf {index} is not in a tree of {size} leaves")
    return _path_ranges(index, 0, size)


def consistency_ranges(old_size: int, new_size: int) -> list[tuple[int, int]]:
    if not 0 <= old_size <= new_size:
        raise ValueError(f"a tree of {old_size} leaves is not a prefix of one of {new_size}")
    if old_size in (0, new_size):
        return []
    return _subproof_ranges(old_size, 0, new_size, True)


def inclusion_proof(lookup: Lookup, index: int, size: int) -> list[bytes]:
    """The audit path of leaf ``index`` in the tree of ``size`` leaves."""
    return [subtree(lookup, a, b) for a, b in inclusion_ranges(index, size)]


def consistency_proof(lookup: Lookup, old_size: int, new_size: int) -> list[bytes]:
    """The proof that the tree of ``old_size`` leaves is a prefix of the one of ``new_size``."""
    return [subtree(lookup, a, b) for a, b in consistency_ranges(old_size, new_size)]


def decomposition(start: int, end: int) -> list[Key]:
    """The perfect subtrees :func:`subtree` reads for leaves ``start`` to ``end - 1``, left to
    right."""
    if start >= end:
        return []
    key = _perfect(start, end)
    if key is not None:
        return [key]
    k = _split(end - start)
    return [*decomposition(start, start + k), *decomposition(start + k, end)]


def needed(ranges: Iterable[tuple[int, int]]) -> set[Key]:
    """Every perfect subtree the hashes of ``ranges`` are made of: what a store reads at once
    before computing a root or a proof."""
    return {key for a, b in ranges for key in decomposition(a, b)}


def from_mapping(nodes: Mapping[Key, bytes]) -> Lookup:
    def lookup(level: int, index: int) -> bytes:
        try:
            return nodes[(level, index)]
        except KeyError:
            raise LookupError(f"the tree store has no subtree {level}/{index}") from None

    return lookup


# ---------------------------------------------------------------- growing a tree


@dataclass
class Frontier:
    """A tree grown one leaf at a time, keeping only the perfect subtrees on its right edge
    (one per bit of its size): its root at any size, and the perfect subtrees each new leaf
    completes (what a store adds)."""

    size: int = 0
    edge: list[tuple[int, bytes]] = field(default_factory=list)  # (level, hash), left to right

    @classmethod
    def at(cls, lookup: Lookup, size: int) -> Frontier:
        """The frontier of a stored tree of ``size`` leaves."""
        return cls(size, [(level, lookup(level, index)) for level, index in decomposition(0, size)])

    def append(self, leaf: bytes) -> list[tuple[int, int, bytes]]:
        """Add a leaf hash; returns the perfect subtrees completed, ``(level, index, hash)``,
        the leaf itself first."""
        self.size += 1
        made = [(0, self.size - 1, leaf)]
        level, value = 0, leaf
        while self.edge and self.edge[-1][0] == level:
            _, left = self.edge.pop()
            level, value = level + 1, node_hash(left, value)
            made.append((level, (self.size >> level) - 1, value))
        self.edge.append((level, value))
        return made

    def root(self) -> bytes:
        if not self.edge:
            return EMPTY_ROOT
        value = self.edge[-1][1]
        for _, left in reversed(self.edge[:-1]):
            value = node_hash(left, value)
        return value


# ---------------------------------------------------------------- verifying (RFC 9162)


def verify_inclusion(leaf: bytes, index: int, size: int, proof: list[bytes], root_: bytes) -> bool:
    """Whether ``proof`` shows the leaf hash ``leaf`` at ``index`` in the tree of ``size``
    leaves whose root is ``root_`` (RFC 9162, 2.1.3.2)."""
    if not 0 <= index < size:
        return False
    fn, sn, value = index, size - 1, leaf
    for sibling in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            value = node_hash(sibling, value)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            value = node_hash(value, sibling)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and value == root_


def verify_consistency(
    old_size: int, new_size: int, old_root: bytes, new_root: bytes, proof: list[bytes]
) -> bool:
    """Whether ``proof`` shows the tree of ``old_size`` leaves (root ``old_root``) is a prefix
    of the tree of ``new_size`` leaves (root ``new_root``) (RFC 9162, 2.1.4.2)."""
    if not 0 <= old_size <= new_size:
        return False
    if old_size == new_size:
        return not proof and old_root == new_root
    if old_size == 0:
        return not proof  # the empty tree is a prefix of every tree
    if not proof:
        return False
    path = list(proof)
    if old_size & (old_size - 1) == 0:
        path.insert(0, old_root)
    fn, sn = old_size - 1, new_size - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    first = second = path[0]
    for step in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            first, second = node_hash(step, first), node_hash(step, second)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            second = node_hash(second, step)
        fn, sn = fn >> 1, sn >> 1
    return first == old_root and second == new_root and sn == 0
