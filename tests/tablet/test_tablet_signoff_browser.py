"""The dealer's tablet while a large payout waits for several signatures: it says how many
of how many are given, looking again until the last one stores the settlement."""

from __future__ import annotations

import pytest

from approvals import services as approvals
from approvals.models import Approval
from payouts.models import Settlement, SignoffPolicy
from tests.tablet import test_tablet_browser as base
from tests.tablet.test_tablet_browser import engine_nets, nets_on_screen, play_to_the_end

tablet = base.tablet  # the fixture: the demo's High Card Flush table on a touch tablet

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_tablet_counts_the_signatures_a_payout_waits_for(
    tablet, open_table, floor, floor2, page
):
    SignoffPolicy.objects.create(
        table=open_table, tiers=[{"above": 50, "role": "floor_manager", "count": 2}], set_by=floor
    )
    play_to_the_end(tablet)
    preview = nets_on_screen(page)
    tablet.act("settle")
    tablet.act("settle")
    page.get_by_role("heading", name="Waiting for the floor").wait_for()
    assert page.locator(".waiting .signatures").inner_text() == "Signatures: 0 of 2"
    request = Approval.objects.get(kind="payout", status="pending")
    approvals.approval_decide(user=floor, approval_id=request.pk, approve=True)
    tablet.touch(page.get_by_role("button", name="Check again"))
    page.get_by_text("Signatures: 1 of 2").wait_for()
    assert Settlement.objects.count() == 0
    tablet.check_screen("waiting for a second signature")
    approvals.approval_decide(user=floor2, approval_id=request.pk, approve=True)
    tablet.touch(page.get_by_role("button", name="Check again"))
    page.locator("[data-action=next]").wait_for()
    assert engine_nets(Settlement.objects.get()) == preview
