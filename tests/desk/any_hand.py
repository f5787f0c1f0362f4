"""A settled hand of any registered game, played through the services the way the dealer's
tablet plays it: from what the game declares and nothing else (no game is named here).

The table takes the game's demo limits when it has them (``Game.demo_table``, optional), else
limits made from its limits schema. The hand is opened with a body built from the game's
opening schema as the tablet's opening form builds it (every card slot dealt from the game's
deck in order, every required amount from the table's proposal or a stack of
:data:`STACK`), after any between-hand action the table waits for (an offered position taken
with the least bank, a first banker chosen). Then the legal actions are played, one chosen at
random (seeded) each step, its body filled as the tablet's action bar fills it: the seat and
the fields the legal action fixes, the least amount, cards from the deck not yet out, the
seat's own cards for a discard. A seed whose hand does not end within :data:`MAX_STEPS` is
followed by the next."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from casino.core.errors import ApplicationError
from casino.rules.contract import Game, game, hand_view
from casino.rules.errors import Refusal, RuleError
from desk.compliance import describe
from payouts.models import Settlement
from tables import live, services
from tables.models import Hand, Table
from tables.selectors import hand_history, table_view

STACK = 100_000
MAX_STEPS = 150
PLAYERS = {1: "Ana", 2: "Bela", 3: "Csilla", 4: "Dani", 5: "Eva"}
CARD_PATTERN = "cdhs"


def _is_card_schema(schema: Any) -> bool:
    return (
        isinstance(schema, dict)
        and schema.get("type") == "string"
        and CARD_PATTERN in str(schema.get("pattern", ""))
    )


def _is_cards_schema(schema: Any) -> bool:
    return (
        isinstance(schema, dict)
        and schema.get("type") == "array"
        and _is_card_schema(schema.get("items"))
    )


def _count(schema: Mapping[str, Any]) -> int:
    return int(schema.get("maxItems") or schema.get("minItems") or 1)


def schema_limits(found: Game) -> dict[str, Any]:
    """Limits from the game's limits schema: a choice's first value, amounts rising in the
    schema's order (a minimum below its maximum, a small blind below a big one)."""
    limits: dict[str, Any] = {}
    amount = 100
    for name, field in (found.limits_schema.get("properties") or {}).items():
        if field.get("enum"):
            limits[name] = field["enum"][0]
        elif field.get("type") == "integer":
            limits[name] = 100_000 if name.endswith("_max") else amount
            amount *= 2
    return limits


def table_for(code: str, *, floor: Any, dealer: Any, players: int = 3) -> Table:
    """An open table of the game, ``players`` seated (at least the game's least)."""
    found = game(code)
    demo = dict(found.demo_table or {})
    count = max(players, found.min_players)
    table = services.table_create(
        user=floor,
        name=f"{demo.get('name', code.upper()[:8])}-{Table.objects.filter(game=code).count() + 2}",
        game=code,
        seat_count=max(count, min(found.max_seats, demo.get("seat_count", count))),
        dealer=dealer,
        limits=demo.get("limits") or schema_limits(found),
        smallest_chip=demo.get("smallest_chip", 25),
        rules=demo.get("rules") or {},
    )
    for number in range(1, count + 1):
        services.seat_update(
            user=floor,
            table_id=table.pk,
            number=number,
            player=PLAYERS.get(number, f"P{number}"),
            sitting_out=False,
        )
    return services.table_set_status(user=floor, table_id=table.pk, status="open")


def _least(bounds: Any, schema: Mapping[str, Any]) -> int:
    if isinstance(bounds, dict) and isinstance(bounds.get("min"), int):
        return int(bounds["min"])
    return int(schema.get("minimum", 1))


def _table_action(found: Game, table: Table) -> dict[str, Any] | None:
    """The between-hand action the table waits for, filled (a decline only if alone)."""
    offered = found.table_actions(table_view(table, hand_open=False))
    if not offered:
        return None
    legal = next((a for a in offered if a["type"] != "decline"), offered[0])
    schema = found.table_action_schemas.get(legal["type"], {})
    body: dict[str, Any] = {"type": legal["type"]}
    for name, field in (schema.get("properties") or {}).items():
        if name == "type":
            continue
        if name == "seat":
            body["seat"] = legal.get("seat", (legal.get("seats") or [1])[0])
        elif isinstance(legal.get(f"{name}s"), list) and legal[f"{name}s"]:
            body[name] = legal[f"{name}s"][0]
        elif field.get("enum"):
            body[name] = field["enum"][0]
        elif field.get("type") == "integer" and name in (schema.get("required") or []):
            body[name] = _least(legal.get(name), field)
    return body


