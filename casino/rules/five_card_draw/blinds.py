"""Button, blinds and missed-blind markers for Five Card Draw 7-A (brief clauses 5, 11-14).

The tables app keeps, per table, a :class:`BlindState` (last hand's button and blinds and each
seat's ML/MS markers). Before each hand it calls :func:`next_hand` with the occupied seats and
the blind amounts; the answer says where the button is, who posts what, who is dealt in, who
waits and why, and the :class:`BlindState` to keep for the next hand. Pure functions, no Django.

Seats are numbered; clockwise is ascending seat number, wrapping from the highest to the
lowest. A position (button, small blind) may be an empty seat number.

How the brief is read, with Robert's Rules of Poker (RRoP) "dead button" practice where it is
silent:

* **Big blind (clause 11).** The big blind goes to the first *present* seat clockwise after
  last hand's big blind. A present seat always takes it when it comes round, whatever it owes
  (RRoP "wait for the big blind"); taking it clears its markers. So the big blind is always
  dealt in and is the first dealt-in seat clockwise after the last one, and no seat posts the
  big blind two hands running. The one exception is the heads-up adjustment below.
* **Small blind and button (clause 11, RRoP dead button).** The small-blind position is the
  seat that had the big blind last hand; the button position is the seat that had the small
  blind position last hand. A position whose player is not dealt in (away, waiting, or an
  empty seat) gives a dead small blind (nobody posts it) or a dead button. A player who
  posted the small blind therefore has the button next hand. When a dead small blind's
  position is an empty or away seat, the state keeps it in ``dead_small_blind`` so the button
  can go there next hand (RRoP: "the button moves to the seat vacated..."). Should the
  remembered button position not lie between the big blind and the small blind (possible
  only after heads-up play), the button goes to the last present seat before the small blind.
* **Markers (clause 11).** A seat that is away (``present=False``) when the big blind moves
  past it (every seat strictly between last hand's and this hand's big blind) is marked ML;
  the seat in the small-blind position, if away, is marked MS. Seats skipped by the small
  blind in any other way were already passed by the big blind and hold ML. Markers
  accumulate; they belong to the seat's player, so a seat missing from ``seats`` (empty)
  loses them. Present seats are never marked.
* **Returning players (clause 12).** A present seat with ML (with or without MS) choosing
  ``post_all`` posts the big blind live and the small blind dead (worked example 4:
  $2 live + $1 dead) and is dealt in; both markers clear. With MS only, ``post_small_dead``
  (or ``post_all``, which then means the same) posts the small blind dead and clears MS. Any
  other choice (``wait`` or none) waits for the big blind. ``post_small_dead`` from a seat
  owing ML, or from a new player, is refused with a RuleError (it does not settle what they
  owe).
* **Where one may come back (clause 13).** A player who owes blinds, or is new, may not be
  dealt in by posting while their seat is in the button position, the small-blind position
  or between them (RRoP: "a new player cannot be dealt in between the small blind and the
  button"); they wait until the button passes. They may always take the big blind.
* **New players (clause 13).** A new player (``new=True``) comes in by taking the big blind
  when it reaches them (free) or by posting a live big blind now (``post_all``), outside the
  positions above. "A new player need not post until the button has passed, unless a blind
  has already passed their seat" is RRoP's rule for a newly started game: from the table's
  first hand until the big blind has gone all the way round, a new player whose seat no blind
  has passed yet (clockwise after this hand's big blind, up to and including the first hand's
  button seat) is dealt in without posting. Blinds passing a new player's seat while it is
  away mark it like any other seat; it then owes what the markers say.
* **First hand.** Every present seat is dealt in without owing anything (RRoP: players who
  draw for the button are active). The button goes to ``state.button`` if that seat is
  present (the caller may put the seat that won the draw there), otherwise to the next
  present seat clockwise (the lowest present seat when unset); the blinds go to the next
  present seats. Away seats between the button and the small blind are marked MS, away seats
  between the small blind and the big blind ML.
* **Heads-up (clause 5).** When only two players are dealt in, the big blind still moves as
  above and the other player has the button and posts the small blind (acting first before
  the draw). Going from three to two players this keeps the big blind moving, so nobody posts
  it twice running; from two to three, the normal positions resume. If the other player is
  coming back by posting, what they post (clause 12) stands in place of the small blind: a
  live big blind replaces it (the small blind is then recorded dead); an MS-only player posts
  the dead small blind and the small blind. The small-blind position seat, if away, is still
  marked MS.
* **When nobody else could be dealt in.** If, with the big blind on its proper seat, no
  second player could be dealt in (everyone else waits or may not come back yet):

  - if the proper seat's player owes nothing, the big blind moves on to the next present
    seat clockwise, whose player takes it (clearing their markers), and the proper seat's
    player has the button and posts the small blind: a heads-up hand (RRoP: "the button may
    need to be adjusted"). This is the only time the big blind passes over a dealt-in seat
    (the button). It lands on last hand's big-blind seat only if that is the one other
    present seat and a new player has since sat in it: the one case of a seat posting the
    big blind two hands running.
  - otherwise no player in good standing is left and the game restarts as a new game (RRoP):
    the big blind stays on the proper seat, the small blind and button go to the present
    seats before it, every present player is dealt in, their earlier markers are forgiven,
    and the new game's first orbit begins (see clause 13 above).

  So a hand can always be dealt when two players are present; RuleError is raised only when
  fewer than two are.
* **Clause 14** is enforced by the caller: ``posts`` lists every amount owed and ``waiting``
  says who is not dealt in; markers stay until a post or the big blind clears them.
* Posts are listed clockwise from the seat left of the button (the button's own last).

For the caller: store ``HandBlinds.state`` whole (``to_dict``/``from_dict``); besides the
three positions it carries ``dead_small_blind`` and ``first_button``, without which the
button after a dead small blind falls back to the last present seat before the small blind.
A seat stops being ``new`` once it appears in ``dealt_in``. When a player leaves the table,
drop the seat from ``seats`` (its markers go with it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from casino.rules.errors import Problems, RuleError
from casino.rules.messages import Message, _, msg
from casino.rules.rule_titles import five_card_draw_rule


class Marker(StrEnum):
    ML = "ML"  # missed the big ("large") blind
    MS = "MS"  # missed the small blind


class Choice(StrEnum):
    """What a returning (or new) player chose (clause 12)."""

    POST_ALL = "post_all"
    WAIT = "wait"
    POST_SMALL_DEAD = "post_small_dead"


class PostType(StrEnum):
    SMALL_BLIND = "small_blind"
    BIG_BLIND = "big_blind"
    LIVE = "live"  # a returning or new player's live big blind
    DEAD = "dead"  # dead money to the centre, not part of the player's bet


_POST_ORDER = {PostType.SMALL_BLIND: 0, PostType.BIG_BLIND: 1, PostType.LIVE: 2, PostType.DEAD: 3}


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """An occupied seat as the table sees it before the deal."""

    seat: int
    present: bool  # seated and not sitting out (will be dealt in if allowed)
    new: bool = False  # newly seated, never dealt a hand at this table yet
    choice: Choice | None = None  # for a player owing blinds, or a new player who posts now


def _markers_to_json(markers: Mapping[int, frozenset[Marker]]) -> dict[str, list[str]]:
    return {str(seat): sorted(str(m) for m in marks) for seat, marks in sorted(markers.items())}


def _clean_markers(markers: Mapping[int, Iterable[Marker]]) -> dict[int, frozenset[Marker]]:
    return {
        seat: frozenset(Marker(m) for m in marks)
        for seat, marks in sorted(markers.items())
        if frozenset(marks)
    }


@dataclass(frozen=True, slots=True)
class BlindState:
    """What the table remembers between hands."""

    button: int | None = None  # last hand's button position (None before the first hand)
    small_blind: int | None = None  # last hand's small-blind seat (None: dead small blind)
    big_blind: int | None = None  # last hand's big-blind seat
    markers: Mapping[int, frozenset[Marker]] = field(default_factory=dict)
    # Last hand's small-blind position when the small blind was dead (the button goes there).
    dead_small_blind: int | None = None
    # The first hand's button while the big blind's first orbit is under way (clause 13).
    first_button: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "markers", _clean_markers(self.markers))

    def to_dict(self) -> dict[str, Any]:
        return {
            "button": self.button,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "dead_small_blind": self.dead_small_blind,
            "first_button": self.first_button,
            "markers": _markers_to_json(self.markers),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> BlindState:
        if data is None:
            return cls()
        problems = Problems()
        if not isinstance(data, Mapping):
            raise RuleError(msg(_("the blind state must be an object")), path="blind_state")
        positions: dict[str, int | None] = {}
        for key, value in data.items():
            path = f"blind_state.{key}"
            if key == "markers":
                continue
            if key not in _POSITION_FIELDS:
                problems.add(path, msg(_("unknown blind state field %(key)s"), key=repr(key)))
            elif value is not None and not _is_seat(value):
                problems.add(
                    path,
                    msg(
                        _("%(key)s must be a seat number (a whole number from 1) or null"),
                        key=str(key),
                    ),
                )
            else:
                positions[key] = value
        markers: dict[int, frozenset[Marker]] = {}
        raw = data.get("markers") or {}
        if not isinstance(raw, Mapping):
            problems.add("blind_state.markers", msg(_("markers must map seat numbers to lists")))
            raw = {}
        for key, marks in raw.items():
            path = f"blind_state.markers.{key}"
            seat = _seat_key(key)
            if seat is None:
                problems.add(path, _not_a_marker_seat(key))
                continue
            if isinstance(marks, str) or not isinstance(marks, Iterable):
                problems.add(
                    path,
                    msg(_("seat %(seat)s: markers must be a list such as ['ML', 'MS']"), seat=seat),
                )
                continue
            found: set[Marker] = set()
            for mark in marks:
                try:
                    found.add(Marker(mark))
                except ValueError:
                    problems.add(
                        path,
                        msg(
                            _("seat %(seat)s: unknown marker %(mark)s (ML or MS)"),
                            seat=seat,
                            mark=repr(mark),
                        ),
                    )
            markers[seat] = frozenset(found)
        problems.raise_if_any()
        return cls(
            button=positions.get("button"),
            small_blind=positions.get("small_blind"),
            big_blind=positions.get("big_blind"),
            markers=markers,
            dead_small_blind=positions.get("dead_small_blind"),
            first_button=positions.get("first_button"),
        )


_POSITION_FIELDS = ("button", "small_blind", "big_blind", "dead_small_blind", "first_button")


def _is_seat(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _seat_key(key: object) -> int | None:
    if _is_seat(key):
        assert isinstance(key, int)
        return key
    if isinstance(key, str) and key.isdigit() and int(key) >= 1:
        return int(key)
    return None


@dataclass(frozen=True, slots=True)
class Post:
    """One amount a seat puts up before the deal."""

    seat: int
    type: str  # "small_blind" | "big_blind" | "live" | "dead"
    amount: int

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": str(self.type), "amount": self.amount}


@dataclass(frozen=True, slots=True)
class HandBlinds:
    """Everything the table needs to know about blinds before one hand."""

    button: int  # button position (may be a dead button: a seat not dealt in, or empty)
    dead_button: bool
    small_blind: int | None  # the seat posting the small blind; None = dead small blind
    big_blind: int
    dealt_in: tuple[int, ...]  # ascending seat numbers
    posts: tuple[Post, ...]  # every post owed, clockwise from left of the button
    waiting: dict[int, str]  # present seats not dealt in, with the reason in words
    markers: dict[int, frozenset[Marker]]  # markers after this hand's posts
    state: BlindState  # what to store for the next hand
    notes: tuple[str, ...]  # plain-language lines for the dealer and the audit log

    @property
    def heads_up(self) -> bool:
        return len(self.dealt_in) == 2

    def to_dict(self) -> dict[str, Any]:
        return {
            "button": self.button,
            "dead_button": self.dead_button,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "dealt_in": list(self.dealt_in),
            "posts": [post.to_dict() for post in self.posts],
            "waiting": {str(seat): reason for seat, reason in sorted(self.waiting.items())},
            "markers": _markers_to_json(self.markers),
            "state": self.state.to_dict(),
            "notes": list(self.notes),
        }


# --- seat geometry ---------------------------------------------------------------------------


class _Table:
    """The occupied seats, their markers and clockwise arithmetic for one call."""

    def __init__(
        self,
        seats: dict[int, SeatInfo],
        markers: dict[int, frozenset[Marker]],
        positions: Iterable[int | None],
        small_blind: int,
        big_blind: int,
    ) -> None:
        self.seats = seats
        self.markers = markers
        self.present = sorted(s for s, info in seats.items() if info.present)
        numbers = [*seats, *(p for p in positions if p is not None)]
        self.span = max(numbers, default=0) + 1
        self.sb_amount = small_blind
        self.bb_amount = big_blind

    def cw(self, start: int, seat: int) -> int:
        """Clockwise steps from ``start`` to ``seat``; a full turn when they are the same."""
        return (seat - start) % self.span or self.span

    def strictly_between(self, start: int, end: int, seat: int) -> bool:
        """``seat`` lies clockwise after ``start`` and before ``end`` (open arc)."""
        return self.cw(start, seat) < self.cw(start, end)

    def up_to(self, start: int, end: int, seat: int) -> bool:
        """``seat`` lies clockwise after ``start``, up to and including ``end``."""
        return self.cw(start, seat) <= self.cw(start, end)

    def next_present(self, after: int) -> int:
        return min(self.present, key=lambda s: self.cw(after, s))

    def owed(self, seat: int) -> frozenset[Marker]:
        return self.markers.get(seat, frozenset())

    def regular(self, seat: int) -> bool:
        """Present, not new and owing nothing: dealt in wherever the seat is."""
        info = self.seats.get(seat)
        return info is not None and info.present and not info.new and not self.owed(seat)

    def away(self, seat: int) -> bool:
        info = self.seats.get(seat)
        return info is not None and not info.present

    def debt_words(self, seat: int) -> str:
        words = [str(m) for m in sorted(self.owed(seat))]
        if self.seats[seat].new:
            words.insert(0, "new player")
        return ", ".join(words) or "owes nothing"


def _not_a_marker_seat(key: object) -> Message:
    return msg(_("marker key %(key)s is not a seat number"), key=repr(key))


def _arrival_posts(table: _Table, seat: int) -> list[Post]:
    """What a returning or new player posts to be dealt in now (clause 12)."""
    owed = table.owed(seat)
    posts: list[Post] = []
    # "Post all" with ML (with or without MS): the big blind live and the small blind dead;
    # a new player posting now: the big blind live; MS only: the small blind dead.
    if Marker.ML in owed or table.seats[seat].new:
        posts.append(Post(seat, PostType.LIVE, table.bb_amount))
    if owed & {Marker.ML, Marker.MS}:
        posts.append(Post(seat, PostType.DEAD, table.sb_amount))
    return posts


def _may_post_now(table: _Table, seat: int) -> bool:
    info = table.seats[seat]
    owed = table.owed(seat)
    if info.choice == Choice.POST_ALL:
        return True
    return info.choice == Choice.POST_SMALL_DEAD and owed == {Marker.MS} and not info.new


def _post_words(posts: Sequence[Post]) -> str:
    return " and ".join(
        f"{p.amount} {'live' if p.type == PostType.LIVE else 'dead'}" for p in posts
    )


# --- one arrangement ----------------------------------------------------------------------------


@dataclass
class _Plan:
    big_blind: int
    button: int
    sb_position: int  # where the small blind sits (posted or dead)
    small_blind: int | None
    dealt: set[int] = field(default_factory=set)
    how: dict[int, str] = field(default_factory=dict)  # seat -> big_blind/small_blind/...
    posts: list[Post] = field(default_factory=list)
    waiting: dict[int, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _plan(table: _Table, state: BlindState, big_blind: int) -> _Plan:
    """Place the blinds for a hand whose big blind is on ``big_blind`` (not the first hand)."""
    last_bb = state.big_blind
    assert last_bb is not None
    sb_pos = last_bb
    button = state.small_blind if state.small_blind is not None else state.dead_small_blind
    if button is None or not table.strictly_between(big_blind, sb_pos, button):
        before_sb = [s for s in table.present if table.strictly_between(big_blind, sb_pos, s)]
        button = max(before_sb, key=lambda s: table.cw(big_blind, s)) if before_sb else sb_pos

    def between_button_and_sb(seat: int) -> bool:
        if button == sb_pos:
            return seat == sb_pos
        return seat == button or table.up_to(button, sb_pos, seat)

    first = state.first_button
    first_orbit = first is not None and not table.up_to(last_bb, big_blind, first)
    plan = _Plan(big_blind=big_blind, button=button, sb_position=sb_pos, small_blind=None)

    for seat in table.present:
        info = table.seats[seat]
        if seat == big_blind:
            plan.dealt.add(seat)
            plan.how[seat] = "big_blind"
            plan.posts.append(Post(seat, PostType.BIG_BLIND, table.bb_amount))
        elif seat == sb_pos and table.regular(seat):
            plan.dealt.add(seat)
            plan.how[seat] = "small_blind"
            plan.small_blind = seat
            plan.posts.append(Post(seat, PostType.SMALL_BLIND, table.sb_amount))
        elif table.regular(seat):
            plan.dealt.add(seat)
            plan.how[seat] = "regular"
        elif between_button_and_sb(seat):
            where = (
                "on the button"
                if seat == button
                else "on the small blind"
                if seat == sb_pos
                else "between the button and the small blind"
            )
            plan.waiting[seat] = (
                f"seat {seat} may not come in {where}; it waits until the button passes "
                f"({table.debt_words(seat)}) ({five_card_draw_rule(13)})"
            )
        elif (
            first_orbit
            and first is not None
            and info.new
            and not table.owed(seat)
            and table.up_to(big_blind, first, seat)
        ):
            plan.dealt.add(seat)
            plan.how[seat] = "free"
        elif _may_post_now(table, seat):
            plan.dealt.add(seat)
            plan.how[seat] = "posted"
            plan.posts.extend(_arrival_posts(table, seat))
        else:
            plan.waiting[seat] = (
                f"seat {seat} waits for the big blind ({table.debt_words(seat)})"
                + (f" or may post now ({five_card_draw_rule(12)})" if table.owed(seat) else "")
            )
    return plan


def _heads_up(table: _Table, plan: _Plan) -> None:
    """Clause 5: with two players the other one has the button and posts the small blind."""
    (other,) = plan.dealt - {plan.big_blind}
    plan.button = other
    plan.sb_position = other
    plan.posts = [p for p in plan.posts if p.seat != other]
    if plan.how[other] == "posted":
        arrival = _arrival_posts(table, other)
        plan.posts.extend(arrival)
        if any(p.type == PostType.LIVE for p in arrival):
            plan.small_blind = None
            plan.notes.append(
                f"Heads-up: seat {other} has the button and comes back posting "
                f"{_post_words(arrival)}; its live big blind stands in place of the small "
                f"blind; it acts first before the draw (clauses 5 and 12)."
            )
            return
        plan.posts.append(Post(other, PostType.SMALL_BLIND, table.sb_amount))
        plan.small_blind = other
        plan.notes.append(
            f"Heads-up: seat {other} has the button, posts {table.sb_amount} dead for its "
            f"missed small blind and the small blind of {table.sb_amount}; it acts first "
            f"before the draw (clauses 5 and 12)."
        )
        return
    plan.posts.append(Post(other, PostType.SMALL_BLIND, table.sb_amount))
    plan.small_blind = other
    plan.notes.append(
        f"Heads-up: seat {other} has the button and posts the small blind of "
        f"{table.sb_amount}; it acts first before the draw ({five_card_draw_rule(5)})."
    )


def _adjusted(table: _Table, alone: _Plan, proper: int) -> _Plan:
    """RRoP heads-up adjustment: the big blind moves on so that a hand can be dealt."""
    big = table.next_present(proper)
    plan = _Plan(big_blind=big, button=proper, sb_position=proper, small_blind=proper)
    plan.dealt = {proper, big}
    plan.how = {proper: "small_blind", big: "big_blind"}
    plan.posts = [
        Post(big, PostType.BIG_BLIND, table.bb_amount),
        Post(proper, PostType.SMALL_BLIND, table.sb_amount),
    ]
    plan.waiting = {s: reason for s, reason in alone.waiting.items() if s != big}
    plan.notes = [
        f"Seat {proper} is due the big blind, but nobody else could be dealt in with it there: "
        f"the big blind moves on to seat {big} (heads-up adjustment, {five_card_draw_rule(5)}).",
        f"Heads-up: seat {proper} has the button and posts the small blind of "
        f"{table.sb_amount}; it acts first before the draw ({five_card_draw_rule(5)}).",
    ]
    return plan


def _restart(table: _Table, big: int) -> _Plan:
    """Nobody present owes nothing and no hand can be dealt: a new game begins (RRoP)."""
    ring = sorted(table.present, key=lambda s: table.cw(big, s))  # ends with ``big``
    small = ring[-2]
    button = small if len(ring) == 2 else ring[-3]
    plan = _Plan(big_blind=big, button=button, sb_position=small, small_blind=small)
    plan.dealt = set(ring)
    plan.how = {s: "regular" for s in ring} | {small: "small_blind", big: "big_blind"}
    plan.posts = [
        Post(small, PostType.SMALL_BLIND, table.sb_amount),
        Post(big, PostType.BIG_BLIND, table.bb_amount),
    ]
    plan.notes = [
        "No player owing nothing is present and no hand could otherwise be dealt: the game "
        "restarts as a new game; every present player is dealt in and earlier missed blinds "
        "are forgiven (RRoP new game).",
    ]
    if len(ring) == 2:
        plan.notes.append(
            f"Heads-up: seat {small} has the button and posts the small blind of "
            f"{table.sb_amount}; it acts first before the draw ({five_card_draw_rule(5)})."
        )
    return plan


# --- checks ------------------------------------------------------------------------------------


def _check(
    state: BlindState, seats: Sequence[SeatInfo], small_blind: int, big_blind: int
) -> dict[int, SeatInfo]:
    problems = Problems()
    for name, amount, wrong in (
        ("small_blind", small_blind, _("the small blind must be a whole number from 1")),
        ("big_blind", big_blind, _("the big blind must be a whole number from 1")),
    ):
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
            problems.add(name, msg(wrong))
    problems.raise_if_any()
    if small_blind > big_blind:
        problems.add("small_blind", msg(_("the small blind may not be larger than the big blind")))
    table: dict[int, SeatInfo] = {}
    for index, info in enumerate(seats):
        path = f"seats[{index}]"
        if not _is_seat(info.seat):
            problems.add(
                f"{path}.seat",
                msg(_("seat %(seat)s is not a seat number"), seat=repr(info.seat)),
            )
            continue
        if info.seat in table:
            problems.add(f"{path}.seat", msg(_("seat %(seat)s is listed twice"), seat=info.seat))
            continue
        choice = info.choice
        if choice is not None:
            try:
                choice = Choice(choice)
            except ValueError:
                problems.add(
                    f"{path}.choice",
                    msg(
                        _("seat %(seat)s: unknown choice %(choice)s"),
                        seat=info.seat,
                        choice=repr(choice),
                    ),
                )
                continue
        owed = frozenset(state.markers.get(info.seat, frozenset()))
        if choice == Choice.POST_SMALL_DEAD and info.present and state.big_blind is not None:
            if info.new:
                problems.add(
                    f"{path}.choice",
                    msg(
                        _(
                            "seat %(seat)s is new: it comes in by posting a big blind or by "
                            "waiting for the big blind, not by a dead small blind (%(rule)s)"
                        ),
                        seat=info.seat,
                        rule=five_card_draw_rule(13),
                    ),
                )
            elif Marker.ML in owed:
                problems.add(
                    f"{path}.choice",
                    msg(
                        _(
                            "seat %(seat)s missed the big blind (ML): it posts the big blind "
                            "live plus the small blind dead, or waits for the big blind "
                            "(%(rule)s)"
                        ),
                        seat=info.seat,
                        rule=five_card_draw_rule(12),
                    ),
                )
        table[info.seat] = SeatInfo(info.seat, bool(info.present), bool(info.new), choice)
    for key in ("button", "small_blind", "big_blind", "dead_small_blind", "first_button"):
        value = getattr(state, key)
        if value is not None and not _is_seat(value):
            problems.add(
                f"state.{key}",
                msg(_("%(key)s %(value)s is not a seat number"), key=key, value=repr(value)),
            )
    for seat in state.markers:
        if not _is_seat(seat):
            problems.add("state.markers", _not_a_marker_seat(seat))
    problems.raise_if_any()
    return table


# --- the hand ----------------------------------------------------------------------------------


def next_hand(
    state: BlindState, seats: Sequence[SeatInfo], *, small_blind: int, big_blind: int
) -> HandBlinds:
    """Place the button and blinds for the next hand; see the module docstring for the rules.

    ``seats`` lists every occupied seat (away ones with ``present=False``). Raises RuleError
    when fewer than two players are present (with two or more a hand can always be dealt).
    """
    seat_map = _check(state, seats, small_blind, big_blind)
    markers = {s: m for s, m in state.markers.items() if s in seat_map and m}
    positions = (
        state.button,
        state.small_blind,
        state.big_blind,
        state.dead_small_blind,
        state.first_button,
    )
    table = _Table(seat_map, markers, positions, small_blind, big_blind)
    if len(table.present) < 2:
        present = table.present[0] if table.present else None
        raise RuleError(
            msg(
                _("no hand can be dealt: fewer than 2 players are present (only seat %(seat)s)"),
                seat=present,
            )
            if present is not None
            else msg(_("no hand can be dealt: fewer than 2 players are present")),
            path="seats",
        )
    if state.big_blind is None:
        return _first_hand(table, state)

    last_bb = state.big_blind
    proper = table.next_present(last_bb)
    plan = _plan(table, state, proper)
    if len(plan.dealt) == 2:
        _heads_up(table, plan)
    elif len(plan.dealt) < 2 and table.regular(proper):
        plan = _adjusted(table, plan, proper)
    first = state.first_button
    if first is not None and table.up_to(last_bb, plan.big_blind, first):
        first = None  # the big blind has gone all the way round: the first orbit is over
    if len(plan.dealt) < 2:
        plan = _restart(table, proper)
        first = plan.button

    new_markers = dict(markers)
    marked: list[str] = []
    for seat in sorted(seat_map, key=lambda s: table.cw(last_bb, s)):
        if table.away(seat) and table.strictly_between(last_bb, plan.big_blind, seat):
            new_markers[seat] = new_markers.get(seat, frozenset()) | {Marker.ML}
            marked.append(
                f"Seat {seat} is away as the big blind passes it: marked ML ({five_card_draw_rule(11)})."
            )
    if table.away(last_bb):
        new_markers[last_bb] = new_markers.get(last_bb, frozenset()) | {Marker.MS}
        marked.append(
            f"Seat {last_bb} is away when the small blind comes to it: marked MS ({five_card_draw_rule(11)})."
        )

    return _finish(table, plan, new_markers, marked, first)


def _first_hand(table: _Table, state: BlindState) -> HandBlinds:
    present = table.present
    if state.button in present:
        button = state.button
    elif state.button is not None:
        button = table.next_present(state.button)
    else:
        button = present[0]
    if len(present) == 2:
        sb = button
        bb = table.next_present(button)
    else:
        sb = table.next_present(button)
        bb = table.next_present(sb)
    plan = _Plan(big_blind=bb, button=button, sb_position=sb, small_blind=sb)
    plan.dealt = set(present)
    plan.how = {s: "regular" for s in present}
    plan.posts = [
        Post(sb, PostType.SMALL_BLIND, table.sb_amount),
        Post(bb, PostType.BIG_BLIND, table.bb_amount),
    ]
    plan.notes.append("First hand: every present player is dealt in without owing anything.")
    if len(present) == 2:
        plan.notes.append(
            f"Heads-up: seat {sb} has the button and posts the small blind of "
            f"{table.sb_amount}; it acts first before the draw ({five_card_draw_rule(5)})."
        )
    new_markers = {s: m for s, m in table.markers.items() if s not in plan.dealt}
    marked: list[str] = []
    for seat in sorted(table.seats, key=lambda s: table.cw(button, s)):
        if not table.away(seat):
            continue
        if sb != button and table.strictly_between(button, sb, seat):
            new_markers[seat] = new_markers.get(seat, frozenset()) | {Marker.MS}
            marked.append(f"Seat {seat} is away as the small blind passes it: marked MS.")
        elif table.strictly_between(sb, bb, seat):
            new_markers[seat] = new_markers.get(seat, frozenset()) | {Marker.ML}
            marked.append(f"Seat {seat} is away as the big blind passes it: marked ML.")
    return _finish(table, plan, new_markers, marked, button)


def _finish(
    table: _Table,
    plan: _Plan,
    markers: dict[int, frozenset[Marker]],
    marked: list[str],
    first_button: int | None,
) -> HandBlinds:
    for seat in plan.dealt:
        markers.pop(seat, None)  # the big blind, a post or a clean seat: nothing owed now
    button = plan.button
    dead_button = button not in plan.dealt
    posts = sorted(
        plan.posts, key=lambda p: (table.cw(button, p.seat), _POST_ORDER[PostType(p.type)])
    )
    notes = [
        f"Button: seat {button}"
        + (" (dead button: nobody there is dealt in)." if dead_button else "."),
        *plan.notes,
    ]
    if plan.small_blind is not None and len(plan.dealt) > 2:
        notes.append(
            f"Small blind: seat {plan.small_blind} posts {table.sb_amount} ({five_card_draw_rule(5)})."
        )
    elif plan.small_blind is None and len(plan.dealt) > 2:
        notes.append(
            f"Small blind is dead: nobody in seat {plan.sb_position} is dealt in ({five_card_draw_rule(11)})."
        )
    notes.append(
        f"Big blind: seat {plan.big_blind} posts {table.bb_amount} ({five_card_draw_rule(11)})."
    )
    owed_before = table.markers
    if owed_before.get(plan.big_blind):
        notes.append(
            f"Seat {plan.big_blind} takes the big blind: its {table.debt_words(plan.big_blind)} "
            f"clears ({five_card_draw_rule(12)})."
        )
    for seat in sorted(plan.dealt, key=lambda s: table.cw(button, s)):
        how = plan.how.get(seat)
        if how == "posted" and len(plan.dealt) > 2:
            arrival = [p for p in plan.posts if p.seat == seat]
            notes.append(
                f"Seat {seat} ({table.debt_words(seat)}) comes in posting "
                f"{_post_words(arrival)} ({five_card_draw_rule(12)})."
            )
        elif how == "free":
            notes.append(
                f"Seat {seat} is new and no blind has passed its seat since the game began: "
                f"dealt in without posting ({five_card_draw_rule(13)})."
            )
    notes.extend(marked)
    notes.extend(f"Not dealt in: {plan.waiting[s]}." for s in sorted(plan.waiting))
    cleaned = _clean_markers(markers)
    state = BlindState(
        button=button,
        small_blind=plan.small_blind,
        big_blind=plan.big_blind,
        markers=cleaned,
        dead_small_blind=plan.sb_position if plan.small_blind is None else None,
        first_button=first_button,
    )
    return HandBlinds(
        button=button,
        dead_button=dead_button,
        small_blind=plan.small_blind,
        big_blind=plan.big_blind,
        dealt_in=tuple(sorted(plan.dealt)),
        posts=tuple(posts),
        waiting=dict(sorted(plan.waiting.items())),
        markers=dict(cleaned),
        state=state,
        notes=tuple(notes),
    )
