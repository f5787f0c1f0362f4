"""Large-payout sign-off as data: which settlements wait for whose signatures, and what they
cannot pass without.

**Tiers.** A table's sign-off policy is its own, else its game's, else the house's, else the
built-in default (:data:`DEFAULT_PRESET`, Mississippi's). A policy is an ordered list of tiers,
each a threshold, a signing role and a count of signatures, and a regulator-notice line. The
amount a settlement is judged by is its **largest win**: for each party but the house, the
larger of its biggest payout line and its net on the hand. A settlement whose largest win is
above a tier's threshold needs that tier's signatures and every lower tier's, each by a
different person holding the tier's role, never the one who asked (:func:`assign`); at or
above the notice line it is flagged for notifying the regulator.

**Prompts** (thresholds in settings, sources in ``docs/signoff.md``): a payout line that wins
at least ``PAYOUT_W2G_MIN`` and at least ``PAYOUT_W2G_MULTIPLE`` times its wager needs a W-2G
record; a party winning more than ``PAYOUT_MTL_ABOVE`` needs an MTL entry; a patron whose
recorded wins in a gaming day come to more than ``PAYOUT_CTR_ABOVE`` needs a CTR (``filings``).
A settlement that reaches a prompt but no tier still waits, for one floor manager who enters
the record.

Everything a request needs is computed once, when the dealer settles, and frozen on the
request (:meth:`Needs.to_dict`), so what was asked is what an auditor reads later.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db.models import OuterRef, Q, Subquery
from django.utils import translation

from casino.core.errors import ApplicationError
from casino.core.money import money
from casino.core.roles import FLOOR_MANAGER, SHIFT_MANAGER, SIGNING_ROLES
from casino.core.transactions import atomic_service
from casino.rules.contract import registry
from casino.rules.errors import Problem

from .chain import audit_append
from .models import SignoffPolicy

#: The most tiers a policy may have, and signatures a tier may ask for.
MAX_TIERS = 6
MAX_COUNT = 5
#: Thresholds are below this (a trillion major units of any currency).
MAX_THRESHOLD = 10**15


def _major(amount: int) -> int:
    """``amount`` major units of the house currency, in minor units."""
    return amount * 10**settings.CURRENCY_EXPONENT


# ---------------------------------------------------------------- tiers and policies


@dataclass(frozen=True)
class Tier:
    """Signatures asked of ``count`` different people with ``role`` for a win above
    ``above`` (minor units)."""

    above: int
    role: str
    count: int

    def to_dict(self) -> dict[str, Any]:
        return {"above": self.above, "role": self.role, "count": self.count}

    @property
    def role_words(self) -> str:
        return SIGNING_ROLES.get(self.role, self.role.replace("_", " "))

    @property
    def who(self) -> str:
        """``"1 floor manager"``, ``"2 shift managers"``."""
        return f"{self.count} {self.role_words}{'s' if self.count != 1 else ''}"


@dataclass(frozen=True)
class Policy:
    tiers: tuple[Tier, ...]
    notice: int | None
    source: str  # "table", "game", "house" or "default"

    def to_dict(self) -> dict[str, Any]:
        return {
            "tiers": [tier.to_dict() for tier in self.tiers],
            "notice": self.notice,
            "source": self.source,
        }

    @property
    def first(self) -> int | None:
        """The lowest threshold: a win at or below it needs no signature for its size."""
        return self.tiers[0].above if self.tiers else None


@dataclass(frozen=True)
class Preset:
    key: str
    name: str
    source: str  # where the figures come from, in words
    tiers: tuple[Tier, ...]
    notice: int | None


def presets() -> dict[str, Preset]:
    """The policies a floor can start from (in the house currency's minor units)."""
    return {
        "mississippi": Preset(
            "mississippi",
            "Mississippi",
            "Mississippi Gaming Commission regulations: a verifier above $1,199.99, a "
            "manager above $5,000, the Commission notified at $100,000",
            (
                Tier(_major(1_200) - 1, FLOOR_MANAGER, 1),
                Tier(_major(5_000), SHIFT_MANAGER, 1),
            ),
            _major(100_000),
        ),
        "nevada": Preset(
            "nevada",
            "Nevada",
            "Nevada Gaming Control Board minimum internal control standards: two people "
            "from $1,200",
            (Tier(_major(1_200) - 1, FLOOR_MANAGER, 2),),
            None,
        ),
    }


#: The house default where nothing is set.
DEFAULT_PRESET = "mississippi"


def default_policy() -> Policy:
    preset = presets()[DEFAULT_PRESET]
    return Policy(preset.tiers, preset.notice, "default")


def tiers_of(data: Iterable[Mapping[str, Any]]) -> tuple[Tier, ...]:
    """Stored tiers (already checked when set) as :class:`Tier` s, lowest first."""
    return tuple(
        sorted(
            (Tier(int(t["above"]), str(t["role"]), int(t["count"])) for t in data),
            key=lambda tier: tier.above,
        )
    )


def _policy(row: tuple[Any, Any] | None, source: str) -> Policy | None:
    if row is None or row[0] is None:
        return None
    tiers, notice = row
    return Policy(tiers_of(tiers), notice, source)


def _in_force(*candidates: Policy | None) -> Policy:
    for policy in candidates:
        if policy is not None:
            return policy
    return default_policy()


def policies_by_table(tables: Iterable[Any]) -> dict[int, Policy]:
    """The sign-off policy in force at each table (its own, else its game's, else the
    house's, else the default), in one query for them all."""
    tables = list(tables)
    rows = SignoffPolicy.objects.filter(
        Q(table_id__in=[t.pk for t in tables])
        | Q(game__in={t.game for t in tables})
        | Q(table__isnull=True, game="")
    )
    own = {row.table_id: (row.tiers, row.notice) for row in rows if row.table_id}
    by_game = {row.game: (row.tiers, row.notice) for row in rows if row.game}
    house = next(((r.tiers, r.notice) for r in rows if not r.table_id and not r.game), None)
    return {
        table.pk: _in_force(
            _policy(own.get(table.pk), "table"),
            _policy(by_game.get(table.game), "game"),
            _policy(house, "house"),
        )
        for table in tables
    }


def policy_annotations(table: str, game: str) -> dict[str, Subquery]:
    """What :func:`policy_annotated` reads, as annotations on a query of rows that name a
    table and its game (``table`` and ``game`` are their paths): the policy comes with the
    row, in the same query (the settle path reads the hand, its table and these at once)."""
    own = SignoffPolicy.objects.filter(table_id=OuterRef(table))
    by_game = SignoffPolicy.objects.filter(table__isnull=True, game=OuterRef(game))
    house = SignoffPolicy.objects.filter(table__isnull=True, game="")
    return {
        "signoff_own_tiers": Subquery(own.values("tiers")[:1]),
        "signoff_own_notice": Subquery(own.values("notice")[:1]),
        "signoff_game_tiers": Subquery(by_game.values("tiers")[:1]),
        "signoff_game_notice": Subquery(by_game.values("notice")[:1]),
        "signoff_house_tiers": Subquery(house.values("tiers")[:1]),
        "signoff_house_notice": Subquery(house.values("notice")[:1]),
    }


def policy_columns(table: str, game: str) -> tuple[str, list[tuple[str, str, bool]]]:
    """:func:`policy_annotations` as SQL for ``payouts.rows.Select``: the joins and the
    columns (named as the annotations, tiers as JSON) of the policies of the table whose id
    and game the SQL expressions ``table`` and ``game`` give. Each join finds at most one
    policy (a table's own, a game's and the house's are each unique)."""
    policies = SignoffPolicy._meta.db_table
    joins = (
        f'LEFT JOIN "{policies}" own ON own.table_id = {table} '
        f'LEFT JOIN "{policies}" by_game ON by_game.table_id IS NULL AND by_game.game = {game} '
        f"LEFT JOIN \"{policies}\" house ON house.table_id IS NULL AND house.game = ''"
    )
    columns = [
        (f"signoff_{scope}_{name}", f"{alias}.{name}", name == "tiers")
        for scope, alias in (("own", "own"), ("game", "by_game"), ("house", "house"))
        for name in ("tiers", "notice")
    ]
    return joins, columns


def policy_annotated(row: Any) -> Policy:
    """The policy in force, from a row carrying :func:`policy_annotations`."""
    return _in_force(
        *(
            _policy((getattr(row, f"signoff_{s}_tiers"), getattr(row, f"signoff_{s}_notice")), n)
            for s, n in (("own", "table"), ("game", "game"), ("house", "house"))
        )
    )


# ---------------------------------------------------------------- what a settlement needs


@dataclass(frozen=True)
class Prompts:
    """The tax and cash-reporting thresholds (settings, minor units)."""

    w2g_min: int
    w2g_multiple: int
    mtl_above: int
    ctr_above: int

    @classmethod
    def current(cls) -> Prompts:
        return cls(
            settings.PAYOUT_W2G_MIN,
            settings.PAYOUT_W2G_MULTIPLE,
            settings.PAYOUT_MTL_ABOVE,
            settings.PAYOUT_CTR_ABOVE,
        )

    def to_dict(self) -> dict[str, int]:
        return {
            "w2g_min": self.w2g_min,
            "w2g_multiple": self.w2g_multiple,
            "mtl_above": self.mtl_above,
            "ctr_above": self.ctr_above,
        }


@dataclass(frozen=True)
class W2GLine:
    """A payout line that needs a W-2G: ``amount`` won on ``wager`` (the line's own stake,
    or the seat's stake in the hand for a bonus with no stake of its own)."""

    seat: int
    index: int  # the line's place among the seat's lines
    name: str  # the wager's name (``flush_bonus``)
    wager: int
    amount: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "line": self.index,
            "name": self.name,
            "wager": self.wager,
            "amount": self.amount,
        }


