"""The floor's forms. The new-table form is built from the chosen game's own schemas: one
input per table limit (``limits_schema``) and per rule (``rules_schema``), prefilled with the
game's default rules; the game and ``tables.services.table_create`` judge the values."""

from __future__ import annotations

import json
from typing import Any

from django import forms

from casino.rules.contract import Game

from .selectors import dealers

LIMIT = "limit__"
RULE = "rule__"
#: Whole numbers a form takes at most (the game checks its own, smaller, bounds).
LARGEST = 10**15
#: The smallest chip is at most this (README, "Limits on input").
LARGEST_CHIP = 10**9
YES_NO = [("yes", "yes"), ("no", "no")]


class JSONValueField(forms.CharField):
    """A rule the form cannot show as a simple input (a pay table, the rake schedule, an
    option without a type), typed as JSON. Empty means the game's default."""

    def to_python(self, value: Any) -> Any:
        text = super().to_python(value)
        if text in ("", None):
            return None
        try:
            return json.loads(text)
        except ValueError as exc:
            raise forms.ValidationError(f"not valid JSON: {exc}") from None

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, str) or value is None:
            return value
        return json.dumps(value, indent=2 if isinstance(value, dict | list) else None)


def _words(name: str) -> str:
    return name.replace("_", " ")


def _rows(value: Any) -> int:
    """Lines enough for a default shown as indented JSON (3 to 10)."""
    return max(3, min(10, len(json.dumps(value, indent=2).splitlines())))


def _integer(schema: dict[str, Any], *, required: bool, label: str) -> forms.IntegerField:
    """An integer input with the schema's bounds for the browser; the game checks them."""
    attrs = {"inputmode": "numeric"}
    if "minimum" in schema:
        attrs["min"] = str(schema["minimum"])
    if "maximum" in schema:
        attrs["max"] = str(schema["maximum"])
    return forms.IntegerField(
        required=required,
        label=label,
        help_text=schema.get("description", ""),
        min_value=-LARGEST,
        max_value=LARGEST,
        widget=forms.NumberInput(attrs=attrs),
    )


class NewTableForm(forms.Form):
    """Name, seats, smallest chip and dealer, then the game's limits and rules."""

    name = forms.CharField(max_length=100, label="Table name")
    seat_count = forms.IntegerField(label="Seats", min_value=2)
    smallest_chip = forms.IntegerField(
        label="Smallest chip", min_value=1, max_value=LARGEST_CHIP, initial=1
    )
    dealer = forms.ModelChoiceField(
        queryset=None,
        required=False,
        empty_label="nobody",
        label="Dealer",
    )

    def __init__(self, game: Game, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.defaults = game.default_rules()
        self.fields["dealer"].queryset = dealers()
        seats = self.fields["seat_count"]
        seats.widget.attrs.update({"min": "2", "max": str(game.max_seats)})
        seats.help_text = f"2 to {game.max_seats}"
        seats.initial = (game.demo_table or {}).get("seat_count") or game.max_seats
        self.limit_names: list[str] = []
        self.rule_names: list[str] = []
        self.nested_rules: set[str] = set()
        self._add_limits()
        self._add_rules()
        for name, field in self.fields.items():
            if field.help_text:  # read out with the input (templates/desk/floor/_field.html)
                field.widget.attrs["aria-describedby"] = f"id_{name}-help"

    # -------------------------------------------------------------- building the fields

    def _add_limits(self) -> None:
        schema = self.game.limits_schema
        required = set(schema.get("required", []))
        for name, prop in schema.get("properties", {}).items():
            label = _words(name)
            needed = name in required
            if prop.get("enum"):
                choices = [(value, _words(str(value))) for value in prop["enum"]]
                field: forms.Field = forms.ChoiceField(
                    choices=choices if needed else [("", "none"), *choices],
                    required=needed,
                    label=label,
                    help_text=prop.get("description", ""),
                )
            elif prop.get("type") == "integer":
                field = _integer(prop, required=needed, label=label)
            else:
                field = JSONValueField(
                    required=needed, label=label, help_text=prop.get("description", "")
                )
            if not needed and not prop.get("enum"):
                field.help_text = f"{field.help_text} (optional)".strip()
            self.fields[LIMIT + name] = field
            self.limit_names.append(name)

    def _add_rules(self) -> None:
        # A rule named like a limit (or the smallest chip) is set from those fields.
        skip = {*self.game.limit_fields, "smallest_chip"}
        for name, prop in self.game.rules_schema.get("properties", {}).items():
            if name in skip:
                continue
            default = self.defaults.get(name, prop.get("default"))
            kind = prop.get("type")
            label = _words(name)
            hint = prop.get("description", "")
            if kind == "boolean":
                field: forms.Field = forms.TypedChoiceField(
                    choices=YES_NO,
                    coerce=lambda value: value == "yes",
                    label=label,
                    help_text=hint,
                    initial="yes" if default else "no",
                )
            elif kind == "integer":
                field = _integer(prop, required=False, label=label)
                field.help_text = hint
                field.initial = default
            elif kind == "string" and prop.get("enum"):
                field = forms.ChoiceField(
                    choices=[(value, _words(str(value))) for value in prop["enum"]],
                    label=label,
                    help_text=hint,
                    initial=default,
                )
            elif kind == "string":
                field = forms.CharField(
                    required=False, label=label, help_text=hint, initial=default
                )
            else:
                nested = isinstance(default, dict | list)
                if nested:
                    self.nested_rules.add(name)
                field = JSONValueField(
                    required=False,
                    label=label,
                    help_text=(hint + " " if hint else "")
                    + ("as JSON" if nested else "as JSON; empty for the default"),
                    initial=default,
                    widget=forms.Textarea(attrs={"rows": _rows(default)})
                    if nested
                    else forms.TextInput(),
                )
            self.fields[RULE + name] = field
            self.rule_names.append(name)

    # -------------------------------------------------------------- reading the values

    def limits(self) -> dict[str, Any]:
        """The limits given (an optional limit left empty is left out)."""
        values = {name: self.cleaned_data.get(LIMIT + name) for name in self.limit_names}
        return {name: value for name, value in values.items() if value not in (None, "")}

    def rules(self) -> dict[str, Any]:
        """The rules that differ from the game's defaults: a table stores only its
        overrides."""
        rules = {}
        for name in self.rule_names:
            value = self.cleaned_data.get(RULE + name)
            if value is None or value == "":
                continue
            if value != self.defaults.get(name):
                rules[name] = value
        return rules

    def limit_fields(self) -> list[forms.BoundField]:
        return [self[LIMIT + name] for name in self.limit_names]

    def simple_rule_fields(self) -> list[forms.BoundField]:
        return [self[RULE + name] for name in self.rule_names if name not in self.nested_rules]

    def nested_rule_fields(self) -> list[forms.BoundField]:
        """The rules edited as JSON objects (pay tables, the rake, a rotation policy)."""
        return [self[RULE + name] for name in self.rule_names if name in self.nested_rules]

    def field_for(self, path: str) -> str | None:
        """The form field a service's problem ``path`` names (``ante_max``,
        ``limits.ante_max``, ``rules.rake.amount``, ``seat_count``), if any."""
        head, _, rest = path.partition(".")
        head = head.split("[", 1)[0]
        if head in ("limits", "rules") and rest:
            name = rest.split(".", 1)[0].split("[", 1)[0]
            prefix = LIMIT if head == "limits" else RULE
            return prefix + name if prefix + name in self.fields else None
        for candidate in (head, LIMIT + head, RULE + head):
            if candidate in self.fields:
                return candidate
        return None
