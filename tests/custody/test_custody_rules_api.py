"""Chip custody's refusals and records through the API: two different people in the steps
their roles allow, counts that must add up, slips that keep their numbers when void and say
REPRINT, drop counts corrected by new entries, tables that open only counted."""

from __future__ import annotations

from typing import Any

import pytest

from tables import services

from .conftest import OPENER, opened, seated

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(chips: Any, floor: Any, dealer: Any) -> Any:
    made = services.table_create(
        user=floor,
        name="HCF-R",
        game="high-card-flush",
        dealer=dealer,
        limits={"ante_min": 100, "ante_max": 10_000, "bank_min": 5_000, "bank_max": 1_000_000},
    )
    return seated(floor, made, {1: "Ana", 2: "Bela"})


def _error(answer: Any) -> tuple[str, str]:
    problem = answer.json()["errors"][0]
    return problem["path"], problem["message"]


def test_a_table_opens_only_with_its_counted_opener(table, floor, dealer, client_for):
    plain = client_for(floor).post(
        f"/api/v1/tables/{table.pk}/status/", {"status": "open"}, format="json"
    )
    assert plain.status_code == 409
    assert "count the opener by denomination" in plain.json()["detail"]
    opened(client_for, table, dealer, floor)
    plain = client_for(floor).post(
        f"/api/v1/tables/{table.pk}/status/", {"status": "closed"}, format="json"
    )
    assert plain.status_code == 409 and "count the closer" in plain.json()["detail"]


def test_the_second_signature_is_another_person_in_the_other_role(
    table, floor, floor2, dealer, client_for
):
    counted = (
        client_for(floor)
        .post(f"/api/v1/tables/{table.pk}/custody/opener/", {"counts": OPENER}, format="json")
        .json()
    )
    again = client_for(floor).post(f"/api/v1/custody/inventories/{counted['id']}/sign/")
    assert again.status_code == 409
    assert "already signed" in again.json()["detail"]
    other_floor = client_for(floor2).post(f"/api/v1/custody/inventories/{counted['id']}/sign/")
    assert other_floor.status_code == 403
    assert "the other signature is the dealer's" in other_floor.json()["detail"]
    signed = client_for(dealer).post(f"/api/v1/custody/inventories/{counted['id']}/sign/")
    assert signed.status_code == 200
    assert [(s["step"], s["signed_by"]) for s in signed.json()["signatures"]] == [
        ("floor", "floor"),
        ("dealer", "dealer"),
    ]
    table.refresh_from_db()
    assert table.status == "open"


def test_the_next_opener_is_proposed_from_the_last_closer(table, floor, dealer, client_for):
    opened(client_for, table, dealer, floor)
    closer = (
        client_for(dealer)
        .post(f"/api/v1/tables/{table.pk}/custody/closer/", {"counts": OPENER}, format="json")
        .json()
    )
    client_for(floor).post(f"/api/v1/custody/inventories/{closer['id']}/sign/")
    state = client_for(dealer).get(f"/api/v1/tables/{table.pk}/custody/").json()
    assert state["proposal"]["id"] == closer["id"]
    assert state["proposal"]["counts"] == OPENER


@pytest.mark.parametrize(
    ("body", "path", "words"),
    [
        ({"counts": {"300": 2}}, "counts[300]", "3.00 is not a chip of this set"),
        (
            {"counts": {"500": -1}},
            "counts[500]",
            "a count is a whole number of chips or notes, 0 or more",
        ),
        ({"counts": {"500": 2}, "total": 999}, "total", "add up to 10.00, not the 9.99 given"),
        ({"counts": {"5000": 1}}, "counts[5000]", "50.00 is not a chip"),  # a note, not a chip
    ],
)
def test_counts_that_do_not_add_up_are_refused_naming_the_denomination(
    table, dealer, client_for, body, path, words
):
    answer = client_for(dealer).post(
        f"/api/v1/tables/{table.pk}/custody/opener/", body, format="json"
    )
    assert answer.status_code == 400
    where, message = _error(answer)
    assert where == path and words in message
    assert not table.inventories.exists()


