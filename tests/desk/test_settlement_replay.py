"""A settlement's page replays its hand step by step from the presentation view the dealer's
tablet draws, with each action in words, and its audit entries (here and on the audit log)
say what they record; the describer behind both, word by word. Every registered game is
taken from the registry (a game registered for the whole run is covered too)."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from django.urls import reverse

from casino.core.i18n import explanation_text
from casino.core.money import money
from casino.rules.contract import History, game, hand_view, registry
from desk.compliance import describe
from payouts.models import AuditEntry, Settlement
from tests.desk.any_hand import play_hand
from tests.tables.test_draw_live import act, open_hand

pytestmark = pytest.mark.django_db


def page_of(client: Any, settlement: Settlement) -> str:
    response = client.get(reverse("compliance-settlement", args=[settlement.pk]))
    assert response.status_code == 200
    return response.content.decode()


def replay_data(page: str) -> list[dict[str, Any]]:
    found = re.search(
        r'<script id="replay-data" type="application/json">(.*?)</script>', page, re.S
    )
    assert found, "the page carries no replay"
    return json.loads(found.group(1))


def visible_text(page: str) -> str:
    """What a reader sees: no scripts, no tags, entities decoded."""
    page = re.sub(r"<script\b.*?</script>", " ", page, flags=re.S)
    page = re.sub(r"<style\b.*?</style>", " ", page, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


@pytest.fixture
def reader(client, compliance):
    client.force_login(compliance)
    return client


# ---------------------------------------------------------------- the describer, word by word


@pytest.mark.parametrize(
    ("action", "code", "words"),
    [
        ({"type": "raise", "seat": 3, "to": 800}, "five-card-draw-7a", "seat 3 raises to $8.00"),
        ({"type": "raise", "seat": 2, "amount": 500}, "high-card-flush", "seat 2 raises $5.00"),
        ({"type": "call", "seat": 1, "amount": 200}, "five-card-draw-7a", "seat 1 calls $2.00"),
        ({"type": "call", "seat": 1}, "palace-poker", "seat 1 calls"),
        ({"type": "bet", "seat": 4, "to": 400}, "five-card-draw-7a", "seat 4 bets $4.00"),
        ({"type": "check", "seat": 2}, "five-card-draw-7a", "seat 2 checks"),
        ({"type": "fold", "seat": 5}, "five-card-draw-7a", "seat 5 folds"),
        (
            {"type": "draw", "seat": 2, "discard": ["7c", "8d"], "receive": ["Qs", "Th"]},
            "five-card-draw-7a",
            "seat 2 draws 2 cards: discards 7♣ 8♦, receives Q♠ 10♥",
        ),
        (
            {"type": "draw", "seat": 2, "discard": [], "receive": []},
            "five-card-draw-7a",
            "seat 2 stands pat",
        ),
        (
            {"type": "wager", "seat": 2, "ante": 500, "flush_bonus": 100},
            "high-card-flush",
            "seat 2 antes $5.00, flush bonus $1.00",
        ),
        (
            {"type": "deal", "seat": 3, "cards": ["As", "Kd", "2c"]},
            "high-card-flush",
            "deal to seat 3: A♠ K♦ 2♣",
        ),
        (
            {"type": "deal", "seat": 1, "card": "9h", "hand": 1},
            "pontoon",
            "deal to seat 1: 9♥ (hand 2)",
        ),
        ({"type": "stake", "seat": 2, "amount": 100}, "pontoon", "seat 2 stakes $1.00"),
        (
            {"type": "buy", "seat": 2, "amount": 100, "card": "5s"},
            "pontoon",
            "seat 2 buys 5♠ for $1.00",
        ),
        ({"type": "twist", "seat": 1, "card": "Jc"}, "pontoon", "seat 1 twists J♣"),
        (
            {"type": "sell_bank", "seat": 4, "buyer": 2, "price": 5000},
            "pontoon",
            "seat 4 sells the bank to seat 2 for $50.00",
        ),
        (
            {"type": "draw", "seat": 1, "source": "stock", "card": "Kc"},
            "paiute",
            "seat 1 draws K♣ from the stock",
        ),
        ({"type": "draw", "seat": 1, "source": "discard"}, "paiute", "seat 1 takes the discard"),
        (
            {"type": "call", "seat": 3, "discard": "4h"},
            "paiute",
            "seat 3 calls, discarding 4♥",
        ),
        (
            {"type": "battle", "seat": 2, "target": 3, "amount": 500},
            "palace-poker",
            "seat 2 attacks seat 3 for $5.00",
        ),
        (
            {"type": "discard", "seat": 1, "cards": ["2c", "3d"]},
            "palace-poker",
            "seat 1 discards 2♣ 3♦",
        ),
        # A type the describer does not know still reads plainly, its money as money.
        (
            {"type": "surrender", "seat": 4, "amount": 500},
            "some-new-game",
            "seat 4: surrender $5.00",
        ),
        ({"type": "insure", "seat": 0, "card": "Ah"}, None, "the house: insure A♥"),
    ],
)
def test_a_hand_action_in_words(action, code, words):
    assert describe.action_words(action, code) == words


def test_an_unknown_game_s_amounts_come_from_its_schemas():
    """A registered game's own amount fields are money because its schema says so (an
    integer up to the largest amount), not because the describer knows the name."""
    found = next(iter(registry().values()))
    money_fields = describe.money_keys(found.code)
    for schema in found.action_schemas.values():
        for name, field in schema.get("properties", {}).items():
            if field.get("type") == "integer" and field.get("maximum", 0) > 99:
                assert name in money_fields, (found.code, name)
    assert "seat" not in money_fields and "hand" not in money_fields


@pytest.mark.parametrize(
    ("action", "after", "words"),
    [
        ("hand_open", {"number": 12, "seats": [1, 2, 3, 4, 5]}, "hand 12 opened (seats 1-5)"),
        ("hand_open", {"number": 3, "seats": [2, 5]}, "hand 3 opened (seats 2, 5)"),
        (
            "hand_action",
            {"index": 4, "action": {"type": "raise", "seat": 3, "to": 800}},
            "seat 3 raises to $8.00",
        ),
        (
            "hand_settle",
            {"rake": 300, "nets": {"1": 1200, "2": -1500, "0": 0}},
            "hand settled: rake $3.00; seat 1 +$12.00, seat 2 −$15.00, the house $0.00",
        ),
        ("hand_void_requested", {"reason": "card exposed"}, "void asked: card exposed"),
        ("hand_void", {"reason": "card exposed"}, "hand voided: card exposed"),
        ("hand_void_rejected", {"note": "deal on"}, "void request rejected: deal on"),
        ("hand_settle_approved", {"note": ""}, "payout sign-off approved"),
        ("hand_correction_requested", {"reason": "no bonus bet"}, "correction asked: no bonus bet"),
        ("hand_actions", {"actions": [{}, {}, {}]}, "the hand's record entered: 3 actions"),
        ("table_open", {"status": "open"}, "table opened"),
        (
            "signoff_limit_set",
            {"line": 120000, "net": 500000},
            "sign-off limits set: $1,200.00 a line, $5,000.00 a net",
        ),
        ("rotation_offer", {"offer_seat": 2}, "rotation offer: offer seat 2"),
        # A game's own event: the seat it is about, its amounts in money, nothing empty.
        (
            "rotation_accept",
            {"seat": 1, "bank": 20_000, "designated_player": 1, "offer_seat": None},
            "rotation accept, seat 1: bank $200.00, designated player 1",
        ),
        (
            "hand_settle",
            {"rake": 0, "nets": {"2": 150_000}, "signatures": [{"by": "ver1"}, {"by": "boss"}]},
            "hand settled: rake $0.00; seat 2 +$1,500.00; signed off by ver1, boss",
        ),
        (
            "hand_settle_signed",
            {"tier": 1, "role": "floor_manager", "signed": 1, "needed": 2, "note": "seen"},
            "payout signed (tier 1, floor manager): 1 of 2 signatures: seen",
        ),
        (
            "hand_settle_held",
            {"over": ["seat 2 wins $1,500.00: above $1,199.99"], "nets": {"2": 150_000}},
            "settlement held for sign-off (seat 2 wins $1,500.00: above $1,199.99): "
            "seat 2 +$1,500.00",
        ),
        (
            "hand_settle_held",
            {"limits": {"line": 100, "net": 200}, "over": ["seat 2 wins 500"], "nets": {}},
            "settlement held for sign-off (above $1.00 a line or $2.00 a net)",
        ),
    ],
)
def test_an_audit_entry_in_words(action, after, words):
    assert describe.entry_words(action, None, after, game_code="five-card-draw-7a") == words


def test_a_seat_s_entry_names_the_seat_and_a_change_names_its_values():
    assert (
        describe.entry_words(
            "seat_update",
            {"player": "", "sitting_out": False},
            {"player": "Ana", "sitting_out": False},
            subject="table:4:seat:3",
        )
        == "Ana sits down at seat 3"
    )
    asked = describe.entry_words(
        "table_change_requested",
        {"ante_max": 10_000, "rules": {}},
        {"changes": {"ante_max": 20_000}, "reason": "busy night"},
        game_code="high-card-flush",
    )
    # Each option by its schema's title, as every desk writes it.
    title = registry()["high-card-flush"].limits_schema["properties"]["ante_max"].get("title")
    name = title or "ante max"
    assert asked == f"limit or rule change asked: {name} $100.00 → $200.00: busy night"


RULES = {
    "coverage": "original_bank",
    "flush_paytable": {"7": 200, "6": 50},
    "max_payout_per_hand": None,
    "ante_max": 10_000,
    "rake": {"scheme": "dp_only", "amount": 50, "percent": 5},
    "max_players": 6,
    "window_minutes": 40,
    "smallest_chip": 25,
}


def test_rules_read_in_words_by_their_names_when_the_schema_says_nothing(monkeypatch):
    found = registry()["high-card-flush"]
    monkeypatch.setattr(type(found), "rules_schema", {"type": "object"})
    shown = dict(describe.rules_words(found.code, RULES))
    assert shown == {
        "Coverage": "original bank",
        "Flush paytable": "7 200:1, 6 50:1",
        "Max payout per hand": "no limit",
        "Ante max": "$100.00",
        "Rake": "scheme: dp only; amount: $0.50; percent: 5%",
        "Max players": "6",
        "Window minutes": "40",
        "Smallest chip": "$0.25",
    }


def test_rules_read_in_the_schema_s_words_where_it_has_them(monkeypatch):
    """A game's schema names its options (``title``), says what a number is (``format``:
    money, odds, percent, count, minutes), what an empty value means (``x-null``) and each
    choice's words (``oneOf`` titled values): the page uses them all."""
    found = registry()["high-card-flush"]
    schema = {
        "type": "object",
        "properties": {
            "coverage": {
                "title": "bank coverage",
                "enum": ["running", "original_bank"],
                "oneOf": [
                    {"enum": ["running"], "title": "the bank and what it collects"},
                    {"enum": ["original_bank"], "title": "only the bank posted"},
                ],
            },
            "flush_paytable": {
                "title": "flush pay table",
                "properties": {
                    "7": {"title": "7 cards", "format": "odds"},
                    "6": {"title": "6 cards", "format": "odds"},
                },
            },
            "max_payout_per_hand": {"title": "largest payout", "x-null": "no cap"},
            "ante_max": {"title": "ante maximum", "format": "money"},
            "rake": {
                "title": "collection fee",
                "properties": {
                    "scheme": {
                        "title": "who pays",
                        "enum": ["dp_only"],
                        "oneOf": [{"enum": ["dp_only"], "title": "the designated player only"}],
                    },
                    "amount": {"title": "fee per hand", "format": "money"},
                    "percent": {"title": "share", "format": "percent"},
                },
            },
            "max_players": {"title": "most players", "format": "count"},
            "window_minutes": {"title": "rolling window", "format": "minutes"},
            "smallest_chip": {"title": "smallest chip", "format": "money"},
        },
    }
    monkeypatch.setattr(type(found), "rules_schema", schema)
    shown = dict(describe.rules_words(found.code, RULES))
    assert shown == {
        "Bank coverage": "only the bank posted",
        "Flush pay table": "7 cards 200:1, 6 cards 50:1",
        "Largest payout": "no cap",
        "Ante maximum": "$100.00",
        "Collection fee": "who pays: the designated player only; fee per hand: $0.50; share: 5%",
        "Most players": "6",
        "Rolling window": "40 minutes",
        "Smallest chip": "$0.25",
    }


