"""Building a game's rules options from JSON: one merge-and-validate for every engine."""

from __future__ import annotations

import marshal
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, Final, Generic, Protocol, TypeGuard, TypeVar

from .errors import Problem, Problems, RuleError
from .messages import Money, _, msg

MAX_AMOUNT: Final = 10**12
"""The largest amount, in minor units, any engine reads: a stake, ante, raise, bonus, stack,
bank, kitty, bet, rake amount or cap, or a table limit (10**12 cents is ten billion).

It is far above any real wager or stack, and it keeps every figure a settlement can work out
from such amounts (a 10,000:1 bonus on it, a pot of every stack at the table, a net, the rake)
well inside PostgreSQL's ``bigint`` (about 9.2 * 10**18), so a hand that was accepted can
always be settled and stored. Larger numbers are refused with a ``RuleError`` naming the field
and this maximum; the API refuses any larger number in a request body before an engine sees
it."""

MAX_CHIP: Final = 10**9
"""The largest smallest chip (a denomination, in minor units): far above any real chip, and
small enough for the 32-bit column a table keeps it in."""

#: Settings bounded below :data:`MAX_AMOUNT`, by name (every game's rules have these).
SETTING_MAXIMA: Final = {"smallest_chip": MAX_CHIP}


def is_int(value: object) -> TypeGuard[int]:
    """A whole number from JSON: ``True`` and ``1.0`` are not."""
    return type(value) is int or (isinstance(value, int) and not isinstance(value, bool))


def as_money(value: object) -> object:
    """``value`` as a message's amount of money (:class:`~casino.rules.messages.Money`) when
    it is a whole number (not ``True``), else as it is (a refused value shown as it came)."""
    return Money(value) if is_int(value) else value


def money_or_repr(value: object) -> object:
    """A refused amount as a message shows it: money when it is a whole number (out of
    bounds), else ``repr(value)`` (``'ten'``, ``2.5``, ``True``) as it came."""
    return Money(value) if is_int(value) else repr(value)


def beyond_maximum(
    value: int, name: str, most: int = MAX_AMOUNT, *, money: bool = True
) -> str | None:
    """Why the whole number ``value`` (``name`` says what it is) is refused for being beyond
    ``most`` either way, or ``None`` when it is within it. ``money``: ``value`` is an amount
    (written in the house currency where the message is shown), not a count or odds."""

    def shown(number: int) -> object:
        return as_money(number) if money else number

    if value > most:
        return msg(
            _("%(name)s %(value)s is above the maximum of %(most)s"),
            name=name,
            value=shown(value),
            most=shown(most),
        )
    if value < -most:
        return msg(
            _("%(name)s %(value)s is below the minimum of %(least)s"),
            name=name,
            value=shown(value),
            least=shown(-most),
        )
    return None


def not_a_chip_multiple(name: str, amount: int, chip: int) -> str:
    """``stake 15 is not a multiple of the smallest chip 10`` (``name`` says what it is)."""
    return msg(
        _("%(name)s %(amount)s is not a multiple of the smallest chip %(chip)s"),
        name=name,
        amount=as_money(amount),
        chip=as_money(chip),
    )


def oversized_numbers(data: object, path: str) -> list[Problem]:
    """A problem for every whole number beyond :data:`MAX_AMOUNT` anywhere inside ``data``
    (objects and lists, walked without recursion), at its path (``rules.rake.cap``)."""
    problems: list[Problem] = []
    pending: list[tuple[str, object]] = [(path, data)]
    while pending:
        where, value = pending.pop()
        if is_int(value):
            name = where.removeprefix(f"{path}.").replace("_", " ").replace(".", " ")
            # any number among the settings (odds, a percentage, a count as well as an
            # amount): written as the number it is, not as money
            message = beyond_maximum(value, name, money=False)
            if message is not None:
                problems.append(Problem(where, message))
        elif isinstance(value, Mapping):
            children = [(f"{where}.{key}", item) for key, item in value.items()]
            pending.extend(reversed(children))
        elif isinstance(value, Sequence) and not isinstance(value, str | bytes):
            children = [(f"{where}[{index}]", item) for index, item in enumerate(value)]
            pending.extend(reversed(children))
    return problems


