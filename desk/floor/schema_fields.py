"""Forms built from a game's JSON schemas, field by field: no JSON on any screen.

One builder for every form that asks for a game's options or a hand's actions (the new
table, a limit or rule change, a correction): :class:`SchemaForm` turns a schema (the
vocabulary of :mod:`casino.rules.schemas`: titles, ``format`` money / odds / percent / count /
minutes, titled choices, ``x-null``, ``readOnly``) and a value into a tree of :class:`Field` s,
each one labelled input (or a group of them), and reads the posted form back into the JSON
the services take, with each problem next to its field:

* money is typed in major units with the currency shown and converted exactly to minor
  units (more decimals than the currency has is refused, in words);
* odds are typed as the N of "N to 1", a percentage as a number, yes/no as a choice, a
  choice by its titles;
* a nested object is a group of fields (a pay table: one line a row, "7 cards: [200] to 1");
  a list of objects is rows with add, insert, remove and move up (bands, a hand's actions;
  a row of a list of variants, an action, first chooses its type);
* cards are typed as text (``Ah Kh 9h``), each checked.

Every input's name is its place in the JSON (``rules.rake.bands.1.amount``) and every field
knows the path a service reports a problem at (``rules.rake.bands[1].amount``), so
:meth:`SchemaForm.attach` puts a refusal next to the field it is about. The schema checks
shape and bounds first; the engine (``Game.parse_rules``, the services) is the judge.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from django.conf import settings

from casino.core.money import SYMBOLS, major_text, money, parse_major
from casino.core.option_words import choice_titles, describe, none_words, plain, title_of
from casino.rules import schemas as s

JSON = dict[str, Any]


class _Missing:
    """An optional field left empty: left out of the JSON."""

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = _Missing()

#: How many rows a list may be given at most, whatever its schema says (a hand's actions).
MOST_ROWS = 400
YES, NO = "yes", "no"
CARD = re.compile(r"^([2-9TJQKA]|10)([CDHS])$", re.IGNORECASE)


# ---------------------------------------------------------------- money, exactly


def currency_parts() -> tuple[str, str]:
    """What is written before and after an amount's input: ``("$", "")`` for USD,
    ``("", "CHF")`` for a currency without a symbol."""
    code = settings.CURRENCY
    symbol = SYMBOLS.get(code)
    return (symbol, "") if symbol else ("", code)


def major(minor: int) -> str:
    """Minor units as the major-unit text an input shows: ``1250`` -> ``12.50``."""
    return major_text(minor)


def to_minor(text: str) -> int:
    """An amount typed in major units as minor units, exactly (ValueError in words)."""
    return parse_major(text)


def _integer(text: str) -> int:
    cleaned = text.strip().replace(",", "")
    if not re.fullmatch(r"-?[0-9]+", cleaned):
        raise ValueError("not a whole number")
    return int(cleaned)


def _odds(text: str) -> int:
    """``500``, ``500:1`` or ``500 to 1``."""
    cleaned = re.sub(r"\s*(:|to)\s*1\s*$", "", text.strip(), flags=re.IGNORECASE)
    try:
        return _integer(cleaned)
    except ValueError:
        raise ValueError("not odds: write the N of N to 1, like 200") from None


def _decimal(text: str) -> int | float:
    cleaned = text.strip().rstrip("%").strip().replace(",", "")
    try:
        number = Decimal(cleaned)
    except InvalidOperation:
        raise ValueError("not a number") from None
    if not number.is_finite():
        raise ValueError("not a number")
    if number == number.to_integral_value():
        return int(number)
    return float(cleaned)


def _card(text: str) -> str:
    found = CARD.match(text.strip())
    if not found:
        raise ValueError(
            f"{text.strip()!r} is not a card: a rank (2-9, T, J, Q, K, A) and a suit "
            "(c, d, h, s), like Ah"
        )
    rank, suit = found.groups()
    return ("T" if rank == "10" else rank.upper()) + suit.lower()


def _cards(text: str) -> list[str]:
    return [_card(part) for part in re.split(r"[\s,]+", text.strip()) if part]


# ---------------------------------------------------------------- one field


@dataclass
class Field:
    """One labelled input of a form built from a schema, or a group of them.

    ``kind`` says how it is drawn (``templates/desk/floor/_node.html``): ``money``,
    ``odds``, ``percent``, ``count``, ``minutes``, ``number``, ``boolean``, ``choice``,
    ``card``, ``cards``, ``numbers``, ``text``; ``object`` (a group), ``rows`` (a list of
    objects), ``row`` (one of them), ``fixed`` (a value kept as it is, shown in words).
    """

    kind: str
    name: str
    path: str
    label: str
    schema: JSON = field(default_factory=dict)
    help: str = ""
    required: bool = False
    text: str = ""
    value: Any = MISSING
    errors: list[str] = field(default_factory=list)
    children: list[Field] = field(default_factory=list)
    choices: list[tuple[str, str]] = field(default_factory=list)
    before: str = ""
    after: str = ""
    inputmode: str = ""
    #: The value in force, in words (a change form shows it beside the new one).
    current: str | None = None
    #: A list's rows: the row's schema and what one row is called ("band", "action").
    item: JSON = field(default_factory=dict)
    noun: str = ""
    least: int = 0
    most: int = MOST_ROWS
    #: A list of variants (actions): each type's schema.
    variants: dict[str, JSON] = field(default_factory=dict)
    #: The first input of a row just added (it takes the focus).
    fresh: bool = False

    @property
    def id(self) -> str:
        return "f-" + re.sub(r"[^0-9A-Za-z_-]", "-", self.name)

    @property
    def help_id(self) -> str:
        return f"{self.id}-help"

    @property
    def error_id(self) -> str:
        return f"{self.id}-error"

    @property
    def is_group(self) -> bool:
        return self.kind in ("object", "rows", "row")

    @property
    def is_pay_table(self) -> bool:
        return (
            self.kind == "object"
            and bool(self.children)
            and all(child.kind == "odds" for child in self.children)
        )

    @property
    def has_errors(self) -> bool:
        return bool(self.errors) or any(child.has_errors for child in self.children)

    @property
    def described_by(self) -> str:
        ids = [self.help_id] if self.help else []
        if self.errors:
            ids.append(self.error_id)
        return " ".join(ids)

    @property
    def at_least(self) -> bool:
        """A list that may lose no more rows."""
        return len(self.children) <= self.least

    @property
    def full(self) -> bool:
        return len(self.children) >= self.most

    @property
    def row_index(self) -> int:
        return int(self.name.rsplit(".", 1)[1]) if self.kind == "row" else 0

    def walk(self) -> Iterator[Field]:
        yield self
        for child in self.children:
            yield from child.walk()

    def find(self, name: str) -> Field | None:
        for node in self.walk():
            if node.name == name:
                return node
        return None

    def attach(self, path: str, message: str) -> bool:
        """Put ``message`` on the deepest field at or above ``path`` (``rules.rake.bands[1]
        .amount``); False when ``path`` is not this field's or below it."""
        if not _within(path, self.path):
            return False
        for child in self.children:
            if child.attach(path, message):
                return True
        if message not in self.errors:
            self.errors.append(message)
        return True