@dataclass(frozen=True)
class Needs:
    """What a settlement needs before it is stored (empty: nothing, store it now)."""

    win: int  # the largest win of one party
    wins: dict[int, int]  # each winning party's win, by seat
    policy: Policy
    prompts: Prompts
    tiers: tuple[Tier, ...] = ()  # the tiers the largest win reaches
    w2g: tuple[W2GLine, ...] = ()
    mtl: tuple[int, ...] = ()  # seats
    notice: bool = False
    reasons: tuple[str, ...] = field(default=())

    @property
    def held(self) -> bool:
        return bool(self.tiers or self.w2g or self.mtl or self.notice)

    @property
    def signatures(self) -> tuple[Tier, ...]:
        """The tiers of signatures to collect: those reached, else (a prompt alone holds it)
        one floor manager, who enters the record."""
        return self.tiers or (Tier(0, FLOOR_MANAGER, 1),)

    def to_dict(self) -> dict[str, Any]:
        return {
            "win": self.win,
            "wins": {str(seat): amount for seat, amount in sorted(self.wins.items())},
            "policy": self.policy.to_dict(),
            "prompts": self.prompts.to_dict(),
            "tiers": [tier.to_dict() for tier in self.signatures],
            "tiers_reached": len(self.tiers),
            "w2g": [line.to_dict() for line in self.w2g],
            "mtl": list(self.mtl),
            "notice": self.notice,
        }


