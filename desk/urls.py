"""The desks' pages: /desk/floor/ for floor managers, /desk/compliance/ for compliance (and
the floor, read-only), /desk/cage/ for the cage, /desk/count/ for the count team, and a
fill or credit slip's print (/desk/slips/<id>/print/, the floor and the cage)."""

from django.urls import include, path

urlpatterns = [
    path("floor/", include("desk.floor.urls")),
    path("compliance/reports/", include("reports.urls")),
    path("compliance/hold/", include("hold.urls")),
    path("compliance/", include("desk.compliance.urls")),
    path("", include("desk.custody.urls")),
]
