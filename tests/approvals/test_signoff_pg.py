"""Tiered sign-off on PostgreSQL under the app's least-privilege role: the signatures, the
records and the stored settlement are written as the app, a signature can be neither changed
nor removed, and the audit check passes."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, transaction

from approvals import services as approvals
from approvals.models import Signature
from payouts.audit import audit_report
from payouts.models import Settlement
from tables import services
from tests.approvals.signoff_fixtures import BANK, IDENTITY, SEVEN_SF, bonus_record
from tests.conftest import open_hcf_table
from tests.payouts import test_append_only_pg as base
from tests.payouts.test_append_only_pg import acting_as, run

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]
app_role = base.app_role  # the fixture: the documented app role, granted by the command


def test_the_app_role_collects_two_signatures_and_the_w2g(app_role, dealer, floor, shift):
    table = open_hcf_table(floor, dealer, "HCF-PG")
    with acting_as(app_role):
        services.game_act(
            user=dealer, table_id=table.pk, action={"type": "accept", "seat": 1, "bank": BANK}
        )
        hand = services.hand_open(user=dealer, table_id=table.pk)
        request = services.hand_settle(
            user=dealer, hand_id=hand.pk, record=bonus_record(SEVEN_SF, 600)
        )
        first = approvals.approval_decide(
            user=floor, approval_id=request.pk, approve=True, patrons={"2": IDENTITY}
        )
        assert first.status == "pending" and not Settlement.objects.exists()
        last = approvals.approval_decide(user=shift, approval_id=request.pk, approve=True)
        assert last.status == "approved"
        report = audit_report()
    assert report["ok"] is True, report
    assert Settlement.objects.get().hand_id == hand.pk
    signature = Signature.objects.first()
    for statement in (
        f"UPDATE approvals_signature SET tier = 1 WHERE id = {signature.pk}",
        f"DELETE FROM approvals_signature WHERE id = {signature.pk}",
    ):
        with pytest.raises(DatabaseError), transaction.atomic():
            run(statement)