# ---------------------------------------------------------------- the page, every game


def test_every_game_s_settlement_page_carries_its_replay_in_words_and_money(reader, floor, dealer):
    codes = sorted(registry())
    assert len(codes) >= 5
    for code in codes:
        settlement = play_hand(code, floor=floor, dealer=dealer)
        page = page_of(reader, settlement)
        steps = replay_data(page)
        history = History.from_dict(settlement.history)
        # The hand as it opened, each action, the settlement: the presentation the tablet
        # draws at each, and the action's words.
        assert len(steps) == len(history.actions) + 2, code
        state = game(code).new_hand(history.config, history.rules)
        assert steps[0]["title"] == "The hand as it opened"
        assert steps[0]["view"] == hand_view(state, code)["presentation"], code
        for index, action in enumerate(history.actions):
            state.apply(action, index)
            step = steps[index + 1]
            words = describe.action_words(action, code)
            assert step["title"] == words[:1].upper() + words[1:], code
            assert step["view"] == hand_view(state, code)["presentation"], (code, index)
            to_act = step["view"]["to_act"] if step["view"] else None
            if state.complete:
                assert step["state"] == "the hand is complete"
            elif to_act is not None:
                assert step["state"] == f"{describe.party_words(to_act)} to act"
        end = steps[-1]
        rows = {str(row.seat): row.net for row in settlement.seats.all()}
        assert end["nets"] == rows, code
        for seat, net in rows.items():
            assert f"{describe.party_words(seat)} {money(net, True)}" in end["title"], code
        text = visible_text(page)
        assert "Replaying the history gives the stored result exactly." in text, code
        # Amounts in the one format, words not JSON.
        assert money(settlement.rake) in text
        assert not re.search(r'[{\[]\s*"|":\s', text), (code, "JSON on the page")
        assert "minor units" not in text and "as JSON" not in text
        # The hand's action entries say what they record, as the replay's titles do.
        for entry in AuditEntry.objects.filter(hand=settlement.hand, action="hand_action"):
            words = describe.action_words(entry.after["action"], code)
            row = re.search(rf'<tr data-seq="{entry.seq}".*?</tr>', page, re.S)
            assert row and html.escape(words) in row.group(0), (code, words)


