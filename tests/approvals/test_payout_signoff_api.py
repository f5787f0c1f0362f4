"""Large payouts wait for their signatures: a settlement that reaches the table's sign-off
tiers is held in the approvals queue until every tier it reaches is signed, each signature
by a different person with the tier's role, never the one who asked."""

from __future__ import annotations

import pytest

from approvals.models import Approval, Signature
from casino.rules.contract import registry
from payouts.models import AuditEntry, Settlement, SignoffPolicy
from tables.models import Hand, HandAction
from tests.approvals.signoff_fixtures import IDENTITY, SEVEN_SF, bonus_record, held, settle
from tests.conftest import record

pytestmark = pytest.mark.django_db

ONE_FLOOR = [{"above": 1, "role": "floor_manager", "count": 1}]


def engine(body: dict) -> dict:
    rules = {"rake": {"scheme": "per_player", "amount": 100}}
    return registry()["high-card-flush"].evaluate(body, rules).to_dict()


def largest_win(result: dict) -> int:
    """The largest win of one party: its biggest line or its net, the larger."""
    return max(
        max([line["amount"] for line in seat["lines"]] + [seat["net"]]) for seat in result["seats"]
    )


@pytest.fixture
def low_tiers(dp_table, floor):
    """One tier of one floor manager just under what ``record()`` wins, set on the table."""
    win = largest_win(engine(record()))
    SignoffPolicy.objects.create(
        table=dp_table,
        tiers=[{"above": win - 1, "role": "floor_manager", "count": 1}],
        notice=None,
        set_by=floor,
    )
    return win - 1


def open_hand(client, table) -> dict:
    response = client.post(f"/api/v1/tables/{table.pk}/hands/")
    assert response.status_code == 201, response.json()
    return response.json()


def test_a_large_payout_waits_for_another_floor_manager_and_then_settles(
    dp_table, low_tiers, dealer, floor, compliance, client_for, django_capture_on_commit_callbacks
):
    client = client_for(dealer)
    hand = open_hand(client, dp_table)
    answer = client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    assert answer.status_code == 202, answer.json()
    body = answer.json()
    expected = engine(record())
    assert body["status"] == "pending_signoff" and body["seats"] == expected["seats"]
    request = body["approval"]
    assert (request["kind"], request["status"], request["requested_by"]) == (
        "payout",
        "pending",
        "dealer",
    )
    win = largest_win(expected)
    assert f"seat 3 wins ${win / 100:,.2f}" in request["reason"]
    signoff = request["signoff"]
    assert [(t["role"], t["count"], t["missing"]) for t in signoff["tiers"]] == [
        ("floor_manager", 1, 1)
    ]
    assert (signoff["signed"], signoff["needed"], signoff["win"]) == (0, 1, win)
    assert signoff["missing"] == ["signatures: 1 floor manager (tier 1)"]
    # Nothing is paid yet: no settlement, no imported actions; the hand waits, frozen.
    assert not Settlement.objects.exists() and not HandAction.objects.exists()
    shown = client.get(f"/api/v1/hands/{hand['id']}/").json()
    assert shown["status"] == "open" and shown["waiting_for"][0]["kind"] == "payout"
    again = client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    assert again.status_code == 409 and "waits for the floor" in again.json()["detail"]
    nxt = client.post(f"/api/v1/tables/{dp_table.pk}/hands/")
    assert nxt.status_code == 409 and "still open" in nxt.json()["detail"]
    held_entry = AuditEntry.objects.get(action="hand_settle_held")
    assert held_entry.actor_name == "dealer" and held_entry.after["approval"] == request["id"]
    assert held_entry.after["signoff"]["tiers"] == signoff_tiers(request)

    signed = client_for(floor).post(
        f"/api/v1/approvals/{request['id']}/approve/",
        {"note": "paid in my presence"},
        format="json",
    )
    assert signed.status_code == 200, signed.json()
    assert signed.json()["status"] == "approved"
    settlement = Settlement.objects.get(hand_id=hand["id"])
    assert settlement.result["seats"] == expected["seats"] and settlement.rake == expected["rake"]
    assert settlement.settled_by.username == "dealer"
    assert Hand.objects.get(pk=hand["id"]).status == "settled"
    assert HandAction.objects.filter(hand_id=hand["id"]).count() > 0
    entry = AuditEntry.objects.get(action="hand_settle")
    assert entry.actor_name == "floor"
    assert entry.after["signed_off_by"] == "floor" and entry.after["approval"] == request["id"]
    assert [s["by"] for s in entry.after["signatures"]] == ["floor"]
    signature = AuditEntry.objects.get(action="hand_settle_signed")
    assert signature.after["note"] == "paid in my presence" and signature.table_id == dp_table.pk
    # The table moves on as after any settled hand: the position is offered to seat 2.
    state = client.get(f"/api/v1/tables/{dp_table.pk}/game/").json()["state"]
    assert state["offer_seat"] == 2
    # The audit check replays the signed settlement and finds the chain whole.
    with django_capture_on_commit_callbacks(execute=True):
        check = client_for(compliance).post("/api/v1/audit/checks/").json()
    report = client_for(compliance).get(f"/api/v1/audit/checks/{check['id']}/").json()
    assert report["status"] == "passed", report["report"]["findings"]


