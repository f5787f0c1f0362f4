"""Settling a finished High Card Flush hand (clauses 7-14 of ``docs/rules/high-card-flush.md``):
each player against the designated player, the bonuses, the payout cap, the bank's coverage in
the settlement order, the rake, and the :class:`~casino.rules.settlement.Settlement` with its
explanation. :func:`evaluate` takes the hand record the API posts, checks all of it (every
problem is reported at once, as one :class:`~casino.rules.errors.RuleError`) and returns the
settlement.

Interpretations this module makes where the brief leaves room:

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
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from casino.rules.cards import card_texts
from casino.rules.messages import Message, Money, _, joined, msg
from casino.rules.settlement import Line, Outcome, Role, SeatResult, SeatStatus, Settlement

from .record import WAGER_WORDS, PlayerHand, Record, Wager, parse_record
from .rules import GAME_CODE, Coverage, Rules
from .values import Flush, Run, dp_qualifies, hand_values

# Enum members read in the hot paths, each once: on Python 3.11 a member read through its
# class (``Phase.PLAY``) goes through ``EnumType.__getattr__``'s hook, several times a global.
_COVERAGE_RUNNING = Coverage.RUNNING
_OUTCOME_DEAD = Outcome.DEAD
_OUTCOME_LOSE = Outcome.LOSE
_OUTCOME_PUSH = Outcome.PUSH
_OUTCOME_WIN = Outcome.WIN
_ROLE_DESIGNATED_PLAYER = Role.DESIGNATED_PLAYER
_ROLE_PLAYER = Role.PLAYER
_SEATSTATUS_DEAD = SeatStatus.DEAD
_SEATSTATUS_FOLDED = SeatStatus.FOLDED
_SEATSTATUS_SETTLED = SeatStatus.SETTLED
_WAGER_ANTE = Wager.ANTE
_WAGER_FLUSH_BONUS = Wager.FLUSH_BONUS
_WAGER_RAISE = Wager.RAISE
_WAGER_STRAIGHT_FLUSH_BONUS = Wager.STRAIGHT_FLUSH_BONUS

EVEN_MONEY = "1:1"
_SEAT_NUMBER = attrgetter("seat")


def settlement_order(dp_seat: int, seats: Iterable[int]) -> list[int]:
    """Clause 13: seat numbers descending from the DP's, wrapping (DP 3: 2, 1, then 6, 5 ...)."""
    ordered = sorted(seats)
    split = bisect_right(ordered, dp_seat)
    up_to_dp, above_dp = ordered[:split], ordered[split:]
    return up_to_dp[::-1] + above_dp[::-1]


@dataclass(slots=True)
class _Judged:
    """One player's lines and sentences while the hand is being settled."""

    player: PlayerHand
    lines: list[Line]
    sentences: list[Message]
    status: SeatStatus
    rake: int = 0

    @property
    def total(self) -> int:
        return sum([line.amount for line in self.lines])


def _line(wager: Wager, stake: int, outcome: Outcome, amount: int, odds: str | None) -> Line:
    return Line(str(wager), stake, outcome, amount, odds)


_SIGN = {Outcome.WIN: 1, Outcome.LOSE: -1, Outcome.PUSH: 0}
#: The ante's and the raise's lines' wager, as _even writes them (``str(Wager.ANTE)``).
_ANTE, _RAISE = str(Wager.ANTE), str(Wager.RAISE)
_FLIP = {Outcome.WIN: Outcome.LOSE, Outcome.LOSE: Outcome.WIN, Outcome.PUSH: Outcome.PUSH}


def _even(wager: Wager, stake: int, outcome: Outcome) -> Line:
    return Line(str(wager), stake, outcome, _SIGN[outcome] * stake, EVEN_MONEY)


def _wager_amount(wager: Wager, amount: int) -> Message:
    """``flush bonus 10``."""
    return msg(_("%(wager)s %(amount)s"), wager=Message(WAGER_WORDS[wager]), amount=Money(amount))


