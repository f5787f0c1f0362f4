"""Reads for the compliance desk: settlements searched and filtered, one settlement's whole
story (its hand replayed step by step, its lines, sign-offs and audit entries), the audit log
and the audit checks. Games are known only through the registry."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.http import Http404
from django.shortcuts import get_object_or_404

from approvals.models import Approval
from approvals.selectors import approval_list
from casino.core.i18n import explanation_text
from casino.core.money import money
from casino.rules.contract import History, game, hand_view, registry
from payouts.chain import stored_form
from payouts.checkpoints import inclusion, last_run
from payouts.figures import Figures, of_settlement
from payouts.models import (
    AuditCheck,
    AuditCheckpoint,
    AuditEntry,
    PayoutLine,
    SeatSettlement,
    Settlement,
)
from payouts.selectors import audit_check_list, audit_entry_list
from payouts.services import result_parties, verdict
from tables.models import Table

from . import describe

HOUSE_SEAT = 0
MAX_ID = 2**63 - 1  # ids are bigints: a larger one names nothing


def _known_id(pk: int) -> int:
    """``pk`` if it can be an id; a 404 otherwise (never a database overflow)."""
    if not 0 < pk <= MAX_ID:
        raise Http404("no such object")
    return pk


# ---------------------------------------------------------------- choices for the filters


def table_choices() -> QuerySet[Table]:
    return Table.objects.order_by("name")


def game_choices() -> list[tuple[str, str]]:
    """Every registered game as (code, name)."""
    return sorted(((code, found.name) for code, found in registry().items()), key=lambda c: c[1])


def game_name(code: str) -> str:
    found = registry().get(code)
    return found.name if found is not None else code


def settler_choices() -> QuerySet[Any]:
    """Everyone who has settled a hand (a dealer, or a floor manager who settled)."""
    users = get_user_model().objects
    return users.filter(pk__in=Settlement.objects.values("settled_by_id")).order_by("username")


def audit_action_choices() -> list[str]:
    return list(AuditEntry.objects.order_by("action").values_list("action", flat=True).distinct())


# ---------------------------------------------------------------- settlements


def _signed_off() -> Exists:
    """The hand's settlement was held as a large payout and signed off by a floor manager."""
    return Exists(
        Approval.objects.filter(
            hand_id=OuterRef("hand_id"),
            kind=Approval.Kind.PAYOUT,
            status=Approval.Status.APPROVED,
        )
    )


def settlement_search(
    *,
    settled_from: dt.datetime | None = None,
    settled_before: dt.datetime | None = None,
    table: Table | None = None,
    game_code: str = "",
    settled_by: Any = None,
    seat: int | None = None,
    min_net: int | None = None,
    min_payout: int | None = None,
    signed_off: bool | None = None,
) -> QuerySet[Settlement]:
    """The settlements matching every filter given, newest first.

    ``seat``: a player's seat took part; ``min_net``: a player's seat won or lost at least
    this much on the hand (its net, either sign); ``min_payout``: a player's payout line paid
    at least this much; ``signed_off``: True for settlements signed off after a large-payout
    hold, False for those settled normally. The house (seat 0) is never a seat here.
    """
    queryset = Settlement.objects.all()
    if settled_from is not None:
        queryset = queryset.filter(settled_at__gte=settled_from)
    if settled_before is not None:
        queryset = queryset.filter(settled_at__lt=settled_before)
    if table is not None:
        queryset = queryset.filter(hand__table=table)
    if game_code:
        queryset = queryset.filter(hand__game=game_code)
    if settled_by is not None:
        queryset = queryset.filter(settled_by=settled_by)
    players = SeatSettlement.objects.filter(settlement=OuterRef("pk")).exclude(seat=HOUSE_SEAT)
    if seat is not None:
        queryset = queryset.filter(Exists(players.filter(seat=seat)))
    if min_net is not None:
        queryset = queryset.filter(
            Exists(players.filter(Q(net__gte=min_net) | Q(net__lte=-min_net)))
        )
    if min_payout is not None:
        lines = PayoutLine.objects.filter(seat__settlement=OuterRef("pk"), amount__gte=min_payout)
        queryset = queryset.filter(Exists(lines.exclude(seat__seat=HOUSE_SEAT)))
    if signed_off is not None:
        queryset = queryset.filter(_signed_off()) if signed_off else queryset.exclude(_signed_off())
    return queryset.order_by("-settled_at", "-id")


