"""The one JSON action decoder (``casino.rules.actions``): each field kind, every problem at
once, the paths a hand reports them at (live and replayed), the JSON schemas written from the
same table (and agreeing with the decoder on every action), and each game's table against the
actions its hands offer."""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules import actions as a
from casino.rules.actions import ActionSpec, ActionTable, Decoded, Kind, decode, schemas
from casino.rules.cards import Card, parse_card, standard_deck
from casino.rules.contract import registry
from casino.rules.errors import RuleError, action_path, reported_at
from casino.rules.options import MAX_AMOUNT
from tests.game_samples import samples

TABLE = ActionTable(
    {
        "bet": ActionSpec({"seat": a.seat(), "to": a.amount("the total bet")}, "Bet."),
        "pass": ActionSpec({"seat": a.seat()}),
        "play": ActionSpec(
            {
                "seat": a.seat(),
                "card": a.card("the card played"),
                "with": a.cards("the cards shown", least=1, most=3, required=False),
                "hand": a.hand("the hand played", most=2),
                "side": a.choice(["left", "right"], "the side"),
                "tip": a.amount("a tip", minimum=0, required=False),
                "target": a.seat("the seat aimed at", required=False),
                "mark": a.choice(["x", "o"], "a mark (not null)", required=False, nullable=False),
            }
        ),
        "show": ActionSpec(
            {
                "seat": a.seat(),
                "cards": a.cards("the hand", least=2, most=2),
                "how": a.choice(["up", "down"], "how it is shown", required=False),
            }
        ),
        "note": ActionSpec({"seat": a.seat(), "value": a.amount("the value", nullable=True)}),
    }
)
PLAY = {"type": "play", "seat": 2, "card": "Ah", "side": "left"}


def problems_of(action: object, table: ActionTable = TABLE) -> list[tuple[str, str]]:
    with pytest.raises(RuleError) as error:
        decode(action, table)
    return [(problem.path, problem.message) for problem in error.value.problems]


def messages_of(action: object, table: ActionTable = TABLE) -> list[str]:
    return [message for _, message in problems_of(action, table)]


# --------------------------------------------------------------------------- decoding


def test_a_decoded_action_has_its_type_and_typed_values() -> None:
    decoded = decode({**PLAY, "with": ["Kd", "2c"], "hand": 1, "tip": 0, "target": 5}, TABLE)
    assert decoded == Decoded(
        "play",
        {
            "seat": 2,
            "card": parse_card("Ah"),
            "with": (parse_card("Kd"), parse_card("2c")),
            "hand": 1,
            "side": "left",
            "tip": 0,
            "target": 5,
            "mark": None,
        },
    )
    assert decoded.seat == 2 and decoded.card("card") == Card(14, "h")
    assert decoded.cards("with") == (Card(13, "d"), Card(2, "c"))
    assert (decoded.number("hand"), decoded.number("tip"), decoded.text("side")) == (1, 0, "left")


def test_optional_fields_left_out_or_null_are_none_and_an_optional_list_is_empty() -> None:
    for extra in ({}, {"with": None, "hand": None, "tip": None, "target": None}):
        decoded = decode({**PLAY, **extra}, TABLE)
        assert decoded.cards("with") == ()
        assert decoded.number_or_none("hand") is None
        assert decoded.number_or_none("tip") is None and decoded.number_or_none("target") is None
        with pytest.raises(LookupError, match="'tip' was not given"):
            decoded.number("tip")
    with pytest.raises(LookupError, match="no field 'colour'"):
        decode(PLAY, TABLE).text("colour")


def test_cards_are_read_as_every_engine_reads_them() -> None:
    decoded = decode({**PLAY, "card": "10h", "with": ["as", " Kd "]}, TABLE)
    assert decoded.card("card") == Card(10, "h")
    assert [str(card) for card in decoded.cards("with")] == ["As", "Kd"]