def party_wins(result: Mapping[str, Any]) -> dict[int, int]:
    """Each party's win on the hand (the larger of its biggest line and its net), for the
    parties that win something; never the house (``result["house"]``)."""
    wins = {}
    for party in result.get("seats", []):
        best = max([line["amount"] for line in party.get("lines", [])] + [party.get("net", 0)])
        if best > 0:
            wins[int(party["seat"])] = int(best)
    return wins


def _w2g_lines(result: Mapping[str, Any], prompts: Prompts) -> list[W2GLine]:
    found = []
    for party in result.get("seats", []):
        lines = party.get("lines", [])
        staked = sum(max(int(line.get("stake") or 0), 0) for line in lines)
        for index, line in enumerate(lines):
            amount, stake = int(line["amount"]), int(line.get("stake") or 0)
            wager = stake if stake > 0 else staked
            if amount >= prompts.w2g_min and amount >= prompts.w2g_multiple * wager:
                found.append(W2GLine(int(party["seat"]), index, str(line["wager"]), wager, amount))
    return found


def _words(amount: int) -> str:
    with translation.override("en"):  # stored text stays in one language
        return money(amount)


def needs_of(result: Mapping[str, Any], policy: Policy, prompts: Prompts | None = None) -> Needs:
    """What the settlement ``result`` (as ``Settlement.to_dict()`` gives it) needs under
    ``policy``; its ``reasons`` say why, in words."""
    prompts = prompts or Prompts.current()
    wins = party_wins(result)
    win = max(wins.values(), default=0)
    tiers = tuple(tier for tier in policy.tiers if win > tier.above)
    w2g = tuple(_w2g_lines(result, prompts))
    mtl = tuple(seat for seat, amount in sorted(wins.items()) if amount > prompts.mtl_above)
    notice = policy.notice is not None and win >= policy.notice
    reasons = []
    if tiers:
        top = max(wins, key=lambda seat: (wins[seat], -seat))
        asks = ", then ".join(tier.who for tier in tiers)
        one = len(tiers) == 1 and tiers[0].count == 1
        reasons.append(
            f"seat {top} wins {_words(win)}, above {_words(tiers[-1].above)}: {asks} "
            f"{'signs' if one else 'sign'}"
        )
    for line in w2g:
        reasons.append(
            f"seat {line.seat}'s {line.name.replace('_', ' ')} wins {_words(line.amount)}: "
            "a W-2G with the winner's identity"
        )
    for seat in mtl:
        reasons.append(f"seat {seat} wins {_words(wins[seat])}: an MTL entry")
    if notice:
        reasons.append(f"the regulator is notified (a win of {_words(policy.notice or 0)} or more)")
    return Needs(win, wins, policy, prompts, tiers, w2g, mtl, notice, tuple(reasons))


