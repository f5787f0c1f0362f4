"""Forms built from the games' schemas (``desk/floor/schema_fields.py``): money typed in major
units and converted exactly, odds, percentages, pay tables, bands added and removed, choices
by their titles, problems placed at their fields; every registered game's limits, rules and
actions shown and read back unchanged."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings

from casino.core.option_words import describe
from casino.rules.contract import registry
from desk.floor.forms import actions_schema, rules_schema
from desk.floor.schema_fields import (
    MISSING,
    Field,
    SchemaForm,
    differs,
    major,
    to_minor,
)

GAMES = sorted(registry())


def posted(form: SchemaForm, **typed: str) -> dict[str, str]:
    """What the browser posts for ``form`` as drawn (each input's text, each list's row count),
    with ``typed`` over it."""
    data: dict[str, str] = {}

    def walk(node: Field) -> None:
        if node.kind == "rows":
            data[f"{node.name}.rows"] = str(len(node.children))
        elif not node.is_group and node.kind != "fixed":
            data[node.name] = node.text
        for child in node.children:
            walk(child)

    walk(form.root)
    data.update(typed)
    return data


def again(form: SchemaForm, **typed: str) -> SchemaForm:
    """``form`` posted back as drawn (with ``typed``) and read."""
    return SchemaForm(
        form.schema,
        form.initial,
        name=form.name,
        data=posted(form, **typed),
        keep_nulls=form.build.keep_nulls,
    )


# ---------------------------------------------------------------- money, exactly


@pytest.mark.parametrize(
    ("typed", "minor"),
    [
        ("12.50", 1250),
        ("12.5", 1250),
        ("12", 1200),
        ("$1,250.00", 125_000),
        (" 0.01 ", 1),
        (".25", 25),
        ("0.10", 10),
        ("10000000000.00", 10**12),
        ("USD 7", 700),
    ],
)
def test_money_typed_in_dollars_is_exact_cents(typed, minor):
    assert to_minor(typed) == minor


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("12.345", "at most 2 decimals: the smallest amount is $0.01"),
        ("0.001", "at most 2 decimals"),
        ("twelve", "not an amount: write it like 12.50"),
        ("-5", "not an amount"),
        ("1e3", "not an amount"),
        ("12.50.1", "not an amount"),
    ],
)
def test_money_with_more_decimals_than_the_currency_or_no_number_is_refused_in_words(typed, says):
    with pytest.raises(ValueError, match=says.replace("$", r"\$")):
        to_minor(typed)


def test_money_follows_the_house_currency():
    with override_settings(CURRENCY="JPY", CURRENCY_EXPONENT=0):
        assert to_minor("1,250") == 1250 and to_minor("1250.00") == 1250 and major(1250) == "1250"
        with pytest.raises(ValueError, match="whole amounts only: the smallest amount is ¥1"):
            to_minor("12.5")
    with override_settings(CURRENCY="BHD", CURRENCY_EXPONENT=3):
        assert to_minor("1.005") == 1005 and major(1005) == "1.005"
        with pytest.raises(ValueError, match="at most 3 decimals"):
            to_minor("1.0005")
    assert major(1250) == "12.50" and major(5) == "0.05" and major(0) == "0.00"


# ---------------------------------------------------------------- every game


@pytest.mark.parametrize("code", GAMES)
def test_every_game_s_rules_are_drawn_and_read_back_unchanged(code):
    game = registry()[code]
    defaults = game.default_rules()
    form = SchemaForm(rules_schema(game), defaults, name="rules")
    shown = {node.name.split(".", 1)[1] for node in form.fields}
    hidden = {k for k, p in rules_schema(game)["properties"].items() if p.get("readOnly")}
    assert shown == set(defaults) - hidden
    assert "smallest_chip" in hidden  # set from the table, never asked as a rule
    read = again(form)
    assert read.valid, [(n.name, n.errors) for n in read.root.walk() if n.errors]
    for key, value in read.value.items():
        assert not differs(value, defaults[key]), (key, value, defaults[key])
    # The game judges what the form read: its defaults are its defaults.
    assert game.parse_rules(read.value) == defaults


def some_limits(game: Any) -> dict[str, Any]:
    """The game's demo limits, else a choice's first value and amounts rising in the
    schema's order."""
    if game.demo_table:
        return dict(game.demo_table["limits"])
    limits: dict[str, Any] = {}
    for index, (key, prop) in enumerate(game.limits_schema["properties"].items()):
        limits[key] = prop["enum"][0] if prop.get("enum") else 100 * (index + 1)
    return limits


