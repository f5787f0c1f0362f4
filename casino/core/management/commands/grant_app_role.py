"""Give the app's PostgreSQL role exactly what the app needs, and no more.

Run by the database owner after every ``migrate`` (README, "Production")::

    manage.py grant_app_role casino_app           # print the SQL
    manage.py grant_app_role casino_app --apply   # run it

The app role reads and writes every table, but may never UPDATE, DELETE or TRUNCATE the
append-only ones (the tables guarded by the ``casino_append_only()`` trigger: audit
entries, settlements and their rows, hand actions, rotation and bank events). It owns
nothing, so it cannot disable or drop a trigger, and it is no superuser, so it cannot
switch triggers off with ``session_replication_role``.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from psycopg import sql


def append_only_tables() -> list[str]:
    """The tables whose rows the append-only trigger guards, as the database says (tables
    the trigger only keeps from TRUNCATE, such as hands, are updated by the app)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT tgrelid::regclass::text FROM pg_trigger "
            "WHERE tgfoid = 'casino_append_only'::regproc AND tgtype & 1 = 1 ORDER BY 1"
        )
        return [row[0] for row in cursor.fetchall()]


def grant_statements(role: str) -> list[sql.Composed]:
    name = sql.Identifier(role)
    statements = [
        sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(
            sql.Identifier(connection.settings_dict["NAME"]), name
        ),
        sql.SQL("GRANT USAGE ON SCHEMA public TO {}").format(name),
        sql.SQL("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {}").format(
            name
        ),
        sql.SQL(
            "REVOKE TRUNCATE, REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA public FROM {}"
        ).format(name),
        sql.SQL("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {}").format(name),
    ]
    for table in append_only_tables():
        statements.append(
            sql.SQL("REVOKE UPDATE, DELETE ON {} FROM {}").format(sql.Identifier(table), name)
        )
    return statements


class Command(BaseCommand):
    help = "Grant the app's database role what it needs (append-only tables: insert only)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("role", help="the app's PostgreSQL role, e.g. casino_app")
        parser.add_argument("--apply", action="store_true", help="run the SQL (as the owner)")

    def handle(self, *args: Any, role: str, apply: bool, **options: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("database roles are a PostgreSQL setting; DATABASE_URL is not")
        with connection.cursor() as cursor:
            cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = %s", [role])
            row = cursor.fetchone()
            if row is None:
                raise CommandError(f"role {role!r} does not exist; create it first (README)")
            if row[0]:
                raise CommandError(f"role {role!r} is a superuser; the app's role must not be")
            cursor.execute(
                "SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tableowner = %s",
                [role],
            )
            if cursor.fetchone()[0]:
                raise CommandError(f"role {role!r} owns tables; the app's role must own none")
            statements = grant_statements(role)
            for statement in statements:
                text = statement.as_string(cursor.connection)
                if apply:
                    cursor.execute(statement)
                self.stdout.write(text + ";")
