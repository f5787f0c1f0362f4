"""One JSON action decoder for every game, driven by the game's action table.

A game declares its hand actions once, as an :class:`ActionTable`: for each action type, its
fields (each with a :class:`Kind`: a seat, a card, a list of cards, an amount, a hand index or
a choice among values, required or optional) and a description. From that one table:

* :func:`decode` reads a JSON action into a :class:`Decoded` (its type and its typed values:
  :class:`~casino.rules.cards.Card` objects for cards, ``int`` for seats, amounts and hand
  indexes), reporting every problem with the envelope at once: not an object, an unknown type
  (naming the types), unknown fields, missing required fields, values of the wrong kind or
  outside the kind's bounds;
* :func:`schemas` writes each action's JSON schema (OpenAPI 3.0 dialect, with the builders of
  :mod:`casino.rules.schemas`), which the API document shows.

So what the document says an action looks like is exactly what the engine reads. Whether an
action is legal now (whose turn, the betting bounds, a card already seen, the chip multiple,
the clause it breaks) is the game's business, once the action is decoded.

Messages name the acting seat first (``seat 4: ...``) when it can be read, so a dealer sees
whose action was refused. Problems carry their path inside the action (``to``,
``receive[2]``); a hand reports them all at ``action`` (live) or ``actions[3]`` (replayed)
with :func:`~casino.rules.errors.reported_at` and :func:`~casino.rules.errors.action_path`.

Null: an optional field is nullable unless said otherwise, and null means the field is left
out (what every engine has always read, so stored hands replay). A required field must be
given; it may be null only when declared ``nullable``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from . import schemas as s
from .cards import _SPELLED as _SPELLED_CARDS
from .cards import Card, parse_card, read_cards
from .errors import Problems, RuleError
from .messages import Message, Money, _, either, msg, prefixed, seat_words
from .options import MAX_AMOUNT, beyond_maximum, is_int
from .quick import quick_init

JSON = dict[str, Any]

#: The highest seat number an action may name (the API document's bound on every seat).
MAX_SEAT = 99
#: The longest text of a refused value a message repeats (longer values are cut short).
SHOWN = 60


class Kind(StrEnum):
    SEAT = "seat"  # a seat number, 1 to MAX_SEAT
    CARD = "card"  # one card: 'Ah'
    CARDS = "cards"  # a list of cards, optionally with a least and a most count
    AMOUNT = "amount"  # whole minor units from a minimum (1 unless told) to MAX_AMOUNT
    HAND = "hand"  # a hand index from 0, optionally with a most
    CHOICE = "choice"  # one of a few words


@dataclass(frozen=True, slots=True)
class Field:
    """One field of an action: its kind, what it is (``description``, shown in the API
    document and in messages: "a raise needs 'to', <description> as a whole number"), whether
    it must be given, whether null is accepted, and the kind's bounds."""

    kind: Kind
    description: str
    required: bool = True
    nullable: bool = False
    least: int | None = None  # amount: the minimum; cards: the fewest cards
    most: int | None = None  # cards: the most cards; hand: the highest index
    values: tuple[str, ...] = ()  # choice: the words allowed

    def __post_init__(self) -> None:
        if self.kind is Kind.CHOICE and not self.values:
            raise ValueError("a choice field needs the values it allows")
        if self.kind is Kind.AMOUNT and (self.least is None or self.least < 0):
            raise ValueError("an amount field needs a minimum of 0 or more")


def _nullable(required: bool, nullable: bool | None) -> bool:
    return not required if nullable is None else nullable


def seat(
    description: str = _("the seat that acts"),
    *,
    required: bool = True,
    nullable: bool | None = None,
) -> Field:
    """A seat number from 1 to :data:`MAX_SEAT`."""
    return Field(Kind.SEAT, description, required, _nullable(required, nullable))


def card(description: str, *, required: bool = True, nullable: bool | None = None) -> Field:
    """One card, such as ``"Ah"`` (read by :func:`~casino.rules.cards.parse_card`)."""
    return Field(Kind.CARD, description, required, _nullable(required, nullable))


