"""Rows written without model instances, for the hand's hot path (open, settle, audit).

On PostgreSQL each table's rows go in **one statement built once per process**: ``INSERT
INTO t (columns) SELECT ... FROM unnest(%b::type[], ...) RETURNING id``, one array per
column. It runs on a cursor of its own over Django's connection (so in the caller's
transaction, through Django's execute wrappers and query log, its errors Django's) that
binds parameters on the server, sends them in binary and prepares the statement on the
connection the first time it runs there. Django's own cursors bind on the client, and a
``%s`` array is sent as text even when bound on the server: psycopg then quotes every
element of every array, character by character for the quotes in JSON (most of a settle's
write time before this module). Prepared statements live as long
as the connection (``CONN_MAX_AGE``); Django turns preparing off on its connections (for
poolers), so this module turns it on for the statements it asks to prepare and none else
(:data:`ON_REQUEST_ONLY`). No pooler between Django and PostgreSQL is assumed (PgBouncer
pooling by transaction would need its ``max_prepared_statements``).

JSON columns take their value as JSON **text** (the caller has it already: the audit chain
seals that text), cast to ``jsonb`` by PostgreSQL: nothing is encoded twice. On another
database (SQLite, for the quick test run) the same calls build instances and use the ORM,
with the JSON text read back: same rows, slower. ``tests/payouts/test_rows.py`` holds the
raw rows equal to the ORM's on PostgreSQL.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import psycopg
from django.db import connection, models
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper


class _BoundCursor(psycopg.Cursor):  # type: ignore[type-arg]
    """psycopg's server-binding cursor, every statement prepared on its connection once
    (Django's wrapper calls ``execute(sql, params)``). Parameters written ``%b`` go in
    binary (a ``%s`` array of text would be quoted element by element); results come as
    text, read by the loaders Django gives the connection."""

    def execute(self, query: Any, params: Any = None, **_: Any) -> Any:  # type: ignore[override]
        return super().execute(query, params, prepare=True)


#: What a connection's ``prepare_threshold`` is set to when Django left it off (``None``:
#: psycopg then prepares nothing, not even on request): only statements run here, which
#: ask for it, are prepared; Django's cursors bind on the client and never prepare.
ON_REQUEST_ONLY = 2**31


def bound_cursor() -> Any:
    """A cursor over Django's connection (in its transaction), wrapped as Django wraps its
    own (execute wrappers, the query log when it is kept), binding on the server."""
    connection.ensure_connection()
    raw_connection = connection.connection
    if raw_connection.prepare_threshold is None:
        raw_connection.prepare_threshold = ON_REQUEST_ONLY
    raw = _BoundCursor(raw_connection)
    if connection.queries_logged:
        return _DebugCursor(raw, connection)
    return connection.make_cursor(raw)


class _DebugCursor(CursorDebugWrapper):
    """Django's query log, which names a statement as psycopg last sent it: a prepared one
    is not kept there, so the log holds the statement as written (``%b`` for its values)."""

    def execute(self, sql: Any, params: Any = None) -> Any:
        with self.debug_sql(sql, params):
            return CursorWrapper.execute(self, sql, params)


def on_postgresql() -> bool:
    return connection.vendor == "postgresql"


def _is_json(field: models.Field[Any, Any]) -> bool:
    return field.get_internal_type() == "JSONField"


class Rows:
    """Rows of ``model`` with ``fields`` (names of its concrete fields; a foreign key by its
    name, given the id), inserted column by column: :meth:`insert` takes one list per field,
    in ``fields`` order, and answers the new rows' ids in the same order. A JSON field's
    list holds JSON texts (or None for SQL NULL)."""

    def __init__(self, model: type[models.Model], fields: Sequence[str]) -> None:
        self.model = model
        self.fields = tuple(model._meta.get_field(name) for name in fields)
        self._sql: str | None = None

    def sql(self) -> str:
        if self._sql is None:
            quote = connection.ops.quote_name
            arrays, selected = [], []
            for index, field in enumerate(self.fields):
                kind = "text" if _is_json(field) else field.db_type(connection)
                arrays.append(f"%b::{kind}[]")
                selected.append(f"c{index}::jsonb" if _is_json(field) else f"c{index}")
            names = ", ".join(f"c{index}" for index in range(len(self.fields)))
            self._sql = (
                f"INSERT INTO {quote(self.model._meta.db_table)} "
                f"({', '.join(quote(field.column) for field in self.fields)}) "
                f"SELECT {', '.join(selected)} FROM unnest({', '.join(arrays)}) AS r({names}) "
                f"RETURNING {quote(self.model._meta.pk.column)}"
            )
        return self._sql

    def insert(self, columns: Sequence[Sequence[Any]]) -> list[int]:
        if len(columns) != len(self.fields):
            raise ValueError(f"{len(self.fields)} columns expected, {len(columns)} given")
        count = len(columns[0]) if columns else 0
        if any(len(column) != count for column in columns):
            raise ValueError("every column must hold one value per row")
        if not count:
            return []
        if not on_postgresql():
            return self._insert_orm(columns, count)
        with bound_cursor() as cursor:
            cursor.execute(self.sql(), [list(column) for column in columns])
            return [row[0] for row in cursor.fetchall()]

    def _insert_orm(self, columns: Sequence[Sequence[Any]], count: int) -> list[int]:
        rows = []
        for index in range(count):
            values = {}
            for field, column in zip(self.fields, columns, strict=True):
                value = column[index]
                if _is_json(field) and value is not None:
                    value = json.loads(value)
                values[field.attname] = value
            rows.append(self.model(**values))
        made = self.model.objects.bulk_create(rows)
        return [row.pk for row in made]


class Update:
    """``UPDATE`` of ``fields`` of one row of ``model`` by its id, the statement built once:
    what ``instance.save(update_fields=fields)`` writes (these models have no save signals
    nor fields filled on save), without compiling a query each time."""

    def __init__(self, model: type[models.Model], fields: Sequence[str]) -> None:
        self.model = model
        self.names = tuple(fields)
        self.fields = tuple(model._meta.get_field(name) for name in fields)
        quote = connection.ops.quote_name
        self.sql = (
            f"UPDATE {quote(model._meta.db_table)} SET "
            + ", ".join(f"{quote(field.column)} = %b" for field in self.fields)
            + f" WHERE {quote(model._meta.pk.column)} = %b"
        )

    def save(self, instance: models.Model) -> None:
        if not on_postgresql():
            instance.save(update_fields=list(self.names))
            return
        params = [
            field.get_db_prep_save(getattr(instance, field.attname), connection)
            for field in self.fields
        ]
        params.append(instance.pk)
        with bound_cursor() as cursor:
            cursor.execute(self.sql, params)


_UPDATES: dict[tuple[type[models.Model], tuple[str, ...]], Update] = {}


def save_fields(instance: models.Model, fields: Sequence[str]) -> None:
    """``instance.save(update_fields=fields)``, its statement built once per field list."""
    key = (type(instance), tuple(fields))
    update = _UPDATES.get(key)
    if update is None:
        update = _UPDATES[key] = Update(type(instance), key[1])
    update.save(instance)


def create(instance: models.Model) -> None:
    """``instance.save(force_insert=True)`` for a model with an automatic id and no save
    signals: one prepared ``INSERT ... RETURNING id`` built once per model."""
    if not on_postgresql():
        instance.save(force_insert=True)
        return
    model = type(instance)
    insert = _CREATES.get(model)
    if insert is None:
        quote = connection.ops.quote_name
        fields = tuple(field for field in model._meta.concrete_fields if not field.primary_key)
        sql = (
            f"INSERT INTO {quote(model._meta.db_table)} "
            f"({', '.join(quote(field.column) for field in fields)}) "
            f"VALUES ({', '.join('%b' for _ in fields)}) "
            f"RETURNING {quote(model._meta.pk.column)}"
        )
        insert = _CREATES[model] = (sql, fields)
    sql, fields = insert
    params = [
        field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields
    ]
    with bound_cursor() as cursor:
        cursor.execute(sql, params)
        (instance.pk,) = cursor.fetchone()
    instance._state.adding = False
    instance._state.db = connection.alias


_CREATES: dict[type[models.Model], tuple[str, tuple[models.Field[Any, Any], ...]]] = {}


class Select:
    """The rows of ``model`` matching ``where`` (``%b`` for its values; columns named by
    their quoted table, as the ORM names them), as instances, built once: optionally with the
    row its foreign key ``related`` names, and ``extra`` columns (``(attribute, SQL, JSON or
    not)``) over further ``joins`` set on each instance; ``lock`` adds ``FOR UPDATE`` of the
    model's row (and the related one). What the ORM's
    ``select_for_update().select_related(...).annotate(...)`` reads, without compiling it
    again on every request. PostgreSQL only (callers keep their ORM query elsewhere)."""

    def __init__(
        self,
        model: type[models.Model],
        where: str,
        *,
        related: str | None = None,
        extra: Sequence[tuple[str, str, bool]] = (),
        joins: str = "",
        order: str = "",
        lock: bool = False,
    ) -> None:
        self.model = model
        self.fields = tuple(model._meta.concrete_fields)
        self.link = model._meta.get_field(related) if related else None
        self.related_fields = (
            tuple(self.link.related_model._meta.concrete_fields) if self.link else ()
        )
        self.extra = tuple(extra)
        self.where, self.joins, self.order, self.lock = where, joins, order, lock
        self._sql: str | None = None

    def sql(self) -> str:
        if self._sql is None:
            quote = connection.ops.quote_name
            m = quote(self.model._meta.db_table)
            columns = [f"{m}.{quote(field.column)}" for field in self.fields]
            source, locked = m, m
            if self.link is not None:
                target = self.link.related_model._meta
                r = quote(target.db_table)
                columns += [f"{r}.{quote(field.column)}" for field in self.related_fields]
                source += (
                    f" JOIN {r} ON {r}.{quote(target.pk.column)} = {m}.{quote(self.link.column)}"
                )
                locked += f", {r}"
            columns += [sql for _, sql, _ in self.extra]
            self._sql = (
                f"SELECT {', '.join(columns)} FROM {source} {self.joins} WHERE {self.where}"
                + (f" ORDER BY {self.order}" if self.order else "")
                + (f" FOR UPDATE OF {locked}" if self.lock else "")
            )
        return self._sql

    def all(self, *params: Any) -> list[Any]:
        with bound_cursor() as cursor:
            cursor.execute(self.sql(), list(params))
            rows = cursor.fetchall()
        return [self._instance(row) for row in rows]

    def first(self, *params: Any) -> Any:
        found = self.all(*params)
        return found[0] if found else None

    def _instance(self, row: Sequence[Any]) -> Any:
        count = len(self.fields)
        instance = self.model.from_db(connection.alias, None, _loaded(self.fields, row[:count]))
        if self.link is not None:
            end = count + len(self.related_fields)
            related = self.link.related_model.from_db(
                connection.alias, None, _loaded(self.related_fields, row[count:end])
            )
            self.link.set_cached_value(instance, related)
            count = end
        for (name, _, is_json), value in zip(self.extra, row[count:], strict=True):
            setattr(instance, name, json.loads(value) if is_json and value is not None else value)
        return instance


def _loaded(fields: Sequence[models.Field[Any, Any]], values: Sequence[Any]) -> list[Any]:
    """Column values as the ORM gives them to a model (a JSON field's text read)."""
    return [
        field.from_db_value(value, None, connection) if hasattr(field, "from_db_value") else value
        for field, value in zip(fields, values, strict=True)
    ]