@pytest.mark.parametrize(
    ("seat", "shown"),
    [
        (None, "None"),
        (0, "0"),
        (100, "100"),
        (-1, "-1"),
        ("3", "'3'"),
        (3.0, "3.0"),
        (True, "True"),
    ],
)
def test_the_seat_that_acts_is_a_seat_number_from_1_to_99(seat: object, shown: str) -> None:
    action: dict[str, Any] = {"type": "pass", "seat": seat}
    assert problems_of(action) == [
        ("seat", f"an action needs the seat that acts (a seat number), got {shown}")
    ]
    assert decode({"type": "pass", "seat": 99}, TABLE).seat == 99


def test_another_seat_field_names_the_acting_seat_first() -> None:
    assert messages_of({**PLAY, "target": 0}) == [
        "seat 2: a play needs 'target', the seat aimed at (a seat number), got 0"
    ]


@pytest.mark.parametrize(
    ("to", "message"),
    [
        (None, "seat 2: a bet needs 'to', the total bet as a whole number, got None"),
        ("5", "seat 2: a bet needs 'to', the total bet as a whole number, got '5'"),
        (5.0, "seat 2: a bet needs 'to', the total bet as a whole number, got 5.0"),
        (False, "seat 2: a bet needs 'to', the total bet as a whole number, got False"),
        (0, "seat 2: a bet's 'to' must be at least 1, got 0"),
        (
            MAX_AMOUNT + 1,
            f"seat 2: a bet's 'to' {MAX_AMOUNT + 1} is above the maximum of {MAX_AMOUNT}",
        ),
    ],
)
def test_an_amount_is_whole_minor_units_within_its_bounds(to: object, message: str) -> None:
    assert messages_of({"type": "bet", "seat": 2, "to": to}) == [message]


def test_amount_bounds_are_inclusive_and_a_minimum_may_be_zero() -> None:
    assert decode({"type": "bet", "seat": 2, "to": MAX_AMOUNT}, TABLE).number("to") == MAX_AMOUNT
    assert decode({"type": "bet", "seat": 2, "to": 1}, TABLE).number("to") == 1
    assert decode({**PLAY, "tip": 0}, TABLE).number("tip") == 0
    assert messages_of({**PLAY, "tip": -5}) == ["seat 2: a play's 'tip' must be at least 0, got -5"]


def test_a_card_field_names_the_bad_card_and_the_field() -> None:
    assert messages_of({**PLAY, "card": "Zz"}) == ["seat 2: unknown card 'Zz' (in card)"]
    assert messages_of({**PLAY, "card": 7}) == [
        "seat 2: unknown card 7: a card is text such as 'Ah' or '10d' (in card)"
    ]
    assert messages_of({"type": "play", "seat": 2, "side": "left"}) == [
        "seat 2: a play needs 'card', the card played"
    ]


def test_a_cards_field_names_every_bad_card_and_a_wrong_count() -> None:
    assert problems_of({**PLAY, "with": ["Zz", "Ah", "1c", "Kd"]}) == [
        ("with[0]", "seat 2: unknown card 'Zz' (in with)"),
        ("with[2]", "seat 2: unknown card '1c' (in with)"),
        ("with", "seat 2: at most 3 cards allowed, got 4 (in with)"),
    ]
    assert messages_of({**PLAY, "with": []}) == ["seat 2: at least 1 card needed, got 0 (in with)"]
    assert messages_of({**PLAY, "with": "Ah Kd"}) == [
        "seat 2: cards must be a list of cards such as ['Ah', 'Td'] (in with)"
    ]
    assert messages_of({"type": "show", "seat": 2, "cards": ["Ah"]}) == [
        "seat 2: 2 cards needed, got 1 (in cards)"
    ]
    assert messages_of({"type": "show", "seat": 2}) == ["seat 2: a show needs 'cards', the hand"]


@pytest.mark.parametrize("hand", [-1, 3, "0", 1.0, False])
def test_a_hand_index_is_a_whole_number_from_0_to_its_most(hand: object) -> None:
    assert messages_of({**PLAY, "hand": hand}) == [
        f"seat 2: a play needs 'hand', the hand played (a hand number from 0 to 2), got {hand!r}"
    ]
    assert decode({**PLAY, "hand": 2}, TABLE).number("hand") == 2