def signoff_tiers(request: dict) -> list[dict]:
    return [
        {"above": t["above"], "role": t["role"], "count": t["count"]}
        for t in request["signoff"]["tiers"]
    ]


def test_the_dealer_who_settled_and_other_roles_cannot_sign(
    dp_table, low_tiers, dealer, floor, compliance, client_for
):
    # A floor manager settling a large hand also needs another floor manager.
    hand = open_hand(client_for(dealer), dp_table)
    request = (
        client_for(floor)
        .post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
        .json()["approval"]
    )
    for who in (floor, dealer, compliance):
        response = client_for(who).post(
            f"/api/v1/approvals/{request['id']}/approve/", {}, format="json"
        )
        assert response.status_code == 403, response.json()
    own = client_for(floor).post(f"/api/v1/approvals/{request['id']}/approve/", {}, format="json")
    assert "the signatures are other people's" in own.json()["detail"]
    assert not Settlement.objects.exists() and not Signature.objects.exists()


def test_a_payout_sent_back_lets_the_dealer_settle_the_corrected_record(
    dp_table, low_tiers, dealer, floor, client_for
):
    client = client_for(dealer)
    hand = open_hand(client, dp_table)
    request = client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json").json()
    silent = client_for(floor).post(
        f"/api/v1/approvals/{request['approval']['id']}/reject/", {}, format="json"
    )
    assert silent.status_code == 400 and silent.json()["errors"][0]["path"] == "note"
    sent_back = client_for(floor).post(
        f"/api/v1/approvals/{request['approval']['id']}/reject/",
        {"note": "seat 2 bet 100, not 1000"},
        format="json",
    )
    assert sent_back.status_code == 200 and sent_back.json()["status"] == "rejected"
    assert AuditEntry.objects.get(action="hand_settle_rejected").after["note"] == (
        "seat 2 bet 100, not 1000"
    )
    corrected = record()
    corrected["players"][0].update({"ante": 100, "raise": 100, "flush_bonus": 0})
    corrected["players"][1].update({"ante": 100, "raise": 200})
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", corrected, format="json")
    assert settled.status_code == 201, settled.json()  # below the tiers: no sign-off
    assert Settlement.objects.get().result["seats"] == engine(corrected)["seats"]


