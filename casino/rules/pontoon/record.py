"""Pontoon: the paper record of a whole hand, read, checked and replayed through the live
state machine (:func:`parse_record`, :func:`replay`, :func:`evaluate`).

**The evaluate record**::

    {"banker": {"seat": 5, "cards": ["Ts", "7d"]},
     "players": [{"seat": 1, "stake": 1000,
                  "hands": [{"cards": ["5h", "6c", "Kd"],
                             "actions": [{"type": "buy", "amount": 1500}, {"type": "stick"}]}]}],
     "shoot": {"kitty": 5000, "kitty_carried": false,
               "bets": [{"seat": 1, "card": 1, "amount": 2000, "hand": 0}]},
     "bank_sale": {"buyer": 1, "price": 5000}}

``shoot`` (Shoot Pontoon) and ``bank_sale`` are optional. A bet's ``card`` is 1 (after the
first-card stakes, on the first hand), 4 or 5 (before that card of hand ``hand``, default 0).
Each buy or twist takes the hand's next listed card; a final ``stick`` is optional on a hand
that ended by itself (pontoon, 21, five card trick). A seat's hands are listed in the order
played; the record does not say in which order split hands were formed, and the replay
forms them one way (each listed hand splits off the next, the last card of the pair being the
seat's second card), which settles the same.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from casino.rules.cards import Card, CardGroup, check_distinct, readable_cards
from casino.rules.errors import RuleError
from casino.rules.messages import Message, _, msg, prefixed, seat_words
from casino.rules.options import is_int
from casino.rules.pontoon.hand import PontoonHand
from casino.rules.pontoon.ops import (
    FIRST_CARD_SHOOT,
    SHOOT_BEFORE_CARDS,
    ActionType,
    HandStatus,
    Phase,
    nth,
)
from casino.rules.pontoon.rules import PontoonConfig, PontoonRules, check_config, coerce_rules
from casino.rules.reading import RecordReader
from casino.rules.rule_titles import pontoon_rule
from casino.rules.settlement import Settlement

RECORD_KEYS = ("banker", "players", "shoot", "bank_sale", "rules")
DECISIONS = (ActionType.BUY, ActionType.TWIST, ActionType.STICK)


@dataclass(frozen=True, slots=True)
class Decision:
    """A recorded buy (with its amount), twist or stick, at its record path."""

    type: ActionType
    amount: int | None
    path: str


@dataclass(frozen=True, slots=True)
class RecordHand:
    cards: tuple[Card, ...]
    decisions: tuple[Decision, ...]
    path: str


@dataclass(frozen=True, slots=True)
class RecordPlayer:
    seat: int
    stake: int
    hands: tuple[RecordHand, ...]
    path: str


@dataclass(frozen=True, slots=True)
class ShootBet:
    seat: int
    hand: int
    card: int
    amount: int
    path: str


@dataclass(frozen=True, slots=True)
class PontoonRecord:
    """A checked evaluate record: the configuration and everything to replay, with paths."""

    config: PontoonConfig
    banker_cards: tuple[Card, ...]
    players: tuple[RecordPlayer, ...]
    bets: tuple[ShootBet, ...]
    sale: tuple[int, int] | None


def _readable(values: object) -> list[Card | None]:
    if isinstance(values, str | bytes) or not isinstance(values, Sequence):
        return []
    return readable_cards(values)


def parse_record(
    record: Mapping[str, Any], rules: PontoonRules | Mapping[str, Any] | None = None
) -> PontoonRecord:
    """Read and check an evaluate record's shape, cards and configuration, every problem at
    once (``players[1].hands[0].cards[2]``); the play itself is checked by :func:`replay`."""
    effective = coerce_rules(rules)
    if not isinstance(record, Mapping):
        raise RuleError(msg(_("the hand record must be an object with banker and players")))
    read = RecordReader()
    problems = read.problems
    read.unknown(record, RECORD_KEYS, "")
    groups: list[CardGroup] = []

    banker_seat: int | None = None
    banker_cards: tuple[Card, ...] | None = None
    raw_banker = record.get("banker")
    if not isinstance(raw_banker, Mapping):
        problems.add("banker", msg(_("banker must be an object with seat and cards")))
    else:
        read.unknown(raw_banker, ("seat", "cards"), "banker")
        banker_seat = read.whole(
            raw_banker.get("seat"), "banker.seat", Message(_("the banker's seat"))
        )
        who = (
            msg(_("the banker (seat %(seat)s)"), seat=banker_seat)
            if banker_seat is not None
            else Message(_("the banker"))
        )
        banker_cards = read.cards(raw_banker.get("cards"), "banker.cards", who, 2)
        groups.append(CardGroup(who, "banker.cards", _readable(raw_banker.get("cards"))))

    players: list[RecordPlayer] = []
    seats: list[int] = []
    raw_players = read.listing(record.get("players"), "players", Message(_("players")))
    if isinstance(record.get("players"), Sequence) and not raw_players:
        problems.add("players", msg(_("at least one player besides the banker is dealt in")))
    for index, raw in enumerate(raw_players):
        path = f"players[{index}]"
        if not isinstance(raw, Mapping):
            problems.add(
                path,
                msg(
                    _("player %(number)s must be an object with seat, stake, hands"),
                    number=index + 1,
                ),
            )
            continue
        read.unknown(raw, ("seat", "stake", "hands"), path)
        entry = msg(_("player %(number)s"), number=index + 1)
        seat = read.whole(raw.get("seat"), f"{path}.seat", prefixed(entry, Message(_("seat"))))
        if seat is not None and (seat in seats or seat == banker_seat):
            problems.add(
                f"{path}.seat",
                msg(
                    _("seat %(seat)s is the banker's seat")
                    if seat == banker_seat
                    else _("seat %(seat)s is listed twice"),
                    seat=seat,
                ),
            )
            seat = None
        if seat is not None:
            seats.append(seat)
        who = seat_words(seat) if seat is not None else entry
        stake = read.whole(
            raw.get("stake"), f"{path}.stake", prefixed(who, Message(_("stake"))), money=True
        )
        hands: list[RecordHand] = []
        raw_hands = read.listing(
            raw.get("hands"), f"{path}.hands", prefixed(who, Message(_("hands")))
        )
        if isinstance(raw.get("hands"), Sequence) and not raw_hands:
            problems.add(f"{path}.hands", prefixed(who, msg(_("at least one hand"))))
        for number, raw_hand in enumerate(raw_hands):
            hand_path = f"{path}.hands[{number}]"
            hand = _read_hand(read, raw_hand, hand_path, who, number, len(raw_hands), groups)
            if hand is not None:
                hands.append(hand)
        if seat is not None and stake is not None and len(hands) == len(raw_hands) and hands:
            players.append(RecordPlayer(seat, stake, tuple(hands), path))

    kitty, carried, bets = _read_shoot(read, record.get("shoot"), players)
    sale: tuple[int, int] | None = None
    raw_sale = record.get("bank_sale")
    if raw_sale is not None:
        if not isinstance(raw_sale, Mapping):
            problems.add("bank_sale", msg(_("bank_sale must be an object with buyer and price")))
        else:
            read.unknown(raw_sale, ("buyer", "price"), "bank_sale")
            buyer = read.whole(
                raw_sale.get("buyer"), "bank_sale.buyer", Message(_("the buyer's seat"))
            )
            price = read.whole(
                raw_sale.get("price"), "bank_sale.price", Message(_("the bank's price")), money=True
            )
            if buyer is not None and price is not None:
                sale = (buyer, price)

    if effective.decks == 1 and sum(len(group.cards) for group in groups) <= 52:
        try:
            check_distinct(groups)
        except RuleError as error:
            problems.extend(error)
    problems.raise_if_any()
    assert banker_seat is not None and banker_cards is not None
    config = PontoonConfig(banker_seat, tuple(seats), kitty, carried)
    check_config(config, effective, paths={"banker": "banker.seat", "kitty": "shoot.kitty"})
    return PontoonRecord(config, banker_cards, tuple(players), bets, sale)


def _read_hand(
    read: RecordReader,
    raw: object,
    path: str,
    seat_name: str,
    number: int,
    count: int,
    groups: list[CardGroup],
) -> RecordHand | None:
    problems = read.problems
    who = (
        seat_name
        if count == 1
        else msg(_("%(who)s's %(nth)s hand"), who=seat_name, nth=Message(nth(number + 1)))
    )
    if not isinstance(raw, Mapping):
        problems.add(path, msg(_("%(who)s must be an object with cards and actions"), who=who))
        return None
    read.unknown(raw, ("cards", "actions"), path)
    cards = read.cards(raw.get("cards"), f"{path}.cards", who, 2)
    groups.append(CardGroup(seat_name, f"{path}.cards", _readable(raw.get("cards"))))
    decisions: list[Decision] = []
    ok = True
    for index, action in enumerate(
        read.listing(
            raw.get("actions", []), f"{path}.actions", prefixed(who, Message(_("actions")))
        )
    ):
        action_path = f"{path}.actions[{index}]"
        if not isinstance(action, Mapping) or action.get("type") not in DECISIONS:
            got = action.get("type") if isinstance(action, Mapping) else action
            problems.add(
                action_path,
                prefixed(
                    who,
                    msg(
                        _("a hand's action is buy (with amount), twist or stick, got %(value)s"),
                        value=repr(got),
                    ),
                ),
            )
            ok = False
            continue
        kind = ActionType(action["type"])
        known = ("type", "amount") if kind is ActionType.BUY else ("type",)
        read.unknown(action, known, action_path)
        amount = None
        if kind is ActionType.BUY:
            amount = read.whole(
                action.get("amount"),
                f"{action_path}.amount",
                prefixed(who, Message(_("buy"))),
                money=True,
            )
            if amount is None:
                ok = False
                continue
        decisions.append(Decision(kind, amount, action_path))
    if cards is None or not ok:
        return None
    draws = [d for d in decisions if d.type is not ActionType.STICK]
    extra = len(cards) - 2
    if len(draws) > extra:
        problems.add(
            draws[extra].path,
            prefixed(
                who,
                msg(
                    _(
                        "a %(action)s without a card: the hand lists %(count)s cards and each "
                        "buy or twist takes the next one"
                    ),
                    action=Message(str(draws[extra].type)),
                    count=len(cards),
                ),
            ),
        )
        return None
    if len(draws) < extra:
        problems.add(
            f"{path}.cards",
            prefixed(
                who,
                msg(
                    _(
                        "%(count)s cards but %(draws)s buys and twists: every card after the "
                        "second comes with a buy or a twist"
                    ),
                    count=len(cards),
                    draws=len(draws),
                ),
            ),
        )
        return None
    return RecordHand(cards, tuple(decisions), path)


def _read_shoot(
    read: RecordReader, raw: object, players: Sequence[RecordPlayer]
) -> tuple[int | None, bool, tuple[ShootBet, ...]]:
    problems = read.problems
    if raw is None:
        return None, False, ()
    if not isinstance(raw, Mapping):
        problems.add("shoot", msg(_("shoot must be an object with kitty and bets")))
        return None, False, ()
    read.unknown(raw, ("kitty", "kitty_carried", "bets"), "shoot")
    kitty = raw.get("kitty")
    if kitty is None:
        problems.add(
            "shoot.kitty", msg(_("the kitty is missing: Shoot Pontoon is played with a kitty"))
        )
    elif not is_int(kitty):
        problems.add(
            "shoot.kitty",
            msg(_("the kitty must be a whole amount, got %(value)s"), value=repr(kitty)),
        )
        kitty = None
    carried = raw.get("kitty_carried", False)
    if not isinstance(carried, bool):
        problems.add("shoot.kitty_carried", msg(_("kitty carried must be true or false")))
        carried = False
    by_seat = {player.seat: player for player in players}
    bets: list[ShootBet] = []
    seen: set[tuple[int, int, int]] = set()
    for index, bet in enumerate(
        read.listing(raw.get("bets", []), "shoot.bets", Message(_("shoot bets")))
    ):
        path = f"shoot.bets[{index}]"
        if not isinstance(bet, Mapping):
            problems.add(path, msg(_("a shoot bet is an object with seat, card and amount")))
            continue
        read.unknown(bet, ("seat", "card", "amount", "hand"), path)
        seat = read.whole(bet.get("seat"), f"{path}.seat", Message(_("the shoot bet's seat")))
        card = bet.get("card")
        if card not in (FIRST_CARD_SHOOT, *SHOOT_BEFORE_CARDS) or not is_int(card):
            problems.add(
                f"{path}.card",
                msg(
                    _(
                        "a shoot bet's card is 1 (after the first-card stakes), 4 or 5 (before "
                        "that card), got %(value)s (%(rule)s)"
                    ),
                    value=repr(card),
                    rule=pontoon_rule(17),
                ),
            )
            continue
        amount = read.whole(
            bet.get("amount"), f"{path}.amount", Message(_("the shoot bet")), money=True
        )
        number = read.whole(
            bet.get("hand", 0), f"{path}.hand", Message(_("the shoot bet's hand")), least=0
        )
        if seat is None or amount is None or number is None:
            continue
        player = by_seat.get(seat)
        if player is None:
            problems.add(
                f"{path}.seat", msg(_("seat %(seat)s is not a player in this hand"), seat=seat)
            )
            continue
        if number >= len(player.hands):
            problems.add(
                f"{path}.hand",
                msg(_("seat %(seat)s has no hand %(hand)s"), seat=seat, hand=number),
            )
            continue
        if card == FIRST_CARD_SHOOT and number != 0:
            problems.add(
                f"{path}.hand",
                msg(
                    _("the first shoot bet rides on the first hand (0) (%(rule)s)"),
                    rule=pontoon_rule(17),
                ),
            )
            continue
        if card in SHOOT_BEFORE_CARDS and len(player.hands[number].cards) < card:
            problems.add(
                path,
                msg(
                    _(
                        "seat %(seat)s: a shoot bet before the %(nth)s card, but the hand has "
                        "only %(count)s cards"
                    ),
                    seat=seat,
                    nth=Message(nth(card)),
                    count=len(player.hands[number].cards),
                ),
            )
            continue
        if (seat, number, card) in seen:
            problems.add(
                path,
                msg(
                    _("seat %(seat)s: a second shoot bet at the same point (card %(card)s)"),
                    seat=seat,
                    card=card,
                ),
            )
            continue
        seen.add((seat, number, card))
        bets.append(ShootBet(seat, number, card, amount, path))
    return kitty, carried, tuple(bets)


def _steps(record: PontoonRecord, hand: PontoonHand) -> Iterator[tuple[dict[str, Any], str]]:
    """The record as live actions with their record paths, read against the hand as it runs."""
    by_seat = {player.seat: player for player in record.players}
    order = [by_seat[seat] for seat in hand.order]
    banker = record.config.banker

    def deal(seat: int, card: Card, index: int | None = None) -> dict[str, Any]:
        action: dict[str, Any] = {"type": "deal", "seat": seat, "card": str(card)}
        if index is not None:
            action["hand"] = index
        return action

    for player in order:
        yield deal(player.seat, player.hands[0].cards[0]), f"{player.path}.hands[0].cards[0]"
    yield deal(banker, record.banker_cards[0]), "banker.cards[0]"
    for player in order:
        yield {"type": "stake", "seat": player.seat, "amount": player.stake}, f"{player.path}.stake"
    bets = {(bet.seat, bet.hand, bet.card): bet for bet in record.bets}
    if record.config.shoot:
        for player in order:
            bet = bets.get((player.seat, 0, FIRST_CARD_SHOOT))
            if bet is not None:
                yield {"type": "shoot", "seat": player.seat, "amount": bet.amount}, bet.path
            else:
                yield {"type": "no_shoot", "seat": player.seat}, player.path
    for player in order:
        if len(player.hands) > 1:
            yield deal(player.seat, player.hands[1].cards[0]), f"{player.path}.hands[1].cards[0]"
        else:
            yield deal(player.seat, player.hands[0].cards[1]), f"{player.path}.hands[0].cards[1]"
    yield deal(banker, record.banker_cards[1]), "banker.cards[1]"

    for player in order:
        seat, count = player.seat, len(player.hands)
        for index, recorded in enumerate(player.hands):
            path = recorded.path
            following = f"{player.path}.hands[{index + 1}]"
            if index >= 1:
                if index < count - 1:
                    card = player.hands[index + 1].cards[0]
                    yield deal(seat, card, index), f"{following}.cards[0]"
                else:
                    yield deal(seat, recorded.cards[1], index), f"{path}.cards[1]"
            if index < count - 1:
                yield {"type": "split", "seat": seat, "hand": index}, following
                yield deal(seat, recorded.cards[1], index), f"{path}.cards[1]"
            drawn = 2
            for decision in recorded.decisions:
                if decision.type is ActionType.STICK:
                    state = hand.player(seat).hands[index] if not hand.complete else None
                    if state is not None and state.end not in (None, HandStatus.BUST):
                        continue  # a stick on a hand that ended by itself changes nothing
                    yield {"type": "stick", "seat": seat, "hand": index}, decision.path
                    continue
                bet = bets.get((seat, index, drawn + 1))
                if bet is not None:
                    action = {"type": "shoot", "seat": seat, "hand": index, "amount": bet.amount}
                    yield action, bet.path
                action = {
                    "type": str(decision.type),
                    "seat": seat,
                    "hand": index,
                    "card": str(recorded.cards[drawn]),
                }
                if decision.amount is not None:
                    action["amount"] = decision.amount
                yield action, decision.path
                drawn += 1
            if hand.phase is Phase.PLAYERS and hand.to_act == seat and hand.current_hand == index:
                value = hand.value(seat, index)
                raise RuleError(
                    msg(
                        _(
                            "%(who)s stops on %(value)s without sticking: record a stick, or "
                            "the buys and twists that follow"
                        ),
                        who=hand.who_words(seat, index),
                        value=value.words,
                    ),
                    f"{path}.actions",
                )
    for number, card in enumerate(record.banker_cards[2:], start=2):
        yield {"type": "draw", "seat": banker, "card": str(card)}, f"banker.cards[{number}]"
    if hand.phase is Phase.BANKER:
        yield {"type": "stand", "seat": banker}, "banker.cards"
    if record.sale is not None:
        buyer, price = record.sale
        yield {"type": "sell_bank", "seat": banker, "buyer": buyer, "price": price}, "bank_sale"


def replay(
    record: Mapping[str, Any], rules: PontoonRules | Mapping[str, Any] | None = None
) -> PontoonHand:
    """Rebuild a hand from its record through the live state machine.

    The first illegal step raises :class:`RuleError` at its record path
    (``players[1].hands[0].actions[2]``, ``shoot.bets[0]``, ``banker.cards[3]``).
    """
    effective = coerce_rules(rules)
    parsed = parse_record(record, effective)
    hand = PontoonHand(parsed.config, effective)
    for action, path in _steps(parsed, hand):
        hand.apply_at(action, path)
    if not hand.complete:
        raise RuleError(
            msg(
                _("the record ends before the hand is finished: %(phase)s"),
                phase=Message(hand.phase.words),
            ),
            "players",
        )
    return hand


def evaluate(
    record: Mapping[str, Any], rules: PontoonRules | Mapping[str, Any] | None = None
) -> Settlement:
    """Replay a complete hand record and settle it."""
    return replay(record, rules).settle()
