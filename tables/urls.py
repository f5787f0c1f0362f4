from django.urls import path

from . import views

urlpatterns = [
    path("tables/", views.TableListView.as_view(), name="table-list"),
    path("tables/<int:pk>/", views.TableDetailView.as_view(), name="table-detail"),
    path("tables/<int:pk>/status/", views.TableStatusView.as_view(), name="table-status"),
    path("tables/<int:pk>/dealer/", views.TableDealerView.as_view(), name="table-dealer"),
    path("tables/<int:pk>/seats/<int:number>/", views.SeatView.as_view(), name="table-seat"),
    path("tables/<int:pk>/changes/", views.TableChangeListView.as_view(), name="table-changes"),
    path(
        "tables/<int:pk>/changes/preview/",
        views.ChangePreviewView.as_view(),
        name="table-change-preview",
    ),
    path("tables/<int:pk>/game/", views.TableGameView.as_view(), name="table-game"),
    path(
        "tables/<int:pk>/game/actions/",
        views.TableGameActionView.as_view(),
        name="table-game-actions",
    ),
    path("tables/<int:pk>/hands/", views.TableHandListView.as_view(), name="table-hands"),
    path(
        "changes/<int:pk>/approve/",
        views.ChangeDecisionView.as_view(approve=True),
        name="change-approve",
    ),
    path(
        "changes/<int:pk>/reject/",
        views.ChangeDecisionView.as_view(approve=False),
        name="change-reject",
    ),
    path("hands/<int:pk>/", views.HandDetailView.as_view(), name="hand-detail"),
    path("hands/<int:pk>/actions/", views.HandActionView.as_view(), name="hand-actions"),
    path("hands/<int:pk>/preview/", views.HandPreviewView.as_view(), name="hand-preview"),
    path("hands/<int:pk>/settle/", views.HandSettleView.as_view(), name="hand-settle"),
    path("hands/<int:pk>/void/", views.HandVoidView.as_view(), name="hand-void"),
    path(
        "hands/<int:pk>/corrections/", views.HandCorrectionView.as_view(), name="hand-corrections"
    ),
]