# ---------------------------------------------------------------- who signs which tier


@dataclass(frozen=True)
class Signer:
    """One signature as :func:`assign` sees it: who, and the roles they held."""

    who: Any  # a user id
    roles: frozenset[str]


def _slots(tiers: Sequence[Tier]) -> list[tuple[int, str]]:
    return [(index, tier.role) for index, tier in enumerate(tiers) for _ in range(tier.count)]


def assign(tiers: Sequence[Tier], signers: Sequence[Signer]) -> dict[int, int]:
    """Each signature (by its place in ``signers``) that counts, to the tier (by index) it
    counts for: as many as can count at once (a maximum matching of signatures to the
    tiers' places, each place needing its tier's role), so a shift manager who signed first
    leaves the floor manager's place to a floor manager rather than taking it."""
    slots = _slots(tiers)
    taken: dict[int, int] = {}  # slot -> signer

    def place(signer: int, seen: set[int]) -> bool:
        # The highest tiers first: a signer takes the place fewer people may take.
        for slot in reversed(range(len(slots))):
            role = slots[slot][1]
            if slot in seen or role not in signers[signer].roles:
                continue
            seen.add(slot)
            if slot not in taken or place(taken[slot], seen):
                taken[slot] = signer
                return True
        return False

    for signer in range(len(signers)):
        place(signer, set())
    return {signer: slots[slot][0] for slot, signer in taken.items()}


def still_needed(tiers: Sequence[Tier], signers: Sequence[Signer]) -> list[Tier]:
    """Each tier's signatures still missing (as a tier with the missing ``count``)."""
    counted = assign(tiers, signers)
    missing = []
    for index, tier in enumerate(tiers):
        have = sum(1 for t in counted.values() if t == index)
        if have < tier.count:
            missing.append(Tier(tier.above, tier.role, tier.count - have))
    return missing


# ---------------------------------------------------------------- setting a policy


