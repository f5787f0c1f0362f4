"""High Card Flush (designated-player version): hand values, rules options and settlement.

The rules as implemented (``docs/rules/high-card-flush.md``) decides every rules question; clause
numbers below refer to it. :func:`evaluate` takes the hand record the API posts, checks all of
it (every problem is reported at once, as one :class:`~casino.rules.errors.RuleError`) and
returns the :class:`~casino.rules.settlement.Settlement`.

Interpretations this module makes where the brief leaves room:

* **Flush comparison** (clauses 2-4) looks at length, then ranks card by card; suits never
  break a tie, so two :class:`Flush` values with equal length and ranks compare equal.
* **Pay tables** (clauses 10-12): a bonus is in action only if the player's flush (or
  straight-flush run) reaches the table's lowest line (4 and 3 by default, and a flush pay
  table may not go below 4 nor a straight-flush one below 3); it pays the highest line not
  above the player's length. An empty pay table means the bet is not offered, and a stake on
  it is rejected. Odds are at most ``MAX_ODDS`` (10000:1).
* **Maximum payout per hand** (clause 12) caps a player's aggregate winnings, i.e. the sum
  of the winning lines (a lost bonus does not offset it). The excess is taken from the
  straight flush bonus first, then the flush bonus, the raise, the ante; each cut line keeps
  ``capped_from`` (its uncapped amount).
* **Bank coverage** (clause 13). Seats settle in seat-number order descending from the DP,
  wrapping. For each player hand the net result ``W`` (after the cap) is worked out; with
  ``collected`` and ``paid`` the DP's takings and payouts so far:

  - ``running``: if ``W > bank + collected - paid`` (``W > 0``) the hand is dead;
  - ``original_bank``: if ``W > bank - paid`` (``W > 0``) the hand is dead, and, because the
    DP "may not win or lose more than the original amount", a losing hand that would take
    the DP's winnings ``collected - paid - W`` above the bank is dead too.

  A dead hand has every line ``dead`` with amount 0, pays no rake and gives the DP no line.
  Folded hands take their place in the order like any other.
* **Rake** (clause 14) is a fixed fee per participating hand: folded hands participate, dead
  hands do not. Under ``per_player`` and ``dp_only`` the DP pays unless every player's hand
  is dead. With a banded schedule a player's fee is the band of their own ante and the DP's
  fee is the band of the largest ante among the players whose hands are not dead. An ante
  above a closed top band is rejected.
* **Rules overrides** replace top-level settings; a nested object (``rake``, a pay table)
  replaces the base one whole, so a pay table line can be removed.
* A raise need not be a whole multiple of the ante, only within clause 6's bounds and a
  multiple of the smallest chip. Record fields the engine does not know are rejected.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from functools import cache, lru_cache
from typing import Any

from casino.rules.cards import (
    ACE,
    Card,
    CardGroup,
    check_distinct,
    format_ranks,
    parse_cards,
    rank_char,
    readable_cards,
)
from casino.rules.errors import Problems, RuleError
from casino.rules.options import beyond_maximum, is_int, options_from_dict, parse_bounded
from casino.rules.quick import quick_init
from casino.rules.rake import RakeBand, RakeKind, RakeReader
from casino.rules.rake import RakeSchedule as Schedule
from casino.rules.settlement import Line, Outcome, Role, SeatResult, SeatStatus, Settlement

from .rotation import RotationPolicy

GAME_CODE = "high-card-flush"
GAME_NAME = "High Card Flush"
CARDS_PER_HAND = 7
MOST_PLAYERS = 6  # clause 1: 7 hands of 7 cards from one deck
#: The longest odds a pay table line may offer (10000 for 10000:1): five times the brief's
#: longest default (1000:1 for a 7-card straight flush), and small enough that a winning bonus
#: on the largest amount (``MAX_AMOUNT``) is still a storable figure.
MAX_ODDS = 10_000


class Coverage(StrEnum):
    RUNNING = "running"
    ORIGINAL_BANK = "original_bank"


class RakeScheme(StrEnum):
    PER_PLAYER = "per_player"
    PER_PLAYER_EXCEPT_DP = "per_player_except_dp"
    DP_ONLY = "dp_only"


class Wager(StrEnum):
    ANTE = "ante"
    RAISE = "raise"
    FLUSH_BONUS = "flush_bonus"
    STRAIGHT_FLUSH_BONUS = "straight_flush_bonus"


WAGER_WORDS: dict[Wager, str] = {
    Wager.ANTE: "ante",
    Wager.RAISE: "raise",
    Wager.FLUSH_BONUS: "flush bonus",
    Wager.STRAIGHT_FLUSH_BONUS: "straight flush bonus",
}
EVEN_MONEY = "1:1"


# --------------------------------------------------------------------------- hand values


@quick_init
@dataclass(frozen=True, slots=True, order=True)
class Flush:
    """A hand's flush (clause 2): its length, then its ranks from the highest. Suit never counts."""

    length: int
    ranks: tuple[int, ...]
    suit: str = field(compare=False)

    @property
    def high(self) -> int:
        return self.ranks[0]

    def __str__(self) -> str:
        return _flush_words(self.length, self.ranks)


@quick_init
@dataclass(frozen=True, slots=True, order=True)
class Run:
    """The longest run of consecutive ranks in one suit (clause 11), by length then top card.

    A low ace counts as 1, so the top of A-2-3 is 3. Suit never counts.
    """

    length: int
    top: int
    suit: str = field(compare=False)

    @property
    def ranks(self) -> tuple[int, ...]:
        """The run's ranks from the top down; a low ace is 1."""
        return tuple(range(self.top, self.top - self.length, -1))

    @property
    def is_straight_flush(self) -> bool:
        return self.length >= 3

    def __str__(self) -> str:
        return _run_words(self.length, self.top)


