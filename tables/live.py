"""Live hands: one action at a time, as the dealer records it on the tablet.

Each action is checked by the game's engine against the hand as it stands, stored with its
audit entry, and answered with the new state (whose turn, legal actions with their bounds,
pots). The stored actions stay the single source of truth: the settlement and the audit
check replay them.

The snapshot
------------
Replaying the whole hand for every action would make a hand's cost grow with the square of
its length (a Paiute hand averages 75 actions). So the engine's state after the stored
actions is kept with the hand (``Hand.live_snapshot``), written in the action's own
transaction, and the next action starts from it: an action costs the same at the 75th as at
the 1st, in whichever of the servers' processes it lands.

* **What it holds**: the engine's ``HandState`` pickled, after a header of its HMAC-SHA256
  seal (32 bytes) and the number of stored actions it stands after (4 bytes, big-endian).
  The engines' frozen, slotted dataclasses (cards, operations, rules) are pickled as their
  class and field values (:class:`_Pickler`), rebuilt as ``dataclasses`` would rebuild them
  but about 3x quicker, so that loading a long hand costs less than replaying it. About
  1.5-2.5 kB for a hand of 75 Paiute actions.
* **How it is verified**: the seal is Django's ``salted_hmac`` (SHA-256, a key derived
  from ``settings.SECRET_KEY`` with this module's salt) over the hand's id, that number, the
  engine fingerprint (a digest of the Python version, of this module and of the source of
  every engine module: ``casino/rules`` and the game's own package) and the pickled bytes. A snapshot
  is unpickled only when it verifies and its number equals the hand's stored actions,
  counted by the lock statement itself (the last stored index, one index probe). Bytes not
  written by this code with this key for this hand, at this point of it, by this engine
  code, are never unpickled: a rolling deploy, a changed engine or a rotated key only
  costs a replay.
* **The fallback**: a snapshot missing (a hand opened before the column existed, or whose
  last action completed it), stale (its number differs from the stored actions) or not
  verifying is ignored, and the hand is replayed from its stored actions, exactly as
  without snapshots. A hand with no stored action starts from the game's new hand with no
  read at all.
* **Never a result of its own**: the snapshot is cleared when an action completes the hand
  (its settlement replays the stored actions, so no settled hand keeps one). Tests play
  hands of every registered game through the API and check every answer and the final
  settlement against a full replay (``tests/tables/test_live_snapshot.py``).

``SNAPSHOTS = False`` forces the replay path: every action replays the stored actions and no
snapshot is read or kept (what ``scripts/bench_live.py --replay`` measures as the "before").
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import io
import pickle
import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection
from django.db.models.expressions import RawSQL

from casino.core.transactions import atomic_service
from casino.rules.contract import Game, HandState, History, hand_view
from payouts.chain import AuditTrail
from payouts.rows import Select, bound_cursor, on_postgresql

from .models import Hand, HandAction
from .selectors import hand_history
from .services import (
    _append_actions,
    _lock_playable_hand,
    game_of,
    require_table_actor,
)

#: Start from the stored snapshot when it verifies (False: replay every action, as before).
SNAPSHOTS = True

SALT = "casino.tables.live.snapshot"
SEAL = 32  # an HMAC-SHA256 digest
COUNT = 4  # the number of stored actions, unsigned big-endian
HEADER = SEAL + COUNT
#: The lock query's annotation: the hand's last stored action index (None: no action).
LAST_INDEX = "live_last_index"
_MISSING = object()


@atomic_service
def hand_act(*, user: AbstractBaseUser, hand_id: int, action: dict[str, Any]) -> dict[str, Any]:
    """Append one action to a hand and return the new state (whose turn, legal actions with
    their bounds, pots). An illegal action is a 400 and nothing is stored."""
    hand = _lock(hand_id)
    require_table_actor(user, hand.table)
    game = game_of(hand)
    count = stored_count(hand)
    state = restore(hand, game, count)
    state.apply(action)
    trail = AuditTrail()
    _append_actions(hand, user, count, [action], trail)
    store(hand, game, state, count + 1)
    trail.write(hand.table)
    return {"hand": hand.pk, "actions": count + 1, **hand_view(state, hand.game)}


def _lock(hand_id: int) -> Hand:
    """The open hand no request holds, locked with its table (``_lock_playable_hand``), with
    its last stored action index (:data:`LAST_INDEX`: one probe of the ``(hand, index)``
    unique index), the truth a snapshot's count is checked against. One statement: on
    PostgreSQL built once and prepared (compiling the ORM's query with the annotation cost
    more CPU than the replay it saves)."""
    return _lock_playable_hand(hand_id, _LOCK, lambda: {LAST_INDEX: RawSQL(_LAST_INDEX_SQL, ())})


_LAST_INDEX_SQL = (
    f'SELECT a."index" FROM "{HandAction._meta.db_table}" a '
    f'WHERE a."hand_id" = "{Hand._meta.db_table}"."id" ORDER BY a."index" DESC LIMIT 1'
)
_LOCK = Select(
    Hand,
    f'"{Hand._meta.db_table}"."id" = %b',
    related="table",
    extra=((LAST_INDEX, f"({_LAST_INDEX_SQL})", False),),
    lock=True,
)
_STORE_SQL = f'UPDATE "{Hand._meta.db_table}" SET "live_snapshot" = %s WHERE "id" = %s'
_STORE_BOUND_SQL = _STORE_SQL.replace("%s", "%b")  # bound on the server (payouts.rows)


def stored_count(hand: Hand) -> int:
    """How many actions the hand has stored, as its lock (:func:`_lock`) read them."""
    last = getattr(hand, LAST_INDEX)
    return 0 if last is None else int(last) + 1


def restore(hand: Hand, game: Game, count: int) -> HandState:
    """The engine's state after the hand's ``count`` stored actions: the new hand when it
    has none, the snapshot when it verifies for exactly them, else a replay of them."""
    if count == 0:
        return game.replay(History(hand.game, hand.rules, hand.config, ()))
    state = snapshot_state(hand, game, count) if SNAPSHOTS else None
    if state is not None:
        return state
    return game.replay(hand_history(hand))


def snapshot_state(hand: Hand, game: Game, count: int) -> HandState | None:
    """The state the hand's snapshot holds, if it verifies and stands after ``count``
    actions; None otherwise (missing, stale, altered, sealed with another key or for another
    engine, or not loadable)."""
    raw = hand.live_snapshot
    if raw is None or len(raw) <= HEADER:
        return None
    data = bytes(raw)
    seal, written, body = data[:SEAL], int.from_bytes(data[SEAL:HEADER], "big"), data[HEADER:]
    if written != count or not hmac.compare_digest(seal, _seal(hand.pk, game, count, body)):
        return None
    try:
        return pickle.loads(body)  # type: ignore[no-any-return]
    except Exception:  # sealed by this code, so a failure here is a bug: replay, never guess
        return None


def snapshot_bytes(hand: Hand, game: Game, state: HandState, count: int) -> bytes:
    """The sealed snapshot of ``state`` standing after the hand's ``count`` actions."""
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(state)
    body = buffer.getvalue()
    return _seal(hand.pk, game, count, body) + count.to_bytes(COUNT, "big") + body