def test_a_win_two_tiers_need_is_not_stored_with_one_signature(
    dealer, floor, floor2, shift, compliance, client_for, django_capture_on_commit_callbacks
):
    """The default tiers (Mississippi's): a $6,019 win needs a floor manager, then a shift
    manager; its W-2G and MTL entry come first; each signature is audited."""
    from tests.approvals.signoff_fixtures import big_table

    table = big_table(floor, dealer)
    request = held(client_for(dealer), table, bonus_record(SEVEN_SF, 600))
    signoff = request["signoff"]
    assert [(t["above"], t["role"], t["count"]) for t in signoff["tiers"]] == [
        (119_999, "floor_manager", 1),
        (500_000, "shift_manager", 1),
    ]
    assert signoff["win"] == 601_900 and not signoff["regulator_notice"]
    [seat] = [s for s in signoff["seats"] if s["seat"] == 2]
    assert seat["mtl"] and [line["amount"] for line in seat["w2g"]] == [600_000]
    url = f"/api/v1/approvals/{request['id']}/approve/"

    # The W-2G comes first: the signature is refused, naming it.
    refused = client_for(floor).post(url, {}, format="json")
    assert refused.status_code == 400
    assert (
        "seat 2: a W-2G (the winner's name, ID, address and taxpayer id)"
        in (refused.json()["detail"])
    )
    assert not Signature.objects.exists()
    # A W-2G needs the address and taxpayer id: each missing one is named.
    partial = {k: v for k, v in IDENTITY.items() if k not in ("address", "tin")}
    refused = client_for(floor).post(url, {"patrons": {"2": partial}}, format="json")
    assert refused.status_code == 400
    assert {e["path"] for e in refused.json()["errors"]} == {"patrons.2.address", "patrons.2.tin"}

    first = client_for(floor).post(url, {"patrons": {"2": IDENTITY}}, format="json")
    assert first.status_code == 200, first.json()
    body = first.json()
    assert body["status"] == "pending" and not Settlement.objects.exists()
    assert (body["signoff"]["signed"], body["signoff"]["needed"]) == (1, 2)
    assert body["signoff"]["missing"] == ["signatures: 1 shift manager (tier 2)"]
    assert body["signoff"]["tiers"][0]["signed_by"] == ["floor"]
    patron = body["signoff"]["seats"][0]["patron"]
    assert patron["name"] == "Ana Kovacs" and patron["id_number"] == "•••• 6789"
    assert patron["tin"] == "•••• 6789" and "123-45" not in str(body)

    # The same person never signs twice; a floor manager cannot give a shift manager's.
    twice = client_for(floor).post(url, {}, format="json")
    assert twice.status_code == 409 and "already signed" in twice.json()["detail"]
    wrong = client_for(floor2).post(url, {}, format="json")
    assert wrong.status_code == 403
    assert "what is still needed is 1 shift manager" in wrong.json()["detail"]
    assert client_for(dealer).post(url, {}, format="json").status_code == 403
    assert not Settlement.objects.exists() and Signature.objects.count() == 1

    last = client_for(shift).post(url, {"note": "ID checked"}, format="json")
    assert last.status_code == 200, last.json()
    assert last.json()["status"] == "approved"
    settlement = Settlement.objects.get()
    entry = AuditEntry.objects.get(action="hand_settle")
    assert entry.after["signed_off_by"] == "shift"
    assert [(s["by"], s["tier"]) for s in entry.after["signatures"]] == [("floor", 1), ("shift", 2)]
    signatures = AuditEntry.objects.filter(action="hand_settle_signed").order_by("seq")
    assert [(e.actor_name, e.after["tier"], e.table_id) for e in signatures] == [
        ("floor", 1, table.pk),
        ("shift", 2, table.pk),
    ]
    recorded = AuditEntry.objects.get(action="payout_patron_recorded")
    assert recorded.after["seat"] == 2 and "D123" not in str(recorded.after)
    # The records count from now on, linked to the settlement.
    w2g = client_for(compliance).get("/api/v1/filings/w2g/").json()["results"]
    assert [(r["settlement"], r["amount"], r["wager"]) for r in w2g] == [
        (settlement.pk, 600_000, 600)
    ]
    assert w2g[0]["patron"]["id_number"] == "•••• 6789"
    mtl = client_for(compliance).get("/api/v1/filings/mtl/").json()["results"]
    assert [(r["seat"], r["amount"]) for r in mtl] == [(2, 601_900)]
    assert client_for(dealer).get("/api/v1/filings/w2g/").status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        check = client_for(compliance).post("/api/v1/audit/checks/").json()
    report = client_for(compliance).get(f"/api/v1/audit/checks/{check['id']}/").json()
    assert report["status"] == "passed", report["report"]["findings"]


