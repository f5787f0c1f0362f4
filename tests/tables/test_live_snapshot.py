"""A live action starts from the hand's snapshot (``tables.live``), and the snapshot never
changes a result: hands of every registered game are played action by action through the API
and every answer, and the settlement, equal what a full replay of the stored actions gives.
A snapshot missing, stale, altered, sealed for another hand or with another key, or written
by another engine is ignored and the hand replayed from its stored actions."""

from __future__ import annotations

import io
import json
import pickle
import random
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from casino.rules.contract import game, games, hand_view
from payouts.models import Settlement
from tables import live
from tables.models import Hand
from tables.selectors import hand_history
from tests.desk.any_hand import MAX_STEPS, _choose, _open, _void, action_body, table_for

pytestmark = pytest.mark.django_db

CODES = sorted(found.code for found in games())


def replayed(hand_id: int) -> Any:
    """The hand's state from a full replay of its stored actions."""
    hand = Hand.objects.get(pk=hand_id)
    return game(hand.game).replay(hand_history(hand))


def expected_answer(hand_id: int) -> dict[str, Any]:
    hand = Hand.objects.get(pk=hand_id)
    state = replayed(hand_id)
    return json.loads(
        json.dumps(
            {"hand": hand.pk, "actions": hand.actions.count(), **hand_view(state, hand.game)}
        )
    )


class Spy:
    """Which way each live action found its starting state."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.snapshots: list[bool] = []
        real = live.snapshot_state

        def spy(hand: Hand, found: Any, count: int) -> Any:
            state = real(hand, found, count)
            self.snapshots.append(state is not None)
            return state

        monkeypatch.setattr(live, "snapshot_state", spy)


def play_through_api(code: str, client: Any, floor: Any, dealer: Any, seed: int) -> int:
    """Play a hand of ``code`` action by action through the API, checking every answer
    against a full replay; returns the settled hand's id (None if no hand ended)."""
    found = game(code)
    table = table_for(code, floor=floor, dealer=dealer, players=min(3, found.max_seats))
    for attempt in range(seed, seed + 20):
        rng = random.Random(attempt)
        opened = _open(found, table, dealer, rng)
        state = opened.state
        for _ in range(MAX_STEPS):
            if state["complete"]:
                break
            body = action_body(
                found, _choose(state["legal_actions"], found, rng), state, opened.deck, rng
            )
            response = client.post(f"/api/v1/hands/{opened.pk}/actions/", body, format="json")
            assert response.status_code == 200, (code, body, response.json())
            state = response.json()
            assert state == expected_answer(opened.pk), (code, body)
            snapshot = Hand.objects.get(pk=opened.pk).live_snapshot
            assert (snapshot is None) == state["complete"], (code, "a snapshot while open only")
        if not state["complete"]:
            _void(opened.pk, dealer, floor)  # no end within the steps: the next seed
            continue
        truth = replayed(opened.pk).settle().to_dict()
        settled = client.post(f"/api/v1/hands/{opened.pk}/settle/", {}, format="json")
        assert settled.status_code in (200, 201), (code, settled.json())
        stored = Settlement.objects.get(hand_id=opened.pk)
        assert stored.result == json.loads(json.dumps(truth)), code
        return opened.pk
    raise AssertionError(f"{code}: no hand ended within {MAX_STEPS} steps in 20 tries")


@pytest.mark.parametrize("code", CODES)
def test_every_answer_and_the_settlement_equal_a_full_replay(
    code, floor, dealer, client_for, monkeypatch
):
    spy = Spy(monkeypatch)
    client = client_for(dealer)
    for seed in (0, 40):
        play_through_api(code, client, floor, dealer, seed)
    assert spy.snapshots and all(spy.snapshots), "every action after the first starts from one"


def test_every_registered_game_is_covered():
    assert set(CODES) >= {"paiute", "pontoon", "palace-poker", "five-card-draw-7a"}
    assert set(CODES) == {found.code for found in games()}


# ---------------------------------------------------------------- a hand in progress


class LiveHand:
    """A Paiute hand at a table of its own, acted on through the API, every answer checked
    against a full replay."""

    def __init__(self, floor: Any, dealer: Any, client: Any, seed: int = 7) -> None:
        self.game = game("paiute")
        table = table_for("paiute", floor=floor, dealer=dealer)
        self.rng = random.Random(seed)
        opened = _open(self.game, table, dealer, self.rng)
        self.pk, self.deck, self.state, self.client = opened.pk, opened.deck, opened.state, client

    def body(self) -> dict[str, Any]:
        legal = _choose(self.state["legal_actions"], self.game, self.rng)
        return action_body(self.game, legal, self.state, self.deck, self.rng)

    def act(self, body: dict[str, Any] | None = None) -> dict[str, Any]:
        body = body or self.body()
        response = self.client.post(f"/api/v1/hands/{self.pk}/actions/", body, format="json")
        assert response.status_code == 200, (body, response.json())
        self.state = response.json()
        assert self.state == expected_answer(self.pk)
        return self.state


