"""What the compliance desk says in words: a hand action ("seat 3 raises to $8.00"), an audit
entry ("hand 12 opened (seats 1-5)", "hand settled: rake $3.00", "void asked: card
exposed"), a hand's frozen rules and set-up.

One describer of a hand action serves both the settlement's replay (each step's title) and
the audit entries (a ``hand_action`` entry stores the action it records). Its vocabulary
mirrors the dealer tablet's (``tablet/static/tablet/labels.js``, ``verb``), worded for a
record of what happened rather than a button; an action type it does not know still reads
plainly ("seat 4: surrender $5.00"). Which fields are money comes from the game's schemas
(an amount is an integer up to ``MAX_AMOUNT``, as ``casino.rules.schemas.amount`` writes
it), so a game added to the registry is described without a word here. Amounts are written
with :func:`casino.core.money.money`, the pages' one format. Nothing here is stored or
sealed: the words are made from the entry as it was sealed, every time it is shown."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from casino.core import option_words
from casino.core.money import money
from casino.rules import schemas as s
from casino.rules.contract import JSON, Game, registry
from casino.rules.options import MAX_AMOUNT

HOUSE_SEAT = 0
SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
RANKS = {"T": "10"}
#: Fields that are money wherever they appear (a game's schemas add their own).
MONEY_KEYS = frozenset(
    {
        "amount",
        "ante",
        "bank",
        "bet",
        "cap",
        "kitty",
        "max_payout_per_hand",
        "price",
        "smallest_chip",
        "stack",
        "stake",
        "to",
        "up_to",
        "rake",
        "net",
        "line",
    }
)
#: Fields whose empty value means there is no limit.
LIMIT_ENDINGS = ("_min", "_max", "cap", "up_to", "max_payout_per_hand", "max_raises")
#: Fields of an action that say where it applies, not what it is.
PLACE_KEYS = ("type", "seat", "hand")


# ---------------------------------------------------------------- small words


def words(key: Any) -> str:
    """A key in words: ``flush_bonus`` -> ``flush bonus``."""
    return str(key).replace("_", " ")


def card_words(card: Any) -> str:
    """A card as the table shows it: ``Th`` -> ``10♥``."""
    text = str(card)
    if len(text) == 2 and text[1] in SUITS:
        return f"{RANKS.get(text[0], text[0])}{SUITS[text[1]]}"
    return text


def is_card(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 2 and value[1] in SUITS


def cards_words(cards: Iterable[Any]) -> str:
    return " ".join(card_words(card) for card in cards)


def seats_words(seats: Iterable[Any]) -> str:
    """Seat numbers as people write them: ``1-5``, ``1, 3, 4``, ``2``."""
    numbers = sorted(int(seat) for seat in seats if str(seat).lstrip("-").isdigit())
    if not numbers:
        return "none"
    if len(numbers) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]}-{numbers[-1]}"
    return ", ".join(map(str, numbers))


def party_words(seat: Any) -> str:
    return "the house" if seat in (HOUSE_SEAT, str(HOUSE_SEAT)) else f"seat {seat}"


def is_amount(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# ---------------------------------------------------------------- what a game says is money


def _money_fields(schema: Any, into: set[str]) -> None:
    """Every property name in ``schema`` (at any depth) that is an amount."""
    if isinstance(schema, dict):
        for name, field in (schema.get("properties") or {}).items():
            if isinstance(field, dict) and (
                field.get("format") == "money" or field.get("maximum") == MAX_AMOUNT
            ):
                into.add(name)
            _money_fields(field, into)
        for key in ("items", "additionalProperties"):
            _money_fields(schema.get(key), into)
    elif isinstance(schema, list):
        for item in schema:
            _money_fields(item, into)


@cache
def _game_money(game: Game) -> frozenset[str]:
    found: set[str] = set()
    for schema in (
        game.limits_schema,
        game.rules_schema,
        game.open_schema,
        *game.action_schemas.values(),
        *game.table_action_schemas.values(),
    ):
        _money_fields(schema, found)
    return frozenset(found)


def money_keys(game_code: str | None) -> frozenset[str]:
    """The field names that are amounts in this game (and everywhere)."""
    found = registry().get(game_code or "")
    return MONEY_KEYS | _game_money(found) if found is not None else MONEY_KEYS


def _money_key(key: str, keys: frozenset[str]) -> bool:
    return key in keys or key.endswith(("_min", "_max", "_bonus", "_blind", "_bet"))


def value_words(value: Any, key: str = "", keys: frozenset[str] = MONEY_KEYS) -> str:
    """A stored value in words, by its field's name: amounts as money, cards as the table shows
    them, yes/no, a list of seats' parts one after another, an object as ``name value, ...``.
    (Options a game's schema describes are written from it: :func:`rules_words`.)"""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "no limit" if key.endswith(LIMIT_ENDINGS) else "none"
    if is_amount(value):
        if key == "percent":
            return f"{value}%"
        return money(value) if _money_key(key, keys) else str(value)
    if isinstance(value, str):
        return card_words(value) if is_card(value) else words(value)
    if isinstance(value, list | tuple):
        if not value:
            return "none"
        if all(is_card(item) for item in value):
            return cards_words(value)
        if all(isinstance(item, dict) for item in value):
            return "; ".join(_part_words(item, keys) for item in value)
        return ", ".join(value_words(item, key, keys) for item in value)
    if isinstance(value, dict):
        return _part_words(value, keys) if value else "none"
    return str(value)


def _part_words(part: Mapping[str, Any], keys: frozenset[str]) -> str:
    """One part of a list or object: a seat's first (``seat 2: stack $10.00, cards A♠ K♠``)."""
    rest = ", ".join(
        f"{words(name)} {value_words(item, name, keys)}"
        for name, item in part.items()
        if name != "seat"
    )
    if "seat" in part:
        return f"{party_words(part['seat'])}: {rest}" if rest else party_words(part["seat"])
    return rest


# ---------------------------------------------------------------- a hand action


def _hand_suffix(action: Mapping[str, Any]) -> str:
    hand = action.get("hand")
    return f" (hand {hand + 1})" if is_amount(hand) else ""


def _in_schema_order(action: Mapping[str, Any], game_code: str | None) -> dict[str, Any]:
    """The action's fields in the order its game's schema lists them (a stored action's keys
    may come back in any order: PostgreSQL's ``jsonb`` sorts them), the rest after."""
    found = registry().get(game_code or "")
    schema = found.action_schemas.get(str(action.get("type"))) if found is not None else None
    order = list((schema or {}).get("properties") or {})
    rank = {name: place for place, name in enumerate(order)}
    return dict(sorted(action.items(), key=lambda item: rank.get(item[0], len(order))))


def action_words(action: Mapping[str, Any], game_code: str | None = None) -> str:
    """A hand action in words: ``seat 3 raises to $8.00``, ``deal to seat 2: A♠ K♠``,
    ``seat 2 antes $5.00, flush bonus $1.00``; any other ``seat 4: surrender $5.00``."""
    action = _in_schema_order(action, game_code)
    keys = money_keys(game_code)
    kind = str(action.get("type", "action"))
    seat = action.get("seat")
    who = party_words(seat) if seat is not None else "the table"

    def amount(name: str) -> str:
        value = action.get(name)
        return money(value) if is_amount(value) else ""

    card = card_words(action["card"]) if is_card(action.get("card")) else ""
    said = _known(kind, action, who, amount, card, keys)
    if said is None:
        details = ", ".join(
            _detail(name, value, keys) for name, value in action.items() if name not in PLACE_KEYS
        )
        said = f"{who}: {words(kind)}" + (f" {details}" if details else "")
    return said + _hand_suffix(action)


def _detail(name: str, value: Any, keys: frozenset[str]) -> str:
    shown = value_words(value, name, keys)
    return shown if name in ("amount", "card", "cards") else f"{words(name)} {shown}"


def _known(  # noqa: C901, PLR0911, PLR0912 (one case per action type, as the tablet's verb)
    kind: str,
    action: Mapping[str, Any],
    who: str,
    amount: Any,
    card: str,
    keys: frozenset[str],
) -> str | None:
    if kind == "fold":
        return f"{who} folds"
    if kind == "check":
        return f"{who} checks"
    if kind == "call":
        said = f"{who} calls {amount('amount')}".rstrip()
        if is_card(action.get("discard")):
            said += f", discarding {card_words(action['discard'])}"
        return said
    if kind == "bet":
        return f"{who} bets {amount('to') or amount('amount')}".rstrip()
    if kind == "raise":
        if "to" in action:
            return f"{who} raises to {amount('to')}"
        return f"{who} raises {amount('amount')}".rstrip()
    if kind == "draw":
        return _draw(action, who, card)
    if kind == "discard":
        thrown = action.get("cards") if "cards" in action else action.get("card")
        if isinstance(thrown, list):
            return f"{who} discards {cards_words(thrown)}" if thrown else f"{who} discards nothing"
        return f"{who} discards {card}".rstrip()
    if kind == "deal":
        dealt = action.get("cards")
        shown = cards_words(dealt) if isinstance(dealt, list) else card
        target = "the house" if who == "the house" else who
        return f"deal to {target}: {shown}" if shown else f"deal to {target}"
    if kind == "wager":
        parts = [f"{who} antes {amount('ante') or amount('amount')}".rstrip()]
        parts += [
            f"{words(name)} {money(value)}"
            for name, value in action.items()
            if name not in (*PLACE_KEYS, "ante", "amount") and is_amount(value) and value
        ]
        return ", ".join(parts)
    if kind == "stake":
        return f"{who} stakes {amount('amount')}".rstrip()
    if kind == "shoot":
        return f"{who} shoots {amount('amount')}".rstrip()
    if kind == "no_shoot":
        return f"{who} does not shoot"
    if kind == "split":
        return f"{who} splits"
    if kind == "buy":
        said = f"{who} buys {card}".rstrip() if card else f"{who} buys a card"
        if amount("amount"):
            said += f" for {amount('amount')}"
        thrown = action.get("discard")
        if isinstance(thrown, list) and thrown:
            said += f", discarding {cards_words(thrown)}"
        return said
    if kind == "twist":
        return f"{who} twists {card}".rstrip()
    if kind == "stick":
        return f"{who} sticks"
    if kind == "stand":
        return f"{who} stands"
    if kind == "stay":
        return f"{who} stays"
    if kind == "battle":
        return f"{who} attacks seat {action.get('target')} for {amount('amount')}".rstrip()
    if kind == "sell_bank":
        price = amount("price") or amount("amount")
        return f"{who} sells the bank to seat {action.get('buyer')} for {price}".rstrip()
    return None


def _draw(action: Mapping[str, Any], who: str, card: str) -> str:
    source = action.get("source")
    if source == "discard":
        return f"{who} takes {card} from the discard" if card else f"{who} takes the discard"
    if source == "stock":
        return f"{who} draws {card} from the stock" if card else f"{who} draws from the stock"
    thrown, taken = action.get("discard"), action.get("receive")
    if isinstance(thrown, list) or isinstance(taken, list):
        count = len(taken) if isinstance(taken, list) else len(thrown or [])
        if count == 0:
            return f"{who} stands pat"
        said = f"{who} draws {count} card{'s' if count != 1 else ''}"
        detail = []
        if thrown:
            detail.append(f"discards {cards_words(thrown)}")
        if taken:
            detail.append(f"receives {cards_words(taken)}")
        return f"{said}: {', '.join(detail)}" if detail else said
    return f"{who} draws {card}".rstrip()


# ---------------------------------------------------------------- an audit entry


def nets_words(nets: Any) -> str:
    """``{"1": 1000, "2": -500, "0": -500}`` -> ``seat 1 +$10.00, seat 2 −$5.00, the house
    −$5.00`` (the house last)."""
    if not isinstance(nets, dict) or not nets:
        return ""
    order = sorted(nets, key=lambda seat: (str(seat) == str(HOUSE_SEAT), int(seat)))
    return ", ".join(
        f"{party_words(seat)} {money(nets[seat], True)}" for seat in order if is_amount(nets[seat])
    )


def _reason(after: Mapping[str, Any], key: str = "reason") -> str:
    text = str(after.get(key) or "").strip()
    return f": {text}" if text else ""


def _changes_words(game_code: str | None, changes: Any, before: Any) -> str:
    """A limit or rule change, each option before and after as every desk writes it:
    ``ante maximum $100.00 → $200.00``."""
    if not isinstance(changes, dict):
        return ""
    found = registry().get(game_code or "")
    was = before if isinstance(before, dict) else {}
    return ", ".join(
        f"{option.title} {option.before} → {option.after}"
        for option in option_words.changes_in_words(found, was, changes)
    )


DECISIONS = {"approved": "approved", "rejected": "rejected", "withdrawn": "withdrawn"}
REQUESTS = {
    "hand_void": "void request",
    "hand_settle": "payout sign-off",
    "hand_correction": "correction request",
    "table_change": "limit or rule change",
}


def entry_words(  # noqa: C901, PLR0911, PLR0912 (one case per kind of entry)
    action: str,
    before: Any,
    after: Any,
    *,
    game_code: str | None = None,
    hand_number: int | None = None,
    subject: str = "",
) -> str:
    """What an audit entry records, in words, from its stored action, before and after (and
    its subject, for the seat a seat's entry is about)."""
    was = before if isinstance(before, dict) else {}
    now = after if isinstance(after, dict) else {}
    number = now.get("number", hand_number)
    hand = f"hand {number}" if number is not None else "the hand"
    if action == "hand_open":
        return f"{hand} opened (seats {seats_words(now.get('seats') or [])})"
    if action == "hand_action":
        step = now.get("action")
        if isinstance(step, dict):
            return action_words(step, game_code)
        return "an action recorded"
    if action == "hand_actions":
        steps = [a for a in now.get("actions") or [] if isinstance(a, dict)]
        return f"the hand's record entered: {len(steps)} action{'s' if len(steps) != 1 else ''}"
    if action == "hand_settle":
        said = (
            f"hand settled: rake {money(now['rake'])}"
            if is_amount(now.get("rake"))
            else ("hand settled")
        )
        nets = nets_words(now.get("nets"))
        if nets:
            said += f"; {nets}"
        signers = [
            str(sign["by"])
            for sign in now.get("signatures") or ()
            if isinstance(sign, dict) and sign.get("by")
        ]
        if signers:
            said += f"; signed off by {', '.join(signers)}"
        elif now.get("signed_off_by"):
            said += f"; signed off by {now['signed_off_by']}"
        return said
    if action == "hand_settle_signed":
        role = words(now.get("role") or "")
        said = f"payout signed (tier {now.get('tier')}{', ' + role if role else ''})"
        if is_amount(now.get("signed")) and is_amount(now.get("needed")):
            said += f": {now['signed']} of {now['needed']} signatures"
        return said + _reason(now, "note")
    if action == "hand_settle_held":
        nets = nets_words(now.get("nets"))
        limits = now.get("limits") if isinstance(now.get("limits"), dict) else {}
        said = "settlement held for sign-off"
        if is_amount(limits.get("line")) and is_amount(limits.get("net")):
            # An entry from before tiered sign-off: one limit a line and one a net.
            said += f" (above {money(limits['line'])} a line or {money(limits['net'])} a net)"
        elif all(isinstance(reason, str) for reason in now.get("over") or [None]):
            said += f" ({'; '.join(now['over'])})"  # the reasons, in words, as stored
        return f"{said}: {nets}" if nets else said
    if action == "hand_void_requested":
        return f"void asked{_reason(now)}"
    if action == "hand_void":
        return f"hand voided{_reason(now)}"
    if action == "hand_correction_requested":
        return f"correction asked{_reason(now)}"
    if action == "hand_correct":
        reversal = now.get("reversal") if isinstance(now.get("reversal"), dict) else {}
        correction = now.get("correction") if isinstance(now.get("correction"), dict) else {}
        said = f"hand corrected: settlement {now.get('corrects')} reversed"
        if reversal.get("settlement"):
            said += f" (settlement {reversal['settlement']})"
        if correction.get("settlement"):
            said += f" and settled again as settlement {correction['settlement']}"
        return said
    for request, name in REQUESTS.items():
        for status, decided in DECISIONS.items():
            if action == f"{request}_{status}":
                note = _reason(now, "note")
                return f"{name} {decided}{note}"
    if action == "table_change_requested":
        changes = _changes_words(game_code, now.get("changes"), was)
        reason = _reason(now)
        return (
            f"limit or rule change asked: {changes}{reason}"
            if changes
            else (f"limit or rule change asked{reason}")
        )
    if action == "table_create":
        seats = now.get("seat_count")
        found = registry().get(str(now.get("game")))
        name = found.name if found is not None else words(now.get("game", ""))
        return f"table {now.get('name', '')} created ({name}, {seats} seats)"
    if action in ("table_open", "table_closed"):
        return "table opened" if action == "table_open" else "table closed"
    if action == "table_dealer":
        dealer = now.get("dealer") or "no one"
        return f"dealer set to {dealer} (was {was.get('dealer') or 'no one'})"
    if action == "seat_update":
        seat = subject.rsplit(":seat:", 1)[1] if ":seat:" in subject else ""
        where = f"seat {seat}" if seat else "a seat"
        player = now.get("player")
        if not player:
            left = f": {was['player']} left" if was.get("player") else ""
            return f"{where} emptied{left}"
        if now.get("sitting_out"):
            return f"{player} sits out at {where}"
        if was.get("player") != player:
            return f"{player} sits down at {where}"
        return f"{player} plays again at {where}"
    if action == "signoff_limit_set":
        line, net = now.get("line"), now.get("net")
        if is_amount(line) and is_amount(net):
            return f"sign-off limits set: {money(line)} a line, {money(net)} a net"
        return "sign-off limits set"
    if action == "audit_check":
        status = now.get("status", "")
        found = now.get("findings")
        return (
            f"audit check {words(status)}: {now.get('entries_checked', 0)} entries, "
            f"{now.get('hands_checked', 0)} hands, {found if found is not None else 0} findings"
        )
    if action in ("user_created", "user_role_added"):
        verb = "created with" if action == "user_created" else "given"
        return f"user {now.get('username', '')} {verb} the role {words(now.get('role', ''))}"
    return event_words(action, now)


#: Amounts in a game's event between hands (its other numbers are seats and counts).
EVENT_MONEY = frozenset({"amount", "ante", "bank", "bet", "kitty", "price", "stack", "stake"})


def event_words(kind: str, data: Mapping[str, Any]) -> str:
    """A game's own event between hands (an offer, a new banker, the blinds), or an entry this
    desk does not know: its name, the seat it is about, and the facts it stored that say
    something (a state snapshot, notes and empty values left out): ``rotation accept, seat
    1: bank $200.00, designated player 1``."""
    head = words(kind)
    if isinstance(data.get("seat"), int) and not isinstance(data.get("seat"), bool):
        head += f", {party_words(data['seat'])}"
    facts = []
    for name, value in data.items():
        if name in ("seat", "notes", "state") or value in (None, False, [], {}, ""):
            continue
        if isinstance(value, dict):
            continue
        if value is True:
            facts.append(words(name))
        elif is_amount(value):
            facts.append(f"{words(name)} {money(value) if name in EVENT_MONEY else value}")
        elif isinstance(value, list) and all(is_amount(item) for item in value):
            facts.append(f"{words(name)} {seats_words(value)}")
        elif isinstance(value, list) and all(isinstance(item, dict) for item in value):
            facts.append(
                f"{words(name)} {'; '.join(_part_words(item, EVENT_MONEY) for item in value)}"
            )
        else:
            facts.append(f"{words(name)} {value_words(value, name, EVENT_MONEY)}")
    return f"{head}: {', '.join(facts)}" if facts else head


# ---------------------------------------------------------------- rules and set-up


def _typed(schema: Any, value: Any, key: str, keys: frozenset[str]) -> JSON:
    """``schema`` with what it leaves unsaid filled in from the option's name, for a game
    whose schema is only types (``casino.rules.schemas.from_defaults``): an amount's money
    format, a pay table's odds, a percentage, what an empty limit means."""
    schema = dict(schema) if isinstance(schema, dict) and schema else s.inferred(value, key)
    if value is None and not schema.get(s.NULL_WORDS) and key.endswith(LIMIT_ENDINGS):
        schema[s.NULL_WORDS] = "no limit"
    if is_amount(value) and "format" not in schema and "enum" not in schema:
        if key == "percent":
            schema["format"] = s.PERCENT
        elif _money_key(key, keys):
            schema["format"] = s.MONEY
    if isinstance(value, dict):
        properties = dict(schema.get("properties") or {})
        for name, item in value.items():
            sub = properties.get(name) or {}
            if key.endswith("paytable") and is_amount(item) and "format" not in sub:
                sub = {**sub, "title": str(name), "format": s.ODDS}
            properties[name] = _typed(sub, item, str(name), keys)
        schema["properties"] = properties
    elif isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
        merged: dict[str, Any] = {}
        for item in value:
            merged.update(item)
        schema["items"] = _typed(items, merged, "", keys)
    return schema


def rules_words(game_code: str | None, rules: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A hand's frozen rules as (title, value in words), written as every desk writes an
    option (:mod:`casino.core.option_words`: the titles, formats and choices' words of the
    game's rules schema; what a bare schema leaves unsaid, from the option's name)."""
    found = registry().get(game_code or "")
    properties = (found.rules_schema.get("properties") or {}) if found is not None else {}
    keys = money_keys(game_code)
    shown = []
    for key, value in rules.items():
        schema = _typed(properties.get(key), value, key, keys)
        shown.append(
            (capitalized(option_words.title_of(schema, key)), option_words.describe(schema, value))
        )
    return shown


def capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def setup_words(game_code: str | None, config: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A hand's set-up (``config``: who sits where, their stacks and cards, the button, the
    bank) as (name, value in words)."""
    keys = money_keys(game_code)
    return [
        (capitalized(words(key)), value_words(value, key, keys)) for key, value in config.items()
    ]
