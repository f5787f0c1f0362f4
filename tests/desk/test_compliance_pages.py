"""The compliance desk through Django's test client: settlements searched and filtered, one
settlement's whole story (its hand replayed step by step, lines, sign-offs, audit entries),
the audit log, and an audit check started from the page and followed to its verdict."""

from __future__ import annotations

import datetime as dt
import re
import threading
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connections
from django.urls import reverse
from django.utils import timezone

from approvals.models import Approval
from casino.core.i18n import explanation_text
from casino.core.money import money
from casino.rules.contract import History, game, hand_view
from desk.compliance import describe, views
from payouts import audit
from payouts.models import (
    AuditCheck,
    AuditEntry,
    AuditLeaf,
    SeatSettlement,
    Settlement,
    SignoffPolicy,
)
from payouts.tasks import audit_check_task
from tables import services
from tables.models import Hand, Table
from tests.conftest import record, seat_and_open
from tests.desk.helpers import text
from tests.payouts.forgery import as_database_superuser
from tests.payouts.test_audit_replays_every_game import PALACE_STEPS
from tests.payouts.test_audit_replays_every_game import play as play_by_services
from tests.tables.test_draw_live import open_hand as open_draw_hand
from tests.tables.test_draw_live import play_passively
from tests.tables.test_paiute_live import DEAL, STEPS, paiute_table  # noqa: F401 (fixture)
from tests.tables.test_palace_live import PLAYERS as PALACE_PLAYERS
from tests.tables.test_palace_live import palace_table  # noqa: F401 (fixture)
from tests.tables.test_pontoon_live import assign as choose_banker
from tests.tables.test_pontoon_live import open_hand as open_pontoon_hand
from tests.tables.test_pontoon_live import play as play_pontoon
from tests.tables.test_pontoon_live import pontoon_table  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
SEAT4_CARDS = ["Qs", "Js", "Ts", "8c", "7c", "6h", "8d"]  # a 3-card flush Q-J-T, unused elsewhere
NOTE = "paid in my presence"


def shown(response: Any) -> list[int]:
    """The settlements listed on the page, in order."""
    return [int(pk) for pk in re.findall(r'<tr data-settlement="(\d+)"', text(response))]


def block(response: Any, pattern: str) -> str:
    found = re.search(pattern, text(response), re.S)
    assert found, f"nothing on the page matches {pattern!r}"
    return found.group(0)


