"""The one contract every game implements, and the registry the platform reads games from.

A game is one package under ``casino/rules/<game>/`` whose ``game.py`` declares a
:class:`Game` and registers it (:func:`register`). Nothing outside the package knows the game:
the platform (tables, hands, settlement storage, the audit check, the API and its OpenAPI
document) works only through this module.

What a game gives:

* **Who and what**: ``code``, ``name``, ``min_players``, ``max_seats`` and JSON schemas of its
  table limits, rules options, opening body, live actions, between-hand table actions and
  paper record (the OpenAPI document is built from them, and the desks' forms field by
  field). They speak one vocabulary (:mod:`casino.rules.schemas`, ``docs/schemas.md``): a
  ``title`` and a ``description`` for every option; ``format`` ``money`` (minor units),
  ``odds`` (N to 1), ``percent``, ``count`` or ``minutes`` for a number; a choice's values
  titled (``oneOf`` one-value enums beside the ``enum``); ``x-null`` for what an empty value
  means; ``readOnly`` for a rules option the table sets from its limits or smallest chip;
  nested options typed all the way down (a pay table's lines, a list of bands).
* **Rules**: :meth:`Game.default_rules`, :meth:`Game.parse_rules`, :meth:`Game.check_limits`
  and :meth:`Game.hand_rules` (the effective rules a hand freezes from the table's limits,
  smallest chip and rule overrides).
* **A hand**: :meth:`Game.new_hand` builds a :class:`HandState` from the hand's frozen rules
  and set-up (``config``); actions are applied one at a time; :meth:`Game.replay` rebuilds the
  state from a :class:`History` ``{game, rules, config, actions}``, which is all the platform
  stores of a hand. :meth:`Game.evaluate` settles a whole record: the game's importer
  (:meth:`Game.import_record`) turns the record into a history, which is replayed.
* **The table between hands**: the game's table state is a JSON object owned by the game
  (designated-player rotation, blinds and missed-blind markers, the bank and the kitty, the
  dealer button). :meth:`Game.table_view` shows it, :meth:`Game.table_actions` lists the
  between-hand actions legal now, :meth:`Game.table_act` applies one, :meth:`Game.open_hand`
  decides the next hand's set-up, :meth:`Game.seats_changed` and :meth:`Game.hand_closed`
  move the state on. Each returns the new state with the :class:`Event` s to record.
  :meth:`Game.opening_proposal` is what the dealer's tablet pre-fills the next opening body
  with (a game with stacks carries each player's stack forward from the last settlement).
* **Its theory** (optional): :meth:`Game.theory` returns what the game's ``theory.py``
  supplies (:class:`~casino.rules.theory.base.GameTheory`: the strategy its house hold is
  simulated with, and any exact figures of its own), or None: the game has no theoretical
  figures. :mod:`casino.rules.theory` reads games only through it.
* **Optional extras**: :attr:`Game.record_example` (the API document's example record) and
  :attr:`Game.demo_table` (the demo floor's table); a game without them is documented and
  played all the same.

Every method raises :class:`~casino.rules.errors.RuleError` for bad input and
``Refusal`` (:mod:`casino.rules.errors`) when the input is well formed but the table's state does not allow it now
(the API's 409).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from .actions import ActionTable
from .errors import Problems, RuleError
from .messages import _, msg
from .quick import quick_init
from .settlement import Settlement

if TYPE_CHECKING:
    from .theory.base import GameTheory

JSON = dict[str, Any]


class Operation:
    """One entry of a hand's operation log: what happened, JSON-ready.

    ``to_action()`` is the action that recorded it (None for what the engine did by itself,
    such as a phase change or the showdown), so a hand's actions are the log's actions.
    """

    def to_action(self) -> JSON | None:
        return None

    def to_dict(self) -> JSON:
        raise NotImplementedError


@quick_init
@dataclass(frozen=True, slots=True)
class Recorded(Operation):
    """An operation that is exactly the action that recorded it (a game whose actions need no
    engine-made steps between them)."""

    action: JSON

    def to_action(self) -> JSON | None:
        return dict(self.action)

    def to_dict(self) -> JSON:
        return dict(self.action)


@runtime_checkable
class HandState(Protocol):
    """A hand in play. ``apply`` raises RuleError (naming the clause) for an illegal action
    and leaves the state unchanged."""

    @property
    def complete(self) -> bool: ...

    @property
    def log(self) -> Sequence[Any]: ...

    def legal_actions(self) -> list[JSON]: ...

    def apply(self, action: Mapping[str, Any], index: int | None = None) -> None: ...

    def view(self) -> JSON: ...

    def settle(self) -> Settlement: ...

    # And, for the dealer's tablet to draw the table: ``presentation() -> Presentation``
    # (casino.rules.presentation), what the hand looks like in the same shape for every game.


#: What every hand's display has, whatever the game (the rest of ``view()`` is the game's own:
#: seats, pots or bank, public cards).
VIEW_KEYS = ("game", "phase", "to_act", "complete", "legal_actions")


def hand_view(state: HandState, game: str) -> JSON:
    """A hand's ``view()`` with the keys every display relies on: the game, the phase, whose
    turn it is (None when any seat may act, or none), whether it is complete, the legal
    actions with their bounds, and what the hand looks like (``presentation``: the same
    shape for every game, :mod:`casino.rules.presentation`; None for a game without one)."""
    view = dict(state.view())
    view.setdefault("game", game)
    view.setdefault("phase", None)
    view.setdefault("to_act", None)
    view["complete"] = state.complete
    view.setdefault("legal_actions", state.legal_actions())
    view["presentation"] = hand_presentation(state)
    return view


def hand_presentation(state: HandState) -> JSON | None:
    """What the hand looks like (``state.presentation()``), JSON-ready; None for a game
    whose state does not say."""
    build = getattr(state, "presentation", None)
    return build().to_dict() if callable(build) else None


@quick_init
@dataclass(frozen=True, slots=True)
class History:
    """Everything a hand is: the game, its frozen rules, its set-up and its actions."""

    game: str
    rules: JSON
    config: JSON
    actions: tuple[JSON, ...] = ()

    def to_dict(self) -> JSON:
        return {
            "game": self.game,
            "rules": self.rules,
            "config": self.config,
            "actions": list(self.actions),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> History:
        problems = Problems()
        for key in ("game", "rules", "config", "actions"):
            if key not in data:
                problems.add(key, msg(_("a hand history needs %(key)s"), key=repr(key)))
        problems.raise_if_any()
        if not isinstance(data["rules"], dict) or not isinstance(data["config"], dict):
            raise RuleError(msg(_("a hand history's rules and config are objects")))
        actions = data["actions"]
        if not isinstance(actions, list) or not _all_dicts(actions):
            raise RuleError(
                msg(_("a hand history's actions are a list of objects")), path="actions"
            )
        return cls(str(data["game"]), data["rules"], data["config"], tuple(actions))


def _all_dicts(items: list[Any]) -> bool:
    """Every item is a dict (``all(isinstance(a, dict) for a in items)`` without a generator
    per item: the audit check reads every stored hand's actions)."""
    for item in items:  # noqa: SIM110 (a loop, not all() over a generator)
        if type(item) is not dict and not isinstance(item, dict):
            return False
    return True


# ---------------------------------------------------------------- the table between hands


@dataclass(frozen=True, slots=True)
class SeatView:
    number: int
    player: str
    sitting_out: bool = False

    @property
    def in_play(self) -> bool:
        return bool(self.player) and not self.sitting_out


@dataclass(frozen=True, slots=True)
class TableView:
    """What a game may read of its table: seats, limits, rules, its own state, the time."""

    seats: tuple[SeatView, ...]
    limits: JSON
    smallest_chip: int
    rules: JSON  # the table's rule overrides (the game's hand_rules makes them effective)
    state: JSON
    now: datetime
    is_open: bool = True  # the table is open for play
    hand_open: bool = False  # a hand is in progress
    next_hand: int = 1

    @property
    def in_play(self) -> list[int]:
        return [seat.number for seat in self.seats if seat.in_play]

    @property
    def seated(self) -> list[int]:
        return [seat.number for seat in self.seats if seat.player]

    def seat(self, number: int) -> SeatView | None:
        for seat in self.seats:
            if seat.number == number:
                return seat
        return None


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened at the table between hands (an offer, a new banker, a blind
    choice), recorded and audited as ``kind`` with its ``data``."""

    kind: str
    data: JSON = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Change:
    """A game's answer to a table action or a hand closing: its new state and the events."""

    state: JSON
    events: tuple[Event, ...] = ()


@dataclass(frozen=True, slots=True)
class Opening:
    """The next hand's set-up: its ``config``, the seats dealt in, and the table state after
    it opens (with the events to record)."""

    config: JSON
    seats: tuple[int, ...]
    state: JSON
    events: tuple[Event, ...] = ()


@dataclass(frozen=True, slots=True)
class ClosedHand:
    """A hand that just ended: settled (with its settlement) or voided (None)."""

    number: int
    config: JSON
    seats: tuple[int, ...]
    opened_at: datetime
    result: Settlement | None


# ---------------------------------------------------------------- the game


class Game:
    """One game. Subclasses set the class attributes and implement the rules and hand
    methods; the table hooks default to a game with no state between hands."""

    code: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int] = 2
    max_seats: ClassVar[int]
    #: The dealer submits the whole hand as a paper-style record when settling (High Card
    #: Flush); otherwise the hand is settled from its own actions.
    record_settled: ClassVar[bool] = False
    #: JSON schemas (draft 2020-12 subset) shown in the API document.
    limits_schema: ClassVar[JSON] = {"type": "object"}
    rules_schema: ClassVar[JSON] = {"type": "object"}
    open_schema: ClassVar[JSON] = {"type": "object"}
    action_schemas: ClassVar[dict[str, JSON]] = {}
    #: The hand actions a game decodes with :func:`casino.rules.actions.decode`; its
    #: ``action_schemas`` are ``schemas(action_table)``, so the two never disagree.
    action_table: ClassVar[ActionTable | None] = None
    table_action_schemas: ClassVar[dict[str, JSON]] = {}
    record_schema: ClassVar[JSON] = {"type": "object"}
    #: The game's own figures in a settlement, beside the seats, the house, the rake and the
    #: explanation every settlement has (stored with the result as JSON; no column per game).
    result_schema: ClassVar[JSON] = {"type": "object"}
    #: A record that settles (for the API document's example and the documentation tests).
    record_example: ClassVar[JSON | None] = None
    #: The demo floor's table of this game (``manage.py load_demo``): name, seat_count,
    #: limits, smallest_chip, rules and the between-hand actions to apply once it opens.
    demo_table: ClassVar[JSON | None] = None

    def deck(self, seats: int) -> list[str]:
        """The cards a hand with ``seats`` players is dealt from (what a card picker offers)."""
        from .cards import standard_deck

        return [str(card) for card in standard_deck()]

    @property
    def rules_doc(self) -> str:
        """The rules as implemented, shipped with the product."""
        return f"docs/rules/{self.code}.md"

    # -------------------------------------------------------------- rules

    def default_rules(self) -> JSON:
        raise NotImplementedError

    def parse_rules(
        self, data: Mapping[str, Any] | None, base: Mapping[str, Any] | None = None
    ) -> JSON:
        """Validated effective rules: ``data`` merged onto ``base`` or the defaults."""
        raise NotImplementedError

    def check_limits(self, limits: Mapping[str, Any], problems: Problems) -> None:
        """Add a problem for every bad table limit (unknown keys are refused by the caller)."""
        raise NotImplementedError

    @property
    def limit_fields(self) -> tuple[str, ...]:
        return tuple(self.limits_schema.get("properties", {}))

    def hand_rules(
        self, limits: Mapping[str, Any], smallest_chip: int, rules: Mapping[str, Any]
    ) -> JSON:
        """The effective rules a hand freezes from the table's configuration."""
        raise NotImplementedError

    # -------------------------------------------------------------- a hand

    def new_hand(self, config: Mapping[str, Any], rules: Mapping[str, Any]) -> HandState:
        """The state of a new hand (checks the set-up against the rules)."""
        raise NotImplementedError

    def replay(self, history: History) -> HandState:
        state = self.new_hand(history.config, history.rules)
        for index, action in enumerate(history.actions):
            state.apply(action, index)
        return state

    def import_record(self, record: Mapping[str, Any], rules: Mapping[str, Any]) -> History:
        """A paper-style record as a history. By default a record is the hand's set-up with
        its ``actions`` list."""
        config = {key: value for key, value in record.items() if key != "actions"}
        actions = record.get("actions", [])
        if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
            raise RuleError(msg(_("actions must be a list of objects")), path="actions")
        return History(self.code, dict(rules), config, tuple(actions))

    def evaluate(
        self, record: Mapping[str, Any], rules: Mapping[str, Any] | None = None
    ) -> Settlement:
        """Settle a whole record: import it as a history and replay it. ``rules`` are the
        effective rules or overrides of the defaults."""
        effective = self.parse_rules(rules)
        state = self.replay(self.import_record(record, effective))
        if not state.complete:
            raise RuleError(msg(_("the record ends before the hand is complete")))
        return state.settle()

    def settle_actions(
        self, config: Mapping[str, Any], rules: Mapping[str, Any], record: Mapping[str, Any]
    ) -> tuple[JSON, ...]:
        """A record-settled game: the posted record as the hand's actions, checked against
        the hand's set-up (the seats and amounts it froze)."""
        raise RuleError(
            msg(_("%(game)s hands are settled from their own actions; send {}"), game=self.name)
        )

    # -------------------------------------------------------------- the table between hands

    def initial_state(self) -> JSON:
        return {}

    def next_seats(self, table: TableView) -> list[int]:
        """The seats the next hand will deal in (what an opening form asks about)."""
        return table.in_play

    def table_deck(self, table: TableView) -> list[str]:
        """The deck the next hand at ``table`` will be dealt from."""
        return self.deck(len(table.in_play))

    def table_view(self, table: TableView) -> JSON:
        """The game's table state as a display shows it."""
        return dict(table.state)

    def table_actions(self, table: TableView) -> list[JSON]:
        """The between-hand actions legal now, each with its parameters and bounds."""
        return []

    def table_act(self, table: TableView, action: Mapping[str, Any]) -> Change:
        raise RuleError(msg(_("%(game)s has no between-hand actions"), game=self.name), path="type")

    def open_hand(self, table: TableView, body: Mapping[str, Any]) -> Opening:
        """The next hand's set-up from the table and the opening body. The platform then checks
        it against the hand's rules with :meth:`new_hand` before storing anything."""
        raise NotImplementedError

    def opening_proposal(self, table: TableView) -> JSON:
        """A partial opening body for the next hand, for the dealer's tablet to pre-fill: the
        same shape as :attr:`open_schema` (the same keys, each list entry naming its
        ``seat``), holding only what the table already knows, such as each dealt-in player's
        stack as the last settled hand left it. It is a proposal, never a decision: the dealer
        confirms or corrects it, and :meth:`open_hand` checks the body sent as it checks any
        other. ``{}`` (the default) proposes nothing. It must not raise: a table that cannot
        deal now proposes what it can, or ``{}``."""
        return {}

    def seats_changed(self, table: TableView) -> Change:
        """A player sat down, left, sat out or came back (between hands or during one)."""
        return Change(table.state)

    def hand_closed(self, table: TableView, hand: ClosedHand) -> Change:
        return Change(table.state)

    def settlement_extra(self, result: Settlement) -> JSON:
        """The game's own figures of a settlement worth listing (stored with it as JSON)."""
        return dict(result.extra)

    # -------------------------------------------------------------- its theory

    def theory(self) -> GameTheory | None:
        """What the game supplies for its theoretical figures: the ``THEORY`` of its
        package's ``theory.py`` (a :class:`~casino.rules.theory.base.GameTheory`: the fixed
        strategy its house hold is simulated with, and any exact figures of its own). A game
        overrides this with two lines that import it when first asked, so loading the registry
        never loads a strategy. None (the default): the game has no theoretical figures, and
        the hold page and the approvals queue say so."""
        return None