def test_the_records_are_folded_under_one_line_summaries(reader, floor, dealer):
    settlement = play_hand("high-card-flush", floor=floor, dealer=dealer)
    page = page_of(reader, settlement)
    parties = settlement.seats.count()
    lines = sum(row.lines.count() for row in settlement.seats.all())
    folds = dict(
        re.findall(
            r'<details class="fold" id="([a-z-]+)"[^>]*>\s*<summary>(.*?)</summary>', page, re.S
        )
    )
    assert set(folds) >= {
        "payouts-fold",
        "rules-fold",
        "signoffs-fold",
        "entries-fold",
        "inclusion-fold",
    }
    payouts = visible_text(folds["payouts-fold"])
    assert payouts == (
        f"Payouts by party {parties} parties, {lines} line{'s' if lines != 1 else ''}, "
        f"rake {money(settlement.rake)}"
    )
    entries = AuditEntry.objects.filter(hand=settlement.hand).order_by("seq")
    assert visible_text(folds["entries-fold"]) == (
        f"Audit entries of this hand {entries.count()} entries, "
        f"{entries.first().seq} to {entries.last().seq}"
    )
    assert visible_text(folds["signoffs-fold"]) == "Sign-offs none"
    assert (
        visible_text(folds["inclusion-fold"]) == "In the signed tree not in a signed checkpoint yet"
    )
    # The explanation (in money, as the API serves it) and the replay are not folded.
    shown = re.search(r'<ol class="explanation" id="explanation">(.*?)</ol>', page, re.S)
    assert shown and re.search(r'<section class="replay" id="replay"', page)
    assert [visible_text(line) for line in re.findall(r"<li>(.*?)</li>", shown.group(1))] == (
        explanation_text(settlement.result)
    )
    assert "$" in shown.group(1)
    # Each party's net with its sign, each line's amount, in the one money format.
    for row in settlement.seats.all():
        party = re.search(rf'<div class="panel party" data-seat="{row.seat}">.*?</div>', page, re.S)
        assert (
            party and f'data-net="{row.net}">{html.escape(money(row.net, True))}<' in party.group(0)
        )


