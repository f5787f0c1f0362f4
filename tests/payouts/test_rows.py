"""Rows written without model instances (``payouts/rows.py``) and audit entries sealed over
one orjson text (``payouts/chain.py``): the same rows as the ORM writes, the same seals as
``canonical()`` gives, on every database the suite runs on (the raw statements on
PostgreSQL)."""

from __future__ import annotations

import enum
import json
from datetime import UTC, datetime

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from payouts import chain
from payouts.chain import AuditTrail, canonical, seal, seal_matches, stored_form, stored_text
from payouts.models import AuditEntry
from payouts.rows import Rows, save_fields
from tables.models import Hand, HandAction, TableEvent
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


class Colour(enum.Enum):
    RED = 1


class Word(enum.StrEnum):
    SETTLED = "settled"


@pytest.fixture
def table(open_table):
    return open_table


SAMPLES = [
    None,
    {},
    [],
    {"b": 1, "a": [1, 2, {"d": None, "c": True}], "A": "x", "_": False},
    {"text": 'quote " and back\\slash, tab\t, newline\n, bell\x07, del\x7f'},
    {"name": "José Ñúñez", "€": "£5", "emoji": "🂡"},  # not ASCII: json escapes it
    {"nets": {"10": 5, "9": -5, "2": 0}},  # text keys sort as text
    {10: "ten", 9: "nine", 2: "two"},  # whole-number keys: text once stored
    {"big": 2**64 + 1, "small": -(2**63), "top": 2**63 - 1},
    {"float": 1.5, "tiny": 1e-7, "huge": 1e16},
    {"tuple": (1, (2, 3)), "enum": Word.SETTLED, "other": Colour.RED},
    {"when": datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)},
    "plain text",
    12345,
]


@pytest.mark.parametrize("data", SAMPLES)
def test_stored_text_is_the_stored_form(data):
    assert stored_text(data) == stored_form(data)


def _entry_fields(**overrides):
    fields = {
        "seq": 7,
        "at": datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC),
        "actor_id": 3,
        "actor_name": "dealer",
        "action": "hand_settle",
        "table_id": 1,
        "hand_id": 2,
        "subject": "hand:2",
        "before": None,
        "after": None,
        "prev_hash": "0" * 64,
    }
    fields.update(overrides)
    return fields


@pytest.mark.parametrize("after", SAMPLES)
@pytest.mark.parametrize("actor_name", ["dealer", "Zoë", "del\x7f"])
def test_an_entry_is_sealed_as_canonical_seals_it(after, actor_name):
    """The seal of a written entry equals ``seal()`` over its content as stored (the old
    way: ``canonical`` of the JSON read back), for ASCII and non-ASCII content alike."""
    user = UserFactory(username=actor_name)
    item = chain._Pending(user, "note", "hand:2", None, None, {"status": "open"}, after)
    row = chain._entry_row(item, 7, "f" * 64)
    fields = dict(zip(chain.ENTRY_COLUMNS, row, strict=True))
    expected = {
        **fields,
        "before": json.loads(stored_form({"status": "open"})),
        "after": json.loads(stored_form(after)) if after is not None else None,
    }
    assert fields["hash"] == seal(expected)
    assert fields["hash"] == chain._mac(canonical(chain._sealed_content(expected)))


# Read back from PostgreSQL's jsonb, 1e16 comes back as a whole number and no longer matches
# the float it was sealed as (as it always did: the chain holds no floats, money is whole).
READ_BACK = [sample for sample in SAMPLES if not (isinstance(sample, dict) and "float" in sample)]


def test_written_entries_match_their_seals_once_read_back(table, floor):
    trail = AuditTrail()
    for after in READ_BACK:
        trail.add(actor=floor, action="note", subject="sample", table=table, after=after)
    trail.add(actor=None, action="house_note", subject="house", after={"é": 1})
    with transaction.atomic():
        written = trail.write(table)
    assert [entry.after for entry in written[:-1]] == [
        json.loads(stored_form(after)) if after is not None else None for after in READ_BACK
    ]
    rows = AuditEntry.objects.filter(pk__in=[e.pk for e in written]).order_by("id")
    for entry, row in zip(written, rows, strict=True):
        read = chain.entry_fields(row)
        assert read == chain.entry_fields(entry)
        assert seal_matches(read, row.hash)
        assert row.hash == entry.hash == seal(read)
    table.refresh_from_db()
    assert (table.audit_seq, table.audit_hash) == (written[-2].seq, written[-2].hash)


