"""Chip custody's closers through the API at a High Card Flush table: the variance lines,
and the steps the other custody tests share (a table, a slip signed in turn, a closer, a
drop count). The whole gaming day at two tables, one of them house-banked, is
in tests/games/, where the suite's house-banked game lives."""

from __future__ import annotations

from typing import Any

import pytest

from tables import services

from .conftest import OPENER, opened, seated

pytestmark = pytest.mark.django_db


def _hcf(floor: Any, dealer: Any) -> Any:
    table = services.table_create(
        user=floor,
        name="HCF-C",
        game="high-card-flush",
        seat_count=7,
        dealer=dealer,
        limits={"ante_min": 100, "ante_max": 10_000, "bank_min": 5_000, "bank_max": 1_000_000},
        rules={"rake": {"scheme": "per_player", "amount": 100}},
    )
    return seated(floor, table, {1: "Ana", 2: "Bela", 3: "Csilla", 4: "Dani"})


def _slip(client_for, who: Any, table: Any, kind: str, counts: dict[str, int]) -> dict:
    made = client_for(who).post(
        f"/api/v1/tables/{table.pk}/custody/{kind}s/", {"counts": counts}, format="json"
    )
    assert made.status_code == 201, made.json()
    return made.json()


def _sign_slip(client_for, slip: dict, *signers: Any) -> dict:
    for signer in signers:
        answer = client_for(signer).post(
            f"/api/v1/custody/slips/{slip['id']}/sign/", {"counts": slip["counts"]}, format="json"
        )
        assert answer.status_code == 200, answer.json()
    return answer.json()


def _close(client_for, table: Any, dealer: Any, floor: Any, counts: dict, reason: str = ""):
    counted = client_for(dealer).post(
        f"/api/v1/tables/{table.pk}/custody/closer/",
        {"counts": counts, "reason": reason},
        format="json",
    )
    assert counted.status_code == 201, counted.json()
    signed = client_for(floor).post(f"/api/v1/custody/inventories/{counted.json()['id']}/sign/")
    assert signed.status_code == 200, signed.json()
    table.refresh_from_db()
    assert table.status == "closed"
    return signed.json()


def _count_drop(client_for, table, counter, counter2, cash: dict, chips: dict) -> dict:
    counted = client_for(counter).post(
        f"/api/v1/tables/{table.pk}/custody/drop/", {"cash": cash, "chips": chips}, format="json"
    )
    assert counted.status_code == 201, counted.json()
    signed = client_for(counter2).post(f"/api/v1/custody/drops/{counted.json()['id']}/sign/")
    assert signed.status_code == 200, signed.json()
    assert signed.json()["signed"] is True
    return signed.json()


def test_a_closer_beyond_the_notify_line_is_flagged_for_the_regulator(
    chips, floor, floor2, dealer, client_for
):
    hcf = _hcf(floor, dealer)
    opened(client_for, hcf, dealer, floor)
    short = {**OPENER, "10000": OPENER["10000"] - 2}  # 200.00 missing
    _close(client_for, hcf, dealer, floor, short, reason="recounted twice; surveillance asked")
    [waiting] = client_for(floor2).get("/api/v1/approvals/", {"kind": "variance"}).json()["results"]
    assert waiting["detail"]["variance"] == -20_000 and waiting["detail"]["notify"] is True
    assert waiting["reason"] == "recounted twice; surveillance asked"
    own = client_for(floor).post(f"/api/v1/approvals/{waiting['id']}/approve/", {}, format="json")
    assert own.status_code == 403  # the floor manager who signed the closer does not review it
    reviewed = client_for(floor2).post(
        f"/api/v1/approvals/{waiting['id']}/approve/", {"note": "seen"}, format="json"
    )
    assert reviewed.status_code == 200 and reviewed.json()["status"] == "approved"


def test_a_small_variance_needs_no_reason_and_waits_for_nobody(chips, floor, dealer, client_for):
    hcf = _hcf(floor, dealer)
    opened(client_for, hcf, dealer, floor)
    closer = _close(client_for, hcf, dealer, floor, {**OPENER, "100": OPENER["100"] - 25})
    assert closer["variance"] == -2_500  # at the line, not above it
    assert client_for(floor).get("/api/v1/approvals/", {"kind": "variance"}).json()["count"] == 0


def test_neither_signer_of_a_closer_reviews_its_variance_and_nobody_withdraws_it(
    chips, floor, floor2, dealer, make_user, client_for
):
    hcf = _hcf(floor, dealer)
    opened(client_for, hcf, dealer, floor)
    counted = client_for(floor).post(
        f"/api/v1/tables/{hcf.pk}/custody/closer/",
        {"counts": {**OPENER, "10000": 10}, "reason": "short"},
        format="json",
    )
    assert counted.status_code == 201, counted.json()
    client_for(dealer).post(f"/api/v1/custody/inventories/{counted.json()['id']}/sign/")
    [waiting] = client_for(floor2).get("/api/v1/approvals/", {"kind": "variance"}).json()["results"]
    counter_of_it = client_for(floor).post(f"/api/v1/approvals/{waiting['id']}/approve/")
    assert counter_of_it.status_code == 403
    assert (
        "reviewed by a floor manager who did not count or sign it" in counter_of_it.json()["detail"]
    )
    for who in (floor, dealer):
        withdrawn = client_for(who).post(f"/api/v1/approvals/{waiting['id']}/withdraw/")
        assert withdrawn.status_code in (403, 409)
    reviewed = client_for(floor2).post(
        f"/api/v1/approvals/{waiting['id']}/reject/", {"note": "recount"}, format="json"
    )
    assert reviewed.status_code == 200 and reviewed.json()["status"] == "rejected"