@pytest.mark.parametrize("side", ["up", 1, None])
def test_a_choice_names_its_values(side: object) -> None:
    action = {**PLAY, "side": side}
    assert messages_of(action) == [f"seat 2: a play's side is 'left' or 'right', got {side!r}"]
    del action["side"]
    assert messages_of(action) == ["seat 2: a play's side is 'left' or 'right', got None"]


def test_null_is_left_out_for_an_optional_field_and_allowed_for_a_nullable_required_one() -> None:
    strict = ActionTable(
        {
            "x": ActionSpec(
                {"seat": a.seat(), "tip": a.amount("a tip", required=False, nullable=False)}
            )
        }
    )
    assert decode({"type": "x", "seat": 1}, strict).number_or_none("tip") is None
    assert messages_of({"type": "x", "seat": 1, "tip": None}, strict) == [
        "seat 1: a x needs 'tip', a tip as a whole number, got None"
    ]
    assert decode({"type": "note", "seat": 1, "value": None}, TABLE).number_or_none("value") is None
    assert messages_of({"type": "note", "seat": 1}) == [
        "seat 1: a note needs 'value', the value as a whole number, got None"
    ]


# --------------------------------------------------------------------------- the envelope


@pytest.mark.parametrize("action", ["pass", ["pass"], None, 3])
def test_an_action_is_an_object(action: object) -> None:
    assert problems_of(action) == [
        ("", 'an action must be an object such as {"type": "pass", "seat": 3}')
    ]


def test_an_unknown_type_names_the_types_in_the_table_s_order() -> None:
    assert problems_of({"type": "fly", "seat": 4}) == [
        ("type", "seat 4: unknown action type 'fly': use bet, pass, play, show or note")
    ]
    assert messages_of({"seat": 4}) == [
        "seat 4: unknown action type None: use bet, pass, play, show or note"
    ]
    assert messages_of({"type": ["bet"], "seat": 4}) == [
        "seat 4: unknown action type ['bet']: use bet, pass, play, show or note"
    ]


def test_a_long_value_is_cut_short_in_its_message() -> None:
    (message,) = messages_of({"type": "x" * 10_000, "seat": 4})
    assert len(message) < 150 and message.startswith("seat 4: unknown action type 'xxx")
    (message,) = messages_of({"type": "pass", "seat": 4, "y" * 10_000: 1})
    assert len(message) < 150


def test_every_problem_is_reported_at_once_with_its_path() -> None:
    action = {
        "type": "play",
        "seat": "two",
        "card": "Zz",
        "with": ["Ah", "Qx"],
        "hand": 7,
        "side": "up",
        "tip": -1,
        "colour": "red",
        "size": 3,
    }
    assert problems_of(action) == [
        ("seat", "an action needs the seat that acts (a seat number), got 'two'"),
        ("colour", "unknown field 'colour' in a play action"),
        ("size", "unknown field 'size' in a play action"),
        ("card", "unknown card 'Zz' (in card)"),
        ("with[1]", "unknown card 'Qx' (in with)"),
        ("hand", "a play needs 'hand', the hand played (a hand number from 0 to 2), got 7"),
        ("side", "a play's side is 'left' or 'right', got 'up'"),
        ("tip", "a play's 'tip' must be at least 0, got -1"),
    ]
    assert problems_of({"type": "fly"}) == [
        ("seat", "an action needs the seat that acts (a seat number), got None"),
        ("type", "unknown action type 'fly': use bet, pass, play, show or note"),
    ]
    assert messages_of({"type": "play", "seat": 2}) == [
        "seat 2: a play needs 'card', the card played",
        "seat 2: a play's side is 'left' or 'right', got None",
    ]


@pytest.mark.parametrize(
    ("index", "path"), [(None, "action"), (0, "actions[0]"), (3, "actions[3]")]
)
def test_a_hand_reports_them_at_the_action_live_or_replayed(index: int | None, path: str) -> None:
    with pytest.raises(RuleError) as error, reported_at(action_path(index)):
        decode({"type": "play", "seat": 2, "card": "Zz", "colour": 1}, TABLE)
    assert [(p.path, p.message) for p in error.value.problems] == [
        (path, "seat 2: unknown field 'colour' in a play action"),
        (path, "seat 2: unknown card 'Zz' (in card)"),
        (path, "seat 2: a play's side is 'left' or 'right', got None"),
    ]