@pytest.mark.parametrize("code", GAMES)
def test_every_game_s_demo_limits_and_rules_survive_the_form(code):
    game = registry()[code]
    demo = game.demo_table or {}
    limits = SchemaForm(game.limits_schema, some_limits(game), name="limits")
    read = again(limits)
    assert read.valid
    assert {k: v for k, v in read.value.items() if v is not None} == some_limits(game)
    effective = game.parse_rules(demo.get("rules") or {})
    rules = again(SchemaForm(rules_schema(game), effective, name="rules"))
    assert game.parse_rules(rules.value) == effective


@pytest.mark.parametrize("code", GAMES)
def test_every_game_s_money_fields_say_their_currency_and_take_dollars(code):
    game = registry()[code]
    form = SchemaForm(game.limits_schema, {}, name="limits")
    money = [node for node in form.root.walk() if node.kind == "money"]
    assert money, "every game has a limit in money"
    for node in money:
        assert node.before == "$" and node.inputmode == "decimal"
    choices = {n.name: n.choices[1][0] for n in form.root.walk() if n.kind == "choice"}
    typed = {**choices, **{node.name: "12.34" for node in money}}
    read = again(form, **typed)
    assert all(read.value[node.name.split(".", 1)[1]] == 1234 for node in money)
    read = again(form, **{**typed, money[0].name: "12.345"})
    [wrong] = [node for node in read.root.walk() if node.errors]
    assert wrong.name == money[0].name
    assert wrong.errors == ["at most 2 decimals: the smallest amount is $0.01"]


# ---------------------------------------------------------------- odds, bands, percentages


def hcf():
    return registry()["high-card-flush"]


def test_a_pay_table_is_a_row_a_line_in_odds_to_one():
    game = hcf()
    form = SchemaForm(game.rules_schema, game.default_rules(), name="rules")
    table = form.root.find("rules.flush_paytable")
    assert table.is_pay_table and table.label == "Flush pay table"
    assert [(n.label, n.text, n.after) for n in table.children] == [
        ("7 cards", "200", "to 1"),
        ("6 cards", "50", "to 1"),
        ("5 cards", "10", "to 1"),
        ("4 cards", "2", "to 1"),
    ]
    read = again(form, **{"rules.flush_paytable.7": "500:1", "rules.flush_paytable.4": ""})
    assert read.value["flush_paytable"] == {"7": 500, "6": 50, "5": 10}
    assert describe(table.schema, read.value["flush_paytable"]) == (
        "7 cards 500:1, 6 cards 50:1, 5 cards 10:1"
    )
    wrong = again(form, **{"rules.flush_paytable.6": "0"})
    assert wrong.root.find("rules.flush_paytable.6").errors == ["must be from 1:1 to 10000:1"]


def test_bands_are_rows_added_and_removed_and_read_in_money():
    game = hcf()
    form = SchemaForm(game.rules_schema, game.default_rules(), name="rules")
    bands = form.root.find("rules.rake.bands")
    assert bands.kind == "rows" and bands.children == [] and bands.noun == "band"
    assert form.edit("add:rules.rake.bands") and form.edit("add:rules.rake.bands")
    assert [row.label for row in bands.children] == ["Band 1", "Band 2"]
    assert bands.children[0].children[0].fresh  # the new row's first input takes the focus
    read = again(
        form,
        **{
            "rules.rake.bands.0.up_to": "25.00",
            "rules.rake.bands.0.amount": "0.50",
            "rules.rake.bands.1.up_to": "",
            "rules.rake.bands.1.amount": "1",
        },
    )
    assert read.value["rake"]["bands"] == [
        {"up_to": 2500, "amount": 50},
        {"up_to": None, "amount": 100},
    ]
    assert game.parse_rules({"rake": read.value["rake"]})["rake"]["bands"][1]["up_to"] is None
    assert read.edit("remove:rules.rake.bands.0")
    [left] = read.root.find("rules.rake.bands").children
    assert left.name == "rules.rake.bands.0" and left.label == "Band 1"
    assert left.children[1].text == "1" and left.children[1].path == "rules.rake.bands[0].amount"