def parse_bounded(
    parse: Callable[[dict[str, Any], Problems], dict[str, Any]],
    data: dict[str, Any],
    problems: Problems,
) -> dict[str, Any]:
    """``parse(data, problems)`` with every number in the settings bounded by
    :data:`MAX_AMOUNT` (and the :data:`SETTING_MAXIMA` by their own): a number beyond it is a
    problem at its path, unless the parser has already refused that setting in its own words
    (a pay table's odds, ``max_raises``)."""
    before = len(problems.items)
    values = parse(data, problems)
    refused = {problem.path for problem in problems.items[before:]}
    for key, most in SETTING_MAXIMA.items():
        value = data.get(key)
        message = beyond_maximum(value, key.replace("_", " "), most) if is_int(value) else None
        if message is not None and f"rules.{key}" not in refused:
            problems.add(f"rules.{key}", message)
            refused.add(f"rules.{key}")
    problems.items.extend(
        problem for problem in oversized_numbers(data, "rules") if problem.path not in refused
    )
    return values


class _Options(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


OptionsT = TypeVar("OptionsT", bound=_Options)
ValueT = TypeVar("ValueT")


class BoundedCache(Generic[ValueT]):
    """A thread-safe least-recently-used cache of at most ``size`` values (for parsed,
    immutable settings read again and again, such as a table's frozen rules)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[Hashable, ValueT] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> ValueT | None:
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def put(self, key: Hashable, value: ValueT) -> None:
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._values.clear()

    def __len__(self) -> int:
        return len(self._values)


#: Parsed options by class and settings (:func:`settings_key`): a replayed hand's frozen rules
#: are read once, not at every replay (options are frozen, so one object serves every hand).
PARSED_OPTIONS: Final[BoundedCache[Any]] = BoundedCache(256)


def settings_key(data: Any) -> bytes | None:
    """A key that stands for exactly the value ``data`` holds (``marshal`` without shared
    references: only the exact built-in types, so ``1``, ``1.0`` and ``True``, a list and a
    tuple, ``"7"`` and ``7`` all differ), for a cache of what is read from it; None when it
    holds anything else (a subclass, an object), which is then read without the cache."""
    try:
        return marshal.dumps(data, 2)
    except ValueError:
        return None


def options_from_dict(
    cls: type[OptionsT],
    data: Mapping[str, Any] | None,
    base: OptionsT | Mapping[str, Any] | None,
    *,
    keys: frozenset[str],
    parse: Callable[[dict[str, Any], Problems], dict[str, Any]],
) -> OptionsT:
    """Validated effective options: ``data`` overrides ``base`` (or the defaults) key by key.

    ``parse`` checks the merged settings, adding every problem with its path
    (``rules.rake.cap``); an unknown key is a problem too (``rules.colour``).

    Settings read without a ``base`` are cached (:data:`PARSED_OPTIONS`): the options are
    frozen, and the same settings always read the same (settings that are refused are read
    again, so their problems are always reported).
    """
    if base is None and data is not None:
        held = settings_key(data)
        if held is not None:
            cache_key = (cls, keys, parse, held)
            cached: OptionsT | None = PARSED_OPTIONS.get(cache_key)
            if cached is None:
                cached = options_from_dict(cls, data, cls(), keys=keys, parse=parse)
                PARSED_OPTIONS.put(cache_key, cached)
            return cached
    if base is None:
        start = cls()
    elif isinstance(base, cls):
        start = base
    else:
        start = options_from_dict(cls, base, None, keys=keys, parse=parse)  # type: ignore[arg-type]
    if data is None:
        return start
    if not isinstance(data, Mapping):
        raise RuleError(msg(_("rules must be an object of settings")), "rules")
    problems = Problems()
    merged = start.to_dict()
    for key, value in data.items():
        if key in keys:
            merged[key] = value
        else:
            problems.add(f"rules.{key}", msg(_("unknown rules setting '%(key)s'"), key=str(key)))
    values = parse_bounded(parse, merged, problems)
    problems.raise_if_any()
    return cls(**values)


def check_amounts(
    values: Mapping[str, Any],
    names: Iterable[str],
    problems: Problems,
    *,
    optional: Iterable[str] = (),
) -> None:
    """Each named value (a table limit) is a whole number of minor units from 1 to
    :data:`MAX_AMOUNT`; those in ``optional`` may also be left out (None)."""
    skip = set(optional)
    for name in names:
        value = values.get(name)
        if name in skip and value is None:
            continue
        if not is_int(value) or not 1 <= value <= MAX_AMOUNT:
            problems.add(
                name,
                msg(
                    _("%(name)s must be a whole number of minor units from 1 to %(most)s"),
                    name=name,
                    # "minor units from 1 to ...": the bound is a count of minor units, as
                    # the 1 the sentence writes is, not an amount written as money
                    most=MAX_AMOUNT,
                ),
            )
