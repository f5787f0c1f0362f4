"""What the floor manager's pages read: the pit's tiles and the approvals queue's rows.

The pit reads every table in a fixed number of queries, whatever the number of tables: the
tables with their dealers and seats, the open hands, the pending requests counted per table,
the dealers, and today's figures summed per table in the database (the definitions of
``payouts.figures``, grouped by table).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, QuerySet
from django.utils import timezone

from approvals.models import Approval
from approvals.selectors import approval_list
from approvals.services import KINDS as DECIDABLE
from casino.core.roles import DEALER
from casino.rules.contract import Game, registry
from casino.rules.errors import RuleError
from payouts import figures
from payouts.figures import Figures, gaming_day, gaming_day_bounds
from payouts.models import Settlement
from payouts.services import result_nets, result_parties
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


# ---------------------------------------------------------------- the approvals queue

STATES = [(value, label) for value, label in Approval.Status.choices]
KINDS = [(value, str(label)) for value, label in Approval.Kind.choices]


@dataclass(frozen=True)
class Diff:
    key: str
    before: str
    after: str
    was_default: bool = False


def shown(value: Any) -> str:
    """A value as the queue shows it: numbers as integers, nothing as "none", objects as
    compact JSON."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict | list):
        return json.dumps(value, separators=(", ", ": "), sort_keys=True)
    return str(value)


def change_diffs(approval: Approval) -> list[Diff]:
    """Every key a limit or rule change alters, with its value before and after. ``rules``
    merge by key, so each changed rule is listed; a rule the table did not override was at
    its game's default."""
    detail = approval.detail or {}
    before = detail.get("before") or {}
    changes = detail.get("changes") or {}
    found = registry().get(approval.table.game)
    defaults = found.default_rules() if found else {}
    diffs = []
    for key, value in changes.items():
        if key == "rules" and isinstance(value, dict):
            current = before.get("rules") or {}
            for rule, new in value.items():
                if rule in current:
                    diffs.append(Diff(f"rules: {rule}", shown(current[rule]), shown(new)))
                else:
                    diffs.append(
                        Diff(f"rules: {rule}", shown(defaults.get(rule)), shown(new), True)
                    )
        else:
            diffs.append(Diff(key, shown(before.get(key)), shown(value)))
    return diffs


@dataclass(frozen=True)
class HeldSeat:
    seat: int
    role: str
    lines: list[dict[str, Any]]
    net: int


def held_seats(approval: Approval) -> list[HeldSeat]:
    """The settlement a payout sign-off would store: each seat (the house's too, where it
    banks) with its lines and net."""
    parties = result_parties((approval.detail or {}).get("result") or {})
    return [
        HeldSeat(
            seat=party.get("seat", 0),
            role=str(party.get("role", "")).replace("_", " "),
            lines=[
                {
                    "wager": str(line.get("wager", "")).replace("_", " "),
                    "stake": line.get("stake"),
                    "amount": line.get("amount"),
                    "against": line.get("against"),
                }
                for line in party.get("lines") or []
            ],
            net=party.get("net", 0),
        )
        for party in parties
    ]


@dataclass
class Row:
    approval: Approval
    diffs: list[Diff] = field(default_factory=list)
    seats: list[HeldSeat] = field(default_factory=list)
    notice: str = ""
    failed: bool = False
    #: What a correction moves, party by party (and the rake).
    moves: list[dict[str, Any]] = field(default_factory=list)
    #: A kind the approvals service knows how to decide.
    decidable: bool = True

    @property
    def is_payout(self) -> bool:
        return self.approval.kind == Approval.Kind.PAYOUT

    @property
    def is_pending(self) -> bool:
        return self.approval.status == Approval.Status.PENDING

    @property
    def over(self) -> list[str]:
        return list((self.approval.detail or {}).get("over") or [])


def row_of(approval: Approval) -> Row:
    row = Row(approval, decidable=approval.kind in DECIDABLE)
    if approval.kind == Approval.Kind.LIMIT_CHANGE:
        row.diffs = change_diffs(approval)
    elif approval.kind == Approval.Kind.PAYOUT:
        row.seats = held_seats(approval)
    elif approval.kind == Approval.Kind.CORRECTION:
        row.moves = correction_moves(approval)
    return row


def correction_moves(approval: Approval) -> list[dict[str, Any]]:
    """Each party's net before and after a correction, what it moves, and the rake's."""
    detail = approval.detail or {}
    before, after = result_nets(detail["before"]), result_nets(detail["result"])
    rows = [
        {
            "label": "house" if seat == "0" else f"seat {seat}",
            "before": before.get(seat, 0),
            "after": after.get(seat, 0),
            "moves": after.get(seat, 0) - before.get(seat, 0),
        }
        for seat in sorted(before.keys() | after.keys(), key=int)
    ]
    old, new = detail["before"]["rake"], detail["result"]["rake"]
    return [*rows, {"label": "rake", "before": old, "after": new, "moves": new - old}]


def queue_rows(
    *, kind: str | None, status: str | None, table_id: int | None, limit: int
) -> tuple[list[Row], int]:
    """The newest ``limit`` requests matching the filters, and how many match in all."""
    queryset = approval_list(kind=kind, status=status, table_id=table_id)
    return [row_of(a) for a in queryset[:limit]], queryset.count()


def approval_row(approval_id: int) -> Row | None:
    approval = approval_list().filter(pk=approval_id).first()
    return row_of(approval) if approval is not None else None
