"""What a limit or rule change would do, asked before it is requested (nothing is written):
the problems the request would be refused with, each changed option before and after, the
theoretical edge before and after, and the first hand it could apply from.

The floor desk's change form shows it as the form is filled in, and the dealer's tablet reads
it from ``POST /api/v1/tables/{id}/changes/preview/``. The checks are the change request's
own (``tables.services``), so what the preview accepts the request accepts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from casino.core.errors import ApplicationError
from casino.core.i18n import problem_text
from casino.core.option_words import ChangedOption, changes_in_words
from casino.rules.errors import Problem, RuleError
from hold.selectors import ChangeTheory, theory_for_proposal

from .models import Table
from .selectors import table_config
from .services import _check_change_keys, _merged, _validate_config, changeable, game_of


@dataclass
class ChangePreview:
    """A proposed change of ``table``: ``problems`` (none: the request would be accepted),
    ``options`` (each changed option before and after), ``theory`` (the edge before and after;
    None until the change is valid, or for a game with no theoretical hold) and
    ``applies_from_hand`` (the earliest hand it could apply from: the first hand opened after
    another floor manager approves it)."""

    table: Table
    changes: dict[str, Any]
    before: dict[str, Any]
    problems: list[Problem] = field(default_factory=list)
    options: list[ChangedOption] = field(default_factory=list)
    theory: ChangeTheory | None = None
    theory_offered: bool = True

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def applies_from_hand(self) -> int:
        return int(self.table.next_hand_number)

    @property
    def problem_texts(self) -> list[str]:
        return [problem_text(problem) for problem in self.problems]


def change_preview(*, table: Table, changes: Any) -> ChangePreview:
    """The preview of ``changes`` (as ``change_request`` takes them) at ``table``."""
    game = game_of(table)
    before = table_config(table)
    preview = ChangePreview(table, changes if isinstance(changes, dict) else {}, before)
    try:
        if not isinstance(changes, dict) or not changes:
            raise ApplicationError(
                "changes must name at least one of: " + ", ".join(changeable(game)),
                path="changes",
            )
        _check_change_keys(game, changes)
    except (ApplicationError, RuleError) as exc:
        preview.problems = list(exc.problems)
        return preview
    preview.options = changes_in_words(game, before, changes)
    try:
        _validate_config(game, _merged(before, changes))
    except (ApplicationError, RuleError) as exc:
        preview.problems = list(exc.problems)
        return preview
    preview.theory = theory_for_proposal(table, before, changes)
    preview.theory_offered = preview.theory is not None and getattr(preview.theory, "offered", True)
    return preview


def figure_data(view: Any) -> dict[str, Any] | None:
    """One figure of the edge as the API gives it: its state and, when ready, its value (a
    ratio: 0.0245 is 2.45%) with its 95% interval for a simulation."""
    if view is None:
        return None
    row = view.row
    data: dict[str, Any] = {
        "status": row.status,
        "exact": bool(view.exact),
        "value": row.value if view.ready else None,
        "low": row.low if view.ready and not view.exact else None,
        "high": row.high if view.ready and not view.exact else None,
        "hands": row.hands if view.ready and not view.exact else None,
    }
    if view.failed:
        data["error"] = row.error
    return data


def preview_data(preview: ChangePreview) -> dict[str, Any]:
    """The preview as the API answers it (``ChangePreviewSerializer``)."""
    theory = preview.theory
    pairs = []
    if theory is not None and not theory.error:
        pairs = [
            {
                "measure": pair.measure,
                "label": pair.label,
                "note": pair.note,
                "changes": pair.changed,
                "before": figure_data(pair.before),
                "after": figure_data(pair.after),
            }
            for pair in theory.pairs
        ]
    return {
        "table": preview.table.pk,
        "valid": preview.valid,
        "errors": [
            {
                "path": problem.path,
                "message": problem_text(problem),
                **({"code": problem.code, "params": problem.params} if problem.code else {}),
            }
            for problem in preview.problems
        ],
        "changes": [option.to_dict() for option in preview.options],
        "applies_from_hand": preview.applies_from_hand,
        "theory": {
            "offered": preview.theory_offered if preview.valid else None,
            "computing": bool(theory is not None and theory.computing),
            "error": theory.error if theory is not None and theory.error else "",
            "figures": pairs,
        },
    }
