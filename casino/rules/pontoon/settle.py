"""Pontoon: settling a finished hand (clauses 4, 10, 12-17), in the contract's shape.

Each player hand gives one ``stake`` line (its stake is everything staked on it, the first
stake and the buys) and, in Shoot Pontoon, one ``shoot`` line (the hand's shoot bets
together). The banker's seat carries every line mirrored, with ``against`` (the player's seat)
and ``hand``, so the nets sum to zero. There is no rake.

The kitty is the banker's money put up for the hand: shoot bets lost go into it and winning
shoot bets are paid out of it, so the banker's shoot lines are the kitty's change and
``kitty_after = kitty + shoot bets lost - shoot bets won``. The banker's net counts the kitty's
change with the stake lines; the kitty itself stays the banker's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any, Protocol

from casino.rules.cards import Card
from casino.rules.messages import Message, Money, _, msg
from casino.rules.pontoon.ops import GAME_CODE, HandStatus, SellingBank, nth
from casino.rules.pontoon.rules import PontoonRules
from casino.rules.pontoon.values import HandValue, Kind, card_text, is_pontoon_pair, trick_words
from casino.rules.rule_titles import pontoon_rule
from casino.rules.settlement import Line, Outcome, Role, SeatResult, SeatStatus, Settlement

# --------------------------------------------------------------------------- what is read


class PlayerHand(Protocol):
    """One player hand as it is read here (:class:`~casino.rules.pontoon.hand.HandState`)."""

    @property
    def cards(self) -> Sequence[Card]: ...
    @property
    def stake(self) -> int: ...
    @property
    def buys(self) -> Sequence[int]: ...
    @property
    def twisted(self) -> bool: ...
    @property
    def shoots(self) -> Mapping[int, int]: ...
    @property
    def end(self) -> HandStatus | None: ...
    @property
    def staked(self) -> int: ...
    @property
    def shot(self) -> int: ...


class Player(Protocol):
    """A player's seat and hands (:class:`~casino.rules.pontoon.hand.PlayerState`)."""

    @property
    def seat(self) -> int: ...
    @property
    def stake(self) -> int | None: ...
    @property
    def hands(self) -> Sequence[PlayerHand]: ...
    @property
    def split(self) -> bool: ...


class SettledHand(Protocol):
    """What settling reads of a hand (:class:`~casino.rules.pontoon.hand.PontoonHand`, which
    calls :func:`settle_hand` with itself; this module does not import it)."""

    @property
    def rules(self) -> PontoonRules: ...
    @property
    def banker(self) -> int: ...
    @property
    def order(self) -> Sequence[int]: ...
    @property
    def banker_cards(self) -> Sequence[Card]: ...
    @property
    def banker_value(self) -> HandValue: ...
    @property
    def banker_status(self) -> HandStatus: ...
    @property
    def banker_pontoon(self) -> bool: ...
    @property
    def sale(self) -> SellingBank | None: ...
    @property
    def kitty(self) -> int | None: ...
    def player(self, seat: int) -> Player: ...
    def players(self) -> Sequence[Player]: ...
    def value(self, seat: int, hand: int = 0) -> HandValue: ...
    def who(self, seat: int, index: int) -> str: ...
    def pontoon_seat(self) -> int | None: ...
    def next_banker(self) -> int: ...


# --------------------------------------------------------------------------- settling

SINGLE = "1:1"
DOUBLE = "2:1"


class Case(StrEnum):
    """How the banker's hand settles the table (clauses 4, 12-14)."""

    BANKER_PONTOON = "banker_pontoon"
    BANKER_BUST = "banker_bust"
    BANKER_STANDS = "banker_stands"
    BANKER_FIVE_CARD_TRICK = "banker_five_card_trick"
    ALL_BUST = "all_bust"


