"""Five Card Draw 7-A: settling a finished hand (clauses 9-10).

:func:`settle_hand` takes what a finished :class:`~casino.rules.five_card_draw.hand.DrawHand`
holds (each seat's chips and cards, the dead money, whether it reached the draw and the
showdown) and returns the :class:`~casino.rules.settlement.Settlement`: the pots rebuilt from
the contributions (:mod:`casino.rules.pots`; never stored), the winners, the rake, one line per
seat and the explanation.

* **Settlement.** One line per seat, wager ``pot``: ``stake`` is everything the seat put in
  (blinds, live and dead posts, bets) less the uncalled chips returned to it, so dead money is
  lost by its poster like any other chip; ``amount`` is what the seat won from the pots before
  rake less its stake; ``outcome`` is win, lose or push by the sign of ``amount``. A seat's
  ``rake`` is its share of the rake taken from the pots it won, shared between tied winners
  like the pot itself, so ``net`` is the chips it takes home less its stake.
  A seat that put nothing in and folded pushes (0). ``hand`` is the 5-card description for
  the seats at the showdown only; a seat that wins because everyone else folded shows nothing.
* **Rake** (clause 10) is taken from each pot before it is split, main pot first: a fixed fee
  comes out of the main pot (then the side pots if the main pot is smaller); a percentage is
  taken from each pot, rounded down to the smallest chip, until the cap is reached. With
  "no draw, no drop" there is no rake when the hand ends before the draw starts (everyone but
  one folded in round 1); a hand that reaches the draw is raked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from casino.rules.cards import Card
from casino.rules.five_card_draw.config import HandConfig
from casino.rules.five_card_draw.rules import GAME_CODE, DrawRules, Rake
from casino.rules.five_card_draw.values import rate
from casino.rules.messages import Message, Money, _, joined, msg
from casino.rules.poker_hands import HandValue
from casino.rules.pots import Pot, build_pots, split_pot
from casino.rules.rake import RakeKind
from casino.rules.settlement import Line, Outcome, Role, SeatResult, SeatStatus, Settlement

WAGER = "pot"


class SettledSeat(Protocol):
    """What settling reads from each seat of a finished hand."""

    @property
    def seat(self) -> int: ...

    @property
    def start(self) -> int: ...  # the stack before posting

    @property
    def cards(self) -> Sequence[Card]: ...  # the five cards now

    @property
    def total(self) -> int: ...  # this hand, bets and live posts; never dead money

    @property
    def dead(self) -> int: ...

    @property
    def folded(self) -> bool: ...

    @property
    def drawn(self) -> int | None: ...


def _rake_by_pot(rake: Rake, pots: Sequence[Pot], reached_draw: bool, chip: int) -> list[int]:
    """Clause 10: the rake taken from each pot, main pot first (the shared schedule's
    :meth:`~casino.rules.rake.RakeSchedule.take`), none without a draw under "no draw, no
    drop"."""
    if rake.no_draw_no_drop and not reached_draw:
        return [0] * len(pots)
    return rake.schedule(chip).take([pot.amount for pot in pots])


def _seats_words(seats: Sequence[int]) -> Message:
    """``seat 1`` / ``seats 1, 2 and 3``, as a message."""
    if len(seats) == 1:
        return msg(_("seat %(seat)s"), seat=seats[0])
    return msg(
        _("seats %(seats)s and %(last)s"),
        seats=", ".join(str(seat) for seat in seats[:-1]),
        last=seats[-1],
    )