def test_slips_keep_their_numbers_when_void_and_a_reprint_says_so(
    table, floor, dealer, cage, client_for
):
    opened(client_for, table, dealer, floor)
    floor_api = client_for(floor)
    made = [
        floor_api.post(
            f"/api/v1/tables/{table.pk}/custody/fills/", {"counts": {"500": n}}, format="json"
        ).json()
        for n in (10, 20, 30)
    ]
    assert [slip["number"] for slip in made] == [1, 2, 3]
    refused = floor_api.post(
        f"/api/v1/custody/slips/{made[1]['id']}/void/", {"reason": " "}, format="json"
    )
    assert refused.status_code == 400
    voided = floor_api.post(
        f"/api/v1/custody/slips/{made[1]['id']}/void/", {"reason": "wrong table"}, format="json"
    )
    assert voided.json()["status"] == "void" and voided.json()["number"] == 2
    listed = floor_api.get("/api/v1/custody/slips/", {"kind": "fill"}).json()["results"]
    assert sorted((s["number"], s["status"]) for s in listed) == [
        (1, "requested"),
        (2, "void"),
        (3, "requested"),
    ]
    late = client_for(cage).post(f"/api/v1/custody/slips/{made[1]['id']}/sign/")
    assert late.status_code == 409
    first = client_for(cage).post(f"/api/v1/custody/slips/{made[0]['id']}/print/").json()
    second = client_for(cage).post(f"/api/v1/custody/slips/{made[0]['id']}/print/").json()
    assert (first["reprint"], second["reprint"]) == (False, True)


def test_each_side_signs_a_slip_in_its_turn(table, floor, floor2, dealer, cage, client_for):
    opened(client_for, table, dealer, floor)
    fill = (
        client_for(floor)
        .post(f"/api/v1/tables/{table.pk}/custody/fills/", {"counts": {"2500": 4}}, format="json")
        .json()
    )
    early = client_for(dealer).post(f"/api/v1/custody/slips/{fill['id']}/sign/")
    assert early.status_code == 403 and "the cage signs" in early.json()["detail"]
    wrong = client_for(cage).post(
        f"/api/v1/custody/slips/{fill['id']}/sign/", {"counts": {"2500": 3}}, format="json"
    )
    assert wrong.status_code == 400 and _error(wrong)[0] == "counts"
    client_for(cage).post(f"/api/v1/custody/slips/{fill['id']}/sign/")
    client_for(floor2).post(f"/api/v1/custody/slips/{fill['id']}/sign/")
    second_floor = client_for(floor).post(f"/api/v1/custody/slips/{fill['id']}/sign/")
    assert second_floor.status_code == 403  # the table's two are the dealer and a floor manager
    done = client_for(dealer).post(f"/api/v1/custody/slips/{fill['id']}/sign/").json()
    assert done["status"] == "received"
    assert [s["step"] for s in done["signatures"]] == ["cage", "floor", "dealer"]


