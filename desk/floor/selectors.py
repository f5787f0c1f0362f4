"""What the pit reads: every table as a tile (the approvals queue's rows are in ``queue``).

The pit reads every table in a fixed number of queries, whatever the number of tables: the
tables with their dealers and seats, the open hands, the pending requests counted per table,
the dealers, and today's figures summed per table in the database (the definitions of
``payouts.figures``, grouped by table).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, QuerySet
from django.utils import timezone

from approvals.models import Approval
from casino.core.roles import DEALER
from casino.rules.contract import Game, registry
from casino.rules.errors import RuleError
from payouts import figures
from payouts.figures import Figures, gaming_day, gaming_day_bounds
from payouts.models import Settlement
from tables.models import Hand, Table
from tables.selectors import table_list, table_view

# ---------------------------------------------------------------- the pit

#: Who holds what at a table between hands, as the games' table views name it, in the order
#: a tile lists them.
SEAT_ROLES = (
    ("designated_player", "Designated player"),
    ("offer_seat", "Position offered to"),
    ("banker", "Banker"),
    ("button", "Button"),
    ("next_dealer", "Deals next"),
)
AMOUNTS = (("bank", "Bank"), ("kitty", "Kitty"))


@dataclass(frozen=True)
class Holder:
    label: str
    seat: int
    player: str


@dataclass
class Tile:
    table: Table
    game_name: str
    hand: Hand | None
    hand_minutes: int | None
    holders: list[Holder] = field(default_factory=list)
    amounts: list[tuple[str, int]] = field(default_factory=list)
    state_problem: str = ""
    today: Figures = field(default_factory=Figures)
    pending: int = 0

    @property
    def is_open(self) -> bool:
        return self.table.status == Table.Status.OPEN


def today_settlements() -> QuerySet[Settlement]:
    """The settlements of the current gaming day."""
    start, end = gaming_day_bounds(gaming_day())
    return Settlement.objects.filter(settled_at__gte=start, settled_at__lt=end)


def dealers() -> QuerySet[Any]:
    """The users a table may be assigned to: active users in the dealer role."""
    return (
        get_user_model()
        .objects.filter(groups__name=DEALER, is_active=True)
        .order_by("username")
        .distinct()
    )


def _seat_number(value: Any) -> int | None:
    """A table view names a seat as its number, or as an object with ``seat``."""
    if isinstance(value, dict):
        value = value.get("seat")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _read_state(tile: Tile, found: Game, hand_open: bool) -> None:
    table = tile.table
    try:
        state = found.table_view(table_view(table, hand_open=hand_open))
    except RuleError as exc:  # a table the game cannot read now: say so on its tile
        tile.state_problem = str(exc)
        return
    players = {seat.number: seat.player for seat in table.seats.all()}
    for key, label in SEAT_ROLES:
        seat = _seat_number(state.get(key))
        if seat is not None:
            tile.holders.append(Holder(label, seat, players.get(seat, "")))
    upcoming = state.get("next_hand")  # a game that plans the next hand (7-A's blinds)
    if isinstance(upcoming, dict):
        for key, label in SEAT_ROLES:
            seat = _seat_number(upcoming.get(key))
            if seat is not None:
                tile.holders.append(Holder(f"{label}, next hand", seat, players.get(seat, "")))
    for key, label in AMOUNTS:
        amount = state.get(key)
        if isinstance(amount, int) and not isinstance(amount, bool):
            tile.amounts.append((label, amount))


def pit_tiles() -> list[Tile]:
    """Every table as the pit shows it, in name order."""
    tables = list(table_list().order_by("name"))
    open_hands = {hand.table_id: hand for hand in Hand.objects.filter(status=Hand.Status.OPEN)}
    pending = dict(
        Approval.objects.filter(status=Approval.Status.PENDING)
        .order_by()
        .values_list("table_id")
        .annotate(count=Count("pk"))
    )
    today = figures.by_table(today_settlements())
    games = registry()
    now = timezone.now()
    tiles = []
    for table in tables:
        found = games.get(table.game)
        hand = open_hands.get(table.pk)
        tile = Tile(
            table=table,
            game_name=found.name if found else table.game,
            hand=hand,
            hand_minutes=max(0, int((now - hand.opened_at).total_seconds() // 60))
            if hand
            else None,
            today=today.get(table.pk, Figures()),
            pending=pending.get(table.pk, 0),
        )
        if found is None:
            tile.state_problem = f"the game {table.game!r} is not on this server"
        else:
            _read_state(tile, found, hand is not None)
        tiles.append(tile)
    return tiles
