"""Live hands: one action at a time, as the dealer records it on the tablet.

Each action is checked by the game's engine against the hand as it stands, stored with its
audit entry, and answered with the new state (whose turn, legal actions with their bounds,
pots). The stored actions stay the single source of truth: the settlement and the audit
check replay them.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from casino.core.transactions import atomic_service
from casino.rules.contract import hand_view
from payouts.chain import AuditTrail

from .selectors import hand_history
from .services import _append_actions, _lock_playable_hand, game_of, require_table_actor


@atomic_service
def hand_act(*, user: AbstractBaseUser, hand_id: int, action: dict[str, Any]) -> dict[str, Any]:
    """Append one action to a hand and return the new state (whose turn, legal actions with
    their bounds, pots). An illegal action is a 400 and nothing is stored."""
    hand = _lock_playable_hand(hand_id)
    require_table_actor(user, hand.table)
    game = game_of(hand)
    history = hand_history(hand)
    state = game.replay(history)
    state.apply(action)
    trail = AuditTrail()
    _append_actions(hand, user, len(history.actions), [action], trail)
    trail.write(hand.table)
    return {"hand": hand.pk, "actions": len(history.actions) + 1, **hand_view(state, hand.game)}
