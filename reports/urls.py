"""The reports, mounted at /desk/compliance/reports/ (``desk.urls``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.shift, name="compliance-reports"),
    path("shift.csv", views.shift_csv, name="compliance-reports-shift-csv"),
    path("shift.pdf", views.shift_pdf, name="compliance-reports-shift-pdf"),
    path(
        "shift-<slug:section>.csv",
        views.shift_section_csv,
        name="compliance-reports-shift-section-csv",
    ),
    path("table/", views.table, name="compliance-reports-table"),
    path("table.csv", views.table_csv, name="compliance-reports-table-csv"),
    path("table.pdf", views.table_pdf, name="compliance-reports-table-pdf"),
]
