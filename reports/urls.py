from django.urls import path  # noqa: F401  (the pages are added here)

urlpatterns: list = []