def _judge(
    player: PlayerHand,
    values: tuple[Flush, Run],
    dp_values: tuple[Flush, Run],
    qualifies: bool,
    rules: Rules,
) -> _Judged:
    """Clauses 6-12 for one player, before the bank is considered; ``values`` and
    ``dp_values`` are the player's and the designated player's flush and run."""
    seat = player.seat
    ante, raised = player.ante, player.raise_amount
    (flush, run), (dp_flush, dp_run) = values, dp_values
    # compared as Flush and Run order them (length, then ranks; length, then top), without
    # their generated comparisons' calls
    key, dp_key = (flush.length, flush.ranks), (dp_flush.length, dp_flush.ranks)
    if raised == 0:  # player.folded
        lines = [_even(_WAGER_ANTE, ante, _OUTCOME_LOSE)]
        lost = [_wager_amount(_WAGER_ANTE, ante)]
        for wager in (_WAGER_FLUSH_BONUS, _WAGER_STRAIGHT_FLUSH_BONUS):
            if stake := player.stake(wager):
                lines.append(_line(wager, stake, _OUTCOME_LOSE, -stake, None))
                lost.append(_wager_amount(wager, stake))
        return _Judged(
            player,
            lines,
            [
                msg(
                    _("Seat %(seat)s folds with a %(flush)s: %(lost)s lost."),
                    seat=seat,
                    flush=flush.words,
                    lost=joined(lost, _("%(first)s, %(next)s")),
                )
            ],
            _SEATSTATUS_FOLDED,
        )

    # the ante's and the raise's even-money lines (_even's), written out
    if not qualifies:
        lines = [
            Line(_ANTE, ante, _OUTCOME_WIN, ante, EVEN_MONEY),
            Line(_RAISE, raised, _OUTCOME_PUSH, 0, EVEN_MONEY),
        ]
        sentence = msg(
            _(
                "Seat %(seat)s: %(flush)s; the designated player does not qualify, so ante wins "
                "%(ante)s and raise %(raise)s pushes."
            ),
            seat=seat,
            flush=flush.words,
            ante=Money(ante),
            **{"raise": Money(raised)},
        )
    elif key > dp_key:
        lines = [
            Line(_ANTE, ante, _OUTCOME_WIN, ante, EVEN_MONEY),
            Line(_RAISE, raised, _OUTCOME_WIN, raised, EVEN_MONEY),
        ]
        sentence = msg(
            _(
                "Seat %(seat)s: %(flush)s beats the designated player's %(dp_flush)s; ante wins "
                "%(ante)s, raise wins %(raise)s."
            ),
            seat=seat,
            flush=flush.words,
            dp_flush=dp_flush.words,
            ante=Money(ante),
            **{"raise": Money(raised)},
        )
    elif key == dp_key:
        lines = [
            Line(_ANTE, ante, _OUTCOME_PUSH, 0, EVEN_MONEY),
            Line(_RAISE, raised, _OUTCOME_PUSH, 0, EVEN_MONEY),
        ]
        sentence = msg(
            _(
                "Seat %(seat)s: %(flush)s ties the designated player's %(dp_flush)s; ante and "
                "raise push."
            ),
            seat=seat,
            flush=flush.words,
            dp_flush=dp_flush.words,
        )
    else:
        lines = [
            Line(_ANTE, ante, _OUTCOME_LOSE, -ante, EVEN_MONEY),
            Line(_RAISE, raised, _OUTCOME_LOSE, -raised, EVEN_MONEY),
        ]
        sentence = msg(
            _(
                "Seat %(seat)s: %(flush)s loses to the designated player's %(dp_flush)s; ante "
                "loses %(ante)s, raise loses %(raise)s."
            ),
            seat=seat,
            flush=flush.words,
            dp_flush=dp_flush.words,
            ante=Money(ante),
            **{"raise": Money(raised)},
        )
    sentences = [sentence]

    if stake := player.flush_bonus:
        table = rules.flush_paytable
        line = table.line_for(flush.length)
        if line is None:
            lines.append(_line(_WAGER_FLUSH_BONUS, stake, _OUTCOME_LOSE, -stake, None))
            sentences.append(
                msg(
                    _(
                        "Seat %(seat)s: flush bonus loses %(stake)s; it needs at least a "
                        "%(lowest)s-card flush."
                    ),
                    seat=seat,
                    stake=Money(stake),
                    lowest=table.lowest,
                )
            )
        else:
            odds = f"{line[1]}:1"
            if key > dp_key:
                won = stake * line[1]
                lines.append(_line(_WAGER_FLUSH_BONUS, stake, _OUTCOME_WIN, won, odds))
                sentences.append(
                    msg(
                        _(
                            "Seat %(seat)s: flush bonus wins %(won)s at %(odds)s; the "
                            "%(length)s-card flush beats the designated player's."
                        ),
                        seat=seat,
                        won=Money(won),
                        odds=odds,
                        length=flush.length,
                    )
                )
            elif key == dp_key:
                lines.append(_line(_WAGER_FLUSH_BONUS, stake, _OUTCOME_PUSH, 0, odds))
                sentences.append(
                    msg(_("Seat %(seat)s: flush bonus pushes; the flushes tie."), seat=seat)
                )
            else:
                lines.append(_line(_WAGER_FLUSH_BONUS, stake, _OUTCOME_LOSE, -stake, odds))
                sentences.append(
                    msg(
                        _(
                            "Seat %(seat)s: flush bonus loses %(stake)s; the designated "
                            "player's flush is better."
                        ),
                        seat=seat,
                        stake=Money(stake),
                    )
                )

    if stake := player.straight_flush_bonus:
        table = rules.straight_flush_paytable
        line = table.line_for(run.length) if run.is_straight_flush else None
        if line is None:
            lines.append(_line(_WAGER_STRAIGHT_FLUSH_BONUS, stake, _OUTCOME_LOSE, -stake, None))
            sentences.append(
                msg(
                    _(
                        "Seat %(seat)s: straight flush bonus loses %(stake)s; it needs a "
                        "straight flush of at least %(least)s cards and the best run is "
                        "%(run)s."
                    ),
                    seat=seat,
                    stake=Money(stake),
                    least=max(3, table.lowest or 3),
                    run=run.length,
                )
            )
        else:
            odds = f"{line[1]}:1"
            theirs = (
                dp_run.words
                if dp_run.is_straight_flush
                else msg(_("best run of %(length)s"), length=dp_run.length)
            )
            run_key, dp_run_key = (run.length, run.top), (dp_run.length, dp_run.top)
            if run_key >= dp_run_key:
                won = stake * line[1]
                lines.append(_line(_WAGER_STRAIGHT_FLUSH_BONUS, stake, _OUTCOME_WIN, won, odds))
                sentences.append(
                    msg(
                        _(
                            "Seat %(seat)s: straight flush bonus wins %(won)s at %(odds)s; "
                            "%(run)s ties the designated player's %(theirs)s."
                        )
                        if run_key == dp_run_key
                        else _(
                            "Seat %(seat)s: straight flush bonus wins %(won)s at %(odds)s; "
                            "%(run)s beats the designated player's %(theirs)s."
                        ),
                        seat=seat,
                        won=Money(won),
                        odds=odds,
                        run=run.words,
                        theirs=theirs,
                    )
                )
            else:
                lines.append(_line(_WAGER_STRAIGHT_FLUSH_BONUS, stake, _OUTCOME_LOSE, -stake, odds))
                sentences.append(
                    msg(
                        _(
                            "Seat %(seat)s: straight flush bonus loses %(stake)s; %(run)s is "
                            "below the designated player's %(theirs)s."
                        ),
                        seat=seat,
                        stake=Money(stake),
                        run=run.words,
                        theirs=theirs,
                    )
                )
    return _Judged(player, lines, sentences, _SEATSTATUS_SETTLED)


