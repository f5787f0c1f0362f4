"""Palace Poker's presentation view (``PalaceHand.presentation()``), played through the engine:
the deal, a battle's answers, the battle's spoils, a fold and an uncalled raise, the end of the
hand, and random hands held to the view's invariants. Every view is checked against the
shared schema and ``presentation.problems``."""

from __future__ import annotations

import json
from random import Random
from typing import Any

import jsonschema
import pytest

from casino.rules import presentation
from casino.rules.contract import hand_view, registry
from casino.rules.palace_poker import PalaceHand, replay
from tests.rules.palace_helpers import (
    FOUR,
    battle,
    buy,
    call,
    dealt,
    fold,
    four,
    player,
    raise_,
    record,
    stay,
)

JSON = dict[str, Any]

# The worked example of docs/rules/palace-poker.md up to the battle's raise.
EXAMPLE = [buy(1, "Kh"), stay(2), buy(3, "9c"), stay(4), battle(1, 2, 1000), raise_(2, 1000)]

# ``jsonschema.validate(view, presentation.SCHEMA)``, with the schema checked and compiled once.
_SCHEMA = jsonschema.validators.validator_for(presentation.SCHEMA)
_SCHEMA.check_schema(presentation.SCHEMA)
VALIDATOR = _SCHEMA(presentation.SCHEMA)


def shown(hand: PalaceHand) -> JSON:
    """The hand's presentation as JSON, held to the shared schema and checks."""
    view = hand.presentation().to_dict()
    assert presentation.problems(view) == []
    VALIDATOR.validate(view)
    assert json.loads(json.dumps(view)) == view  # JSON-ready as the API sends it
    return view


def seat(view: JSON, number: int) -> JSON:
    (party,) = [party for party in view["seats"] if party["seat"] == number]
    return party


def up(codes: str) -> list[JSON]:
    return [{"card": code, "up": True} for code in codes.split()]


def down(codes: str) -> list[JSON]:
    return [{"card": code, "up": False} for code in codes.split()]


def groups(banner: str = "", palace: list[JSON] | None = None, soldiers: str = "") -> list[JSON]:
    return [
        {"name": "banner", "cards": up(banner)},
        {"name": "palace", "cards": palace or []},
        {"name": "soldiers", "cards": up(soldiers)},
    ]


def wagers(**amounts: int) -> list[JSON]:
    return [{"name": name, "amount": amount} for name, amount in amounts.items()]


def party(number: int, status: str, **fields: Any) -> JSON:
    """A whole party as the view gives it (a player's seat: no house, total or sub-hands)."""
    return {
        "seat": number,
        "house": False,
        "status": status,
        "to_act": status == "to_act",
        "cards": [],
        "stack": None,
        "committed_round": 0,
        "committed_total": None,
        "wagers": [],
        "total": None,
        "hand": None,
        "badges": [],
        "groups": [],
        "hands": [],
        **fields,
    }


def targets_shown(view: JSON) -> list[int]:
    """The battle targets the dealer reads off the seat views alone (clause 8): every other
    seat still in (neither folded nor out) whose banner suit is not the seat to act's."""
    banners = {
        party["seat"]: party["groups"][0]["cards"][0]["card"]
        for party in view["seats"]
        if party["groups"][0]["cards"]
    }
    attacker = view["to_act"]
    return [
        party["seat"]
        for party in view["seats"]
        if party["seat"] != attacker
        and party["status"] not in ("folded", "out")
        and banners[party["seat"]][-1] != banners[attacker][-1]
    ]