def cards(
    description: str,
    *,
    least: int | None = None,
    most: int | None = None,
    required: bool = True,
    nullable: bool | None = None,
) -> Field:
    """A list of cards, with ``least`` and ``most`` cards if given."""
    return Field(Kind.CARDS, description, required, _nullable(required, nullable), least, most)


def amount(
    description: str,
    *,
    minimum: int = 1,
    required: bool = True,
    nullable: bool | None = None,
) -> Field:
    """Whole minor units from ``minimum`` to :data:`~casino.rules.options.MAX_AMOUNT` (the
    smallest chip and the game's bounds are the game's to check)."""
    return Field(Kind.AMOUNT, description, required, _nullable(required, nullable), minimum)


def hand(
    description: str,
    *,
    most: int | None = None,
    required: bool = False,
    nullable: bool | None = None,
) -> Field:
    """A hand index from 0 (to ``most`` if given)."""
    return Field(Kind.HAND, description, required, _nullable(required, nullable), most=most)


def choice(
    values: Sequence[str],
    description: str,
    *,
    required: bool = True,
    nullable: bool | None = None,
) -> Field:
    """One of ``values``."""
    return Field(
        Kind.CHOICE, description, required, _nullable(required, nullable), values=tuple(values)
    )


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One action type: its fields in the order the document lists them, and what it does."""

    fields: Mapping[str, Field]
    description: str = ""


class ActionTable(Mapping[str, ActionSpec]):
    """A game's hand actions by type, in the order messages name them.

    ``actor`` is the field naming the seat that acts (``seat``): every action has it, it is a
    required seat, and messages start with it (``seat 4: ...``) once it can be read.
    """

    def __init__(self, actions: Mapping[str, ActionSpec], *, actor: str | None = "seat") -> None:
        if not actions:
            raise ValueError("an action table needs at least one action")
        for kind, spec in actions.items():
            if "type" in spec.fields:
                raise ValueError(f"{kind}: 'type' is the action's type, not one of its fields")
            if actor is not None:
                found = spec.fields.get(actor)
                if found is None or found.kind is not Kind.SEAT or not found.required:
                    raise ValueError(f"{kind}: the actor {actor!r} must be a required seat field")
        self._actions = {str(kind): spec for kind, spec in actions.items()}
        self.actor = actor
        self._known = {
            kind: frozenset(("type", *spec.fields)) for kind, spec in self._actions.items()
        }
        #: Per type: its known keys, each field but the actor as the quick path reads it, and
        #: the fields' order when the actor is not the first (:func:`decode`'s quick path).
        self._quick: dict[
            str, tuple[frozenset[str], tuple[_QuickField, ...], tuple[str, ...] | None]
        ] = {
            kind: (
                self._known[kind],
                tuple(
                    _quick_field(name, declared)
                    for name, declared in spec.fields.items()
                    if name != actor
                ),
                None if actor is None or next(iter(spec.fields)) == actor else tuple(spec.fields),
            )
            for kind, spec in self._actions.items()
        }

    def __getitem__(self, kind: str) -> ActionSpec:
        return self._actions[kind]

    def spec(self, kind: str) -> ActionSpec | None:
        """The action type ``kind``, or None (``get`` without the Mapping's detour)."""
        return self._actions.get(kind)

    def known(self, kind: str) -> frozenset[str]:
        """The keys an action of type ``kind`` may have: ``type`` and its fields."""
        return self._known[kind]

    def __iter__(self) -> Iterator[str]:
        return iter(self._actions)

    def __len__(self) -> int:
        return len(self._actions)

    def __repr__(self) -> str:
        return f"ActionTable({', '.join(self._actions)})"

    @property
    def example(self) -> str:
        """A short action for messages: the first type that needs nothing but the actor."""
        alone = [self.actor] if self.actor else []
        kind = next(
            (
                kind
                for kind, spec in self._actions.items()
                if [name for name, f in spec.fields.items() if f.required] == alone
            ),
            next(iter(self._actions)),
        )
        return f'{{"type": "{kind}", "{self.actor}": 3}}' if self.actor else f'{{"type": "{kind}"}}'


@quick_init
@dataclass(frozen=True, slots=True)
class Decoded:
    """A decoded action: its ``type`` and the typed value of each of its fields (None for an
    optional field left out or null; an optional list of cards left out is empty)."""

    type: str
    values: Mapping[str, object] = field(default_factory=dict)
    actor: str | None = "seat"

    @property
    def seat(self) -> int:
        """The seat that acts."""
        actor = self.actor
        if actor is None:
            raise LookupError("this action table names no seat that acts")
        return self.number(actor)

    def _value(self, name: str) -> object:
        try:
            return self.values[name]
        except KeyError:
            raise LookupError(f"a {self.type} action has no field {name!r}") from None

    def number(self, name: str) -> int:
        """A seat, amount or hand index that was given."""
        value = self._value(name)
        if type(value) is int:
            return value
        if value is None:
            raise LookupError(f"{name!r} was not given in this {self.type} action")
        assert is_int(value), name
        return value

    def number_or_none(self, name: str) -> int | None:
        value = self._value(name)
        assert value is None or is_int(value), name
        return value

    def card(self, name: str) -> Card:
        value = self.card_or_none(name)
        if value is None:
            raise LookupError(f"{name!r} was not given in this {self.type} action")
        return value

    def card_or_none(self, name: str) -> Card | None:
        value = self._value(name)
        assert value is None or isinstance(value, Card), name
        return value

    def cards(self, name: str) -> tuple[Card, ...]:
        value = self._value(name)
        if value is None:
            return ()
        assert isinstance(value, tuple), name
        return value

    def text(self, name: str) -> str:
        """A choice's word that was given."""
        value = self.text_or_none(name)
        if value is None:
            raise LookupError(f"{name!r} was not given in this {self.type} action")
        return value

    def text_or_none(self, name: str) -> str | None:
        value = self._value(name)
        assert value is None or isinstance(value, str), name
        return value


# ---------------------------------------------------------------- decoding


def decode(action: object, table: ActionTable) -> Decoded:
    """Read one JSON action by ``table``; a RuleError naming every problem otherwise."""
    if type(action) is not dict:
        return _decode(action, table)
    # the quick path (see below), written out here: a call fewer an action
    kind = action.get("type")
    if type(kind) is not str:
        return _decode(action, table)
    found = table._quick.get(kind)
    if found is None:
        return _decode(action, table)
    known, fields, order = found
    if not known.issuperset(action):
        return _decode(action, table)
    actor = table.actor
    values: dict[str, object] = {}
    if actor is not None:
        seat = action.get(actor)
        if type(seat) is not int or not 1 <= seat <= MAX_SEAT:
            return _decode(action, table)
        values[actor] = seat
    for name, low, high, required, nullable, reader in fields:
        value = action.get(name, _SLOW)
        if value is _SLOW:  # left out: None where _read accepts that quietly
            if required:
                return _decode(action, table)
            values[name] = None
        elif value is None:  # null: None where nullable
            if not nullable:
                return _decode(action, table)
            values[name] = None
        elif low is not None:  # a whole number within the kind's bounds
            if type(value) is not int or not low <= value <= high:
                return _decode(action, table)
            values[name] = value
        else:
            read = reader(value)
            if read is _SLOW:
                return _decode(action, table)
            values[name] = read
    if order is not None:  # the values in the order of the spec's fields, as _decode has them
        values = {name: values[name] for name in order}
    return Decoded(kind, values, actor)


# ---------------------------------------------------------------- the quick path
#
# A replay decodes every action of every stored hand, nearly always well formed. The quick
# path (in :func:`decode`) reads such an action with no message, problem list or per-field
# call chain: each field is described once per action table (:func:`_quick_field`: a whole
# number's bounds, or a reader that returns the value :func:`_read` would), and anything it
# would not simply accept (left out where required, null where not nullable, of the wrong
# kind, out of bounds, an unusual spelling, an unknown key, an actor that is not a seat)
# sends the action to :func:`_decode`, which reads it again and names every problem: so what
# is decoded, and every refusal, is exactly :func:`_decode`'s.

_SLOW: Any = object()
_Quick = Callable[[Any], Any]
#: A field as the quick path reads it: its name, its bounds when it is a whole number (a seat,
#: a hand index, an amount; else None, None), whether it is required and nullable, and the
#: reader of a value of another kind that is given and not null.
_QuickField = tuple[str, int | None, int, bool, bool, _Quick]


def _quick_field(name: str, declared: Field) -> _QuickField:
    """How :func:`decode`'s quick path reads ``declared``: what :func:`_read` gives for a
    plainly good value of it, ``_SLOW`` for anything else."""
    kind, most = declared.kind, declared.most
    required, nullable = declared.required, declared.nullable
    if kind is Kind.SEAT:
        return name, 1, MAX_SEAT, required, nullable, _never
    if kind is Kind.HAND:  # (an index beyond MAX_AMOUNT with no most is read the long way)
        return name, 0, MAX_AMOUNT if most is None else most, required, nullable, _never
    if kind is Kind.AMOUNT:
        least = declared.least if declared.least is not None else 1
        return name, least, MAX_AMOUNT, required, nullable, _never
    if kind is Kind.CARD:

        def card(value: Any) -> Any:
            return _SPELLED_CARDS.get(value, _SLOW) if type(value) is str else _SLOW

        return name, None, 0, required, nullable, card
    if kind is Kind.CARDS:
        fewest = declared.least

        def cards(value: Any) -> Any:
            if type(value) is not list:
                return _SLOW
            count = len(value)
            if (fewest is not None and count < fewest) or (most is not None and count > most):
                return _SLOW
            read = read_cards(value)
            return _SLOW if read is None else tuple(read)

        return name, None, 0, required, nullable, cards
    words = declared.values

    def choice(value: Any) -> Any:
        return value if type(value) is str and value in words else _SLOW

    return name, None, 0, required, nullable, choice


def _never(value: Any) -> Any:
    """The reader of a whole-number field, never called (its bounds decide)."""
    return _SLOW


def _decode(action: object, table: ActionTable) -> Decoded:
    """:func:`decode`, reading every field and naming every problem."""
    if type(action) is not dict and not isinstance(action, Mapping):
        raise RuleError(
            msg(_("an action must be an object such as %(example)s"), example=table.example)
        )
    problems = Problems()
    raw_type = action.get("type")
    spec = table.spec(raw_type) if isinstance(raw_type, str) else None
    who = ""
    if table.actor is not None:
        value = action.get(table.actor)
        if _is_seat(value):
            who = seat_words(value)
        else:
            actor = (spec or next(iter(table.values()))).fields[table.actor]
            problems.add(
                table.actor,
                msg(
                    _("an action needs %(field)s (a seat number), got %(value)s"),
                    field=Message(actor.description),
                    value=_shown(value),
                ),
            )
    if spec is None:
        problems.add(
            "type",
            prefixed(
                who,
                msg(
                    _("unknown action type %(value)s: use %(types)s"),
                    value=_shown(raw_type),
                    types=either(list(table)),
                ),
            ),
        )
        problems.raise_if_any()
    assert spec is not None and isinstance(raw_type, str)
    if not table.known(raw_type).issuperset(action):
        for key in action:
            if key != "type" and key not in spec.fields:
                problems.add(
                    str(key),
                    prefixed(
                        who,
                        msg(
                            _("unknown field %(key)s in a %(kind)s action"),
                            key=_key(key),
                            kind=raw_type,
                        ),
                    ),
                )
    values: dict[str, object] = {}
    for name, declared in spec.fields.items():
        if name == table.actor:
            values[name] = action.get(name) if who else None
            continue
        values[name] = _read(action, name, declared, who, raw_type, problems)
    problems.raise_if_any()
    return Decoded(raw_type, values, table.actor)


class _Where(NamedTuple):
    """Who acts, in which type of action, and the field read: the words of a message."""

    who: str
    kind: str
    name: str

    def says(self, template: str, **params: Any) -> str:
        """``template`` (its ``kind`` and ``name`` filled in) said of the seat that acts."""
        return prefixed(self.who, msg(template, kind=self.kind, name=self.name, **params))


def _read(
    action: Mapping[str, Any],
    name: str,
    declared: Field,
    who: str,
    kind: str,
    problems: Problems,
) -> object:
    """The typed value of one field (None when left out, null or refused); ``who`` acts in
    an action of type ``kind`` (the words of a message, :class:`_Where`)."""
    value = action.get(name)
    if value is None:
        if declared.required and (name not in action or not declared.nullable):
            problems.add(name, _missing(declared, _Where(who, kind, name)))
        elif name in action and not declared.nullable:
            problems.add(name, _wrong(declared, _Where(who, kind, name), value))
        return None
    field_kind = declared.kind
    if field_kind is Kind.AMOUNT:
        return _amount(value, name, declared, who, kind, problems)
    if field_kind is Kind.CARDS:
        return _cards(value, name, declared, who, kind, problems)
    if field_kind is Kind.CARD:
        try:
            return parse_card(value)
        except RuleError as error:
            problems.add(name, _in(who, error.problems[0].message, name))
            return None
    if field_kind is Kind.CHOICE:
        if value in declared.values:
            return value
    elif _whole_in(value, declared):
        return value
    problems.add(name, _wrong(declared, _Where(who, kind, name), value))
    return None


def _in(who: str, problem: str, name: str) -> str:
    """``seat 4: <problem> (in receive)``."""
    return prefixed(who, msg(_("%(problem)s (in %(name)s)"), problem=problem, name=name))


def _whole_in(value: object, declared: Field) -> bool:
    """A seat or hand index within the kind's bounds."""
    if declared.kind is Kind.SEAT:
        return _is_seat(value)
    return is_int(value) and value >= 0 and (declared.most is None or value <= declared.most)


def _missing(declared: Field, where: _Where) -> str:
    if declared.kind in (Kind.CARD, Kind.CARDS):
        return where.says(
            _("a %(kind)s needs '%(name)s', %(field)s"), field=Message(declared.description)
        )
    return _wrong(declared, where, None)


def _wrong(declared: Field, where: _Where, value: object) -> str:
    """The message for a value of the wrong kind (or out of a seat's or hand's range)."""
    got = _shown(value)
    field = Message(declared.description)
    if declared.kind is Kind.SEAT:
        return where.says(
            _("a %(kind)s needs '%(name)s', %(field)s (a seat number), got %(value)s"),
            field=field,
            value=got,
        )
    if declared.kind is Kind.HAND:
        if declared.most is not None:
            return where.says(
                _(
                    "a %(kind)s needs '%(name)s', %(field)s (a hand number from 0 to "
                    "%(most)s), got %(value)s"
                ),
                field=field,
                most=declared.most,
                value=got,
            )
        return where.says(
            _("a %(kind)s needs '%(name)s', %(field)s (a hand number from 0), got %(value)s"),
            field=field,
            value=got,
        )
    if declared.kind is Kind.AMOUNT:
        return where.says(
            _("a %(kind)s needs '%(name)s', %(field)s as a whole number, got %(value)s"),
            field=field,
            value=got,
        )
    if declared.kind is Kind.CHOICE:
        words = either([f"'{word}'" for word in declared.values])
        return where.says(
            _("a %(kind)s's %(name)s is %(choices)s, got %(value)s"), choices=words, value=got
        )
    if declared.kind is Kind.CARD:
        return where.says(_("unknown card %(value)s (in %(name)s)"), value=got)
    return where.says(_("cards must be a list of cards such as ['Ah', 'Td'] (in %(name)s)"))


def _amount(
    value: object, name: str, declared: Field, who: str, kind: str, problems: Problems
) -> int | None:
    where = _Where(who, kind, name)
    if not is_int(value):
        problems.add(name, _wrong(declared, where, value))
        return None
    least = declared.least if declared.least is not None else 1
    if value < least:
        problems.add(
            name,
            where.says(
                _("a %(kind)s's '%(name)s' must be at least %(least)s, got %(value)s"),
                least=Money(least),
                value=Money(value),
            ),
        )
        return None
    if not -MAX_AMOUNT <= value <= MAX_AMOUNT:
        whose = msg(_("a %(kind)s's '%(name)s'"), kind=kind, name=name)
        too_big = beyond_maximum(value, whose)
        assert too_big is not None
        problems.add(name, prefixed(who, too_big))
        return None
    return value


def _cards(
    value: object, name: str, declared: Field, who: str, kind: str, problems: Problems
) -> tuple[Card, ...] | None:
    if type(value) is not list and (
        isinstance(value, str | bytes) or not isinstance(value, Sequence)
    ):
        problems.add(name, _wrong(declared, _Where(who, kind, name), value))
        return None
    bad = False
    read = read_cards(value)
    if read is None:
        read = []
        for index, text in enumerate(value):
            try:
                read.append(parse_card(text))
            except RuleError as error:
                bad = True
                problems.add(f"{name}[{index}]", _in(who, error.problems[0].message, name))
    count, least, most = len(value), declared.least, declared.most
    wrong_count: str | None = None
    if least is not None and least == most and count != least:
        wrong_count = (
            msg(_("1 card needed, got %(got)s"), got=count)
            if least == 1
            else msg(_("%(count)s cards needed, got %(got)s"), count=least, got=count)
        )
    elif least is not None and count < least:
        wrong_count = (
            msg(_("at least 1 card needed, got %(got)s"), got=count)
            if least == 1
            else msg(_("at least %(count)s cards needed, got %(got)s"), count=least, got=count)
        )
    elif most is not None and count > most:
        wrong_count = (
            msg(_("at most 1 card allowed, got %(got)s"), got=count)
            if most == 1
            else msg(_("at most %(count)s cards allowed, got %(got)s"), count=most, got=count)
        )
    if wrong_count is not None:
        problems.add(name, _in(who, wrong_count, name))
    return None if bad or wrong_count else tuple(read)


def _is_seat(value: object) -> bool:
    return is_int(value) and 1 <= value <= MAX_SEAT


def _shown(value: object) -> str:
    """``repr(value)``, cut short for a long value."""
    text = repr(value)
    return text if len(text) <= SHOWN else f"{text[: SHOWN - 3]}..."


def _key(key: object) -> str:
    text = str(key)
    return f"'{text}'" if len(text) <= SHOWN else f"'{text[: SHOWN - 3]}...'"


# ---------------------------------------------------------------- schemas


def field_schema(declared: Field) -> JSON:
    """One field's JSON schema (OpenAPI 3.0 dialect)."""
    text = declared.description
    schema: JSON
    if declared.kind is Kind.SEAT:
        schema = s.seat(text)
        schema["maximum"] = MAX_SEAT
    elif declared.kind is Kind.CARD:
        schema = s.card(text)
    elif declared.kind is Kind.CARDS:
        schema = s.cards(text, least=declared.least, most=declared.most)
    elif declared.kind is Kind.AMOUNT:
        schema = s.amount(text, minimum=declared.least if declared.least is not None else 1)
    elif declared.kind is Kind.HAND:
        schema = {"type": "integer", "minimum": 0, "description": text}
        if declared.most is not None:
            schema["maximum"] = declared.most
    else:
        schema = s.choice(declared.values, text)
    if declared.nullable:
        schema = s.nullable(schema)
        if "enum" in schema:
            schema["enum"] = [*schema["enum"], None]
    return schema


def schemas(table: ActionTable) -> dict[str, JSON]:
    """Each action's JSON schema by type: ``{"type": kind, ...fields}``, no other field."""
    return {
        kind: s.action(
            kind,
            {name: field_schema(declared) for name, declared in spec.fields.items()},
            required=[name for name, declared in spec.fields.items() if declared.required],
            description=spec.description,
        )
        for kind, spec in table.items()
    }
