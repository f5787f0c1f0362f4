"""What the audit check reads, as plain values: a chain's entries and hands with their rows.

The check reads every entry and every hand, millions of rows; building model objects and
compiling querysets (an ``IN`` list of hundreds of ids is compiled parameter by parameter)
cost more than checking them. So these reads are SQL written here, a handful of statements per
few hundred hands: JSON columns come back as their text and are decoded by orjson, and id
lists are one array parameter on PostgreSQL (``= ANY(%s)``). They run on SQLite too (the
embedded default), where ids are listed and datetimes come back as text.

Table names and the JSON columns come from the models; a renamed column makes a statement here
fail loudly, and the audit tests run every one of them."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import orjson
from django.db import connection
from django.db.models import Model
from django.utils.dateparse import parse_datetime

from tables.models import Hand, HandAction, Table, TableEvent

from .models import AuditEntry, PayoutLine, SeatSettlement, Settlement

FETCH_ROWS = 2000  # rows fetched at a time from a chain's entries


def json_loads(text: str | bytes | None) -> Any:
    """A JSON column read as text."""
    return None if text is None else orjson.loads(text)


def _table(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _columns(model: type[Model], *names: str) -> str:
    """``names`` (model field names) as the model's columns, JSON fields as their text."""
    quoted = []
    for name in names:
        column_field = model._meta.get_field(name)
        column = connection.ops.quote_name(column_field.column)  # type: ignore[union-attr]
        if column_field.get_internal_type() == "JSONField":
            column = f"CAST({column} AS text)"
        quoted.append(column)
    return ", ".join(quoted)


def _select_in(
    cursor: Any,
    sql: str,
    column: str,
    ids: Iterable[Any],
    before: Iterable[Any] = (),
    after: Iterable[Any] = (),
) -> list[tuple[Any, ...]]:
    """The rows of ``sql`` where ``{among}`` is "``column`` is one of ``ids``" (``before`` and
    ``after``: the parameters around it): one statement with one array parameter on
    PostgreSQL; elsewhere the ids are listed, a statement for as many as the database takes
    (SQLite: Django's 999). Rows come in ``sql``'s order for each id (each id's rows come
    from one statement)."""
    ids, before, after = list(ids), list(before), list(after)
    if connection.vendor == "postgresql":
        cursor.execute(sql.format(among=f"{column} = ANY(%s)"), [*before, ids, *after])
        return cursor.fetchall()
    room = (connection.features.max_query_params or 999) - len(before) - len(after)
    rows: list[tuple[Any, ...]] = []
    for start in range(0, len(ids), room):
        part = ids[start : start + room]
        listed = f"{column} IN ({', '.join(['%s'] * len(part))})"
        cursor.execute(sql.format(among=listed), [*before, *part, *after])
        rows.extend(cursor.fetchall())
    return rows


def _moment(value: datetime | str) -> datetime:
    """A timestamp as the ORM gives it (aware, UTC); SQLite hands back text."""
    if isinstance(value, str):
        value = parse_datetime(value)  # type: ignore[assignment]
    if value.tzinfo is None:  # type: ignore[union-attr]
        value = value.replace(tzinfo=UTC)  # type: ignore[union-attr]
    return value  # type: ignore[return-value]


# ---------------------------------------------------------------- a chain's entries

# An entry's sealed fields and its seal, the JSON ones (read as text) last.
ENTRY_FIELDS = (
    *(name for name in AuditEntry.SEALED_FIELDS if name not in ("before", "after")),
    "hash",
)


def _entry_select(where: str) -> str:
    return (
        f"SELECT {_columns(AuditEntry, *ENTRY_FIELDS, 'before', 'after')} "
        f"FROM {_table(AuditEntry)} WHERE {where} ORDER BY seq"
    )


def _chain_where(key: int | None) -> tuple[str, list[Any]]:
    return ("table_id IS NULL", []) if key is None else ("table_id = %s", [key])


def _entry(row: tuple[Any, ...]) -> dict[str, Any]:
    entry = dict(zip(ENTRY_FIELDS, row, strict=False))
    entry["at"] = _moment(entry["at"])
    entry["before"], entry["after"] = json_loads(row[-2]), json_loads(row[-1])
    return entry