class Deck:
    """The game's deck dealt in order, a card never twice."""

    def __init__(self, cards: list[str], rng: random.Random) -> None:
        self.cards = list(cards)
        rng.shuffle(self.cards)
        self.out: set[str] = set()

    def take(self) -> str:
        card = next(card for card in self.cards if card not in self.out)
        self.out.add(card)
        return card


def opening_body(found: Game, table: Table, deck: Deck) -> dict[str, Any]:
    """The opening body as the tablet's opening form fills it."""
    view = table_view(table, hand_open=False)
    seats = found.next_seats(view)
    proposal = found.opening_proposal(view)
    schema = found.open_schema
    required = set(schema.get("required") or [])
    body: dict[str, Any] = {}
    for name, field in (schema.get("properties") or {}).items():
        item = field.get("items") or {}
        if field.get("type") == "array" and "seat" in (item.get("properties") or {}):
            proposed = {p.get("seat"): p for p in proposal.get(name) or [] if isinstance(p, dict)}
            parts = []
            for seat in seats:
                part: dict[str, Any] = {"seat": seat}
                for key, sub in item["properties"].items():
                    if key == "seat":
                        continue
                    if _is_cards_schema(sub):
                        part[key] = [deck.take() for _ in range(_count(sub))]
                    elif _is_card_schema(sub):
                        part[key] = deck.take()
                    elif sub.get("type") == "integer" and key in (item.get("required") or []):
                        known = proposed.get(seat, {}).get(key)
                        part[key] = known if isinstance(known, int) else STACK
                parts.append(part)
            body[name] = parts
        elif field.get("type") == "object" and _is_cards_schema(field.get("additionalProperties")):
            per_seat = field["additionalProperties"]
            body[name] = {
                str(seat): [deck.take() for _ in range(_count(per_seat))] for seat in seats
            }
        elif _is_card_schema(field) and name in required:
            body[name] = deck.take()
        elif field.get("type") == "integer" and name != "dealer":
            if isinstance(proposal.get(name), int):
                body[name] = proposal[name]
            elif name in required:
                body[name] = STACK
    return body


def _party(view: Mapping[str, Any], seat: Any) -> Mapping[str, Any]:
    presentation = view.get("presentation") or {}
    parties = [*(presentation.get("seats") or []), presentation.get("house") or {}]
    return next((p for p in parties if p.get("seat") == seat), {})


def _own_cards(legal: Mapping[str, Any], party: Mapping[str, Any]) -> list[str]:
    for value in legal.values():
        if isinstance(value, list) and value and all(describe.is_card(v) for v in value):
            return list(value)
    cards = [c["card"] for c in party.get("cards") or [] if c.get("card")]
    if cards:
        return cards
    return [c["card"] for g in party.get("groups") or [] for c in g.get("cards") or []]


def action_body(
    found: Game, legal: Mapping[str, Any], view: Mapping[str, Any], deck: Deck, rng: random.Random
) -> dict[str, Any]:
    """One legal action's body, as the tablet's action bar fills it."""
    schema = found.action_schemas.get(legal["type"], {})
    required = set(schema.get("required") or [])
    body: dict[str, Any] = {"type": legal["type"]}
    for name, field in (schema.get("properties") or {}).items():
        if name == "type":
            continue
        if name == "seat":
            seats = legal.get("seats")
            if isinstance(seats, list):
                body["seat"] = rng.choice(seats)
            else:  # the legal action's seat, else the seat the hand waits for
                body["seat"] = legal.get("seat", view.get("to_act"))
            continue
        if name == "hand":
            if legal.get("hand") is not None:
                body["hand"] = legal["hand"]
            continue
        options = legal.get(f"{name}s")
        if name == "target":
            options = legal.get("targets", options)
        elif name == "buyer":
            options = legal.get("buyers", options)
        if isinstance(options, list):
            if options:
                body[name] = rng.choice(options)
            continue
        if field.get("enum"):
            body[name] = rng.choice(field["enum"])
            continue
        if _is_card_schema(field):
            chosen = next((v for k, v in body.items() if k != "type" and isinstance(v, str)), None)
            if chosen and legal.get(f"top_{chosen}"):
                continue  # the card is on the table already (the top of the discard pile)
            if chosen and legal.get(f"{chosen}_card"):
                body[name] = legal[f"{chosen}_card"]
                continue
            if name in required or name == "card":
                if legal["type"] == "discard" or name == "discard":
                    own = _own_cards(legal, _party(view, body.get("seat")))
                    if own:
                        body[name] = rng.choice(own)
                        continue
                body[name] = deck.take()
            continue
        if _is_cards_schema(field):
            if name in ("discard", "discards") or legal["type"] == "discard":
                exact = legal.get("must_discard")
                if exact == 0 and name not in required:
                    continue
                own = _own_cards(legal, _party(view, body.get("seat")))
                least = 1 if name in required and legal["type"] == "discard" else 0
                count = exact if isinstance(exact, int) else rng.randint(least, min(2, len(own)))
                body[name] = rng.sample(own, count)
            else:
                count = legal.get(name)
                if not isinstance(count, int):
                    count = legal.get("cards")
                if not isinstance(count, int):
                    discard = body.get("discard")
                    count = len(discard) if isinstance(discard, list) else _count(field)
                body[name] = [deck.take() for _ in range(count)]
            continue
        if field.get("type") == "integer":
            if isinstance(legal.get(name), int):
                body[name] = legal[name]
            elif name in required:
                body[name] = _least(legal.get(name) or legal, field)
            elif name in (legal.get("bonuses") or []):
                continue
    return body