def test_just_after_the_deal_every_seat_shows_its_banner_palace_and_ante() -> None:
    view = shown(replay(four()))
    assert view["phase"] == "play" and view["to_act"] == 1
    assert view["seats"] == [
        party(
            1,
            "to_act",
            stack=19_750,
            committed_total=250,
            wagers=wagers(ante=250),
            groups=groups("7h", down("As Ad Kc")),
        ),
        party(
            2,
            "waiting",
            stack=19_750,
            committed_total=250,
            wagers=wagers(ante=250),
            groups=groups("Ks", down("Qh Qc 2d")),
        ),
        party(
            3,
            "waiting",
            stack=19_750,
            committed_total=250,
            wagers=wagers(ante=250),
            groups=groups("Qd", down("Jh Jc 9s")),
        ),
        party(
            4,
            "waiting",
            stack=19_750,
            committed_total=250,
            wagers=wagers(ante=250),
            badges=["dealer", "button"],
            groups=groups("2c", down("Th 9h 8h")),
        ),
    ]
    assert view["house"] is None
    assert view["pots"] == [{"name": "pot", "amount": 1000, "seats": [1, 2, 3, 4]}]
    assert view["stock"] == 36  # 52 - 4 x 4 (clause 5a)
    assert (view["community"], view["wild_rank"], view["top_discard"]) == ([], None, None)
    assert (view["kitty"], view["bank"]) == (None, None)
    assert view["facts"] == {
        "structure": "limit",
        "small_bet": 500,
        "big_bet": 1000,
        "dealer": 4,
        "discards": 0,
    }
    # Every banner suit differs from seat 1's hearts: all three are valid targets.
    assert targets_shown(view) == [2, 3, 4]


def test_the_defender_answers_a_battle_with_the_call_and_raise_shown() -> None:
    hand = replay(four(EXAMPLE[:5]))
    view = shown(hand)
    assert view["phase"] == "battle" and view["to_act"] == 2
    # Seat 2 has no soldiers: the formula call is (0 + 1) x 500 and a limit raise two small
    # bets (clauses 9a, 9d).
    assert view["facts"]["battle"] == {"attacker": 1, "target": 2, "amount": 1000}
    assert (view["facts"]["to_call"], view["facts"]["min_raise"]) == (500, 1000)
    legal = {action["type"]: action for action in hand.legal_actions()}
    assert legal["call"]["amount"] == 500 and legal["raise"]["min"] == 1000
    assert seat(view, 1) == party(
        1,
        "bet",
        stack=18_250,
        committed_round=1000,
        committed_total=1750,
        wagers=wagers(ante=250, buy=500, battle=1000),
        groups=groups("7h", down("As Ad Kc"), "Kh"),
    )
    assert seat(view, 2) == party(
        2,
        "to_act",
        stack=19_750,
        committed_round=0,
        committed_total=250,
        wagers=wagers(ante=250),
        groups=groups("Ks", down("Qh Qc 2d")),
    )
    # The battle (an attack) started clause 16's count again: seat 3's buy and seat 4's stay
    # are behind it.
    assert [seat(view, n)["status"] for n in (3, 4)] == ["in", "in"]
    assert seat(view, 3)["groups"] == groups("Qd", down("Jh Jc 9s"), "9c")
    assert view["pots"] == [{"name": "pot", "amount": 3000, "seats": [1, 2, 3, 4]}]
    assert view["stock"] == 34


def test_the_attacker_faces_the_raise() -> None:
    view = shown(replay(four(EXAMPLE)))
    assert view["phase"] == "battle" and view["to_act"] == 1
    assert [party["seat"] for party in view["seats"] if party["to_act"]] == [1]
    assert (seat(view, 1)["status"], seat(view, 2)["status"]) == ("to_act", "raised")
    # After a raise the call is the raise alone (clause 9b); seat 1 has a soldier, so its
    # re-raise is one big bet.
    assert view["facts"]["to_call"] == 1000 and view["facts"]["min_raise"] == 1000
    assert view["facts"]["battle"] == {"attacker": 1, "target": 2, "amount": 1000}
    assert [
        (party["committed_round"], party["committed_total"], party["stack"])
        for party in view["seats"]
    ] == [(1000, 1750, 18_250), (1500, 1750, 18_250), (0, 750, 19_250), (0, 250, 19_750)]
    assert seat(view, 2)["wagers"] == wagers(ante=250, battle=1500)
    assert view["pots"] == [{"name": "pot", "amount": 4500, "seats": [1, 2, 3, 4]}]