def _within(path: str, prefix: str) -> bool:
    if not prefix:
        return True
    return path == prefix or path.startswith(prefix + ".") or path.startswith(prefix + "[")


# ---------------------------------------------------------------- building and reading


@dataclass
class _Build:
    """How a form reads: the posted data (None: the form is shown from ``initial``) and
    whether an emptied nullable field means null (rules, limits) or is left out (an
    action's optional field)."""

    data: Mapping[str, Any] | None
    keep_nulls: bool = True
    skip_read_only: bool = True


def _label(schema: Mapping[str, Any], key: str) -> str:
    text = title_of(schema, key)
    return text[:1].upper() + text[1:]


def _help(schema: Mapping[str, Any], *, nullable: bool) -> str:
    text = plain(str(schema.get("description") or ""))
    text = text[:1].upper() + text[1:] if text else ""
    if nullable and schema.get(s.NULL_WORDS):
        empty = f"Leave empty for {none_words(schema)}."
        text = f"{text.rstrip('.')}. {empty}" if text else empty
    elif text and not text.endswith("."):
        text += "."
    return text


def scalar_kind(schema: Mapping[str, Any]) -> str:
    """How a scalar's input is drawn and read, from its type and ``format``."""
    kind = schema.get("type")
    if schema.get("enum"):
        return "choice"
    if kind == "boolean":
        return "boolean"
    if kind == "integer":
        form = schema.get("format")
        return form if form in (s.MONEY, s.ODDS, s.COUNT, s.MINUTES) else "count"
    if kind == "number":
        return "percent" if schema.get("format") == s.PERCENT else "number"
    if kind == "string":
        return "card" if schema.get("pattern") == s.card()["pattern"] else "text"
    if kind == "array":
        items = schema.get("items") or {}
        if items.get("pattern") == s.card()["pattern"]:
            return "cards"
        if items.get("type") in ("integer", "number"):
            return "numbers"
        return "text"
    return "text"