def settlement_rows(settlements: QuerySet[Settlement]) -> QuerySet[Settlement]:
    """The settlements ready for a list: hand, table, who settled, parties and lines, and
    whether each was signed off (``signed_off``)."""
    return (
        settlements.select_related("hand__table", "settled_by")
        .prefetch_related("seats__lines")
        .annotate(signed_off=_signed_off())
    )


@dataclass(frozen=True)
class Row:
    """A settlement as the list shows it: its figures (as the totals count them) and the
    players' seats that took part."""

    settlement: Settlement
    figures: Figures
    seats: list[int]
    game_name: str


def settlement_list_rows(settlements: Iterable[Settlement]) -> list[Row]:
    """The list's rows, from settlements read with :func:`settlement_rows`."""
    return [
        Row(
            settlement=each,
            figures=of_settlement(each),
            seats=[row.seat for row in each.seats.all() if row.seat != HOUSE_SEAT],
            game_name=game_name(each.hand.game),
        )
        for each in settlements
    ]


# ---------------------------------------------------------------- one settlement


def state_words(view: Mapping[str, Any]) -> str:
    """Whose turn it is after a step, in words: ``seat 3 to act``, ``the house to act``, ``the
    hand is complete``, ``any seat may act``."""
    if view.get("complete"):
        return "the hand is complete"
    presentation = view.get("presentation") or {}
    to_act = presentation.get("to_act", view.get("to_act"))
    if to_act is None:
        to_act = view.get("to_act")
    if to_act is None:
        return "any seat may act"
    return f"{describe.party_words(to_act)} to act"


