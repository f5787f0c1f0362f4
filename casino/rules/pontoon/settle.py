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
from typing import Any, Protocol

from casino.rules.cards import Card
from casino.rules.pontoon.ops import GAME_CODE, HandStatus, SellingBank
from casino.rules.pontoon.rules import PontoonRules
from casino.rules.pontoon.values import HandValue, Kind, card_text, is_pontoon_pair, trick_name
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


@dataclass(frozen=True, slots=True)
class _Result:
    """One player hand judged: the stake's and the shoot's results and the sentences."""

    seat: int
    hand: int
    value: HandValue
    stake_line: Line
    shoot_line: Line | None
    sentences: tuple[str, ...]


def _case(hand: SettledHand) -> Case:
    if hand.banker_pontoon:
        return Case.BANKER_PONTOON
    status = hand.banker_status
    if status is HandStatus.NOT_PLAYED:
        return Case.ALL_BUST
    if status is HandStatus.BUST:
        return Case.BANKER_BUST
    if status is HandStatus.FIVE_CARD_TRICK:
        return Case.BANKER_FIVE_CARD_TRICK
    return Case.BANKER_STANDS


def _outcome(amount: int) -> Outcome:
    return Outcome.WIN if amount > 0 else Outcome.LOSE if amount < 0 else Outcome.PUSH


def _judge(hand: SettledHand, seat: int, index: int, case: Case) -> _Result:
    """Clauses 4, 10, 12-14 for the stake; clause 17 for the shoot bets."""
    state = hand.player(seat).hands[index]
    value = hand.value(seat, index)
    banker = hand.banker_value
    staked = state.staked
    who = hand.who(seat, index).capitalize()
    cards = card_text(state.cards)
    trick = trick_name(hand.rules.five_card_limit)
    if value.is_bust:
        factor = -1
        sentence = (
            f"{who}: bust ({value.total}) with {cards}: the banker took the stake {staked} at "
            "once"
            + (" (it loses even though the banker busts)" if case is Case.BANKER_BUST else "")
            + " (clause 10 of docs/rules/pontoon.md)."
        )
    elif case is Case.BANKER_PONTOON:
        factor = -2
        sentence = (
            f"{who}: {value} ({cards}) against the banker's pontoon: pays double, "
            f"{2 * staked} (clause 4 of docs/rules/pontoon.md)."
        )
    elif case is Case.BANKER_BUST:
        factor = 2 if value.pays_double else 1
        sentence = (
            f"{who}: {value} ({cards}), the banker is bust: paid "
            + ("double, " if factor == 2 else "")
            + f"{factor * staked} (clause 12 of docs/rules/pontoon.md)."
        )
    elif case is Case.BANKER_FIVE_CARD_TRICK:
        if value.kind is Kind.PONTOON:
            factor = 2
            sentence = (
                f"{who}: {value} ({cards}) beats the banker's {trick}: paid double, "
                f"{2 * staked} (clause 14 of docs/rules/pontoon.md)."
            )
        else:
            factor = -2
            sentence = (
                f"{who}: {value} ({cards}) against the banker's {trick}: pays double, "
                f"{2 * staked} (clause 14 of docs/rules/pontoon.md)."
            )
    elif value.key > banker.key:
        factor = 2 if value.pays_double else 1
        sentence = (
            f"{who}: {value} ({cards}) beats the banker's {banker}: paid "
            + ("double, " if factor == 2 else "")
            + f"{factor * staked} (clause 13 of docs/rules/pontoon.md)."
        )
    else:
        factor = -1
        verb = "ties" if value.key == banker.key else "loses to"
        tie = ", ties go to the banker" if verb == "ties" else ""
        sentence = (
            f"{who}: {value} ({cards}) {verb} the banker's {banker}{tie}: loses {staked} "
            "(clause 13 of docs/rules/pontoon.md)."
        )
    if value.split_pontoon and value.kind is Kind.TWENTY_ONE and not value.is_bust:
        sentence = (
            sentence[:-1]
            + "; a pontoon on a split hand counts as 21 (clause 15 of docs/rules/pontoon.md)."
        )
    amount = factor * staked
    stake_line = Line(
        "stake",
        staked,
        _outcome(amount),
        amount,
        DOUBLE if abs(factor) == 2 else SINGLE,
        {"hand": index},
    )
    sentences = [sentence]
    shoot_line = None
    if state.shoots:
        shot = state.shot
        won = factor > 0
        bets = [{"card": card, "amount": bet} for card, bet in sorted(state.shoots.items())]
        shoot_line = Line(
            "shoot",
            shot,
            Outcome.WIN if won else Outcome.LOSE,
            shot if won else -shot,
            SINGLE,
            {"hand": index, "bets": bets},
        )
        if won:
            sentences.append(f"{who}'s shoot bet {shot} is paid {shot} from the kitty.")
        elif value.is_bust:
            sentences.append(f"{who}'s shoot bet {shot} went to the kitty when the hand bust.")
        elif case is Case.BANKER_PONTOON:
            sentences.append(f"{who}'s shoot bet {shot} goes to the kitty (banker's pontoon).")
        else:
            sentences.append(f"{who}'s shoot bet {shot} goes to the kitty.")
    return _Result(seat, index, value, stake_line, shoot_line, tuple(sentences))


