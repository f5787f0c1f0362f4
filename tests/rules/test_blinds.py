"""Five Card Draw 7-A button, blinds and ML/MS markers (brief clauses 5, 11-14)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules.errors import RuleError
from casino.rules.five_card_draw.blinds import (
    BlindState,
    Choice,
    HandBlinds,
    Marker,
    Post,
    SeatInfo,
    next_hand,
)

SB, BB = 1, 2  # $2/$4 limit: blinds $1/$2 (worked example 4)
AMOUNT = {"sb": SB, "bb": BB, "live": BB, "dead": SB}
TYPE = {"sb": "small_blind", "bb": "big_blind", "live": "live", "dead": "dead"}

ML = frozenset({Marker.ML})
MS = frozenset({Marker.MS})
ML_MS = frozenset({Marker.ML, Marker.MS})


def posts(text: str) -> list[tuple[int, str, int]]:
    """``"2:sb 3:bb 5:live"`` -> the posts in that order, with the $1/$2 amounts."""
    out = []
    for item in text.split():
        seat, kind = item.split(":")
        out.append((int(seat), TYPE[kind], AMOUNT[kind]))
    return out


def as_tuples(hand: HandBlinds) -> list[tuple[int, str, int]]:
    return [(p.seat, str(p.type), p.amount) for p in hand.posts]


def marks(text: Mapping[int, str]) -> dict[int, frozenset[Marker]]:
    return {seat: frozenset(Marker(m) for m in value.split()) for seat, value in text.items()}


class Table:
    """A table as the tables app would drive it: it keeps the state and who is new.

    A player is new from the hand they sit down until they are first dealt in; ``players``
    are the seats whose players have already played here.
    """

    def __init__(self, state: BlindState | None = None, players: Iterable[int] = ()) -> None:
        self.state = state or BlindState()
        self.played: set[int] = set(players)
        self.seen: set[int] = set(players)
        self.hands: list[HandBlinds] = []

    def seats(
        self,
        present: Iterable[int],
        away: Iterable[int] = (),
        choices: Mapping[int, Choice] | None = None,
    ) -> list[SeatInfo]:
        choices = choices or {}
        present, away = set(present), set(away)
        occupied = present | away
        for seat in self.seen - occupied:  # left the table: the next player there is new
            self.played.discard(seat)
        self.seen = occupied
        return [
            SeatInfo(
                seat,
                seat in present,
                new=self.state.big_blind is not None and seat not in self.played,
                choice=choices.get(seat),
            )
            for seat in sorted(occupied)
        ]

    def deal(
        self,
        present: Iterable[int],
        away: Iterable[int] = (),
        choices: Mapping[int, Choice] | None = None,
    ) -> HandBlinds:
        hand = next_hand(
            self.state, self.seats(present, away, choices), small_blind=SB, big_blind=BB
        )
        self.state = hand.state
        self.played |= set(hand.dealt_in)
        self.hands.append(hand)
        return hand


def deal(state: BlindState, seats: list[SeatInfo]) -> HandBlinds:
    return next_hand(state, seats, small_blind=SB, big_blind=BB)


def here(*seats: int, **choices: Choice) -> list[SeatInfo]:
    """Present, non-new seats; ``s3=Choice.WAIT`` adds seat 3 with that choice."""
    chosen = {int(k[1:]): v for k, v in choices.items()}
    return [SeatInfo(s, True, choice=chosen.get(s)) for s in sorted({*seats, *chosen})]


def gone(*seats: int) -> list[SeatInfo]:
    return [SeatInfo(s, False) for s in seats]


def after(
    button: int, sb: int | None, bb: int, markers: Mapping[int, str] | None = None
) -> BlindState:
    """The state after a hand with this button and these blinds (the small blind live)."""
    return BlindState(button=button, small_blind=sb, big_blind=bb, markers=marks(markers or {}))


# --- clause 5 -------------------------------------------------------------------------------


def test_clause_5_left_of_the_button_posts_the_small_blind_and_the_next_the_big_blind():
    hand = deal(BlindState(button=3), here(1, 3, 5, 7))
    assert (hand.button, hand.small_blind, hand.big_blind) == (3, 5, 7)
    assert as_tuples(hand) == posts("5:sb 7:bb")
    assert hand.dealt_in == (1, 3, 5, 7) and not hand.dead_button
    later = deal(hand.state, here(1, 3, 5, 7))
    assert (later.button, later.small_blind, later.big_blind) == (5, 7, 1)


def test_clause_5_heads_up_the_button_posts_the_small_blind_and_acts_first():
    hand = deal(BlindState(button=4), here(2, 4))
    assert (hand.button, hand.small_blind, hand.big_blind) == (4, 4, 2)
    assert as_tuples(hand) == posts("2:bb 4:sb")  # clockwise from left of the button
    assert any("acts first before the draw" in n for n in hand.notes)
    hand = deal(hand.state, here(2, 4))
    assert (hand.button, hand.small_blind, hand.big_blind) == (2, 2, 4)
    hand = deal(hand.state, here(2, 4))
    assert (hand.button, hand.small_blind, hand.big_blind) == (4, 4, 2)


def test_clause_5_three_to_two_when_the_button_leaves_the_big_blind_keeps_moving():
    # Seats 1, 2, 3: button 1, small blind 2, big blind 3. The button's player leaves.
    hand = deal(after(1, 2, 3), here(2, 3) + gone(1))
    assert (hand.big_blind, hand.button, hand.small_blind) == (2, 3, 3)
    assert as_tuples(hand) == posts("2:bb 3:sb")
    assert hand.markers == {1: ML}  # the big blind moved past seat 1 while it was away


def test_clause_5_three_to_two_when_the_small_blind_leaves_nobody_posts_the_big_blind_twice():
    hand = deal(after(1, 2, 3), here(1, 3) + gone(2))
    assert (hand.big_blind, hand.button, hand.small_blind) == (1, 3, 3)
    assert hand.markers == {}  # seat 2 was the button position this time: no blind missed


def test_clause_5_three_to_two_when_the_big_blind_leaves():
    hand = deal(after(1, 2, 3), here(1, 2) + gone(3))
    # The big blind moves on to seat 1; seat 2 (last small blind) has the button heads-up.
    assert (hand.big_blind, hand.button, hand.small_blind) == (1, 2, 2)
    assert hand.markers == {3: MS}  # its small blind came round while it was away


def test_clause_5_two_to_three_the_normal_positions_resume():
    # Heads-up: seat 1 button/small blind, seat 5 big blind; seat 3 (new) sits down between.
    state = BlindState(button=1, small_blind=1, big_blind=5)
    new3 = [SeatInfo(3, True, new=True)]
    hand = deal(state, here(1, 5) + new3)
    # The big blind moves to seat 1; seat 3 would be on the button, so it waits (clause 13)
    # and the hand is heads-up again with seat 5 on the button.
    assert (hand.big_blind, hand.button, hand.small_blind) == (1, 5, 5)
    assert hand.waiting == {
        3: "seat 3 may not come in on the button; it waits until the button passes (new player) (rule 13 (“Where a player may come back; new players”))"
    }
    hand = deal(hand.state, here(1, 5) + new3)
    assert (hand.button, hand.small_blind, hand.big_blind) == (5, 1, 3)
    assert hand.dealt_in == (1, 3, 5) and as_tuples(hand) == posts("1:sb 3:bb")


# --- clause 11 ------------------------------------------------------------------------------


def test_clause_11_the_big_blind_moves_one_active_seat_and_marks_skipped_absent_seats_ml():
    hand = deal(after(1, 2, 3), here(1, 2, 3, 6) + gone(4, 5))
    assert hand.big_blind == 6
    assert (hand.button, hand.small_blind) == (2, 3)
    assert hand.markers == {4: ML, 5: ML}
    assert hand.waiting == {}
    assert (
        "Seat 4 is away as the big blind passes it: marked ML (rule 11 (“Moving the button and blinds; missed blinds (ML, MS)”))."
        in hand.notes
    )


def test_clause_11_the_small_blind_seat_away_gives_a_dead_small_blind_and_ms():
    hand = deal(after(1, 2, 3), here(1, 2, 4, 5) + gone(3))
    assert (hand.button, hand.small_blind, hand.big_blind) == (2, None, 4)
    assert as_tuples(hand) == posts("4:bb")
    assert hand.markers == {3: MS}
    # Next hand the button goes to the dead small blind's seat: a dead button.
    hand = deal(hand.state, here(1, 2, 4, 5) + gone(3))
    assert (hand.button, hand.dead_button, hand.small_blind, hand.big_blind) == (3, True, 4, 5)


def test_clause_11_a_player_who_posted_the_small_blind_has_the_button_next_hand():
    table = Table()
    table.deal([1, 2, 3, 4])
    for _ in range(6):
        small = table.hands[-1].small_blind
        hand = table.deal([1, 2, 3, 4])
        assert hand.button == small


def test_clause_11_rrop_small_blind_leaves_the_button_moves_to_the_empty_seat():
    # Button 1, small blind 2, big blind 3; the small blind's player leaves the table.
    hand = deal(after(1, 2, 3), here(1, 3, 4, 5))
    assert (hand.button, hand.dead_button, hand.small_blind, hand.big_blind) == (2, True, 3, 4)
    assert hand.markers == {}


def test_clause_11_rrop_both_blinds_leave_the_same_player_acts_last_three_hands():
    hand = deal(after(1, 2, 3), here(1, 4, 5, 6))
    assert (hand.button, hand.small_blind, hand.big_blind) == (2, None, 4)
    hand = deal(hand.state, here(1, 4, 5, 6))
    assert (hand.button, hand.dead_button, hand.small_blind, hand.big_blind) == (3, True, 4, 5)
    hand = deal(hand.state, here(1, 4, 5, 6))
    assert (hand.button, hand.small_blind, hand.big_blind) == (4, 5, 6)


def test_clause_11_markers_accumulate():
    # Seat 3 leaves right after posting the big blind: it misses the small blind (MS) ...
    table = Table(after(1, 2, 3), players=[1, 2, 3, 4, 5])
    hand = table.deal([1, 2, 4, 5], away=[3])
    assert hand.markers == {3: MS}
    for _ in range(3):
        hand = table.deal([1, 2, 4, 5], away=[3])
    assert hand.markers == {3: MS}
    # ... and the big blind passes it on its next round (ML as well).
    hand = table.deal([1, 2, 4, 5], away=[3])
    assert hand.big_blind == 4 and hand.markers == {3: ML_MS}


# --- clause 12 ------------------------------------------------------------------------------


def test_worked_example_4_returning_with_ml_and_ms_posts_3_of_which_2_live_and_1_dead():
    state = after(1, 2, 3, {5: "ML MS"})
    hand = next_hand(state, here(1, 2, 3, 4, s5=Choice.POST_ALL), small_blind=1, big_blind=2)
    assert hand.dealt_in == (1, 2, 3, 4, 5)
    owed = [p for p in hand.posts if p.seat == 5]
    assert owed == [Post(5, "live", 2), Post(5, "dead", 1)]
    assert sum(p.amount for p in owed) == 3
    assert hand.markers == {}
    assert (
        "Seat 5 (ML, MS) comes in posting 2 live and 1 dead (rule 12 (“A returning player's choices”))."
        in hand.notes
    )


def test_clause_12_post_all_with_ml_only_is_still_big_blind_live_and_small_blind_dead():
    hand = deal(after(1, 2, 3, {5: "ML"}), here(1, 2, 3, 4, s5=Choice.POST_ALL))
    assert as_tuples(hand) == posts("3:sb 4:bb 5:live 5:dead")
    assert hand.markers == {}


def test_clause_12_ms_only_posts_the_small_blind_dead():
    for choice in (Choice.POST_SMALL_DEAD, Choice.POST_ALL):
        hand = deal(after(1, 2, 3, {5: "MS"}), here(1, 2, 3, 4, s5=choice))
        assert as_tuples(hand) == posts("3:sb 4:bb 5:dead")
        assert hand.markers == {}


def test_clause_12_waiting_keeps_the_markers_until_the_big_blind_reaches_the_seat():
    table = Table(after(1, 2, 3, {6: "ML MS"}), players=[1, 2, 3, 4, 5, 6])
    for expected_bb in (4, 5):
        hand = table.deal([1, 2, 3, 4, 5, 6], choices={6: Choice.WAIT})
        assert hand.big_blind == expected_bb
        assert hand.waiting == {
            6: "seat 6 waits for the big blind (ML, MS) or may post now (rule 12 (“A returning player's choices”))"
        }
        assert hand.markers == {6: ML_MS}
    hand = table.deal([1, 2, 3, 4, 5, 6])  # no choice also means wait
    assert hand.big_blind == 6 and 6 in hand.dealt_in
    assert as_tuples(hand) == posts("5:sb 6:bb")  # only the big blind: markers clear
    assert hand.markers == {}
    assert any("Seat 6 takes the big blind: its ML, MS clears" in n for n in hand.notes)


def test_clause_12_a_dead_small_blind_does_not_settle_a_missed_big_blind():
    with pytest.raises(
        RuleError,
        match=r"seat 5 missed the big blind \(ML\).*rule 12 \(“A returning player's choices”\)",
    ) as err:
        deal(after(1, 2, 3, {5: "ML MS"}), here(1, 2, 3, 4, s5=Choice.POST_SMALL_DEAD))
    assert err.value.problems[0].path == "seats[4].choice"


# --- clause 13 ------------------------------------------------------------------------------


def test_clause_13_may_not_come_back_on_the_button():
    # Seat 3 had the dead small blind last hand (MS); this hand it is the button position.
    state = BlindState(
        button=2, small_blind=None, big_blind=4, dead_small_blind=3, markers=marks({3: "MS"})
    )
    hand = deal(state, here(1, 2, 3, 4, 5, s3=Choice.POST_SMALL_DEAD))
    assert (hand.button, hand.dead_button, hand.small_blind, hand.big_blind) == (3, True, 4, 5)
    assert 3 not in hand.dealt_in
    assert hand.waiting[3].startswith("seat 3 may not come in on the button")
    # Once the button has passed it may post.
    hand = deal(hand.state, here(1, 2, 3, 4, 5, s3=Choice.POST_SMALL_DEAD))
    assert hand.button == 4 and 3 in hand.dealt_in
    assert as_tuples(hand) == posts("5:sb 1:bb 3:dead")


def test_clause_13_may_not_come_back_between_the_button_and_the_small_blind():
    # Seat 3 was skipped by the big blind (ML); now it sits between the button and the SB.
    state = BlindState(button=1, small_blind=2, big_blind=4, markers=marks({3: "ML"}))
    hand = deal(state, here(1, 2, 3, 4, 5, s3=Choice.POST_ALL))
    assert (hand.button, hand.small_blind, hand.big_blind) == (2, 4, 5)
    assert hand.waiting == {
        3: "seat 3 may not come in between the button and the small blind; it waits until "
        "the button passes (ML) (rule 13 (“Where a player may come back; new players”))"
    }


def test_clause_13_a_new_player_may_post_a_big_blind_now_or_wait_for_it():
    new6 = SeatInfo(6, True, new=True, choice=Choice.POST_ALL)
    hand = deal(after(1, 2, 3), here(1, 2, 3, 4, 5) + [new6])
    assert as_tuples(hand) == posts("3:sb 4:bb 6:live")
    waiting = SeatInfo(6, True, new=True)
    hand = deal(after(1, 2, 3), here(1, 2, 3, 4, 5) + [waiting])
    assert hand.waiting == {6: "seat 6 waits for the big blind (new player)"}
    assert 6 not in hand.markers  # a present player is never marked


def test_clause_13_a_new_player_on_the_button_waits_even_if_it_wants_to_post():
    new2 = SeatInfo(2, True, new=True, choice=Choice.POST_ALL)
    hand = deal(after(1, 2, 3), here(1, 3, 4, 5) + [new2])
    assert hand.button == 2 and hand.dead_button
    assert hand.waiting[2].startswith("seat 2 may not come in on the button")


def test_clause_13_a_new_player_in_the_small_blind_seat_waits():
    # Last hand's big blind left and a new player sat straight down in the seat.
    new3 = SeatInfo(3, True, new=True, choice=Choice.POST_ALL)
    hand = deal(after(1, 2, 3), here(1, 2, 4, 5) + [new3])
    assert hand.small_blind is None and hand.big_blind == 4
    assert hand.waiting[3].startswith("seat 3 may not come in on the small blind")
    assert hand.markers == {}


def test_clause_13_new_game_a_new_player_need_not_post_before_a_blind_passes_the_seat():
    table = Table()
    first = table.deal([1, 2, 4, 6])
    assert (first.button, first.small_blind, first.big_blind) == (1, 2, 4)
    assert first.state.first_button == 1
    # Hand 2, big blind 6: no blind has reached seat 7 since the game began, so the new
    # player there is dealt in without posting.
    hand = table.deal([1, 2, 4, 6, 7])
    assert hand.big_blind == 6
    assert 7 in hand.dealt_in and not [p for p in hand.posts if p.seat == 7]
    assert any("Seat 7 is new and no blind has passed" in n for n in hand.notes)
    # Hand 3: seat 7 takes the big blind in turn. Blinds have passed seat 3: its new
    # player must post or wait for the big blind.
    hand = table.deal([1, 2, 3, 4, 6, 7])
    assert hand.big_blind == 7 and as_tuples(hand) == posts("6:sb 7:bb")
    assert hand.waiting == {3: "seat 3 waits for the big blind (new player)"}
    # Hand 4: the big blind reaches seat 1, the first button: the first orbit is over.
    hand = table.deal([1, 2, 3, 4, 6, 7])
    assert hand.big_blind == 1 and hand.state.first_button is None
    hand = table.deal([1, 2, 3, 4, 5, 6, 7])  # so a new player at 5 must post or wait
    assert hand.big_blind == 2
    assert hand.waiting == {
        3: "seat 3 waits for the big blind (new player)",
        5: "seat 5 waits for the big blind (new player)",
    }
    hand = table.deal([1, 2, 3, 4, 5, 6, 7])
    assert hand.big_blind == 3 and 3 in hand.dealt_in


def test_clause_13_a_new_player_away_when_a_blind_passes_owes_it():
    table = Table()
    table.deal([1, 2, 3])  # button 1, small blind 2, big blind 3
    hand = table.deal([1, 2, 3], away=[5])  # seat 5 is taken but its player is not there yet
    assert hand.big_blind == 1 and hand.markers == {5: ML}
    hand = table.deal([1, 2, 3, 5])  # button 3, small blind 1: seat 5 sits between them
    assert hand.waiting == {
        5: "seat 5 may not come in between the button and the small blind; it waits until "
        "the button passes (new player, ML) (rule 13 (“Where a player may come back; new players”))"
    }
    hand = table.deal([1, 2, 3, 5])
    assert hand.waiting == {
        5: "seat 5 waits for the big blind (new player, ML) or may post now (rule 12 (“A returning player's choices”))"
    }
    hand = table.deal([1, 2, 3, 5])
    assert hand.big_blind == 5 and hand.markers == {}


# --- clause 14 ------------------------------------------------------------------------------


def test_clause_14_posts_and_waiting_say_who_owes_what_and_markers_stay_until_cleared():
    state = after(1, 2, 3, {4: "ML", 5: "ML MS", 6: "MS"})
    seats = here(1, 2, 3) + [
        SeatInfo(4, True),
        SeatInfo(5, True, choice=Choice.POST_ALL),
        SeatInfo(6, False),
    ]
    hand = deal(state, seats)
    # Seat 4 is present and the big blind reaches it: it takes it and its ML clears.
    assert hand.big_blind == 4
    assert [(p.seat, p.type, p.amount) for p in hand.posts if p.seat == 5] == [
        (5, "live", 2),
        (5, "dead", 1),
    ]
    assert hand.markers == {6: MS}
    assert hand.waiting == {}
    payload = json.loads(json.dumps(hand.to_dict()))
    assert payload["markers"] == {"6": ["MS"]}
    assert {"seat": 5, "type": "dead", "amount": 1} in payload["posts"]


# --- heads-up adjustment and errors -------------------------------------------------------------


def test_heads_up_adjustment_when_the_only_other_player_waits_for_the_big_blind():
    # Seats 1 (owes nothing) and 3 (ML, waiting); last big blind seat 5 has gone.
    hand = deal(after(4, 5, 6, {3: "ML"}), here(1, 3))
    assert hand.big_blind == 3 and hand.button == 1 and hand.small_blind == 1
    assert hand.markers == {}
    assert "heads-up adjustment" in hand.notes[1]


def test_heads_up_a_returning_player_on_the_button_posts_instead_of_the_small_blind():
    hand = deal(after(4, 5, 6, {3: "ML MS"}), here(1, 3, s3=Choice.POST_ALL))
    assert (hand.button, hand.small_blind, hand.big_blind) == (3, None, 1)
    assert as_tuples(hand) == posts("1:bb 3:live 3:dead")


def test_no_hand_with_fewer_than_two_players_present():
    with pytest.raises(RuleError, match="fewer than 2 players are present") as err:
        deal(BlindState(), here(1) + gone(2, 3))
    assert err.value.problems[0].path == "seats"
    with pytest.raises(RuleError, match=r"fewer than 2 players are present \(only seat 4\)"):
        deal(after(1, 2, 3), here(4) + gone(1, 2, 3))


def test_with_nobody_in_good_standing_the_game_restarts():
    # Everybody left; seats 3 and 4 come back owing, both waiting: nobody could be dealt in
    # with seat 3 (due the big blind) on it, and nobody present owes nothing.
    hand = deal(BlindState(1, 1, 2, {3: ML, 4: ML_MS}), here(3, 4) + gone(1, 2))
    assert (hand.button, hand.small_blind, hand.big_blind) == (4, 4, 3)
    assert hand.dealt_in == (3, 4)
    assert hand.markers == {2: MS}  # forgiven for those dealt in; seat 2 just missed its SB
    assert any("restarts as a new game" in note for note in hand.notes)
    assert hand.state.first_button == 4
    # Four players, three of them new and waiting: the blinds go to the seats before the
    # big blind.
    hand = deal(
        after(1, 2, 3, {4: "ML"}),
        here(4) + [SeatInfo(s, True, new=True) for s in (1, 2, 6)] + gone(3),
    )
    assert (hand.button, hand.small_blind, hand.big_blind) == (1, 2, 4)
    assert hand.dealt_in == (1, 2, 4, 6)


@pytest.mark.parametrize(
    ("seats", "amounts", "message"),
    [
        (here(1, 2), (0, 2), "small blind must be a whole number"),
        (here(1, 2), (3, 2), "may not be larger"),
        (here(1, 2) + here(2), (1, 2), "seat 2 is listed twice"),
        ([SeatInfo(0, True), SeatInfo(1, True)], (1, 2), "is not a seat number"),
    ],
    ids=["zero-small-blind", "small-above-big", "duplicate-seat", "seat-zero"],
)
def test_bad_input_is_refused(seats, amounts, message):
    with pytest.raises(RuleError, match=message):
        next_hand(BlindState(), seats, small_blind=amounts[0], big_blind=amounts[1])


def test_state_round_trips_through_json():
    state = BlindState(
        button=3,
        small_blind=None,
        big_blind=5,
        dead_small_blind=4,
        markers={4: MS, 2: ML_MS, 7: frozenset()},
        first_button=1,
    )
    data = json.loads(json.dumps(state.to_dict()))
    assert data["markers"] == {"2": ["ML", "MS"], "4": ["MS"]}
    assert BlindState.from_dict(data) == state
    assert BlindState.from_dict(None) == BlindState()
    assert BlindState.from_dict({"big_blind": 2}).big_blind == 2  # older records


def test_state_from_bad_data_names_every_problem():
    with pytest.raises(RuleError) as err:
        BlindState.from_dict({"button": "x", "colour": 1, "markers": {"a": ["ML"], "3": ["XX"]}})
    paths = {p.path for p in err.value.problems}
    assert paths == {
        "blind_state.button",
        "blind_state.colour",
        "blind_state.markers.a",
        "blind_state.markers.3",
    }


# --- scenarios over many hands ----------------------------------------------------------------

P, W = Choice.POST_ALL, Choice.WAIT

# Five seats, blinds 1/2. Each row: seats away, choices, then the expected button (with "*"
# for a dead button), small blind ("-" for dead), big blind, posts, markers, waiting seats.
FIVE_SEATS = [
    # 1-2: everyone plays
    ("", {}, "1", "2", 3, "2:sb 3:bb", {}, ""),
    ("", {}, "2", "3", 4, "3:sb 4:bb", {}, ""),
    # 3-5: seat 5 (due the big blind) leaves, misses it (ML), comes back posting all: the
    # big blind live and the small blind dead (clause 12, with or without MS)
    ("5", {}, "3", "4", 1, "4:sb 1:bb", {5: "ML"}, ""),
    ("5", {}, "4", "1", 2, "1:sb 2:bb", {5: "ML"}, ""),
    ("", {5: P}, "1", "2", 3, "2:sb 3:bb 5:live 5:dead", {}, ""),
    # 6-12: seat 3 (due the small blind) leaves: dead small blind and MS, then a dead button,
    # then ML when the big blind passes; it comes back between the button and the small
    # blind (must wait), then posts 2 live + 1 dead
    ("3", {}, "2", "-", 4, "4:bb", {3: "MS"}, ""),
    ("3", {}, "3*", "4", 5, "4:sb 5:bb", {3: "MS"}, ""),
    ("3", {}, "4", "5", 1, "5:sb 1:bb", {3: "MS"}, ""),
    ("3", {}, "5", "1", 2, "1:sb 2:bb", {3: "MS"}, ""),
    ("3", {}, "1", "2", 4, "2:sb 4:bb", {3: "ML MS"}, ""),
    ("", {3: P}, "2", "4", 5, "4:sb 5:bb", {3: "ML MS"}, "3"),
    ("", {3: P}, "4", "5", 1, "5:sb 1:bb 3:live 3:dead", {}, ""),
    # 13-20: seat 5 (due the button) leaves: dead button; ML later; it comes back and waits
    # for the big blind (first between the button and the small blind)
    ("5", {}, "5*", "1", 2, "1:sb 2:bb", {}, ""),
    ("5", {}, "1", "2", 3, "2:sb 3:bb", {}, ""),
    ("5", {}, "2", "3", 4, "3:sb 4:bb", {}, ""),
    ("5", {}, "3", "4", 1, "4:sb 1:bb", {5: "ML"}, ""),
    ("", {5: W}, "4", "1", 2, "1:sb 2:bb", {5: "ML"}, "5"),
    ("", {5: W}, "1", "2", 3, "2:sb 3:bb", {5: "ML"}, "5"),
    ("", {5: W}, "2", "3", 4, "3:sb 4:bb", {5: "ML"}, "5"),
    ("", {5: W}, "3", "4", 5, "4:sb 5:bb", {}, ""),
    # 21-28: the big blind (5) and the button-to-be (4) leave together; both come back,
    # one posting, one waiting for the big blind
    ("45", {}, "4*", "-", 1, "1:bb", {5: "MS"}, ""),
    ("45", {}, "5*", "1", 2, "1:sb 2:bb", {5: "MS"}, ""),
    ("45", {}, "1", "2", 3, "2:sb 3:bb", {5: "MS"}, ""),
    ("45", {}, "2", "3", 1, "3:sb 1:bb", {4: "ML", 5: "ML MS"}, ""),
    ("", {4: P, 5: W}, "3", "1", 2, "1:sb 2:bb", {4: "ML", 5: "ML MS"}, "45"),
    ("", {4: P, 5: W}, "1", "2", 3, "2:sb 3:bb 4:live 4:dead", {5: "ML MS"}, "5"),
    ("", {5: W}, "2", "3", 4, "3:sb 4:bb", {5: "ML MS"}, "5"),
    ("", {5: W}, "3", "4", 5, "4:sb 5:bb", {}, ""),
]


def check_row(hand: HandBlinds, number: int, row: tuple, present: set[int]) -> None:
    _, _, button, sb, bb, posted, markers, waiting = row
    label = f"hand {number}"
    assert (hand.button, hand.dead_button) == (int(button[0]), button.endswith("*")), label
    assert hand.small_blind == (None if sb == "-" else int(sb)), label
    assert hand.big_blind == bb, label
    assert as_tuples(hand) == posts(posted), label
    assert hand.markers == marks(markers), label
    assert set(hand.waiting) == {int(s) for s in waiting}, label
    assert hand.dealt_in == tuple(sorted(present - set(hand.waiting))), label


def test_scenario_five_seats_leaving_and_returning_at_every_position():
    table = Table()
    for number, row in enumerate(FIVE_SEATS, start=1):
        away, choices = {int(s) for s in row[0]}, row[1]
        present = {1, 2, 3, 4, 5} - away
        hand = table.deal(present, away=away, choices=choices)
        check_row(hand, number, row, present)
    # Over the 28 hands every seat paid its share: nobody posts a big blind twice running.
    big_blinds = [h.big_blind for h in table.hands]
    assert all(a != b for a, b in zip(big_blinds, big_blinds[1:], strict=False))


# Seats 2, 4 and 6: three players, then two, then three, twice.
HEADS_UP = [
    ("", {}, "2", "4", 6, "4:sb 6:bb", {}, ""),
    ("", {}, "4", "6", 2, "6:sb 2:bb", {}, ""),
    # the button-to-be (4) leaves: heads-up; 6 had the small blind, now the big blind
    ("4", {}, "2", "2", 6, "6:bb 2:sb", {4: "ML"}, ""),
    ("4", {}, "6", "6", 2, "2:bb 6:sb", {4: "ML"}, ""),
    ("4", {}, "2", "2", 6, "6:bb 2:sb", {4: "ML"}, ""),
    # 4 comes back: it would sit on the button, so it waits one more heads-up hand ...
    ("", {4: W}, "6", "6", 2, "2:bb 6:sb", {4: "ML"}, "4"),
    # ... then the big blind reaches it: three-handed again
    ("", {4: W}, "6", "2", 4, "2:sb 4:bb", {}, ""),
    ("", {}, "2", "4", 6, "4:sb 6:bb", {}, ""),
    # the big blind (6) leaves: heads-up, it misses its small blind (MS), later ML
    ("6", {}, "4", "4", 2, "2:bb 4:sb", {6: "MS"}, ""),
    ("6", {}, "2", "2", 4, "4:bb 2:sb", {6: "MS"}, ""),
    ("6", {}, "4", "4", 2, "2:bb 4:sb", {6: "ML MS"}, ""),
    # it comes back wanting to post, but its seat is the button: it waits ...
    ("", {6: P}, "2", "2", 4, "4:bb 2:sb", {6: "ML MS"}, "6"),
    # ... and the big blind reaches it next: it takes it instead of posting
    ("", {6: P}, "2", "4", 6, "4:sb 6:bb", {}, ""),
]


def test_scenario_heads_up_transitions_three_two_three():
    table = Table()
    for number, row in enumerate(HEADS_UP, start=1):
        away, choices = {int(s) for s in row[0]}, row[1]
        present = {2, 4, 6} - away
        hand = table.deal(present, away=away, choices=choices)
        check_row(hand, number, row, present)
        if len(hand.dealt_in) == 2:
            assert hand.button == hand.small_blind and not hand.dead_button
    big_blinds = [h.big_blind for h in table.hands]
    assert all(a != b for a, b in zip(big_blinds, big_blinds[1:], strict=False))


def test_scenario_new_players_joining_at_different_positions():
    table = Table(after(1, 2, 4), players=[1, 2, 4, 5])
    # A new player at 3, between the button (2) and the small blind (4): must wait.
    hand = table.deal([1, 2, 3, 4, 5])
    assert (hand.button, hand.small_blind, hand.big_blind) == (2, 4, 5)
    assert hand.waiting[3].startswith("seat 3 may not come in between the button")
    # A new player at 6, just where the big blind comes next: plays at once on the big blind
    # (no need to post first); seat 3 now waits for the big blind.
    hand = table.deal([1, 2, 3, 4, 5, 6], choices={6: P})
    assert (hand.button, hand.small_blind, hand.big_blind) == (4, 5, 6)
    assert as_tuples(hand) == posts("5:sb 6:bb")
    assert hand.waiting == {3: "seat 3 waits for the big blind (new player)"}
    hand = table.deal([1, 2, 3, 4, 5, 6])
    assert (hand.button, hand.small_blind, hand.big_blind) == (5, 6, 1)
    # Seat 3, now behind the button, posts a live big blind to play at once.
    hand = table.deal([1, 2, 3, 4, 5, 6], choices={3: P})
    assert (hand.button, hand.small_blind, hand.big_blind) == (6, 1, 2)
    assert as_tuples(hand) == posts("1:sb 2:bb 3:live")
    # Posting was its choice: the big blind reaches it the very next hand anyway.
    hand = table.deal([1, 2, 3, 4, 6])  # and seat 5's player leaves the table
    assert (hand.button, hand.small_blind, hand.big_blind) == (1, 2, 3)
    assert hand.markers == {}
    # A new player takes seat 5 and waits; the big blind reaches it two hands later.
    hand = table.deal([1, 2, 3, 4, 5, 6])
    assert hand.big_blind == 4 and hand.waiting == {
        5: "seat 5 waits for the big blind (new player)"
    }
    hand = table.deal([1, 2, 3, 4, 5, 6])
    assert hand.big_blind == 5 and hand.dealt_in == (1, 2, 3, 4, 5, 6)
    assert as_tuples(hand) == posts("4:sb 5:bb")


# --- invariants over random tables ---------------------------------------------------------------

SIX = range(1, 7)


def cw(start: int, seat: int) -> int:
    return (seat - start) % 7 or 7


def strictly_between(start: int, end: int, seat: int) -> bool:
    return cw(start, seat) < cw(start, end)


seat_roll = st.tuples(st.integers(0, 9), st.sampled_from([None, *Choice]))
scripts = st.lists(st.lists(seat_roll, min_size=6, max_size=6), min_size=1, max_size=40)


@settings(max_examples=400, deadline=None)
@given(scripts)
def test_invariants_hold_over_random_presence_and_choices(script):
    state = BlindState()
    played: set[int] = set()  # seats whose current player has been dealt in
    occupied_before: set[int] = set()
    owes_ml: set[int] = set()  # away when the big blind passed, not yet paid or taken it
    owes_ms: set[int] = set()
    for row in script:
        occupied = {seat for seat, (roll, _) in zip(SIX, row, strict=True) if roll}
        for seat in occupied_before - occupied:  # the player left: the caller forgets the seat
            played.discard(seat)
            owes_ml.discard(seat)
            owes_ms.discard(seat)
        occupied_before = occupied
        state = BlindState(
            button=state.button,
            small_blind=state.small_blind,
            big_blind=state.big_blind,
            markers={s: m for s, m in state.markers.items() if s in occupied},
            dead_small_blind=state.dead_small_blind,
            first_button=state.first_button,
        )
        seats = []
        for seat, (roll, choice) in zip(SIX, row, strict=True):
            if not roll:
                continue
            new = state.big_blind is not None and seat not in played
            if choice == Choice.POST_SMALL_DEAD and (
                new or Marker.ML in state.markers.get(seat, ())
            ):
                choice = None  # refused with a RuleError: tested elsewhere
            seats.append(SeatInfo(seat, roll >= 3, new, choice))
        info = {s.seat: s for s in seats}
        present = {s.seat for s in seats if s.present}
        if len(present) < 2:
            with pytest.raises(RuleError, match="fewer than 2 players are present"):
                next_hand(state, seats, small_blind=SB, big_blind=BB)
            continue
        hand = next_hand(state, seats, small_blind=SB, big_blind=BB)  # two players: a hand
        check_invariants(state, info, present, hand)

        # The ML/MS ledgers, kept independently of the engine.
        last, big = state.big_blind, hand.big_blind
        away = {s for s in occupied if s not in present}
        if last is None:
            sb = hand.small_blind
            assert sb is not None
            owes_ml |= {s for s in away if strictly_between(sb, big, s)}
            if sb != hand.button:
                owes_ms |= {s for s in away if strictly_between(hand.button, sb, s)}
        else:
            owes_ml |= {s for s in away if strictly_between(last, big, s)}
            owes_ms |= {last} & away
        owes_ml -= set(hand.dealt_in)
        owes_ms -= set(hand.dealt_in)
        assert owes_ml == {s for s, m in hand.markers.items() if Marker.ML in m}
        assert owes_ms == {s for s, m in hand.markers.items() if Marker.MS in m}

        played |= set(hand.dealt_in)
        state = hand.state


def check_invariants(
    before: BlindState, info: Mapping[int, SeatInfo], present: set[int], hand: HandBlinds
) -> None:
    dealt = set(hand.dealt_in)
    big = hand.big_blind
    last = before.big_blind
    assert list(hand.dealt_in) == sorted(dealt) and len(dealt) >= 2
    assert dealt <= present and dealt | set(hand.waiting) == present
    assert not dealt & set(hand.waiting)
    assert {p.seat for p in hand.posts} <= dealt
    assert [p.seat for p in hand.posts if p.type == "big_blind"] == [big]
    assert big in dealt
    if hand.small_blind is not None:
        assert hand.small_blind in dealt and hand.small_blind != big
    heads_up = len(dealt) == 2

    restart = any("restarts as a new game" in note for note in hand.notes)
    if restart:
        # Only when nobody owing nothing could make a hand with the seat due the big blind.
        assert last is not None and dealt == present
        assert big == min(present, key=lambda s: cw(last, s))
        assert hand.state.first_button == hand.button
    elif last is not None:
        # The big blind moves clockwise to the next dealt-in seat after the last one.
        proper = min(present, key=lambda s: cw(last, s))
        if big == proper:
            assert big == min(dealt, key=lambda s: cw(last, s))
        else:
            # Heads-up adjustment: the seat due the big blind owes nothing but nobody else
            # could play with it there; it has the button, the next present seat the big blind.
            assert heads_up and hand.button == hand.small_blind == proper
            assert not info[proper].new and not before.markers.get(proper)
            assert big == min(present - {proper}, key=lambda s: cw(proper, s))
            assert any("heads-up adjustment" in note for note in hand.notes)
        # Nobody posts two big blinds running, unless a new player sat in that seat and
        # it is the only way to deal.
        if big == last:
            assert info[big].new and heads_up
        if not heads_up and hand.small_blind is not None:
            assert hand.small_blind == last
        # A player who posted the small blind has the button next hand.
        if (
            not heads_up
            and before.small_blind is not None
            and before.small_blind in dealt
            and before.small_blind != big
        ):
            assert hand.button == before.small_blind

    owed = {s: before.markers.get(s, frozenset()) for s in info}
    first_hand = last is None
    for seat in dealt:
        kinds = [p.type for p in hand.posts if p.seat == seat]
        if first_hand or restart or seat == big:
            continue
        if Marker.ML in owed[seat]:  # post all: the big blind live and the small blind dead
            assert "live" in kinds and "dead" in kinds, (seat, kinds)
        elif info[seat].new:  # a live big blind, or dealt in free in a new game's first orbit
            free = before.first_button is not None and not {"live", "dead"} & set(kinds)
            assert "live" in kinds or free, (seat, kinds)
        if Marker.MS in owed[seat]:
            assert "dead" in kinds, (seat, kinds)
    for post in hand.posts:
        if post.type == "dead":
            assert owed[post.seat] & {Marker.ML, Marker.MS} and post.amount == SB
        if post.type == "live":
            assert Marker.ML in owed[post.seat] or info[post.seat].new
            assert post.amount == BB
        if post.type in ("live", "dead") and not heads_up:
            # Clause 13: nobody comes back on the button or the small blind.
            assert post.seat not in (hand.button, hand.small_blind)

    if heads_up:
        (other,) = dealt - {big}
        assert hand.button == other and not hand.dead_button
        live = any(p.seat == other and p.type == "live" for p in hand.posts)
        assert hand.small_blind == (None if live else other)
    else:
        assert hand.dead_button == (hand.button not in dealt)

    assert set(hand.markers) <= set(info)
    assert not dealt & set(hand.markers)
    assert hand.markers == dict(hand.state.markers)
    data = json.loads(json.dumps(hand.to_dict()))
    assert BlindState.from_dict(data["state"]) == hand.state
