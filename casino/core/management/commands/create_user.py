"""Create a user in one of the casino's roles (or give an existing one a role).

    manage.py create_user ana --role dealer                 # asks for the password twice
    manage.py create_user bo --role compliance --password-stdin < secret.txt

A compliance user may also read the Django admin (read-only); the password must pass the
site's validators. Audited as ``user_created`` / ``user_role_added``.
"""

from __future__ import annotations

import getpass
import sys
from typing import Any

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from casino.core.roles import ROLES, give_role
from payouts.chain import audit_append


class Command(BaseCommand):
    help = "Create a user with a role (dealer, floor_manager or compliance)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("username")
        parser.add_argument("--role", required=True, choices=ROLES)
        parser.add_argument(
            "--password-stdin",
            action="store_true",
            help="read the password from standard input instead of asking for it",
        )

    def handle(self, *args: Any, username: str, role: str, **options: Any) -> None:
        User = get_user_model()
        user = User.objects.filter(username=username).first()
        password = None
        if user is None:
            password = self._password(options["password_stdin"])
            try:
                password_validation.validate_password(password, User(username=username))
            except ValidationError as exc:
                raise CommandError("; ".join(exc.messages)) from None
        with transaction.atomic():
            created = user is None
            if created:
                user = User.objects.create_user(username=username, password=password)
            elif user.groups.filter(name=role).exists():
                raise CommandError(f"{username} already has the role {role}")
            give_role(user, role)
            audit_append(
                actor=None,
                action="user_created" if created else "user_role_added",
                subject=f"user:{user.pk}",
                after={"username": username, "role": role},
            )
        verb = "created with" if created else "given"
        self.stdout.write(self.style.SUCCESS(f"{username} {verb} the role {role}"))

    def _password(self, from_stdin: bool) -> str:
        if from_stdin:
            password = sys.stdin.readline().rstrip("\n")
        else:
            password = getpass.getpass("Password: ")
            if getpass.getpass("Password (again): ") != password:
                raise CommandError("the passwords differ")
        if not password:
            raise CommandError("a password is needed")
        return password
