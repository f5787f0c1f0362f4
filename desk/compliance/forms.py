"""The compliance desk's filters: GET forms whose bad values are named on the page."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.conf import settings
from django.utils import timezone

from casino.core.money import amount_example, money, parse_major
from casino.rules.options import MAX_AMOUNT

from . import selectors
from .selectors import MAX_ID

MAX_SEAT = 99
SEAT_WORDS = f"a seat is a whole number from 1 to {MAX_SEAT}"
DATE_WORDS = "a date is written YYYY-MM-DD, e.g. 2026-03-01"
MOMENT_WORDS = (
    "a moment is written YYYY-MM-DD HH:MM:SS, e.g. 2026-03-01 14:30:00 (fractions of a "
    "second and a UTC offset such as +01:00 may follow)"
)


def _date(label: str) -> forms.DateField:
    return forms.DateField(
        label=label,
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        input_formats=["%Y-%m-%d"],
        error_messages={"invalid": DATE_WORDS},
    )


def _moment(label: str) -> forms.DateTimeField:
    """A moment to the microsecond: in the casino's time zone, or at the UTC offset it names
    (as the shift report's links to a custody window's hands write it)."""
    return forms.DateTimeField(
        label=label,
        required=False,
        widget=forms.TextInput(
            attrs={
                "placeholder": "YYYY-MM-DD HH:MM:SS",
                "autocomplete": "off",
                "spellcheck": "false",
                "size": 32,
            }
        ),
        error_messages={"invalid": MOMENT_WORDS},
    )


def _later(*moments: dt.datetime | None) -> dt.datetime | None:
    given = [moment for moment in moments if moment is not None]
    return max(given) if given else None


def _earlier(*moments: dt.datetime | None) -> dt.datetime | None:
    given = [moment for moment in moments if moment is not None]
    return min(given) if given else None


def amount_words() -> str:
    """What an amount filter takes, in words: the house currency, its decimals, the smallest
    and largest amounts and an example."""
    exponent = settings.CURRENCY_EXPONENT
    decimals = (
        "as a whole number"
        if exponent == 0
        else f"with at most {exponent} decimal{'' if exponent == 1 else 's'}"
    )
    return (
        f"an amount is written in {settings.CURRENCY} {decimals}, from {money(1)} to "
        f"{money(MAX_AMOUNT)}, e.g. {amount_example()}"
    )


class AmountField(forms.Field):
    """An amount typed in major units of the house currency (``12.50``, ``$1,250``, ``1 250``),
    cleaned to integer minor units, exactly; the label names the currency."""

    widget = forms.TextInput

    def __init__(self, *, label: str, **kwargs: Any) -> None:
        super().__init__(label=label, required=False, **kwargs)
        self.widget.attrs.update({"inputmode": "decimal", "autocomplete": "off"})

    def to_python(self, value: Any) -> int | None:
        text = str(value or "").strip()
        if not text:
            return None
        try:
            amount = parse_major(text)
        except ValueError:
            raise forms.ValidationError(amount_words(), "invalid") from None
        if not 1 <= amount <= MAX_AMOUNT:
            raise forms.ValidationError(amount_words(), "invalid")
        return amount


def _amount(label: str) -> AmountField:
    return AmountField(label=label)


class TableField(forms.ModelChoiceField):
    """A table by its id; anything that cannot be an id is no such table."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            queryset=None,
            required=False,
            empty_label="any table",
            error_messages={"invalid_choice": "there is no such table"},
            **kwargs,
        )

    def to_python(self, value: Any) -> Any:
        if value not in self.empty_values and not (
            str(value).isascii() and str(value).isdigit() and 0 < int(value) <= MAX_ID
        ):
            raise forms.ValidationError(self.error_messages["invalid_choice"], "invalid_choice")
        return super().to_python(value)


def _start_of(day: dt.date) -> dt.datetime:
    """The first moment of a calendar day in the casino's time zone."""
    return timezone.make_aware(dt.datetime.combine(day, dt.time.min))


class DateRangeForm(forms.Form):
    """``date_from`` and ``date_to`` (both days included), as moments from and before."""

    date_from = _date("From (date)")
    date_to = _date("To (date, included)")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", f"the range ends ({end}) before it starts ({start})")
        return data

    def moments(self) -> dict[str, dt.datetime | None]:
        start, end = self.cleaned_data.get("date_from"), self.cleaned_data.get("date_to")
        return {
            "from": _start_of(start) if start else None,
            # the last day there is has no day after it: it ends nothing
            "before": _start_of(end + dt.timedelta(days=1)) if end and end < dt.date.max else None,
        }


