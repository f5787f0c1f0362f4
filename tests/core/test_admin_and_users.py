"""Compliance staff and superusers read the casino's data in the admin and change nothing;
``manage.py create_user`` makes users with a role."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client

from payouts.models import AuditEntry
from tables.models import Table

pytestmark = pytest.mark.django_db


def run(*args: str, password: str | None = None) -> str:
    out = io.StringIO()
    stdin = io.StringIO(f"{password}\n") if password is not None else None
    if stdin is not None:
        import sys

        real, sys.stdin = sys.stdin, stdin
        try:
            call_command("create_user", *args, "--password-stdin", stdout=out)
        finally:
            sys.stdin = real
    else:
        call_command("create_user", *args, stdout=out)
    return out.getvalue()


def test_create_user_makes_a_user_in_a_role_who_can_log_in():
    assert "ana created with the role dealer" in run(
        "ana", "--role", "dealer", password="a long secret 1"
    )
    user = get_user_model().objects.get(username="ana")
    assert list(user.groups.values_list("name", flat=True)) == ["dealer"] and not user.is_staff
    assert Client().login(username="ana", password="a long secret 1")
    entry = AuditEntry.objects.get(action="user_created")
    assert entry.after == {"username": "ana", "role": "dealer"} and entry.actor_name == "system"
    # A second role for the same user; the same role twice is refused.
    assert "ana given the role floor_manager" in run("ana", "--role", "floor_manager")
    with pytest.raises(CommandError, match="already has the role floor_manager"):
        run("ana", "--role", "floor_manager")


def test_create_user_refuses_a_weak_or_missing_password_and_an_unknown_role():
    with pytest.raises(CommandError, match="too short"):
        run("bo", "--role", "compliance", password="short")
    with pytest.raises(CommandError, match="a password is needed"):
        run("bo", "--role", "compliance", password="")
    with pytest.raises(CommandError, match="invalid choice"):
        run("bo", "--role", "pit_boss", password="a long secret 1")
    assert not get_user_model().objects.filter(username="bo").exists()


def test_compliance_reads_the_casinos_data_in_the_admin_and_changes_nothing(open_table, dealer):
    run("cora", "--role", "compliance", password="a long secret 1")
    client = Client()
    client.login(username="cora", password="a long secret 1")
    index = client.get("/admin/")
    assert index.status_code == 200
    for section in ("Tables", "Payouts", "Approvals"):
        assert section in index.content.decode()
    listing = client.get("/admin/tables/table/")
    assert listing.status_code == 200 and open_table.name in listing.content.decode()
    detail = client.get(f"/admin/tables/table/{open_table.pk}/change/")
    assert detail.status_code == 200 and 'name="_save"' not in detail.content.decode()
    assert client.get("/admin/tables/table/add/").status_code == 403
    deleted = client.post(f"/admin/tables/table/{open_table.pk}/delete/", {"post": "yes"})
    assert deleted.status_code == 403 and Table.objects.filter(pk=open_table.pk).exists()
    for url in ("/admin/payouts/auditentry/", "/admin/approvals/approval/"):
        assert client.get(url).status_code == 200


def test_a_dealer_is_kept_out_of_the_admin(dealer):
    dealer.set_password("a long secret 1")
    dealer.is_staff = True  # even a staff flag gives a dealer nothing to read
    dealer.save()
    client = Client()
    client.login(username="dealer", password="a long secret 1")
    assert client.get("/admin/tables/table/").status_code == 403
