from django.urls import path

from . import views

urlpatterns = [
    path("games/", views.GameListView.as_view(), name="game-list"),
    path("games/<str:code>/evaluate/", views.EvaluateView.as_view(), name="game-evaluate"),
    path("settlements/", views.SettlementListView.as_view(), name="settlement-list"),
    path("settlements/<int:pk>/", views.SettlementDetailView.as_view(), name="settlement-detail"),
    path("audit/entries/", views.AuditEntryListView.as_view(), name="audit-entries"),
    path("audit/checks/", views.AuditCheckListView.as_view(), name="audit-checks"),
    path("audit/checks/<int:pk>/", views.AuditCheckDetailView.as_view(), name="audit-check-detail"),
]