def test_a_shift_manager_signing_first_leaves_the_floor_managers_tier_to_another(
    dealer, floor, shift, shift2, client_for
):
    from tests.approvals.signoff_fixtures import big_table

    table = big_table(floor, dealer)
    request = held(client_for(dealer), table, bonus_record(SEVEN_SF, 600))
    url = f"/api/v1/approvals/{request['id']}/approve/"
    first = client_for(shift).post(url, {"patrons": {"2": IDENTITY}}, format="json")
    assert first.json()["signoff"]["tiers"][1]["signed_by"] == ["shift"]
    last = client_for(floor).post(url, {}, format="json")
    assert last.status_code == 200 and last.json()["status"] == "approved", last.json()
    assert last.json()["signoff"]["tiers"][0]["signed_by"] == ["floor"]


def test_a_table_game_bonus_win_below_the_tiers_waits_for_its_w2g(
    dp_table, dealer, floor, compliance, client_for
):
    """$1,000 on a $1 straight flush bonus: under every tier, but a W-2G (at least $600 and
    300x the wager) is needed: one floor manager records it."""
    from tests.approvals.signoff_fixtures import big_table

    table = big_table(floor, dealer, "HCF-2")
    request = held(client_for(dealer), table, bonus_record(SEVEN_SF, 100))
    signoff = request["signoff"]
    assert signoff["tiers_reached"] == 0 and signoff["tiers"] == [
        {
            "number": 1,
            "above": 0,
            "role": "floor_manager",
            "count": 1,
            "signed_by": [],
            "missing": 1,
        }
    ]
    assert request["reason"] == (
        "seat 2's straight flush bonus wins $1,000.00: a W-2G with the winner's identity"
    )
    url = f"/api/v1/approvals/{request['id']}/approve/"
    refused = client_for(floor).post(url, {}, format="json")
    assert refused.status_code == 400 and "a W-2G" in refused.json()["detail"]
    saved = client_for(floor).post(
        f"/api/v1/approvals/{request['id']}/records/", {"patrons": {"2": IDENTITY}}, format="json"
    )
    assert saved.status_code == 200 and saved.json()["signoff"]["missing"] == [
        "signatures: 1 floor manager (tier 1)"
    ]
    assert not Settlement.objects.exists()
    signed = client_for(floor).post(url, {}, format="json")
    assert signed.status_code == 200 and signed.json()["status"] == "approved", signed.json()
    assert not AuditEntry.objects.filter(action="hand_settle", after__regulator_notice=True)


def test_the_same_id_is_the_same_patron_and_another_name_on_it_is_refused(
    dealer, floor, floor2, client_for
):
    from tests.approvals.signoff_fixtures import big_table

    first_table, other_table = big_table(floor, dealer, "HCF-A"), big_table(floor, dealer, "HCF-B")
    one = held(client_for(dealer), first_table, bonus_record(SEVEN_SF, 100))
    two = held(client_for(dealer), other_table, bonus_record(SEVEN_SF, 100))
    client_for(floor).post(
        f"/api/v1/approvals/{one['id']}/records/", {"patrons": {"2": IDENTITY}}, format="json"
    )
    other_name = {**IDENTITY, "name": "Bela Toth"}
    refused = client_for(floor2).post(
        f"/api/v1/approvals/{two['id']}/records/", {"patrons": {"2": other_name}}, format="json"
    )
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["path"] == "patrons.2.name"
    assert "is on record for Ana Kovacs" in refused.json()["detail"]
    # The ID alone finds the patron on record.
    by_id = {k: IDENTITY[k] for k in ("id_kind", "id_number")}
    found = client_for(floor2).post(
        f"/api/v1/approvals/{two['id']}/records/", {"patrons": {"2": by_id}}, format="json"
    )
    assert found.status_code == 200, found.json()
    assert found.json()["signoff"]["seats"][0]["patron"]["name"] == "Ana Kovacs"


