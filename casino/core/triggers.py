"""SQL for the database's own guards (PostgreSQL only), used by the migrations that add them.

``casino_append_only()`` (core ``0003``) refuses a statement outright and consults no session
setting, so no role can switch it off with ``SET``; only a table's owner can disable or drop
a trigger, and the app's role owns nothing (``grant_app_role``)."""

from __future__ import annotations

from typing import Any


def append_only(table: str) -> list[str]:
    """The two triggers that make ``table`` append-only: no UPDATE, DELETE or TRUNCATE."""
    return [
        f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
        "FOR EACH ROW EXECUTE FUNCTION casino_append_only()",
        f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
        "FOR EACH STATEMENT EXECUTE FUNCTION casino_append_only()",
    ]


def drop_append_only(table: str) -> list[str]:
    return [
        f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}",
        f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}",
    ]


def run_on_postgres(statements: list[str]) -> Any:
    """A ``RunPython`` function running ``statements`` on PostgreSQL (nothing elsewhere)."""

    def run(apps: Any, schema_editor: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            for statement in statements:
                schema_editor.execute(statement, params=None)

    return run
