"""Five Card Draw 7-A's presentation view (``DrawHand.presentation()``): real hands played
through the engine, looked at just after the deal, at decisions in both betting rounds,
during the draw (discards, pat, the reshuffled stub), with returning players' posts and
all-ins, and at the end; every view is checked against the shared schema and its rules."""

from __future__ import annotations

from typing import Any

import jsonschema

from casino.rules import presentation
from casino.rules.contract import hand_presentation, hand_view, registry
from casino.rules.five_card_draw import DrawHand, replay
from tests.rules.draw_helpers import bet, call, check, draw, fold, pat, post, raise_, record, seat

# The worked example of docs/rules/five-card-draw-7a.md: limit 100/200/400, button seat 1.
EXAMPLE_SEATS = [
    seat(1, "Ah Kh 9h 8c 7d", stack=5000),
    seat(2, "Qs Qd Jc Tc 8s", stack=5000),
    seat(3, "Js Jd As Kd 7c", stack=5000),
]
EXAMPLE_ROUND_1 = [raise_(1, 400), call(2), call(3)]
EXAMPLE_DRAWS = [
    draw(2, "Jc Tc 8s", "Qc 7s 7h"),
    draw(3, "As Kd 7c", "Jh 8d Td"),
    draw(1, "8c 7d", "Th Qh"),
]
EXAMPLE_ROUND_2 = [bet(2, 400), call(3), raise_(1, 800), call(2), fold(3)]
EXAMPLE_RULES = {"rake": {"kind": "percent", "percent": 5, "cap": 300}}

LIMIT_FOUR = [
    seat(1, "As Ks Qs Js 9s"),
    seat(2, "Ah Ad Kh Kd 7c"),
    seat(3, "Qh Qd Qc 8h 7d"),
    seat(4, "Jh Tc 9h 8d 7h"),
]


def example(*actions: dict[str, Any]) -> DrawHand:
    return replay(record(*EXAMPLE_SEATS, actions=list(actions)), EXAMPLE_RULES)


def shown(hand: DrawHand) -> dict[str, Any]:
    """The hand's presentation as JSON, held to the shared schema and rules, and the same as
    the contract puts into the hand's state."""
    view = hand.presentation().to_dict()
    assert presentation.problems(view) == []
    jsonschema.validate(view, presentation.SCHEMA)
    assert hand_presentation(hand) == view
    return view


def hidden(codes: str) -> list[dict[str, Any]]:
    return [{"card": code, "up": False} for code in codes.split()]


def tabled(codes: str) -> list[dict[str, Any]]:
    return [{"card": code, "up": True} for code in codes.split()]


def party(view: dict[str, Any], number: int) -> dict[str, Any]:
    (found,) = [entry for entry in view["seats"] if entry["seat"] == number]
    return found


def chips(view: dict[str, Any]) -> dict[int, tuple[str, int | None, int | None, int | None]]:
    """Each seat's status, stack, chips in this round and in the whole hand."""
    return {
        entry["seat"]: (
            entry["status"],
            entry["stack"],
            entry["committed_round"],
            entry["committed_total"],
        )
        for entry in view["seats"]
    }


def wagers(view: dict[str, Any]) -> dict[int, list[tuple[str, int]]]:
    return {
        entry["seat"]: [(wager["name"], wager["amount"]) for wager in entry["wagers"]]
        for entry in view["seats"]
    }


def test_just_after_the_deal_five_hidden_cards_each_and_the_blinds_in_front() -> None:
    view = shown(example())
    assert view == {
        "phase": "predraw",
        "to_act": 1,
        "seats": [
            {
                "seat": 1,
                "house": False,
                "status": "to_act",
                "to_act": True,
                "cards": hidden("Ah Kh 9h 8c 7d"),
                "stack": 5000,
                "committed_round": 0,
                "committed_total": 0,
                "wagers": [],
                "total": None,
                "hand": None,
                "badges": ["button"],
                "groups": [],
                "hands": [],
            },
            {
                "seat": 2,
                "house": False,
                "status": "waiting",
                "to_act": False,
                "cards": hidden("Qs Qd Jc Tc 8s"),
                "stack": 4900,
                "committed_round": 100,
                "committed_total": 100,
                "wagers": [{"name": "small_blind", "amount": 100}],
                "total": None,
                "hand": None,
                "badges": ["small_blind"],
                "groups": [],
                "hands": [],
            },
            {
                "seat": 3,
                "house": False,
                "status": "waiting",
                "to_act": False,
                "cards": hidden("Js Jd As Kd 7c"),
                "stack": 4800,
                "committed_round": 200,
                "committed_total": 200,
                "wagers": [{"name": "big_blind", "amount": 200}],
                "total": None,
                "hand": None,
                "badges": ["big_blind"],
                "groups": [],
                "hands": [],
            },
        ],
        "house": None,
        "pots": [],  # the blinds are still in front of the seats
        "community": [],
        "wild_rank": None,
        "top_discard": None,
        "stock": 17,  # 32 cards less the 15 dealt
        "kitty": None,
        "bank": None,
        "facts": {
            "structure": "limit",
            "button": 1,
            "deck_size": 32,
            "current_bet": 200,
            "to_call": 200,
            "min_raise_to": 400,
            "max_raise_to": 400,
        },
    }