def store(hand: Hand, game: Game, state: HandState, count: int) -> None:
    """Keep ``state`` with the hand (in the action's transaction); a complete hand keeps
    none (its settlement replays the stored actions), nor does any with ``SNAPSHOTS`` off."""
    if not SNAPSHOTS:
        return
    snapshot = None if state.complete else snapshot_bytes(hand, game, state, count)
    if snapshot is None and hand.live_snapshot is None:
        return
    if on_postgresql():  # one statement, not compiled by the ORM; prepared, bytes bound
        with bound_cursor() as cursor:
            cursor.execute(_STORE_BOUND_SQL, [snapshot, hand.pk])
    else:
        with connection.cursor() as cursor:
            cursor.execute(_STORE_SQL, [snapshot, hand.pk])
    hand.live_snapshot = snapshot


class _Pickler(pickle.Pickler):
    """The standard pickler, with the engines' frozen, slotted dataclasses (cards, operations,
    rules) written as their class and field values and rebuilt by :func:`_made`: the same
    objects as the dataclass's own ``__getstate__``/``__setstate__`` give, about 3x quicker
    to load (those look the fields up again for every object)."""

    def reducer_override(self, obj: Any) -> Any:
        cls = type(obj)
        names = _FIELDS.get(cls, _MISSING)
        if names is _MISSING:
            names = _FIELDS[cls] = _plain_fields(cls)
        if names is None or getattr(obj, "__dict__", None):
            return NotImplemented
        return _made, (cls, *[getattr(obj, name) for name in names])