@dataclass(frozen=True)
class Step:
    """One step of a replayed hand: the hand as it opened (``action`` None), an action and the
    hand after it, or the settlement at the end (``nets`` by seat)."""

    number: int
    action: dict[str, Any] | None
    title: str
    state: str
    view: dict[str, Any] | None
    nets: dict[int, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        """What the page's replay draws (the presentation view, as the tablet draws it)."""
        return {
            "number": self.number,
            "title": self.title,
            "state": self.state,
            "view": self.view,
            "nets": {str(seat): net for seat, net in self.nets.items()} if self.nets else None,
        }


@dataclass
class Replay:
    steps: list[Step] = field(default_factory=list)
    error: str | None = None  # where replaying stopped, in words
    complete: bool = False
    matches_stored: bool | None = None  # re-settling gives the stored result (None: not settled)

    @property
    def actions(self) -> int:
        return sum(1 for step in self.steps if step.action is not None)

    def data(self) -> list[dict[str, Any]]:
        return [step.to_dict() for step in self.steps]


def settled_words(result: Mapping[str, Any]) -> str:
    """The settlement at the end of a replay: each party's net and the rake."""
    nets = describe.nets_words(
        {str(party.get("seat")): party.get("net") for party in result_parties(dict(result))}
    )
    rake = result.get("rake")
    rake_words = f"rake {money(rake)}" if describe.is_amount(rake) else ""
    return "The hand settled: " + "; ".join(part for part in (nets, rake_words) if part)


def hand_replay(history_data: Mapping[str, Any], stored_result: Mapping[str, Any]) -> Replay:
    """The stored history replayed step by step through its game: the hand as it opened
    (``new_hand(config, rules)``), then each action applied in order, each step with the
    hand's presentation view (what the dealer's tablet draws) and the action in words; a
    complete hand ends with its settlement (each party's net, as stored). A history the game
    refuses stops the replay with the reason (a compliance page never fails on it)."""
    replay = Replay()
    try:
        history = History.from_dict(history_data)
        found = game(history.game)
        state = found.new_hand(history.config, history.rules)
    except Exception as exc:  # a forged or unreadable history is shown, not a 500
        replay.error = f"the hand cannot be set up from its history: {exc}"
        return replay
    view = hand_view(state, history.game)
    replay.steps.append(
        Step(0, None, "The hand as it opened", state_words(view), view.get("presentation"))
    )
    for index, action in enumerate(history.actions):
        words = describe.action_words(action, history.game)
        try:
            state.apply(action, index)
        except Exception as exc:  # the engine's refusal, shown in words
            replay.error = f"step {index + 1} ({words}) is refused: {exc}"
            return replay
        view = hand_view(state, history.game)
        replay.steps.append(
            Step(
                index + 1,
                dict(action),
                words[:1].upper() + words[1:],
                state_words(view),
                view.get("presentation"),
            )
        )
    replay.complete = bool(state.complete)
    if replay.complete:
        try:
            fresh = json.loads(stored_form(state.settle().to_dict()))
        except Exception as exc:  # an engine failure is shown, not a 500
            replay.error = f"re-settling the replayed hand fails: {exc}"
            return replay
        replay.matches_stored = fresh == json.loads(stored_form(stored_result))
        nets = {
            int(party["seat"]): int(party["net"])
            for party in result_parties(dict(stored_result))
            if describe.is_amount(party.get("seat")) and describe.is_amount(party.get("net"))
        }
        replay.steps.append(
            Step(
                len(replay.steps),
                None,
                settled_words(stored_result),
                "the hand is complete",
                view.get("presentation"),
                nets,
            )
        )
    return replay


@dataclass(frozen=True)
class Party:
    """A seat (or the house, seat 0) of a settlement with its stored row and lines."""

    row: SeatSettlement
    lines: list[PayoutLine]
    cards: list[str]

    @property
    def name(self) -> str:
        return "the house" if self.row.seat == HOUSE_SEAT else f"seat {self.row.seat}"

    @property
    def role(self) -> str:
        return describe.words(self.row.role)

    @property
    def cards_shown(self) -> str:
        return describe.cards_words(self.cards)


def _entry_game(entry: AuditEntry) -> str | None:
    hand = getattr(entry, "hand", None)
    if hand is not None:
        return str(hand.game)
    table = getattr(entry, "table", None)
    return str(table.game) if table is not None else None


def entries_described(entries: Iterable[AuditEntry]) -> list[AuditEntry]:
    """The entries, each with ``words``: what it records, in words (read with its hand and
    table)."""
    described = []
    for entry in entries:
        hand = getattr(entry, "hand", None)
        entry.words = describe.entry_words(  # type: ignore[attr-defined]
            entry.action,
            entry.before,
            entry.after,
            game_code=_entry_game(entry),
            hand_number=hand.number if hand is not None else None,
            subject=entry.subject,
        )
        described.append(entry)
    return described


def _plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def _signoff_summary(signoffs: list[Approval]) -> str:
    if not signoffs:
        return "none"
    statuses = ", ".join(sorted({str(approval.status) for approval in signoffs}))
    return f"{_plural(len(signoffs), 'request')} ({statuses})"


def _inclusion_summary(found: Any) -> str:
    if found is None:
        return "not in a signed checkpoint yet"
    if not found.verified:
        return "the proof does not verify"
    size = found.checkpoint.statement.get("settlements", {}).get("size")
    of = f" of {size}" if size is not None else ""
    return f"leaf {found.position + 1}{of} in checkpoint {found.checkpoint.number}, verified"


def settlement_detail(*, settlement_id: int) -> dict[str, Any]:
    """Everything the settlement's page shows (404 for an unknown settlement)."""
    settlement = get_object_or_404(
        settlement_rows(Settlement.objects.all()), pk=_known_id(settlement_id)
    )
    hand = settlement.hand
    result = settlement.result if isinstance(settlement.result, dict) else {}
    history = settlement.history if isinstance(settlement.history, dict) else {}
    cards = {party.get("seat"): party.get("cards") or [] for party in result_parties(result)}
    parties = [
        Party(row=row, lines=list(row.lines.all()), cards=list(cards.get(row.seat, [])))
        for row in settlement.seats.all()
    ]
    rules = history.get("rules") if isinstance(history.get("rules"), dict) else {}
    config = history.get("config") if isinstance(history.get("config"), dict) else {}
    # A reversal's history is the settlement it cancels: replayed, it gives that
    # settlement's result (the audit check checks the reversal moves back all of it).
    replayed = (
        settlement.corrects.result
        if settlement.kind == Settlement.Kind.REVERSAL and settlement.corrects
        else result
    )
    replay = hand_replay(history, replayed if isinstance(replayed, dict) else {})
    signoffs = list(approval_list(hand_id=hand.pk).order_by("requested_at", "id"))
    entries = entries_described(
        audit_entry_list(hand_id=hand.pk).select_related("hand", "table").order_by("seq")
    )
    found = inclusion(settlement.pk)
    lines = sum(len(party.lines) for party in parties)
    return {
        "settlement": settlement,
        "hand": hand,
        "game_name": game_name(hand.game),
        "replay": replay,
        "replay_data": replay.data(),
        "rules": describe.rules_words(hand.game, rules),
        "config": describe.setup_words(hand.game, config),
        "parties": parties,
        # In words and money, the rules cited by their titles (as the API serves it).
        "explanation": [str(line) for line in explanation_text(result)],
        "signoffs": signoffs,
        "entries": entries,
        "inclusion": found,
        "anchor_interval": settings.AUDIT_ANCHOR_INTERVAL,
        "summary": {
            "payouts": f"{_plural(len(parties), 'party', 'parties')}, "
            f"{_plural(lines, 'line')}, rake {money(settlement.rake)}",
            "rules": f"{_plural(len(rules), 'rule')}, {_plural(len(config), 'set-up fact')}",
            "signoffs": _signoff_summary(signoffs),
            "entries": _plural(len(entries), "entry", "entries")
            + (f", {entries[0].seq} to {entries[-1].seq}" if len(entries) > 1 else ""),
            "inclusion": _inclusion_summary(found),
        },
    }


def settlement_proof(*, settlement_id: int) -> dict[str, Any] | None:
    """The settlement's inclusion proof as the standalone verifier reads it (None while no
    checkpoint covers it; 404 for an unknown settlement)."""
    settlement = get_object_or_404(Settlement.objects.all(), pk=_known_id(settlement_id))
    found = inclusion(settlement.pk)
    return found.document(settlement.history, settlement.result) if found else None


# ---------------------------------------------------------------- the audit log


def audit_entry_search(
    *,
    action: str = "",
    actor: str = "",
    table: Table | None = None,
    at_from: dt.datetime | None = None,
    at_before: dt.datetime | None = None,
) -> QuerySet[AuditEntry]:
    """Audit entries matching every filter given, newest first; ``actor`` is part of the
    actor's name (any letter case). Each has ``settlement_id`` when its hand was settled."""
    queryset = audit_entry_list(table_id=table.pk if table is not None else None, action=action)
    if actor:
        queryset = queryset.filter(actor_name__icontains=actor)
    if at_from is not None:
        queryset = queryset.filter(at__gte=at_from)
    if at_before is not None:
        queryset = queryset.filter(at__lt=at_before)
    return (
        queryset.select_related("table", "hand")
        .annotate(
            settlement_id=Subquery(
                Settlement.objects.filter(
                    hand_id=OuterRef("hand_id"), kind=Settlement.Kind.SETTLEMENT
                ).values("pk")[:1]
            )
        )
        .order_by("-seq")
    )


def _as_sealed(check: AuditCheck) -> AuditCheck:
    """The check as its sealed verdict states it (``payouts.services.verdict``): ``status``
    is the sealed one; a row changed behind its seal shows ``seal_problem`` and no report."""
    sealed = verdict(check)
    check.status = sealed["status"]
    check.seal_problem = sealed["problem"]  # type: ignore[attr-defined]
    check.sealed = sealed["sealed"]  # type: ignore[attr-defined]
    if sealed["problem"]:
        check.report = {}
    return check


def audit_checks_recent(limit: int = 10) -> list[AuditCheck]:
    return [_as_sealed(check) for check in audit_check_list()[:limit]]


def audit_check(*, check_id: int) -> AuditCheck:
    return _as_sealed(get_object_or_404(audit_check_list(), pk=_known_id(check_id)))


def audit_standing() -> dict[str, Any]:
    """What the audit page states first: the last passed full check and check, the last
    signed checkpoint, and why the last anchor run could not sign, if it could not."""
    run = last_run()
    return {
        "last_passed": last_passed_checks(),
        "checkpoint": AuditCheckpoint.objects.order_by("-number").first(),
        "anchor_problem": run.problem if run is not None else "",
    }


def last_passed_checks() -> dict[str, AuditCheck | None]:
    """The newest passed full check and the newest passed check of any kind, as sealed."""
    found: dict[str, AuditCheck | None] = {"full": None, "any": None}
    for key, queryset in (
        ("full", audit_check_list().filter(full=True)),
        ("any", audit_check_list()),
    ):
        for check in queryset.filter(status=AuditCheck.Status.PASSED)[:5]:
            if _as_sealed(check).status == AuditCheck.Status.PASSED:
                found[key] = check
                break
    return found


def findings_with_settlements(check: AuditCheck) -> list[dict[str, Any]]:
    """A check's findings, each with the settlement of the hand it names (if one is stored),
    so the page can link to it."""
    report = check.report if isinstance(check.report, dict) else {}
    findings = [f for f in report.get("findings") or [] if isinstance(f, dict)]
    hands = {f.get("hand") for f in findings if isinstance(f.get("hand"), int)}
    settled = dict(
        Settlement.objects.filter(hand_id__in=hands, kind=Settlement.Kind.SETTLEMENT).values_list(
            "hand_id", "pk"
        )
    )
    return [{**f, "settlement": settled.get(f.get("hand"))} for f in findings]
