"""Large-payout sign-off: which settlements wait for a floor manager's signature.

A settlement is held when one payout line pays more than the line limit, or a party's net for
the hand is above the net limit (the house's own side never counts). The limits in force for
a table are its own, else its game's, else the house default from settings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import OuterRef, Q, Subquery

from casino.core.errors import ApplicationError
from casino.core.transactions import atomic_service
from casino.rules.contract import registry

from .chain import audit_append
from .models import SignoffLimit


@dataclass(frozen=True)
class Limits:
    line: int
    net: int
    source: str  # "table", "game" or "default"

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "net": self.net, "source": self.source}


def limits_by_table(tables: Iterable[Any]) -> dict[int, Limits]:
    """The sign-off limits in force at each table (its own, else its game's, else the house
    default), in one query for them all."""
    tables = list(tables)
    rows = SignoffLimit.objects.filter(
        Q(table_id__in=[t.pk for t in tables]) | Q(game__in={t.game for t in tables})
    )
    own = {row.table_id: (row.line, row.net) for row in rows if row.table_id}
    by_game = {row.game: (row.line, row.net) for row in rows if not row.table_id}
    return {table.pk: _in_force(own.get(table.pk), by_game.get(table.game)) for table in tables}


def _in_force(own: tuple[int, int] | None, by_game: tuple[int, int] | None) -> Limits:
    """The table's own limits, else its game's, else the house default."""
    if own is not None:
        return Limits(*own, "table")
    if by_game is not None:
        return Limits(*by_game, "game")
    return Limits(settings.PAYOUT_SIGNOFF_LINE, settings.PAYOUT_SIGNOFF_NET, "default")


def limits_annotations(table: str, game: str) -> dict[str, Subquery]:
    """What :func:`limits_annotated` reads, as annotations on a query of rows that name a
    table and its game (``table`` and ``game`` are their paths): the limits come with the
    row, in the same query (the settle path reads the hand, its table and these at once)."""
    own = SignoffLimit.objects.filter(table_id=OuterRef(table))
    by_game = SignoffLimit.objects.filter(table__isnull=True, game=OuterRef(game))
    return {
        "signoff_own_line": Subquery(own.values("line")[:1]),
        "signoff_own_net": Subquery(own.values("net")[:1]),
        "signoff_game_line": Subquery(by_game.values("line")[:1]),
        "signoff_game_net": Subquery(by_game.values("net")[:1]),
    }


def limits_annotated(row: Any) -> Limits:
    """The sign-off limits in force, from a row carrying :func:`limits_annotations`: the
    table's own, else its game's, else the house default (as :func:`limits_by_table`)."""
    own = (row.signoff_own_line, row.signoff_own_net)
    by_game = (row.signoff_game_line, row.signoff_game_net)
    return _in_force(
        own if own[0] is not None else None, by_game if by_game[0] is not None else None
    )


def over_limits(result: dict[str, Any], limits: Limits) -> list[str]:
    """Why a settlement (as ``Settlement.to_dict()`` gives it) needs a signature, in words;
    empty when it does not."""
    reasons = []
    for party in result["seats"]:  # the house (``result["house"]``) is never a payout
        seat = party["seat"]
        for line in party["lines"]:
            if line["amount"] > limits.line:
                reasons.append(
                    f"seat {seat}'s {line['wager'].replace('_', ' ')} pays {line['amount']} "
                    f"(sign-off above {limits.line} a line)"
                )
        if party["net"] > limits.net:
            reasons.append(
                f"seat {seat} wins {party['net']} on the hand (sign-off above {limits.net})"
            )
    return reasons


@atomic_service
def signoff_limit_set(
    *, user: Any, line: int, net: int, table: Any = None, game: str = ""
) -> SignoffLimit:
    """Set (or replace) the sign-off limits of one table or one game, audited with the values
    they replace."""
    if (table is None) == (not game):
        raise ApplicationError("name either a table or a game", path="table")
    if game and game not in registry():
        raise ApplicationError(
            f"{game!r} is not a game; games: {', '.join(sorted(registry()))}", path="game"
        )
    scope = {"table": table} if table is not None else {"game": game, "table": None}
    current = SignoffLimit.objects.select_for_update().filter(**scope).first()
    before = {"line": current.line, "net": current.net} if current else None
    row, _ = SignoffLimit.objects.update_or_create(
        **scope, defaults={"line": line, "net": net, "set_by": user}
    )
    audit_append(
        actor=user,
        action="signoff_limit_set",
        subject=f"table:{table.pk}" if table is not None else f"game:{game}",
        table=table,
        before=before,
        after={"line": line, "net": net},
    )
    return row