def _made(cls: type, *values: Any) -> Any:
    """An object of the slotted dataclass ``cls`` with its fields' ``values``, set through
    the slots' own descriptors (as ``dataclasses`` does when it unpickles one)."""
    made: Any = object.__new__(cls)
    try:
        setters = _SETTERS[cls]
    except KeyError:
        setters = _setters(cls)
    if len(values) != len(setters):
        raise pickle.UnpicklingError(f"{cls.__qualname__} has {len(setters)} fields")
    for setter, value in zip(setters, values):  # noqa: B905 (the lengths are equal)
        setter(made, value)
    return made


def _setters(cls: type) -> tuple[Any, ...]:
    if _plain_fields(cls) is None:  # never written by _Pickler: refused, the hand replayed
        raise pickle.UnpicklingError(f"{cls.__qualname__} is not a plain slotted dataclass")
    _SETTERS[cls] = found = tuple(
        next(k.__dict__[f.name] for k in cls.__mro__ if f.name in k.__dict__).__set__
        for f in dataclasses.fields(cls)
    )
    return found


_FIELDS: dict[type, Any] = {}
_SETTERS: dict[type, tuple[Any, ...]] = {}


def _plain_fields(cls: type) -> tuple[str, ...] | None:
    """The field names of a slotted dataclass pickled the dataclass's own way (no reduce,
    get- or set-state of its own); None for any other class."""
    if not (dataclasses.is_dataclass(cls) and "__slots__" in cls.__dict__):
        return None
    if cls.__reduce_ex__ is not object.__reduce_ex__ or cls.__reduce__ is not object.__reduce__:
        return None
    for name, own in (("__getstate__", "_dataclass_getstate"), ("__setstate__", None)):
        method = getattr(cls, name, None)
        if method is None or method is getattr(object, name, None):
            continue
        if getattr(method, "__qualname__", "") != (own or "_dataclass_setstate"):
            return None
    return tuple(f.name for f in dataclasses.fields(cls))


def _seal(hand_id: int, game: Game, count: int, body: bytes) -> bytes:
    """HMAC-SHA256 of the hand, the count, the engine and the bytes: Django's
    ``salted_hmac(SALT, ..., algorithm="sha256")``, its key derived once per secret key."""
    bound = f"{hand_id}:{count}:{engine_fingerprint(game)}:".encode()
    return hmac.digest(_key(), bound + body, "sha256")


_KEYS: dict[str, bytes] = {}


def _key() -> bytes:
    """``salted_hmac``'s key for :data:`SALT` and ``settings.SECRET_KEY`` (as it is now)."""
    secret = settings.SECRET_KEY
    key = _KEYS.get(secret)
    if key is None:
        key = _KEYS[secret] = hashlib.sha256(f"{SALT}{secret}".encode()).digest()
    return key


_FINGERPRINTS: dict[str, str] = {}


def engine_fingerprint(game: Game) -> str:
    """A digest of what a pickled state of ``game`` depends on: the Python version, this
    module, and the source of every engine module (``casino/rules`` and the game's own
    package, when it lives elsewhere). Computed once per process and game."""
    known = _FINGERPRINTS.get(game.code)
    if known is not None:
        return known
    import casino.rules

    roots = [Path(casino.rules.__file__).resolve().parent]
    here = Path(__file__).resolve()  # how snapshots are written and read
    module = sys.modules.get(type(game).__module__)
    if module is not None and getattr(module, "__file__", None):
        package = Path(module.__file__).resolve().parent  # type: ignore[arg-type]
        if not package.is_relative_to(roots[0]):
            roots.append(package)
    digest = hashlib.sha256(f"{sys.version}:{pickle.HIGHEST_PROTOCOL}".encode())
    digest.update(here.read_bytes())
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            digest.update(str(path.relative_to(root)).encode() + b"\0")
            digest.update(path.read_bytes())
    _FINGERPRINTS[game.code] = found = digest.hexdigest()
    return found