def test_the_battle_winner_takes_the_losers_banner_as_a_soldier() -> None:
    hand = replay(four([*EXAMPLE, call(1)]))
    view = shown(hand)
    assert view["phase"] == "play" and view["to_act"] == 3  # left of the attacker (10e)
    assert "battle" not in view["facts"] and "to_call" not in view["facts"]
    assert seat(view, 1) == party(
        1,
        "in",
        stack=17_250,
        committed_total=2750,
        wagers=wagers(ante=250, buy=500, battle=2000),
        hand="pair of kings, A-7 kickers",
        groups=groups("7h", down("As Ad Kc"), "Kh Ks"),
    )
    # Seat 2 is out: its banner is seat 1's soldier, its palace in the discards.
    assert seat(view, 2) == party(
        2,
        "out",
        stack=18_250,
        committed_total=1750,
        wagers=wagers(ante=250, battle=1500),
        hand="high card K-Q-2",
        groups=groups(),
    )
    assert view["pots"] == [{"name": "pot", "amount": 5500, "seats": [1, 3, 4]}]
    assert view["facts"]["discards"] == 3
    assert targets_shown(view) == [1, 4]
    legal = {action["type"]: action for action in hand.legal_actions()}
    assert legal["battle"]["targets"] == [1, 4]


def test_a_banner_of_the_attackers_suit_is_no_target() -> None:
    # Seat 5 starts the second banner group, so it may share seat 1's hearts (clause 4b).
    hand = replay(record(*FOUR, player(5, "3h", "5d 6d 7d"), dealer=5, actions=[stay(1)]))
    view = shown(hand)
    assert view["to_act"] == 2 and targets_shown(view) == [1, 3, 4, 5]
    for seat_number in (2, 3, 4):
        hand.apply(stay(seat_number))
    view = shown(hand)
    assert view["to_act"] == 5
    assert seat(view, 5)["groups"][0] == {"name": "banner", "cards": up("3h")}
    assert targets_shown(view) == [2, 3, 4]  # not seat 1, hearts like seat 5
    legal = {action["type"]: action for action in hand.legal_actions()}
    assert legal["battle"]["targets"] == [2, 3, 4]
    assert [seat(view, n)["status"] for n in (1, 2, 3, 4)] == ["stood", "stood", "stood", "stood"]
    assert seat(view, 5)["badges"] == ["dealer", "button"]


def test_a_fold_on_a_turn_and_a_battle_fold_with_the_raise_returned() -> None:
    three = record(*FOUR[:3], dealer=3, actions=[buy(1, "Kh"), fold(2)])
    hand = replay(three)
    view = shown(hand)
    assert seat(view, 2) == party(
        2,
        "folded",
        stack=19_750,
        committed_total=250,
        wagers=wagers(ante=250),
        groups=groups(),
    )
    assert seat(view, 1)["status"] == "drew" and view["to_act"] == 3
    assert view["facts"]["discards"] == 4  # seat 2's banner and palace (clause 12a)
    for action in (battle(3, 1, 500), raise_(1, 1000)):
        hand.apply(action)
    view = shown(hand)
    assert view["facts"]["battle"] == {"attacker": 3, "target": 1, "amount": 500}
    assert seat(view, 1)["status"] == "raised" and seat(view, 1)["committed_round"] == 2000
    hand.apply(fold(3))  # seat 3 folds to the raise: out, and the raise goes back (9g)
    view = shown(hand)
    assert view["phase"] == "complete" and view["to_act"] is None
    assert not any(party["to_act"] for party in view["seats"])
    assert seat(view, 1) == party(
        1,
        "won",
        stack=18_250,
        committed_total=1750,
        wagers=wagers(ante=250, buy=500, battle=1000),
        groups=groups("7h", up("As Ad Kc"), "Kh Qd"),
    )
    assert seat(view, 3) == party(
        3,
        "out",
        stack=19_250,
        committed_total=750,
        wagers=wagers(ante=250, battle=500),
        badges=["dealer", "button"],
        groups=groups(),
    )
    assert view["pots"] == [{"name": "pot", "amount": 2750, "seats": [1]}]
    assert view["facts"]["ending"] == "last_standing"
    assert hand.settle().seat(1).lines[0].stake == seat(view, 1)["committed_total"]


