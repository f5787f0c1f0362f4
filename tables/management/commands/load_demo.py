"""Load a demo casino floor: users in each role and an open High Card Flush table.

Refuses to run when DEBUG is off: demo users with printed passwords must never exist
on a real floor. They are put in the group ``demo``, which is refused any login (password,
session or token) while DEBUG is off, should a demo database reach production. Safe to run
again: what exists is kept, passwords are reset.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from casino.core.accounts import DEMO_GROUP
from casino.core.roles import COMPLIANCE, DEALER, FLOOR_MANAGER
from tables import services
from tables.models import Table

USERS = [
    ("dealer1", DEALER),
    ("dealer2", DEALER),
    ("floor1", FLOOR_MANAGER),
    ("floor2", FLOOR_MANAGER),
    ("compliance1", COMPLIANCE),
]
PLAYERS = {1: "Ana", 2: "Bela", 3: "Csilla", 4: "Dani", 5: "Eva"}


DEMO_TABLES: list[dict[str, Any]] = [
    {
        "name": "HCF-1",
        "game": "high-card-flush",
        "seat_count": 7,
        "limits": {"ante_min": 500, "ante_max": 10000, "bank_min": 20000, "bank_max": 500000},
        "smallest_chip": 25,
        "rules": {
            "rake": {
                "scheme": "per_player",
                "bands": [{"up_to": 2500, "amount": 50}, {"up_to": None, "amount": 100}],
            }
        },
    },
    {
        "name": "7A-1",
        "game": "five-card-draw-7a",
        "seat_count": 5,
        "limits": {"structure": "limit", "small_blind": 100, "big_blind": 200, "big_bet": 400},
        "smallest_chip": 25,
        "rules": {"rake": {"percent": 5, "cap": 300}},
    },
    {
        "name": "PON-1",
        "game": "pontoon",
        "seat_count": 6,
        "limits": {"stake_min": 100, "stake_max": 2000, "kitty_min": 2000, "kitty_max": 20000},
        "smallest_chip": 25,
        "rules": {},
    },
    {
        "name": "PAI-1",
        "game": "paiute",
        "seat_count": 5,
        "limits": {"ante": 500},
        "smallest_chip": 25,
        "rules": {},
    },
    {
        "name": "PAL-1",
        "game": "palace-poker",
        "seat_count": 7,
        "limits": {"structure": "limit", "small_bet": 500, "big_bet": 1000},
        "smallest_chip": 25,
        "rules": {},
    },
]


class Command(BaseCommand):
    help = "Create demo users (one per role and more) and open demo tables, one per game."

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("load_demo refuses to create demo users while DEBUG is off")
        with transaction.atomic():
            users = self._users()
            tables = [
                Table.objects.filter(name=spec["name"]).first()
                or self._table(spec, floor=users["floor1"], dealer=users["dealer1"])
                for spec in DEMO_TABLES
            ]
        self.stdout.write(self.style.SUCCESS("Demo data ready. Log in with (username / password):"))
        for username, role in USERS:
            self.stdout.write(f"  {username:<12} / {self._password(username):<18} ({role})")
        for table in tables:
            self.stdout.write(
                f"Table {table.name} ({table.game}, id {table.pk}) is {table.status}; "
                "dealer1 deals it."
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
            user.groups.add(Group.objects.get(name=role), demo)
            users[username] = user
        return users

    def _table(self, spec: dict[str, Any], *, floor: Any, dealer: Any) -> Table:
        table = services.table_create(user=floor, dealer=dealer, **spec)
        for number, player in PLAYERS.items():
            if number <= table.seat_count:
                services.seat_update(
                    user=floor, table_id=table.pk, number=number, player=player, sitting_out=False
                )
        table = services.table_set_status(user=floor, table_id=table.pk, status="open")
        if table.game == "pontoon":  # the first banker, as if chosen by the cut
            services.bank_assign(user=floor, table_id=table.pk, seat=table.seat_count - 1)
        return table
