from django.urls import path

from . import views

urlpatterns = [
    path("approvals/", views.ApprovalListView.as_view(), name="approval-list"),
    path("approvals/<int:pk>/", views.ApprovalDetailView.as_view(), name="approval-detail"),
    path(
        "approvals/<int:pk>/approve/",
        views.ApprovalDecisionView.as_view(approve=True),
        name="approval-approve",
    ),
    path(
        "approvals/<int:pk>/reject/",
        views.ApprovalDecisionView.as_view(approve=False),
        name="approval-reject",
    ),
    path(
        "approvals/<int:pk>/records/",
        views.ApprovalRecordsView.as_view(),
        name="approval-records",
    ),
    path(
        "approvals/<int:pk>/withdraw/",
        views.ApprovalWithdrawView.as_view(),
        name="approval-withdraw",
    ),
    path("signoff-limits/", views.SignoffPolicyView.as_view(), name="signoff-limits"),
    path(
        "signoff-limits/clear/", views.SignoffPolicyClearView.as_view(), name="signoff-limits-clear"
    ),
]