def test_the_end_of_the_hand_shows_the_palaces_and_the_showdown() -> None:
    hand = replay(four([*EXAMPLE, call(1), stay(3), stay(4), stay(1)]))
    view = shown(hand)
    assert view["phase"] == "complete" and view["to_act"] is None
    assert view["seats"] == [
        party(
            1,
            "won",
            stack=17_250,
            committed_total=2750,
            wagers=wagers(ante=250, buy=500, battle=2000),
            hand="full house, kings over aces",
            groups=groups("7h", up("As Ad Kc"), "Kh Ks"),
        ),
        party(
            2,
            "out",
            stack=18_250,
            committed_total=1750,
            wagers=wagers(ante=250, battle=1500),
            hand="high card K-Q-2",
            groups=groups(),
        ),
        party(
            3,
            "lost",
            stack=19_250,
            committed_total=750,
            wagers=wagers(ante=250, buy=500),
            hand="two pair, jacks and nines, Q kicker",
            groups=groups("Qd", up("Jh Jc 9s"), "9c"),
        ),
        party(
            4,
            "lost",
            stack=19_750,
            committed_total=250,
            wagers=wagers(ante=250),
            hand="high card T-9-8-2",
            badges=["dealer", "button"],
            groups=groups("2c", up("Th 9h 8h")),
        ),
    ]
    assert view["pots"] == [{"name": "pot", "amount": 5500, "seats": [1]}]
    assert view["facts"] == {
        "structure": "limit",
        "small_bet": 500,
        "big_bet": 1000,
        "dealer": 4,
        "discards": 3,
        "ending": "showdown",
    }


def test_the_platform_sends_the_presentation_with_the_hands_state() -> None:
    game = registry()["palace-poker"]
    data = four(EXAMPLE[:2])
    rules = game.hand_rules({}, 1, {})
    config = {key: value for key, value in data.items() if key != "actions"}
    hand = game.new_hand(config, rules)
    for index, action in enumerate(data["actions"]):
        hand.apply(action, index)
    assert isinstance(hand, PalaceHand)
    sent = hand_view(hand, game.code)["presentation"]
    assert sent == shown(hand)
    assert sent["to_act"] == 3 and seat(sent, 2)["status"] == "stood"


@pytest.mark.parametrize("seed", range(12))
def test_random_hands_keep_the_view_true_to_the_engine(seed: int) -> None:
    """Random legal play at 2-8 seats, both structures: at every step the chips shown add up,
    the palace cards stay face down until the end, the one seat to act is the engine's, and
    the targets read off the seat views are the engine's."""
    rng = Random(seed)
    count = rng.randint(2, 8)
    data = dealt(count, seed=seed, structure=rng.choice(["limit", "no_limit"]))
    starts = {p["seat"]: p["stack"] for p in data["players"]}
    hand = replay(data)
    for _ in range(200):
        view = shown(hand)
        assert view["to_act"] == hand.to_act
        assert sum(party["committed_total"] for party in view["seats"]) == hand.pot
        assert view["pots"][0]["amount"] == hand.pot
        for party_view in view["seats"]:
            assert party_view["stack"] + party_view["committed_total"] == starts[party_view["seat"]]
            assert sum(w["amount"] for w in party_view["wagers"]) == party_view["committed_total"]
            palace = party_view["groups"][1]["cards"]
            assert all(card["up"] is hand.complete for card in palace)
            assert len(palace) in (0, 3)
        if hand.complete:
            break
        legal = {action["type"]: action for action in hand.legal_actions()}
        if "battle" in legal:
            assert targets_shown(view) == legal["battle"]["targets"]
        if "call" in legal:
            assert view["facts"]["to_call"] >= legal["call"]["amount"]
            assert view["facts"].get("min_raise") == legal.get("raise", {}).get("min")
        hand.apply(_pick(rng, hand, legal))
    assert hand.complete
    winners = [party["seat"] for party in view["seats"] if party["status"] == "won"]
    assert winners == sorted(hand.winners) and view["pots"][0]["seats"] == list(hand.winners)


def _pick(rng: Random, hand: PalaceHand, legal: dict[str, JSON]) -> JSON:
    seat_number = hand.to_act
    assert seat_number is not None
    kinds = [kind for kind in ("battle", "call", "buy", "stay", "raise") if kind in legal]
    kind = rng.choice(kinds or ["fold"])
    if kind == "battle":
        target = rng.choice(legal["battle"]["targets"])
        return battle(seat_number, target, legal["battle"]["min"])
    if kind == "buy":
        card = str(rng.choice(hand.buyable()))
        soldiers = [str(c) for c in hand.cards(seat_number)["soldiers"]] + [card]
        return buy(seat_number, card, " ".join(soldiers[: legal["buy"]["must_discard"]]))
    if kind == "raise":
        return raise_(seat_number, legal["raise"]["min"])
    return {"seat": seat_number, "type": kind}