class SettlementFilterForm(DateRangeForm):
    """Search settlements. Amounts are typed in the house currency (major units) and searched
    in minor units; the house (seat 0) is never a seat. ``settled_from`` (included) and
    ``settled_to`` (excluded) narrow the dates to moments: a custody window, from its
    opener's signature to its closer's, lists exactly the hands settled in it."""

    SIGNED_OFF = "signed_off"
    NORMAL = "normal"

    table = TableField()
    game = forms.ChoiceField(
        required=False, error_messages={"invalid_choice": "there is no such game"}
    )
    dealer = forms.ModelChoiceField(
        queryset=None,
        required=False,
        to_field_name="username",
        empty_label="anyone",
        label="Settled by",
        error_messages={"invalid_choice": "nobody of that name has settled a hand"},
    )
    seat = forms.IntegerField(
        label="Seat took part",
        required=False,
        min_value=1,
        max_value=MAX_SEAT,
        error_messages={"invalid": SEAT_WORDS, "min_value": SEAT_WORDS, "max_value": SEAT_WORDS},
    )
    min_net = _amount("A seat won or lost at least")
    min_payout = _amount("A payout line paid at least")
    settled_from = _moment("Settled from (moment, included)")
    settled_to = _moment("Settled before (moment)")
    status = forms.ChoiceField(
        required=False,
        choices=[
            ("", "any"),
            (SIGNED_OFF, "signed off after a large-payout hold"),
            (NORMAL, "settled normally"),
        ],
        error_messages={"invalid_choice": "status is any, signed off or settled normally"},
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = selectors.table_choices()
        self.fields["dealer"].queryset = selectors.settler_choices()
        self.fields["game"].choices = [("", "any game"), *selectors.game_choices()]
        for name in ("min_net", "min_payout"):
            field = self.fields[name]
            field.label = f"{field.label} ({settings.CURRENCY})"

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        start, end = data.get("settled_from"), data.get("settled_to")
        if start and end and end < start:
            self.add_error(
                "settled_to",
                f"the moments end ({timezone.localtime(end):%Y-%m-%d %H:%M:%S}) before they "
                f"start ({timezone.localtime(start):%Y-%m-%d %H:%M:%S})",
            )
        return data

    @property
    def currency(self) -> str:
        return str(settings.CURRENCY)

    @property
    def example(self) -> str:
        return amount_example()

    def filters(self) -> dict[str, Any]:
        """The valid form as ``selectors.settlement_search`` arguments."""
        data = self.cleaned_data
        moments = self.moments()
        status = data.get("status")
        return {
            "settled_from": _later(moments["from"], data.get("settled_from")),
            "settled_before": _earlier(moments["before"], data.get("settled_to")),
            "table": data.get("table"),
            "game_code": data.get("game") or "",
            "settled_by": data.get("dealer"),
            "seat": data.get("seat"),
            "min_net": data.get("min_net"),
            "min_payout": data.get("min_payout"),
            "signed_off": None if not status else status == self.SIGNED_OFF,
        }


class AuditFilterForm(DateRangeForm):
    """Browse the audit log."""

    action = forms.ChoiceField(
        required=False, error_messages={"invalid_choice": "no audit entry has that action"}
    )
    actor = forms.CharField(
        label="Actor name contains",
        required=False,
        max_length=150,
        error_messages={"max_length": "an actor's name is at most 150 characters"},
    )
    table = TableField()

    field_order = ["action", "actor", "table", "date_from", "date_to"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        actions = [
            (action, action.replace("_", " ")) for action in selectors.audit_action_choices()
        ]
        self.fields["action"].choices = [("", "any action"), *actions]
        self.fields["table"].queryset = selectors.table_choices()

    def filters(self) -> dict[str, Any]:
        data = self.cleaned_data
        moments = self.moments()
        return {
            "action": data.get("action") or "",
            "actor": (data.get("actor") or "").strip(),
            "table": data.get("table"),
            "at_from": moments["from"],
            "at_before": moments["before"],
        }