def chain_entries(
    key: int | None, after_seq: int = 0, through_seq: int | None = None
) -> Iterator[dict[str, Any]]:
    """A chain's entries after ``after_seq`` (up to ``through_seq``), in order, as dicts of
    their sealed fields and ``hash``, streamed (a server-side cursor on PostgreSQL)."""
    where, params = _chain_where(key)
    where += " AND seq > %s"
    params.append(after_seq)
    if through_seq is not None:
        where += " AND seq <= %s"
        params.append(through_seq)
    with connection.chunked_cursor() as cursor:
        cursor.execute(_entry_select(where), params)
        while rows := cursor.fetchmany(FETCH_ROWS):
            for row in rows:
                yield _entry(row)


def entries_of_hands(
    key: int | None, hand_ids: list[int], *, before: int, after: int
) -> list[dict[str, Any]]:
    """The chain's entries about ``hand_ids`` up to ``before`` and past ``after``, in order
    for each hand."""
    where, params = _chain_where(key)
    with connection.cursor() as cursor:
        rows = _select_in(
            cursor,
            _entry_select(f"{where} AND {{among}} AND (seq <= %s OR seq > %s)"),
            "hand_id",
            hand_ids,
            params,
            [before, after],
        )
    return [_entry(row) for row in rows]


def unopened_hands(key: int) -> list[int]:
    """The table's hands that no entry of its chain mentions (written outside the system; a
    hand with entries is checked with them), as a set difference: linear whatever the planner
    believes of the tables' sizes (a "not exists" it took for a few rows compared every hand
    with every entry, minutes for a large table)."""
    hand, entry = _table(Hand), _table(AuditEntry)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id FROM {hand} WHERE table_id = %s "
            f"EXCEPT SELECT hand_id FROM {entry} WHERE table_id = %s AND hand_id IS NOT NULL",
            [key, key],
        )
        return sorted(pk for (pk,) in cursor.fetchall())


def _json_key(text: str | bytes | None) -> bytes:
    """One text for equal JSON values: PostgreSQL's jsonb already writes equal values alike;
    elsewhere the stored text is decoded and written again, keys sorted."""
    if connection.vendor == "postgresql" or text is None:
        return text.encode() if isinstance(text, str) else (text or b"null")
    return orjson.dumps(orjson.loads(text), option=orjson.OPT_SORT_KEYS)


def table_events(ids: list[int]) -> list[tuple[int, str, int | None, int, bytes]]:
    """The table events ``ids`` in order: ``(id, kind, hand, by, data as a key)``."""
    with connection.cursor() as cursor:
        rows = _select_in(
            cursor,
            f"SELECT id, kind, hand_id, by_id, {_columns(TableEvent, 'data')} "
            f"FROM {_table(TableEvent)} WHERE {{among}} ORDER BY id",
            "id",
            ids,
        )
    return sorted((pk, kind, hand, by, _json_key(data)) for pk, kind, hand, by, data in rows)


def event_entries(
    key: int, after_seq: int, kinds: set[str]
) -> list[tuple[str, int | None, int | None, bytes]]:
    """The table's entries after ``after_seq`` of the actions ``kinds`` about the table
    itself (what a table event's entry is): ``(action, hand, actor, after as a key)``."""
    if not kinds:
        return []
    with connection.cursor() as cursor:
        rows = _select_in(
            cursor,
            f"SELECT action, hand_id, actor_id, {_columns(AuditEntry, 'after')} "
            f"FROM {_table(AuditEntry)} WHERE table_id = %s AND seq > %s AND subject = %s "
            "AND {among}",
            "action",
            sorted(kinds),
            [key, after_seq, f"table:{key}"],
        )
    return [(action, hand, actor, _json_key(after)) for action, hand, actor, after in rows]


# ---------------------------------------------------------------- hands and their rows


@dataclass(slots=True)
class SeatRow:
    seat: int
    role: str
    status: str
    hand_description: str
    rake: int
    net: int
    lines: list[tuple[Any, ...]] = field(default_factory=list)