def test_a_table_s_actor_is_a_required_seat_in_every_action_and_type_is_no_field() -> None:
    with pytest.raises(ValueError, match="the actor 'seat' must be a required seat field"):
        ActionTable({"x": ActionSpec({"seat": a.seat(required=False)})})
    with pytest.raises(ValueError, match="the actor 'seat'"):
        ActionTable({"x": ActionSpec({"who": a.seat()})})
    with pytest.raises(ValueError, match="'type' is the action's type"):
        ActionTable({"x": ActionSpec({"seat": a.seat(), "type": a.choice(["a"], "a")})})
    with pytest.raises(ValueError, match="needs the values"):
        a.Field(Kind.CHOICE, "nothing")
    anyone = ActionTable({"shuffle": ActionSpec({"cards": a.cards("the deck")})}, actor=None)
    assert messages_of({"type": "shuffle", "cards": ["Zz"]}, anyone) == [
        "unknown card 'Zz' (in cards)"
    ]
    assert messages_of("shuffle", anyone) == [
        'an action must be an object such as {"type": "shuffle"}'
    ]
    with pytest.raises(LookupError, match="no seat that acts"):
        _ = decode({"type": "shuffle", "cards": []}, anyone).seat


# --------------------------------------------------------------------------- schemas


def test_an_action_s_schema_is_written_from_its_table() -> None:
    written = schemas(TABLE)
    assert list(written) == list(TABLE)
    assert written["bet"] == {
        "type": "object",
        "properties": {
            "type": {"type": "string", "enum": ["bet"]},
            "seat": {
                "title": "seat",
                "type": "integer",
                "minimum": 1,
                "maximum": 99,
                "description": "the seat that acts",
            },
            "to": {
                "type": "integer",
                "format": "money",
                "minimum": 1,
                "maximum": MAX_AMOUNT,
                "description": "the total bet",
            },
        },
        "additionalProperties": False,
        "required": ["type", "seat", "to"],
        "description": "Bet.",
    }
    play = written["play"]
    assert play["required"] == ["type", "seat", "card", "side"]
    assert play["properties"]["with"]["minItems"] == 1
    assert play["properties"]["with"]["maxItems"] == 3
    assert play["properties"]["with"]["nullable"] is True
    assert play["properties"]["hand"] == {
        "type": "integer",
        "minimum": 0,
        "maximum": 2,
        "description": "the hand played",
        "nullable": True,
    }
    assert play["properties"]["side"]["enum"] == ["left", "right"]
    assert play["properties"]["tip"]["minimum"] == 0
    assert written["show"]["properties"]["cards"]["minItems"] == 2
    assert written["show"]["properties"]["how"]["enum"] == ["up", "down", None]
    assert written["note"]["required"] == ["type", "seat", "value"]
    assert written["note"]["properties"]["value"]["nullable"] is True


SCHEMA_TYPES = {
    Kind.SEAT: "integer",
    Kind.CARD: "string",
    Kind.CARDS: "array",
    Kind.AMOUNT: "integer",
    Kind.HAND: "integer",
    Kind.CHOICE: "string",
}
GAMES_WITH_TABLES = [code for code, game in registry().items() if game.action_table is not None]


@pytest.mark.parametrize("code", GAMES_WITH_TABLES)
def test_each_game_s_action_schemas_are_its_table_s(code: str) -> None:
    game = registry()[code]
    table = game.action_table
    assert table is not None
    assert game.action_schemas == schemas(table)
    for kind, spec in table.items():
        schema = game.action_schemas[kind]
        assert schema["additionalProperties"] is False
        assert schema["properties"]["type"]["enum"] == [kind]
        assert list(schema["properties"]) == ["type", *spec.fields]
        assert schema["required"] == ["type", *(n for n, f in spec.fields.items() if f.required)]
        for name, declared in spec.fields.items():
            prop = schema["properties"][name]
            assert prop["type"] == SCHEMA_TYPES[declared.kind]
            assert prop.get("nullable", False) is declared.nullable
            assert prop["description"] == declared.description