def check_tiers(tiers: Any, notice: Any) -> tuple[tuple[Tier, ...], int | None]:
    """Tiers and a notice line as a client sent them, checked: each problem names its place
    (``tiers[1].role``)."""
    problems: list[Problem] = []
    if not isinstance(tiers, list) or not tiers:
        raise ApplicationError("a policy needs at least one tier", path="tiers")
    if len(tiers) > MAX_TIERS:
        raise ApplicationError(f"a policy has at most {MAX_TIERS} tiers", path="tiers")
    parsed: list[Tier] = []
    for index, tier in enumerate(tiers):
        where = f"tiers[{index}]"
        if not isinstance(tier, dict):
            problems.append(Problem(where, f"{where}: a tier is an object"))
            continue
        above, role, count = tier.get("above"), tier.get("role"), tier.get("count", 1)
        ok = True
        if isinstance(above, bool) or not isinstance(above, int) or not 0 < above < MAX_THRESHOLD:
            problems.append(
                Problem(f"{where}.above", f"tier {index + 1}: the threshold is an amount above 0")
            )
            ok = False
        if role not in SIGNING_ROLES:
            problems.append(
                Problem(
                    f"{where}.role",
                    f"tier {index + 1}: the role is one of "
                    f"{', '.join(SIGNING_ROLES.values())} ({', '.join(SIGNING_ROLES)})",
                )
            )
            ok = False
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
            problems.append(
                Problem(
                    f"{where}.count",
                    f"tier {index + 1}: the signatures are 1 to {MAX_COUNT} people",
                )
            )
            ok = False
        if ok:
            parsed.append(Tier(above, role, count))
    for index in range(1, len(parsed)):
        if len(parsed) == len(tiers) and parsed[index].above <= parsed[index - 1].above:
            problems.append(
                Problem(
                    f"tiers[{index}].above",
                    f"tier {index + 1}: each tier's threshold is above the one before "
                    f"({_words(parsed[index - 1].above)})",
                )
            )
    if notice is not None and (
        isinstance(notice, bool) or not isinstance(notice, int) or not 0 < notice < MAX_THRESHOLD
    ):
        problems.append(Problem("notice", "the regulator-notice line is an amount above 0"))
    if problems:
        raise ApplicationError(problems[0].message, problems=problems)
    return tuple(parsed), notice


@atomic_service
def signoff_policy_set(
    *,
    user: Any,
    tiers: Any,
    notice: Any = None,
    table: Any = None,
    game: str = "",
) -> SignoffPolicy:
    """Set (or replace) the sign-off tiers and notice line of one table, one game, or the
    house (neither), audited with what they replace."""
    if table is not None and game:
        raise ApplicationError("name a table, a game or neither (the house), not both", path="game")
    if game and game not in registry():
        raise ApplicationError(
            f"{game!r} is not a game; games: {', '.join(sorted(registry()))}", path="game"
        )
    parsed, notice = check_tiers(tiers, notice)
    if table is not None:
        scope: dict[str, Any] = {"table": table}
        subject = f"table:{table.pk}"
    else:
        scope = {"table": None, "game": game}
        subject = f"game:{game}" if game else "house"
    current = SignoffPolicy.objects.select_for_update().filter(**scope).first()
    before = {"tiers": current.tiers, "notice": current.notice} if current else None
    after = {"tiers": [tier.to_dict() for tier in parsed], "notice": notice}
    row, _ = SignoffPolicy.objects.update_or_create(**scope, defaults={**after, "set_by": user})
    audit_append(
        actor=user,
        action="signoff_policy_set",
        subject=subject,
        table=table,
        before=before,
        after=after,
    )
    return row


@atomic_service
def signoff_policy_clear(*, user: Any, table: Any = None, game: str = "") -> bool:
    """Drop a table's, a game's or (neither) the house's own policy: it then follows its
    game's, the house's or the built-in default; audited. False when there was none."""
    if table is not None and game:
        raise ApplicationError("name a table, a game or neither (the house), not both", path="game")
    scope: dict[str, Any] = {"table": table} if table is not None else {"table": None, "game": game}
    current = SignoffPolicy.objects.select_for_update().filter(**scope).first()
    if current is None:
        return False
    before = {"tiers": current.tiers, "notice": current.notice}
    current.delete()
    audit_append(
        actor=user,
        action="signoff_policy_cleared",
        subject=f"table:{table.pk}" if table is not None else f"game:{game}" if game else "house",
        table=table,
        before=before,
        after=None,
    )
    return True


def amount_words(amount: int | None) -> str:
    """An amount in the house currency (English digits), for stored and audited text."""
    return "none" if amount is None else _words(amount)
