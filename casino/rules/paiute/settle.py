"""Paiute: settling a finished hand from its final holdings (clauses 1, 7-8).

The live hand and the evaluate record settle through :func:`settle_holdings`, so a live hand
and its record give the same settlement. The evaluate record (each seat's final cards and who
called, no turns) is read and checked by :func:`parse_record` (:class:`PaiuteRecord`) and
settled by :func:`evaluate`. Every seat holding a winning combination is
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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from casino.rules.cards import Card, CardGroup, check_distinct, parse_card, parse_cards, rank_name
from casino.rules.errors import Problems, RuleError
from casino.rules.messages import Message, Money, _, joined, msg, prefixed, seat_words
from casino.rules.options import is_int
from casino.rules.paiute.ops import GAME_CODE
from casino.rules.paiute.rules import HAND_SIZE, PaiuteRules, check_ante, coerce_rules
from casino.rules.paiute.values import Combination, best_combination
from casino.rules.pots import clockwise_from, split_pot
from casino.rules.rake import RakeKind, rake_words
from casino.rules.rule_titles import paiute_rule
from casino.rules.settlement import Line, Outcome, Role, SeatResult, SeatStatus, Settlement

# Enum members read in the hot paths, each once: on Python 3.11 a member read through its
# class (``Phase.PLAY``) goes through ``EnumType.__getattr__``'s hook, several times a global.
_OUTCOME_LOSE = Outcome.LOSE
_OUTCOME_PUSH = Outcome.PUSH
_OUTCOME_WIN = Outcome.WIN
_RAKEKIND_NONE = RakeKind.NONE
_ROLE_PLAYER = Role.PLAYER
_SEATSTATUS_SETTLED = SeatStatus.SETTLED

POT_WAGER = "pot"


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(str(card) for card in cards)


def _seats_words(seats: Sequence[int]) -> Message:
    """``Seat 2`` / ``Seats 1, 2 and 5``, as a message."""
    if len(seats) == 1:
        return msg(_("Seat %(seat)s"), seat=seats[0])
    return msg(
        _("Seats %(seats)s and %(last)s"),
        seats=", ".join(str(seat) for seat in seats[:-1]),
        last=seats[-1],
    )


def _shown(combination: Combination, holding: Sequence[Card]) -> Message:
    """``four/two: kings and sevens (Ks Kh Kd 3c 7s 7d; 3c as a king)``."""
    cards = cards_text(combination.cards)
    wild = combination.wild_words()
    discarded = combination.discard is not None and len(holding) == 6
    params = {"hand": combination.description, "cards": cards}
    if wild and discarded:
        return msg(
            _("%(hand)s (%(cards)s; %(wild)s; %(discard)s discarded)"),
            **params,
            wild=wild,
            discard=str(combination.discard),
        )
    if wild:
        return msg(_("%(hand)s (%(cards)s; %(wild)s)"), **params, wild=wild)
    if discarded:
        return msg(
            _("%(hand)s (%(cards)s; %(discard)s discarded)"),
            **params,
            discard=str(combination.discard),
        )
    return msg(_("%(hand)s (%(cards)s)"), **params)


def settle_holdings(
    *,
    rules: PaiuteRules,
    dealer: int,
    players: Sequence[int],
    ante: int,
    upcard: Card,
    holdings: Mapping[int, Sequence[Card]],
    caller: int,
    best_of: Callable[[Sequence[Card]], Combination | None] | None = None,
) -> Settlement:
    """Settle the final holdings; ``caller`` is the seat that called first (it holds a winning
    combination: checked by the live hand and by the record reader). ``best_of``: the best
    combination of a holding with this wild card (a live hand's, which knows some already),
    :func:`best_combination` by default."""
    order = clockwise_from(dealer, players)
    wild_rank = upcard.rank
    pot = ante * len(order)
    combos: dict[int, Combination | None] = {
        seat: best_combination(holdings[seat], wild_rank)
        if best_of is None
        else best_of(holdings[seat])
        for seat in order
    }
    shown = [combo for combo in combos.values() if combo is not None]
    best = max(shown)
    winners = [seat for seat in order if combos[seat] is not None and combos[seat] == best]
    chip = rules.smallest_chip
    take = rules.rake.take([pot])[0]
    shares = split_pot(pot - take, winners, button=dealer, smallest_chip=chip)
    raked = split_pot(take, winners, button=dealer, smallest_chip=chip)

    explanation: list[str] = [
        msg(
            _(
                "Wild card %(card)s: every %(rank)s is wild (%(wild_rule)s). Pot %(pot)s: "
                "%(count)s antes of %(ante)s (%(ante_rule)s)."
            ),
            card=str(upcard),
            rank=Message(rank_name(wild_rank)),
            wild_rule=paiute_rule(2),
            pot=Money(pot),
            count=len(order),
            ante=Money(ante),
            ante_rule=paiute_rule(1),
        )
    ]
    caller_combo = combos[caller]
    assert caller_combo is not None
    explanation.append(
        msg(
            _(
                "Seat %(seat)s called with %(shown)s (%(rule)s). The dealer called, so the deal "
                "ended at once (%(after_rule)s)."
            )
            if caller == dealer
            else _(
                "Seat %(seat)s called with %(shown)s (%(rule)s). Each player after the caller "
                "up to and including the dealer had one more turn (%(after_rule)s)."
            ),
            seat=caller,
            shown=_shown(caller_combo, holdings[caller]),
            rule=paiute_rule(5),
            after_rule=paiute_rule(6),
        )
    )
    for seat in order:
        if seat == caller:
            continue
        combo = combos[seat]
        if combo is None:
            explanation.append(
                msg(
                    _("Seat %(seat)s: no winning combination (%(cards)s)."),
                    seat=seat,
                    cards=cards_text(holdings[seat]),
                )
            )
        else:
            explanation.append(
                msg(_("Seat %(seat)s: %(shown)s."), seat=seat, shown=_shown(combo, holdings[seat]))
            )
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
        explanation.append(
            msg(
                _(
                    "Seat %(seat)s's %(hand)s is the best combination shown and takes %(prize)s "
                    "(%(rule)s)."
                ),
                seat=winners[0],
                hand=best.description,
                prize=prize,
                rule=paiute_rule(8),
            )
        )
    else:
        split = joined(
            [
                msg(_("seat %(seat)s %(amount)s"), seat=seat, amount=Money(shares[seat]))
                for seat in shares
            ],
            _("%(first)s, %(next)s"),
        )
        each = joined(
            [
                msg(_("seat %(seat)s: %(hand)s"), seat=seat, hand=combos[seat].description)  # type: ignore[union-attr]
                for seat in winners
            ],
            _("%(first)s; %(next)s"),
        )
        params = {
            "seats": _seats_words(winners),
            "each": each,
            "prize": prize,
            "split": split,
            "rule": paiute_rule(8),
        }
        if len(set(shares.values())) > 1:
            explanation.append(
                msg(
                    _(
                        "%(seats)s tie with equal combinations (%(each)s): %(prize)s is split "
                        "(%(split)s) (%(rule)s); the odd chips go to the first winner clockwise "
                        "from the dealer's left, seat %(first)s."
                    ),
                    **params,
                    first=next(iter(shares)),
                )
            )
        else:
            explanation.append(
                msg(
                    _(
                        "%(seats)s tie with equal combinations (%(each)s): %(prize)s is split "
                        "(%(split)s) (%(rule)s)."
                    ),
                    **params,
                )
            )
    if rules.rake.kind is not _RAKEKIND_NONE:
        explanation.append(
            msg(
                _("%(rake)s (%(rule)s)."),
                rake=rake_words(take, rules.rake.words(), pot, raked),
                rule=paiute_rule(8),
            )
        )

    seats: list[SeatResult] = []
    for seat in sorted(order):
        combo = combos[seat]
        rake = raked.get(seat, 0)
        share = shares.get(seat, 0) + rake
        amount = share - ante
        outcome = _OUTCOME_WIN if amount > 0 else _OUTCOME_LOSE if amount < 0 else _OUTCOME_PUSH
        seats.append(
            SeatResult(
                seat=seat,
                role=_ROLE_PLAYER,
                cards=tuple(str(card) for card in holdings[seat]),
                hand=combo.description if combo is not None else None,
                status=_SEATSTATUS_SETTLED,
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


# --------------------------------------------------------------------------- the record


RECORD_KEYS = ("dealer", "ante", "wild_card", "players", "caller", "rules")


@dataclass(frozen=True, slots=True)
class PaiuteRecord:
    """A checked evaluate record: the final holdings by seat and who called first."""

    dealer: int
    ante: int
    upcard: Card
    holdings: Mapping[int, tuple[Card, ...]]
    caller: int

    @property
    def order(self) -> tuple[int, ...]:
        return tuple(clockwise_from(self.dealer, list(self.holdings)))


def _seat(value: object, path: str, words: str, problems: Problems) -> int | None:
    if value is None:
        problems.add(path, msg(_("%(name)s is missing"), name=words))
    elif not is_int(value) or value < 1:
        problems.add(
            path,
            msg(
                _("%(name)s must be a seat number (from 1), got %(value)s"),
                name=words,
                value=repr(value),
            ),
        )
    else:
        return value
    return None


def parse_record(
    record: Mapping[str, Any], rules: PaiuteRules | Mapping[str, Any] | None = None
) -> PaiuteRecord:
    """Read and check an evaluate record, every problem at once with its path."""
    effective = coerce_rules(rules)
    if not isinstance(record, Mapping):
        raise RuleError(
            msg(_("the hand record must be an object with dealer, ante, players, caller"))
        )
    problems = Problems()
    for key in record:
        if key not in RECORD_KEYS:
            problems.add(str(key), msg(_("unknown field '%(key)s'"), key=str(key)))
    dealer = _seat(record.get("dealer"), "dealer", Message(_("the dealer's seat")), problems)
    caller = _seat(record.get("caller"), "caller", Message(_("the caller's seat")), problems)
    ante = record.get("ante")
    if not is_int(ante):
        problems.add(
            "ante", msg(_("the ante must be a whole amount, got %(value)s"), value=repr(ante))
        )
    else:
        check_ante(ante, effective, "ante", problems)
    upcard: Card | None = None
    raw_upcard = record.get("wild_card")
    if raw_upcard is None:
        problems.add("wild_card", msg(_("the wild card (the upcard) is missing")))
    else:
        try:
            upcard = parse_card(raw_upcard)
        except RuleError as error:
            problems.add(
                "wild_card", prefixed(Message(_("the wild card")), error.problems[0].message)
            )

    holdings: dict[int, tuple[Card, ...]] = {}
    paths: dict[int, str] = {}
    seats: list[int] = []
    seats_read = True
    groups: list[CardGroup] = []
    raw_players = record.get("players")
    if isinstance(raw_players, str | bytes) or not isinstance(raw_players, Sequence):
        problems.add("players", msg(_("players must be a list of {seat, cards}")))
        raw_players = []
    count = len(raw_players)
    if not effective.min_players <= count <= effective.max_players:
        problems.add(
            "players",
            msg(
                _("%(count)s players listed: Paiute is played by %(least)s to %(most)s (%(rule)s)"),
                count=count,
                least=effective.min_players,
                most=effective.max_players,
                rule=paiute_rule(1),
            ),
        )
    for index, raw in enumerate(raw_players):
        path = f"players[{index}]"
        if not isinstance(raw, Mapping):
            problems.add(
                path,
                msg(_("player %(number)s must be an object with seat and cards"), number=index + 1),
            )
            seats_read = False
            continue
        for key in raw:
            if key not in ("seat", "cards"):
                problems.add(f"{path}.{key}", msg(_("unknown field '%(key)s'"), key=str(key)))
        entry = msg(_("player %(number)s"), number=index + 1)
        seat = _seat(
            raw.get("seat"), f"{path}.seat", prefixed(entry, Message(_("the seat"))), problems
        )
        if seat is None:
            seats_read = False
        elif seat in seats:
            problems.add(f"{path}.seat", msg(_("seat %(seat)s is listed twice"), seat=seat))
            continue
        else:
            seats.append(seat)
        who = seat_words(seat) if seat is not None else entry
        try:
            cards = parse_cards(raw.get("cards"), path=f"{path}.cards", who=who)
        except RuleError as error:
            problems.extend(error)
            continue
        if len(cards) not in (HAND_SIZE, HAND_SIZE + 1):
            problems.add(
                f"{path}.cards",
                prefixed(
                    who,
                    msg(
                        _(
                            "a player ends with 5 cards, or 6 after calling with a 6-card "
                            "combination, got %(count)s"
                        ),
                        count=len(cards),
                    ),
                ),
            )
            continue
        groups.append(CardGroup(who, f"{path}.cards", cards))
        if seat is not None:
            holdings[seat] = cards
            paths[seat] = f"{path}.cards"
    try:
        check_distinct(groups)
    except RuleError as error:
        problems.extend(error)
    if dealer is not None and seats_read and seats and dealer not in seats:
        problems.add(
            "dealer",
            msg(
                _("the dealer (seat %(seat)s) is not among the players: the dealer plays"),
                seat=dealer,
            ),
        )
    if caller is not None and seats_read and seats and caller not in seats:
        problems.add(
            "caller",
            msg(_("seat %(seat)s is not a player in this hand, so it cannot call"), seat=caller),
        )
    problems.raise_if_any()
    assert dealer is not None and caller is not None and upcard is not None and is_int(ante)

    parsed = PaiuteRecord(dealer, ante, upcard, holdings, caller)
    order = parsed.order
    final = order[order.index(caller) + 1 :] if caller != dealer else ()
    for seat in order:
        cards = holdings[seat]
        combo = best_combination(cards, upcard.rank)
        if seat == caller and combo is None:
            problems.add(
                paths[seat],
                msg(
                    _(
                        "seat %(seat)s called but %(cards)s make no winning combination with "
                        "%(rank)ss wild (clauses 5, 7)"
                    ),
                    seat=seat,
                    cards=cards_text(cards),
                    rank=upcard.rank_char,
                ),
            )
        elif len(cards) == HAND_SIZE + 1 and seat != caller:
            if seat not in final:
                why = (
                    msg(_("the dealer called, so nobody else had another turn"))
                    if caller == dealer
                    else msg(_("it had no final turn after seat %(caller)s's call"), caller=caller)
                )
                problems.add(
                    paths[seat],
                    msg(
                        _(
                            "seat %(seat)s holds 6 cards: only a caller keeps six (a 6-card "
                            "combination), and %(why)s; a player ends with 5 cards (clauses 3, 6)"
                        ),
                        seat=seat,
                        why=why,
                    ),
                )
            elif combo is None:
                problems.add(
                    paths[seat],
                    msg(
                        _(
                            "seat %(seat)s holds 6 cards but %(cards)s make no winning "
                            "combination: a player who does not call discards to five "
                            "(clauses 3, 6)"
                        ),
                        seat=seat,
                        cards=cards_text(cards),
                    ),
                )
    problems.raise_if_any()
    return parsed


def evaluate(
    record: Mapping[str, Any], rules: PaiuteRules | Mapping[str, Any] | None = None
) -> Settlement:
    """Settle a finished hand from its record (final holdings and the caller)."""
    effective = coerce_rules(rules)
    parsed = parse_record(record, effective)
    return settle_holdings(
        rules=effective,
        dealer=parsed.dealer,
        players=parsed.order,
        ante=parsed.ante,
        upcard=parsed.upcard,
        holdings=parsed.holdings,
        caller=parsed.caller,
    )


__all__ = [
    "POT_WAGER",
    "PaiuteRecord",
    "cards_text",
    "evaluate",
    "parse_record",
    "settle_holdings",
]
