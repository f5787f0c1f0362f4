"""High Card Flush's presentation view (``casino/rules/high_card_flush/view.py``): real hands
played action by action through the engine, the table as the dealer's tablet draws it at each
moment (the bets, the deal, the decisions, the end), each view checked against
:mod:`casino.rules.presentation`'s ids and JSON schema."""

from __future__ import annotations

from typing import Any

import jsonschema

from casino.rules import presentation
from casino.rules.contract import JSON, hand_view, registry
from casino.rules.high_card_flush import Rules
from casino.rules.high_card_flush.hand import HighCardFlushHand, import_record, setup
from tests.rules.helpers import dp, player, record

CODE = "high-card-flush"

DP_CARDS = "Ac 9c 4c Kd 7h 5s 2s"  # 3-card flush A-9-4: qualifies
SEAT_1 = "Kh Th 9h 6h 3h 8d 2c"  # 5-card flush K-T-9-6-3: raises up to 2x
SEAT_2 = "Jd 6d 3d 9s 8s 4h Qc"  # 3-card flush J-6-3
SEAT_5 = "Tc 8c 5c 7d 2h 4s Ad"  # 3-card flush T-8-5: below the DP's A-9-4


def hand_record() -> dict[str, Any]:
    """The designated player in seat 4 with a bank of 20000; seats 1, 2 and 5 bet (seat 1 a
    Flush bonus, seat 2 a Straight Flush bonus); seat 1 raises 2x, seat 2 folds, seat 5
    raises 1x."""
    return record(
        dp(DP_CARDS, seat=4, bank=20_000),
        player(1, SEAT_1, ante=1000, raise_=2000, flush_bonus=200),
        player(2, SEAT_2, ante=1000, raise_=0, straight_flush_bonus=100),
        player(5, SEAT_5, ante=1000, raise_=1000),
    )


def actions(paper: dict[str, Any]) -> list[JSON]:
    """The record as the hand's actions: wagers, deals (the players', then the DP's),
    decisions."""
    return list(import_record(paper, Rules()).actions)


def new_hand(in_play: list[int], bank: int = 20_000) -> HighCardFlushHand:
    state = registry()[CODE].new_hand(setup(4, bank, in_play), Rules().to_dict())
    assert isinstance(state, HighCardFlushHand)
    return state


def shown(state: HighCardFlushHand) -> JSON:
    """The state's presentation as JSON, checked as the platform and the tablet read it."""
    view = state.presentation().to_dict()
    assert presentation.problems(view) == []
    jsonschema.validate(view, presentation.SCHEMA)
    assert hand_view(state, CODE)["presentation"] == view  # what every hand's state carries
    return view


def party(view: JSON, seat: int) -> JSON:
    (found,) = [entry for entry in view["seats"] if entry["seat"] == seat]
    return found


def faces(cards: str, *, up: bool) -> list[JSON]:
    return [{"card": card, "up": up} for card in cards.split()]


def wagers(view: JSON, seat: int) -> list[tuple[str, int]]:
    return [(wager["name"], wager["amount"]) for wager in party(view, seat)["wagers"]]


def statuses(view: JSON) -> dict[int, str]:
    return {entry["seat"]: entry["status"] for entry in view["seats"]}


def play(state: HighCardFlushHand, steps: list[JSON]) -> None:
    for step in steps:
        state.apply(step)


def test_the_bets_before_the_deal() -> None:
    """While the players bet: every seat in play waits, each bettor's wagers as placed, the
    designated player with its bank and the button, no cards yet."""
    state = new_hand([1, 2, 5, 6])
    plan = actions(hand_record())
    play(state, plan[:2])  # seats 1 and 2 bet
    view = shown(state)
    assert view["phase"] == "wagers"
    assert view["to_act"] is None
    assert view["house"] is None  # player-banked: the designated player banks
    assert [entry["seat"] for entry in view["seats"]] == [1, 2, 4, 5, 6]
    assert statuses(view) == {1: "waiting", 2: "waiting", 4: "in", 5: "waiting", 6: "waiting"}
    assert wagers(view, 1) == [("ante", 1000), ("flush_bonus", 200)]
    assert wagers(view, 2) == [("ante", 1000), ("straight_flush_bonus", 100)]
    assert wagers(view, 5) == []
    dealer = party(view, 4)
    assert dealer["badges"] == ["designated_player", "button"]
    assert dealer["wagers"] == [{"name": "bank", "amount": 20_000}]
    assert dealer["house"] is False
    assert view["bank"] == 20_000
    assert all(entry["cards"] == [] and entry["hand"] is None for entry in view["seats"])
    assert all(entry["badges"] == [] for entry in view["seats"] if entry["seat"] != 4)
    assert all(not entry["to_act"] for entry in view["seats"])
    assert view["pots"] == [] and view["community"] == [] and view["stock"] is None
    assert view["facts"] == {"order": [2, 1]}  # clause 13: descending from the DP's seat 4


