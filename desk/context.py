"""What every desk page's header needs: which desks the user may open."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from casino.core.roles import CAGE, COMPLIANCE, COUNT_TEAM, FLOOR_MANAGER, has_role


def desks(request: HttpRequest) -> dict[str, Any]:
    user = request.user
    return {
        "is_floor": has_role(user, FLOOR_MANAGER),
        "is_reader": has_role(user, FLOOR_MANAGER, COMPLIANCE),
        "is_cage": has_role(user, CAGE),
        "is_count": has_role(user, COUNT_TEAM),
    }
