"""The Django admin shows the casino's data read-only, to compliance staff and superusers.

Nobody changes a table, a hand, a settlement or an audit entry here: every change goes
through the services (atomic and audited), and the append-only rows could not be changed
anyway. Each model of the casino's apps is registered with :class:`ReadOnlyAdmin`.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.contrib import admin
from django.http import HttpRequest

from casino.core.roles import COMPLIANCE, has_role

CASINO_APPS = ("tables", "payouts", "approvals", "hold", "core", "custody")


def _reader(request: HttpRequest) -> bool:
    user = request.user
    return bool(user.is_active and (user.is_superuser or has_role(user, COMPLIANCE)))


class ReadOnlyAdmin(admin.ModelAdmin):
    """Lists, search by id and detail pages; no add, change or delete for anyone."""

    def get_list_display(self, request: HttpRequest) -> Any:
        fields = [f.name for f in self.model._meta.fields if not f.is_relation or f.many_to_one]
        return fields[:8]

    def has_module_permission(self, request: HttpRequest) -> bool:
        return _reader(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _reader(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def register_casino_models() -> None:
    for config in apps.get_app_configs():
        if config.label not in CASINO_APPS:
            continue
        for model in config.get_models():
            if not admin.site.is_registered(model):
                admin.site.register(model, ReadOnlyAdmin)


register_casino_models()