def test_a_decision_in_round_1_shows_the_call_and_the_one_limit_raise() -> None:
    view = shown(example(raise_(1, 400)))
    assert view["to_act"] == 2
    assert chips(view) == {
        1: ("raised", 4600, 400, 400),
        2: ("to_act", 4900, 100, 100),
        3: ("waiting", 4800, 200, 200),
    }
    assert wagers(view) == {1: [("bet", 400)], 2: [("small_blind", 100)], 3: [("big_blind", 200)]}
    assert [entry["to_act"] for entry in view["seats"]] == [False, True, False]
    assert view["facts"] == {
        "structure": "limit",
        "button": 1,
        "deck_size": 32,
        "current_bet": 400,
        "to_call": 300,
        "min_raise_to": 600,
        "max_raise_to": 600,
    }
    # The small blind calls: its blind and its call are both in front of it.
    view = shown(example(raise_(1, 400), call(2)))
    assert chips(view)[2] == ("called", 4600, 400, 400)
    assert wagers(view)[2] == [("small_blind", 100), ("bet", 300)]
    assert view["to_act"] == 3 and view["facts"]["to_call"] == 200


def test_the_draw_shows_each_seat_s_discards_its_new_cards_and_the_stub() -> None:
    view = shown(example(*EXAMPLE_ROUND_1, *EXAMPLE_DRAWS[:2]))
    assert view["phase"] == "draw" and view["to_act"] == 1
    assert chips(view) == {
        1: ("to_act", 4600, 0, 400),
        2: ("drew", 4600, 0, 400),
        3: ("drew", 4600, 0, 400),
    }
    assert party(view, 2)["cards"] == hidden("Qs Qd Qc 7s 7h")
    assert party(view, 2)["groups"] == [{"name": "discards", "cards": hidden("Jc Tc 8s")}]
    assert party(view, 3)["cards"] == hidden("Js Jd Jh 8d Td")
    assert party(view, 3)["groups"] == [{"name": "discards", "cards": hidden("As Kd 7c")}]
    assert party(view, 1)["cards"] == hidden("Ah Kh 9h 8c 7d") and party(view, 1)["groups"] == []
    assert wagers(view) == {1: [], 2: [], 3: []}
    assert view["pots"] == [{"name": "pot", "amount": 1200, "seats": [1, 2, 3]}]
    assert view["stock"] == 11  # 17 less the 6 cards drawn
    assert view["facts"] == {"structure": "limit", "button": 1, "deck_size": 32}


def test_round_2_starts_with_every_seat_showing_how_it_drew() -> None:
    view = shown(example(*EXAMPLE_ROUND_1, *EXAMPLE_DRAWS))
    assert view["phase"] == "postdraw" and view["to_act"] == 2
    assert chips(view) == {
        1: ("drew", 4600, 0, 400),
        2: ("to_act", 4600, 0, 400),
        3: ("drew", 4600, 0, 400),
    }
    assert view["facts"]["current_bet"] == 0 and view["facts"]["to_call"] == 0
    assert (view["facts"]["min_raise_to"], view["facts"]["max_raise_to"]) == (400, 400)
    everyone_pat = [call(4), call(1), call(2), check(3), *pat(2, 3, 4, 1)]
    view = shown(replay(record(*LIMIT_FOUR, actions=everyone_pat)))
    assert [entry["status"] for entry in view["seats"]] == ["pat", "to_act", "pat", "pat"]
    assert [entry["groups"] for entry in view["seats"]] == [[], [], [], []]


def test_a_decision_in_round_2_after_a_bet_and_a_call() -> None:
    view = shown(example(*EXAMPLE_ROUND_1, *EXAMPLE_DRAWS, *EXAMPLE_ROUND_2[:2]))
    assert view["phase"] == "postdraw" and view["to_act"] == 1
    assert chips(view) == {
        1: ("to_act", 4600, 0, 400),
        2: ("bet", 4200, 400, 800),
        3: ("called", 4200, 400, 800),
    }
    assert wagers(view) == {1: [], 2: [("bet", 400)], 3: [("bet", 400)]}
    assert party(view, 1)["cards"] == hidden("Ah Kh 9h Th Qh")
    assert [entry["hand"] for entry in view["seats"]] == [None, None, None]  # not shown yet
    assert view["pots"] == [{"name": "pot", "amount": 1200, "seats": [1, 2, 3]}]
    assert view["stock"] == 9
    assert view["facts"] == {
        "structure": "limit",
        "button": 1,
        "deck_size": 32,
        "current_bet": 400,
        "to_call": 400,
        "min_raise_to": 800,
        "max_raise_to": 800,
    }


