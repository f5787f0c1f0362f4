"""Paiute: settling a finished hand from its final holdings (clauses 1, 7-8).

The live hand and the evaluate record settle through :func:`settle_holdings`, so a live hand
and its record give the same settlement. Every seat holding a winning combination is
compared: the callers' laid-down combinations and every other player's best combination from
the cards held. The best takes the pot; exact ties split it with
:func:`~casino.rules.pots.split_pot`, odd chips to the first winner clockwise from the
dealer's left (clause 8). A rake the table sets (option ``rake``, clause 8d) is taken from the
pot before it is shared and charged to the winners, shared between tied winners like the pot
itself. Each seat has one ``pot`` line: its stake is the ante, its amount its share of the pot
(before the rake, ``share``) minus the ante; its ``rake`` is its part of the rake, so its
``net`` is what it takes home less the ante.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from casino.rules.cards import Card, rank_name
from casino.rules.paiute.combos import Combination, best_combination
from casino.rules.paiute.ops import GAME_CODE
from casino.rules.paiute.rules import PaiuteRules
from casino.rules.pots import clockwise_from, split_pot
from casino.rules.rake import RakeKind, rake_words
from casino.rules.settlement import Line, Outcome, Role, SeatResult, SeatStatus, Settlement

POT_WAGER = "pot"


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(str(card) for card in cards)


def _seats_words(seats: Sequence[int]) -> str:
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + ", ".join(str(seat) for seat in seats[:-1]) + f" and {seats[-1]}"


def _shown(combination: Combination, holding: Sequence[Card]) -> str:
    """``four/two: kings and sevens (Ks Kh Kd 3c 7s 7d; 3c as a king)``."""
    detail = cards_text(combination.cards)
    wild = combination.wild_words()
    if wild:
        detail += f"; {wild}"
    if combination.discard is not None and len(holding) == 6:
        detail += f"; {combination.discard} discarded"
    return f"{combination} ({detail})"


def settle_holdings(
    *,
    rules: PaiuteRules,
    dealer: int,
    players: Sequence[int],
    ante: int,
    upcard: Card,
    holdings: Mapping[int, Sequence[Card]],
    caller: int,
) -> Settlement:
    """Settle the final holdings; ``caller`` is the seat that called first (it holds a winning
    combination: checked by the live hand and by the record reader)."""
    order = clockwise_from(dealer, players)
    wild_rank = upcard.rank
    pot = ante * len(order)
    combos: dict[int, Combination | None] = {
        seat: best_combination(holdings[seat], wild_rank) for seat in order
    }
    shown = [combo for combo in combos.values() if combo is not None]
    best = max(shown)
    winners = [seat for seat in order if combos[seat] is not None and combos[seat] == best]
    chip = rules.smallest_chip
    take = rules.rake.take([pot])[0]
    shares = split_pot(pot - take, winners, button=dealer, smallest_chip=chip)
    raked = split_pot(take, winners, button=dealer, smallest_chip=chip)

    explanation = [
        f"Wild card {upcard}: every {rank_name(wild_rank)} is wild (clause 2 of docs/rules/paiute.md). Pot {pot}: "
        f"{len(order)} antes of {ante} (clause 1 of docs/rules/paiute.md).",
    ]
    caller_combo = combos[caller]
    assert caller_combo is not None
    if caller == dealer:
        after = "The dealer called, so the deal ended at once (clause 6 of docs/rules/paiute.md)."
    else:
        after = (
            "Each player after the caller up to and including the dealer had one more turn "
            "(clause 6 of docs/rules/paiute.md)."
        )
    explanation.append(
        f"Seat {caller} called with {_shown(caller_combo, holdings[caller])} (clause 5 of docs/rules/paiute.md). {after}"
    )
    for seat in order:
        if seat == caller:
            continue
        combo = combos[seat]
        if combo is None:
            explanation.append(
                f"Seat {seat}: no winning combination ({cards_text(holdings[seat])})."
            )
        else:
            explanation.append(f"Seat {seat}: {_shown(combo, holdings[seat])}.")
    prize = f"the pot of {pot}"
    if take:
        prize += f" less the rake of {take} ({pot - take})"
    if len(winners) == 1:
        explanation.append(
            f"Seat {winners[0]}'s {best} is the best combination shown and takes {prize} "
            "(clause 8 of docs/rules/paiute.md)."
        )
    else:
        split = ", ".join(f"seat {seat} {shares[seat]}" for seat in shares)
        each = "; ".join(f"seat {seat}: {combos[seat]}" for seat in winners)
        sentence = (
            f"{_seats_words(winners).capitalize()} tie with equal combinations ({each}): "
            f"{prize} is split ({split}) (clause 8 of docs/rules/paiute.md)"
        )
        amounts = set(shares.values())
        if len(amounts) > 1:
            sentence += (
                "; the odd chips go to the first winner clockwise from the dealer's left, "
                f"seat {next(iter(shares))}"
            )
        explanation.append(sentence + ".")
    if rules.rake.kind is not RakeKind.NONE:
        explanation.append(
            rake_words(take, rules.rake.words(), pot, raked)
            + " (clause 8 of docs/rules/paiute.md)."
        )

    seats: list[SeatResult] = []
    for seat in sorted(order):
        combo = combos[seat]
        rake = raked.get(seat, 0)
        share = shares.get(seat, 0) + rake
        amount = share - ante
        outcome = Outcome.WIN if amount > 0 else Outcome.LOSE if amount < 0 else Outcome.PUSH
        seats.append(
            SeatResult(
                seat=seat,
                role=Role.PLAYER,
                cards=tuple(str(card) for card in holdings[seat]),
                hand=combo.description if combo is not None else None,
                status=SeatStatus.SETTLED,
                lines=(Line(POT_WAGER, ante, outcome, amount, None, {"share": share}),),
                rake=rake,
                extra={
                    "dealer": seat == dealer,
                    "caller": seat == caller,
                    "winner": seat in shares,
                    "combination": combo.to_dict() if combo is not None else None,
                },
            )
        )
    settlement = Settlement(
        game=GAME_CODE,
        rules=rules.to_dict(),
        seats=tuple(seats),
        explanation=tuple(explanation),
        extra={
            "dealer": dealer,
            "order": list(order),
            "ante": ante,
            "pot": pot,
            "wild_card": str(upcard),
            "wild_rank": upcard.rank_char,
            "caller": caller,
            "winners": list(shares),
            "winning_hand": best.description,
        },
    )
    settlement.check_conserved()
    return settlement


__all__ = ["POT_WAGER", "cards_text", "settle_holdings"]
