"""/desk/compliance/filings/: the tax and cash-reporting records, a page and a CSV each."""

from django.urls import path

from . import desk

urlpatterns = [
    path("", desk.records_page, name="filings-records"),
    path("<str:kind>.csv", desk.records_csv, name="filings-records-csv"),
]