def _mirror(line: Line, seat: int) -> Line:
    flip = {Outcome.WIN: Outcome.LOSE, Outcome.LOSE: Outcome.WIN, Outcome.PUSH: Outcome.PUSH}
    return Line(
        line.wager,
        line.stake,
        flip[line.outcome],
        -line.amount,
        line.odds,
        {"against": seat, **line.extra},
    )


def _banker_sentence(hand: SettledHand, case: Case) -> str:
    seat = hand.banker
    cards = card_text(hand.banker_cards)
    value = hand.banker_value
    trick = trick_name(hand.rules.five_card_limit)
    if case is Case.BANKER_PONTOON:
        return (
            f"Banker (seat {seat}) has a pontoon ({cards}): every player pays double their "
            "stake and takes no turn (clause 4 of docs/rules/pontoon.md)."
        )
    if case is Case.ALL_BUST:
        return (
            f"Every player's hand is bust: the banker (seat {seat}, {cards}) does not need to play."
        )
    if case is Case.BANKER_BUST:
        return (
            f"Banker (seat {seat}): {cards}, bust ({value.total}): every hand still in is paid, "
            f"pontoons and {trick}s double (clause 12 of docs/rules/pontoon.md)."
        )
    if case is Case.BANKER_FIVE_CARD_TRICK:
        return (
            f"Banker (seat {seat}) makes a {trick} ({cards}): only pontoons are paid, at "
            f"double; every other hand still in pays double (clause 14 of docs/rules/pontoon.md)."
        )
    return (
        f"Banker (seat {seat}) stands on {value} ({cards}): better hands are paid, pontoons and "
        f"{trick}s double; equal or worse hands lose (clause 13 of docs/rules/pontoon.md)."
    )


def settle_hand(hand: SettledHand) -> Settlement:
    """Settle a complete hand; see the module docstring for the lines and the kitty."""
    rules = hand.rules
    case = _case(hand)
    explanation = [_banker_sentence(hand, case)]
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
                Line("bank_sale", sale.price, Outcome.LOSE, -sale.price, None, {"to": hand.banker})
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
                role=Role.PLAYER,
                cards=tuple(str(card) for state in player.hands for card in state.cards),
                hand=" / ".join(str(result.value) for result in mine),
                status=SeatStatus.BUST if all_bust else SeatStatus.SETTLED,
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
            f"Kitty: {kitty} at the start, {kitty_after} after the hand (shoot bets lost "
            f"{lost} into it, winning shoot bets paid {won} out of it); the kitty is the "
            "banker's money and its change is part of the banker's net."
        )
        banker_extra = {"kitty": kitty, "kitty_after": kitty_after}

    banker_value = hand.banker_value
    banker_net = sum(line.amount for line in banker_lines)
    seats.append(
        SeatResult(
            seat=hand.banker,
            role=Role.BANKER,
            cards=tuple(str(card) for card in hand.banker_cards),
            hand=str(banker_value),
            status=SeatStatus.BUST if banker_value.is_bust else SeatStatus.SETTLED,
            lines=tuple(banker_lines),
            rake=0,
            extra=banker_extra,
        )
    )
    explanation.append(f"Banker (seat {hand.banker}): net {banker_net:+d}.")

    taker = hand.pontoon_seat()
    next_banker = hand.next_banker()
    if taker is not None:
        sentence = (
            f"Seat {taker} made a pontoon"
            + (" (the one nearest the banker's left)" if _pontoons(hand) > 1 else "")
            + " and takes the bank for the next hand (clause 16 of docs/rules/pontoon.md)."
        )
    elif sale is not None:
        sentence = (
            f"The banker (seat {hand.banker}) sells the bank to seat {sale.buyer} for "
            f"{sale.price} (clause 16 of docs/rules/pontoon.md)."
        )
    else:
        sentence = f"The bank stays with seat {hand.banker} (clause 16 of docs/rules/pontoon.md)."
    if next_banker != hand.banker and kitty_after is not None:
        sentence += (
            f" The old banker (seat {hand.banker}) leaves with the kitty of {kitty_after}; "
            f"seat {next_banker} puts up a new kitty (clause 17 of docs/rules/pontoon.md). The table decides how."
        )
    explanation.append(sentence)
    reshuffle = case is Case.BANKER_PONTOON or any(
        result.value.kind is Kind.PONTOON for result in results
    )
    explanation.append(
        "A pontoon was made: the pack is shuffled before the next deal (clause 16 of docs/rules/pontoon.md)."
        if reshuffle
        else "No pontoon: the used cards go to the bottom of the pack (clause 16 of docs/rules/pontoon.md)."
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