# Enum members read in the hot paths, each once: on Python 3.11 a member read through its
# class (``Phase.PLAY``) goes through ``EnumType.__getattr__``'s hook, several times a global.
_CASE_ALL_BUST = Case.ALL_BUST
_CASE_BANKER_BUST = Case.BANKER_BUST
_CASE_BANKER_FIVE_CARD_TRICK = Case.BANKER_FIVE_CARD_TRICK
_CASE_BANKER_PONTOON = Case.BANKER_PONTOON
_CASE_BANKER_STANDS = Case.BANKER_STANDS
_HANDSTATUS_BUST = HandStatus.BUST
_HANDSTATUS_FIVE_CARD_TRICK = HandStatus.FIVE_CARD_TRICK
_HANDSTATUS_NOT_PLAYED = HandStatus.NOT_PLAYED
_KIND_PONTOON = Kind.PONTOON
_KIND_TWENTY_ONE = Kind.TWENTY_ONE
_OUTCOME_LOSE = Outcome.LOSE
_OUTCOME_PUSH = Outcome.PUSH
_OUTCOME_WIN = Outcome.WIN
_ROLE_BANKER = Role.BANKER
_ROLE_PLAYER = Role.PLAYER
_SEATSTATUS_BUST = SeatStatus.BUST
_SEATSTATUS_SETTLED = SeatStatus.SETTLED


@dataclass(frozen=True, slots=True)
class _Result:
    """One player hand judged: the stake's and the shoot's results and the sentences."""

    seat: int
    hand: int
    value: HandValue
    stake_line: Line
    shoot_line: Line | None
    sentences: tuple[Message, ...]


def _case(hand: SettledHand) -> Case:
    if hand.banker_pontoon:
        return _CASE_BANKER_PONTOON
    status = hand.banker_status
    if status is _HANDSTATUS_NOT_PLAYED:
        return _CASE_ALL_BUST
    if status is _HANDSTATUS_BUST:
        return _CASE_BANKER_BUST
    if status is _HANDSTATUS_FIVE_CARD_TRICK:
        return _CASE_BANKER_FIVE_CARD_TRICK
    return _CASE_BANKER_STANDS


def _outcome(amount: int) -> Outcome:
    return _OUTCOME_WIN if amount > 0 else _OUTCOME_LOSE if amount < 0 else _OUTCOME_PUSH