def _text_of(kind: str, schema: Mapping[str, Any], value: Any) -> str:
    """The text an input shows for a JSON value."""
    if value is None or value is MISSING:
        return ""
    if kind == "money" and isinstance(value, int):
        return major(value)
    if kind == "boolean":
        return YES if value else NO
    if kind in ("cards", "numbers") and isinstance(value, list):
        return " ".join(str(part) for part in value)
    if kind == "percent":
        return format(Decimal(str(value)).normalize(), "f")
    return str(value)


def _bounds(schema: Mapping[str, Any], number: int | float, kind: str) -> str | None:
    """Why ``number`` is outside the schema's bounds, in words, or None."""
    least, most = schema.get("minimum"), schema.get("maximum")

    def shown(value: Any) -> str:
        if kind == "money":
            return money(int(value))
        if kind == "odds":
            return f"{value}:1"
        if kind == "percent":
            return f"{value}%"
        return str(value)

    if least is not None and most is not None and not least <= number <= most:
        return f"must be from {shown(least)} to {shown(most)}"
    if least is not None and number < least:
        return f"must be at least {shown(least)}"
    if most is not None and number > most:
        return f"must be at most {shown(most)}"
    return None


def _read_scalar(node: Field, schema: Mapping[str, Any], nullable: bool, build: _Build) -> None:
    """Read ``node.text`` into ``node.value`` (or add the problem, in words)."""
    text = node.text.strip()
    if not text and node.kind in ("cards", "numbers") and not schema.get("minItems"):
        node.value = []  # an emptied list: none (a draw that stands pat)
        return
    if not text:
        if nullable and (build.keep_nulls or node.required):
            node.value = None
        elif node.required:
            node.errors.append("needed")
        else:
            node.value = MISSING
        return
    kind = node.kind
    try:
        if kind == "money":
            value: Any = to_minor(text)
        elif kind == "odds":
            value = _odds(text)
        elif kind in ("count", "minutes"):
            value = _integer(text)
        elif kind in ("percent", "number"):
            value = _decimal(text)
        elif kind == "boolean":
            if text not in (YES, NO):
                raise ValueError("choose yes or no")
            value = text == YES
        elif kind == "choice":
            found = [v for v in schema.get("enum") or () if v is not None and str(v) == text]
            if not found:
                raise ValueError("choose one of the choices")
            value = found[0]
        elif kind == "card":
            value = _card(text)
        elif kind == "cards":
            value = _cards(text)
            least, most = schema.get("minItems"), schema.get("maxItems")
            if least is not None and least == most and len(value) != least:
                raise ValueError(f"give {least} cards, not {len(value)}")
            if least is not None and len(value) < least:
                raise ValueError(f"give at least {least} cards")
            if most is not None and len(value) > most:
                raise ValueError(f"give at most {most} cards")
        elif kind == "numbers":
            value = [_integer(part) for part in re.split(r"[\s,]+", text) if part]
        else:
            value = text
            most = schema.get("maxLength")
            if most is not None and len(text) > most:
                raise ValueError(f"at most {most} characters")
    except ValueError as exc:
        node.errors.append(str(exc))
        return
    if kind in ("money", "odds", "count", "minutes", "percent", "number"):
        wrong = _bounds(schema, value, kind)
        if wrong:
            node.errors.append(wrong)
            return
    node.value = value


