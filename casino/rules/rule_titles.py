"""The clauses of each game's rules document (``docs/rules/<game>.md``) by number and title.

A message that cites a rule names it by number and title, ``rule 13 (“The banker stands on
21 or less with two to four cards”)``, never by the document's path (a dealer never sees a
file name). The titles are the documents' clause headings (``### 13. ...``), kept here so the
engines read no files; ``tests/rules/test_rule_titles.py`` checks them against the documents.
Each title is marked for the catalogs, so it is translated where it is shown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from .messages import Message, _, rule, rules_pair

TITLES: Final[dict[str, dict[int, str]]] = {
    "pontoon": {
        1: _("Cards and packs"),
        2: _("Ranking of hands"),
        3: _("The banker, the deal and the stakes"),
        4: _("The banker's pontoon"),
        5: _("A player's pontoon"),
        6: _("Splitting"),
        7: _("Buying"),
        8: _("Twisting"),
        9: _("Sticking"),
        10: _("Card limit and going bust"),
        11: _("The banker's turn"),
        12: _("The banker busts"),
        13: _("The banker stands on 21 or less with two to four cards"),
        14: _("The banker makes a five card trick"),
        15: _("A pontoon on a split hand"),
        16: _("The next banker, selling the bank and the pack"),
        17: _("Shoot Pontoon and the kitty"),
    },
    "palace-poker": {
        1: _("Players, deck, hand ranking and stakes"),
        2: _("The first dealer"),
        3: _("The ante"),
        4: _("Banners"),
        5: _("Palace cards and the stock"),
        6: _("Buy"),
        7: _("Discard"),
        8: _("Battle"),
        9: _("Answering a battle: fold, call or raise"),
        10: _("Battle showdown"),
        11: _("Stay"),
        12: _("Fold"),
        13: _("Last player standing; the pot"),
        14: _("Two players left"),
        15: _("Players left share a banner suit"),
        16: _("A quiet round ends in a showdown"),
    },
    "paiute": {
        1: _("Players, pack and ante"),
        2: _("The deal and the wild rank"),
        3: _("Turns: draw, then discard"),
        4: _("Reshuffling the stock"),
        5: _("The call"),
        6: _("After the call: the final turns"),
        7: _("Winning combinations"),
        8: _("Ranking within a category, showdown and ties"),
    },
    "five-card-draw-7a": {
        1: _("Players and deck"),
        2: _("Hand ranking"),
        3: _("The low ace, suits and ties"),
        4: _("Hand counts"),
        5: _("Button and blinds"),
        6: _("Betting structures"),
        7: _("Order of play and the draw"),
        8: _("Reshuffling the stub"),
        9: _("Showdown, side pots and odd chips"),
        10: _("Rake"),
        11: _("Moving the button and blinds; missed blinds (ML, MS)"),
        12: _("A returning player's choices"),
        13: _("Where a player may come back; new players"),
        14: _("Owing blinds and dead hands"),
    },
    "high-card-flush": {
        1: _("One deck, seven cards each, at most six players"),
        2: _("The flush"),
        3: _("Straights do not count for the ante and raise"),
        4: _("Ties"),
        5: _("Ante and bonus bets"),
        6: _("Fold or raise"),
        7: _("The DP's qualifier"),
        8: _("The DP does not qualify"),
        9: _("The DP qualifies"),
        10: _("Flush bonus"),
        11: _("Straight Flush bonus"),
        12: _("Bonus comparisons, pay-table lines and the payout cap"),
        13: _("Bank coverage and the settlement order"),
        14: _("House rake"),
        15: _("The DP position is offered clockwise"),
        16: _("Declining, and the stop"),
        17: _("Rotation policy"),
    },
}


Cite = Callable[..., Message]


def citer(code: str) -> Cite:
    """The citing function of game ``code``: ``cite(13)`` is ``rule 13 (“...”)`` and
    ``cite(7, 8)`` is ``rules 7 (“...”) and 8 (“...”)``."""
    titles = TITLES[code]
    #: Each citation made once (a message is immutable): engines cite rules in the sentences
    #: of every settlement.
    cited: dict[tuple[int, int | None], Message] = {}

    def cite(number: int, second: int | None = None) -> Message:
        key = (number, second)
        found = cited.get(key)
        if found is None:
            found = rule(titles, number) if second is None else rules_pair(titles, number, second)
            if type(number) is int and (second is None or type(second) is int):
                cited[key] = found
        return found

    return cite


pontoon_rule: Final = citer("pontoon")
palace_poker_rule: Final = citer("palace-poker")
paiute_rule: Final = citer("paiute")
five_card_draw_rule: Final = citer("five-card-draw-7a")
high_card_flush_rule: Final = citer("high-card-flush")

__all__ = [
    "TITLES",
    "citer",
    "five_card_draw_rule",
    "high_card_flush_rule",
    "paiute_rule",
    "palace_poker_rule",
    "pontoon_rule",
]
