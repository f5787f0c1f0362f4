"""The product's URLs plus ``POST /bare/`` (``casino.settings_loadtest`` only)."""

from django.urls import path

from casino.urls import urlpatterns as product_urlpatterns

from .views import BareView

urlpatterns = [
    *product_urlpatterns,
    path("bare/", BareView.as_view(), name="loadtest-bare"),
]
