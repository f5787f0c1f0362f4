"""Load a demo casino floor: users in each role, the property's chip set and an open table of
every game (opened with its counted opener, signed by the dealer and a floor manager).

Refuses to run when DEBUG is off: demo users with printed passwords must never exist
on a real floor. They are put in the group ``demo``, which is refused any login (password,
session or token) while DEBUG is off, should a demo database reach production. Safe to run
again: what exists is kept, passwords are reset. An anchor file left by the demo database
this one replaced is moved aside (a real floor's is never touched: this runs with DEBUG on
only). Every demo table's theoretical figures are made ready (or queued for the worker), so
the hold page and the approvals queue show them from the first page.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from casino.core.accounts import DEMO_GROUP
from casino.core.identity import database_id
from casino.core.roles import (
    CAGE,
    COMPLIANCE,
    COUNT_TEAM,
    DEALER,
    FLOOR_MANAGER,
    SHIFT_MANAGER,
    give_role,
)
from casino.rules.contract import games
from custody import services as custody
from hold.services import prepare_configs
from payouts import anchorfile
from tables import services
from tables.models import Table
from tables.selectors import table_config

USERS = [
    ("dealer1", DEALER),
    ("dealer2", DEALER),
    ("floor1", FLOOR_MANAGER),
    ("floor2", FLOOR_MANAGER),
    ("shift1", SHIFT_MANAGER),  # signs a payout's manager tier (docs/signoff.md)
    ("compliance1", COMPLIANCE),
    ("cage1", CAGE),  # issues fills, receives credits
    ("count1", COUNT_TEAM),  # the drop count: two counters sign each box
    ("count2", COUNT_TEAM),
]
#: Each demo table's opening tray (chips per denomination, minor units).
OPENER = {"100": 100, "500": 200, "2500": 100, "10000": 20}
PLAYERS = {1: "Ana", 2: "Bela", 3: "Csilla", 4: "Dani", 5: "Eva"}


def demo_tables() -> list[dict[str, Any]]:
    """One table per registered game that declares a demo table (``Game.demo_table``)."""
    return [{"game": found.code, **found.demo_table} for found in games() if found.demo_table]


class Command(BaseCommand):
    help = "Create demo users (one per role and more) and open demo tables, one per game."

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("load_demo refuses to create demo users while DEBUG is off")
        self._set_aside_another_databases_anchors()
        with transaction.atomic():
            users = self._users()
            custody.chip_set_setup()  # the property keeps chip custody: tables open counted
            tables = [
                Table.objects.filter(name=spec["name"]).first()
                or self._table(spec, floor=users["floor1"], dealer=users["dealer1"])
                for spec in demo_tables()
            ]
            self._fill_waiting(tables, users["floor1"])
        self.stdout.write(self.style.SUCCESS("Demo data ready. Log in with (username / password):"))
        for username, role in USERS:
            self.stdout.write(f"  {username:<12} / {self._password(username):<18} ({role})")
        for table in tables:
            self.stdout.write(
                f"Table {table.name} ({table.game}, id {table.pk}) is {table.status}; "
                "dealer1 deals it."
            )
        self._theory(tables)

    def _theory(self, tables: list[Table]) -> None:
        """Every demo table's theoretical figures ready, or queued for the worker: the hold
        page and the approvals queue show them from the start. Where no worker runs they are
        simulated here with ``HOLD_THEORY_INLINE_HANDS`` hands (a few seconds in all, once:
        a figure is stored per rules version); with one, the worker plays ``HOLD_THEORY_HANDS``."""
        rows = [row for table in tables for row in prepare_configs(table.game, table_config(table))]
        ready = [row for row in rows if row.ready]
        hands = sorted({row.hands for row in ready if row.hands})
        made = f" (simulations of {', '.join(f'{n:,}' for n in hands)} hands)" if hands else ""
        waiting = len(rows) - len(ready)
        self.stdout.write(
            f"Theoretical figures: {len(ready)} ready{made}"
            + (f", {waiting} being computed by the worker." if waiting else ".")
        )

    def _fill_waiting(self, tables: list[Table], floor: Any) -> None:
        """A fill for the first open demo table, waiting for the cage (cage1's queue shows
        it), unless a slip exists already."""
        from custody.models import Slip

        table = next((t for t in tables if t.status == Table.Status.OPEN), None)
        if table is None or Slip.objects.exists():
            return
        slip = custody.slip_request(user=floor, table_id=table.pk, kind="fill", counts={"2500": 20})
        self.stdout.write(f"Fill {slip.label} for {table.name} waits for the cage (cage1).")

    def _set_aside_another_databases_anchors(self) -> None:
        """A demo database made afresh (``db.sqlite3`` removed) finds the anchor file of the
        one it replaced, whose checkpoints every check would hold it to. On a local demo
        only, that file is moved aside, and the move said."""
        path = anchorfile.path()
        line = anchorfile.last_checkpoint(path) if path is not None else None
        other = ((line.record or {}).get("statement") or {}).get("database") if line else None
        if line is None or other == database_id():
            return
        aside = path.with_name(f"{path.name}.{other}")
        path.rename(aside)
        self.stdout.write(
            f"The anchor file {path} was another database's ({other}): moved to {aside}."
        )

    @staticmethod
    def _password(username: str) -> str:
        return f"demo-{username}"

    def _users(self) -> dict[str, Any]:
        User = get_user_model()
        users = {}
        demo, _ = Group.objects.get_or_create(name=DEMO_GROUP)
        for username, role in USERS:
            user, _ = User.objects.get_or_create(username=username)
            user.set_password(self._password(username))
            user.save()
            user.groups.add(demo)
            give_role(user, role)  # compliance1 reads the admin, as the README says
            users[username] = user
        return users

    def _table(self, spec: dict[str, Any], *, floor: Any, dealer: Any) -> Table:
        spec = dict(spec)
        between_hands = spec.pop("between_hands", [])
        table = services.table_create(user=floor, dealer=dealer, **spec)
        for number, player in PLAYERS.items():
            if number <= table.seat_count:
                services.seat_update(
                    user=floor, table_id=table.pk, number=number, player=player, sitting_out=False
                )
        opener = custody.inventory_count(
            user=dealer, table_id=table.pk, kind="opener", counts=OPENER
        )
        custody.inventory_sign(user=floor, inventory_id=opener.pk)
        table.refresh_from_db()
        for action in between_hands:
            table = services.game_act(user=floor, table_id=table.pk, action=action)
        return table