def _variants(schema: Mapping[str, Any]) -> dict[str, JSON]:
    """A list's item that is one of several objects told apart by their ``type`` (a hand's
    actions): each type's schema, else {}."""
    found: dict[str, JSON] = {}
    for option in schema.get("oneOf") or schema.get("anyOf") or ():
        kind = ((option.get("properties") or {}).get("type") or {}).get("enum") or []
        if option.get("type") != "object" or len(kind) != 1:
            return {}
        found[str(kind[0])] = option
    return found


def make(
    schema: Mapping[str, Any],
    *,
    name: str,
    path: str,
    key: str = "",
    initial: Any = MISSING,
    required: bool = False,
    build: _Build,
    label: str | None = None,
) -> Field:
    """The field for ``schema`` named ``name`` (the JSON ``path`` its problems come at), shown
    from ``initial`` or read from ``build.data``."""
    schema = dict(schema)
    nullable = bool(schema.get("nullable"))
    kind = schema.get("type")
    shown = label if label is not None else _label(schema, key)
    if kind == "object" and "properties" in schema:
        return _make_object(schema, name=name, path=path, label=shown, initial=initial, build=build)
    if kind == "array" and (
        (schema.get("items") or {}).get("type") == "object" or _variants(schema.get("items") or {})
    ):
        return _make_rows(schema, name=name, path=path, label=shown, initial=initial, build=build)
    if kind == "object":
        # An object without properties cannot be drawn as fields: kept as it is.
        return Field(
            "fixed",
            name,
            path,
            shown,
            schema,
            help="Kept as it is.",
            text=describe(schema, initial if initial is not MISSING else None),
            value=initial,
        )
    node = Field(scalar_kind(schema), name, path, shown, schema, required=required)
    node.help = _help(schema, nullable=nullable and node.kind != "choice")
    if node.kind == "money":
        node.before, node.after = currency_parts()
        node.inputmode = "decimal"
    elif node.kind == "odds":
        node.after, node.inputmode = "to 1", "numeric"
    elif node.kind == "percent":
        node.after, node.inputmode = "%", "decimal"
    elif node.kind == "minutes":
        node.after, node.inputmode = "minutes", "numeric"
    elif node.kind in ("count", "number"):
        node.inputmode = "numeric" if node.kind == "count" else "decimal"
    elif node.kind == "boolean":
        node.choices = [(YES, "Yes"), (NO, "No")]
    elif node.kind == "choice":
        node.choices = [
            (str(value), words[:1].upper() + words[1:])
            for value, words in choice_titles(schema).items()
        ]
        if nullable:
            empty = none_words(schema)
            node.choices.insert(0, ("", empty[:1].upper() + empty[1:]))
    if build.data is None:
        node.text = _text_of(node.kind, schema, initial)
        node.value = initial
    else:
        node.text = str(build.data.get(name, ""))
        _read_scalar(node, schema, nullable, build)
    if node.choices and node.text not in {value for value, _ in node.choices}:
        node.choices.insert(0, ("", "Choose…"))  # nothing chosen yet: the person chooses
    return node


def _make_object(
    schema: JSON, *, name: str, path: str, label: str, initial: Any, build: _Build
) -> Field:
    node = Field("object", name, path, label, schema)
    node.help = _help(schema, nullable=False)
    required = set(schema.get("required") or ())
    values = initial if isinstance(initial, Mapping) else {}
    out: JSON = {}
    for key, prop in (schema.get("properties") or {}).items():
        if build.skip_read_only and prop.get("readOnly"):
            continue
        if key == "type" and len(prop.get("enum") or ()) == 1:
            out[key] = prop["enum"][0]  # a variant's type: chosen by its row
            continue
        child = make(
            prop,
            name=f"{name}.{key}" if name else key,
            path=f"{path}.{key}" if path else key,
            key=key,
            initial=values.get(key, MISSING),
            required=key in required,
            build=build,
        )
        node.children.append(child)
        if child.value is not MISSING:
            out[key] = child.value
    node.value = out
    return node