def _judge(hand: SettledHand, seat: int, index: int, case: Case) -> _Result:
    """Clauses 4, 10, 12-14 for the stake; clause 17 for the shoot bets."""
    state = hand.player(seat).hands[index]
    value = hand.value(seat, index)
    banker = hand.banker_value
    staked = state.staked
    who = _who(hand, seat, index)
    words = value.words
    cards = card_text(state.cards)
    said: Message
    if value.is_bust:
        factor = -1
        said = msg(
            _(
                "%(who)s: bust (%(total)s) with %(cards)s: the banker took the stake %(stake)s "
                "at once (it loses even though the banker busts) (%(rule)s)"
            )
            if case is _CASE_BANKER_BUST
            else _(
                "%(who)s: bust (%(total)s) with %(cards)s: the banker took the stake %(stake)s "
                "at once (%(rule)s)"
            ),
            who=who,
            total=value.total,
            cards=cards,
            stake=Money(staked),
            rule=pontoon_rule(10),
        )
    elif case is _CASE_BANKER_PONTOON:
        factor = -2
        said = msg(
            _(
                "%(who)s: %(hand)s (%(cards)s) against the banker's pontoon: pays double, "
                "%(amount)s (%(rule)s)"
            ),
            who=who,
            hand=words,
            cards=cards,
            amount=Money(2 * staked),
            rule=pontoon_rule(4),
        )
    elif case is _CASE_BANKER_BUST:
        factor = 2 if value.pays_double else 1
        said = msg(
            _(
                "%(who)s: %(hand)s (%(cards)s), the banker is bust: paid double, %(amount)s (%(rule)s)"
            )
            if factor == 2
            else _("%(who)s: %(hand)s (%(cards)s), the banker is bust: paid %(amount)s (%(rule)s)"),
            who=who,
            hand=words,
            cards=cards,
            amount=Money(factor * staked),
            rule=pontoon_rule(12),
        )
    elif case is _CASE_BANKER_FIVE_CARD_TRICK:
        factor = 2 if value.kind is _KIND_PONTOON else -2
        said = msg(
            _(
                "%(who)s: %(hand)s (%(cards)s) beats the banker's %(trick)s: paid double, "
                "%(amount)s (%(rule)s)"
            )
            if factor > 0
            else _(
                "%(who)s: %(hand)s (%(cards)s) against the banker's %(trick)s: pays double, "
                "%(amount)s (%(rule)s)"
            ),
            who=who,
            hand=words,
            cards=cards,
            trick=trick_words(hand.rules.five_card_limit),
            amount=Money(2 * staked),
            rule=pontoon_rule(14),
        )
    elif value.key > banker.key:
        factor = 2 if value.pays_double else 1
        said = msg(
            _(
                "%(who)s: %(hand)s (%(cards)s) beats the banker's %(banker)s: paid double, "
                "%(amount)s (%(rule)s)"
            )
            if factor == 2
            else _(
                "%(who)s: %(hand)s (%(cards)s) beats the banker's %(banker)s: paid %(amount)s (%(rule)s)"
            ),
            who=who,
            hand=words,
            cards=cards,
            banker=banker.words,
            amount=Money(factor * staked),
            rule=pontoon_rule(13),
        )
    else:
        factor = -1
        said = msg(
            _(
                "%(who)s: %(hand)s (%(cards)s) ties the banker's %(banker)s, ties go to the "
                "banker: loses %(stake)s (%(rule)s)"
            )
            if value.key == banker.key
            else _(
                "%(who)s: %(hand)s (%(cards)s) loses to the banker's %(banker)s: loses %(stake)s "
                "(%(rule)s)"
            ),
            who=who,
            hand=words,
            cards=cards,
            banker=banker.words,
            stake=Money(staked),
            rule=pontoon_rule(13),
        )
    if value.split_pontoon and value.kind is _KIND_TWENTY_ONE and not value.is_bust:
        sentence = msg(
            _("%(said)s; a pontoon on a split hand counts as 21 (%(rule)s)."),
            said=said,
            rule=pontoon_rule(15),
        )
    else:
        sentence = msg(_("%(said)s."), said=said)
    amount = factor * staked
    stake_line = Line(
        "stake",
        staked,
        _outcome(amount),
        amount,
        DOUBLE if abs(factor) == 2 else SINGLE,
        {"hand": index},
    )
    sentences: list[Message] = [sentence]
    shoot_line = None
    if state.shoots:
        shot = state.shot
        won = factor > 0
        bets = [{"card": card, "amount": bet} for card, bet in sorted(state.shoots.items())]
        shoot_line = Line(
            "shoot",
            shot,
            _OUTCOME_WIN if won else _OUTCOME_LOSE,
            shot if won else -shot,
            SINGLE,
            {"hand": index, "bets": bets},
        )
        if won:
            template = _("%(who)s's shoot bet %(shot)s is paid %(shot)s from the kitty.")
        elif value.is_bust:
            template = _("%(who)s's shoot bet %(shot)s went to the kitty when the hand bust.")
        elif case is _CASE_BANKER_PONTOON:
            template = _("%(who)s's shoot bet %(shot)s goes to the kitty (banker's pontoon).")
        else:
            template = _("%(who)s's shoot bet %(shot)s goes to the kitty.")
        sentences.append(msg(template, who=who, shot=Money(shot)))
    return _Result(seat, index, value, stake_line, shoot_line, tuple(sentences))


def _who(hand: SettledHand, seat: int, index: int) -> Message:
    """``hand.who(seat, index)`` capitalised, as a message: ``Seat 2``, ``Seat 2's second
    hand``."""
    return _who_words(seat, hand.player(seat).split, index)


@lru_cache(maxsize=256)
def _who_words(seat: int, split: bool, index: int) -> Message:
    """:func:`_who`'s words (made once: a message is immutable)."""
    if not split:
        return msg(_("Seat %(seat)s"), seat=seat)
    return msg(_("Seat %(seat)s's %(nth)s hand"), seat=seat, nth=Message(nth(index + 1)))


def _mirror(line: Line, seat: int) -> Line:
    flip = {_OUTCOME_WIN: _OUTCOME_LOSE, _OUTCOME_LOSE: _OUTCOME_WIN, _OUTCOME_PUSH: _OUTCOME_PUSH}
    return Line(
        line.wager,
        line.stake,
        flip[line.outcome],
        -line.amount,
        line.odds,
        {"against": seat, **line.extra},
    )