# ---------------------------------------------------------------- the registry

_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add a game to the registry (a second game with the same code is refused)."""
    known = _REGISTRY.get(game.code)
    if known is not None and known is not game:
        raise ValueError(f"a game with code {game.code!r} is already registered")
    _REGISTRY[game.code] = game
    return game


def unregister(code: str) -> None:
    _REGISTRY.pop(code, None)


def registry() -> Mapping[str, Game]:
    """Every registered game by code (the built-in games are registered on first use)."""
    _load_builtin()
    return _REGISTRY


def game(code: str) -> Game:
    """The registered game with this code; RuleError naming the known codes otherwise."""
    games = registry()
    found = games.get(code)
    if found is None:
        raise RuleError(
            msg(
                _("unknown game %(code)s; games: %(games)s"),
                code=repr(code),
                games=", ".join(games),
            ),
            path="game",
        )
    return found


def games() -> Iterator[Game]:
    return iter(list(registry().values()))


_loaded = False
_loading = threading.RLock()


def _load_builtin() -> None:
    """Import every package of ``casino.rules`` that has a ``game`` module: each registers
    its game, so a new game is found without a line outside its package.

    Threads of a freshly started server ask at once: the first loads while the others wait,
    and the registry is marked loaded only once every game is in it."""
    global _loaded
    if _loaded:
        return
    with _loading:
        if _loaded:
            return
        import importlib
        import importlib.util
        import pkgutil

        import casino.rules as rules

        for module in pkgutil.iter_modules(rules.__path__):
            if module.ispkg and importlib.util.find_spec(f"casino.rules.{module.name}.game"):
                importlib.import_module(f"casino.rules.{module.name}.game")
        _loaded = True
