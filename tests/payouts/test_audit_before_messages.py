"""A result stored before the engines' explanations became messages still passes the audit.

Before, a stored result had no ``messages`` and its explanation cited rules by the document's
path (``clause 13 of docs/rules/pontoon.md``); the audit re-settles every hand and compares
the results, and must not count either change as a difference. Any other difference in the
words still is one.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from casino.rules import settlement as settlement_module
from payouts.audit import audit_report
from payouts.models import Settlement
from tables.models import Hand
from tests.conftest import record

pytestmark = pytest.mark.django_db

TITLED = re.compile(r"rule (\d+) \(“[^”]*”\)")


@pytest.fixture
def as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """Settlements as they were stored before: no ``messages``, rules cited by path."""
    to_dict = settlement_module.Settlement.to_dict

    def before(self: Any) -> dict[str, Any]:
        data = to_dict(self)
        data.pop("messages", None)
        data["explanation"] = [
            TITLED.sub(rf"clause \1 of docs/rules/{self.game}.md", line)
            for line in data["explanation"]
        ]
        return data

    monkeypatch.setattr(settlement_module.Settlement, "to_dict", before)


def settle(dp_table: Any, dealer: Any, client_for: Any) -> Hand:
    client = client_for(dealer)
    hand = client.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    response = client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    assert response.status_code == 201, response.json()
    return Hand.objects.get(pk=hand["id"])


def test_a_result_stored_without_messages_passes_the_audit(
    dp_table, dealer, client_for, as_before, monkeypatch
):
    hand = settle(dp_table, dealer, client_for)
    stored = Settlement.objects.get(hand=hand).result
    assert "messages" not in stored
    monkeypatch.undo()  # the audit re-settles with today's engines
    report = audit_report()
    assert report["ok"] is True, report["findings"]
    assert report["settlements_checked"] == 1


def test_a_result_stored_with_messages_passes_the_audit(dp_table, dealer, client_for):
    hand = settle(dp_table, dealer, client_for)
    stored = Settlement.objects.get(hand=hand).result
    assert len(stored["messages"]) == len(stored["explanation"])
    report = audit_report()
    assert report["ok"] is True, report["findings"]