def test_at_the_showdown_the_hands_still_in_are_tabled_and_named() -> None:
    view = shown(example(*EXAMPLE_ROUND_1, *EXAMPLE_DRAWS, *EXAMPLE_ROUND_2))
    assert view["phase"] == "showdown" and view["to_act"] is None
    assert chips(view) == {
        1: ("won", 3800, 800, 1200),
        2: ("lost", 3800, 800, 1200),
        3: ("folded", 4200, 400, 800),
    }
    assert party(view, 1)["cards"] == tabled("Ah Kh 9h Th Qh")
    assert party(view, 2)["cards"] == tabled("Qs Qd Qc 7s 7h")
    assert party(view, 3)["cards"] == hidden("Js Jd Jh 8d Td")  # folded: never shown
    assert [entry["hand"] for entry in view["seats"]] == [
        "flush A-K-Q-T-9",
        "full house Q over 7",
        None,
    ]
    assert [entry["to_act"] for entry in view["seats"]] == [False, False, False]
    assert view["pots"] == [{"name": "pot", "amount": 3200, "seats": [1, 2]}]
    assert view["facts"] == {
        "structure": "limit",
        "button": 1,
        "deck_size": 32,
        "showdown_order": [1, 2],
    }


def test_a_hand_won_without_a_showdown_shows_no_cards_and_no_hand() -> None:
    view = shown(replay(record(*LIMIT_FOUR, actions=[fold(4), fold(1), fold(2)])))
    assert view["phase"] == "complete" and view["to_act"] is None
    assert chips(view) == {
        1: ("folded", 10000, 0, 0),
        2: ("folded", 9900, 100, 100),
        3: ("won", 9800, 200, 200),
        4: ("folded", 10000, 0, 0),
    }
    assert party(view, 3)["cards"] == hidden("Qh Qd Qc 8h 7d")
    assert party(view, 3)["hand"] is None
    # The big blind's uncalled 100 goes back to it: the pot is the small blind and its match.
    assert view["pots"] == [{"name": "pot", "amount": 200, "seats": [3]}]
    assert view["facts"] == {"structure": "limit", "button": 1, "deck_size": 32}


def test_all_ins_make_a_main_pot_and_a_side_pot_and_all_in_players_still_draw() -> None:
    seats = [
        seat(1, "As Ks Qs Js 9s", stack=1000),
        seat(2, "Qh Qd Qc 8h 7d", stack=3000),
        seat(3, "Ah Ad Kh Kd 7c", stack=6000),
    ]
    actions = [raise_(1, 1000), raise_(2, 3000), call(3)]
    hand = replay(record(*seats, structure="no_limit", actions=actions))
    view = shown(hand)
    assert view["phase"] == "draw" and view["to_act"] == 2
    assert chips(view) == {
        1: ("all_in", 0, 0, 1000),
        2: ("to_act", 0, 0, 3000),  # all-in, and its turn to draw
        3: ("waiting", 3000, 0, 3000),
    }
    pots = [
        {"name": "main", "amount": 3000, "seats": [1, 2, 3]},
        {"name": "side", "amount": 4000, "seats": [2, 3]},
    ]
    assert view["pots"] == pots
    assert view["facts"] == {"structure": "no_limit", "button": 1, "deck_size": 32}
    hand.apply(draw(2))
    view = shown(hand)
    assert chips(view)[2] == ("pat", 0, 0, 3000)
    assert party(view, 2)["groups"] == []  # stood pat: no discards
    for action in pat(3, 1):
        hand.apply(action)
    view = shown(hand)
    assert view["phase"] == "showdown"
    assert [entry["status"] for entry in view["seats"]] == ["won", "won", "lost"]  # a pot each
    assert [entry["hand"] for entry in view["seats"]] == [
        "flush A-K-Q-J-9",
        "three of a kind Q, 8-7 kickers",
        "two pair A and K, 7 kicker",
    ]
    assert view["pots"] == pots
    assert view["facts"]["showdown_order"] == [2, 3, 1]


