"""The property's chip set (``CASINO_PROPERTY``): its denominations and variance lines.

    manage.py chip_set --show
    manage.py chip_set --standard                    # the common set, where there is none
    manage.py chip_set --chip "500:red:#c0392b" --chip "2500:green" --note 2000 \\
        --report-above 2500 --notify-above 10000

Values are in minor units. Denominations are added (a chip's colour updated), never removed:
past counts name them. Once the property has a chip set, its tables open and close through
their counted opener and closer (docs/custody.md). Audited as ``chip_set``.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from casino.core.errors import ApplicationError
from casino.core.money import major_text
from custody import services
from custody.models import ChipSet


def _chip(text: str) -> tuple[int, str, str]:
    value, _, rest = text.partition(":")
    colour, _, code = rest.partition(":")
    if not value.isdigit() or int(value) <= 0:
        raise CommandError(f"--chip {text!r}: VALUE[:COLOUR[:#RRGGBB]], the value in minor units")
    return int(value), colour, code


class Command(BaseCommand):
    help = "Show or set the property's chip set: denominations and variance lines."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--show", action="store_true", help="print the chip set only")
        parser.add_argument(
            "--standard", action="store_true", help="make the common chip set where none exists"
        )
        parser.add_argument("--chip", action="append", default=[], metavar="VALUE:COLOUR:#HEX")
        parser.add_argument("--note", action="append", default=[], type=int, metavar="VALUE")
        parser.add_argument("--report-above", type=int, metavar="MINOR_UNITS")
        parser.add_argument("--notify-above", type=int, metavar="MINOR_UNITS")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["standard"]:
            services.chip_set_setup()
        changes = (
            bool(options["chip"] or options["note"])
            or options["report_above"] is not None
            or options["notify_above"] is not None
        )
        if changes:
            try:
                services.chip_set_update(
                    user=None,
                    chips=tuple(_chip(text) for text in options["chip"]),
                    notes=tuple(options["note"]),
                    report_above=options["report_above"],
                    notify_above=options["notify_above"],
                )
            except ApplicationError as error:
                raise CommandError(str(error)) from None
        try:
            found = services.chip_set()
        except ApplicationError:
            self.stdout.write("No chip set: tables open and close without counts.")
            return
        self._show(found)

    def _show(self, found: ChipSet) -> None:
        self.stdout.write(f"Chip set of {found.property_name} ({found.currency}):")
        for d in found.denominations.all():
            if d.form == "chip":
                self.stdout.write(f"  chip {major_text(d.value):>10}  {d.colour} {d.hex}".rstrip())
            else:
                self.stdout.write(f"  note {major_text(d.value):>10}")
        self.stdout.write(
            f"A closer's variance is reported above {major_text(found.report_variance_above)} "
            f"and notified above {major_text(found.notify_variance_above)}."
        )