def words(markup: str) -> str:
    """Markup as read: the text without tags, spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", markup).replace(" :", ":").split())


def alert(response: Any) -> str:
    return words(block(response, r'<div role="alert" class="form-errors".*?</div>'))


@dataclass
class Floor:
    """Three settlements: ``signed`` (HCF-T, held as a large payout and signed off by the
    floor), ``draw`` (7A-1, played action by action) and ``older`` (HCF-2, three days ago,
    by another dealer, with seat 4 playing)."""

    signed: Settlement
    draw: Settlement
    older: Settlement
    approval: Approval
    hcf2: Table

    @property
    def all(self) -> list[Settlement]:
        return [self.signed, self.draw, self.older]


@pytest.fixture
def settled(dp_table, draw_table, dealer, other_dealer, floor, client_for, monkeypatch) -> Floor:
    as_dealer = client_for(dealer)
    # HCF-T: every line above 1 needs a signature; the dealer settles, the floor signs.
    SignoffPolicy.objects.create(
        table=dp_table, tiers=[{"above": 1, "role": "floor_manager", "count": 1}], set_by=floor
    )
    hand = as_dealer.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    held = as_dealer.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    assert held.status_code == 202, held.json()
    approval_id = held.json()["approval"]["id"]
    signed = client_for(floor).post(
        f"/api/v1/approvals/{approval_id}/approve/", {"note": NOTE}, format="json"
    )
    assert signed.status_code == 200, signed.json()
    # 7A-1: a live hand, every seat calling and checking to the showdown.
    draw = open_draw_hand(as_dealer, draw_table)
    play_passively(as_dealer, draw)
    response = as_dealer.post(f"/api/v1/hands/{draw['id']}/settle/", {}, format="json")
    assert response.status_code == 201, response.json()
    # HCF-2: another dealer's table, seat 4 in the hand, settled three days ago.
    hcf2 = services.table_create(
        user=floor,
        name="HCF-2",
        game="high-card-flush",
        seat_count=7,
        dealer=other_dealer,
        limits={"ante_min": 100, "ante_max": 10_000, "bank_min": 5_000, "bank_max": 1_000_000},
        rules={"rake": {"scheme": "per_player", "amount": 100}},
    )
    seat_and_open(floor, hcf2, {1: "Ana", 2: "Bela", 3: "Csilla", 4: "Dani"})
    services.game_act(
        user=other_dealer, table_id=hcf2.pk, action={"type": "accept", "seat": 1, "bank": 50_000}
    )
    as_other = client_for(other_dealer)
    older = as_other.post(f"/api/v1/tables/{hcf2.pk}/hands/").json()
    players = [
        *record()["players"],
        {"seat": 4, "cards": SEAT4_CARDS, "ante": 500, "raise": 0},
    ]
    three_days_ago = timezone.now() - dt.timedelta(days=3)
    with monkeypatch.context() as frozen:
        frozen.setattr(timezone, "now", lambda: three_days_ago)
        response = as_other.post(
            f"/api/v1/hands/{older['id']}/settle/", record(players=players), format="json"
        )
    assert response.status_code == 201, response.json()
    return Floor(
        signed=Settlement.objects.get(hand_id=hand["id"]),
        draw=Settlement.objects.get(hand_id=draw["id"]),
        older=Settlement.objects.get(hand_id=older["id"]),
        approval=Approval.objects.get(pk=approval_id),
        hcf2=hcf2,
    )


def players(settlement: Settlement) -> list[SeatSettlement]:
    return [row for row in settlement.seats.all() if row.seat != 0]


def biggest_net(settlement: Settlement) -> int:
    return max(abs(row.net) for row in players(settlement))


def biggest_line(settlement: Settlement) -> int:
    return max(line.amount for row in players(settlement) for line in row.lines.all())


@pytest.fixture
def reader(client, compliance):
    client.force_login(compliance)
    return client


def settlements_page(client: Any, **params: Any) -> Any:
    return client.get(reverse("compliance-settlements"), params)


# ---------------------------------------------------------------- who may read


@pytest.mark.parametrize(
    "name", ["compliance-settlements", "compliance-settlement", "compliance-audit", "check"]
)
def test_compliance_and_the_floor_read_a_dealer_is_refused_and_a_visitor_logs_in(
    name, settled, client, compliance, floor, dealer
):
    check = AuditCheck.objects.create(requested_by=compliance)
    url = {
        "compliance-settlement": reverse("compliance-settlement", args=[settled.draw.pk]),
        "check": reverse("compliance-audit-check", args=[check.pk]),
    }.get(name) or reverse(name)
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    client.force_login(dealer)
    assert client.get(url).status_code == 403
    for user in (compliance, floor):
        client.force_login(user)
        assert client.get(url).status_code == 200


def test_a_dealer_cannot_start_an_audit_check_from_the_page(client, dealer):
    client.force_login(dealer)
    assert client.post(reverse("compliance-audit-check-start")).status_code == 403
    client.logout()
    assert client.post(reverse("compliance-audit-check-start")).status_code == 302
    assert not AuditCheck.objects.exists()


# ---------------------------------------------------------------- the settlements list


def test_every_settlement_is_listed_newest_first_with_a_count_and_totals(settled, reader):
    response = settlements_page(reader)
    assert response.status_code == 200
    assert shown(response) == [settled.draw.pk, settled.signed.pk, settled.older.pk]
    page = text(response)
    assert "3 settlements match" in page
    rows = [row for s in settled.all for row in players(s)]
    lines = [line for row in rows for line in row.lines.all() if line.against is None]
    expected = {
        "hands": 3,
        "handle": sum(line.stake for line in lines),
        "payouts": sum(line.amount for line in lines if line.amount > 0),
        "rake": sum(s.rake for s in settled.all),
        "win": -sum(row.net for row in rows),
    }
    for name, value in expected.items():
        shown_value = value if name == "hands" else money(value)  # amounts in money
        assert f'data-total="{name}">{shown_value}<' in page, name
    # Each row names its table and hand, game, dealer, seats and status.
    signed_row = block(response, rf'<tr data-settlement="{settled.signed.pk}">.*?</tr>')
    assert "HCF-T hand 1" in signed_row and "High Card Flush" in signed_row
    assert "signed off" in signed_row and ">dealer<" in signed_row and "1, 2, 3" in signed_row
    older_row = block(response, rf'<tr data-settlement="{settled.older.pk}">.*?</tr>')
    assert "other_dealer" in older_row and "settled normally" in older_row


def major(minor: int) -> str:
    """Minor units typed as an amount of the house currency (two decimals): 1205 -> 12.05."""
    return f"{minor // 100}.{minor % 100:02d}"


def moment(settlement: Settlement, local: bool = False) -> str:
    """When it was settled, as a link writes it (with its offset) or as typed (local time)."""
    at = timezone.localtime(settlement.settled_at)
    return at.replace(tzinfo=None).isoformat(" ") if local else at.isoformat()


def test_each_filter_narrows_the_list(settled, reader, draw_table, dp_table, other_dealer):
    today = timezone.localdate()
    older_day = timezone.localtime(settled.older.settled_at).date().isoformat()
    signed, draw, older = settled.signed.pk, settled.draw.pk, settled.older.pk
    draw_net, draw_line = biggest_net(settled.draw), biggest_line(settled.draw)
    assert min(biggest_net(settled.signed), biggest_net(settled.older)) > draw_net
    assert min(biggest_line(settled.signed), biggest_line(settled.older)) > draw_line
    cases = [
        ({"table": dp_table.pk}, [signed]),
        ({"table": settled.hcf2.pk}, [older]),
        ({"game": "five-card-draw-7a"}, [draw]),
        ({"game": "high-card-flush"}, [signed, older]),
        ({"dealer": other_dealer.username}, [older]),
        ({"dealer": "dealer"}, [draw, signed]),
        ({"seat": 4}, [older]),
        ({"seat": 1}, [draw, signed, older]),
        ({"date_from": (today - dt.timedelta(days=1)).isoformat()}, [draw, signed]),
        ({"date_to": (today - dt.timedelta(days=2)).isoformat()}, [older]),
        (
            {
                "date_from": (today - dt.timedelta(days=3)).isoformat(),
                "date_to": (today - dt.timedelta(days=3)).isoformat(),
            },
            [older],
        ),
        ({"date_to": (today - dt.timedelta(days=4)).isoformat()}, []),
        ({"date_from": "0001-01-01", "date_to": "9999-12-31"}, [draw, signed, older]),
        ({"min_net": major(draw_net)}, [draw, signed, older]),
        ({"min_net": major(draw_net + 1)}, [signed, older]),
        ({"min_payout": f"${major(draw_line + 1)}"}, [signed, older]),
        ({"min_payout": major(biggest_line(settled.signed) + 1)}, []),
        ({"status": "signed_off"}, [signed]),
        ({"status": "normal"}, [draw, older]),
        ({"game": "high-card-flush", "status": "normal"}, [older]),
        # Moments, to the microsecond: from is included, before is not.
        ({"settled_from": moment(settled.draw)}, [draw]),
        ({"settled_to": moment(settled.draw)}, [signed, older]),
        ({"settled_from": moment(settled.signed), "settled_to": moment(settled.draw)}, [signed]),
        ({"settled_from": moment(settled.older, local=True), "date_to": older_day}, [older]),
        ({"settled_to": moment(settled.signed), "table": dp_table.pk}, []),
    ]
    for params, expected in cases:
        response = settlements_page(reader, **params)
        assert response.status_code == 200, (params, text(response))
        assert shown(response) == expected, params
        count = len(expected)
        assert f"{count} settlement{'' if count == 1 else 's'} match" in text(response), params
        if not expected:
            assert "No settlement matches these filters." in text(response)


def test_the_totals_are_those_of_the_filtered_settlements(settled, reader):
    response = settlements_page(reader, status="signed_off")
    page = text(response)
    assert 'data-total="hands">1<' in page
    assert f'data-total="rake">{money(settled.signed.rake)}<' in page
    win = -sum(row.net for row in players(settled.signed))
    assert f'data-total="win">{money(win)}<' in page


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"seat": "two"}, "Seat took part: a seat is a whole number from 1 to 99"),
        ({"seat": "0"}, "a seat is a whole number from 1 to 99"),
        ({"date_from": "2026-02-30"}, "From (date): a date is written YYYY-MM-DD"),
        ({"date_from": "2026-03-05", "date_to": "2026-03-01"}, "the range ends (2026-03-01)"),
        ({"table": "999999"}, "Table: there is no such table"),
        ({"table": "HCF-T"}, "there is no such table"),
        ({"table": "9" * 30}, "there is no such table"),
        ({"game": "snap"}, "Game: there is no such game"),
        ({"dealer": "nobody"}, "nobody of that name has settled a hand"),
        ({"min_net": "-5"}, "an amount is written in USD with at most 2 decimals, from $0.01"),
        ({"min_payout": "1.505"}, "A payout line paid at least (USD): an amount is written in"),
        ({"min_payout": "9" * 20}, "an amount is written in USD with at most 2 decimals"),
        ({"status": "lost"}, "status is any, signed off or settled normally"),
        ({"settled_from": "noon"}, "Settled from (moment, included): a moment is written YYYY"),
        ({"settled_to": "2026-02-30 10:00"}, "Settled before (moment): a moment is written"),
        (
            {"settled_from": "2026-03-05 10:00", "settled_to": "2026-03-05 09:59:59"},
            "the moments end (2026-03-05 09:59:59) before they start (2026-03-05 10:00:00)",
        ),
    ],
)
def test_a_bad_filter_value_is_named_on_the_page_and_lists_nothing(
    params, message, settled, reader
):
    response = settlements_page(reader, **params)
    assert response.status_code == 400
    assert message in alert(response)
    assert shown(response) == [] and "settlements match" not in text(response)
    # The form keeps what was typed, to correct it.
    for name, value in params.items():
        if name in ("seat", "date_from", "date_to", "min_net", "min_payout", "settled_from"):
            assert f'name="{name}" value="{value}"' in text(response)


def test_pages_of_settlements_keep_the_query_string(settled, reader, monkeypatch):
    monkeypatch.setattr(views, "PAGE_SIZE", 2)
    first = settlements_page(reader, seat=1)
    assert shown(first) == [settled.draw.pk, settled.signed.pk]
    assert "3 settlements match" in text(first) and "Page 1 of 2" in text(first)
    link = re.search(r'<a class="button" rel="next" href="([^"]+)"', text(first)).group(1)
    assert "seat=1" in link and "page=2" in link
    second = reader.get(reverse("compliance-settlements") + link)
    assert shown(second) == [settled.older.pk]
    assert "Page 2 of 2" in text(second) and 'data-total="hands">3<' in text(second)
    previous = re.search(r'rel="prev" href="([^"]+)"', text(second)).group(1)
    assert "seat=1" in previous and "page=1" in previous
    # A page number that is not one shows a page, never an error.
    assert shown(settlements_page(reader, seat=1, page="lots")) == shown(first)


# ---------------------------------------------------------------- one settlement


def test_a_settlement_page_replays_every_step_and_shows_every_line_and_entry(settled, reader):
    settlement = settled.draw
    response = reader.get(reverse("compliance-settlement", args=[settlement.pk]))
    assert response.status_code == 200
    page = text(response)
    assert "Settlement" in page and "7A-1 hand 1" in page
    # Every step: the hand as it opened, then each action with whose turn it is and the pot,
    # as the game's own replay says.
    history = History.from_dict(settlement.history)
    found = game(history.game)
    state = found.new_hand(history.config, history.rules)
    steps = [(None, hand_view(state, history.game))]
    for index, action in enumerate(history.actions):
        state.apply(action, index)
        steps.append((action, hand_view(state, history.game)))
    assert len(steps) == len(history.actions) + 1 > 5
    for number, (action, view) in enumerate(steps):
        step = block(response, rf'<li data-step="{number}">.*?</li>')
        if action is not None:
            words = describe.action_words(action, history.game)
            assert words[:1].upper() + words[1:] in step
        if view["complete"]:
            assert "the hand is complete" in step
        else:
            assert f"seat {view['to_act']} to act" in step
    assert "The hand as it opened" in block(response, r'<li data-step="0">.*?</li>')
    assert "The hand settled: " in block(response, rf'<li data-step="{len(steps)}">.*?</li>')
    assert "Replaying the history gives the stored result exactly." in page
    # Every party's lines with the party's rake and net, in money.
    for row in settlement.seats.all():
        party = block(response, rf'<div class="panel party" data-seat="{row.seat}">.*?</div>')
        assert f'data-net="{row.net}">{money(row.net, True)}<' in party
        assert f'class="rake">{money(row.rake)}<' in party
        for index, line in enumerate(row.lines.all()):
            cells = block(response, rf'data-seat="{row.seat}">.*?<tr data-line="{index}">.*?</tr>')
            assert f"<td>{line.wager}</td>" in cells and f"<td>{line.outcome}</td>" in cells
            assert f'class="num amount">{money(line.amount)}<' in cells
    assert f'id="total-rake">{money(settlement.rake)}<' in page
    for line in explanation_text(settlement.result):
        assert line in page
    # The frozen rules in words, and every audit entry of the hand in order with its seal.
    rules = block(response, r'<dl class="definitions" id="rules">.*?</dl>')
    assert "<dt>" in rules and "{" not in rules
    entries = AuditEntry.objects.filter(hand=settlement.hand).order_by("seq")
    actions = [e.action for e in entries]
    assert actions.count("hand_action") == len(history.actions)
    assert {"hand_open", "hand_settle"} <= set(actions)
    listed = [int(seq) for seq in re.findall(r'<tr data-seq="(\d+)"', page)]
    assert listed == [e.seq for e in entries]
    for entry in entries:
        row = block(response, rf'<tr data-seq="{entry.seq}" data-action="{entry.action}">.*?</tr>')
        assert entry.hash in row and entry.actor_name in row
        words = describe.entry_words(
            entry.action,
            entry.before,
            entry.after,
            game_code="five-card-draw-7a",
            hand_number=settlement.hand.number,
        )
        assert words in row
    assert "Nothing about this hand waited for a second person." in page


def settle_one(which: str, dealer: Any, client_for: Any, request: Any) -> Settlement:
    """A settled hand of a game the desk's code never names (the test-only house-banked game
    is shown the same way, in tests/games/)."""
    if which in ("paiute", "palace-poker"):
        if which == "paiute":
            table, body, steps = request.getfixturevalue("paiute_table"), DEAL, STEPS
        else:
            table, body, steps = (
                request.getfixturevalue("palace_table"),
                {"players": PALACE_PLAYERS},
                PALACE_STEPS,
            )
        return play_by_services(dealer, table, body, steps)
    client = client_for(dealer)
    table = request.getfixturevalue("pontoon_table")
    assert choose_banker(client, table, 3).status_code == 200
    hand = open_pontoon_hand(client, table)
    cards = {1: ["As", "Kc"], 2: ["9h", "9c"], 3: ["Td", "7d"]}
    play_pontoon(client, hand, cards=cards, stakes={1: 100, 2: 200})
    response = client.post(f"/api/v1/hands/{hand['id']}/settle/", {}, format="json")
    assert response.status_code == 201, response.json()
    return Settlement.objects.get(hand_id=hand["id"])


@pytest.mark.parametrize("which", ["paiute", "palace-poker", "pontoon"])
def test_every_game_is_replayed_step_by_step_from_the_registry(
    which, dealer, client_for, request, reader
):
    settlement = settle_one(which, dealer, client_for, request)
    assert settlement.history["game"] == which
    response = reader.get(reverse("compliance-settlement", args=[settlement.pk]))
    assert response.status_code == 200
    page = text(response)
    steps = len(settlement.history["actions"]) + 2  # as it opened, each action, settled
    assert re.findall(r'<li data-step="(\d+)">', page) == [str(n) for n in range(steps)]
    assert "the hand is complete" in block(response, rf'<li data-step="{steps - 1}">.*?</li>')
    assert "Replaying the history gives the stored result exactly." in page
    assert game(which).name in block(response, r'<dl class="facts".*?</dl>')
    for row in settlement.seats.all():
        party = block(response, rf'<div class="panel party" data-seat="{row.seat}">.*?</div>')
        assert f'data-net="{row.net}">{money(row.net, True)}<' in party
        assert len(re.findall(r"<tr data-line=", party)) == row.lines.count()
    # The settlements list offers the game by its name and narrows to it.
    listed = settlements_page(reader, game=which)
    assert f'<option value="{which}" selected>{game(which).name}</option>' in text(listed)
    assert shown(listed) == [settlement.pk]


def test_a_signed_off_settlement_shows_who_asked_who_signed_and_the_note(settled, reader):
    response = reader.get(reverse("compliance-settlement", args=[settled.signed.pk]))
    assert "signed off" in block(response, r'<dl class="facts".*?</dl>')
    row = block(response, rf'<tr data-approval="{settled.approval.pk}">.*?</tr>')
    assert "large-payout sign-off" in row and "approved" in row
    assert "<td>dealer</td>" in row and "<td>floor</td>" in row and NOTE in row
    assert settled.approval.reason in row
    actions = [e.action for e in AuditEntry.objects.filter(hand=settled.signed.hand)]
    assert "hand_settle_held" in actions and "hand_settle" in actions
    for action, words in (
        ("hand_settle_held", "settlement held for sign-off"),
        ("hand_actions", "the hand's record entered: "),
        ("hand_settle", "hand settled: rake "),
    ):
        assert words in block(response, rf'<tr data-seq="\d+" data-action="{action}">.*?</tr>')
    # The designated player's and the players' lines, each with its amount.
    party = block(response, r'<div class="panel party" data-seat="1">.*?</div>')
    assert "designated player" in party and "4-card flush" in party


def test_an_unreplayable_history_is_shown_as_such_not_a_server_error(settled, reader):
    history = {**settled.older.history, "actions": [{"type": "juggle", "seat": 2}]}
    with as_database_superuser():
        Settlement.objects.filter(pk=settled.older.pk).update(history=history)
    response = reader.get(reverse("compliance-settlement", args=[settled.older.pk]))
    assert response.status_code == 200
    stopped = block(response, r'<p role="alert" id="replay-error">.*?</p>')
    assert "step 1 (seat 2: juggle) is refused" in stopped
    for unknown in (999999, 10**30):
        assert reader.get(reverse("compliance-settlement", args=[unknown])).status_code == 404
        assert reader.get(reverse("compliance-audit-check", args=[unknown])).status_code == 404


# ---------------------------------------------------------------- the audit log


def entries_shown(response: Any) -> list[int]:
    return [int(seq) for seq in re.findall(r'<tr data-seq="(\d+)"', text(response))]


def test_the_audit_log_filters_by_action_actor_table_and_date(settled, reader, monkeypatch):
    monkeypatch.setattr(views, "PAGE_SIZE", 1000)
    url = reverse("compliance-audit")
    every = list(AuditEntry.objects.order_by("-seq"))
    assert entries_shown(reader.get(url)) == [e.seq for e in every]
    settles = reader.get(url, {"action": "hand_settle"})
    assert entries_shown(settles) == [e.seq for e in every if e.action == "hand_settle"]
    assert len(entries_shown(settles)) == 3 and "3 entries match" in text(settles)
    mine = reader.get(url, {"actor": "OTHER_"})
    assert entries_shown(mine) == [e.seq for e in every if e.actor_name == "other_dealer"]
    at_hcf2 = reader.get(url, {"table": settled.hcf2.pk})
    assert entries_shown(at_hcf2) == [e.seq for e in every if e.table_id == settled.hcf2.pk]
    old_day = timezone.localdate() - dt.timedelta(days=3)
    back_then = reader.get(url, {"date_from": old_day, "date_to": old_day})
    expected = [e.seq for e in every if timezone.localdate(e.at) == old_day]
    assert entries_shown(back_then) == expected and expected
    both = reader.get(url, {"action": "hand_settle", "table": settled.hcf2.pk})
    [entry] = [e for e in every if e.action == "hand_settle" and e.table_id == settled.hcf2.pk]
    assert entries_shown(both) == [entry.seq]
    # A settled hand's entry links to its settlement.
    assert reverse("compliance-settlement", args=[settled.older.pk]) in text(both)


def test_a_bad_audit_filter_is_named_and_pages_keep_the_filters(settled, reader, monkeypatch):
    url = reverse("compliance-audit")
    bad = reader.get(url, {"action": "hand_shuffle", "date_to": "yesterday", "table": "9" * 30})
    assert bad.status_code == 400
    assert "Action: no audit entry has that action" in alert(bad)
    assert "a date is written YYYY-MM-DD" in alert(bad)
    assert "Table: there is no such table" in alert(bad)
    assert "Actor name contains: an actor's name is at most 150 characters" in alert(
        reader.get(url, {"actor": "x" * 151})
    )
    assert entries_shown(bad) == []
    monkeypatch.setattr(views, "PAGE_SIZE", 3)
    actions = list(
        AuditEntry.objects.filter(action="hand_action")
        .order_by("-seq")
        .values_list("seq", flat=True)
    )
    first = reader.get(url, {"action": "hand_action"})
    assert entries_shown(first) == actions[:3]
    link = re.search(r'rel="next" href="([^"]+)"', text(first)).group(1)
    assert "action=hand_action" in link
    assert entries_shown(reader.get(url + link)) == actions[3:6]


# ---------------------------------------------------------------- the audit check


def test_an_audit_check_started_from_the_page_passes_with_its_progress_complete(
    settled, reader, compliance, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = reader.post(reverse("compliance-audit-check-start"))
    check = AuditCheck.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("compliance-audit-check", args=[check.pk])
    assert (check.status, check.requested_by) == ("passed", compliance)
    entries, hands = AuditEntry.objects.count(), Hand.objects.count()
    assert check.stage == "done" and check.checked == check.total
    assert check.total >= (entries - 1) + hands  # the check's own entry comes after it
    page = reader.get(response["Location"])
    assert 'id="check-status">passed<' in text(page)
    assert f"Checked {check.checked} of {check.total} audit entries, hands and tree leaves" in text(
        page
    )
    assert "every hand checked (3 hands, 3 settlements) matches" in text(page)
    assert "every signed checkpoint in the anchor file agrees with it" in text(page)
    assert "3 settlements held to the signed tree" in text(page)
    sealed = AuditEntry.objects.get(action="audit_check")
    assert f"Verdict sealed in audit entry {sealed.seq} of the house chain." in text(page)
    assert "hx-trigger" not in block(page, r'<section id="audit-check".*?>')
    # The audit log lists it among the recent checks; the API shows its progress too.
    log = reader.get(reverse("compliance-audit"))
    assert re.search(rf'<tr data-check="{check.pk}">.*?passed', text(log), re.S)
    standing = block(log, r'<dl class="facts" id="audit-standing">.*?</dl>')
    assert "Last full check passed</dt>" in standing and f"check {check.pk}</a>" in standing
    api = reader.get(f"/api/v1/audit/checks/{check.pk}/").json()
    assert (api["stage"], api["checked"], api["total"]) == ("done", check.checked, check.total)


def test_the_page_watches_a_running_check_until_it_is_done(
    settled, reader, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        started = reader.post(reverse("compliance-audit-check-start"), **HTMX)
        # Until the request's transaction commits the task has not run: the page sees it
        # waiting and polls for its progress every second.
        assert started.status_code == 200
        running = block(started, r'<section id="audit-check".*?>')
        check = AuditCheck.objects.get()
        progress = reverse("compliance-audit-check-progress", args=[check.pk])
        assert f'hx-get="{progress}"' in running and 'hx-trigger="every 1s"' in running
        assert 'id="check-status">running<' in text(started)
        assert "Waiting for a worker." in text(started)
    done = reader.get(progress)
    assert 'id="check-status">passed<' in text(done)
    assert "hx-trigger" not in text(done)
    assert "<html" not in text(done)  # the part of the page, not a whole page


def test_the_audit_log_watches_a_check_still_running(
    settled, reader, compliance, django_capture_on_commit_callbacks
):
    check = AuditCheck.objects.create(requested_by=compliance)  # queued, started elsewhere
    slot = block(
        reader.get(reverse("compliance-audit")), r'<div id="audit-check-slot">.*?</section>'
    )
    assert f'data-check="{check.pk}"' in slot and 'hx-trigger="every 1s"' in slot
    with django_capture_on_commit_callbacks(execute=True):
        audit_check_task(check.pk)  # done: nothing left to watch
    assert '<div id="audit-check-slot"></div>' in text(reader.get(reverse("compliance-audit")))


def test_the_check_writes_its_progress_on_its_row_as_it_goes(
    settled, reader, monkeypatch, django_capture_on_commit_callbacks
):
    seen: list[tuple[str, int, int]] = []
    flush = audit.Progress.flush

    def watched(progress: audit.Progress) -> None:
        flush(progress)
        row = AuditCheck.objects.get(pk=progress.check_id)
        seen.append((row.stage, row.checked, row.total))

    monkeypatch.setattr(audit, "PROGRESS_EVERY", 5)
    monkeypatch.setattr(audit.Progress, "flush", watched)
    with django_capture_on_commit_callbacks(execute=True):
        reader.post(reverse("compliance-audit-check-start"))
    # Every entry (less the check's own), hand and leaf of the settlements' tree.
    total = AuditEntry.objects.count() - 1 + Hand.objects.count() + AuditLeaf.objects.count()
    row = AuditCheck.objects.get()
    assert (row.status, row.stage, row.checked, row.total) == ("passed", "done", total, total)
    checked = [c for _, c, _ in seen]
    assert checked == sorted(checked) and checked[-1] == total
    assert all(s == "checking" and t == total for s, _, t in seen)
    assert any(0 < c < total for c in checked)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_reader_sees_the_progress_while_the_check_runs(settled, reader, compliance, monkeypatch):
    """The worker (here a thread with its own connection) is held after its first hand; the
    page, reading through another connection, shows how far it has got."""
    held, go_on = threading.Event(), threading.Event()
    check_hand = audit._check

    def check_then_hold(*args: Any) -> None:
        check_hand(*args)
        if not held.is_set():
            held.set()
            go_on.wait(30)

    monkeypatch.setattr(audit, "PROGRESS_EVERY", 1)
    monkeypatch.setattr(audit, "_check", check_then_hold)
    check = AuditCheck.objects.create(requested_by=compliance)
    outcome: dict[str, str] = {}

    def worker() -> None:
        try:
            outcome["status"] = audit_check_task(check.pk)
        finally:
            connections.close_all()

    thread = threading.Thread(target=worker)
    thread.start()
    try:
        assert held.wait(30), "the check never reached the hands"
        row = AuditCheck.objects.get(pk=check.pk)
        assert (row.status, row.stage) == ("pending", "checking")
        assert 0 < row.checked < row.total
        partial = reader.get(reverse("compliance-audit-check-progress", args=[check.pk]))
        assert 'id="check-status">running<' in text(partial)
        assert "Verifying the chains and re-settling the hands." in text(partial)
        assert f"Checked {row.checked} of {row.total} audit entries, hands and tree leaves" in text(
            partial
        )
        assert 'hx-trigger="every 1s"' in text(partial)
    finally:
        go_on.set()
        thread.join(60)
    assert outcome == {"status": "passed"}
    done = reader.get(reverse("compliance-audit-check-progress", args=[check.pk]))
    assert 'id="check-status">passed<' in text(done)


def test_a_failed_check_shows_exactly_what_broke(
    settled, reader, django_capture_on_commit_callbacks
):
    row = settled.signed.seats.get(seat=3)
    with as_database_superuser():
        SeatSettlement.objects.filter(pk=row.pk).update(net=row.net + 500)
    with django_capture_on_commit_callbacks(execute=True):
        started = reader.post(reverse("compliance-audit-check-start"))
    response = reader.get(started["Location"])
    check = AuditCheck.objects.get()
    assert check.status == "failed" and check.checked == check.total
    page = text(response)
    assert 'id="check-status">failed<' in page
    assert "Failed: 1 finding about hands" in block(
        response, r'<div role="alert" id="check-verdict">.*?</div>'
    )
    finding = block(response, rf'<tr data-hand="{settled.signed.hand_id}">.*?</tr>')
    assert "HCF-T hand 1" in finding
    assert reverse("compliance-settlement", args=[settled.signed.pk]) in finding
    assert "<td>3</td>" in finding
    assert "seat 3: stored seat row (role, status, hand, rake, net)" in finding


def test_a_broken_chain_is_named_by_its_entry(settled, reader, django_capture_on_commit_callbacks):
    entry = AuditEntry.objects.get(action="hand_settle", hand=settled.draw.hand)
    with as_database_superuser():
        AuditEntry.objects.filter(pk=entry.pk).update(actor_name="someone else")
    with django_capture_on_commit_callbacks(execute=True):
        started = reader.post(reverse("compliance-audit-check-start"))
    response = reader.get(started["Location"])
    assert 'id="check-status">failed<' in text(response)
    problem = block(response, r'<ul id="chain-problem">.*?</ul>')
    assert f"audit entry {entry.seq} of table {entry.table.name}'s chain" in problem
    assert "altered" in problem


def test_a_corrected_hand_lists_its_reversal_and_its_correction(
    client, compliance, dp_table, dealer, floor, client_for
):
    from tests.conftest import record

    api = client_for(dealer)
    hand = api.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    api.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    fixed = record()
    fixed["players"][0]["flush_bonus"] = 0
    asked = api.post(
        f"/api/v1/hands/{hand['id']}/corrections/",
        {"reason": "no bonus bet", "record": fixed},
        format="json",
    ).json()
    client_for(floor).post(f"/api/v1/approvals/{asked['id']}/approve/", {}, format="json")
    original, reversal, corrected = Settlement.objects.order_by("id")
    client.force_login(compliance)
    listing = client.get("/desk/compliance/").content.decode()
    assert f"reversal of a settlement of {original.pk}" in listing
    assert f"corrected settlement of {original.pk}" in listing
    page = client.get(f"/desk/compliance/settlements/{reversal.pk}/").content.decode()
    assert f"Reversal of a settlement {reversal.pk} (of settlement {original.pk})" in page
    # Its history is the one it cancels; replayed, it comes to exactly what it moves back.
    assert "Replaying the history gives the stored result exactly." in page
    assert "Replaying the history gives the stored result exactly." in (
        client.get(f"/desk/compliance/settlements/{corrected.pk}/").content.decode()
    )
