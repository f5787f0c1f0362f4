"""The cage's and the count team's pages, and a slip's print: /desk/cage/, /desk/count/,
/desk/slips/<id>/print/."""

from django.urls import path

from desk.floor.urls import IdConverter  # noqa: F401  (registers ``floor_id``)

from . import views

urlpatterns = [
    path("cage/", views.cage_queue, name="cage-queue"),
    path("cage/slips/<floor_id:slip_id>/sign/", views.cage_sign, name="cage-slip-sign"),
    path("count/", views.count_sheet, name="count-sheet"),
    path("count/tables/<floor_id:table_id>/", views.count_drop, name="count-drop"),
    path("count/drops/<floor_id:drop_id>/sign/", views.count_sign, name="count-drop-sign"),
    path("count/drops/<floor_id:drop_id>/correct/", views.count_correct, name="count-drop-correct"),
    path("slips/<floor_id:slip_id>/print/", views.slip_print, name="slip-print"),
]