def _banker_sentence(hand: SettledHand, case: Case) -> Message:
    seat = hand.banker
    cards = card_text(hand.banker_cards)
    value = hand.banker_value
    limit = hand.rules.five_card_limit
    if case is _CASE_BANKER_PONTOON:
        return msg(
            _(
                "Banker (seat %(seat)s) has a pontoon (%(cards)s): every player pays double "
                "their stake and takes no turn (%(rule)s)."
            ),
            seat=seat,
            cards=cards,
            rule=pontoon_rule(4),
        )
    if case is _CASE_ALL_BUST:
        return msg(
            _(
                "Every player's hand is bust: the banker (seat %(seat)s, %(cards)s) does not "
                "need to play."
            ),
            seat=seat,
            cards=cards,
        )
    if case is _CASE_BANKER_BUST:
        return msg(
            _(
                "Banker (seat %(seat)s): %(cards)s, bust (%(total)s): every hand still in is "
                "paid, pontoons and %(tricks)s double (%(rule)s)."
            ),
            seat=seat,
            cards=cards,
            total=value.total,
            tricks=trick_words(limit, plural=True),
            rule=pontoon_rule(12),
        )
    if case is _CASE_BANKER_FIVE_CARD_TRICK:
        return msg(
            _(
                "Banker (seat %(seat)s) makes a %(trick)s (%(cards)s): only pontoons are paid, "
                "at double; every other hand still in pays double (%(rule)s)."
            ),
            seat=seat,
            trick=trick_words(limit),
            cards=cards,
            rule=pontoon_rule(14),
        )
    return msg(
        _(
            "Banker (seat %(seat)s) stands on %(hand)s (%(cards)s): better hands are paid, "
            "pontoons and %(tricks)s double; equal or worse hands lose (%(rule)s)."
        ),
        seat=seat,
        hand=value.words,
        cards=cards,
        tricks=trick_words(limit, plural=True),
        rule=pontoon_rule(13),
    )