def test_a_returning_player_s_live_and_dead_posts_and_a_new_player_s_live_blind() -> None:
    # Seat 4 comes back posting all: 200 live (its bet) and 100 dead (to the centre).
    posts = [post(2, "small_blind", 100), post(3, "big_blind", 200)]
    returning = replay(
        record(*LIMIT_FOUR, posts=[*posts, post(4, "live", 200), post(4, "dead", 100)])
    )
    view = shown(returning)
    assert view["to_act"] == 4
    assert chips(view)[4] == ("to_act", 9700, 200, 300)
    assert wagers(view)[4] == [("big_blind", 200)]
    assert [entry["badges"] for entry in view["seats"]] == [
        ["button"],
        ["small_blind"],
        ["big_blind"],
        [],
    ]
    assert view["pots"] == [{"name": "pot", "amount": 100, "seats": [1, 2, 3, 4]}]
    assert view["facts"]["dead_blinds"] == {"4": 100}
    assert view["facts"]["to_call"] == 0  # its live blind is its bet: it may check
    # A new player posts the big blind live, nothing dead; it raises on top of it.
    new = replay(
        record(*LIMIT_FOUR, posts=[*posts, post(4, "live", 200)], actions=[raise_(4, 400)])
    )
    view = shown(new)
    assert party(view, 4)["badges"] == ["new_player"]
    assert wagers(view)[4] == [("big_blind", 200), ("bet", 200)]
    assert chips(view)[4] == ("raised", 9600, 400, 400)
    assert "dead_blinds" not in view["facts"]


def test_heads_up_the_button_posts_the_small_blind_and_the_big_blind_has_the_option() -> None:
    heads_up = [seat(1, "As Ks Qs Js 9s"), seat(2, "Ah Ad Kh Kd 7c")]
    view = shown(replay(record(*heads_up, actions=[call(1)])))
    assert [entry["badges"] for entry in view["seats"]] == [
        ["button", "small_blind"],
        ["big_blind"],
    ]
    assert chips(view) == {1: ("called", 9800, 200, 200), 2: ("to_act", 9800, 200, 200)}
    assert view["facts"]["to_call"] == 0
    assert view["stock"] == 22


def test_pot_limit_gives_the_pot_sized_raise_as_the_largest() -> None:
    view = shown(replay(record(*LIMIT_FOUR, structure="pot_limit")))
    # Seat 4 faces 200; the pot after its call is 300 + 200, so it may raise to 700.
    assert view["to_act"] == 4
    assert {key: view["facts"][key] for key in ("structure", "to_call", "min_raise_to")} == {
        "structure": "pot_limit",
        "to_call": 200,
        "min_raise_to": 400,
    }
    assert view["facts"]["max_raise_to"] == 700


def test_five_players_play_the_36_card_deck_and_the_stock_follows_the_reshuffles() -> None:
    seats = [
        seat(1, "6c 6d 6h 6s 7c"),
        seat(2, "7d 7h 7s 8c 8d"),
        seat(3, "8h 8s 9c 9d 9h"),
        seat(4, "9s Tc Td Th Ts"),
        seat(5, "Jc Jd Jh Js Qc"),
    ]
    predraw = [call(3), call(4), call(5), call(1), check(2)]
    hand = replay(record(*seats, button=5, actions=predraw))
    view = shown(hand)
    assert view["facts"]["deck_size"] == 36 and view["stock"] == 11  # 36 less 25 dealt
    assert [entry["badges"] for entry in view["seats"]] == [
        ["small_blind"],
        ["big_blind"],
        [],
        [],
        ["button"],
    ]
    stocks = []
    for action in [
        draw(1, "6c 6d 6h 6s 7c", "Qd Qh Qs Kc Kd"),
        draw(2, "7d 7h 7s 8c 8d", "Kh Ks Ac Ad Ah"),  # the stub's last card stays
        draw(3, "8h 8s 9c 9d 9h", "As 6c 6d 6h 6s"),  # the discards are shuffled back
    ]:
        hand.apply(action)
        stocks.append(shown(hand)["stock"])
    assert stocks == [6, 1, 6]
    view = shown(hand)
    assert party(view, 3)["cards"] == hidden("As 6c 6d 6h 6s")
    assert party(view, 3)["groups"] == [{"name": "discards", "cards": hidden("8h 8s 9c 9d 9h")}]
    assert [entry["status"] for entry in view["seats"]] == [
        "drew",
        "drew",
        "drew",
        "to_act",
        "waiting",
    ]


def test_the_contract_puts_the_presentation_into_the_hand_s_state() -> None:
    game = registry()["five-card-draw-7a"]
    config = record(*EXAMPLE_SEATS)
    del config["actions"]
    state = game.new_hand(config, game.parse_rules(EXAMPLE_RULES))
    for action in EXAMPLE_ROUND_1:
        state.apply(action)
    full = hand_view(state, game.code)
    assert full["presentation"] == state.presentation().to_dict()
    assert full["presentation"]["phase"] == full["phase"] == "draw"
    assert full["presentation"]["to_act"] == full["to_act"] == 2
    assert full["presentation"]["pots"] == [{"name": "pot", "amount": 1200, "seats": [1, 2, 3]}]
