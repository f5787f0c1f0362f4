"""The floor's forms, built from the games' schemas field by field (``schema_fields``): a new
table, a limit or rule change, a hand's correction. Nothing on them is JSON: amounts are typed
in the house currency, odds as "N to 1", choices by their titles; the services judge."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casino.core.option_words import CHIP_SCHEMA, describe
from casino.rules import schemas as s
from casino.rules.contract import Game
from casino.rules.errors import Problem
from tables.models import Hand, Table

from .schema_fields import MISSING, Field, SchemaForm, differs, with_current
from .selectors import dealers

#: The smallest chip is at most this (README, "Limits on input").
LARGEST_CHIP = 10**9
NAME_LENGTH = 100
REASON_LENGTH = 500


def _limits_schema(game: Game) -> dict[str, Any]:
    return {**game.limits_schema, "title": "limits"}


def rules_schema(game: Game) -> dict[str, Any]:
    """The game's rules, each option a table sets from elsewhere (its limits, its smallest
    chip) read-only even where the game's schema does not say so (a schema made from the
    defaults alone)."""
    table_set = {*game.limit_fields, "smallest_chip"}
    properties = {
        key: {**prop, "readOnly": True} if key in table_set else prop
        for key, prop in (game.rules_schema.get("properties") or {}).items()
    }
    return {**game.rules_schema, "properties": properties, "title": "rules"}


def _chip_schema() -> dict[str, Any]:
    return {**CHIP_SCHEMA, "maximum": LARGEST_CHIP}


class PlacedProblems:
    """Refusals placed next to their fields; what no field is about stays for the page."""

    def __init__(self, form: SchemaForm, limit_fields: tuple[str, ...]) -> None:
        self.form = form
        self.limit_fields = limit_fields
        self.unplaced: list[str] = []

    def place(self, problem: Problem, text: str) -> None:
        """A limit's problem may come at the limit (``ante_max``), under ``limits.`` or,
        from the rules a hand freezes, under ``rules.`` (``rules.ante_max``)."""
        path = problem.path
        head = path.split(".", 1)[0].split("[", 1)[0]
        tail = path.split(".", 1)[1] if "." in path else ""
        candidates = [path]
        if head == "rules" and tail.split(".", 1)[0] in (*self.limit_fields, "smallest_chip"):
            key = tail.split(".", 1)[0]
            candidates.insert(0, key if key == "smallest_chip" else f"limits.{key}")
        if head in self.limit_fields:
            candidates.insert(0, f"limits.{path}")
        if head == "changes" and tail:
            candidates.append(tail)
        for candidate in candidates:
            if candidate and self._attach(candidate, text):
                return
        if text not in self.unplaced:
            self.unplaced.append(text)

    def _attach(self, path: str, text: str) -> bool:
        """Only on a field that is the path's own or an ancestor below the form's root."""
        return any(node.attach(path, text) for node in self.form.fields)


# ---------------------------------------------------------------- a new table


def table_schema(game: Game) -> dict[str, Any]:
    """The new-table form: the table's own fields, then the game's limits and rules."""
    least = max(2, game.min_players)
    people = list(dealers())
    dealer = s.choice(
        [user.pk for user in people],
        "the dealer who records this table's hands on the tablet",
        titles={user.pk: user.get_username() for user in people},
        title="dealer",
    )
    if not people:
        dealer = {"type": "integer", "title": "dealer", "enum": []}
    return s.obj(
        {
            "name": {
                "type": "string",
                "title": "table name",
                "maxLength": NAME_LENGTH,
                "description": "as the floor calls it, e.g. HCF-2",
            },
            "seat_count": s.count(
                "seats", f"from {least} to {game.max_seats}", least=least, most=game.max_seats
            ),
            "smallest_chip": _chip_schema(),
            "dealer": s.nullable(dealer, "nobody yet"),
            "limits": _limits_schema(game),
            "rules": rules_schema(game),
        },
        required=["name", "seat_count", "smallest_chip"],
    )


class NewTableForm:
    """A table of ``game``: name, seats, smallest chip and dealer, then the game's limits
    and its rules (prefilled with the game's defaults). ``table_create`` judges."""

    def __init__(self, game: Game, data: Mapping[str, Any] | None = None) -> None:
        self.game = game
        self.defaults = game.default_rules()
        demo = game.demo_table or {}
        initial = {
            "seat_count": demo.get("seat_count") or game.max_seats,
            "smallest_chip": demo.get("smallest_chip") or 1,
            "dealer": None,
            "limits": {},
            "rules": self.defaults,
        }
        self.form = SchemaForm(table_schema(game), initial, name="", path="", data=data)
        self.placed = PlacedProblems(self.form, game.limit_fields)
        dealer = self.form.root.find("dealer")
        if dealer is not None:  # usernames as they are written
            names = {str(user.pk): user.get_username() for user in dealers()}
            dealer.choices = [(value, names.get(value, words)) for value, words in dealer.choices]

    def field(self, key: str) -> Field:
        found = self.form.root.find(key)
        assert found is not None, key
        return found

    @property
    def table_fields(self) -> list[Field]:
        return [self.field(key) for key in ("name", "seat_count", "smallest_chip", "dealer")]

    @property
    def limits(self) -> Field:
        return self.field("limits")

    @property
    def rules(self) -> Field:
        return self.field("rules")

    @property
    def valid(self) -> bool:
        return self.form.valid

    def values(self) -> dict[str, Any]:
        """The table as ``table_create`` takes it: the limits given, and only the rules
        that differ from the game's defaults (a table stores only its overrides)."""
        value = self.form.value
        limits = {
            key: amount
            for key, amount in (value.get("limits") or {}).items()
            if amount is not None and amount is not MISSING
        }
        rules = {
            key: rule
            for key, rule in (value.get("rules") or {}).items()
            if differs(rule, self.defaults.get(key))
        }
        return {
            "name": value.get("name", ""),
            "seat_count": value.get("seat_count"),
            "smallest_chip": value.get("smallest_chip"),
            "dealer_id": value.get("dealer"),
            "limits": limits,
            "rules": rules,
        }


# ---------------------------------------------------------------- a limit or rule change


def change_schema(game: Game) -> dict[str, Any]:
    """What a change request may alter, as one form: each limit (an optional one may be
    emptied), the smallest chip and the rules."""
    limits = {
        key: (prop if key in (game.limits_schema.get("required") or ()) else s.nullable(prop))
        for key, prop in (game.limits_schema.get("properties") or {}).items()
    }
    return s.obj(
        {**limits, "smallest_chip": _chip_schema(), "rules": rules_schema(game)},
        required=list(game.limits_schema.get("required") or ()),
    )


def current_rules(game: Game, table: Table) -> dict[str, Any]:
    """The table's rules in force, every option written out (the defaults where it sets
    none), as the form shows them."""
    try:
        effective = game.parse_rules(table.rules)
    except Exception:  # a table's stored rules were valid when set; show them as they are
        effective = {**game.default_rules(), **table.rules}
    shown = game.rules_schema.get("properties") or {}
    return {
        key: value for key, value in effective.items() if not shown.get(key, {}).get("readOnly")
    }


class ChangeForm:
    """A limit or rule change of ``table``: every limit, the smallest chip and every rule,
    each with the value in force beside the new one; a reason. ``changes`` is what differs
    from the values in force, as ``change_request`` takes it."""

    def __init__(self, game: Game, table: Table, data: Mapping[str, Any] | None = None) -> None:
        self.game = game
        self.table = table
        self.current_limits = {key: table.limits.get(key) for key in game.limit_fields}
        self.current_rules = current_rules(game, table)
        current = {
            **self.current_limits,
            "smallest_chip": table.smallest_chip,
            "rules": self.current_rules,
        }
        self.form = SchemaForm(change_schema(game), current, name="", path="", data=data)
        with_current(self.form, current)
        rules = self.form.root.find("rules")
        if rules is not None:
            rules.current = None
            for node in rules.children:
                key = node.name.rsplit(".", 1)[-1]
                node.current = _now(node, self.current_rules.get(key))
        self.reason = str((data or {}).get("reason", "")).strip()
        self.reason_errors: list[str] = []
        self.placed = PlacedProblems(self.form, game.limit_fields)

    @property
    def limit_fields(self) -> list[Field]:
        return [node for node in self.form.fields if node.name != "rules"]

    @property
    def rules(self) -> Field | None:
        return self.form.root.find("rules")

    def changes(self) -> dict[str, Any]:
        """What differs from the values in force: limits and the chip replace, rules merge
        by key (each changed rule whole)."""
        value = self.form.value
        out: dict[str, Any] = {}
        for key in (*self.game.limit_fields, "smallest_chip"):
            new = value.get(key, MISSING)
            if new is MISSING:
                continue
            old = self.table.smallest_chip if key == "smallest_chip" else self.current_limits[key]
            if differs(new, old):
                out[key] = new
        rules = {
            key: rule
            for key, rule in (value.get("rules") or {}).items()
            if key in self.current_rules and differs(rule, self.current_rules[key])
        }
        if rules:
            out["rules"] = rules
        return out

    def check_reason(self) -> bool:
        if not self.reason:
            self.reason_errors = ["Give the reason: the floor manager who decides reads it."]
        elif len(self.reason) > REASON_LENGTH:
            self.reason_errors = [f"At most {REASON_LENGTH} characters."]
        return not self.reason_errors


def _now(node: Field, value: Any) -> str:
    return describe(node.schema, value)


# ---------------------------------------------------------------- a correction


def actions_schema(game: Game) -> dict[str, Any]:
    """A hand's actions as a list of rows, each one of the game's action types."""
    return {
        "type": "array",
        "title": "the hand's actions",
        "description": "in the order they happened",
        "items": {"title": "action", "oneOf": list(game.action_schemas.values())},
        "minItems": 1,
    }


class CorrectionForm:
    """A settled hand's actions as rows to edit (type, then that type's fields), and a
    reason; ``correction_request`` judges."""

    def __init__(
        self, game: Game, hand: Hand, actions: list[Any], data: Mapping[str, Any] | None = None
    ) -> None:
        self.game = game
        self.hand = hand
        self.form = SchemaForm(
            actions_schema(game), actions, name="actions", data=data, keep_nulls=False
        )
        self.reason = str((data or {}).get("reason", "")).strip()
        self.reason_errors: list[str] = []
        self.placed = PlacedProblems(self.form, ())

    @property
    def rows(self) -> Field:
        return self.form.root

    def actions(self) -> list[Any]:
        return list(self.form.value or [])

    def check_reason(self) -> bool:
        if not self.reason:
            self.reason_errors = ["Give the reason: the floor manager who decides reads it."]
        elif len(self.reason) > REASON_LENGTH:
            self.reason_errors = [f"At most {REASON_LENGTH} characters."]
        return not self.reason_errors
