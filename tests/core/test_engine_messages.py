"""The engines' explanations and errors as message ids, translated at the edge.

* every message id a game's settlements produce (random legal hands, as the property tests
  play them) is in every language's catalog, and no message names a file;
* a rule error comes back in the request's language with its ``code`` and ``params``;
* a settlement's ``explanation_text`` is in the request's language, its ``explanation`` the
  same English as before;
* no string in ``casino/rules`` that could reach a dealer (anything but a docstring) cites
  ``docs/rules/...md``; rules are cited by number and title, the titles the documents' own.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.rules.messages import Message, clause_titles, msg, pre_messages_form, render
from casino.rules.rule_titles import TITLES
from tests.core.test_catalogs import LANGUAGES, translations

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "casino" / "rules"
SAMPLES = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.nested_given],
)


def message_ids(item: Any) -> set[str]:
    """Every message id in a serialised message (``{"id", "params"}``), nested ones too."""
    found: set[str] = set()
    if isinstance(item, dict) and "id" in item and "params" in item:
        found.add(item["id"])
        for value in item["params"].values():
            found |= message_ids(value)
    return found


def needs_words(msgid: str) -> bool:
    """A message id with words in it (``"%(total)s"`` or ``"21"`` needs no translation)."""
    import re

    return bool(re.sub(r"%\(\w+\)[-+ #0]*\d*[sdif]", "", msgid).strip(" .,;:()-0123456789"))


@cache
def translated(code: str) -> frozenset[str]:
    """The msgids ``code``'s catalog translates, read once per test process (the samples
    check hundreds of results against the same files)."""
    return frozenset(translations(code))


def check_settlement_messages(result: dict[str, Any]) -> None:
    messages = result["messages"]
    assert len(messages) == len(result["explanation"])
    for item, line in zip(messages, result["explanation"], strict=True):
        assert render(item) == line  # the English rendering is the explanation itself
        assert "docs/rules" not in line and ".md" not in line
    ids = {msgid for item in messages for msgid in message_ids(item) if needs_words(msgid)}
    for code in LANGUAGES:
        missing = sorted(ids - translated(code))
        assert missing == [], (code, missing)


# --------------------------------------------------------------------------- samples


@SAMPLES
@given(st.data())
def test_every_message_of_random_pontoon_hands_is_in_every_catalog(data: st.DataObject) -> None:
    from casino.rules.pontoon import PontoonRules
    from tests.rules.test_pontoon_properties import play, setups

    config, raw_rules = data.draw(setups())
    rng = data.draw(st.randoms(use_true_random=False))
    hand, _ = play(rng, config, PontoonRules.from_dict(raw_rules))
    check_settlement_messages(hand.settle().to_dict())


@SAMPLES
@given(st.data())
def test_every_message_of_random_palace_poker_hands_is_in_every_catalog(
    data: st.DataObject,
) -> None:
    from tests.rules.test_palace_poker_properties import play, tables

    record, rules, seed = data.draw(tables())
    check_settlement_messages(play(record, rules, seed).settle().to_dict())


def test_every_message_of_the_high_card_flush_example_is_in_every_catalog() -> None:
    from casino.rules.contract import game

    hcf = game("high-card-flush")
    check_settlement_messages(hcf.evaluate(hcf.record_example, None).to_dict())


@SAMPLES
@given(st.data())
def test_every_message_of_random_high_card_flush_hands_is_in_every_catalog(
    data: st.DataObject,
) -> None:
    from casino.rules.high_card_flush import evaluate
    from tests.rules.test_high_card_flush_properties import hands

    record, rules = data.draw(hands())
    check_settlement_messages(evaluate(record, rules).to_dict())


def test_every_message_of_the_paiute_worked_example_is_in_every_catalog() -> None:
    """The worked example of docs/rules/paiute.md played to its end (steps 0-11): a call, the
    final turns with a second and a third call, the tie split with the odd chip, wild cards
    standing for a card and for a rank."""
    from tests.rules.paiute_helpers import act, call, discard, draw, take
    from tests.rules.test_paiute_presentation import worked

    hand = worked()
    act(hand, draw(1, "5d"), discard(1, "5d"), draw(2, "7d"), discard(2, "2d"), take(3))
    act(hand, discard(3, "Qd"), draw(1, "3d"), call(1, "As"), draw(2, "3h"), call(2))
    act(hand, draw(3, "Th"), call(3, "2d"))
    result = hand.settle().to_dict()
    check_settlement_messages(result)
    # A wild card standing for a rank is said in words (a message), not left in English.
    (seat_two,) = [item for item in result["messages"] if item["params"].get("seat") == 2]
    assert "%(card)s as a %(rank)s" in message_ids(seat_two)


#: A Paiute showdown: seat 2 calls with four kings and sevens against two flushes (the three
#: of clubs turned up: threes are wild), antes of 25.
PAIUTE_SHOWDOWN = {
    "dealer": 3,
    "ante": 25,
    "wild_card": "3c",
    "caller": 1,
    "players": [
        {"seat": 1, "cards": ["7c", "8c", "9c", "Jc", "3d"]},
        {"seat": 2, "cards": ["Ks", "Kh", "Kd", "7s", "7d"]},
        {"seat": 3, "cards": ["7h", "8h", "9h", "Jh", "Th"]},
    ],
}
#: Its rake: 10% capped at 5.
PAIUTE_RAKE = {"smallest_chip": 5, "rake": {"percent": 10, "cap": 5}}


def test_every_message_of_a_raked_paiute_hand_is_in_every_catalog() -> None:
    from casino.rules.paiute import evaluate

    result = evaluate(PAIUTE_SHOWDOWN, PAIUTE_RAKE).to_dict()
    check_settlement_messages(result)
    assert result["explanation"][-1].startswith("Rake 5 (10% of the pot, capped at 5)")


# --------------------------------------------------------------------------- messages


def test_a_message_is_its_english_text_with_an_id_and_params() -> None:
    words = Message("stake")
    line = msg("Seat %(seat)s loses its %(wager)s: net %(net)+d.", seat=3, wager=words, net=-5)
    assert line == "Seat 3 loses its stake: net -5."
    assert line.to_dict() == {
        "id": "Seat %(seat)s loses its %(wager)s: net %(net)+d.",
        "params": {"seat": 3, "wager": {"id": "stake", "params": {}}, "net": -5},
    }
    afrikaans = {"stake": "inset"}
    assert line.render(lambda text: afrikaans.get(text, text)) == "Seat 3 loses its inset: net -5."


def test_a_result_settled_before_messages_compares_without_them() -> None:
    fresh = {
        "rake": 0,
        "explanation": ["Seat 1 sticks (rule 9 (“Sticking”))."],
        "messages": [{"id": "x", "params": {}}],
    }
    stored = {"rake": 0, "explanation": ["Seat 1 sticks (clause 9 of docs/rules/pontoon.md)."]}
    assert pre_messages_form(fresh, stored) == stored
    # any other difference in the words is still one
    other = {"rake": 0, "explanation": ["Seat 2 sticks (clause 9 of docs/rules/pontoon.md)."]}
    assert pre_messages_form(fresh, other)["explanation"] == fresh["explanation"]
    # a result that has messages compares as it is
    assert pre_messages_form(fresh, {**stored, "messages": []}) is fresh


def test_an_amount_is_written_as_its_integer_in_english_and_as_money_at_the_edge() -> None:
    from casino.rules.messages import Money, render

    line = msg("Seat %(seat)s wins %(won)s: net %(net)+d.", seat=3, won=Money(1250), net=Money(-5))
    assert line == "Seat 3 wins 1250: net -5."  # the English as stored, unchanged
    data = line.to_dict()
    assert data["params"] == {"seat": 3, "won": {"money": 1250}, "net": {"money": -5}}

    def dollars(minor: int, signed: bool) -> str:
        sign = ("+" if minor > 0 else "-" if minor < 0 else "") if signed else ""
        return f"{sign}${abs(minor) / 100:.2f}" if signed else f"${minor / 100:.2f}"

    assert line.render(lambda text: text, dollars) == "Seat 3 wins $12.50: net -$0.05."
    assert render(data, lambda text: text, dollars) == "Seat 3 wins $12.50: net -$0.05."
    assert render(data) == "Seat 3 wins 1250: net -5."  # no formatter: the integers
    # a translation that moves the placeholders about keeps them
    hungarian = {
        "Seat %(seat)s wins %(won)s: net %(net)+d.": "%(net)+d nettó; %(won)s nyer (%(seat)s)"
    }
    assert render(data, lambda text: hungarian.get(text, text), dollars) == (
        "-$0.05 nettó; $12.50 nyer (3)"
    )


def test_the_api_writes_amounts_in_the_house_currency(settings) -> None:
    from django.utils import translation

    from casino.core.i18n import explanation_text, translated
    from casino.rules.messages import Money

    sentence = msg("Seat %(seat)s: bank %(bank)s.", seat=1, bank=Money(500_000))
    result = {"explanation": [str(sentence)], "messages": [sentence.to_dict()]}
    with translation.override("en"):
        assert translated(sentence) == "Seat 1: bank $5,000.00."
        assert explanation_text(result) == ["Seat 1: bank $5,000.00."]
    settings.CURRENCY, settings.CURRENCY_EXPONENT = "EUR", 2
    with translation.override("el"):
        assert explanation_text(result) == ["Seat 1: bank €5.000,00."]


def test_a_result_stored_before_amounts_were_money_compares_equal() -> None:
    from casino.rules.messages import Money

    fresh_line = msg("Seat %(seat)s wins %(won)s.", seat=2, won=Money(300))
    fresh = {"explanation": [str(fresh_line)], "messages": [fresh_line.to_dict()]}
    stored = {
        "explanation": ["Seat 2 wins 300."],
        "messages": [{"id": "Seat %(seat)s wins %(won)s.", "params": {"seat": 2, "won": 300}}],
    }
    assert pre_messages_form(fresh, stored) == stored
    # a different amount is still a difference
    other = {
        **stored,
        "messages": [{"id": stored["messages"][0]["id"], "params": {"seat": 2, "won": 301}}],
    }
    assert pre_messages_form(fresh, other) != other
    # stored with amounts marked: compared as it is
    assert pre_messages_form(fresh, fresh) == fresh


# --------------------------------------------------------------------------- rule titles


@pytest.mark.parametrize("code", sorted(TITLES))
def test_the_rule_titles_are_the_documents_clause_headings(code: str) -> None:
    document = (ROOT / "docs" / "rules" / f"{code}.md").read_text(encoding="utf-8")
    assert TITLES[code] == clause_titles(document)


def _dealer_strings(path: Path) -> list[tuple[int, str]]:
    """Every string literal in ``path`` but its docstrings (f-strings' literal parts too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


#: Strings that name a document but never reach a dealer as a message: the path the games
#: API gives as ``rules_doc``, and the pattern that reads a result settled before rules were
#: cited by title.
NOT_MESSAGES = {"contract.py": {"docs/rules/", ".md"}, "messages.py": {"docs/rules/", ".md"}}
#: Files still to be written with rules cited by title: none (the games' between-hand tables
#: cite them by title too).
PENDING: set[str] = set()


def _citing_files() -> dict[str, list[tuple[int, str]]]:
    found: dict[str, list[tuple[int, str]]] = {}
    for path in sorted(RULES.rglob("*.py")):
        name = path.relative_to(RULES).as_posix()
        for line, text in _dealer_strings(path):
            if "docs/rules/" in text or ".md" in text:
                allowed = NOT_MESSAGES.get(name, set())
                if any(part in text for part in ("docs/rules/", ".md") if part not in allowed):
                    found.setdefault(name, []).append((line, text))
    return found


def test_no_engine_message_names_a_rules_document() -> None:
    citing = {name: found for name, found in _citing_files().items() if name not in PENDING}
    assert citing == {}


def test_the_tables_messages_name_no_rules_document_either() -> None:
    assert not any(name in PENDING for name in _citing_files())


# --------------------------------------------------------------------------- the API

EVALUATE = "/api/v1/games/pontoon/evaluate/"
OUT_OF_LIMITS = {
    "rules": {"stake_min": 10},
    "banker": {"seat": 9, "cards": ["Tc", "8c"]},
    "players": [
        {"seat": 1, "stake": 5, "hands": [{"cards": ["Kd", "9d"], "actions": [{"type": "stick"}]}]}
    ],
}
#: Banker stands on 18; seat 1 sticks on 19 and wins, seat 2 busts.
FINISHED = {
    "banker": {"seat": 9, "cards": ["Tc", "8c"]},
    "players": [
        {
            "seat": 1,
            "stake": 20,
            "hands": [{"cards": ["Kd", "9d"], "actions": [{"type": "stick"}]}],
        },
        {
            "seat": 2,
            "stake": 10,
            "hands": [
                {"cards": ["Kh", "6s", "Qs"], "actions": [{"type": "twist"}]},
            ],
        },
    ],
}


@pytest.fixture
def api(make_user, client_for):  # type: ignore[no-untyped-def]
    return client_for(make_user("dealer"))


@pytest.mark.django_db
def test_a_rule_error_comes_back_in_greek_with_its_code_and_params(api) -> None:  # type: ignore[no-untyped-def]
    response = api.post(EVALUATE, OUT_OF_LIMITS, format="json", HTTP_ACCEPT_LANGUAGE="el")
    assert response.status_code == 400, response.json()
    (problem,) = response.json()["errors"]
    assert problem["path"] == "players[0].stake"
    # the amounts in the house currency (US dollars in the tests), as Greek writes them
    assert problem["message"] == (
        "θέση 1: το ποντάρισμα $0,05 είναι εκτός των ορίων του τραπεζιού: τουλάχιστον $0,10 "
        "(κανόνας 3 («Ο μπάνκερ, το μοίρασμα και τα πονταρίσματα»))"
    )
    assert problem["code"] == (
        "seat %(seat)s: stake %(amount)s is outside the table limits: %(bounds)s (%(rule)s)"
    )
    assert problem["params"] == {
        "seat": 1,
        "amount": {"money": 5},
        "bounds": {"id": "at least %(low)s", "params": {"low": {"money": 10}}},
        "rule": {
            "id": "rule %(number)s (“%(title)s”)",
            "params": {
                "number": 3,
                "title": {"id": "The banker, the deal and the stakes", "params": {}},
            },
        },
    }
    assert response.json()["detail"] == problem["message"]


@pytest.mark.django_db
@pytest.mark.parametrize("code", ["en", *LANGUAGES])
def test_no_language_shows_a_rules_document(api, code: str) -> None:  # type: ignore[no-untyped-def]
    api.cookies["django_language"] = code
    error = api.post(EVALUATE, OUT_OF_LIMITS, format="json").json()
    settled = api.post(EVALUATE, FINISHED, format="json").json()
    for text in [error["detail"], *settled["explanation"], *settled["explanation_text"]]:
        assert "docs/rules" not in text and ".md" not in text, (code, text)
    if code != "en":
        assert error["errors"][0]["message"] != error["errors"][0]["code"]


@pytest.mark.django_db
def test_english_is_the_default_and_reads_as_before(api) -> None:  # type: ignore[no-untyped-def]
    """English reads as the engine wrote it, but for the amounts: the API writes those in the
    house currency (the stored ``explanation`` keeps the integers)."""
    error = api.post(EVALUATE, OUT_OF_LIMITS, format="json").json()
    assert error["errors"][0]["message"] == (
        "seat 1: stake $0.05 is outside the table limits: at least $0.10 "
        "(rule 3 (“The banker, the deal and the stakes”))"
    )
    settled = api.post(EVALUATE, FINISHED, format="json").json()
    rule_13 = "(rule 13 (“The banker stands on 21 or less with two to four cards”))."
    rule_10 = "(rule 10 (“Card limit and going bust”))."
    assert settled["explanation"][1:4] == [
        f"Seat 1: 19 (K-9) beats the banker's 18: paid 20 {rule_13}",
        f"Seat 2: bust (26) with K-6-Q: the banker took the stake 10 at once {rule_10}",
        "Banker (seat 9): net -10.",
    ]
    assert settled["explanation_text"][1:4] == [
        f"Seat 1: 19 (K-9) beats the banker's 18: paid $0.20 {rule_13}",
        f"Seat 2: bust (26) with K-6-Q: the banker took the stake $0.10 at once {rule_10}",
        "Banker (seat 9): net −$0.10.",
    ]
    # every other line has no amount in it and reads exactly as the engine wrote it
    for index in (0, *range(4, len(settled["explanation"]))):
        assert settled["explanation_text"][index] == settled["explanation"][index]


@pytest.mark.django_db
def test_a_settlements_explanation_text_is_hungarian_and_its_explanation_english(api) -> None:  # type: ignore[no-untyped-def]
    english = api.post(EVALUATE, FINISHED, format="json").json()
    hungarian = api.post(EVALUATE, FINISHED, format="json", HTTP_ACCEPT_LANGUAGE="hu").json()
    assert hungarian["explanation"] == english["explanation"]
    assert hungarian["messages"] == english["messages"]
    assert english["explanation"][0] == (
        "Banker (seat 9) stands on 18 (T-8): better hands are paid, pontoons and five card "
        "tricks double; equal or worse hands lose (rule 13 (“The banker stands on 21 or less "
        "with two to four cards”))."
    )
    text = hungarian["explanation_text"]
    assert len(text) == len(english["explanation"])
    assert text[0] == (
        "A bankadó (9. hely) megáll ennél: 18 (T-8): a jobb kezek nyernek, a pontoon és a(z) "
        "ötlapos trükkök duplán; az egyenlő vagy gyengébb kezek veszítenek (13. szabály („A "
        "bankadó két-négy lappal 21-nél vagy kevesebbnél megáll”))."
    )
    assert all(a != b for a, b in zip(text, english["explanation"], strict=True))


@pytest.mark.django_db
def test_a_stored_settlement_is_served_with_its_explanation_text(dp_table, dealer, client_for):  # type: ignore[no-untyped-def]
    from tests.conftest import record

    client = client_for(dealer)
    hand = client.post(f"/api/v1/tables/{dp_table.pk}/hands/").json()
    preview = client.get(f"/api/v1/hands/{hand['id']}/preview/")
    settled = client.post(f"/api/v1/hands/{hand['id']}/settle/", record(), format="json")
    assert settled.status_code == 201, settled.json()
    body = settled.json()
    assert len(body["messages"]) == len(body["explanation"])
    # the English as the engine wrote it, but for the amounts, in the house currency
    assert body["explanation_text"] == house_english(body)
    assert body["explanation_text"][-1] == (
        "Rake: seat 3 pays $1.00, seat 2 pays $1.00, the designated player pays $1.00; total $3.00."
    )
    assert body["explanation"][-1] == (
        "Rake: seat 3 pays 100, seat 2 pays 100, the designated player pays 100; total 300."
    )
    assert [render(item) for item in body["messages"]] == body["explanation"]
    if preview.status_code == 200:  # a game whose hand settles from its own actions
        assert preview.json()["explanation_text"] == house_english(preview.json())
    served = client.get(
        f"/api/v1/settlements/{body['settlement']}/", HTTP_ACCEPT_LANGUAGE="el"
    ).json()
    assert served["result"]["explanation"] == body["explanation"]
    assert served["result"]["messages"] == body["messages"]
    assert len(served["result"]["explanation_text"]) == len(body["explanation"])


def house_english(result: dict[str, Any]) -> list[str]:
    """``result``'s messages in English with the amounts in the house currency."""
    from casino.core.money import money

    def house(minor: int, signed: bool) -> str:
        return money(minor, signed=signed)

    return [render(item, lambda text: text, house) for item in result["messages"]]


# --------------------------------------------------------------------------- every game's errors

GREEK = re.compile("[\u0370-\u03ff]")


def assert_greek_with_code(problem: dict[str, Any], english: str) -> None:
    """The problem's message is Greek (not the English template), names no file, and its
    ``code`` and ``params`` render the English text the engine wrote."""
    assert GREEK.search(problem["message"]), problem
    assert problem["message"] != english
    assert "docs/rules" not in problem["message"] and ".md" not in problem["message"]
    assert render({"id": problem["code"], "params": problem["params"]}) == english


@pytest.mark.django_db
def test_a_five_card_draw_rule_error_comes_back_in_greek(draw_table, dealer, client_for) -> None:  # type: ignore[no-untyped-def]
    """A returning player's choice (clause 12), refused between hands at a 7-A table: its
    rule was cited by the document's path before."""
    client = client_for(dealer)
    action = {"type": "blind_choice", "seat": 1, "choice": "post_small_dead"}
    url = f"/api/v1/tables/{draw_table.pk}/game/actions/"
    response = client.post(url, action, format="json", HTTP_ACCEPT_LANGUAGE="el")
    assert response.status_code == 400, response.json()
    (problem,) = response.json()["errors"]
    english = (
        "post_small_dead settles a missed small blind (MS) only; seat 1 is a new player: "
        "choose post_all or wait (rule 12 (“A returning player's choices”))"
    )
    assert_greek_with_code(problem, english)
    assert problem["path"] == "choice"
    assert problem["message"] == (
        "το post_small_dead διευθετεί μόνο ένα χαμένο small blind (MS)· η θέση 1 είναι νέος "
        "παίκτης: επιλέξτε post_all ή wait (κανόνας 12 («Οι επιλογές ενός παίκτη που "
        "επιστρέφει»))"
    )
    assert problem["params"]["rule"]["params"]["number"] == 12
    english_body = client.post(url, action, format="json").json()
    assert english_body["errors"][0]["message"] == english


@pytest.mark.django_db
def test_a_paiute_rule_error_comes_back_in_greek(api) -> None:  # type: ignore[no-untyped-def]
    record = {
        "dealer": 3,
        "ante": 25,
        "wild_card": "3c",
        "caller": 3,
        "players": [{"seat": 3, "cards": ["7h", "8h", "9h", "Jh", "Th"]}],
    }
    url = "/api/v1/games/paiute/evaluate/"
    response = api.post(url, record, format="json", HTTP_ACCEPT_LANGUAGE="el")
    assert response.status_code == 400, response.json()
    (problem,) = response.json()["errors"]
    english = "1 players listed: Paiute is played by 2 to 5 (rule 1 (“Players, pack and ante”))"
    assert_greek_with_code(problem, english)
    assert problem["message"] == (
        "αναφέρονται 1 παίκτες: το Paiute παίζεται από 2 έως 5 (κανόνας 1 («Παίκτες, τράπουλα "
        "και άντε»))"
    )
    assert problem["code"] == (
        "%(count)s players listed: Paiute is played by %(least)s to %(most)s (%(rule)s)"
    )


@pytest.mark.django_db
def test_a_high_card_flush_rule_error_comes_back_in_greek(open_table, dealer, client_for) -> None:  # type: ignore[no-untyped-def]
    """A hand opened before anyone holds the designated player position (clause 15): 409, its
    rule was cited by the document's path before."""
    client = client_for(dealer)
    url = f"/api/v1/tables/{open_table.pk}/hands/"
    response = client.post(url, {}, format="json", HTTP_ACCEPT_LANGUAGE="el")
    assert response.status_code == 409, response.json()
    (problem,) = response.json()["errors"]
    english = (
        "no player has accepted the designated player position (rule 15 (“The DP position is "
        "offered clockwise”)); the offer is with seat 1"
    )
    assert_greek_with_code(problem, english)
    assert problem["message"].startswith(
        "κανείς παίκτης δεν έχει αποδεχτεί τη θέση του ορισμένου παίκτη (κανόνας 15 («"
    )
    assert problem["message"].endswith("»))· η προσφορά βρίσκεται στη θέση 1")


@pytest.mark.django_db
def test_a_high_card_flush_record_error_comes_back_in_greek(api) -> None:  # type: ignore[no-untyped-def]
    from casino.rules.contract import game

    record = game("high-card-flush").record_example
    record = {**record, "players": [{**record["players"][0], "raise": 4000}]}
    url = "/api/v1/games/high-card-flush/evaluate/"
    response = api.post(url, record, format="json", HTTP_ACCEPT_LANGUAGE="el")
    assert response.status_code == 400, response.json()
    (problem,) = response.json()["errors"]
    assert problem["path"] == "players[0].raise"
    assert_greek_with_code(problem, "seat 1: raise 4000 exceeds 1x ante for a 4-card flush")
    assert problem["message"] == (
        "η θέση 1: η αύξηση $40,00 υπερβαίνει το 1x άντε για χρώμα 4 φύλλων"
    )
    assert problem["params"]["what"]["params"]["amount"] == {"money": 4000}


@pytest.mark.django_db
def test_a_high_card_flush_explanation_text_is_greek_line_by_line(api) -> None:  # type: ignore[no-untyped-def]
    from casino.rules.contract import game

    url = "/api/v1/games/high-card-flush/evaluate/"
    record = game("high-card-flush").record_example
    english = api.post(url, record, format="json").json()
    greek = api.post(url, record, format="json", HTTP_ACCEPT_LANGUAGE="el").json()
    assert greek["explanation"] == english["explanation"]
    assert english["explanation"][0] == (
        "Designated player (seat 7): 3-card flush A-K-9, which qualifies."
    )
    # English text as the engine wrote it, the amounts in the house currency
    assert english["explanation"][-1] == (
        "Designated player (seat 7): bank 100000, loses 2000, bank after the hand 98000."
    )
    assert english["explanation_text"][0] == english["explanation"][0]
    assert english["explanation_text"][-1] == (
        "Designated player (seat 7): bank $1,000.00, loses $20.00, bank after the hand $980.00."
    )
    assert greek["explanation_text"][0] == (
        "Ορισμένος παίκτης (θέση 7): χρώμα 3 φύλλων A-K-9, που προκρίνεται."
    )
    for line in greek["explanation_text"]:
        assert GREEK.search(line), line


def test_a_result_stored_with_its_lines_as_their_own_ids_compares_without_the_new_ids() -> None:
    """High Card Flush and Paiute results stored while their lines were their own ids (no
    parameters) still compare with a re-settled result whose lines are messages."""
    line = "Seat 2: flush bonus pushes; the flushes tie."
    new = {"id": "Seat %(seat)s: flush bonus pushes; the flushes tie.", "params": {"seat": 2}}
    fresh = {"rake": 0, "explanation": [line], "messages": [new]}
    stored = {"rake": 0, "explanation": [line], "messages": [{"id": line, "params": {}}]}
    assert pre_messages_form(fresh, stored) == stored
    # a difference in the words is still one
    other = {**stored, "explanation": ["Seat 3: flush bonus pushes; the flushes tie."]}
    other["messages"] = [{"id": other["explanation"][0], "params": {}}]
    assert pre_messages_form(fresh, other) != other
    # a result stored with messages is compared as it is
    assert pre_messages_form(fresh, {**stored, "messages": [new]}) is fresh


def test_a_problems_text_parameters_are_bounded() -> None:
    from casino.rules.errors import MAX_PARAM_TEXT, Problem

    value = "x" * 100_000
    problem = Problem("p", msg("unknown card '%(card)s'", card=value))
    assert len(problem.params["card"]) == MAX_PARAM_TEXT
    assert problem.message.endswith("x'")  # the English text is the engine's, cut where shown


@pytest.mark.django_db
def test_the_games_are_named_in_the_requests_language(api) -> None:  # type: ignore[no-untyped-def]
    english = {g["code"]: g["name"] for g in api.get("/api/v1/games/").json()}
    greek = {
        g["code"]: g["name"] for g in api.get("/api/v1/games/", HTTP_ACCEPT_LANGUAGE="el").json()
    }
    assert english["palace-poker"] == "Palace Poker"
    assert greek["palace-poker"] == "Πόκερ του παλατιού"
    assert greek["pontoon"] == "Πόντουν"
    assert set(greek) == set(english)
