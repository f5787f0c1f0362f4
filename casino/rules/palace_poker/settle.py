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
from casino.rules.messages import Message, Money, _, joined, msg
from casino.rules.palace_poker.config import PALACE_SIZE, PalaceConfig
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
from casino.rules.rule_titles import palace_poker_rule
from casino.rules.settlement import Line, Outcome, Role, SeatResult, SeatStatus, Settlement

# Enum members read in the hot paths, each once: on Python 3.11 a member read through its
# class (``Phase.PLAY``) goes through ``EnumType.__getattr__``'s hook, several times a global.
_ENDING_SHOWDOWN = Ending.SHOWDOWN
_OUTCOME_LOSE = Outcome.LOSE
_OUTCOME_PUSH = Outcome.PUSH
_OUTCOME_WIN = Outcome.WIN
_RAKEKIND_NONE = RakeKind.NONE
_ROLE_PLAYER = Role.PLAYER
_SEATSTATUS_FOLDED = SeatStatus.FOLDED
_SEATSTATUS_OUT = SeatStatus.OUT
_SEATSTATUS_SETTLED = SeatStatus.SETTLED
_STANDING_FOLDED = Standing.FOLDED
_STANDING_IN = Standing.IN
_STANDING_OUT = Standing.OUT

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
    return " ".join(str(card) for card in cards) if cards else Message(_("no cards"))


def _seats_sentence(seats: Sequence[int]) -> Message:
    """:func:`seats_words` capitalised, as a message: ``Seats 1, 2 and 5``."""
    if len(seats) == 1:
        return msg(_("Seat %(seat)s"), seat=seats[0])
    return msg(
        _("Seats %(seats)s and %(last)s"),
        seats=", ".join(str(seat) for seat in seats[:-1]),
        last=seats[-1],
    )


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
        explanation.append(
            msg(
                _("Each of %(count)s players antes %(ante)s."),
                count=len(players),
                ante=Money(config.ante),
            )
        )
    battles = [op for op in hand.log if isinstance(op, BattleEnd)]
    for op in battles:
        reason: str = op.reason
        if op.result != "fold":
            reason = msg(
                _(
                    "seat %(attacker)s counts %(attacker_cards)s (%(attacker_hand)s), seat "
                    "%(defender)s counts %(defender_cards)s (%(defender_hand)s); %(reason)s"
                ),
                attacker=op.attacker,
                attacker_cards=_cards_words(op.attacker_cards),
                attacker_hand=op.attacker_hand,
                defender=op.defender,
                defender_cards=_cards_words(op.defender_cards),
                defender_hand=op.defender_hand,
                reason=op.reason,
            )
        if op.chips[0] != op.bet or op.chips[1]:
            explanation.append(
                msg(
                    _(
                        "Seat %(attacker)s attacks seat %(defender)s for %(bet)s (battle money: "
                        "seat %(attacker)s %(attacker_chips)s, seat %(defender)s "
                        "%(defender_chips)s): %(reason)s."
                    ),
                    attacker=op.attacker,
                    defender=op.defender,
                    bet=Money(op.bet),
                    attacker_chips=Money(op.chips[0]),
                    defender_chips=Money(op.chips[1]),
                    reason=reason,
                )
            )
        else:
            explanation.append(
                msg(
                    _("Seat %(attacker)s attacks seat %(defender)s for %(bet)s: %(reason)s."),
                    attacker=op.attacker,
                    defender=op.defender,
                    bet=Money(op.bet),
                    reason=reason,
                )
            )
    for returned in hand.log:
        if isinstance(returned, Returning):
            explanation.append(
                msg(
                    _("Seat %(seat)s's uncalled raise of %(amount)s goes back to it."),
                    seat=returned.seat,
                    amount=Money(returned.amount),
                )
            )
    winners = list(shares)
    if ending is _ENDING_SHOWDOWN:
        hands = [
            msg(_("seat %(seat)s has %(hand)s"), seat=seat, hand=players[seat].hand)
            for seat in hand.players_in()
        ]
        explanation.append(
            msg(
                _("%(ending)s: %(hands)s."),
                ending=ending.sentence,
                hands=joined(hands, _("%(first)s; %(next)s")),
            )
        )
    else:
        explanation.append(msg(_("%(ending)s."), ending=ending.sentence))
    if take:
        prize = msg(
            _("the pot of %(pot)s less the rake of %(rake)s (%(rest)s)"),
            pot=Money(pot),
            rake=Money(take),
            rest=Money(pot - take),
        )
    else:
        prize = msg(_("the pot of %(pot)s"), pot=Money(pot))
    if len(winners) == 1:
        explanation.append(msg(_("Seat %(seat)s wins %(prize)s."), seat=winners[0], prize=prize))
    else:
        parts = [
            msg(_("seat %(seat)s %(amount)s"), seat=seat, amount=Money(shares[seat]))
            for seat in winners
        ]
        explanation.append(
            msg(
                _(
                    "%(seats)s split %(prize)s: %(shares)s (odd chips to the first winner left "
                    "of the dealer)."
                )
                if len(set(shares.values())) > 1
                else _("%(seats)s split %(prize)s: %(shares)s."),
                seats=_seats_sentence(winners),
                prize=prize,
                shares=joined(parts, _("%(first)s, %(next)s")),
            )
        )
    if rules.rake.kind is not _RAKEKIND_NONE:
        explanation.append(
            msg(
                _("%(rake)s (%(rule)s)."),
                rake=rake_words(take, rules.rake.words(), pot, raked),
                rule=palace_poker_rule(13),
            )
        )

    status = {
        _STANDING_IN: _SEATSTATUS_SETTLED,
        _STANDING_FOLDED: _SEATSTATUS_FOLDED,
        _STANDING_OUT: _SEATSTATUS_OUT,
    }
    seats: list[SeatResult] = []
    for player in players.values():
        seat = player.seat
        stake = player.put_in
        won = shares.get(seat, 0)
        rake = raked.get(seat, 0)
        amount = won + rake - stake
        net = won - stake
        outcome = _OUTCOME_WIN if amount > 0 else _OUTCOME_LOSE if amount < 0 else _OUTCOME_PUSH
        held = player.cards if player.playing else player.left_with
        explanation.append(
            msg(
                _(
                    "Seat %(seat)s: put in %(stake)s, takes %(won)s after rake %(rake)s; net %(net)+d."
                )
                if rake
                else _("Seat %(seat)s: put in %(stake)s, takes %(won)s; net %(net)+d."),
                seat=seat,
                stake=Money(stake),
                won=Money(won),
                rake=Money(rake),
                net=Money(net),
            )
        )
        seats.append(
            SeatResult(
                seat=seat,
                role=_ROLE_PLAYER,
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