def test_a_win_above_the_mtl_line_needs_its_entry_with_a_minimal_patron(dealer, floor, client_for):
    from tests.approvals.signoff_fixtures import FIVE_SF, big_table

    table = big_table(floor, dealer)
    request = held(client_for(dealer), table, bonus_record(FIVE_SF, 3500))  # wins $3,519
    seat = request["signoff"]["seats"][0]
    assert (seat["seat"], seat["mtl"], seat["w2g"]) == (2, True, [])
    url = f"/api/v1/approvals/{request['id']}/approve/"
    refused = client_for(floor).post(url, {}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"] == [
        {"path": "records", "message": "not signed: first enter seat 2: an MTL entry (the "
         "patron's name and ID)"}
    ]  # fmt: skip
    minimal = {"name": "Csilla Nagy", "id_kind": "passport", "id_number": "X1234567"}
    signed = client_for(floor).post(url, {"patrons": {"2": minimal}}, format="json")
    assert signed.status_code == 200 and signed.json()["status"] == "approved", signed.json()


def test_the_ctr_total_adds_up_across_hands_and_tables_of_one_gaming_day(
    dealer, floor, floor2, shift, shift2, compliance, client_for
):
    from tests.approvals.signoff_fixtures import big_table

    tables = [big_table(floor, dealer, "HCF-A"), big_table(floor, dealer, "HCF-B")]
    first = held(client_for(dealer), tables[0], bonus_record(SEVEN_SF, 600))
    url = f"/api/v1/approvals/{first['id']}/approve/"
    one = client_for(floor).post(url, {"patrons": {"2": IDENTITY}}, format="json").json()
    assert one["signoff"]["seats"][0]["day_total"] == 601_900
    assert not one["signoff"]["seats"][0]["ctr_needed"]
    assert client_for(shift).post(url, {}, format="json").json()["status"] == "approved"

    second = held(client_for(dealer), tables[1], bonus_record(SEVEN_SF, 600))
    url = f"/api/v1/approvals/{second['id']}/approve/"
    by_id = {**IDENTITY, "name": ""}
    refused = client_for(floor2).post(url, {"patrons": {"2": by_id}}, format="json")
    assert refused.status_code == 400
    assert refused.json()["detail"] == (
        "not signed: first enter seat 2: a CTR (Ana Kovacs's gaming day comes to $12,038.00, "
        "above $10,000.00)"
    )
    # The patron was not kept either: the refused signature stored nothing.
    shown = client_for(floor2).get(f"/api/v1/approvals/{second['id']}/").json()["signoff"]
    assert shown["seats"][0]["patron"] is None
    client_for(floor2).post(
        f"/api/v1/approvals/{second['id']}/records/", {"patrons": {"2": by_id}}, format="json"
    )
    shown = client_for(floor2).get(f"/api/v1/approvals/{second['id']}/").json()["signoff"]
    assert (shown["seats"][0]["day_total"], shown["seats"][0]["ctr_needed"]) == (1_203_800, True)
    signed = client_for(floor2).post(url, {"ctr": [2]}, format="json")
    assert signed.status_code == 200 and signed.json()["signoff"]["signed"] == 1, signed.json()
    assert client_for(shift2).post(url, {}, format="json").json()["status"] == "approved"
    ctr = client_for(compliance).get("/api/v1/filings/ctr/").json()["results"]
    assert [(r["amount"], r["patron"]["name"], r["table"]) for r in ctr] == [
        (1_203_800, "Ana Kovacs", "HCF-B")
    ]


def test_a_win_at_the_notice_line_is_flagged_for_the_regulator(dealer, floor, floor2, client_for):
    from tests.approvals.signoff_fixtures import FIVE_SF, big_table

    table = big_table(floor, dealer)
    set_policy = client_for(floor).post(
        "/api/v1/signoff-limits/",
        {"table": table.pk, "tiers": ONE_FLOOR, "notice": 351_900},
        format="json",
    )
    assert set_policy.status_code == 200, set_policy.json()
    request = held(client_for(dealer), table, bonus_record(FIVE_SF, 3500))  # wins $3,519
    assert request["signoff"]["regulator_notice"] and request["signoff"]["notice_line"] == 351_900
    assert "the regulator is notified" in request["reason"]
    minimal = {"name": "Csilla Nagy", "id_kind": "passport", "id_number": "X1234567"}
    signed = client_for(floor2).post(
        f"/api/v1/approvals/{request['id']}/approve/", {"patrons": {"2": minimal}}, format="json"
    )
    assert signed.status_code == 200 and signed.json()["status"] == "approved", signed.json()
    assert AuditEntry.objects.get(action="hand_settle").after["regulator_notice"] is True
    notices = client_for(floor).get("/api/v1/filings/notices/").json()["results"]
    assert [(n["amount"], n["what"]) for n in notices] == [(351_900, "notice line 3519.00")]