@dataclass(slots=True)
class SettlementRow:
    pk: int
    kind: str
    corrects_id: int | None
    history: dict[str, Any]
    result: dict[str, Any]
    rake: int
    seats: list[SeatRow] = field(default_factory=list)
    result_text: bytes | None = None  # ``chain.fast_text(result)``, once the check needs it


@dataclass(slots=True)
class HandRow:
    pk: int
    number: int
    status: str
    game: str
    rules: dict[str, Any]
    config: dict[str, Any]
    seats: list[Any]
    table_name: str
    actions: list[Any] = field(default_factory=list)
    settlements: list[SettlementRow] = field(default_factory=list)


def _actions(cursor: Any, ids: list[int]) -> Iterator[tuple[int, list[Any]]]:
    """Each hand's actions in order: one JSON array a hand on PostgreSQL, a row an action
    elsewhere."""
    table, index = _table(HandAction), connection.ops.quote_name("index")
    if connection.vendor == "postgresql":
        for hand_id, text in _select_in(
            cursor,
            f"SELECT hand_id, CAST(json_agg(action ORDER BY {index}) AS text) FROM {table} "
            "WHERE {among} GROUP BY hand_id",
            "hand_id",
            ids,
        ):
            yield hand_id, orjson.loads(text)
        return
    actions: dict[int, list[Any]] = {}
    for hand_id, text in _select_in(
        cursor,
        f"SELECT hand_id, CAST(action AS text) FROM {table} WHERE {{among}} "
        f"ORDER BY hand_id, {index}",
        "hand_id",
        ids,
    ):
        actions.setdefault(hand_id, []).append(orjson.loads(text))
    yield from actions.items()


LINE_FIELDS = ("wager", "stake", "outcome", "amount", "odds", "against", "capped_from")


def hands_load(ids: list[int]) -> dict[int, HandRow]:
    """The hands ``ids`` with their actions, settlements, seat rows and payout lines: five
    statements (on SQLite, more when it takes fewer ids at once), each an index scan (seat
    rows are read by their settlements' ids, lines by their seats')."""
    hand, table = _table(Hand), _table(Table)
    settlement, seat_row, line = _table(Settlement), _table(SeatSettlement), _table(PayoutLine)
    hands: dict[int, HandRow] = {}
    settlements: dict[int, SettlementRow] = {}
    seats: dict[int, SeatRow] = {}
    with connection.cursor() as cursor:
        for pk, number, status, game_, rules, config, seats_, name in _select_in(
            cursor,
            f"SELECT h.id, h.number, h.status, h.game, CAST(h.rules AS text), "
            f"CAST(h.config AS text), CAST(h.seats AS text), t.name "
            f"FROM {hand} h JOIN {table} t ON t.id = h.table_id WHERE {{among}}",
            "h.id",
            ids,
        ):
            hands[pk] = HandRow(
                pk,
                number,
                status,
                game_,
                json_loads(rules),
                json_loads(config),
                json_loads(seats_),
                name,
            )
        for hand_id, actions in _actions(cursor, ids):
            hands[hand_id].actions = actions
        for pk, hand_id, kind, corrects_id, history, result, rake in _select_in(
            cursor,
            f"SELECT id, hand_id, kind, corrects_id, "
            f"{_columns(Settlement, 'history', 'result')}, rake "
            f"FROM {settlement} WHERE {{among}} ORDER BY id",
            "hand_id",
            ids,
        ):
            row = SettlementRow(
                pk, kind, corrects_id, json_loads(history), json_loads(result), rake
            )
            settlements[pk] = row
            hands[hand_id].settlements.append(row)
        for pk, settlement_id, *values in _select_in(
            cursor,
            f"SELECT id, settlement_id, seat, role, status, hand_description, rake, net "
            f"FROM {seat_row} WHERE {{among}} ORDER BY seat, id",
            "settlement_id",
            settlements,
        ):
            seats[pk] = SeatRow(*values)
            settlements[settlement_id].seats.append(seats[pk])
        for seat_id, *values in _select_in(
            cursor,
            f"SELECT seat_id, {', '.join(LINE_FIELDS)} FROM {line} WHERE {{among}} "
            f"ORDER BY seat_id, id",
            "seat_id",
            seats,
        ):
            seats[seat_id].lines.append(tuple(values))
    return hands