@lru_cache(maxsize=8192, typed=True)  # more than the flushes of seven cards
def _flush_words(length: int, ranks: tuple[int, ...]) -> str:
    return f"{length}-card flush {format_ranks(ranks)}"


@lru_cache(maxsize=256, typed=True)
def _run_words(length: int, top: int) -> str:
    if length < 3:  # not a straight flush
        return f"no straight flush (longest run {length} card{'s' * (length > 1)})"
    return f"{length}-card straight flush {format_ranks(range(top, top - length, -1))}"


def best_flush(cards: Iterable[Card]) -> Flush:
    """The longest suit; between equally long suits, the better one card by card (clause 2)."""
    return _flush_of(_by_suit(cards))


def flush_length(cards: Iterable[Card]) -> int:
    """``best_flush(cards).length`` without building the flush: the most cards of one suit."""
    suits = [card.suit for card in cards]
    if not suits:
        raise ValueError("a flush needs at least one card")
    return max(map(suits.count, set(suits)))


def straight_flush_run(cards: Iterable[Card]) -> Run:
    """The longest run of consecutive ranks within one suit, ace high or low, never wrapping.

    A-2-3 and Q-K-A are runs, K-A-2 is not. Among equally long runs the highest top wins.
    With no two consecutive cards in a suit the run is the single highest card (length 1).
    """
    return _run_of(_by_suit(cards))


def hand_values(cards: Iterable[Card]) -> tuple[Flush, Run]:
    """``(best_flush(cards), straight_flush_run(cards))``, the cards read once."""
    by_suit = _by_suit(cards)
    return _flush_of(by_suit), _run_of(by_suit)


def _by_suit(cards: Iterable[Card]) -> dict[str, list[int]]:
    """Each suit's ranks, the suits in the order they first appear."""
    by_suit: dict[str, list[int]] = {}
    for card in cards:
        by_suit.setdefault(card.suit, []).append(card.rank)
    return by_suit


def _flush_of(by_suit: dict[str, list[int]]) -> Flush:
    """The best flush of :func:`_by_suit`'s suits (it sorts their ranks, highest first)."""
    # Compared as Flush orders (length, then ranks); the first of equal suits is kept.
    best: tuple[int, tuple[int, ...]] | None = None
    best_suit = ""
    for suit, ranks in by_suit.items():
        ranks.sort(reverse=True)
        candidate = (len(ranks), tuple(ranks))
        if best is None or candidate > best:
            best, best_suit = candidate, suit
    if best is None:
        raise ValueError("a flush needs at least one card")
    return Flush(best[0], best[1], best_suit)


def _run_of(by_suit: dict[str, list[int]]) -> Run:
    """The longest, then highest, run of :func:`_by_suit`'s suits."""
    # Compared as Run orders (length, then top); the first of equal suits is kept.
    best: tuple[int, int] | None = None
    best_suit = ""
    for suit, ranks in by_suit.items():
        bits = 0  # the suit's ranks as bits, bit 14 the ace
        for rank in ranks:
            bits |= 1 << rank
        candidate = _longest_run(bits)
        if best is None or candidate > best:
            best, best_suit = candidate, suit
    if best is None:
        raise ValueError("a run needs at least one card")
    return Run(best[0], best[1], best_suit)


@cache
def _longest_run(ranks: int) -> tuple[int, int]:
    """``(length, top)`` of the longest, then highest, run in one suit's ranks (as bits, bit
    14 the ace, which also counts as 1)."""
    if ranks >> ACE & 1:
        ranks |= 1 << 1
    best = (0, 0)
    length = 0
    for rank in range(1, ACE + 1):
        if ranks >> rank & 1:
            length += 1
            best = max(best, (length, rank))
        else:
            length = 0
    return best


def raise_multiple(flush_length: int) -> int:
    """Clause 6: the most a raise may be, in antes: 1x up to a 4-card flush, 2x for 5, 3x for 6-7."""
    if flush_length >= 6:
        return 3
    if flush_length == 5:
        return 2
    return 1


def raise_bounds(ante: int, flush_length: int) -> tuple[int, int]:
    """Clause 6: the smallest and largest legal raise (0 is the fold, outside these bounds)."""
    return ante, ante * raise_multiple(flush_length)


def dp_qualifies(flush: Flush, rules: Rules | None = None) -> bool:
    """Clause 7: a 3-card flush 9-high or better, or any longer flush (the figures are rules)."""
    rules = rules or Rules()
    if flush.length != rules.qualify_length:
        return flush.length > rules.qualify_length
    return flush.high >= rules.qualify_high_rank


def settlement_order(dp_seat: int, seats: Iterable[int]) -> list[int]:
    """Clause 13: seat numbers descending from the DP's, wrapping (DP 3: 2, 1, then 6, 5 ...)."""
    ordered = sorted(seats)
    split = bisect_right(ordered, dp_seat)
    up_to_dp, above_dp = ordered[:split], ordered[split:]
    return up_to_dp[::-1] + above_dp[::-1]


# --------------------------------------------------------------------------- rules


class PayTable(Mapping[int, int]):
    """Odds by length (``{7: 200, 6: 50}`` means 200:1 and 50:1), immutable and hashable."""

    __slots__ = ("_lines",)

    def __init__(self, lines: Mapping[int, int] | Iterable[tuple[int, int]] = ()) -> None:
        items = lines.items() if isinstance(lines, Mapping) else lines
        self._lines: tuple[tuple[int, int], ...] = tuple(sorted(items, reverse=True))

    def __getitem__(self, length: int) -> int:
        for key, odds in self._lines:
            if key == length:
                return odds
        raise KeyError(length)

    def __iter__(self) -> Iterator[int]:
        return (key for key, _ in self._lines)

    def __len__(self) -> int:
        return len(self._lines)

    def __hash__(self) -> int:
        return hash(self._lines)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PayTable):
            return self._lines == other._lines
        return Mapping.__eq__(self, other)

    def __repr__(self) -> str:
        return f"PayTable({dict(self._lines)!r})"

    @property
    def lowest(self) -> int | None:
        """The shortest length that pays, or None if the bet is not offered."""
        return self._lines[-1][0] if self._lines else None

    def line_for(self, length: int) -> tuple[int, int] | None:
        """The highest line not above ``length`` as ``(line, odds)``, or None (clause 12)."""
        for key, odds in self._lines:
            if key <= length:
                return key, odds
        return None

    def to_dict(self) -> dict[str, int]:
        return {str(key): odds for key, odds in self._lines}


