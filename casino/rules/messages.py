"""Sentences as message ids with parameters, so the API can say them in the dealer's language.

An engine writes a sentence once, as an English template and its parameters::

    msg(_("Seat %(seat)s sticks on %(total)s."), seat=3, total=19)

The result is a :class:`Message`: a ``str`` whose text is the English sentence (what every
engine produced before, so English stays the default and nothing comparing English text
changes), and which also carries ``msgid`` (the template) and ``params`` (JSON-ready values:
amounts as integers, cards as codes, seats as integers). A parameter that is itself words (a
wager's name, a hand's name, a rule's title) is a nested :class:`Message`, serialised as
``{"id": ..., "params": ...}`` and translated in turn.

``_`` marks a template for extraction and returns it unchanged: Django's ``makemessages``
(xgettext's default keyword ``_``) collects the templates from ``casino/rules`` into the
``django`` catalogs under ``casino/locale``; the translating happens at the edge (Django's
``casino.core.i18n``), never here. This module imports nothing of Django.

Concatenating or formatting a :class:`Message` into a bigger string gives a plain ``str``
(its id is lost); a sentence that is not a :class:`Message` is served as its own id, with no
parameters (and stays English).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any


def _(template: str) -> str:
    """Mark ``template`` for the catalogs (``makemessages``); returned unchanged."""
    return template


gettext_noop = _

Params = dict[str, Any]
Translate = Callable[[str], str]


def _identity(text: str) -> str:
    return text


class Money(int):
    """An amount of money (integer minor units) as a message's parameter: the English text
    writes the integer, as explanations always have (what is stored and audited does not
    change), and the edge, given a money formatter, writes it in the house currency
    (``$1.00``). Serialised as ``{"money": 100}``."""

    __slots__ = ()

    def to_dict(self) -> dict[str, int]:
        return {"money": int(self)}


#: Writes minor units as money: ``(amount, signed) -> text`` (``signed`` for a net, ``+$1.00``).
MoneyFormat = Callable[[int, bool], str]


class Message(str):
    """A sentence: its English text (the ``str``), ``msgid`` (the template) and ``params``."""

    # no instance dict: engines make thousands a replay; ``_plain``: every parameter is
    # written as it is (no nested message, no amount), so to_dict copies them at once
    __slots__ = ("msgid", "params", "_plain")
    msgid: str
    params: Params
    _plain: bool

    def __new__(cls, msgid: str, params: Mapping[str, Any] | None = None) -> Message:
        values = dict(params) if params else {}
        text, plain = _english(msgid, values) if values else (msgid, True)
        self = super().__new__(cls, text)
        self.msgid = msgid
        self.params = values
        self._plain = plain
        return self

    def to_dict(self) -> dict[str, Any]:
        """``{"id": msgid, "params": {...}}``, nested messages as such dicts (JSON-ready)."""
        if self._plain:
            return {"id": self.msgid, "params": dict(self.params)}
        params: dict[str, Any] = {}
        for key, value in self.params.items():
            kind = type(value)
            if kind is Message:
                params[key] = (
                    {"id": value.msgid, "params": dict(value.params)}  # its to_dict, at once
                    if value._plain
                    else value.to_dict()
                )
            elif kind in _AS_THEY_ARE:
                params[key] = value
            elif kind is Money:
                params[key] = {"money": int(value)}  # Money.to_dict
            else:
                params[key] = _param_dict(value)
        return {"id": self.msgid, "params": params}

    def render(self, translate: Translate, money: MoneyFormat | None = None) -> str:
        """The sentence in the language ``translate`` (a gettext) speaks, amounts written by
        ``money`` where given."""
        return format_template(self.msgid, self.params, translate, money)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Message, (self.msgid, self.params))


def _param_dict(value: Any) -> Any:
    return value.to_dict() if isinstance(value, Message | Money) else value


#: Parameters written as they are, in English and in ``to_dict`` (the common ones, by exact
#: type: no Mapping or Money check needed).
_AS_THEY_ARE = frozenset({str, int, bool, float, type(None)})


#: Parameters the English text writes as they are: the common ones, a nested
#: :class:`Message` (its English is its own text, what its ``render`` in English gives: ``%s``
#: writes it as the plain string) and :class:`Money` (an ``int`` that prints as one).
_ENGLISH_AS_IS = _AS_THEY_ARE | {Message, Money}


def _english(template: str, params: Mapping[str, Any]) -> tuple[str, bool]:
    """``format_template(template, params, _identity)``, the English text of a message, made
    on every message an engine builds, so quickly: the parameters of :data:`_ENGLISH_AS_IS`
    are written as they are, the others as :func:`_render_param` writes them. A template
    that does not fit its parameters raises as ``format_template`` does (its English
    fallback is the same template). With it, whether every parameter is of
    :data:`_AS_THEY_ARE` (``to_dict`` then copies them as they are)."""
    plain = True
    for value in params.values():
        kind = type(value)
        if kind not in _AS_THEY_ARE:
            if kind is not Message and kind is not Money:
                break
            plain = False
    else:
        return template % params, plain
    values = {
        key: value if type(value) in _ENGLISH_AS_IS else _render_param(value, _identity)
        for key, value in params.items()
    }
    return template % values, False


def _is_money(value: Any) -> bool:
    return isinstance(value, Money) or (
        isinstance(value, Mapping) and set(value) == {"money"} and isinstance(value["money"], int)
    )


_PLACEHOLDER = re.compile(r"%\((\w+)\)([-+ #0]*)(\d*)([sdif])")


def format_template(
    template: str,
    params: Mapping[str, Any],
    translate: Translate,
    money: MoneyFormat | None = None,
) -> str:
    """``template`` translated and filled in with ``params`` (nested messages translated too).
    With ``money``, an amount (:class:`Money`) is written by it, whatever its placeholder's
    conversion (``%(net)+d`` becomes ``+$1.00``); without, as the integer.

    A template with no parameters is not %-formatted (a lone ``%`` in it stays as it is)."""
    text = translate(template)
    if not params:
        return text
    values = {key: _render_param(value, translate, money) for key, value in params.items()}
    amounts = {key for key, value in params.items() if _is_money(value)}

    def filled(text: str) -> str:
        if money is not None and amounts:
            text, written = _money_written(text, values, amounts, money)
            return text % written
        return text % values

    try:
        return filled(text)
    except (KeyError, ValueError, TypeError):  # a broken translation: fall back to English
        return filled(template)


def _money_written(
    text: str, values: dict[str, Any], amounts: set[str], money: MoneyFormat
) -> tuple[str, dict[str, Any]]:
    """``text`` with each amount's placeholder replaced by one for its written form (signed
    where the placeholder has ``+``), and ``values`` with those forms added."""
    written = dict(values)

    def swap(match: re.Match[str]) -> str:
        key, flags = match.group(1), match.group(2)
        if key not in amounts:
            return match.group(0)
        signed = "+" in flags
        name = f"{key}__money{'_signed' if signed else ''}"
        written[name] = money(int(values[key]), signed)
        return f"%({name})s"

    return _PLACEHOLDER.sub(swap, text), written


def _render_param(value: Any, translate: Translate, money: MoneyFormat | None = None) -> Any:
    if isinstance(value, Message):
        return value.render(translate, money)
    if _is_money(value):
        return int(value["money"] if isinstance(value, Mapping) else value)
    if isinstance(value, Mapping) and "id" in value and "params" in value:
        return render(value, translate, money)
    return value


def msg(template: str, /, **params: Any) -> Message:
    """A :class:`Message` from an English template (marked with ``_``) and its parameters."""
    # Message(template, params) without copying the keyword arguments' own fresh dict.
    text, plain = _english(template, params) if params else (template, True)
    self = str.__new__(Message, text)
    self.msgid = template
    self.params = params
    self._plain = plain
    return self


def as_message(text: str) -> dict[str, Any]:
    """``{"id", "params"}`` for one sentence: a :class:`Message`'s own, else the text itself."""
    if isinstance(text, Message):
        return text.to_dict()
    return {"id": str(text), "params": {}}