@pytest.fixture
def paiute_hand(db, floor, dealer, client_for):
    """A Paiute hand with four actions recorded through the API."""
    hand = LiveHand(floor, dealer, client_for(dealer))
    for _ in range(4):
        hand.act()
    assert not hand.state["complete"]
    return hand


def snapshot_of(pk: int) -> bytes:
    raw = Hand.objects.get(pk=pk).live_snapshot
    assert raw is not None
    return bytes(raw)


def put(pk: int, snapshot: bytes | None) -> None:
    Hand.objects.filter(pk=pk).update(live_snapshot=snapshot)


def replays_instead(paiute_hand, monkeypatch) -> None:
    """The next action finds no usable snapshot, never unpickles, and answers as a replay."""
    spy = Spy(monkeypatch)
    loads = []
    real_loads = pickle.loads
    monkeypatch.setattr(live.pickle, "loads", lambda data: loads.append(1) or real_loads(data))
    paiute_hand.act()  # checked against a full replay inside
    assert spy.snapshots == [False] and loads == []
    # and it leaves a good snapshot for the next action
    paiute_hand.act()
    assert spy.snapshots == [False, True] and loads == [1]


def test_the_snapshot_is_sealed_and_bound_to_the_stored_actions(paiute_hand):
    hand = Hand.objects.get(pk=paiute_hand.pk)
    raw = snapshot_of(hand.pk)
    count = int.from_bytes(raw[live.SEAL : live.HEADER], "big")
    assert count == hand.actions.count() == 4
    found = game("paiute")
    state = live.snapshot_state(hand, found, count)
    assert state is not None
    assert hand_view(state, "paiute") == hand_view(replayed(hand.pk), "paiute")
    assert live.snapshot_state(hand, found, count + 1) is None  # not for another count


def test_a_missing_snapshot_replays(paiute_hand, monkeypatch):
    put(paiute_hand.pk, None)
    replays_instead(paiute_hand, monkeypatch)


def test_a_stale_snapshot_replays(paiute_hand, monkeypatch):
    stale = snapshot_of(paiute_hand.pk)  # after 4 actions
    paiute_hand.act()
    put(paiute_hand.pk, stale)  # the hand has 5
    replays_instead(paiute_hand, monkeypatch)


@pytest.mark.parametrize("where", ["seal", "count", "body"])
def test_an_altered_snapshot_is_never_unpickled(paiute_hand, monkeypatch, where):
    raw = bytearray(snapshot_of(paiute_hand.pk))
    if where == "count":  # claims the stored count with another count's seal
        raw[live.SEAL : live.HEADER] = (4).to_bytes(live.COUNT, "big")
        paiute_hand.act()
        raw[live.SEAL : live.HEADER] = (5).to_bytes(live.COUNT, "big")
    else:
        raw[{"seal": 0, "body": len(raw) - 3}[where]] ^= 0x01
    put(paiute_hand.pk, bytes(raw))
    replays_instead(paiute_hand, monkeypatch)


def test_bytes_that_are_not_a_snapshot_are_refused(paiute_hand, monkeypatch):
    put(paiute_hand.pk, b"\x80\x05N.")  # a pickle, unsealed
    replays_instead(paiute_hand, monkeypatch)


def test_a_snapshot_of_another_hand_is_refused(paiute_hand, floor, dealer, client_for, monkeypatch):
    """Another hand's snapshot at the same count, sealed for it, does not verify here."""
    other = LiveHand(floor, dealer, client_for(dealer))
    for _ in range(4):
        other.act()
    put(paiute_hand.pk, snapshot_of(other.pk))
    replays_instead(paiute_hand, monkeypatch)


def test_a_snapshot_sealed_with_another_key_replays(paiute_hand, settings, monkeypatch):
    settings.SECRET_KEY = "a-rotated-key-not-the-one-that-sealed-it"
    replays_instead(paiute_hand, monkeypatch)


def test_a_snapshot_of_another_engine_replays(paiute_hand, monkeypatch):
    """Engine code changed since the snapshot was written (a deploy): replayed."""
    monkeypatch.setitem(live._FINGERPRINTS, "paiute", "another-engine")
    replays_instead(paiute_hand, monkeypatch)