DEFAULT_FLUSH_PAYTABLE = PayTable({7: 200, 6: 50, 5: 10, 4: 2})
DEFAULT_STRAIGHT_FLUSH_PAYTABLE = PayTable({7: 1000, 6: 500, 5: 100, 4: 60, 3: 8})


@dataclass(frozen=True, slots=True)
class RakeSchedule:
    """Clause 14: who pays (``scheme``) and the fee per participating hand, one ``amount`` or
    ``bands`` by ante: the shared :class:`~casino.rules.rake.RakeSchedule` (:attr:`schedule`),
    fixed or banded by ante."""

    scheme: RakeScheme = RakeScheme.PER_PLAYER
    amount: int = 0
    bands: tuple[RakeBand, ...] = ()

    @property
    def schedule(self) -> Schedule:
        """The fee as the shared schedule: banded by ante, a fixed amount, or none."""
        if self.bands:
            return Schedule(RakeKind.BANDED, bands=self.bands)
        if self.amount:
            return Schedule(RakeKind.FIXED, amount=self.amount)
        return Schedule()

    def fee_for(self, ante: int) -> int | None:
        """The fee for a hand with this ante; None if the ante is above a closed top band."""
        schedule = self.schedule
        return schedule.fee(ante) if schedule.covers(ante) else None

    @property
    def charges_players(self) -> bool:
        return self.scheme is not RakeScheme.DP_ONLY

    @property
    def charges_dp(self) -> bool:
        return self.scheme is not RakeScheme.PER_PLAYER_EXCEPT_DP

    def to_dict(self) -> dict[str, Any]:
        return {
            "scheme": str(self.scheme),
            "amount": self.amount,
            "bands": [band.to_dict() for band in self.bands],
        }


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of the game, with the brief's defaults. Build from JSON with :meth:`from_dict`.

    Limits (``ante_min`` .. ``bank_max``) are None when the table sets none; money is in
    minor units and must be a multiple of ``smallest_chip``.
    """

    coverage: Coverage = Coverage.RUNNING
    rake: RakeSchedule = RakeSchedule()
    flush_paytable: PayTable = DEFAULT_FLUSH_PAYTABLE
    straight_flush_paytable: PayTable = DEFAULT_STRAIGHT_FLUSH_PAYTABLE
    max_payout_per_hand: int | None = None
    ante_min: int | None = None
    ante_max: int | None = None
    bank_min: int | None = None
    bank_max: int | None = None
    max_players: int = MOST_PLAYERS
    smallest_chip: int = 1
    qualify_length: int = 3
    qualify_high_rank: int = 9
    rotation_policy: RotationPolicy = RotationPolicy()

    def __post_init__(self) -> None:
        # Accept plain values from Python callers (``coverage="original_bank"``,
        # ``flush_paytable={7: 250}``), then check everything as ``from_dict`` would.
        if self.coverage in tuple(Coverage):
            object.__setattr__(self, "coverage", Coverage(self.coverage))
        for name in ("flush_paytable", "straight_flush_paytable"):
            table = getattr(self, name)
            if not isinstance(table, PayTable) and isinstance(table, Mapping):
                object.__setattr__(self, name, PayTable(table))
        problems = Problems()
        parse_bounded(_parse_rules, self.to_dict(), problems)
        problems.raise_if_any()

    @classmethod
    def from_dict(
        cls,
        data: Mapping[str, Any] | None,
        base: Rules | Mapping[str, Any] | None = None,
    ) -> Rules:
        """Validated effective rules: ``data`` overrides ``base`` (or the defaults) key by key.

        Raises :class:`RuleError` naming every bad setting (``rules.rake.scheme``,
        ``rules.flush_paytable.3``, an unknown key ``rules.colour``).
        """
        return options_from_dict(cls, data, base, keys=RULES_KEYS, parse=_parse_rules)

    def to_dict(self) -> dict[str, Any]:
        """The full effective rules, JSON-ready; ``Rules.from_dict(rules.to_dict()) == rules``."""
        return {
            "coverage": str(self.coverage),
            "rake": self.rake.to_dict(),
            "flush_paytable": self.flush_paytable.to_dict(),
            "straight_flush_paytable": self.straight_flush_paytable.to_dict(),
            "max_payout_per_hand": self.max_payout_per_hand,
            "ante_min": self.ante_min,
            "ante_max": self.ante_max,
            "bank_min": self.bank_min,
            "bank_max": self.bank_max,
            "max_players": self.max_players,
            "smallest_chip": self.smallest_chip,
            "qualify_length": self.qualify_length,
            "qualify_high_rank": self.qualify_high_rank,
            "rotation_policy": self.rotation_policy.to_dict(),
        }

    def qualifier_words(self) -> str:
        return (
            f"a {self.qualify_length}-card flush {rank_char(self.qualify_high_rank)}-high "
            f"or better, or any {self.qualify_length + 1}+ card flush"
        )


RULES_KEYS = frozenset(f.name for f in fields(Rules))


def default_rules() -> dict[str, Any]:
    """The brief's default rules, JSON-ready."""
    return Rules().to_dict()


