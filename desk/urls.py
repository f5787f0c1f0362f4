"""The desks' pages: /desk/floor/ for floor managers, /desk/compliance/ for compliance (and
the floor, read-only)."""

from django.urls import include, path

urlpatterns = [
    path("floor/", include("desk.floor.urls")),
    path("compliance/reports/", include("reports.urls")),
    path("compliance/hold/", include("hold.urls")),
    path("compliance/", include("desk.compliance.urls")),
]