CAP_ORDER = (Wager.STRAIGHT_FLUSH_BONUS, Wager.FLUSH_BONUS, Wager.RAISE, Wager.ANTE)


def _apply_cap(judged: _Judged, cap: int | None) -> None:
    """Clause 12: cut aggregate winnings above ``cap``, bonuses first; record every cut."""
    if cap is None:
        return
    winnings = sum(line.amount for line in judged.lines if line.amount > 0)
    if winnings <= cap:
        return
    excess = winnings - cap
    cuts: list[Message] = []
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
            cuts.append(
                msg(
                    _("%(wager)s %(before)s to %(after)s"),
                    wager=Message(WAGER_WORDS[wager]),
                    before=Money(line.amount),
                    after=Money(line.amount - cut),
                )
            )
    judged.sentences.append(
        msg(
            _(
                "Seat %(seat)s: winnings %(winnings)s exceed the maximum payout per hand "
                "%(cap)s; cut by %(cut)s (%(cuts)s)."
            ),
            seat=judged.player.seat,
            winnings=Money(winnings),
            cap=Money(cap),
            cut=Money(winnings - cap),
            cuts=joined(cuts, _("%(first)s, %(next)s")),
        )
    )


def _kill(judged: _Judged, reason: Message) -> None:
    judged.lines = [
        _line(Wager(line.wager), line.stake, _OUTCOME_DEAD, 0, line.odds) for line in judged.lines
    ]
    judged.status = _SEATSTATUS_DEAD
    judged.sentences = [
        msg(
            _("Seat %(seat)s: dead hand, all bets returned; %(reason)s."),
            seat=judged.player.seat,
            reason=reason,
        )
    ]