def test_a_drop_count_is_corrected_by_a_new_entry_that_keeps_the_original(
    table, counter, counter2, dealer, client_for
):
    counting = client_for(counter)
    first = counting.post(
        f"/api/v1/tables/{table.pk}/custody/drop/",
        {"cash": {"2000": 5}, "chips": {"100": 3}},
        format="json",
    ).json()
    assert (first["cash_total"], first["chips_total"], first["total"]) == (10_000, 300, 10_300)
    assert client_for(counter).post(f"/api/v1/custody/drops/{first['id']}/sign/").status_code == 409
    assert client_for(dealer).post(f"/api/v1/custody/drops/{first['id']}/sign/").status_code == 403
    client_for(counter2).post(f"/api/v1/custody/drops/{first['id']}/sign/")
    twice = counting.post(
        f"/api/v1/tables/{table.pk}/custody/drop/", {"cash": {}, "chips": {}}, format="json"
    )
    assert twice.status_code == 409 and "correction" in twice.json()["detail"]
    unexplained = counting.post(
        f"/api/v1/tables/{table.pk}/custody/drop/",
        {"cash": {"2000": 6}, "chips": {"100": 3}, "corrects": first["id"]},
        format="json",
    )
    assert unexplained.status_code == 400 and _error(unexplained)[0] == "reason"
    fixed = counting.post(
        f"/api/v1/tables/{table.pk}/custody/drop/",
        {
            "cash": {"2000": 6},
            "chips": {"100": 3},
            "corrects": first["id"],
            "reason": "a note stuck in the box",
        },
        format="json",
    ).json()
    listed = {row["id"]: row for row in counting.get("/api/v1/custody/drops/").json()["results"]}
    assert listed[first["id"]]["corrected_by"] == fixed["id"]
    assert listed[first["id"]]["total"] == 10_300  # the original stays as counted
    assert listed[fixed["id"]]["corrects"] == first["id"]
    assert listed[fixed["id"]]["signed"] is False  # the correction needs its two counters too


def test_the_tray_counts_a_credit_when_it_leaves_and_a_fill_when_it_arrives(
    table, floor, dealer, cage, client_for
):
    opened(client_for, table, dealer, floor)
    floor_api = client_for(floor)

    def expected() -> int:
        state = client_for(dealer).get(f"/api/v1/tables/{table.pk}/custody/").json()
        return state["window"]["expected_tray"]

    start = expected()
    credit = floor_api.post(
        f"/api/v1/tables/{table.pk}/custody/credits/", {"counts": {"2500": 4}}, format="json"
    ).json()
    fill = floor_api.post(
        f"/api/v1/tables/{table.pk}/custody/fills/", {"counts": {"500": 10}}, format="json"
    ).json()
    for signer in (dealer, floor):
        client_for(signer).post(f"/api/v1/custody/slips/{credit['id']}/sign/")
    assert expected() == start - 10_000  # left the table; the cage has not signed yet
    refused = floor_api.post(
        f"/api/v1/custody/slips/{credit['id']}/void/", {"reason": "oops"}, format="json"
    )
    assert refused.status_code == 409 and "left the table" in refused.json()["detail"]
    client_for(cage).post(f"/api/v1/custody/slips/{fill['id']}/sign/")
    assert expected() == start - 10_000  # a fill on its way is not in the tray yet
    closing = client_for(dealer).post(
        f"/api/v1/tables/{table.pk}/custody/closer/", {"counts": OPENER}, format="json"
    )
    assert closing.status_code == 409 and "is on its way" in closing.json()["detail"]
    for signer in (dealer, floor):
        client_for(signer).post(f"/api/v1/custody/slips/{fill['id']}/sign/")
    assert expected() == start - 10_000 + 5_000


def test_a_closer_is_counted_again_when_the_tray_moved_before_its_second_signature(
    table, floor, dealer, client_for
):
    opened(client_for, table, dealer, floor)
    counted = (
        client_for(dealer)
        .post(f"/api/v1/tables/{table.pk}/custody/closer/", {"counts": OPENER}, format="json")
        .json()
    )
    fill = (
        client_for(floor)
        .post(f"/api/v1/tables/{table.pk}/custody/fills/", {"counts": {"500": 10}}, format="json")
        .json()
    )
    from custody.models import Slip  # received at the table past the API, as a quick way

    Slip.objects.filter(pk=fill["id"]).update(status="received", completed_at=fill["requested_at"])
    late = client_for(floor).post(f"/api/v1/custody/inventories/{counted['id']}/sign/")
    assert late.status_code == 409 and "count it again" in late.json()["detail"]
    table.refresh_from_db()
    assert table.status == "open"