def test_a_replay_the_game_refuses_stops_in_words_with_no_settlement_step(reader, floor, dealer):
    from tests.payouts.forgery import as_database_superuser

    settlement = play_hand("five-card-draw-7a", floor=floor, dealer=dealer)
    history = {**settlement.history, "actions": [{"type": "juggle", "seat": 2, "amount": 700}]}
    with as_database_superuser():
        Settlement.objects.filter(pk=settlement.pk).update(history=history)
    page = page_of(reader, settlement)
    stopped = re.search(r'<p role="alert" id="replay-error">(.*?)</p>', page, re.S)
    assert stopped and "step 1 (seat 2: juggle $7.00) is refused" in html.unescape(stopped.group(1))
    assert [step["title"] for step in replay_data(page)] == ["The hand as it opened"]


# ---------------------------------------------------------------- the audit log


def test_the_audit_log_says_what_each_entry_records(reader, draw_table, dealer, client_for):
    api = client_for(dealer)
    hand = open_hand(api, draw_table)
    state = hand["state"]
    raised = False
    while state["to_act"] is not None:
        seat = state["to_act"]
        legal = {a["type"]: a for a in state["legal_actions"]}
        if "raise" in legal and not raised:
            action = {"seat": seat, "type": "raise", "to": legal["raise"]["min"]}
            raised = True
        elif "draw" in legal:
            action = {"seat": seat, "type": "draw", "discard": [], "receive": []}
        elif "check" in legal:
            action = {"seat": seat, "type": "check"}
        else:
            action = {"seat": seat, "type": "call"}
        response = act(api, hand["id"], action)
        assert response.status_code == 200, response.json()
        state = response.json()
    assert raised
    assert api.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json").status_code == 201
    response = reader.get(reverse("compliance-audit"), {"table": draw_table.pk})
    text = visible_text(response.content.decode())
    raise_entry = next(
        entry
        for entry in AuditEntry.objects.filter(hand_id=hand["id"], action="hand_action")
        if entry.after["action"]["type"] == "raise"
    )
    step = raise_entry.after["action"]
    assert f"seat {step['seat']} raises to {money(step['to'])}" in text
    assert f"hand {hand['number']} opened (seats {describe.seats_words(hand['seats'])})" in text
    settlement = Settlement.objects.get(hand_id=hand["id"])
    assert f"hand settled: rake {money(settlement.rake)}" in text
    assert "hand_action" not in text and "hand_open" not in text
