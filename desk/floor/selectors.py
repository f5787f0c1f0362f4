"""What the pit reads: every table as a tile (the approvals queue's rows are in ``queue``).

The pit reads every table in a fixed number of queries, whatever the number of tables: the
tables with their dealers and seats, the open hands, the pending requests (kind and age,
per table), the dealers, and today's figures summed per table in the database (the
definitions of ``payouts.figures``, grouped by table).

Urgency first: a table where a payout sign-off or a void waits comes first (the longest
wait first), then the open tables, then the closed ones, each by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
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
AMOUNTS = (("bank", "bank"), ("kitty", "kitty"))

#: A request waiting on a tile, in a few words.
WAITING_WORDS = {
    Approval.Kind.PAYOUT: "Payout sign-off",
    Approval.Kind.VOID: "Void",
    Approval.Kind.LIMIT_CHANGE: "Limit change",
    Approval.Kind.CORRECTION: "Correction",
    Approval.Kind.VARIANCE: "Closer variance",
}
#: The requests that stop play or pay until a floor manager acts: their tiles come first.
URGENT = (Approval.Kind.PAYOUT, Approval.Kind.VOID)

#: The pit's status filter: its values and their words.
WAITING, OPEN, CLOSED = "waiting", Table.Status.OPEN, Table.Status.CLOSED
STATUSES = (
    ("", "every table"),
    (WAITING, "a request waiting"),
    (OPEN, "open"),
    (CLOSED, "closed"),
)


def clock() -> Any:
    """The moment the pit measures waits and hands' ages from (now)."""
    return timezone.now()


def minutes_since(moment: Any, now: Any) -> int:
    """Whole minutes from ``moment`` to ``now`` (never below 0)."""
    return max(0, int((now - moment).total_seconds() // 60))


def duration(minutes: int) -> str:
    """``7`` -> ``7 min``, ``135`` -> ``2 h 15 min``."""
    hours, rest = divmod(minutes, 60)
    return f"{hours} h {rest} min" if hours else f"{minutes} min"


@dataclass(frozen=True)
class Waiting:
    """A pending request at a table, as its tile names it."""

    approval_id: int
    kind: str
    requested_at: Any
    minutes: int

    @property
    def words(self) -> str:
        return WAITING_WORDS.get(self.kind, self.kind)

    @property
    def urgent(self) -> bool:
        return self.kind in URGENT

    @property
    def age(self) -> str:
        return duration(self.minutes)


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
    waiting: list[Waiting] = field(default_factory=list)
    #: Where chip custody is kept: the counts and fill or credit slips waiting at the table
    #: (``desk.custody.selectors.TileNote``), set by the pit's view.
    custody: list[Any] = field(default_factory=list)

    @property
    def is_open(self) -> bool:
        return self.table.status == Table.Status.OPEN

    @property
    def pending(self) -> int:
        return len(self.waiting)

    @property
    def first(self) -> Waiting | None:
        """What the tile names: the longest-waiting payout or void, else the longest-waiting
        request of any kind."""
        urgent = [waiting for waiting in self.waiting if waiting.urgent]
        return (urgent or self.waiting or [None])[0]

    @property
    def urgent(self) -> bool:
        return any(waiting.urgent for waiting in self.waiting)

    @property
    def hand_age(self) -> str:
        return duration(self.hand_minutes or 0)

    @property
    def holders_text(self) -> str:
        """Who holds the position, the bank or the button, on one line."""
        parts = [
            f"{holder.label}: seat {holder.seat}" + (f" ({holder.player})" if holder.player else "")
            for holder in self.holders
        ]
        return " · ".join(parts)

    def sort_key(self) -> tuple[int, float, str]:
        first = self.first
        if self.urgent and first is not None:
            return (0, first.requested_at.timestamp(), self.table.name)
        return (1 if self.is_open else 2, 0.0, self.table.name)


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


def pit_tiles(*, game: str = "", status: str = "") -> tuple[list[Tile], int]:
    """The tables as the pit shows them, urgency first (see the module's docstring), and
    how many tables there are in all. ``game`` keeps one game's tables; ``status`` keeps the
    tables where a request waits (``waiting``), or the open or closed ones."""
    every = table_list()
    total = every.count()
    tables = every.order_by("name")
    if game:
        tables = tables.filter(game=game)
    if status in (OPEN, CLOSED):
        tables = tables.filter(status=status)
    tables = list(tables)
    open_hands = {hand.table_id: hand for hand in Hand.objects.filter(status=Hand.Status.OPEN)}
    now = clock()
    waiting: dict[int, list[Waiting]] = {}
    pending = (
        Approval.objects.filter(status=Approval.Status.PENDING)
        .order_by("requested_at", "pk")
        .values_list("pk", "table_id", "kind", "requested_at")
    )
    for pk, table_id, kind, requested_at in pending:
        waiting.setdefault(table_id, []).append(
            Waiting(pk, kind, requested_at, minutes_since(requested_at, now))
        )
    today = figures.by_table(today_settlements())
    games = registry()
    tiles = []
    for table in tables:
        if status == WAITING and table.pk not in waiting:
            continue
        found = games.get(table.game)
        hand = open_hands.get(table.pk)
        tile = Tile(
            table=table,
            game_name=found.name if found else table.game,
            hand=hand,
            hand_minutes=minutes_since(hand.opened_at, now) if hand else None,
            today=today.get(table.pk, Figures()),
            waiting=waiting.get(table.pk, []),
        )
        if found is None:
            tile.state_problem = f"the game {table.game!r} is not on this server"
        else:
            _read_state(tile, found, hand is not None)
        tiles.append(tile)
    tiles.sort(key=Tile.sort_key)
    return tiles, total


def game_choices() -> list[tuple[str, str]]:
    """The games on this server, by name: the pit's game filter."""
    return sorted(((code, game.name) for code, game in registry().items()), key=lambda c: c[1])