def test_the_fingerprint_covers_the_engine_source():
    found = game("paiute")
    live._FINGERPRINTS.pop("paiute", None)
    first = live.engine_fingerprint(found)
    assert live.engine_fingerprint(found) == first and len(first) == 64
    # a game whose package lives outside casino/rules (the suite registers one): its own
    # package counts too
    elsewhere = next(g for g in games() if not type(g).__module__.startswith("casino.rules."))
    live._FINGERPRINTS.pop(elsewhere.code, None)
    assert live.engine_fingerprint(elsewhere) != first


def test_replay_only_mode_keeps_no_snapshot(paiute_hand, monkeypatch):
    monkeypatch.setattr(live, "SNAPSHOTS", False)
    put(paiute_hand.pk, None)
    paiute_hand.act()
    assert Hand.objects.get(pk=paiute_hand.pk).live_snapshot is None


def test_the_lock_refuses_what_the_services_lock_refuses(paiute_hand, dealer, floor):
    """A hand that does not exist, or waits for the floor, takes no action."""
    from casino.core.errors import Conflict, NotFound
    from tables import services

    with pytest.raises(NotFound):
        live.hand_act(user=dealer, hand_id=paiute_hand.pk + 1000, action={"type": "draw"})
    services.void_request(user=dealer, hand_id=paiute_hand.pk, reason="misdeal")
    with pytest.raises(Conflict):
        live.hand_act(user=dealer, hand_id=paiute_hand.pk, action=paiute_hand.body())


def test_an_illegal_action_stores_nothing_and_keeps_the_snapshot(paiute_hand, dealer, client_for):
    before = snapshot_of(paiute_hand.pk)
    count = Hand.objects.get(pk=paiute_hand.pk).actions.count()
    response = client_for(dealer).post(
        f"/api/v1/hands/{paiute_hand.pk}/actions/", {"type": "call", "seat": 99}, format="json"
    )
    assert response.status_code == 400, response.json()
    assert snapshot_of(paiute_hand.pk) == before
    assert Hand.objects.get(pk=paiute_hand.pk).actions.count() == count
    paiute_hand.act()


def test_the_query_count_does_not_grow_with_the_hand(floor, dealer, client_for):
    """A hand's first action and its later ones read and write alike, request and all."""
    hand = LiveHand(floor, dealer, client_for(dealer))
    assert hand.client.get(f"/api/v1/hands/{hand.pk}/").status_code == 200  # signed in
    counts = []
    for _ in range(8):
        if hand.state["complete"]:
            break
        body = hand.body()
        with CaptureQueriesContext(connection) as captured:
            response = hand.client.post(f"/api/v1/hands/{hand.pk}/actions/", body, format="json")
        assert response.status_code == 200, response.json()
        hand.state = response.json()
        counts.append(len(captured))
    assert len(counts) >= 5 and len(set(counts)) == 1, counts


# ---------------------------------------------------------------- the snapshot's pickler


@dataclass(frozen=True, slots=True)
class Plain:
    rank: int
    cards: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class OwnReduce:
    value: int

    def __reduce__(self) -> Any:
        return (OwnReduce, (self.value * 1,))


def written(obj: Any) -> bytes:
    buffer = io.BytesIO()
    live._Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
    return buffer.getvalue()


def test_plain_slotted_dataclasses_are_written_as_their_fields():
    made = pickle.loads(written([Plain(3, ("Ah",)), Plain(3, ("Ah",))]))
    assert made == [Plain(3, ("Ah",)), Plain(3, ("Ah",))]
    assert b"_made" in written(Plain(1))


def test_a_class_with_its_own_pickling_keeps_it():
    assert b"_made" not in written(OwnReduce(4))
    assert pickle.loads(written(OwnReduce(4))) == OwnReduce(4)


def test_made_refuses_a_class_it_never_writes():
    with pytest.raises(pickle.UnpicklingError):
        live._made(OwnReduce, 4)
    with pytest.raises(pickle.UnpicklingError):
        live._made(Plain, 1, (), "one too many")


def test_a_snapshot_that_does_not_load_replays(paiute_hand, monkeypatch):
    """Sealed, but not loadable (a bug, never an answer): the hand is replayed."""
    hand = Hand.objects.get(pk=paiute_hand.pk)
    sealed = live.snapshot_bytes(hand, game("paiute"), OwnReduce(1), 4)
    put(hand.pk, sealed[: live.HEADER] + b"not a pickle")  # the seal no longer matches
    replays_instead(paiute_hand, monkeypatch)
    broken = pickle.dumps(OwnReduce(1))[:-1]  # truncated, sealed as it is
    seal = live._seal(hand.pk, game("paiute"), 6, broken)
    put(hand.pk, seal + (6).to_bytes(live.COUNT, "big") + broken)
    spy = Spy(monkeypatch)
    paiute_hand.act()
    assert spy.snapshots == [False]
