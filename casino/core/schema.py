"""The OpenAPI document's conventions, applied to every operation in one place.

Every operation documents the error answers it can give, each with the one error body
(``ErrorResponseSerializer``): 401 where a login is needed and 403 where a role is, 404 where
the path names an object, 400 where the request carries a body, query parameters or an
``Idempotency-Key``, and 409 for the state-changing POSTs (they honour the key, and document
the header).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from rest_framework.permissions import AllowAny

from .errors import ErrorResponseSerializer
from .idempotency import HEADER, MAX_KEY_LENGTH, is_idempotent
from .roles import RolePermission

ERRORS = {
    "400": "bad input: the body names every problem and where it is",
    "401": "no token, or an unknown, expired or revoked one",
    "403": "the user's role, or the table they deal, does not allow this",
    "404": "no such object",
    "409": "the object's state forbids this now (already settled, key reused with another "
    "body, a table state that forbids the step)",
}


class CasinoAutoSchema(AutoSchema):
    def _needs_login(self) -> bool:
        return not all(isinstance(p, AllowAny) for p in self.view.get_permissions())

    def _needs_role(self) -> bool:
        return any(isinstance(p, RolePermission) for p in self.view.get_permissions())

    def _error_codes(self, operation: dict[str, Any], idempotent: bool) -> list[str]:
        codes = []
        parameters = operation.get("parameters", [])
        if idempotent or "requestBody" in operation or any(p["in"] == "query" for p in parameters):
            codes.append("400")
        if self._needs_login():
            codes.append("401")
        if self._needs_role():
            codes.append("403")
        if any(p["in"] == "path" for p in parameters):
            codes.append("404")
        if idempotent:
            codes.append("409")
        return codes

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        error = self.resolve_serializer(ErrorResponseSerializer, "response").ref
        idempotent = is_idempotent(getattr(self.view, self.method.lower(), None))
        for code in self._error_codes(operation, idempotent):
            operation["responses"].setdefault(
                code,
                {"description": ERRORS[code], "content": {"application/json": {"schema": error}}},
            )
        if idempotent:
            operation.setdefault("parameters", []).append(
                {
                    "in": "header",
                    "name": HEADER,
                    "required": False,
                    "schema": {"type": "string", "maxLength": MAX_KEY_LENGTH},
                    "description": "A key of the client's choosing for this intent: a repeat "
                    "with the same key and body returns the first response and changes "
                    "nothing more; the same key with another body is a 409.",
                }
            )
        return operation
