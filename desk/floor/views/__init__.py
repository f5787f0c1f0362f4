"""The floor manager's desk: the pit at a glance, a new table, the approvals queue.

Thin views: they read through selectors and write through the services the API uses
(``tables.services``, ``approvals.services``). A service's refusal is shown on the page, in
words, and nothing is half-written (every service is one transaction). A control posted by
htmx gets back the part of the page it changed (the pit's tiles, one request's row); posted
without htmx, it gets the page again with a message.

The views live by job: ``pit``, ``tables`` (a new table, a table's hands), ``signoff``,
``approvals`` and ``custody`` (a table's chips); ``common`` holds what they share.
"""

from .approvals import approval_approve, approval_reject, approval_withdraw, approvals
from .custody import custody_count, inventory_sign, slip_request, slip_sign, slip_void
from .pit import pit, pit_tiles, table_dealer, table_status
from .signoff import signoff_limits
from .tables import (
    approval_theory,
    hand_correct,
    hand_void,
    table_change,
    table_change_preview,
    table_hands,
    table_new,
    table_page,
)

__all__ = [
    "approval_approve",
    "approval_reject",
    "approval_theory",
    "approval_withdraw",
    "approvals",
    "custody_count",
    "hand_correct",
    "hand_void",
    "inventory_sign",
    "pit",
    "pit_tiles",
    "signoff_limits",
    "slip_request",
    "slip_sign",
    "slip_void",
    "table_change",
    "table_change_preview",
    "table_dealer",
    "table_hands",
    "table_new",
    "table_page",
    "table_status",
]