def test_the_built_in_games_all_decode_with_an_action_table() -> None:
    builtin = {"five-card-draw-7a", "high-card-flush", "paiute", "palace-poker", "pontoon"}
    assert builtin <= set(GAMES_WITH_TABLES)


# -- the decoder and the schema agree on every action


def json_schema(schema: Any) -> Any:
    """The OpenAPI 3.0 dialect as plain JSON Schema: ``nullable`` becomes a null type."""
    if isinstance(schema, list):
        return [json_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: json_schema(value) for key, value in schema.items() if key != "nullable"}
    if schema.get("nullable"):
        out["type"] = [schema["type"], "null"]
    return out


CARDS = [str(card) for card in standard_deck()]
NOT_CARDS = ["Zz", "1s", "", "A", "Ahh", "AH "]
ANY_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=120),
    st.sampled_from([MAX_AMOUNT - 1, MAX_AMOUNT, MAX_AMOUNT + 1, -MAX_AMOUNT, 10**30]),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-3, max_value=5),
    st.sampled_from(CARDS + NOT_CARDS + ["left", "right", "stock", "discard", "5"]),
    st.lists(st.sampled_from(CARDS + NOT_CARDS + [3]), max_size=8),
    st.dictionaries(st.sampled_from(["a", "seat"]), st.integers(), max_size=2),
)


def value_for(declared: a.Field) -> st.SearchStrategy[Any]:
    """Mostly values of the field's kind at and beyond its bounds, sometimes anything."""
    fitting = edges_of(declared)
    return st.one_of(fitting, fitting, fitting, ANY_VALUE)


def edges_of(declared: a.Field) -> st.SearchStrategy[Any]:
    """Values of the field's kind at and just beyond its bounds."""
    fitting: st.SearchStrategy[Any]
    if declared.kind is Kind.SEAT:
        fitting = st.sampled_from([-1, 0, 1, 2, 99, 100])
    elif declared.kind is Kind.CARD:
        fitting = st.sampled_from(CARDS + NOT_CARDS)
    elif declared.kind is Kind.CARDS:
        least = declared.least or 0
        most = declared.most if declared.most is not None else least + 6
        sizes = st.sampled_from(sorted({0, max(least - 1, 0), least, most, most + 1}))
        fitting = sizes.flatmap(
            lambda size: st.lists(
                st.sampled_from(CARDS + NOT_CARDS[:2]), min_size=size, max_size=size
            )
        )
    elif declared.kind is Kind.AMOUNT:
        least = declared.least or 0
        edges = [least - 2, least - 1, least, least + 1, MAX_AMOUNT, MAX_AMOUNT + 1]
        fitting = st.sampled_from(edges)
    elif declared.kind is Kind.HAND:
        most = declared.most if declared.most is not None else 5
        fitting = st.sampled_from([-1, 0, most, most + 1])
    else:
        fitting = st.sampled_from([*declared.values, "neither"])
    return fitting


def valid_value(declared: a.Field) -> st.SearchStrategy[Any]:
    """A value the field takes."""
    if declared.kind is Kind.SEAT:
        return st.integers(min_value=1, max_value=99)
    if declared.kind is Kind.CARD:
        return st.sampled_from(CARDS)
    if declared.kind is Kind.CARDS:
        least = declared.least or 0
        most = declared.most if declared.most is not None else least + 6
        return st.lists(st.sampled_from(CARDS), min_size=least, max_size=most)
    if declared.kind is Kind.AMOUNT:
        least = declared.least or 0
        return st.one_of(
            st.integers(min_value=least, max_value=least + 3),
            st.integers(min_value=MAX_AMOUNT - 2, max_value=MAX_AMOUNT),
        )
    if declared.kind is Kind.HAND:
        return st.integers(min_value=0, max_value=5 if declared.most is None else declared.most)
    return st.sampled_from(declared.values)


