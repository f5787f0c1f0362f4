"""The registry of rules engines, by game code.

Each :class:`GameEngine` gives the API what it needs without knowing the game: its default
rules, a validator that merges rule overrides onto a base (a table's frozen rules, or the
defaults), and ``evaluate`` that settles a complete hand record. Every function raises
:class:`~casino.rules.errors.RuleError` for bad input and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from casino.rules import five_card_draw, high_card_flush, paiute, palace_poker, pontoon
from casino.rules.settlement import Settlement


class DefaultRules(Protocol):
    def __call__(self) -> dict[str, Any]: ...


class RulesParser(Protocol):
    def __call__(
        self, data: Mapping[str, Any] | None, base: Mapping[str, Any] | None = None
    ) -> dict[str, Any]: ...


class Evaluator(Protocol):
    def __call__(
        self, record: Mapping[str, Any], rules: Mapping[str, Any] | None = None
    ) -> Settlement: ...


@dataclass(frozen=True, slots=True)
class GameEngine:
    """One game: ``code`` as in the API, a display ``name`` and its three entry points.

    ``default_rules()`` and ``parse_rules(data, base=None)`` return JSON-ready dicts (the
    effective rules, validated); ``evaluate(record, rules=None)`` returns the settlement, with
    ``rules`` the effective rules or overrides of the defaults (the record itself carries none).
    """

    code: str
    name: str
    default_rules: DefaultRules
    parse_rules: RulesParser
    evaluate: Evaluator


GAMES: dict[str, GameEngine] = {
    engine.code: engine
    for engine in (
        GameEngine(
            code=high_card_flush.GAME_CODE,
            name=high_card_flush.GAME_NAME,
            default_rules=high_card_flush.default_rules,
            parse_rules=high_card_flush.parse_rules,
            evaluate=high_card_flush.evaluate,
        ),
        GameEngine(
            code=five_card_draw.GAME_CODE,
            name=five_card_draw.GAME_NAME,
            default_rules=five_card_draw.default_rules,
            parse_rules=five_card_draw.parse_rules,
            evaluate=five_card_draw.evaluate,
        ),
        GameEngine(
            code=pontoon.GAME_CODE,
            name=pontoon.GAME_NAME,
            default_rules=pontoon.default_rules,
            parse_rules=pontoon.parse_rules,
            evaluate=pontoon.evaluate,
        ),
        GameEngine(
            code=paiute.GAME_CODE,
            name=paiute.GAME_NAME,
            default_rules=paiute.default_rules,
            parse_rules=paiute.parse_rules,
            evaluate=paiute.evaluate,
        ),
        GameEngine(
            code=palace_poker.GAME_CODE,
            name=palace_poker.GAME_NAME,
            default_rules=palace_poker.default_rules,
            parse_rules=palace_poker.parse_rules,
            evaluate=palace_poker.evaluate,
        ),
    )
}