def parse_rules(
    data: Mapping[str, Any] | None, base: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Validated effective rules as JSON: ``data`` merged onto ``base`` or the defaults."""
    return Rules.from_dict(data, base).to_dict()


def _parse_rules(data: Mapping[str, Any], problems: Problems) -> dict[str, Any]:
    """Check a full rules dict; return the typed field values (only meaningful without problems)."""
    out: dict[str, Any] = {}

    def whole(key: str, minimum: int, maximum: int | None = None, *, optional: bool) -> int | None:
        value = data.get(key)
        if value is None and optional:
            return None
        upper = f" and at most {maximum}" if maximum is not None else ""
        if (
            isinstance(value, int)
            and not isinstance(value, bool)
            and value >= minimum
            and (maximum is None or value <= maximum)
        ):
            return value
        none = " or null" if optional else ""
        problems.add(
            f"rules.{key}",
            f"{key.replace('_', ' ')} must be a whole number of at least {minimum}{upper}"
            f"{none}, got {value!r}",
        )
        return None

    chip = whole("smallest_chip", 1, optional=False)
    out["smallest_chip"] = chip or 1
    chip = chip or 1

    coverage = data.get("coverage")
    if coverage in tuple(Coverage):
        out["coverage"] = Coverage(coverage)
    else:
        problems.add(
            "rules.coverage",
            f"coverage {coverage!r} is not one of {', '.join(Coverage)}",
        )
    out["rake"] = _parse_rake(data.get("rake"), chip, problems)
    out["flush_paytable"] = _parse_paytable(data.get("flush_paytable"), "flush", 4, problems)
    out["straight_flush_paytable"] = _parse_paytable(
        data.get("straight_flush_paytable"), "straight_flush", 3, problems
    )
    cap = whole("max_payout_per_hand", 1, optional=True)
    if cap is not None and cap % chip:
        problems.add(
            "rules.max_payout_per_hand",
            f"maximum payout {cap} is not a multiple of the smallest chip {chip}",
        )
    out["max_payout_per_hand"] = cap
    for low_key, high_key, minimum, what in (
        ("ante_min", "ante_max", 1, "ante"),
        ("bank_min", "bank_max", 0, "bank"),
    ):
        low = whole(low_key, minimum, optional=True)
        high = whole(high_key, minimum, optional=True)
        if low is not None and high is not None and low > high:
            problems.add(
                f"rules.{high_key}",
                f"{what} maximum {high} is below the {what} minimum {low}",
            )
        out[low_key], out[high_key] = low, high
    out["max_players"] = whole("max_players", 1, MOST_PLAYERS, optional=False)
    out["qualify_length"] = whole("qualify_length", 2, CARDS_PER_HAND, optional=False)
    out["qualify_high_rank"] = whole("qualify_high_rank", 2, ACE, optional=False)
    policy = data.get("rotation_policy")
    if isinstance(policy, RotationPolicy):
        out["rotation_policy"] = policy
    else:
        try:
            out["rotation_policy"] = RotationPolicy.from_dict(
                policy if isinstance(policy, Mapping) else {}, path="rules.rotation_policy"
            )
        except RuleError as exc:
            problems.extend(exc)
        if policy is not None and not isinstance(policy, Mapping):
            problems.add("rules.rotation_policy", "rotation_policy must be an object")
    return out


def _parse_paytable(value: object, name: str, lowest: int, problems: Problems) -> PayTable:
    path = f"rules.{name}_paytable"
    words = name.replace("_", " ")
    if not isinstance(value, Mapping):
        problems.add(path, f'the {words} pay table must be an object such as {{"7": 200}}')
        return PayTable()
    lines: dict[int, int] = {}
    for key, odds in value.items():
        line_path = f"{path}.{key}"
        if is_int(key) or isinstance(key, str) and re.fullmatch(r"[0-9]{1,3}", key):
            length = int(key)
        else:
            problems.add(line_path, f"{words} pay table line {key!r} is not a number of cards")
            continue
        if not lowest <= length <= CARDS_PER_HAND:
            problems.add(
                line_path,
                f"{words} pay table lines are for {lowest} to {CARDS_PER_HAND} cards, not {length}",
            )
        elif length in lines:
            problems.add(line_path, f"{words} pay table line {length} is given twice")
        elif not is_int(odds) or odds < 1:
            problems.add(
                line_path,
                f"{words} pay table odds must be a whole number of at least 1 (200 for 200:1), "
                f"got {odds!r}",
            )
        elif odds > MAX_ODDS:
            problems.add(
                line_path,
                f"{words} pay table odds {odds} are above the longest allowed, "
                f"{MAX_ODDS} ({MAX_ODDS}:1)",
            )
        else:
            lines[length] = odds
    return PayTable(lines)


def _parse_rake(value: object, chip: int, problems: Problems) -> RakeSchedule:
    if not isinstance(value, Mapping):
        problems.add("rules.rake", 'rake must be an object such as {"scheme": ..., "amount": ...}')
        return RakeSchedule()
    for key in value:
        if key not in ("scheme", "amount", "bands"):
            problems.add(f"rules.rake.{key}", f"unknown rake setting '{key}'")
    scheme = value.get("scheme", str(RakeScheme.PER_PLAYER))
    if scheme not in tuple(RakeScheme):
        problems.add(
            "rules.rake.scheme",
            f"rake scheme {scheme!r} is not one of {', '.join(RakeScheme)}",
        )
        scheme = RakeScheme.PER_PLAYER
    read = RakeReader(problems, path="rules.rake", chip=chip, base="ante")
    amount = read.money(value.get("amount", 0), "amount")
    bands = read.bands(value.get("bands"))
    if bands and amount:
        problems.add(
            "rules.rake",
            "give the rake either as one amount or as bands by ante, not both",
        )
    return RakeSchedule(RakeScheme(scheme), amount, bands)


# --------------------------------------------------------------------------- the record


@dataclass(frozen=True, slots=True)
class DealerHand:
    """The designated player's part of the record."""

    seat: int
    bank: int
    cards: tuple[Card, ...]

    @property
    def flush(self) -> Flush:
        return best_flush(self.cards)

    @property
    def run(self) -> Run:
        return straight_flush_run(self.cards)


@quick_init
@dataclass(frozen=True, slots=True)
class PlayerHand:
    """One player's part of the record; ``raise_amount`` 0 means the player folded."""

    seat: int
    cards: tuple[Card, ...]
    ante: int
    raise_amount: int
    flush_bonus: int = 0
    straight_flush_bonus: int = 0

    @property
    def folded(self) -> bool:
        return self.raise_amount == 0

    @property
    def flush(self) -> Flush:
        return best_flush(self.cards)

    @property
    def run(self) -> Run:
        return straight_flush_run(self.cards)

    def stake(self, wager: Wager) -> int:
        return {
            Wager.ANTE: self.ante,
            Wager.RAISE: self.raise_amount,
            Wager.FLUSH_BONUS: self.flush_bonus,
            Wager.STRAIGHT_FLUSH_BONUS: self.straight_flush_bonus,
        }[wager]


@dataclass(frozen=True, slots=True)
class Record:
    designated_player: DealerHand
    players: tuple[PlayerHand, ...]


RECORD_KEYS = ("designated_player", "players")
DP_KEYS = ("seat", "bank", "cards")
PLAYER_KEYS = ("seat", "cards", "ante", "raise", "flush_bonus", "straight_flush_bonus")


class _Reader:
    """Reads the record's fields, collecting every problem."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.problems = Problems()

    def unknown_keys(self, entry: Mapping[str, Any], known: Sequence[str], path: str) -> None:
        for key in entry:
            if key not in known:
                where = f"{path}.{key}" if path else str(key)
                self.problems.add(where, f"unknown field '{key}'")

    def seat(self, entry: Mapping[str, Any], path: str, who: str) -> int | None:
        value = entry.get("seat")
        if value is None:
            self.problems.add(f"{path}.seat", f"{who}: seat is missing")
            return None
        if not is_int(value) or value < 1:
            self.problems.add(
                f"{path}.seat", f"{who}: seat must be a positive whole number, got {value!r}"
            )
            return None
        number: int = value
        return number

    def money(
        self,
        entry: Mapping[str, Any],
        key: str,
        path: str,
        name: str,
        *,
        required: bool,
    ) -> int | None:
        """A non-negative whole amount in a multiple of the smallest chip; ``name`` says what it is.

        An optional amount that is absent or null is 0.
        """
        value = entry.get(key)
        if value is None and not required:
            return 0
        if value is None:
            self.problems.add(f"{path}.{key}", f"{name} is missing")
            return None
        if not is_int(value):
            self.problems.add(
                f"{path}.{key}",
                f"{name} must be a whole number of minor units (cents), got {value!r}",
            )
            return None
        amount: int = value
        if amount < 0:
            self.problems.add(f"{path}.{key}", f"{name} {amount} must not be negative")
            return None
        too_big = beyond_maximum(amount, name)
        if too_big is not None:
            self.problems.add(f"{path}.{key}", too_big)
            return None
        chip = self.rules.smallest_chip
        if amount % chip:
            self.problems.add(
                f"{path}.{key}", f"{name} {amount} is not a multiple of the smallest chip {chip}"
            )
            return None
        return amount

    def cards(self, entry: Mapping[str, Any], path: str, who: str) -> tuple[Card, ...] | None:
        """The hand's cards if all seven are good; the good ones go to the duplicate check anyway."""
        values = entry.get("cards")
        if values is None:
            self.problems.add(f"{path}.cards", f"{who}: cards are missing")
            return None
        try:
            return parse_cards(values, path=f"{path}.cards", count=CARDS_PER_HAND, who=who)
        except RuleError as error:
            self.problems.extend(error)
            return None

    def readable_cards(self, entry: Mapping[str, Any]) -> list[Card | None]:
        """Every card that can be read, in place (None for the others), for the duplicate check."""
        values = entry.get("cards")
        if isinstance(values, str) or not isinstance(values, Sequence):
            return []
        return readable_cards(values)


def parse_record(record: Mapping[str, Any], rules: Rules | None = None) -> Record:
    """Check the whole record against the rules (clauses 1, 5, 6) and read it.

    Raises one :class:`RuleError` naming every problem with its path.

    A replayed hand settles without reading its record back through here
    (``HighCardFlushHand._checked_record`` in ``hand.py``): a check added here that the hand's actions
    do not already make must be added there too.
    """
    rules = rules or Rules()
    if not isinstance(record, Mapping):
        raise RuleError("the hand record must be an object with designated_player and players")
    read = _Reader(rules)
    problems = read.problems
    schedule = rules.rake.schedule
    read.unknown_keys(record, RECORD_KEYS, "")
    groups: list[CardGroup] = []

    dp: DealerHand | None = None
    dp_seat: int | None = None
    raw_dp = record.get("designated_player")
    if not isinstance(raw_dp, Mapping):
        problems.add(
            "designated_player",
            "the designated player is missing (an object with seat, bank and cards)",
        )
    else:
        read.unknown_keys(raw_dp, DP_KEYS, "designated_player")
        dp_seat = read.seat(raw_dp, "designated_player", "designated player")
        bank = read.money(
            raw_dp, "bank", "designated_player", "designated player bank", required=True
        )
        if bank is not None:
            if rules.bank_min is not None and bank < rules.bank_min:
                problems.add(
                    "designated_player.bank",
                    f"designated player bank {bank} is below the table minimum {rules.bank_min}",
                )
            if rules.bank_max is not None and bank > rules.bank_max:
                problems.add(
                    "designated_player.bank",
                    f"designated player bank {bank} is above the table maximum {rules.bank_max}",
                )
        dp_cards = read.cards(raw_dp, "designated_player", "designated player")
        # The cards read (all of them when the hand's are good) go to the duplicate check.
        readable = dp_cards if dp_cards is not None else read.readable_cards(raw_dp)
        groups.append(CardGroup("the designated player", "designated_player.cards", readable))
        if dp_seat is not None and bank is not None and dp_cards is not None:
            dp = DealerHand(dp_seat, bank, dp_cards)

    players: list[PlayerHand] = []
    raw_players = record.get("players")
    if isinstance(raw_players, str) or not isinstance(raw_players, Sequence):
        problems.add("players", "players must be a list of player hands")
        raw_players = []
    elif not 1 <= len(raw_players) <= rules.max_players:
        problems.add(
            "players",
            f"1 to {rules.max_players} players needed besides the designated player, "
            f"got {len(raw_players)}",
        )
    seats_taken: set[int] = set()
    for index, raw in enumerate(raw_players):
        path = f"players[{index}]"
        if not isinstance(raw, Mapping):
            problems.add(
                path, f"player entry {index + 1} must be an object with seat, cards, ante and raise"
            )
            continue
        read.unknown_keys(raw, PLAYER_KEYS, path)
        seat = read.seat(raw, path, f"player entry {index + 1}")
        who = f"seat {seat}" if seat is not None else f"player entry {index + 1}"
        if seat is not None:
            if seat == dp_seat:
                problems.add(f"{path}.seat", f"seat {seat} is the designated player's seat")
                seat = None
            elif seat in seats_taken:
                problems.add(f"{path}.seat", f"seat {seat} is listed twice")
                seat = None
            else:
                seats_taken.add(seat)
        cards = read.cards(raw, path, who)
        readable = cards if cards is not None else read.readable_cards(raw)
        groups.append(CardGroup(who, f"{path}.cards", readable))
        ante = read.money(raw, "ante", path, f"{who}: ante", required=True)
        if ante is not None:
            if ante == 0:
                problems.add(f"{path}.ante", f"{who}: ante must be more than 0")
                ante = None
            elif rules.ante_min is not None and ante < rules.ante_min:
                problems.add(
                    f"{path}.ante",
                    f"{who}: ante {ante} is below the table minimum {rules.ante_min}",
                )
            elif rules.ante_max is not None and ante > rules.ante_max:
                problems.add(
                    f"{path}.ante",
                    f"{who}: ante {ante} is above the table maximum {rules.ante_max}",
                )
            elif not schedule.covers(ante):  # rules.rake.fee_for(ante) is None
                top = rules.rake.bands[-1].up_to
                problems.add(
                    f"{path}.ante",
                    f"{who}: ante {ante} is above the rake schedule's top band (up to {top})",
                )
        raised = read.money(raw, "raise", path, f"{who}: raise", required=True)
        if raised and ante is not None and cards is not None:
            flush = best_flush(cards)
            low, high = raise_bounds(ante, flush.length)
            if raised < low:
                problems.add(
                    f"{path}.raise",
                    f"{who}: raise {raised} is below the minimum of 1x ante ({low}); 0 means fold",
                )
            elif raised > high:
                problems.add(
                    f"{path}.raise",
                    f"{who}: raise {raised} exceeds {raise_multiple(flush.length)}x ante "
                    f"for a {flush.length}-card flush",
                )
        bonuses: dict[Wager, int | None] = {}
        for wager, table in (
            (Wager.FLUSH_BONUS, rules.flush_paytable),
            (Wager.STRAIGHT_FLUSH_BONUS, rules.straight_flush_paytable),
        ):
            stake = read.money(
                raw, str(wager), path, f"{who}: {WAGER_WORDS[wager]}", required=False
            )
            if stake and not table:
                problems.add(
                    f"{path}.{wager}",
                    f"{who}: the {WAGER_WORDS[wager]} is not offered at this table",
                )
            bonuses[wager] = stake
        flush_bonus = bonuses[Wager.FLUSH_BONUS]
        straight_flush_bonus = bonuses[Wager.STRAIGHT_FLUSH_BONUS]
        if (
            seat is not None
            and cards is not None
            and ante is not None
            and raised is not None
            and flush_bonus is not None
            and straight_flush_bonus is not None
        ):
            players.append(PlayerHand(seat, cards, ante, raised, flush_bonus, straight_flush_bonus))
    try:
        check_distinct(groups)
    except RuleError as error:
        problems.extend(error)
    problems.raise_if_any()
    assert dp is not None
    return Record(dp, tuple(players))


# --------------------------------------------------------------------------- settlement


@dataclass(slots=True)
class _Judged:
    """One player's lines and sentences while the hand is being settled."""

    player: PlayerHand
    lines: list[Line]
    sentences: list[str]
    status: SeatStatus
    rake: int = 0

    @property
    def total(self) -> int:
        return sum([line.amount for line in self.lines])


def _line(wager: Wager, stake: int, outcome: Outcome, amount: int, odds: str | None) -> Line:
    return Line(str(wager), stake, outcome, amount, odds)


_SIGN = {Outcome.WIN: 1, Outcome.LOSE: -1, Outcome.PUSH: 0}
_FLIP = {Outcome.WIN: Outcome.LOSE, Outcome.LOSE: Outcome.WIN, Outcome.PUSH: Outcome.PUSH}


def _even(wager: Wager, stake: int, outcome: Outcome) -> Line:
    return Line(str(wager), stake, outcome, _SIGN[outcome] * stake, EVEN_MONEY)


def _judge(
    player: PlayerHand,
    values: tuple[Flush, Run],
    dp_values: tuple[Flush, Run],
    qualifies: bool,
    rules: Rules,
) -> _Judged:
    """Clauses 6-12 for one player, before the bank is considered; ``values`` and
    ``dp_values`` are the player's and the designated player's flush and run."""
    seat = f"Seat {player.seat}"
    ante, raised = player.ante, player.raise_amount
    (flush, run), (dp_flush, dp_run) = values, dp_values
    if player.folded:
        lines = [_even(Wager.ANTE, ante, Outcome.LOSE)]
        lost = [f"ante {ante}"]
        for wager in (Wager.FLUSH_BONUS, Wager.STRAIGHT_FLUSH_BONUS):
            if stake := player.stake(wager):
                lines.append(_line(wager, stake, Outcome.LOSE, -stake, None))
                lost.append(f"{WAGER_WORDS[wager]} {stake}")
        return _Judged(
            player,
            lines,
            [f"{seat} folds with a {flush}: {', '.join(lost)} lost."],
            SeatStatus.FOLDED,
        )

    if not qualifies:
        lines = [_even(Wager.ANTE, ante, Outcome.WIN), _even(Wager.RAISE, raised, Outcome.PUSH)]
        sentence = (
            f"{seat}: {flush}; the designated player does not qualify, "
            f"so ante wins {ante} and raise {raised} pushes."
        )
    elif flush > dp_flush:
        lines = [_even(Wager.ANTE, ante, Outcome.WIN), _even(Wager.RAISE, raised, Outcome.WIN)]
        sentence = (
            f"{seat}: {flush} beats the designated player's {dp_flush}; "
            f"ante wins {ante}, raise wins {raised}."
        )
    elif flush == dp_flush:
        lines = [_even(Wager.ANTE, ante, Outcome.PUSH), _even(Wager.RAISE, raised, Outcome.PUSH)]
        sentence = f"{seat}: {flush} ties the designated player's {dp_flush}; ante and raise push."
    else:
        lines = [_even(Wager.ANTE, ante, Outcome.LOSE), _even(Wager.RAISE, raised, Outcome.LOSE)]
        sentence = (
            f"{seat}: {flush} loses to the designated player's {dp_flush}; "
            f"ante loses {ante}, raise loses {raised}."
        )
    sentences = [sentence]

    if stake := player.flush_bonus:
        table = rules.flush_paytable
        line = table.line_for(flush.length)
        if line is None:
            lines.append(_line(Wager.FLUSH_BONUS, stake, Outcome.LOSE, -stake, None))
            sentences.append(
                f"{seat}: flush bonus loses {stake}; it needs at least a {table.lowest}-card flush."
            )
        else:
            odds = f"{line[1]}:1"
            if flush > dp_flush:
                won = stake * line[1]
                lines.append(_line(Wager.FLUSH_BONUS, stake, Outcome.WIN, won, odds))
                sentences.append(
                    f"{seat}: flush bonus wins {won} at {odds}; the {flush.length}-card flush "
                    "beats the designated player's."
                )
            elif flush == dp_flush:
                lines.append(_line(Wager.FLUSH_BONUS, stake, Outcome.PUSH, 0, odds))
                sentences.append(f"{seat}: flush bonus pushes; the flushes tie.")
            else:
                lines.append(_line(Wager.FLUSH_BONUS, stake, Outcome.LOSE, -stake, odds))
                sentences.append(
                    f"{seat}: flush bonus loses {stake}; the designated player's flush is better."
                )

    if stake := player.straight_flush_bonus:
        table = rules.straight_flush_paytable
        line = table.line_for(run.length) if run.is_straight_flush else None
        if line is None:
            lines.append(_line(Wager.STRAIGHT_FLUSH_BONUS, stake, Outcome.LOSE, -stake, None))
            sentences.append(
                f"{seat}: straight flush bonus loses {stake}; it needs a straight flush of "
                f"at least {max(3, table.lowest or 3)} cards and the best run is {run.length}."
            )
        else:
            odds = f"{line[1]}:1"
            theirs = str(dp_run) if dp_run.is_straight_flush else f"best run of {dp_run.length}"
            if run >= dp_run:
                won = stake * line[1]
                lines.append(_line(Wager.STRAIGHT_FLUSH_BONUS, stake, Outcome.WIN, won, odds))
                how = "ties" if run == dp_run else "beats"
                sentences.append(
                    f"{seat}: straight flush bonus wins {won} at {odds}; {run} "
                    f"{how} the designated player's {theirs}."
                )
            else:
                lines.append(_line(Wager.STRAIGHT_FLUSH_BONUS, stake, Outcome.LOSE, -stake, odds))
                sentences.append(
                    f"{seat}: straight flush bonus loses {stake}; {run} is below the "
                    f"designated player's {theirs}."
                )
    return _Judged(player, lines, sentences, SeatStatus.SETTLED)


CAP_ORDER = (Wager.STRAIGHT_FLUSH_BONUS, Wager.FLUSH_BONUS, Wager.RAISE, Wager.ANTE)


def _apply_cap(judged: _Judged, cap: int | None) -> None:
    """Clause 12: cut aggregate winnings above ``cap``, bonuses first; record every cut."""
    if cap is None:
        return
    winnings = sum(line.amount for line in judged.lines if line.amount > 0)
    if winnings <= cap:
        return
    excess = winnings - cap
    cuts = []
    for wager in CAP_ORDER:
        for index, line in enumerate(judged.lines):
            if line.wager != wager or line.amount <= 0 or not excess:
                continue
            cut = min(excess, line.amount)
            excess -= cut
            judged.lines[index] = Line(
                line.wager,
                line.stake,
                line.outcome,
                line.amount - cut,
                line.odds,
                {**line.extra, "capped_from": line.amount},
            )
            cuts.append(f"{WAGER_WORDS[wager]} {line.amount} to {line.amount - cut}")
    judged.sentences.append(
        f"Seat {judged.player.seat}: winnings {winnings} exceed the maximum payout per hand "
        f"{cap}; cut by {winnings - cap} ({', '.join(cuts)})."
    )


def _kill(judged: _Judged, reason: str) -> None:
    judged.lines = [
        _line(Wager(line.wager), line.stake, Outcome.DEAD, 0, line.odds) for line in judged.lines
    ]
    judged.status = SeatStatus.DEAD
    judged.sentences = [f"Seat {judged.player.seat}: dead hand, all bets returned; {reason}."]


def _mirror(line: Line, seat: int) -> Line:
    return Line(
        line.wager, line.stake, _FLIP[line.outcome], -line.amount, line.odds, {"against": seat}
    )


def settle(record: Record, rules: Rules | None = None) -> Settlement:
    """Settle a checked record (clauses 7-14)."""
    rules = rules or Rules()
    dp = record.designated_player
    # Each hand's flush and run, worked out once.
    dp_flush, dp_run = dp_values = hand_values(dp.cards)
    values = {player.seat: hand_values(player.cards) for player in record.players}
    qualifies = dp_qualifies(dp_flush, rules)
    by_seat = {player.seat: player for player in record.players}
    order = settlement_order(dp.seat, by_seat)

    dp_sentence = f"Designated player (seat {dp.seat}): {dp_flush}"
    if qualifies:
        dp_sentence += ", which qualifies"
    else:
        dp_sentence += f", which does not qualify (it needs {rules.qualifier_words()})"
    if dp_run.is_straight_flush:
        dp_sentence += f"; {dp_run}"
    explanation = [dp_sentence + "."]

    judged: list[_Judged] = []
    collected = paid = 0
    for seat in order:
        result = _judge(by_seat[seat], values[seat], dp_values, qualifies, rules)
        _apply_cap(result, rules.max_payout_per_hand)
        total = result.total
        if rules.coverage is Coverage.RUNNING:
            available = dp.bank + collected - paid
            if total > available:
                _kill(
                    result,
                    f"the designated player's bank cannot cover the {total} it would win "
                    f"(only {available} available)",
                )
        else:
            available = dp.bank - paid
            if total > available:
                _kill(
                    result,
                    f"the designated player's original bank {dp.bank} cannot cover the {total} "
                    f"it would win (only {available} left)",
                )
            elif collected - paid - total > dp.bank:
                _kill(
                    result,
                    f"the designated player may not win more than the original bank {dp.bank} "
                    f"(already up {collected - paid}, this hand would take {-total})",
                )
        if result.status is not SeatStatus.DEAD:
            if total > 0:
                paid += total
            else:
                collected -= total
        judged.append(result)
        explanation.extend(result.sentences)

    live = [result for result in judged if result.status is not SeatStatus.DEAD]
    dp_rake = 0
    schedule = rules.rake.schedule

    def fee(ante: int) -> int:  # rules.rake.fee_for(ante) or 0, with the one schedule
        return schedule.fee(ante) if schedule.covers(ante) else 0

    if rules.rake.charges_players:
        for result in live:
            result.rake = fee(result.player.ante)
    if rules.rake.charges_dp and live:
        dp_rake = fee(max(result.player.ante for result in live))

    dp_lines = tuple(
        _mirror(line, result.player.seat)
        for result in judged
        if result.status is not SeatStatus.DEAD
        for line in result.lines
    )
    dp_total = sum(line.amount for line in dp_lines)
    explanation.append(
        f"Designated player (seat {dp.seat}): bank {dp.bank}, "
        f"{'wins' if dp_total >= 0 else 'loses'} {abs(dp_total)}, bank after the hand "
        f"{dp.bank + dp_total}."
    )
    fees = [f"seat {result.player.seat} pays {result.rake}" for result in judged if result.rake]
    if dp_rake:
        fees.append(f"the designated player pays {dp_rake}")
    if fees:
        total_rake = dp_rake + sum(result.rake for result in judged)
        explanation.append(f"Rake: {', '.join(fees)}; total {total_rake}.")
    dead = [str(result.player.seat) for result in judged if result.status is SeatStatus.DEAD]
    if dead and schedule.charges:
        seats_word = "seat" if len(dead) == 1 else "seats"
        explanation.append(f"No rake on dead hands: {seats_word} {', '.join(dead)}.")

    seats = [
        SeatResult(
            seat=dp.seat,
            role=Role.DESIGNATED_PLAYER,
            cards=tuple(map(str, dp.cards)),
            hand=str(dp_flush),
            status=SeatStatus.SETTLED,
            lines=dp_lines,
            rake=dp_rake,
            extra={
                "qualifies": qualifies,
                "straight_flush": str(dp_run) if dp_run.is_straight_flush else None,
                "bank": dp.bank,
                "bank_after": dp.bank + dp_total,
            },
        )
    ]
    for result in judged:
        player = result.player
        flush, run = values[player.seat]
        seats.append(
            SeatResult(
                seat=player.seat,
                role=Role.PLAYER,
                cards=tuple(map(str, player.cards)),
                hand=str(flush),
                status=result.status,
                lines=tuple(result.lines),
                rake=result.rake,
                extra={"straight_flush": str(run) if run.is_straight_flush else None},
            )
        )
    settlement = Settlement(
        game=GAME_CODE,
        rules=rules.to_dict(),
        seats=tuple(sorted(seats, key=lambda seat: seat.seat)),
        explanation=tuple(explanation),
        extra={"order": order},
    )
    settlement.check_conserved()
    return settlement


def evaluate(
    record: Mapping[str, Any], rules: Rules | Mapping[str, Any] | None = None
) -> Settlement:
    """Check and settle one hand record; ``rules`` may be :class:`Rules` or JSON overrides."""
    effective = rules if isinstance(rules, Rules) else Rules.from_dict(rules)
    return settle(parse_record(record, effective), effective)
