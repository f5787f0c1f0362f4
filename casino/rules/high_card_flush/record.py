"""The dealer's record of a High Card Flush hand: its wagers, its parts (the designated
player's and each player's) and its check (:func:`parse_record`: clauses 1, 5 and 6 of
``docs/rules/high-card-flush.md``, every problem reported at once with its path).

Interpretations this module makes where the brief leaves room:

* A raise need not be a whole multiple of the ante, only within clause 6's bounds and a
  multiple of the smallest chip. Record fields the engine does not know are rejected.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from casino.rules.cards import Card, CardGroup, check_distinct, parse_cards, readable_cards
from casino.rules.errors import Problems, RuleError
from casino.rules.messages import Message, Money, _, msg, prefixed
from casino.rules.options import as_money, beyond_maximum, is_int, not_a_chip_multiple
from casino.rules.quick import quick_init

from .rules import CARDS_PER_HAND, Rules
from .values import Flush, Run, best_flush, raise_bounds, raise_multiple, straight_flush_run


class Wager(StrEnum):
    ANTE = "ante"
    RAISE = "raise"
    FLUSH_BONUS = "flush_bonus"
    STRAIGHT_FLUSH_BONUS = "straight_flush_bonus"


WAGER_WORDS: dict[Wager, str] = {
    Wager.ANTE: _("ante"),
    Wager.RAISE: _("raise"),
    Wager.FLUSH_BONUS: _("flush bonus"),
    Wager.STRAIGHT_FLUSH_BONUS: _("straight flush bonus"),
}


#: The designated player, as a message names the hand.
THE_DP = Message(_("the designated player"))


def _wager_of(who: str, wager: Wager) -> str:
    """``seat 3: ante``: a player's wager named in a message."""
    return prefixed(who, Message(WAGER_WORDS[wager]))


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
                self.problems.add(where, msg(_("unknown field '%(key)s'"), key=str(key)))

    def seat(self, entry: Mapping[str, Any], path: str, who: str) -> int | None:
        value = entry.get("seat")
        if value is None:
            self.problems.add(f"{path}.seat", prefixed(who, msg(_("seat is missing"))))
            return None
        if not is_int(value) or value < 1:
            self.problems.add(
                f"{path}.seat",
                prefixed(
                    who,
                    msg(
                        _("seat must be a positive whole number, got %(value)s"), value=repr(value)
                    ),
                ),
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
            self.problems.add(f"{path}.{key}", msg(_("%(name)s is missing"), name=name))
            return None
        if not is_int(value):
            self.problems.add(
                f"{path}.{key}",
                msg(
                    _("%(name)s must be a whole number of minor units (cents), got %(value)s"),
                    name=name,
                    value=repr(value),
                ),
            )
            return None
        amount: int = value
        if amount < 0:
            self.problems.add(
                f"{path}.{key}",
                msg(_("%(name)s %(amount)s must not be negative"), name=name, amount=Money(amount)),
            )
            return None
        too_big = beyond_maximum(amount, name)
        if too_big is not None:
            self.problems.add(f"{path}.{key}", too_big)
            return None
        chip = self.rules.smallest_chip
        if amount % chip:
            self.problems.add(f"{path}.{key}", not_a_chip_multiple(name, amount, chip))
            return None
        return amount

    def cards(self, entry: Mapping[str, Any], path: str, who: str) -> tuple[Card, ...] | None:
        """The hand's cards if all seven are good; the good ones go to the duplicate check anyway."""
        values = entry.get("cards")
        if values is None:
            self.problems.add(f"{path}.cards", prefixed(who, msg(_("cards are missing"))))
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
        raise RuleError(
            msg(_("the hand record must be an object with designated_player and players"))
        )
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
            msg(_("the designated player is missing (an object with seat, bank and cards)")),
        )
    else:
        read.unknown_keys(raw_dp, DP_KEYS, "designated_player")
        dp_words = Message(_("designated player"))
        dp_seat = read.seat(raw_dp, "designated_player", dp_words)
        bank = read.money(
            raw_dp,
            "bank",
            "designated_player",
            Message(_("designated player bank")),
            required=True,
        )
        if bank is not None:
            if rules.bank_min is not None and bank < rules.bank_min:
                problems.add(
                    "designated_player.bank",
                    msg(
                        _("designated player bank %(bank)s is below the table minimum %(least)s"),
                        bank=Money(bank),
                        least=Money(rules.bank_min),
                    ),
                )
            if rules.bank_max is not None and bank > rules.bank_max:
                problems.add(
                    "designated_player.bank",
                    msg(
                        _("designated player bank %(bank)s is above the table maximum %(most)s"),
                        bank=Money(bank),
                        most=Money(rules.bank_max),
                    ),
                )
        dp_cards = read.cards(raw_dp, "designated_player", dp_words)
        # The cards read (all of them when the hand's are good) go to the duplicate check.
        readable = dp_cards if dp_cards is not None else read.readable_cards(raw_dp)
        groups.append(CardGroup(THE_DP, "designated_player.cards", readable))
        if dp_seat is not None and bank is not None and dp_cards is not None:
            dp = DealerHand(dp_seat, bank, dp_cards)

    players: list[PlayerHand] = []
    raw_players = record.get("players")
    if isinstance(raw_players, str) or not isinstance(raw_players, Sequence):
        problems.add("players", msg(_("players must be a list of player hands")))
        raw_players = []
    elif not 1 <= len(raw_players) <= rules.max_players:
        problems.add(
            "players",
            msg(
                _("1 to %(most)s players needed besides the designated player, got %(got)s"),
                most=rules.max_players,
                got=len(raw_players),
            ),
        )
    seats_taken: set[int] = set()
    for index, raw in enumerate(raw_players):
        path = f"players[{index}]"
        if not isinstance(raw, Mapping):
            problems.add(
                path,
                msg(
                    _("player entry %(number)s must be an object with seat, cards, ante and raise"),
                    number=index + 1,
                ),
            )
            continue
        read.unknown_keys(raw, PLAYER_KEYS, path)
        entry = msg(_("player entry %(number)s"), number=index + 1)
        seat = read.seat(raw, path, entry)
        who = msg(_("seat %(seat)s"), seat=seat) if seat is not None else entry
        if seat is not None:
            if seat == dp_seat:
                problems.add(
                    f"{path}.seat",
                    msg(_("seat %(seat)s is the designated player's seat"), seat=seat),
                )
                seat = None
            elif seat in seats_taken:
                problems.add(f"{path}.seat", msg(_("seat %(seat)s is listed twice"), seat=seat))
                seat = None
            else:
                seats_taken.add(seat)
        cards = read.cards(raw, path, who)
        readable = cards if cards is not None else read.readable_cards(raw)
        groups.append(CardGroup(who, f"{path}.cards", readable))
        ante = read.money(raw, "ante", path, _wager_of(who, Wager.ANTE), required=True)
        if ante is not None:
            if ante == 0:
                problems.add(f"{path}.ante", prefixed(who, msg(_("ante must be more than 0"))))
                ante = None
            elif rules.ante_min is not None and ante < rules.ante_min:
                problems.add(
                    f"{path}.ante",
                    prefixed(
                        who,
                        msg(
                            _("ante %(ante)s is below the table minimum %(least)s"),
                            ante=Money(ante),
                            least=Money(rules.ante_min),
                        ),
                    ),
                )
            elif rules.ante_max is not None and ante > rules.ante_max:
                problems.add(
                    f"{path}.ante",
                    prefixed(
                        who,
                        msg(
                            _("ante %(ante)s is above the table maximum %(most)s"),
                            ante=Money(ante),
                            most=Money(rules.ante_max),
                        ),
                    ),
                )
            elif not schedule.covers(ante):  # rules.rake.fee_for(ante) is None
                top = rules.rake.bands[-1].up_to
                problems.add(
                    f"{path}.ante",
                    prefixed(
                        who,
                        msg(
                            _(
                                "ante %(ante)s is above the rake schedule's top band (up to %(top)s)"
                            ),
                            ante=Money(ante),
                            top=as_money(top),
                        ),
                    ),
                )
        raised = read.money(raw, "raise", path, _wager_of(who, Wager.RAISE), required=True)
        if raised and ante is not None and cards is not None:
            flush = best_flush(cards)
            low, high = raise_bounds(ante, flush.length)
            if raised < low:
                problems.add(
                    f"{path}.raise",
                    prefixed(
                        who,
                        msg(
                            _(
                                "raise %(amount)s is below the minimum of 1x ante (%(low)s); 0 means fold"
                            ),
                            amount=Money(raised),
                            low=Money(low),
                        ),
                    ),
                )
            elif raised > high:
                problems.add(
                    f"{path}.raise",
                    prefixed(
                        who,
                        msg(
                            _(
                                "raise %(amount)s exceeds %(multiple)sx ante for a %(length)s-card flush"
                            ),
                            amount=Money(raised),
                            multiple=raise_multiple(flush.length),
                            length=flush.length,
                        ),
                    ),
                )
        bonuses: dict[Wager, int | None] = {}
        for wager, table in (
            (Wager.FLUSH_BONUS, rules.flush_paytable),
            (Wager.STRAIGHT_FLUSH_BONUS, rules.straight_flush_paytable),
        ):
            stake = read.money(raw, str(wager), path, _wager_of(who, wager), required=False)
            if stake and not table:
                problems.add(
                    f"{path}.{wager}",
                    prefixed(
                        who,
                        msg(
                            _("the %(wager)s is not offered at this table"),
                            wager=Message(WAGER_WORDS[wager]),
                        ),
                    ),
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