def render(
    data: Mapping[str, Any], translate: Translate = _identity, money: MoneyFormat | None = None
) -> str:
    """A serialised message (``{"id", "params"}``) as text, in ``translate``'s language,
    amounts written by ``money`` where given."""
    return format_template(str(data.get("id", "")), data.get("params") or {}, translate, money)


def words(text: str) -> Message:
    """A word or phrase with no parameters (a wager's or a phase's name) as a message."""
    return Message(text)


def joined(items: list[Message] | tuple[Message, ...], template: str) -> Message:
    """``items`` joined by ``template`` (two parameters, ``first`` and ``next``, e.g.
    ``_("%(first)s; %(next)s")``): ``a; b; c`` as nested messages, each item translated."""
    if not items:
        return Message("")
    result = items[0]
    for item in items[1:]:
        result = msg(template, first=result, next=item)
    return result


def seat_words(seat: object) -> Message:
    """``seat 3``, as a message names a seat."""
    if type(seat) is not int:
        return msg(_("seat %(seat)s"), seat=seat)
    found = _SEAT_WORDS.get(seat)
    if found is None:
        found = _SEAT_WORDS[seat] = msg(_("seat %(seat)s"), seat=seat)
    return found


#: :func:`seat_words` of each seat number, made once (a message is immutable).
_SEAT_WORDS: dict[int, Message] = {}


def prefixed(who: str | None, text: str) -> str:
    """``who: text``, a hand's or a field's name then what is wrong (``seat 2: 7 cards
    needed, got 6``), as a message; ``text`` alone when there is no ``who``."""
    if not who:
        return text
    return msg(_("%(who)s: %(what)s"), who=who, what=text)