def _dp_sentence(seat: int, flush: Flush, run: Run, qualifies: bool, rules: Rules) -> Message:
    """``Designated player (seat 7): 3-card flush A-K-9, which qualifies.`` (clause 7), with
    the straight flush it holds, if any."""
    params: dict[str, Any] = {"seat": seat, "flush": flush.words}
    if not qualifies:
        params["needs"] = rules.qualifier_words()
    if run.is_straight_flush:
        params["run"] = run.words
        template = (
            _("Designated player (seat %(seat)s): %(flush)s, which qualifies; %(run)s.")
            if qualifies
            else _(
                "Designated player (seat %(seat)s): %(flush)s, which does not qualify (it "
                "needs %(needs)s); %(run)s."
            )
        )
    else:
        template = (
            _("Designated player (seat %(seat)s): %(flush)s, which qualifies.")
            if qualifies
            else _(
                "Designated player (seat %(seat)s): %(flush)s, which does not qualify (it "
                "needs %(needs)s)."
            )
        )
    return msg(template, **params)


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

    explanation: list[Message] = [_dp_sentence(dp.seat, dp_flush, dp_run, qualifies, rules)]

    judged: list[_Judged] = []
    collected = paid = 0
    cap = rules.max_payout_per_hand
    running = rules.coverage is _COVERAGE_RUNNING
    for seat in order:
        result = _judge(by_seat[seat], values[seat], dp_values, qualifies, rules)
        if cap is not None:
            _apply_cap(result, cap)
        total = 0  # result.total
        for line in result.lines:
            total += line.amount
        if running:
            available = dp.bank + collected - paid
            if total > available:
                _kill(
                    result,
                    msg(
                        _(
                            "the designated player's bank cannot cover the %(total)s it would "
                            "win (only %(available)s available)"
                        ),
                        total=Money(total),
                        available=Money(available),
                    ),
                )
        else:
            available = dp.bank - paid
            if total > available:
                _kill(
                    result,
                    msg(
                        _(
                            "the designated player's original bank %(bank)s cannot cover the "
                            "%(total)s it would win (only %(available)s left)"
                        ),
                        bank=Money(dp.bank),
                        total=Money(total),
                        available=Money(available),
                    ),
                )
            elif collected - paid - total > dp.bank:
                _kill(
                    result,
                    msg(
                        _(
                            "the designated player may not win more than the original bank "
                            "%(bank)s (already up %(up)s, this hand would take %(take)s)"
                        ),
                        bank=Money(dp.bank),
                        up=Money(collected - paid),
                        take=Money(-total),
                    ),
                )
        if result.status is not _SEATSTATUS_DEAD:
            if total > 0:
                paid += total
            else:
                collected -= total
        judged.append(result)
        explanation.extend(result.sentences)

    live = [result for result in judged if result.status is not _SEATSTATUS_DEAD]
    dp_rake = 0
    schedule = rules.rake.schedule

    def fee(ante: int) -> int:  # rules.rake.fee_for(ante) or 0, with the one schedule
        return schedule.fee(ante) if schedule.covers(ante) else 0

    if rules.rake.charges_players:
        for result in live:
            result.rake = fee(result.player.ante)
    if rules.rake.charges_dp and live:
        dp_rake = fee(max(result.player.ante for result in live))

    mirrored: list[Line] = []
    dp_total = 0
    for result in judged:
        if result.status is not _SEATSTATUS_DEAD:
            against = result.player.seat
            for line in result.lines:  # each line mirrored: the designated player's side
                amount = line.amount
                mirrored.append(
                    Line(
                        line.wager,
                        line.stake,
                        _FLIP[line.outcome],
                        -amount,
                        line.odds,
                        {"against": against},
                    )
                )
                dp_total -= amount
    dp_lines = tuple(mirrored)
    explanation.append(
        msg(
            _(
                "Designated player (seat %(seat)s): bank %(bank)s, wins %(amount)s, bank after "
                "the hand %(after)s."
            )
            if dp_total >= 0
            else _(
                "Designated player (seat %(seat)s): bank %(bank)s, loses %(amount)s, bank after "
                "the hand %(after)s."
            ),
            seat=dp.seat,
            bank=Money(dp.bank),
            amount=Money(abs(dp_total)),
            after=Money(dp.bank + dp_total),
        )
    )
    fees = [
        msg(_("seat %(seat)s pays %(fee)s"), seat=result.player.seat, fee=Money(result.rake))
        for result in judged
        if result.rake
    ]
    if dp_rake:
        fees.append(msg(_("the designated player pays %(fee)s"), fee=Money(dp_rake)))
    if fees:
        total_rake = dp_rake + sum(result.rake for result in judged)
        explanation.append(
            msg(
                _("Rake: %(fees)s; total %(total)s."),
                fees=joined(fees, _("%(first)s, %(next)s")),
                total=Money(total_rake),
            )
        )
    dead = [str(result.player.seat) for result in judged if result.status is _SEATSTATUS_DEAD]
    if dead and schedule.charges:
        explanation.append(
            msg(
                _("No rake on dead hands: seat %(seats)s.")
                if len(dead) == 1
                else _("No rake on dead hands: seats %(seats)s."),
                seats=", ".join(dead),
            )
        )

    seats = [  # SeatResult(seat, role, cards, hand, status, lines, rake, extra)
        SeatResult(
            dp.seat,
            _ROLE_DESIGNATED_PLAYER,
            tuple(card_texts(dp.cards)),
            str(dp_flush),
            _SEATSTATUS_SETTLED,
            dp_lines,
            dp_rake,
            {
                "qualifies": qualifies,
                "straight_flush": str(dp_run) if dp_run.length >= 3 else None,
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
                player.seat,
                _ROLE_PLAYER,
                tuple(card_texts(player.cards)),
                str(flush),
                result.status,
                tuple(result.lines),
                result.rake,
                {"straight_flush": str(run) if run.length >= 3 else None},  # is_straight_flush
            )
        )
    settlement = Settlement(
        game=GAME_CODE,
        rules=rules.to_dict(),
        seats=tuple(sorted(seats, key=_SEAT_NUMBER)),
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
