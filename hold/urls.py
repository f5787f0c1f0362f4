"""The hold page, mounted at /desk/compliance/hold/ (``desk.urls``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.hold_page, name="compliance-hold"),
]
