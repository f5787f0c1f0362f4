"""Paiute: the table between hands. The only state kept between hands is the dealer button:
the deal passes one seat clockwise each hand (:func:`~casino.rules.seating.next_dealer`; the
first hand's dealer may be named in the opening body), and each hand's set-up is the deal
the dealer enters (:class:`~casino.rules.paiute.config.PaiuteConfig`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casino.rules.contract import Opening, TableView
from casino.rules.paiute.config import PaiuteConfig
from casino.rules.seating import DealerButton, next_dealer


class PaiuteTable(DealerButton):
    """The game's table hooks: :class:`~casino.rules.seating.DealerButton`'s (the table's
    view, a closed hand leaving the state as it is) and :meth:`open_hand`."""

    def open_hand(self, table: TableView, body: Mapping[str, Any]) -> Opening:
        dealer = next_dealer(table, body)
        config = PaiuteConfig.from_dict(
            {
                "dealer": dealer,
                "players": table.in_play,
                "ante": table.limits["ante"],
                "hands": body.get("hands"),
                "upcard": body.get("upcard"),
                "first_discard": body.get("first_discard"),
            }
        ).to_dict()
        state, events = self.moved(table, dealer)
        return Opening(config, tuple(table.in_play), state, events)


__all__ = ["PaiuteTable"]