def test_nevada_two_people_from_1200(dealer, floor, floor2, shift, client_for):
    from tests.approvals.signoff_fixtures import FIVE_SF, big_table

    table = big_table(floor, dealer)
    preset = client_for(floor).post(
        "/api/v1/signoff-limits/", {"table": table.pk, "preset": "nevada"}, format="json"
    )
    assert preset.status_code == 200, preset.json()
    assert preset.json()["tiers"] == [{"above": 119_999, "role": "floor_manager", "count": 2}]
    assert preset.json()["notice"] is None
    request = held(client_for(dealer), table, bonus_record(FIVE_SF, 3500))
    url = f"/api/v1/approvals/{request['id']}/approve/"
    minimal = {"name": "Csilla Nagy", "id_kind": "passport", "id_number": "X1234567"}
    first = client_for(floor).post(url, {"patrons": {"2": minimal}}, format="json")
    assert first.json()["status"] == "pending" and first.json()["signoff"]["signed"] == 1
    # A shift manager is a floor manager too: the second of the two.
    last = client_for(shift).post(url, {}, format="json")
    assert last.json()["status"] == "approved", last.json()


def test_the_policy_in_force_is_the_tables_then_the_games_then_the_houses(
    dp_table, dealer, floor, client_for
):
    writer = client_for(floor)
    listed = writer.get("/api/v1/signoff-limits/").json()
    assert listed["house"]["scope"] == "default"
    assert [t["scope"] for t in listed["tables"]] == ["default"]
    tiers = [{"above": 500_000, "role": "floor_manager", "count": 1}]
    assert (
        writer.post("/api/v1/signoff-limits/", {"tiers": tiers}, format="json").status_code == 200
    )
    game = writer.post(
        "/api/v1/signoff-limits/",
        {"game": "high-card-flush", "tiers": tiers, "notice": None},
        format="json",
    )
    assert game.status_code == 200 and game.json()["notice"] is None
    listed = writer.get("/api/v1/signoff-limits/").json()
    assert listed["house"]["scope"] == "house" and listed["house"]["notice"] == 10_000_000
    assert [(t["scope"], t["table_name"]) for t in listed["tables"]] == [("game", "HCF-T")]
    table = writer.post(
        "/api/v1/signoff-limits/",
        {"table": dp_table.pk, "tiers": ONE_FLOOR + tiers},
        format="json",
    )
    assert table.status_code == 200 and table.json()["scope"] == "table"
    assert writer.get("/api/v1/signoff-limits/").json()["tables"][0]["tiers"] == [
        {"above": 1, "role": "floor_manager", "count": 1},
        {"above": 500_000, "role": "floor_manager", "count": 1},
    ]
    entry = AuditEntry.objects.filter(action="signoff_policy_set").last()
    assert entry.actor_name == "floor" and entry.table_id == dp_table.pk
    cleared = writer.post("/api/v1/signoff-limits/clear/", {"table": dp_table.pk}, format="json")
    assert cleared.json() == {"cleared": True}
    assert writer.get("/api/v1/signoff-limits/").json()["tables"][0]["scope"] == "game"


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"tiers": []}, "tiers"),
        ({}, "tiers"),
        ({"game": "blackjack", "preset": "nevada"}, "game"),
        ({"tiers": [{"above": 0, "role": "floor_manager"}]}, "tiers[0].above"),
        ({"tiers": [{"above": 100, "role": "dealer"}]}, "tiers[0].role"),
        ({"tiers": [{"above": 100, "role": "compliance"}]}, "tiers[0].role"),
        ({"tiers": [{"above": 100, "role": "floor_manager", "count": 6}]}, "tiers[0].count"),
        (
            {
                "tiers": [
                    {"above": 500, "role": "floor_manager"},
                    {"above": 500, "role": "shift_manager"},
                ]
            },
            "tiers[1].above",
        ),
        ({"preset": "nevada", "notice": 0}, "notice"),
        ({"preset": "nevada", "colour": "red"}, "colour"),
        ({"table": 999_999, "preset": "nevada"}, "table"),
    ],
)
def test_bad_tiers_are_refused_naming_the_field(body, path, floor, dealer, client_for):
    response = client_for(floor).post("/api/v1/signoff-limits/", body, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["errors"][0]["path"] == path
    assert (
        client_for(dealer).post("/api/v1/signoff-limits/", body, format="json").status_code == 403
    )
    assert not SignoffPolicy.objects.exists()


def test_a_hand_under_every_line_settles_at_once(dp_table, dealer, client_for):
    answer = settle(client_for(dealer), dp_table, record())
    assert answer.status_code == 201, answer.json()
    assert not Approval.objects.exists()


def test_the_shift_report_names_every_signer_of_a_large_payout(dealer, floor, shift, client_for):
    from payouts.figures import gaming_day
    from reports.selectors import shift_report
    from tests.approvals.signoff_fixtures import big_table

    table = big_table(floor, dealer)
    request = held(client_for(dealer), table, bonus_record(SEVEN_SF, 600))
    url = f"/api/v1/approvals/{request['id']}/approve/"
    client_for(floor).post(url, {"patrons": {"2": IDENTITY}}, format="json")
    client_for(shift).post(url, {}, format="json")
    approval = Approval.objects.get(pk=request["id"])
    [payout] = shift_report(gaming_day(approval.decided_at)).payouts
    assert payout.signed_by == "floor, shift"
    # The lines and nets above the first tier ($1,199.99) are the ones it lists.
    assert [(o.seat, o.amount) for o in payout.over] == [(2, 600_000), (2, 601_900)]


def test_a_ctr_asks_for_the_address_and_taxpayer_id_an_mtl_entry_did_without(
    dealer, floor, floor2, client_for
):
    from tests.approvals.signoff_fixtures import FIVE_SF, big_table

    minimal = {"name": "Csilla Nagy", "id_kind": "passport", "id_number": "X1234567"}
    for name in ("HCF-A", "HCF-B"):  # two wins of $3,519: $7,038 in the day
        request = held(
            client_for(dealer), big_table(floor, dealer, name), bonus_record(FIVE_SF, 3500)
        )
        signed = client_for(floor).post(
            f"/api/v1/approvals/{request['id']}/approve/",
            {"patrons": {"2": minimal}},
            format="json",
        )
        assert signed.json()["status"] == "approved", signed.json()
    third = held(client_for(dealer), big_table(floor, dealer, "HCF-C"), bonus_record(FIVE_SF, 3500))
    records = f"/api/v1/approvals/{third['id']}/records/"
    named = client_for(floor2).post(records, {"patrons": {"2": minimal}}, format="json").json()
    [seat] = [s for s in named["signoff"]["seats"] if s["seat"] == 2]
    assert (seat["day_total"], seat["ctr_needed"]) == (1_055_700, True)
    refused = client_for(floor2).post(records, {"ctr": [2]}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["path"] == "patrons.2.address"
    assert "a CTR needs Csilla Nagy's address and taxpayer id" in refused.json()["detail"]
    completed = {"patron": seat["patron"]["id"], "address": "1 Elm St", "tin": "987-65-4321"}
    done = client_for(floor2).post(
        records, {"patrons": {"2": completed}, "ctr": [2]}, format="json"
    )
    assert done.status_code == 200, done.json()
    [seat] = [s for s in done.json()["signoff"]["seats"] if s["seat"] == 2]
    assert seat["ctr"] is not None and seat["patron"]["tin"] == "•••• 4321"
    assert seat["missing"] == []