@st.composite
def actions_of(draw_: st.DrawFn, table: ActionTable) -> Any:
    """An action of the table, all good, with one field spoiled, or anything at all."""
    kind = draw_(st.sampled_from([*table, "nonsense"]))
    if kind == "nonsense" or draw_(st.integers(0, 19)) == 0:
        return draw_(st.one_of(ANY_VALUE, st.just({"type": kind, "seat": 1})))
    fields = table[kind].fields
    action: dict[str, Any] = {"type": kind}
    for name, declared in fields.items():
        if declared.required or draw_(st.booleans()):
            action[name] = draw_(valid_value(declared))
        elif declared.nullable and draw_(st.booleans()):
            action[name] = None
    mode = draw_(st.integers(0, 3))
    if mode == 1:
        name = draw_(st.sampled_from(list(fields)))
        action[name] = draw_(value_for(fields[name]))
    elif mode == 2:
        name = draw_(st.sampled_from(list(fields)))
        action[name] = draw_(st.one_of(st.none(), edges_of(fields[name])))
    elif mode == 3:
        for name, declared in fields.items():
            if draw_(st.integers(0, 9)) == 0:
                action.pop(name, None)
            elif draw_(st.booleans()):
                action[name] = draw_(value_for(declared))
        if draw_(st.integers(0, 4)) == 0:
            action[draw_(st.sampled_from(["colour", "amount", "card", "hand", "seat"]))] = 1
    return action


def decodes(action: Any, table: ActionTable) -> bool:
    try:
        decode(action, table)
    except RuleError:
        return False
    return True


TABLES: dict[str, ActionTable | None] = {
    "example": TABLE,
    **{code: registry()[code].action_table for code in GAMES_WITH_TABLES},
}


@pytest.mark.parametrize("name", list(TABLES))
@settings(max_examples=500, deadline=None, derandomize=True)
@given(data=st.data())
def test_the_decoder_accepts_exactly_what_the_schema_allows(name: str, data: st.DataObject) -> None:
    """Every action the API document allows decodes, and every action it refuses is refused
    (canonical card text: the decoder also reads 'ah' and '10h', as every engine does)."""
    table = TABLES[name]
    assert table is not None
    validator = jsonschema.Draft4Validator(
        {"anyOf": [json_schema(schema) for schema in schemas(table).values()]}
    )
    action = data.draw(actions_of(table))
    assert decodes(copy.deepcopy(action), table) is validator.is_valid(action), action


ABSENT = object()


def edge_values(declared: a.Field) -> list[Any]:
    """Every value worth trying in a field: at and beyond its bounds, null, left out, other
    kinds."""
    others: list[Any] = [ABSENT, None, True, "5", 5.0, 1.5, ["Ah"], {"a": 1}, "Ah", 3]
    if declared.kind is Kind.SEAT:
        return [*others, -1, 0, 1, 99, 100]
    if declared.kind is Kind.CARD:
        return [*others, "Zz", "1s", "", "Ahh", "Ks"]
    if declared.kind is Kind.CARDS:
        least = declared.least or 0
        most = declared.most if declared.most is not None else least + 6
        sizes = {0, max(least - 1, 0), least, most, most + 1, most + 2}
        return [*others, *(CARDS[:size] for size in sorted(sizes)), ["Zz"], [5], ["Ah", "Ah"]]
    if declared.kind is Kind.AMOUNT:
        least = declared.least or 0
        edges = [least - 1, least, least + 1, MAX_AMOUNT, MAX_AMOUNT + 1, -MAX_AMOUNT - 1]
        return [*others, *edges]
    if declared.kind is Kind.HAND:
        most = declared.most if declared.most is not None else 5
        return [*others, -1, 0, most, most + 1]
    return [*others, *declared.values, "neither"]


def good_value(declared: a.Field) -> Any:
    """A value the field takes: its least, its first."""
    if declared.kind is Kind.SEAT:
        return 2
    if declared.kind is Kind.CARD:
        return "Ah"
    if declared.kind is Kind.CARDS:
        return CARDS[: declared.least or 0]
    if declared.kind is Kind.CHOICE:
        return declared.values[0]
    return declared.least or 0  # an amount, a hand index


