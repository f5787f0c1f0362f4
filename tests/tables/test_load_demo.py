"""The demo data `make run` loads."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import override_settings

from casino.core.accounts import is_demo_user
from casino.rules.contract import registry
from tables.models import Table

pytestmark = pytest.mark.django_db


@override_settings(DEBUG=True)
def test_demo_loads_users_in_each_role_and_an_open_table(capsys, client):
    call_command("load_demo")
    out = capsys.readouterr().out
    assert "dealer1      / demo-dealer1" in out
    assert "compliance1" in out and "floor1" in out
    # refused any login once DEBUG is off (tests/core/test_accounts.py)
    assert all(is_demo_user(user) for user in User.objects.all())
    table = Table.objects.get(name="HCF-1")
    assert table.status == "open" and table.dealer.username == "dealer1"
    token = client.post(
        "/api/v1/auth/token/",
        {"username": "dealer1", "password": "demo-dealer1"},
        content_type="application/json",
    )
    assert token.status_code == 200
    auth = f"Token {token.json()['token']}"

    def game(table):
        response = client.get(f"/api/v1/tables/{table.pk}/game/", HTTP_AUTHORIZATION=auth)
        assert response.status_code == 200, response.json()
        return response.json()

    # High Card Flush: the position is offered to seat 1, who may accept within the limits.
    hcf = game(table)
    assert hcf["state"]["offer_seat"] == 1 and hcf["state"]["designated_player"] is None
    assert hcf["actions"][0] == {
        "type": "accept",
        "seat": 1,
        "bank": {"min": 20_000, "max": 500_000, "step": 25},
    }
    draw = Table.objects.get(name="7A-1")
    assert draw.game == "five-card-draw-7a" and draw.status == "open"
    preview = game(draw)["state"]["next_hand"]
    assert len(preview["dealt_in"]) == 5
    pontoon = Table.objects.get(name="PON-1")
    assert game(pontoon)["state"]["banker"] == 5
    events = game(pontoon)["events"]
    assert events[0]["kind"] == "bank_assign" and events[0]["data"]["to_seat"] == 5
    # A table of every registered game that declares one (``Game.demo_table`` is optional:
    # Casino War, registered for the whole test run, has none and is left out).
    with_demo = {code for code, found in registry().items() if found.demo_table}
    assert set(registry()) - with_demo, "a registered game without a demo table"
    assert {t.game for t in Table.objects.all()} == with_demo
    call_command("load_demo")  # again: nothing duplicated
    assert Table.objects.filter(name="HCF-1").count() == 1
    assert Table.objects.count() == len(with_demo)
    assert game(pontoon)["state"]["banker"] == 5


@override_settings(DEBUG=False)
def test_demo_refuses_when_debug_is_off():
    with pytest.raises(CommandError, match="DEBUG is off"):
        call_command("load_demo")
    assert not Table.objects.exists()


@override_settings(DEBUG=True)
def test_a_fresh_demo_database_sets_the_old_ones_anchor_file_aside(settings, capsys):
    """`make run` after db.sqlite3 was removed: the anchor file of the database it replaced
    would fail every check of the new one, so the demo moves it aside and says so; then the
    demo's own checkpoint is signed as `make run` signs it."""
    old = Path(settings.AUDIT_ANCHOR_FILE)
    line = {"type": "checkpoint", "statement": {"database": "the-old-demo", "number": 3}}
    old.write_text(json.dumps(line) + "\n")
    call_command("load_demo")
    assert f"was another database's (the-old-demo): moved to {old}.the-old-demo" in (
        capsys.readouterr().out
    )
    assert json.loads(Path(f"{old}.the-old-demo").read_text()) == line
    assert not old.exists()
    call_command("audit_anchor", stdout=io.StringIO())
    assert json.loads(old.read_text())["statement"]["number"] == 1
    call_command("load_demo")  # the file is this database's now: left where it is
    assert old.exists()


@override_settings(DEBUG=True)
def test_the_demo_compliance_user_reads_the_admin_as_the_readme_says(client):
    import io

    call_command("load_demo", stdout=io.StringIO())
    client.force_login(User.objects.get(username="compliance1"))
    assert client.get("/admin/").status_code == 200
    assert client.get("/admin/tables/table/").status_code == 200
    assert not User.objects.get(username="dealer1").is_staff  # only compliance
    assert not User.objects.get(username="floor1").is_staff


@override_settings(DEBUG=True)
def test_the_demo_loads_with_its_theoretical_figures_ready(capsys):
    """No worker runs here (tasks eager): the demo simulates each table's hold as it loads,
    with ``HOLD_THEORY_INLINE_HANDS`` hands, and says so; a second load finds them stored."""
    from hold import services as hold_services
    from hold.models import Theory

    call_command("load_demo")
    out = capsys.readouterr().out
    specs = [spec for table in Table.objects.all() for spec in hold_services.table_specs(table)]
    assert len(specs) >= Table.objects.count()  # a house figure per table, and HCF's bonuses
    rows = [Theory.objects.get(game=s.game, measure=s.measure, digest=s.digest) for s in specs]
    assert all(row.ready for row in rows), [(row.game, row.measure, row.error) for row in rows]
    assert {row.hands for row in rows if row.method == "simulation"} == {200}
    assert f"Theoretical figures: {len(set(rows))} ready (simulations of 200 hands)." in out
    computed = {row.pk: row.computed_at for row in rows}
    call_command("load_demo")
    assert {row.pk: row.computed_at for row in Theory.objects.all()} == computed


@override_settings(DEBUG=True)
def test_the_demo_keeps_chip_custody_from_the_start(capsys):
    from custody.models import Inventory, Slip

    call_command("load_demo")
    out = capsys.readouterr().out
    assert "cage1" in out and "count1" in out and "count2" in out
    for table in Table.objects.all():
        [opener] = table.inventories.filter(kind="opener")
        assert opener.status == Inventory.Status.SIGNED
        assert {(s.step, s.signed_by.username) for s in opener.signatures.all()} == {
            ("dealer", "dealer1"),
            ("floor", "floor1"),
        }
    [fill] = Slip.objects.all()
    assert (fill.status, fill.number) == ("requested", 1)
    assert f"Fill {fill.label} for {fill.table.name} waits for the cage (cage1)." in out
    call_command("load_demo")  # again: nothing doubled
    assert Slip.objects.count() == 1 and Inventory.objects.filter(kind="opener").count() == len(
        Table.objects.all()
    )