def settle_hand(
    config: HandConfig,
    rules: DrawRules,
    players: Mapping[int, SettledSeat],
    *,
    dead_money: int,
    reached_draw: bool,
    showdown_order: Sequence[int],
    showdown_reason: str | None,
) -> Settlement:
    """Pots from contributions, winners, rake and one line per seat (clauses 9-10).

    ``players`` are the hand's seats by number, in seat order; ``showdown_reason`` says why
    the first seat of ``showdown_order`` shows first, None when the hand ended without a
    showdown (everyone else folded).
    """
    chip = rules.smallest_chip
    live = [player for player in players.values() if not player.folded]
    contributions = {player.seat: player.total for player in players.values()}
    folded = {player.seat for player in players.values() if player.folded}
    pots, returned = build_pots(contributions, folded, dead_money)
    showdown = showdown_reason is not None
    values: dict[int, HandValue] = {}
    if showdown:
        values = {player.seat: rate(player.cards, config.with_sixes, rules) for player in live}
    rakes = _rake_by_pot(rules.rake, pots, reached_draw, chip)
    paid = dict.fromkeys(players, 0)
    raked = dict.fromkeys(players, 0)
    explanation: list[str] = []

    for player in players.values():
        if player.dead:
            explanation.append(
                msg(
                    _("Seat %(seat)s posted %(dead)s dead to the centre."),
                    seat=player.seat,
                    dead=Money(player.dead),
                )
            )
    for seat, amount in returned.items():
        explanation.append(
            msg(
                _("Seat %(seat)s's uncalled %(amount)s is returned."),
                seat=seat,
                amount=Money(amount),
            )
        )
    if showdown:
        reason = showdown_reason
        order = showdown_order
        hands = [
            msg(_("seat %(seat)s has %(hand)s"), seat=seat, hand=values[seat].description)
            for seat in order
        ]
        explanation.append(
            msg(
                _("Showdown: seat %(seat)s shows first (%(reason)s); %(hands)s."),
                seat=order[0],
                reason=reason,
                hands=joined(hands, _("%(first)s; %(next)s")),
            )
        )
    else:
        winner = live[0].seat
        explanation.append(
            msg(_("Everyone else folded: seat %(seat)s wins without a showdown."), seat=winner)
        )

    pot_records: list[dict[str, Any]] = []
    for index, pot in enumerate(pots):
        name = (
            Message(_("The pot"))
            if len(pots) == 1
            else Message(_("Main pot"))
            if index == 0
            else msg(_("Side pot %(number)s"), number=index)
        )
        take = rakes[index]
        if showdown:
            best = max(values[seat] for seat in pot.eligible)
            winners = [seat for seat in pot.eligible if values[seat] == best]
        else:
            winners = list(pot.eligible)
        shares = split_pot(pot.amount - take, winners, button=config.button, smallest_chip=chip)
        rake_shares = split_pot(take, winners, button=config.button, smallest_chip=chip)
        for seat, amount in shares.items():
            paid[seat] += amount
        for seat, amount in rake_shares.items():
            raked[seat] += amount
        ordered = list(shares)
        result: Message
        if len(ordered) == 1:
            if showdown and len(pot.eligible) > 1:
                result = msg(
                    _("seat %(seat)s wins with %(hand)s"),
                    seat=ordered[0],
                    hand=values[ordered[0]].description,
                )
            elif showdown:
                result = msg(_("seat %(seat)s wins, the only player eligible"), seat=ordered[0])
            else:
                result = msg(_("seat %(seat)s wins"), seat=ordered[0])
        else:
            result = msg(
                _(
                    "%(seats)s tie with %(hand)s and split %(amount)s: %(shares)s (odd chips to "
                    "the first winner left of the button)"
                )
                if len(set(shares.values())) > 1
                else _("%(seats)s tie with %(hand)s and split %(amount)s: %(shares)s"),
                seats=_seats_words(ordered),
                hand=values[ordered[0]].description,
                amount=Money(pot.amount - take),
                shares=joined(
                    [
                        msg(_("seat %(seat)s %(amount)s"), seat=seat, amount=Money(shares[seat]))
                        for seat in ordered
                    ],
                    _("%(first)s, %(next)s"),
                ),
            )
        params = {
            "pot": name,
            "amount": Money(pot.amount),
            "eligible": _seats_words(pot.eligible),
            "result": result,
        }
        if take:
            explanation.append(
                msg(
                    _(
                        "%(pot)s %(amount)s (%(eligible)s eligible): %(result)s; rake %(rake)s is "
                        "taken first, %(paid)s paid."
                    ),
                    **params,
                    rake=Money(take),
                    paid=Money(pot.amount - take),
                )
            )
        else:
            explanation.append(
                msg(_("%(pot)s %(amount)s (%(eligible)s eligible): %(result)s."), **params)
            )
        pot_records.append(
            {
                "amount": pot.amount,
                "eligible": list(pot.eligible),
                "winners": ordered,
                "rake": take,
            }
        )

    total_rake = sum(rakes)
    rake = rules.rake
    if rake.kind is not RakeKind.NONE:
        if rake.no_draw_no_drop and not reached_draw:
            explanation.append(
                Message(_("No draw, no drop: the hand ended before the draw, so no rake."))
            )
        else:
            explanation.append(
                msg(
                    _(
                        "Rake %(rake)s (%(schedule)s), charged to the winners of the pots it "
                        "came from."
                    ),
                    rake=Money(total_rake),
                    schedule=rake.words(),
                )
            )

    seats: list[SeatResult] = []
    for player in players.values():
        seat = player.seat
        stake = player.total + player.dead - returned.get(seat, 0)
        amount = paid[seat] + raked[seat] - stake
        outcome = Outcome.WIN if amount > 0 else Outcome.LOSE if amount < 0 else Outcome.PUSH
        net = paid[seat] - stake
        explanation.append(
            msg(
                _(
                    "Seat %(seat)s: put in %(stake)s, takes %(won)s after rake %(rake)s; net %(net)+d."
                )
                if raked[seat]
                else _("Seat %(seat)s: put in %(stake)s, takes %(won)s; net %(net)+d."),
                seat=seat,
                stake=Money(stake),
                won=Money(paid[seat]),
                rake=Money(raked[seat]),
                net=Money(net),
            )
        )
        seats.append(
            SeatResult(
                seat=seat,
                role=Role.PLAYER,
                cards=tuple(str(card) for card in player.cards),
                hand=str(values[seat]) if seat in values else None,
                status=SeatStatus.FOLDED if player.folded else SeatStatus.SETTLED,
                lines=(Line(WAGER, stake, outcome, amount),),
                rake=raked[seat],
                extra={
                    "stack": player.start,
                    "stack_after": player.start + net,
                    "drawn": player.drawn,
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
            "button": config.button,
            "pots": pot_records,
            "showdown_order": list(showdown_order),
        },
    )
    settlement.check_conserved()
    return settlement