def single_changes(table: ActionTable) -> list[Any]:
    """For each action type: a good action (optional fields left out, or all given), then
    each field in turn set to each edge value, an unknown field and an unknown type."""
    found: list[Any] = ["pass", [], None, {}]
    for kind, spec in table.items():
        given = {name: good_value(declared) for name, declared in spec.fields.items()}
        needed = {name: given[name] for name, declared in spec.fields.items() if declared.required}
        for base in ({"type": kind, **needed}, {"type": kind, **given}):
            found += [base, {**base, "colour": 1}, {**base, "type": f"{kind}x"}]
            for name, declared in spec.fields.items():
                rest = {key: value for key, value in base.items() if key != name}
                found += [
                    rest if edge is ABSENT else {**rest, name: edge}
                    for edge in edge_values(declared)
                ]
    return found


@pytest.mark.parametrize("name", list(TABLES))
def test_the_decoder_and_the_schema_agree_on_every_single_change(name: str) -> None:
    table = TABLES[name]
    assert table is not None
    validator = jsonschema.Draft4Validator(
        {"anyOf": [json_schema(schema) for schema in schemas(table).values()]}
    )
    disagreements = [
        action
        for action in single_changes(table)
        if decodes(copy.deepcopy(action), table) is not validator.is_valid(action)
    ]
    assert disagreements == []


# --------------------------------------------------------------------------- the games' vocabulary


@pytest.mark.parametrize("code", GAMES_WITH_TABLES)
def test_a_game_reports_every_envelope_problem_at_its_action_live_or_replayed(code: str) -> None:
    table = registry()[code].action_table
    assert table is not None
    kind = next(iter(table))
    bad = {"type": kind, "seat": 1, "bogus": 1, "colour": "red"}
    hand, _ = samples(code).short_hand()
    offered, log = hand.legal_actions(), list(hand.log)
    for index, path in ((None, "action"), (3, "actions[3]")):
        with pytest.raises(RuleError) as error:
            hand.apply(bad, index)
        found = [(problem.path, problem.message) for problem in error.value.problems]
        assert {where for where, _ in found} == {path}
        assert (path, f"seat 1: unknown field 'bogus' in a {kind} action") in found
        assert (path, f"seat 1: unknown field 'colour' in a {kind} action") in found
    assert hand.legal_actions() == offered and list(hand.log) == log


def test_a_7a_draw_s_problems_all_come_at_once() -> None:
    hand, actions = samples("five-card-draw-7a").short_hand()
    for index, action in enumerate(actions[:4]):
        hand.apply(action, index)
    with pytest.raises(RuleError) as error:
        hand.apply(
            {"type": "draw", "seat": 2, "discard": ["7c", "Zz"], "receive": "8c", "to": 1}, 4
        )
    assert [(p.path, p.message) for p in error.value.problems] == [
        ("actions[4]", "seat 2: unknown field 'to' in a draw action"),
        ("actions[4]", "seat 2: unknown card 'Zz' (in discard)"),
        ("actions[4]", "seat 2: cards must be a list of cards such as ['Ah', 'Td'] (in receive)"),
    ]


@pytest.mark.parametrize("code", list(registry()))
def test_every_action_a_hand_offers_is_in_its_table_and_every_table_action_is_offered(
    code: str,
) -> None:
    """A short hand of each registered game (its samples' ``short_hand``, beside its own
    tests): the types its ``legal_actions()`` offer along the way are exactly its action
    table's."""
    game = registry()[code]
    vocabulary = set(game.action_table if game.action_table is not None else game.action_schemas)
    hand, actions = samples(code).short_hand()
    offered: set[str] = set()
    for index, action in enumerate(actions):
        offered |= {legal["type"] for legal in hand.legal_actions()}
        assert action["type"] in offered, (index, action, hand.legal_actions())
        hand.apply(action, index)
    offered |= {legal["type"] for legal in hand.legal_actions()}
    assert offered <= vocabulary, offered - vocabulary
    assert vocabulary <= offered, vocabulary - offered