def test_a_problem_is_placed_at_its_field_or_its_nearest_group():
    game = hcf()
    form = SchemaForm(game.rules_schema, game.default_rules(), name="rules")
    form.edit("add:rules.rake.bands")
    assert form.attach("rules.rake.bands[0].amount", "not a multiple of the smallest chip")
    assert form.root.find("rules.rake.bands.0.amount").errors == [
        "not a multiple of the smallest chip"
    ]
    assert form.attach("rules.rake", "give one amount or bands, not both")
    assert form.root.find("rules.rake").errors == ["give one amount or bands, not both"]
    assert not form.attach("seat_count", "elsewhere")


@pytest.mark.parametrize(
    "code", [c for c in GAMES if "'format': 'percent'" in str(registry()[c].rules_schema)]
)
def test_a_percentage_rake_is_typed_as_a_percent_with_its_cap_in_money(code):
    game = registry()[code]
    form = SchemaForm(game.rules_schema, game.default_rules(), name="rules")
    kind = form.root.find("rules.rake.kind")
    assert ("percent", "A percentage of the pot") in kind.choices
    percent = form.root.find("rules.rake.percent")
    assert (percent.kind, percent.after) == ("percent", "%")
    read = again(
        form,
        **{"rules.rake.kind": "percent", "rules.rake.percent": "2.5", "rules.rake.cap": "3"},
    )
    rake = read.value["rake"]
    assert (rake["kind"], rake["percent"], rake["cap"]) == ("percent", 2.5, 300)
    assert game.parse_rules({"rake": rake})["rake"]["percent"] == 2.5
    whole = again(form, **{"rules.rake.kind": "percent", "rules.rake.percent": "5"})
    assert whole.value["rake"]["percent"] == 5 and whole.value["rake"]["cap"] is None


def test_a_choice_is_offered_by_its_titles_and_a_flag_as_yes_or_no():
    game = hcf()
    form = SchemaForm(game.rules_schema, game.default_rules(), name="rules")
    coverage = form.root.find("rules.coverage")
    assert coverage.choices == [
        ("running", "The bank and what it collects as the hand settles"),
        ("original_bank", "Only the bank posted before the hand"),
    ]
    high = form.root.find("rules.qualify_high_rank")
    assert ("14", "Ace") in high.choices and high.text == "9"
    read = again(form, **{"rules.qualify_high_rank": "12"})
    assert read.value["qualify_high_rank"] == 12
    draw = registry()["five-card-draw-7a"]
    flag = SchemaForm(draw.rules_schema, draw.default_rules(), name="rules").root.find(
        "rules.heads_up_uncapped"
    )
    assert flag.kind == "boolean" and flag.choices == [("yes", "Yes"), ("no", "No")]
    assert flag.text == "no"


def test_an_emptied_optional_value_means_what_its_schema_says():
    game = hcf()
    form = SchemaForm(game.rules_schema, game.default_rules(), name="rules")
    cap = form.root.find("rules.max_payout_per_hand")
    assert cap.help.endswith("Leave empty for no cap.")
    read = again(form, **{"rules.max_payout_per_hand": "500"})
    assert read.value["max_payout_per_hand"] == 50_000
    assert again(form).value["max_payout_per_hand"] is None


# ---------------------------------------------------------------- a hand's actions


def recorded_actions(code: str) -> list[dict[str, Any]]:
    game = registry()[code]
    history = game.import_record(game.record_example, game.default_rules())
    return list(history.actions)


def test_a_hand_s_actions_are_rows_of_a_type_and_its_fields():
    game = hcf()
    actions = recorded_actions("high-card-flush")
    form = SchemaForm(actions_schema(game), actions, name="actions", keep_nulls=False)
    rows = form.root
    assert rows.kind == "rows" and len(rows.children) == len(actions)
    first = rows.children[0]
    assert first.children[0].name == "actions.0.type"
    assert ("wager", "Wager") in first.children[0].choices
    read = again(form)
    assert read.valid and read.value == actions
    # One amount changed, in dollars: only that action changes.
    wager = next(i for i, a in enumerate(actions) if a["type"] == "wager" and a["seat"] == 1)
    changed = again(form, **{f"actions.{wager}.ante": "12.00"})
    assert changed.value[wager]["ante"] == 1200
    assert [i for i, (a, b) in enumerate(zip(actions, changed.value, strict=True)) if a != b] == [
        wager
    ]


