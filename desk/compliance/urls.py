"""/desk/compliance/: settlements, one settlement's story, the audit log and audit checks."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.settlements, name="compliance-settlements"),
    path("settlements/<int:pk>/", views.settlement, name="compliance-settlement"),
    path(
        "settlements/<int:pk>/proof.json",
        views.settlement_proof,
        name="compliance-settlement-proof",
    ),
    path("audit/", views.audit_log, name="compliance-audit"),
    path("audit/checks/", views.audit_check_start, name="compliance-audit-check-start"),
    path("audit/checks/<int:pk>/", views.audit_check, name="compliance-audit-check"),
    path(
        "audit/checks/<int:pk>/progress/",
        views.audit_check_progress,
        name="compliance-audit-check-progress",
    ),
]