def _row_label(schema: JSON, index: int) -> str:
    noun = title_of(schema.get("items") or {}, "") or "row"
    return f"{noun[:1].upper()}{noun[1:]} {index + 1}"


def _make_rows(
    schema: JSON, *, name: str, path: str, label: str, initial: Any, build: _Build
) -> Field:
    item = dict(schema.get("items") or {})
    variants = _variants(item)
    node = Field(
        "rows",
        name,
        path,
        label,
        schema,
        item=item,
        variants=variants,
        least=int(schema.get("minItems") or 0),
        most=min(int(schema.get("maxItems") or MOST_ROWS), MOST_ROWS),
    )
    node.noun = title_of(item, "") or ("action" if variants else "row")
    node.help = _help(schema, nullable=False)
    rows = initial if isinstance(initial, list) else []
    if build.data is None:
        count = len(rows)
    else:
        try:
            count = max(0, min(int(str(build.data.get(f"{name}.rows", "0"))), MOST_ROWS))
        except ValueError:
            count = 0
    values = []
    for index in range(count):
        row = make_row(
            node,
            index,
            initial=rows[index] if index < len(rows) else MISSING,
            build=build,
        )
        node.children.append(row)
        values.append(row.value)
    node.value = values
    return node


def make_row(rows: Field, index: int, *, initial: Any, build: _Build) -> Field:
    """Row ``index`` of the list ``rows``: an object, or a variant (its type first, then that
    type's fields)."""
    name, path = f"{rows.name}.{index}", f"{rows.path}[{index}]"
    label = f"{rows.noun[:1].upper()}{rows.noun[1:]} {index + 1}"
    if not rows.variants:
        row = make(rows.item, name=name, path=path, initial=initial, build=build, label=label)
        row.kind = "row" if row.kind == "object" else row.kind
        return row
    chosen = initial.get("type") if isinstance(initial, Mapping) else None
    if build.data is not None:
        chosen = build.data.get(f"{name}.type", chosen)
    chosen = str(chosen) if chosen is not None else ""
    type_schema = s.choice(
        list(rows.variants),
        "what happened",
        titles={kind: s.words(kind) for kind in rows.variants},
        title="type",
    )
    type_field = make(
        type_schema,
        name=f"{name}.type",
        path=f"{path}.type",
        key="type",
        initial=chosen or MISSING,
        required=True,
        build=_Build(None),
    )
    type_field.text = chosen
    row = Field("row", name, path, label, rows.item, children=[type_field])
    schema = rows.variants.get(chosen)
    if schema is None:
        if build.data is not None:
            type_field.errors.append("choose what happened")
        row.value = {}
        return row
    body = make(schema, name=name, path=path, initial=initial, build=build, label=label)
    row.children.extend(body.children)
    row.value = {"type": chosen, **{k: v for k, v in (body.value or {}).items() if k != "type"}}
    row.help = body.help
    return row


# ---------------------------------------------------------------- a form


