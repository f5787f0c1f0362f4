"""Palace Poker: settling a finished hand (clauses 10, 13, 15, 16), in the contract's shape.

One line per seat, wager ``pot``: ``stake`` is everything the seat put in (ante, buys,
discards, battle money) less any uncalled raise returned; ``amount`` its share of the pot
(before any rake) less its stake. Odd chips go to the first winner clockwise from the dealer
(:func:`~casino.rules.pots.split_pot`). A rake the table sets (option ``rake``, clause 13c)
comes out of the pot before it is shared and is charged to the winners, shared like the pot:
a seat's ``rake`` is its part, its ``net`` what it takes less its stake. Status ``settled``
for the players still in at the end (the pot's contenders), ``folded`` for a fold on one's
turn (clause 12), ``out`` for a battle lost, tied outright or folded (clause 9: the folding
side "is out"). ``hand`` is the seat's last hand shown (the showdown's, else its last
battle's counted hand).

The explanation says how the hand went in the players' words: the antes, each battle (the
counted cards and hands, or the fold), every uncalled raise returned, how the hand ended,
who takes the pot and each seat's net. :func:`settle_hand` reads the hand through
:class:`SettledHand` (what :class:`~casino.rules.palace_poker.hand.PalaceHand` offers), so this
module does not import the hand's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from casino.rules.cards import Card
from casino.rules.palace_poker.config import PALACE_SIZE, PalaceConfig, seats_words
from casino.rules.palace_poker.ops import (
    GAME_CODE,
    BattleEnd,
    Ending,
    Operation,
    Returning,
    Standing,
)
from casino.rules.palace_poker.rules import PalaceRules
from casino.rules.pots import split_pot
from casino.rules.rake import RakeKind, rake_words
from casino.rules.settlement import Line, Outcome, Role, SeatResult, SeatStatus, Settlement

WAGER = "pot"


class SettledSeat(Protocol):
    """What settling reads of one seat of a hand."""

    @property
    def seat(self) -> int: ...
    @property
    def start(self) -> int: ...
    @property
    def put_in(self) -> int: ...
    @property
    def banner(self) -> Card: ...
    @property
    def palace(self) -> tuple[Card, ...]: ...
    @property
    def standing(self) -> Standing: ...
    @property
    def hand(self) -> str | None: ...
    @property
    def left_with(self) -> tuple[Card, ...]: ...
    @property
    def cards(self) -> tuple[Card, ...]: ...
    @property
    def playing(self) -> bool: ...


class SettledHand(Protocol):
    """What settling reads of a finished hand."""

    @property
    def config(self) -> PalaceConfig: ...
    @property
    def rules(self) -> PalaceRules: ...
    @property
    def _players(self) -> Mapping[int, SettledSeat]: ...
    @property
    def pot(self) -> int: ...
    @property
    def ending(self) -> Ending | None: ...
    @property
    def winners(self) -> tuple[int, ...]: ...
    @property
    def log(self) -> Sequence[Operation]: ...
    def players_in(self) -> tuple[int, ...]: ...


def _cards_words(cards: Sequence[Card]) -> str:
    return " ".join(str(card) for card in cards) if cards else "no cards"


def settle_hand(hand: SettledHand) -> Settlement:
    """A finished hand's settlement: one ``pot`` line per seat, the rake, the explanation."""
    config, rules = hand.config, hand.rules
    players = hand._players
    pot = hand.pot
    ending = hand.ending
    assert ending is not None
    chip = rules.smallest_chip
    take = rules.rake.take([pot])[0]
    shares = split_pot(pot - take, hand.winners, button=config.dealer, smallest_chip=chip)
    raked = split_pot(take, hand.winners, button=config.dealer, smallest_chip=chip)
    explanation: list[str] = []
    if config.ante:
        explanation.append(f"Each of {len(players)} players antes {config.ante}.")
    battles = [op for op in hand.log if isinstance(op, BattleEnd)]
    for op in battles:
        sentence = f"Seat {op.attacker} attacks seat {op.defender} for {op.bet}"
        if op.chips[0] != op.bet or op.chips[1]:
            sentence += (
                f" (battle money: seat {op.attacker} {op.chips[0]}, "
                f"seat {op.defender} {op.chips[1]})"
            )
        sentence += ": "
        if op.result == "fold":
            explanation.append(sentence + op.reason + ".")
            continue
        explanation.append(
            sentence
            + f"seat {op.attacker} counts {_cards_words(op.attacker_cards)} ({op.attacker_hand}), "
            + f"seat {op.defender} counts {_cards_words(op.defender_cards)} ({op.defender_hand}); "
            + op.reason
            + "."
        )
    for returned in hand.log:
        if isinstance(returned, Returning):
            explanation.append(
                f"Seat {returned.seat}'s uncalled raise of {returned.amount} goes back to it."
            )
    winners = list(shares)
    head = ending.words[0].upper() + ending.words[1:]
    if ending is Ending.SHOWDOWN:
        hands = "; ".join(f"seat {seat} has {players[seat].hand}" for seat in hand.players_in())
        explanation.append(f"{head}: {hands}.")
    else:
        explanation.append(f"{head}.")
    prize = f"the pot of {pot}"
    if take:
        prize += f" less the rake of {take} ({pot - take})"
    if len(winners) == 1:
        explanation.append(f"Seat {winners[0]} wins {prize}.")
    else:
        odd = (
            " (odd chips to the first winner left of the dealer)"
            if len(set(shares.values())) > 1
            else ""
        )
        explanation.append(
            f"{seats_words(winners).capitalize()} split {prize}: "
            + ", ".join(f"seat {seat} {shares[seat]}" for seat in winners)
            + odd
            + "."
        )
    if rules.rake.kind is not RakeKind.NONE:
        explanation.append(
            rake_words(take, rules.rake.words(), pot, raked)
            + " (clause 13 of docs/rules/palace-poker.md)."
        )

    status = {
        Standing.IN: SeatStatus.SETTLED,
        Standing.FOLDED: SeatStatus.FOLDED,
        Standing.OUT: SeatStatus.OUT,
    }
    seats: list[SeatResult] = []
    for player in players.values():
        seat = player.seat
        stake = player.put_in
        won = shares.get(seat, 0)
        rake = raked.get(seat, 0)
        amount = won + rake - stake
        net = won - stake
        outcome = Outcome.WIN if amount > 0 else Outcome.LOSE if amount < 0 else Outcome.PUSH
        held = player.cards if player.playing else player.left_with
        explanation.append(
            f"Seat {seat}: put in {stake}, takes {won}"
            + (f" after rake {rake}" if rake else "")
            + f"; net {net:+d}."
        )
        seats.append(
            SeatResult(
                seat=seat,
                role=Role.PLAYER,
                cards=tuple(str(card) for card in held),
                hand=player.hand,
                status=status[player.standing],
                lines=(Line(WAGER, stake, outcome, amount),),
                rake=rake,
                extra={
                    "banner": str(player.banner),
                    "palace": [str(card) for card in player.palace],
                    "soldiers": [str(card) for card in held[PALACE_SIZE + 1 :]],
                    "stack": player.start,
                    "stack_after": player.start + net,
                },
            )
        )
    settlement = Settlement(
        game=GAME_CODE,
        rules=rules.to_dict(),
        seats=tuple(seats),
        explanation=tuple(explanation),
        extra={
            "structure": str(config.structure),
            "dealer": config.dealer,
            "pot": pot,
            "ending": str(ending),
            "winners": winners,
            "battles": [op.to_dict() for op in battles],
        },
    )
    settlement.check_conserved()
    return settlement
