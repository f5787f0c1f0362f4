"""Pontoon rules options: defaults, overrides onto a base, every bad setting named, and the
options that change play (card limit, hand descriptions)."""

from __future__ import annotations

import pytest

from casino.rules.cards import parse_cards
from casino.rules.errors import RuleError
from casino.rules.pontoon import PontoonRules, default_rules, evaluate, hand_value, parse_rules
from tests.rules.pontoon_helpers import banker, buy, hand, nets, player, problems, record


def test_defaults_follow_the_brief() -> None:
    assert default_rules() == {
        "stick_minimum": 15,
        "banker_stick_minimum": None,
        "split_pontoon_pays_double": False,
        "split_pontoon_takes_bank": False,
        "max_split_hands": 4,
        "split_aces_only": False,
        "five_card_limit": 5,
        "decks": 1,
        "stake_min": None,
        "stake_max": None,
        "kitty_min": None,
        "kitty_max": None,
        "smallest_chip": 1,
    }
    rules = PontoonRules.from_dict({"stick_minimum": 16, "stake_max": 500})
    assert PontoonRules.from_dict(rules.to_dict()) == rules


def test_overrides_merge_onto_a_base() -> None:
    table = parse_rules({"stake_min": 100, "stake_max": 1000, "smallest_chip": 50})
    hand_rules = parse_rules({"banker_stick_minimum": 17}, base=table)
    assert (hand_rules["stake_min"], hand_rules["banker_stick_minimum"]) == (100, 17)
    # The kitty's limits fall back to the stake limits.
    rules = PontoonRules.from_dict(table)
    assert (rules.least_kitty, rules.most_kitty) == (100, 1000)
    own = PontoonRules.from_dict({"kitty_min": 500, "kitty_max": 5000}, base=rules)
    assert (own.least_kitty, own.most_kitty) == (500, 5000)


@pytest.mark.parametrize(
    ("data", "path", "message"),
    [
        (
            {"stick_minimum": 11},
            "rules.stick_minimum",
            "the players' stick minimum must be a whole number from 12 to 21, got 11",
        ),
        (
            {"banker_stick_minimum": "17"},
            "rules.banker_stick_minimum",
            "the banker's stick minimum must be a whole number from 12 to 21 (or null for none), "
            "got '17'",
        ),
        (
            {"max_split_hands": 5},
            "rules.max_split_hands",
            "the most hands after splitting must be a whole number from 1 to 4, got 5",
        ),
        (
            {"decks": 3},
            "rules.decks",
            "the number of packs must be a whole number from 1 to 2, got 3",
        ),
        (
            {"five_card_limit": 4},
            "rules.five_card_limit",
            "the card limit must be 5, 6 or 7 cards, got 4",
        ),
        (
            {"split_aces_only": "yes"},
            "rules.split_aces_only",
            "split aces only must be true or false",
        ),
        (
            {"stake_min": 15, "smallest_chip": 10},
            "rules.stake_min",
            "stake minimum 15 is not a multiple of the smallest chip 10",
        ),
        (
            {"stake_min": 100, "stake_max": 50},
            "rules.stake_max",
            "the stake maximum 50 is below the minimum 100",
        ),
        (
            {"stake_min": 100, "kitty_max": 50},
            "rules.kitty_max",
            "the kitty maximum 50 is below the minimum 100",
        ),
        (
            {"kitty_min": 0},
            "rules.kitty_min",
            "kitty minimum must be a whole number of at least 1 (or null), got 0",
        ),
        (
            {"smallest_chip": 0},
            "rules.smallest_chip",
            "smallest chip must be a whole number of at least 1, got 0",
        ),
        ({"colour": "red"}, "rules.colour", "unknown rules setting 'colour'"),
    ],
)
def test_every_bad_setting_is_named(data: dict[str, object], path: str, message: str) -> None:
    with pytest.raises(RuleError) as error:
        PontoonRules.from_dict(data)
    assert problems(error) == [(path, message)]


def test_python_built_rules_are_checked_too() -> None:
    with pytest.raises(RuleError):
        PontoonRules(decks=3)


def test_six_card_limit_makes_a_six_card_trick_and_a_sixth_card_buy() -> None:
    six = {"five_card_limit": 6}
    cards = parse_cards(["2c", "3d", "2h", "3s", "4c"], path="c")
    assert str(hand_value(cards)) == "five card trick (14)"
    assert str(hand_value(cards, limit=6)) == "14"
    result = evaluate(
        record(
            banker("Tc 8c"),
            player(1, hand("2d 3d 2s 3s 4c Ad", buy(20), buy(15), buy(12), buy(10))),
        ),
        six,
    )
    assert result.seat(1).hand == "six card trick (15)"
    assert nets(result) == {1: 2 * 67, 9: -2 * 67}
    with pytest.raises(RuleError) as error:  # the 6th card's buy is at most the 5th's
        evaluate(
            record(
                banker("Tc 8c"),
                player(1, hand("2d 3d 2s 3s 4c Ad", buy(20), buy(15), buy(12), buy(13))),
            ),
            six,
        )
    assert problems(error)[0][1].startswith("seat 1: a sixth-card buy is 10 to 12")


def test_hand_descriptions() -> None:
    def words(text: str, **options: object) -> str:
        return str(hand_value(parse_cards(text.split(), path="c"), **options))  # type: ignore[arg-type]

    assert words("As Kd") == "pontoon"
    assert words("As 6d") == "soft 17"
    assert words("As 6d Kc") == "17"
    assert words("Ks 6d 9c") == "bust (25)"
    assert words("7s 7d 7c") == "21"
    assert words("As Kd", split=True) == "21 (split pontoon)"
    assert words("As Kd", split=True, split_pontoon_is_pontoon=True) == "pontoon (split hand)"
