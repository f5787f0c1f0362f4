"""Pontoon: the table between hands (the logic of the game's table hooks, which
:class:`~casino.rules.pontoon.game.Pontoon` calls): the bank and the Shoot Pontoon kitty are
the table's state between hands; a hand is live, one dealt card or decision at a time.

Table state: ``{"banker": seat or None, "kitty": the kitty carried over or None}``. The first
banker is chosen between hands (``choose_banker``); after that the bank moves only by a
player's pontoon or a sale (the hand's last action), and the old banker leaves with the kitty.
:func:`open_hand` sets up the next hand (the banker, every other seat in play as a player, the
kitty put up or carried over) and :func:`hand_closed` moves the bank and the kitty on after it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casino.rules.contract import JSON, Change, ClosedHand, Event, Opening, TableView
from casino.rules.errors import Refusal, RuleError
from casino.rules.messages import _, msg
from casino.rules.options import as_money, is_int
from casino.rules.pontoon.rules import PontoonConfig
from casino.rules.rule_titles import pontoon_rule


def initial_state() -> JSON:
    return {"banker": None, "kitty": None}


def table_view(table: TableView) -> JSON:
    return {
        "banker": table.state.get("banker"),
        "kitty": table.state.get("kitty"),
        "shoot": table.limits.get("kitty_min") is not None,
    }


def table_actions(table: TableView) -> list[JSON]:
    if table.hand_open or table.state.get("banker") is not None:
        return []
    return [{"type": "choose_banker", "seats": table.in_play}]


def table_act(table: TableView, action: Mapping[str, Any]) -> Change:
    if action.get("type") != "choose_banker":
        raise RuleError(msg(_("the between-hand action of Pontoon is choose_banker")), path="type")
    for key in sorted(set(action) - {"type", "seat"}):
        raise RuleError(msg(_("unknown field %(key)s"), key=repr(key)), path=str(key))
    seat = action.get("seat")
    if not is_int(seat) or seat not in table.in_play:
        raise RuleError(msg(_("seat %(seat)s has no player in play"), seat=str(seat)), path="seat")
    if table.hand_open:
        raise Refusal(msg(_("a hand is in progress; the bank changes between hands")))
    banker = table.state.get("banker")
    if banker is not None:
        raise Refusal(
            msg(
                _("seat %(seat)s holds the bank; it passes after a pontoon or by a sale"),
                seat=banker,
            )
        )
    return moved(table, "bank_assign", seat)


def moved(table: TableView, kind: str, seat: int, **facts: Any) -> Change:
    """The bank moves to ``seat`` (a new banker puts up a new kitty), recorded as ``kind``."""
    before = {"banker": table.state.get("banker"), "kitty": table.state.get("kitty")}
    state = {**table.state, "banker": seat, "kitty": None}
    return Change(state, (Event(kind, {"from_seat": before["banker"], "to_seat": seat, **facts}),))


def open_hand(table: TableView, body: Mapping[str, Any]) -> Opening:
    banker = table.state.get("banker")
    in_play = table.in_play
    if banker is None:
        raise Refusal(
            msg(
                _("nobody holds the bank: choose the first banker (%(rule)s)"),
                rule=pontoon_rule(3),
            )
        )
    if banker not in in_play:
        raise Refusal(msg(_("the banker's seat %(seat)s is not in play"), seat=banker))
    players = [seat for seat in in_play if seat != banker]
    if not players:
        raise Refusal(msg(_("a hand needs at least one player besides the banker")))
    kitty, carried = None, False
    if table.limits.get("kitty_min") is not None:  # Shoot Pontoon
        kitty = table.state.get("kitty")
        # An emptied kitty is not carried: the banker puts up a new one (clause 17).
        carried = kitty is not None and kitty > 0
        if not carried:
            kitty = body.get("kitty")
            if kitty is None:
                raise RuleError(
                    msg(
                        _(
                            "kitty: the banker puts up a kitty between %(least)s and %(most)s "
                            "(%(rule)s)"
                        ),
                        least=as_money(table.limits["kitty_min"]),
                        most=as_money(table.limits["kitty_max"]),
                        rule=pontoon_rule(17),
                    ),
                    path="kitty",
                )
    config = PontoonConfig(
        banker=banker, players=tuple(players), kitty=kitty, kitty_carried=carried
    ).to_dict()
    return Opening(config, (banker, *players), dict(table.state))


def opening_proposal(table: TableView) -> JSON:
    """Shoot Pontoon: a banker who must put up a new kitty is proposed the least kitty
    (clause 17); the dealer confirms it or corrects it to what the banker puts up. A kitty
    carried over, or plain Pontoon, proposes nothing."""
    least = table.limits.get("kitty_min")
    kitty = table.state.get("kitty")
    if least is None or (kitty is not None and kitty > 0):
        return {}
    return {"kitty": least}


def hand_closed(table: TableView, hand: ClosedHand) -> Change:
    """After settlement the bank passes after a player's pontoon or is sold (clause 16;
    the sale's price is settled in the hand) and the old banker leaves with the kitty;
    otherwise the banker keeps it and the kitty carries over (clause 17)."""
    result = hand.result
    if result is None:
        return Change(table.state)
    banker = table.state.get("banker")
    next_banker = result.extra["next_banker"]
    kitty = result.extra.get("kitty_after")
    if next_banker == banker:
        return Change({**table.state, "kitty": kitty})
    sale = result.extra.get("bank_sale")
    return moved(
        table,
        "bank_sale" if sale else "bank_pass",
        next_banker,
        price=sale["price"] if sale else None,
        old_banker_leaves_with_kitty=kitty,
        hand=hand.number,
    )