def test_the_deal_under_way_leaves_out_the_seat_that_did_not_bet() -> None:
    state = new_hand([1, 2, 5, 6])
    plan = actions(hand_record())
    play(state, plan[:4])  # the three bets and seat 1's cards
    view = shown(state)
    assert view["phase"] == "deal"
    assert statuses(view) == {1: "waiting", 2: "waiting", 4: "in", 5: "waiting", 6: "out"}
    assert party(view, 1)["cards"] == faces(SEAT_1, up=False)
    assert party(view, 1)["hand"] == "5-card flush K-T-9-6-3"
    assert party(view, 2)["cards"] == [] and party(view, 2)["hand"] is None
    assert party(view, 4)["cards"] == []
    six = party(view, 6)
    assert (six["wagers"], six["cards"], six["badges"], six["hand"]) == ([], [], [], None)
    assert view["facts"] == {"order": [2, 1, 5]}


def test_just_after_the_deal_every_player_is_to_decide() -> None:
    """Seven cards each, held face down (the players decide on their own cards before the
    designated player's are compared); each hand named by its flush; the DP qualifies."""
    state = new_hand([1, 2, 5, 6])
    plan = actions(hand_record())
    play(state, plan[:7])  # the bets and the four deals
    view = shown(state)
    assert view["phase"] == "decisions"
    assert view["to_act"] is None  # the engine takes the decisions in any order
    assert statuses(view) == {1: "to_act", 2: "to_act", 4: "in", 5: "to_act", 6: "out"}
    assert all(not entry["to_act"] for entry in view["seats"])
    for seat, cards, name in (
        (1, SEAT_1, "5-card flush K-T-9-6-3"),
        (2, SEAT_2, "3-card flush J-6-3"),
        (4, DP_CARDS, "3-card flush A-9-4"),
        (5, SEAT_5, "3-card flush T-8-5"),
    ):
        assert party(view, seat)["cards"] == faces(cards, up=False)
        assert party(view, seat)["hand"] == name
    assert view["facts"] == {"qualifies": True, "order": [2, 1, 5]}
    assert wagers(view, 5) == [("ante", 1000)]


def test_a_2x_raise_on_a_five_card_flush_and_a_fold_mid_hand() -> None:
    """Seat 1 raises twice its ante (clause 6: a 5-card flush allows 2x); seat 2 folds;
    seat 5 still has to decide."""
    state = new_hand([1, 2, 5, 6])
    plan = actions(hand_record())
    play(state, plan[:9])  # ... seat 1's raise and seat 2's fold
    assert plan[7] == {"type": "raise", "seat": 1, "amount": 2000}
    assert plan[8] == {"type": "fold", "seat": 2}
    view = shown(state)
    assert view["phase"] == "decisions"
    assert statuses(view) == {1: "raised", 2: "folded", 4: "in", 5: "to_act", 6: "out"}
    assert wagers(view, 1) == [("ante", 1000), ("raise", 2000), ("flush_bonus", 200)]
    assert wagers(view, 2) == [("ante", 1000), ("straight_flush_bonus", 100)]
    assert party(view, 1)["cards"] == faces(SEAT_1, up=False)
    assert view["bank"] == 20_000


def test_the_end_shows_the_hands_and_who_won() -> None:
    """Complete: the raised hands and the designated player's face up, the fold face down;
    seat 1 wins (ante, 2x raise, Flush bonus 10:1), seat 5 loses, the DP loses 1900."""
    state = new_hand([1, 2, 5, 6])
    play(state, actions(hand_record()))
    assert state.complete
    view = shown(state)
    assert view["phase"] == "complete"
    assert statuses(view) == {1: "won", 2: "folded", 4: "lost", 5: "lost", 6: "out"}
    assert party(view, 1)["cards"] == faces(SEAT_1, up=True)
    assert party(view, 2)["cards"] == faces(SEAT_2, up=False)
    assert party(view, 4)["cards"] == faces(DP_CARDS, up=True)
    assert party(view, 5)["cards"] == faces(SEAT_5, up=True)
    assert wagers(view, 5) == [("ante", 1000), ("raise", 1000)]
    # 20000 + 1000 + 100 (seat 2's fold) + 2000 (seat 5) - 5000 (seat 1: 1000 + 2000 + 2000)
    assert view["facts"] == {"qualifies": True, "order": [2, 1, 5], "bank_after": 18_100}
    assert view["bank"] == 20_000
    assert party(view, 4)["badges"] == ["designated_player", "button"]
    assert view["to_act"] is None and not any(entry["to_act"] for entry in view["seats"])


def test_a_dp_that_does_not_qualify_and_a_dead_hand() -> None:
    """The designated player does not qualify (8-6-2): seat 1's ante wins, so seat 1 won;
    seat 3 would win more than the bank covers, so its hand is dead, every bet returned: a
    push."""
    paper = record(
        dp("8d 6d 2d 7c 5c 3c Ks", seat=4, bank=1000),
        player(1, "Kh Th 6h 3h Qs 8s 2c", ante=1000, raise_=1000),  # wins 1000, first in order
        player(3, "Ah Jh 9h 4h 2h Ad Qc", ante=1000, raise_=2000, flush_bonus=100),
    )
    state = new_hand([1, 3], bank=1000)
    play(state, actions(paper))
    view = shown(state)
    assert view["facts"] == {"qualifies": False, "order": [3, 1], "bank_after": 0}
    settlement = state.settle()
    assert {seat.seat: str(seat.status) for seat in settlement.seats}[3] == "dead"
    assert statuses(view) == {1: "won", 3: "push", 4: "lost"}
    assert party(view, 3)["hand"] == "5-card flush A-J-9-4-2"
    assert wagers(view, 3) == [("ante", 1000), ("raise", 2000), ("flush_bonus", 100)]