class SchemaForm:
    """The fields of one schema under one name (``limits``, ``rules``, ``actions``), shown
    from a value or read from a posted form. ``value`` is the JSON read; ``valid`` says no
    field has a problem."""

    def __init__(
        self,
        schema: Mapping[str, Any],
        initial: Any = MISSING,
        *,
        name: str,
        path: str | None = None,
        data: Mapping[str, Any] | None = None,
        keep_nulls: bool = True,
        skip_read_only: bool = True,
        label: str | None = None,
    ) -> None:
        self.schema = dict(schema)
        self.initial = initial
        self.name = name
        self.build = _Build(data, keep_nulls, skip_read_only)
        self.root = make(
            self.schema,
            name=name,
            path=name if path is None else path,
            initial=initial,
            build=self.build,
            label=label,
        )

    @property
    def value(self) -> Any:
        return self.root.value

    @property
    def valid(self) -> bool:
        return not self.root.has_errors

    @property
    def fields(self) -> list[Field]:
        """The top-level fields (an object's properties), or the one field."""
        return self.root.children if self.root.kind == "object" else [self.root]

    def attach(self, path: str, message: str) -> bool:
        return self.root.attach(path, message)

    def clear_errors(self) -> None:
        """Forget what reading found wrong (a form coming back from a list edit is still
        being filled in)."""
        for node in self.root.walk():
            node.errors.clear()

    def edit(self, operation: str) -> bool:
        """Apply a list edit a button asked for: ``add:<list>``, ``insert:<row>``,
        ``remove:<row>``, ``up:<row>`` (names as the inputs have them). True when applied."""
        verb, _, target = operation.partition(":")
        if verb == "add":
            rows = self.root.find(target)
            if rows is None or rows.kind != "rows" or rows.full:
                return False
            index = len(rows.children)
            row = make_row(rows, index, initial=MISSING, build=_Build(None))
            _focus(row)
            rows.children.append(row)
            return True
        parent_name, _, index_text = target.rpartition(".")
        rows = self.root.find(parent_name)
        if rows is None or rows.kind != "rows" or not index_text.isdigit():
            return False
        index = int(index_text)
        if index >= len(rows.children):
            return False
        if verb == "remove":
            if rows.at_least:
                return False
            del rows.children[index]
        elif verb == "up":
            if index == 0:
                return False
            rows.children[index - 1], rows.children[index] = (
                rows.children[index],
                rows.children[index - 1],
            )
        elif verb == "insert":
            if rows.full:
                return False
            row = make_row(rows, index, initial=MISSING, build=_Build(None))
            _focus(row)
            rows.children.insert(index, row)
        else:
            return False
        _renumber(rows)
        return True


def _focus(row: Field) -> None:
    """A row just added takes the focus on its first input."""
    for node in row.walk():
        if not node.is_group:
            node.fresh = True
            return


def _renumber(rows: Field) -> None:
    """Name every row by its new place (``actions.3``), its fields with it."""
    for index, row in enumerate(rows.children):
        old_name, old_path = row.name, row.path
        new_name, new_path = f"{rows.name}.{index}", f"{rows.path}[{index}]"
        for node in row.walk():
            node.name = new_name + node.name[len(old_name) :]
            node.path = new_path + node.path[len(old_path) :]
        row.label = f"{rows.noun[:1].upper()}{rows.noun[1:]} {index + 1}"


def editing(data: Mapping[str, Any]) -> str:
    """The list edit a posted form asks for (its ``_edit`` button), or ''."""
    return str(data.get("_edit", ""))


def with_current(form: SchemaForm, current: Mapping[str, Any]) -> None:
    """Show beside each top-level field the value in force, in words (a change form)."""
    for node in form.fields:
        key = node.name.rsplit(".", 1)[-1]
        node.current = describe(node.schema, current.get(key))


def differs(new: Any, old: Any) -> bool:
    """Whether a value read from a form changes one in force (``5`` and ``5.0`` are one)."""
    if isinstance(new, bool) or isinstance(old, bool):
        return new is not old if isinstance(new, bool) and isinstance(old, bool) else True
    if isinstance(new, int | float) and isinstance(old, int | float):
        return Decimal(str(new)) != Decimal(str(old))
    if isinstance(new, dict) and isinstance(old, dict):
        return set(new) != set(old) or any(differs(new[k], old[k]) for k in new)
    if isinstance(new, list) and isinstance(old, list):
        return len(new) != len(old) or any(differs(a, b) for a, b in zip(new, old, strict=True))
    return bool(new != old)


def pay_table_rows(node: Field) -> Sequence[Field]:
    return node.children if node.is_pay_table else ()