def _choose(offered: list[dict[str, Any]], found: Game, rng: random.Random) -> dict[str, Any]:
    """A legal action: mostly one that puts money in (an ante, a bet, a raise), so that the
    hand is an ordinary one, played to the end, rather than folded at once."""
    staking = [
        legal
        for legal in offered
        if any(
            field.get("type") == "integer" and field.get("maximum", 0) > 10**6
            for field in (
                found.action_schemas.get(legal["type"], {}).get("properties") or {}
            ).values()
        )
    ]
    if staking and rng.random() < 0.7:
        return rng.choice(staking)
    return rng.choice(offered)


def play_hand(code: str, *, floor: Any, dealer: Any, seed: int = 0, players: int = 3) -> Settlement:
    """A settled hand of the game at a new table of its own, ``players`` seated (as many as
    the game seats, at most)."""
    found = game(code)
    table = table_for(code, floor=floor, dealer=dealer, players=min(players, found.max_seats))
    for attempt in range(seed, seed + 20):
        rng = random.Random(attempt)
        hand = _open(found, table, dealer, rng)
        deck = hand.deck
        state = hand.state
        for _ in range(MAX_STEPS):
            if state["complete"]:
                settled = services.hand_settle(user=dealer, hand_id=hand.pk, record={})
                assert isinstance(settled, Settlement), (code, "held for sign-off", settled)
                return settled
            legal = _choose(state["legal_actions"], found, rng)
            body = action_body(found, legal, state, deck, rng)
            try:
                state = live.hand_act(user=dealer, hand_id=hand.pk, action=body)
            except (ApplicationError, RuleError) as refused:
                raise AssertionError(f"{code}: {body} refused: {refused}") from refused
        _void(hand.pk, dealer, floor)
    raise AssertionError(f"{code}: no hand ended within {MAX_STEPS} steps in 20 tries")


class _Opened:
    def __init__(self, pk: int, deck: Deck, state: dict[str, Any]) -> None:
        self.pk, self.deck, self.state = pk, deck, state


def _open(found: Game, table: Table, dealer: Any, rng: random.Random) -> _Opened:
    """Open a hand: a table that waits for a between-hand action gets it first; a deal the
    game refuses (two banners of one suit) is dealt again from a new shuffle."""
    problem: Exception | None = None
    for _ in range(30):
        table.refresh_from_db()
        deck = Deck(found.table_deck(table_view(table, hand_open=False)), rng)
        try:
            hand = services.hand_open(
                user=dealer, table_id=table.pk, body=opening_body(found, table, deck)
            )
        except Refusal as refused:
            waiting = _table_action(found, table)
            if waiting is None:
                raise
            problem = refused
            services.game_act(user=dealer, table_id=table.pk, action=waiting)
            continue
        except (ApplicationError, RuleError) as refused:
            problem = refused
            continue
        history = hand_history(hand)
        state = hand_view(found.replay(history), found.code)
        return _Opened(hand.pk, deck, state)
    raise AssertionError(f"{found.code}: the table never let a hand open: {problem}")


def _void(hand_id: int, dealer: Any, floor: Any) -> None:
    from approvals import services as approvals

    approval = services.void_request(user=dealer, hand_id=hand_id, reason="practice hand")
    approvals.approval_decide(user=floor, approval_id=approval.pk, approve=True)
    assert Hand.objects.get(pk=hand_id).status == Hand.Status.VOIDED
