"""/api/v1/filings/: the tax and cash-reporting records."""

from django.urls import path

from .views import record_view

urlpatterns = [
    path("filings/w2g/", record_view("w2g", "W-2G records"), name="filings-w2g"),
    path("filings/mtl/", record_view("mtl", "MTL entries"), name="filings-mtl"),
    path("filings/ctr/", record_view("ctr", "CTRs"), name="filings-ctr"),
    path(
        "filings/notices/",
        record_view("notice", "Notices to the regulator"),
        name="filings-notices",
    ),
]
