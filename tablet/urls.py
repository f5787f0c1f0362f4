from django.urls import path
from django.views.i18n import JavaScriptCatalog

from .views import TabletView

urlpatterns = [
    path("", TabletView.as_view(), name="tablet"),
    path("i18n.js", JavaScriptCatalog.as_view(packages=["tablet"]), name="tablet-i18n"),
]