def settle_hand(hand: SettledHand) -> Settlement:
    """Settle a complete hand; see the module docstring for the lines and the kitty."""
    rules = hand.rules
    case = _case(hand)
    explanation: list[str] = [_banker_sentence(hand, case)]
    results: list[_Result] = []
    for player in hand.players():
        for index in range(len(player.hands)):
            result = _judge(hand, player.seat, index, case)
            results.append(result)
            explanation.extend(result.sentences)

    seats: list[SeatResult] = []
    banker_lines: list[Line] = []
    sale = hand.sale
    for player in hand.players():
        mine = [result for result in results if result.seat == player.seat]
        lines: list[Line] = []
        for result in mine:
            lines.append(result.stake_line)
            if result.shoot_line is not None:
                lines.append(result.shoot_line)
        if sale is not None and sale.buyer == player.seat:
            lines.append(
                Line("bank_sale", sale.price, _OUTCOME_LOSE, -sale.price, None, {"to": hand.banker})
            )
        banker_lines.extend(_mirror(line, player.seat) for line in lines)
        all_bust = all(result.value.is_bust for result in mine)
        hands = [
            {
                "cards": [str(card) for card in state.cards],
                "hand": str(result.value),
                "stake": state.staked,
                "buys": list(state.buys),
                "twisted": state.twisted,
                "shoot": state.shot,
                "status": str(state.end) if state.end is not None else None,
            }
            for state, result in zip(player.hands, mine, strict=True)
        ]
        seats.append(
            SeatResult(
                seat=player.seat,
                role=_ROLE_PLAYER,
                cards=tuple(str(card) for state in player.hands for card in state.cards),
                hand=" / ".join(str(result.value) for result in mine),
                status=_SEATSTATUS_BUST if all_bust else _SEATSTATUS_SETTLED,
                lines=tuple(lines),
                rake=0,
                extra={"stake": player.stake, "hands": hands},
            )
        )

    kitty = hand.kitty
    kitty_after: int | None = None
    banker_extra: dict[str, Any] = {}
    if kitty is not None:
        change = sum(line.amount for line in banker_lines if line.wager == "shoot")
        kitty_after = kitty + change
        lost = sum(
            line.amount for line in banker_lines if line.wager == "shoot" and line.amount > 0
        )
        won = -sum(
            line.amount for line in banker_lines if line.wager == "shoot" and line.amount < 0
        )
        explanation.append(
            msg(
                _(
                    "Kitty: %(kitty)s at the start, %(kitty_after)s after the hand (shoot bets "
                    "lost %(lost)s into it, winning shoot bets paid %(won)s out of it); the "
                    "kitty is the banker's money and its change is part of the banker's net."
                ),
                kitty=Money(kitty),
                kitty_after=Money(kitty_after),
                lost=Money(lost),
                won=Money(won),
            )
        )
        banker_extra = {"kitty": kitty, "kitty_after": kitty_after}

    banker_value = hand.banker_value
    banker_net = sum(line.amount for line in banker_lines)
    seats.append(
        SeatResult(
            seat=hand.banker,
            role=_ROLE_BANKER,
            cards=tuple(str(card) for card in hand.banker_cards),
            hand=str(banker_value),
            status=_SEATSTATUS_BUST if banker_value.is_bust else _SEATSTATUS_SETTLED,
            lines=tuple(banker_lines),
            rake=0,
            extra=banker_extra,
        )
    )
    explanation.append(
        msg(_("Banker (seat %(seat)s): net %(net)+d."), seat=hand.banker, net=Money(banker_net))
    )

    taker = hand.pontoon_seat()
    next_banker = hand.next_banker()
    sentence: Message
    if taker is not None:
        sentence = msg(
            _(
                "Seat %(seat)s made a pontoon (the one nearest the banker's left) and takes the "
                "bank for the next hand (%(rule)s)."
            )
            if _pontoons(hand) > 1
            else _("Seat %(seat)s made a pontoon and takes the bank for the next hand (%(rule)s)."),
            seat=taker,
            rule=pontoon_rule(16),
        )
    elif sale is not None:
        sentence = msg(
            _(
                "The banker (seat %(seat)s) sells the bank to seat %(buyer)s for %(price)s (%(rule)s)."
            ),
            seat=hand.banker,
            buyer=sale.buyer,
            price=Money(sale.price),
            rule=pontoon_rule(16),
        )
    else:
        sentence = msg(
            _("The bank stays with seat %(seat)s (%(rule)s)."),
            seat=hand.banker,
            rule=pontoon_rule(16),
        )
    if next_banker != hand.banker and kitty_after is not None:
        sentence = msg(
            _(
                "%(said)s The old banker (seat %(seat)s) leaves with the kitty of %(kitty)s; "
                "seat %(next)s puts up a new kitty (%(rule)s). The table decides how."
            ),
            said=sentence,
            seat=hand.banker,
            kitty=Money(kitty_after),
            next=next_banker,
            rule=pontoon_rule(17),
        )
    explanation.append(sentence)
    reshuffle = case is _CASE_BANKER_PONTOON or any(
        result.value.kind is _KIND_PONTOON for result in results
    )
    explanation.append(
        msg(
            _("A pontoon was made: the pack is shuffled before the next deal (%(rule)s).")
            if reshuffle
            else _("No pontoon: the used cards go to the bottom of the pack (%(rule)s)."),
            rule=pontoon_rule(16),
        )
    )

    settlement = Settlement(
        game=GAME_CODE,
        rules=rules.to_dict(),
        seats=tuple(sorted(seats, key=lambda result: result.seat)),
        explanation=tuple(explanation),
        extra={
            "banker": hand.banker,
            "order": list(hand.order),
            "case": str(case),
            "next_banker": next_banker,
            "bank_changes": next_banker != hand.banker,
            "reshuffle": reshuffle,
            "kitty": kitty,
            "kitty_after": kitty_after,
            "bank_sale": None if sale is None else {"buyer": sale.buyer, "price": sale.price},
        },
    )
    settlement.check_conserved()
    return settlement


def _pontoons(hand: SettledHand) -> int:
    """Players holding a pontoon that could pass the bank (for the explanation)."""
    count = 0
    for player in hand.players():
        if player.split and not hand.rules.split_pontoon_takes_bank:
            continue
        if any(is_pontoon_pair(state.cards) for state in player.hands):
            count += 1
    return count


__all__ = ["Case", "Player", "PlayerHand", "SettledHand", "settle_hand"]
