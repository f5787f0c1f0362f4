"""The floor manager's pages, under /desk/floor/."""

from django.urls import path, register_converter

from . import views


class IdConverter:
    """A database id: a whole number of at most 18 digits (a longer one is a 404, never an
    overflow in the database)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "floor_id")

urlpatterns = [
    path("", views.pit, name="floor-pit"),
    path("tiles/", views.pit_tiles, name="floor-pit-tiles"),
    path("tables/new/", views.table_new, name="floor-table-new"),
    path("tables/<floor_id:table_id>/status/", views.table_status, name="floor-table-status"),
    path("tables/<floor_id:table_id>/dealer/", views.table_dealer, name="floor-table-dealer"),
    path("tables/<floor_id:table_id>/", views.table_page, name="floor-table"),
    path("tables/<floor_id:table_id>/hands/", views.table_hands, name="floor-table-hands"),
    path("tables/<floor_id:table_id>/change/", views.table_change, name="floor-table-change"),
    path(
        "tables/<floor_id:table_id>/change/preview/",
        views.table_change_preview,
        name="floor-table-change-preview",
    ),
    path(
        "tables/<floor_id:table_id>/custody/count/",
        views.custody_count,
        name="floor-custody-count",
    ),
    path(
        "tables/<floor_id:table_id>/custody/fill/",
        views.slip_request,
        {"kind": "fill"},
        name="floor-custody-fill",
    ),
    path(
        "tables/<floor_id:table_id>/custody/credit/",
        views.slip_request,
        {"kind": "credit"},
        name="floor-custody-credit",
    ),
    path(
        "inventories/<floor_id:inventory_id>/sign/",
        views.inventory_sign,
        name="floor-inventory-sign",
    ),
    path("slips/<floor_id:slip_id>/sign/", views.slip_sign, name="floor-slip-sign"),
    path("slips/<floor_id:slip_id>/void/", views.slip_void, name="floor-slip-void"),
    path("hands/<floor_id:hand_id>/void/", views.hand_void, name="floor-hand-void"),
    path("hands/<floor_id:hand_id>/correct/", views.hand_correct, name="floor-hand-correct"),
    path("signoff-limits/", views.signoff_limits, name="floor-signoff-limits"),
    path("approvals/", views.approvals, name="floor-approvals"),
    path(
        "approvals/<floor_id:approval_id>/approve/",
        views.approval_approve,
        name="floor-approval-approve",
    ),
    path(
        "approvals/<floor_id:approval_id>/withdraw/",
        views.approval_withdraw,
        name="floor-approval-withdraw",
    ),
    path(
        "approvals/<floor_id:approval_id>/theory/",
        views.approval_theory,
        name="floor-approval-theory",
    ),
    path(
        "approvals/<floor_id:approval_id>/reject/",
        views.approval_reject,
        name="floor-approval-reject",
    ),
]