def either(items: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``: choices named together (the items as they are
    written, e.g. action types, or messages)."""
    listed = list(items)
    if len(listed) == 1:
        return listed[0]
    some: str
    if any(isinstance(item, Message) for item in listed):
        some = joined(
            [Message(item) if not isinstance(item, Message) else item for item in listed[:-1]],
            _("%(first)s, %(next)s"),
        )
    else:
        some = ", ".join(listed[:-1])
    return msg(_("%(some)s or %(last)s"), some=some, last=listed[-1])


# --------------------------------------------------------------------------- rules cited


def rule(titles: Mapping[int, str], number: int) -> Message:
    """A rule of a game's rules document named by number and title, ``rule 13 (“The kitty”)``
    (``titles``: the game's clause headings, marked with ``_``)."""
    return msg(_("rule %(number)s (“%(title)s”)"), number=number, title=Message(titles[number]))


def rules_pair(titles: Mapping[int, str], first: int, second: int) -> Message:
    """Two rules named together: ``rules 7 (“Order of play”) and 8 (“Reshuffling”)``."""
    return msg(
        _("rules %(first)s (“%(first_title)s”) and %(second)s (“%(second_title)s”)"),
        first=first,
        first_title=Message(titles[first]),
        second=second,
        second_title=Message(titles[second]),
    )


def clause_titles(markdown: str) -> dict[int, str]:
    """The numbered clause headings (``### 13. The kitty``) of a rules document, by number
    (for the tests that check each game's titles against its document)."""
    found: dict[int, str] = {}
    for line in markdown.splitlines():
        if line.startswith("### "):
            head, _dot, title = line[4:].partition(". ")
            if head.isdigit() and title:
                found[int(head)] = title.strip()
    return found


# --------------------------------------------------------------------------- older results

_OLD_CITATION = re.compile(r"clauses? (\d+)(?:-(\d+))? of docs/rules/[\w.-]+\.md")
_NEW_PAIR = re.compile(r"rules (\d+) \(“[^”]*”\) and (\d+) \(“[^”]*”\)")
_NEW_CITATION = re.compile(r"rule (\d+) \(“[^”]*”\)")


def _cited(text: str) -> str:
    """``text`` with every rule citation, old (``clause 13 of docs/rules/pontoon.md``) or new
    (``rule 13 (“...”)``), written the same way (``§13``)."""
    text = _OLD_CITATION.sub(lambda m: "§" + "-".join(g for g in m.groups() if g), text)
    text = _NEW_PAIR.sub(r"§\1-\2", text)
    return _NEW_CITATION.sub(r"§\1", text)


def _own_ids(stored: Mapping[str, Any]) -> bool:
    """``stored``'s messages are its explanation's lines, each its own id with no parameters:
    how a game whose explanation was not yet written as messages stored its results."""
    messages, explanation = stored.get("messages"), stored.get("explanation")
    return (
        isinstance(messages, list)
        and isinstance(explanation, list)
        and len(messages) == len(explanation)
        and all(
            item == {"id": line, "params": {}}
            for item, line in zip(messages, explanation, strict=True)
        )
    )


def _plain_amounts(item: Any) -> Any:
    """``item`` (serialised messages) with every ``{"money": n}`` written as ``n``."""
    if _is_money(item):
        return int(item["money"]) if isinstance(item, Mapping) else int(item)
    if isinstance(item, Mapping):
        return {key: _plain_amounts(value) for key, value in item.items()}
    if isinstance(item, list):
        return [_plain_amounts(value) for value in item]
    return item


def pre_messages_form(fresh: dict[str, Any], stored: Mapping[str, Any]) -> dict[str, Any]:
    """A re-settled result as it compares with ``stored`` when ``stored`` was settled before
    the explanations became messages (it has no ``messages``): without ``messages``, and with
    the stored explanation where the two differ only in how rules are cited (a document's
    path then, a rule's number and title now). When ``stored`` was settled while its game's
    lines were their own ids (``{"id": line, "params": {}}``), the fresh messages are written
    the same way, from the fresh explanation (so any difference in the words is still one);
    when ``stored`` was settled before amounts were marked (:class:`Money`), the fresh
    amounts are compared as the integers it holds. Any other result is returned as it is."""
    if "messages" not in fresh:
        return fresh
    if "messages" in stored:
        plain = _plain_amounts(fresh["messages"])
        if plain != fresh["messages"] and _plain_amounts(stored["messages"]) == stored["messages"]:
            # settled before amounts were marked as money: the same messages, amounts as integers
            fresh = {**fresh, "messages": plain}
        if not _own_ids(stored) or fresh["messages"] == stored["messages"]:
            return fresh
        lines = fresh.get("explanation") or []
        return {**fresh, "messages": [{"id": str(line), "params": {}} for line in lines]}
    result = {key: value for key, value in fresh.items() if key != "messages"}
    old, new = stored.get("explanation"), fresh.get("explanation")
    if (
        isinstance(old, list)
        and isinstance(new, list)
        and len(old) == len(new)
        and all(
            isinstance(a, str) and isinstance(b, str) and _cited(a) == _cited(b)
            for a, b in zip(old, new, strict=True)
        )
    ):
        result["explanation"] = list(old)
    return result


__all__ = [
    "Message",
    "Money",
    "MoneyFormat",
    "_",
    "as_message",
    "clause_titles",
    "either",
    "format_template",
    "gettext_noop",
    "joined",
    "msg",
    "pre_messages_form",
    "prefixed",
    "render",
    "rule",
    "rules_pair",
    "seat_words",
    "words",
]
