"""Rake schedules for the property tests: a Hypothesis strategy for their JSON, and the rake
one takes from a pot worked out afresh (not by the engine)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import strategies as st


@st.composite
def rake_schedules(draw: st.DrawFn, chip: int, most: int = 40) -> dict[str, Any] | None:
    """A rake schedule's JSON for a table with this ``chip``: none (also as ``null``), a
    fixed fee, bands by the pot (the last open-ended) or a percentage with or without a cap;
    amounts up to ``most`` chips."""
    kind = draw(st.sampled_from(["null", "none", "fixed", "banded", "percent"]))
    if kind == "null":
        return None
    if kind == "none":
        return {"kind": "none"}
    if kind == "fixed":
        return {"kind": "fixed", "amount": chip * draw(st.integers(1, most))}
    if kind == "banded":
        tops = sorted(draw(st.sets(st.integers(1, 50 * most), max_size=3)))
        fees = draw(st.lists(st.integers(0, most), min_size=len(tops) + 1, max_size=len(tops) + 1))
        bands: list[dict[str, Any]] = [
            {"up_to": chip * top, "amount": chip * fee}
            for top, fee in zip(tops, fees, strict=False)
        ]
        bands.append({"up_to": None, "amount": chip * fees[-1]})
        return {"kind": "banded", "bands": bands}
    points = draw(st.integers(1, 10_000))
    percent: int | float = points // 100 if points % 100 == 0 else points / 100
    cap = draw(st.one_of(st.none(), st.integers(1, most).map(lambda units: chip * units)))
    return {"kind": "percent", "percent": percent, "cap": cap}


def expected_rake(rake: dict[str, Any] | None, pot: int, chip: int) -> int:
    """What a schedule's JSON takes from one pot, worked out afresh from the JSON: a fee, a
    band's fee or a percentage rounded down to the chip and capped; never more than the pot."""
    kind = (rake or {}).get("kind", "none")
    assert rake is not None or kind == "none"
    if kind == "fixed":
        fee = rake["amount"]
    elif kind == "banded":
        fee = next(b["amount"] for b in rake["bands"] if b["up_to"] is None or pot <= b["up_to"])
    elif kind == "percent":
        fee = int(Fraction(pot) * Fraction(str(rake["percent"])) / 100 / chip) * chip
        if rake["cap"] is not None:
            fee = min(fee, rake["cap"])
    else:
        fee = 0
    return min(fee, pot)
