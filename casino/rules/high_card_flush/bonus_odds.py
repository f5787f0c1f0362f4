"""High Card Flush bonus bets, exactly: the Flush bonus and the Straight Flush bonus (the game's
own exact theoretical figures, supplied through ``theory.py``).

Both bonuses are judged **against the designated player** (DP), not against a pay table
alone (clauses 10-12 of ``docs/rules/high-card-flush.md``), so their return depends on two
hands: the player's seven cards and the DP's seven, dealt from one 52-card deck. Every
count below is over the ``C(52,7) * C(45,7)`` ordered (player, DP) deals; the other seats'
cards are unseen and do not change the pair's distribution. Nothing is dealt: the counts
come from suit patterns (how many cards of each suit each hand holds) and, within a suit,
from the rank subsets of the two hands.

What is computed, and for whom:

* :attr:`BonusReturn.player_return` is the **player's** expected result per unit staked on
  the bonus (negative: the player loses that much per unit on average), for a player who
  does not fold (a folded hand's bonus loses, clause 6c, so folding only lowers it), with a
  DP bank that covers the bet and no payout cap (clauses 12-13 can only cut a win).
* The bonus is paid by the DP, never by the house (the game is player-banked; the DP's side
  of every line mirrors the player's): :attr:`BonusReturn.designated_player_return` is the
  DP's expectation per unit the player stakes, exactly ``-player_return``, and
  :attr:`BonusReturn.house_return` is 0: the house earns only its fee (clause 14).

The engine's definitions, followed here:

* **Flush** (clause 2): the longest suit; equal lengths compare card by card from the top.
  The Flush bonus (clause 10) is in action with a flush of at least the pay table's lowest
  line (4 by default); it wins when the player's flush beats the DP's, pays the odds of the
  highest line not above the player's length (clause 12), pushes on an exact tie and loses
  otherwise, or when not in action. A 4-card or longer flush is in exactly one suit (2 x 4 > 7),
  so a flush the bonus pays on is never a choice between suits.
* **Run** (clause 11): the longest sequence of consecutive ranks within one suit, the ace
  high or low and never wrapping (A-2-3 and Q-K-A, not K-A-2), compared by length then by
  top card, a low ace counting 1 (A-2-3 tops at 3). The Straight Flush bonus is in action with
  a run of at least 3 cards reaching the pay table's lowest line; it wins when the player's
  run is at least the DP's (a tie in length and top wins) and never pushes.

How the counts are made:

* Flush bonus: for each pair of suit patterns (player's ``a``, DP's ``b``) the number of deals
  is ``prod C(13, a_s) * C(13 - a_s, b_s)``. Different lengths decide by the patterns alone.
  Equal lengths (4 to 6) in the same suit hold disjoint rank sets of equal size, so the player
  is higher in exactly half of them; in different suits the two rank sets are independent and
  uniform, so they are equal in ``1 / C(13, L)`` of the deals (a push) and the rest split evenly.
* Straight Flush bonus: every pair of disjoint rank subsets within one suit (``3**13`` at
  most) is classified by the two runs it holds; ``F(x, y)``, the number of deals in which the
  player's best run is at most ``x`` and the DP's at most ``y``, is then the coefficient of
  ``u**7 v**7`` in the fourth power of one suit's generating polynomial, because each hand's
  best run is the best of its four suits. A player's run ``r`` wins against every DP run up to
  ``r``: ``F(r, r) - F(r-, r)`` deals, ``r-`` being the next lower run.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from itertools import product
from math import comb, prod

SUIT_RANKS = 13
HAND = 7
SUITS = 4
#: Ordered (player, DP) deals of seven cards each from one deck.
DEALS = comb(52, HAND) * comb(52 - HAND, HAND)
HANDS = comb(52, HAND)

FLUSH_BONUS = "flush_bonus"
STRAIGHT_FLUSH_BONUS = "straight_flush_bonus"

#: A run as the engine compares it: (length, top card); an empty suit holds no run.
RunValue = tuple[int, int]
NO_RUN: RunValue = (0, 0)


def paytable(lines: Mapping[int, int] | Mapping[str, int]) -> dict[int, int]:
    """A pay table as ``{length: odds}`` (the rules' JSON keys are strings: ``{"7": 200}``)."""
    return {int(length): int(odds) for length, odds in lines.items()}


def line_for(table: Mapping[int, int], length: int) -> int | None:
    """Clause 12: the highest line not above ``length``, or None (the bet is not in action)."""
    lines = [line for line in table if line <= length]
    return max(lines) if lines else None


# --------------------------------------------------------------------------- runs in one suit


def run_of(mask: int) -> RunValue:
    """The best run of one suit's ranks, as the engine's ``straight_flush_run`` finds it.

    ``mask`` has bit ``r - 2`` set for rank ``r`` (2..14). An ace also plays as 1, below the
    2; among equally long runs the highest top wins; an empty suit has :data:`NO_RUN`.
    """
    present = {rank + 2 for rank in range(SUIT_RANKS) if mask >> rank & 1}
    if 14 in present:
        present.add(1)
    best = NO_RUN
    length = 0
    for rank in range(1, 15):
        if rank in present:
            length += 1
            best = max(best, (length, rank))
        else:
            length = 0
    return best


@cache
def _runs() -> tuple[tuple[RunValue, ...], tuple[int, ...], tuple[int, ...]]:
    """Every run value in the engine's order, and for every mask its run's index and size."""
    masks = range(1 << SUIT_RANKS)
    values = sorted({run_of(mask) for mask in masks})
    index = {value: place for place, value in enumerate(values)}
    return (
        tuple(values),
        tuple(index[run_of(mask)] for mask in masks),
        tuple(mask.bit_count() for mask in masks),
    )


def run_values() -> tuple[RunValue, ...]:
    """Every (length, top) a suit can hold, lowest first, :data:`NO_RUN` included."""
    return _runs()[0]


@cache
def _pair_table() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``table[a][b]``: one suit's disjoint (player, DP) rank subsets of sizes ``a`` and ``b``
    counted by the two runs, as cumulative counts: entry ``x * V + y`` is the number of
    subsets whose player run index is at most ``x`` and DP run index at most ``y``."""
    values, index, size = _runs()
    width = len(values)
    full = (1 << SUIT_RANKS) - 1
    counts = [[[0] * (width * width) for _ in range(HAND + 1)] for _ in range(HAND + 1)]
    for mine in range(1 << SUIT_RANKS):
        a = size[mine]
        if a > HAND:
            continue
        rows = counts[a]
        offset = index[mine] * width
        rest = full & ~mine
        theirs = rest
        while True:
            b = size[theirs]
            if b <= HAND:
                rows[b][offset + index[theirs]] += 1
            if not theirs:
                break
            theirs = (theirs - 1) & rest
    table = []
    for a in range(HAND + 1):
        row = []
        for b in range(HAND + 1):
            cells = counts[a][b]
            for x in range(width):
                running = 0
                for y in range(width):
                    running += cells[x * width + y]
                    cells[x * width + y] = running + (cells[(x - 1) * width + y] if x else 0)
            row.append(tuple(cells))
        table.append(tuple(row))
    return tuple(table)


def _both_at_most(x: int, y: int) -> int:
    """Deals in which the player's best run has index at most ``x`` and the DP's at most ``y``:
    the ``u**7 v**7`` coefficient of the fourth power of one suit's polynomial."""
    table = _pair_table()
    width = len(run_values())
    cell = x * width + y
    suit = [[table[a][b][cell] for b in range(HAND + 1)] for a in range(HAND + 1)]
    square = [[0] * (HAND + 1) for _ in range(HAND + 1)]
    for a1, b1 in product(range(HAND + 1), repeat=2):
        first = suit[a1][b1]
        if not first:
            continue
        for a2 in range(HAND + 1 - a1):
            row = suit[a2]
            target = square[a1 + a2]
            for b2 in range(HAND + 1 - b1):
                target[b1 + b2] += first * row[b2]
    return sum(
        square[a][b] * square[HAND - a][HAND - b] for a in range(HAND + 1) for b in range(HAND + 1)
    )


# --------------------------------------------------------------------------- one hand


def _patterns(cards: int = HAND) -> Iterator[tuple[int, ...]]:
    """Every ordered suit pattern (cards of each of the four suits) of a hand."""
    for counts in product(range(cards + 1), repeat=SUITS):
        if sum(counts) == cards:
            yield counts


@cache
def flush_length_counts() -> dict[int, int]:
    """Seven-card hands by the length of their flush (2 to 7); they sum to ``C(52, 7)``."""
    totals: dict[int, int] = {}
    for counts in _patterns():
        length = max(counts)
        totals[length] = totals.get(length, 0) + prod(comb(SUIT_RANKS, n) for n in counts)
    return dict(sorted(totals.items()))


@cache
def run_length_counts() -> dict[int, int]:
    """Seven-card hands by the length of their best run (1 to 7; 3 or more is a straight
    flush); they sum to ``C(52, 7)``."""
    values, index, size = _runs()
    by_size = [[0] * len(values) for _ in range(HAND + 1)]
    for mask in range(1 << SUIT_RANKS):
        if size[mask] <= HAND:
            by_size[size[mask]][index[mask]] += 1

    def at_most(limit: int) -> int:
        suit = [sum(row[: limit + 1]) for row in by_size]
        power = [1] + [0] * HAND
        for _ in range(SUITS):
            power = [sum(power[i] * suit[n - i] for i in range(n + 1)) for n in range(HAND + 1)]
        return power[HAND]

    totals: dict[int, int] = {}
    last = 0
    for place, (length, _top) in enumerate(values):
        upto = at_most(place)
        if upto != last:
            totals[length] = totals.get(length, 0) + upto - last
        last = upto
    return dict(sorted(totals.items()))


# --------------------------------------------------------------------------- against the DP


@dataclass(frozen=True, slots=True)
class BonusReturn:
    """One bonus bet's exact outcome counts over :data:`DEALS` ordered (player, DP) deals.

    ``wins`` counts the deals that win, by the pay-table line that pays them; ``pushes`` the
    exact ties (Flush bonus only); every other deal loses the stake. See the module docstring
    for whose figures these are.
    """

    bet: str
    paytable: dict[int, int]
    wins: dict[int, int]
    pushes: int
    total: int = DEALS
    wins_by_length: dict[int, int] = field(default_factory=dict)

    @property
    def losses(self) -> int:
        return self.total - sum(self.wins.values()) - self.pushes

    def win_probability(self, line: int) -> Fraction:
        """The chance that the bet wins and is paid at ``line`` (0 for a line not in the table)."""
        return Fraction(self.wins.get(line, 0), self.total)

    @property
    def push_probability(self) -> Fraction:
        return Fraction(self.pushes, self.total)

    @property
    def lose_probability(self) -> Fraction:
        return Fraction(self.losses, self.total)

    @property
    def player_return(self) -> Fraction:
        """The player's expected result per unit staked (win: odds to 1; lose: -1; push: 0)."""
        won = sum(self.paytable[line] * count for line, count in self.wins.items())
        return Fraction(won - self.losses, self.total)

    @property
    def designated_player_return(self) -> Fraction:
        """The DP's expected result per unit the player stakes: the DP pays the bonus."""
        return -self.player_return

    @property
    def house_return(self) -> Fraction:
        """The house's expected result per unit staked: none, it does not bank the bonus."""
        return Fraction(0)

    def to_dict(self) -> dict[str, object]:
        value = self.player_return
        return {
            "bet": self.bet,
            "paytable": {str(line): odds for line, odds in sorted(self.paytable.items())},
            "deals": self.total,
            "wins": {str(line): count for line, count in sorted(self.wins.items())},
            "pushes": self.pushes,
            "losses": self.losses,
            "player_return": f"{value.numerator}/{value.denominator}",
            "player_return_float": float(value),
        }


@cache
def _flush_outcomes() -> tuple[dict[int, int], dict[int, int]]:
    """Deals in which the player's flush of length ``L`` (4 to 7) beats the DP's, and those
    in which it ties exactly, by ``L``."""
    wins = dict.fromkeys(range(4, HAND + 1), 0)
    ties = dict.fromkeys(range(4, HAND + 1), 0)
    for mine in _patterns():
        length = max(mine)
        if length < 4:
            continue
        suit = mine.index(length)
        for theirs in _patterns():
            deals = prod(
                comb(SUIT_RANKS, a) * comb(SUIT_RANKS - a, b)
                for a, b in zip(mine, theirs, strict=True)
            )
            if not deals:
                continue
            other = max(theirs)
            if length > other:
                wins[length] += deals
            elif length == other:
                if theirs.index(other) == suit:
                    # Disjoint rank sets of one size in one suit: never equal, higher in half.
                    wins[length] += deals // 2
                else:
                    # Independent uniform rank sets: equal in 1 / C(13, L) of the deals.
                    equal = deals // comb(SUIT_RANKS, length)
                    ties[length] += equal
                    wins[length] += (deals - equal) // 2
    return wins, ties


@cache
def _run_wins() -> dict[int, int]:
    """Deals in which the player's best run, of length ``L`` (3 to 7), is at least the DP's."""
    values = run_values()
    wins: dict[int, int] = {}
    for place, (length, _top) in enumerate(values):
        if length < 3:
            continue
        # Player's run exactly values[place], DP's run at most it.
        count = _both_at_most(place, place) - _both_at_most(place - 1, place)
        wins[length] = wins.get(length, 0) + count
    return wins


def flush_bonus(lines: Mapping[int, int] | Mapping[str, int]) -> BonusReturn:
    """The Flush bonus with pay table ``lines`` (``{"7": 200, "6": 50, "5": 10, "4": 2}``)."""
    table = paytable(lines)
    by_length, ties = _flush_outcomes()
    wins: dict[int, int] = {}
    pushes = 0
    for length, count in by_length.items():
        line = line_for(table, length)
        if line is None:
            continue  # below the lowest line: the stake loses (clause 10a)
        wins[line] = wins.get(line, 0) + count
        pushes += ties[length]
    return BonusReturn(FLUSH_BONUS, table, wins, pushes, wins_by_length=dict(by_length))


def straight_flush_bonus(lines: Mapping[int, int] | Mapping[str, int]) -> BonusReturn:
    """The Straight Flush bonus with pay table ``lines``
    (``{"7": 1000, "6": 500, "5": 100, "4": 60, "3": 8}``)."""
    table = paytable(lines)
    by_length = _run_wins()
    wins: dict[int, int] = {}
    for length, count in by_length.items():
        line = line_for(table, length)
        if line is not None:
            wins[line] = wins.get(line, 0) + count
    return BonusReturn(STRAIGHT_FLUSH_BONUS, table, wins, 0, wins_by_length=dict(by_length))


def bonus_returns(rules: Mapping[str, object]) -> dict[str, BonusReturn]:
    """Both bonuses for a High Card Flush rules object (the pay tables it sets; a bet whose
    pay table is empty is not offered and is left out)."""
    out: dict[str, BonusReturn] = {}
    for bet, make in ((FLUSH_BONUS, flush_bonus), (STRAIGHT_FLUSH_BONUS, straight_flush_bonus)):
        lines = rules.get(f"{bet.removesuffix('_bonus')}_paytable")
        if isinstance(lines, Mapping) and lines:
            out[bet] = make(lines)
    return out
