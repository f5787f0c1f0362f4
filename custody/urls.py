"""/api/v1/: chip custody (openers and closers, fills and credits, drop counts, the day)."""

from django.urls import path

from . import views
from .models import Inventory, Slip

urlpatterns = [
    path("custody/chips/", views.ChipSetView.as_view(), name="custody-chips"),
    path("custody/day/", views.DayView.as_view(), name="custody-day"),
    path("tables/<int:pk>/custody/", views.CustodyStateView.as_view(), name="custody-state"),
    path(
        "tables/<int:pk>/custody/opener/",
        views.InventoryCountView.as_view(kind=Inventory.Kind.OPENER),
        name="custody-opener",
    ),
    path(
        "tables/<int:pk>/custody/closer/",
        views.InventoryCountView.as_view(kind=Inventory.Kind.CLOSER),
        name="custody-closer",
    ),
    path(
        "custody/inventories/<int:pk>/sign/",
        views.InventorySignView.as_view(),
        name="custody-inventory-sign",
    ),
    path(
        "tables/<int:pk>/custody/fills/",
        views.SlipRequestView.as_view(kind=Slip.Kind.FILL),
        name="custody-fill",
    ),
    path(
        "tables/<int:pk>/custody/credits/",
        views.SlipRequestView.as_view(kind=Slip.Kind.CREDIT),
        name="custody-credit",
    ),
    path("custody/slips/", views.SlipListView.as_view(), name="custody-slips"),
    path("custody/slips/<int:pk>/sign/", views.SlipSignView.as_view(), name="custody-slip-sign"),
    path("custody/slips/<int:pk>/void/", views.SlipVoidView.as_view(), name="custody-slip-void"),
    path("custody/slips/<int:pk>/print/", views.SlipPrintView.as_view(), name="custody-slip-print"),
    path("tables/<int:pk>/custody/drop/", views.DropCountView.as_view(), name="custody-drop"),
    path("custody/drops/", views.DropListView.as_view(), name="custody-drops"),
    path("custody/drops/<int:pk>/sign/", views.DropSignView.as_view(), name="custody-drop-sign"),
]