def test_raw_rows_equal_the_orm_rows(table, floor):
    """The same values through the ORM (instances, ``bulk_create``) and through ``Rows``
    read back alike, JSON as its text, NULLs, non-ASCII text and whole-number ranges."""
    hand = Hand.objects.create(
        table=table, number=99, game=table.game, rules={}, seats=[1], opened_by=floor,
        opened_at=datetime(2026, 1, 1, tzinfo=UTC),
    )  # fmt: skip
    at = datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=UTC)
    actions = [{"type": "raise", "amount": 2**40, "é": "ü"}, {"quote": '"\\'}, [1, None]]
    orm = HandAction.objects.bulk_create(
        HandAction(hand=hand, index=i, action=a, by=floor, at=at) for i, a in enumerate(actions)
    )
    writer = Rows(HandAction, ["hand", "index", "action", "by", "at"])
    ids = writer.insert(
        [
            [hand.pk] * 3,
            [10, 11, 12],
            [json.dumps(a) for a in actions],
            [floor.pk] * 3,
            [at] * 3,
        ]
    )
    assert len(ids) == 3 and ids == sorted(ids) and min(ids) > max(row.pk for row in orm)
    values = ("hand_id", "action", "by_id", "at")
    by_orm = list(HandAction.objects.filter(pk__in=[r.pk for r in orm]).values(*values))
    by_raw = list(HandAction.objects.filter(pk__in=ids).order_by("id").values(*values))
    assert by_raw == by_orm
    events = Rows(TableEvent, ["table", "hand", "kind", "data", "by", "at"])
    [event] = events.insert([[table.pk], [None], ["note"], ['{"a": null}'], [floor.pk], [at]])
    row = TableEvent.objects.get(pk=event)
    assert (row.hand_id, row.data, row.kind) == (None, {"a": None}, "note")


def test_a_raw_insert_refuses_what_the_constraints_refuse(table, floor):
    hand = Hand.objects.create(
        table=table, number=98, game=table.game, rules={}, seats=[1], opened_by=floor,
        opened_at=datetime(2026, 1, 1, tzinfo=UTC),
    )  # fmt: skip
    writer = Rows(HandAction, ["hand", "index", "action", "by", "at"])
    at = datetime(2026, 1, 2, tzinfo=UTC)
    writer.insert([[hand.pk], [0], ["{}"], [floor.pk], [at]])
    with pytest.raises(IntegrityError), transaction.atomic():
        writer.insert([[hand.pk], [0], ["{}"], [floor.pk], [at]])
    with pytest.raises(ValueError, match="5 columns expected"):
        writer.insert([[hand.pk]])
    with pytest.raises(ValueError, match="one value per row"):
        writer.insert([[hand.pk], [1, 2], ["{}"], [floor.pk], [at]])
    assert writer.insert([[], [], [], [], []]) == []


def test_save_fields_writes_what_save_writes(table):
    table.game_state = {"offer": 3, "é": [1, 2]}
    table.next_hand_number = 41
    with CaptureQueriesContext(connection) as queries:
        save_fields(table, ("game_state", "next_hand_number"))
    assert len(queries) == 1
    table.refresh_from_db()
    assert table.game_state == {"offer": 3, "é": [1, 2]} and table.next_hand_number == 41


@pytest.mark.postgres
def test_a_raw_statement_is_prepared_once_on_its_connection(table):
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL prepares statements; SQLite has no such thing")
    table.next_hand_number = 5
    save_fields(table, ("next_hand_number",))
    save_fields(table, ("next_hand_number",))
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s",
            ['UPDATE "tables_table" SET "next_hand_number" = $1 WHERE%'],
        )
        assert cursor.fetchone()[0] == 1
