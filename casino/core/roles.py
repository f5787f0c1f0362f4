"""The roles (Django groups) and the permission every API view uses.

- ``dealer``: acts on the tables they are assigned to (the check is in the services).
- ``floor_manager``: runs tables, approves changes and voids (never their own requests).
- ``shift_manager``: a floor manager with the authority of the shift (everything a floor
  manager does, and the signature a large-payout tier may ask for a manager's: "a verifier,
  then a manager"). Holding it implies ``floor_manager``.
- ``compliance``: reads everything and changes nothing.
- ``cage``: the cage's side of chip custody: issues fills and receives credits.
- ``count_team``: counts the drop boxes (two counters sign each count).

A large-payout sign-off tier names one of :data:`SIGNING_ROLES` (``payouts/signoff.py``).

Views say which roles may change state with ``write_roles``; any role may read.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from rest_framework.permissions import SAFE_METHODS, BasePermission

DEALER = "dealer"
FLOOR_MANAGER = "floor_manager"
SHIFT_MANAGER = "shift_manager"
COMPLIANCE = "compliance"
CAGE = "cage"
COUNT_TEAM = "count_team"
ROLES = (DEALER, FLOOR_MANAGER, SHIFT_MANAGER, COMPLIANCE, CAGE, COUNT_TEAM)
#: A role holds the roles it implies too: a shift manager is also a floor manager.
IMPLIES = {SHIFT_MANAGER: frozenset({FLOOR_MANAGER})}
#: The roles a large-payout sign-off tier may ask a signature of (never a dealer; compliance
#: reads and changes nothing), with the words pages use for them.
SIGNING_ROLES = {FLOOR_MANAGER: "floor manager", SHIFT_MANAGER: "shift manager"}


def give_role(user: Any, role: str) -> None:
    """Add ``role`` to ``user``: its group, and for compliance the staff flag the Django
    admin's read-only pages need (every way a user gets a role goes through here)."""
    from django.contrib.auth.models import Group

    user.groups.add(Group.objects.get_or_create(name=role)[0])  # a flushed test database too
    if role == COMPLIANCE and not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])


def user_groups(user: AbstractBaseUser | AnonymousUser) -> frozenset[str]:
    """The names of the user's groups, read once per request (roles, and whether it is a demo
    user, come from the one query)."""
    if not user.is_authenticated:
        return frozenset()
    cached = getattr(user, "_casino_groups", None)
    if cached is None:
        cached = frozenset(user.groups.values_list("name", flat=True))  # type: ignore[union-attr]
        user._casino_groups = cached  # type: ignore[union-attr]
    return cached


def user_roles(user: AbstractBaseUser | AnonymousUser) -> frozenset[str]:
    """The user's roles, with the ones they imply (a shift manager is a floor manager)."""
    held = user_groups(user) & frozenset(ROLES)
    return held.union(*(IMPLIES.get(role, frozenset()) for role in held))


def has_role(user: Any, *roles: str) -> bool:
    return bool(user_roles(user) & set(roles))


class RolePermission(BasePermission):
    """Reads need any role; writes need one of the view's ``write_roles``."""

    message = "Your role does not allow this."

    def has_permission(self, request: Any, view: Any) -> bool:
        roles = user_roles(request.user)
        if not roles:
            self.message = (
                "You need a casino role (dealer, floor_manager, shift_manager, compliance, cage "
                "or count_team)."
            )
            return False
        if request.method in SAFE_METHODS:
            return True
        allowed: Iterable[str] = getattr(view, "write_roles", ())
        if roles & set(allowed):
            return True
        self.message = f"This needs one of the roles: {', '.join(allowed) or 'none'}."
        return False