def test_cards_are_typed_as_text_and_each_is_checked():
    game = hcf()
    actions = recorded_actions("high-card-flush")
    form = SchemaForm(actions_schema(game), actions, name="actions", keep_nulls=False)
    deal = next(i for i, a in enumerate(actions) if a["type"] == "deal")
    cards = form.root.find(f"actions.{deal}.cards")
    assert cards.kind == "cards" and len(cards.text.split()) == 7
    read = again(form, **{f"actions.{deal}.cards": "ah kh 9h 3c 5d 8s 10c"})
    assert read.value[deal]["cards"] == ["Ah", "Kh", "9h", "3c", "5d", "8s", "Tc"]
    wrong = again(form, **{f"actions.{deal}.cards": "Ah Kh 9h 3c 5d 8s Zz"})
    assert wrong.root.find(f"actions.{deal}.cards").errors == [
        "'Zz' is not a card: a rank (2-9, T, J, Q, K, A) and a suit (c, d, h, s), like Ah"
    ]
    short = again(form, **{f"actions.{deal}.cards": "Ah Kh"})
    assert short.root.find(f"actions.{deal}.cards").errors == ["give 7 cards, not 2"]


def test_rows_are_inserted_moved_and_removed_and_renumbered():
    game = hcf()
    actions = recorded_actions("high-card-flush")
    form = SchemaForm(actions_schema(game), actions, name="actions", keep_nulls=False)
    assert form.edit("up:actions.1")
    assert form.root.children[0].children[0].text == actions[1]["type"]
    assert form.edit("insert:actions.0")
    assert len(form.root.children) == len(actions) + 1
    assert form.root.children[0].children[0].text == ""  # a new row: its type to choose
    assert form.root.children[1].name == "actions.1"
    assert form.edit("remove:actions.0") and len(form.root.children) == len(actions)
    assert not form.edit("up:actions.0") and not form.edit("remove:actions.99")
    read = again(form)
    assert read.value == [actions[1], actions[0], *actions[2:]]


def test_a_new_action_s_type_brings_that_type_s_fields():
    game = registry()["five-card-draw-7a"]
    form = SchemaForm(
        actions_schema(game), [{"type": "fold", "seat": 2}], name="actions", keep_nulls=False
    )
    read = again(form, **{"actions.0.type": "raise", "actions.0.to": "8", "actions.0.seat": "3"})
    assert read.value == [{"type": "raise", "seat": 3, "to": 800}]
    to = read.root.find("actions.0.to")
    assert to.kind == "money" and to.label == "To"
    missing = again(form, **{"actions.0.type": "raise"})
    assert missing.root.find("actions.0.to").errors == ["needed"]
    assert MISSING is not None


@pytest.mark.parametrize("code", GAMES)
def test_every_game_s_actions_are_drawn_as_rows_and_read_back_unchanged(code):
    """A short hand of every game that plays each of its action types: drawn as rows (a type
    and that type's fields) and read back as the same actions, amounts exact."""
    from tests.game_samples import samples

    game = registry()[code]
    _, actions = samples(code).short_hand()
    form = SchemaForm(actions_schema(game), actions, name="actions", keep_nulls=False)
    assert [row.children[0].text for row in form.root.children] == [a["type"] for a in actions]
    assert not any(node.kind == "fixed" for node in form.root.walk())  # nothing left as data
    read = again(form)
    assert read.valid, [(n.name, n.errors) for n in read.root.walk() if n.errors]
    expected = [{k: v for k, v in action.items() if v is not None} for action in actions]
    assert [{k: v for k, v in a.items() if v is not None} for a in read.value] == expected
    money = [n for n in read.root.walk() if n.kind == "money" and n.text]
    for node in money:  # every amount shown in dollars reads back to its cents
        assert to_minor(node.text) == node.value
