"""The approvals queue and the large-payout sign-off policies: thin views over
``approvals.services`` and ``payouts.signoff``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.generics import ListAPIView, RetrieveAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.core.errors import ApplicationError, ErrorResponseSerializer
from casino.core.idempotency import idempotent
from casino.core.roles import DEALER, FLOOR_MANAGER
from payouts.models import SignoffPolicy
from payouts.signoff import (
    Policy,
    default_policy,
    policies_by_table,
    presets,
    signoff_policy_clear,
    signoff_policy_set,
    tiers_of,
)
from tables.models import Table

from . import selectors, services
from .models import Approval
from .serializers import (
    ApprovalFilterSerializer,
    ApprovalSerializer,
    DecisionSerializer,
    PolicyClearSerializer,
    PolicyListSerializer,
    PolicySerializer,
    PolicySetSerializer,
    RecordsSerializer,
)

ERRORS = {
    code: OpenApiResponse(ErrorResponseSerializer, description=words)
    for code, words in (
        (400, "bad input, or (signing) a record the payout needs is missing: each named"),
        (403, "not a floor manager, one's own request, or a signature no tier can count"),
        (404, "no such request"),
        (409, "already decided, or already signed by this person"),
    )
}


@extend_schema(
    parameters=[
        OpenApiParameter("kind", enum=Approval.Kind.values, description="only this kind"),
        OpenApiParameter("status", enum=Approval.Status.values, description="only this state"),
        OpenApiParameter("table", int, description="only this table's requests"),
        OpenApiParameter("hand", int, description="only this hand's requests"),
    ]
)
class ApprovalListView(ListAPIView):
    """What waits for a floor manager (limit changes, voids, payout sign-offs, corrections)
    and what was decided, newest first. Any role reads it; a 400 names a bad filter. A payout
    sign-off carries ``signoff``: its tiers, who signed, the records it needs (W-2G, MTL,
    CTR) and what is still missing."""

    serializer_class = ApprovalSerializer

    def get_queryset(self):  # type: ignore[no-untyped-def]
        filters = ApprovalFilterSerializer(data=self.request.query_params)
        filters.is_valid(raise_exception=True)
        given = filters.validated_data
        return selectors.approval_list(
            kind=given.get("kind"),
            status=given.get("status"),
            table_id=given.get("table"),
            hand_id=given.get("hand"),
        )


class ApprovalDetailView(RetrieveAPIView):
    serializer_class = ApprovalSerializer

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return selectors.approval_list()


class ApprovalDecisionView(APIView):
    """Approve or reject a request: a floor manager other than the one who asked.

    A payout sign-off is approved by signatures: each ``approve`` is one person's signature
    (with a role a tier the win reaches asks for; the same person never twice), and the one
    that completes the tiers stores the settlement; until then the answer is the request,
    still pending, saying what is missing. A signature is refused (400, naming each) while a
    W-2G, an MTL entry or a CTR the payout needs is missing: send them with it (``patrons``,
    ``ctr``) or first through ``records/``. A payout sent back (``reject``) needs a note."""

    write_roles = (FLOOR_MANAGER,)
    approve = True

    @extend_schema(request=DecisionSerializer, responses={200: ApprovalSerializer, **ERRORS})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = DecisionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        approval = services.approval_decide(
            user=request.user, approval_id=pk, approve=self.approve, **data.validated_data
        )
        return Response(ApprovalSerializer(approval).data)


class ApprovalRecordsView(APIView):
    """Enter what a held payout needs without signing: a winning seat's patron (the W-2G
    and MTL entry follow from it; a W-2G needs the address and taxpayer id) and the CTR of a
    patron whose gaming day goes above the CTR line. A floor manager other than the one who
    asked; every entry is audited, the numbers masked."""

    write_roles = (FLOOR_MANAGER,)

    @extend_schema(request=RecordsSerializer, responses={200: ApprovalSerializer, **ERRORS})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = RecordsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        approval = services.payout_records(user=request.user, approval_id=pk, **data.validated_data)
        return Response(ApprovalSerializer(approval).data)


class ApprovalWithdrawView(APIView):
    """Take back one's own request (the dealer or floor manager who asked)."""

    write_roles = (DEALER, FLOOR_MANAGER)

    @extend_schema(request=DecisionSerializer, responses={200: ApprovalSerializer})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = DecisionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        approval = services.approval_withdraw(
            user=request.user, approval_id=pk, note=data.validated_data["note"]
        )
        return Response(ApprovalSerializer(approval).data)


# ---------------------------------------------------------------- sign-off policies


def policy_data(
    policy: Policy,
    *,
    table: Table | None = None,
    row: SignoffPolicy | None = None,
) -> dict[str, Any]:
    return {
        "scope": policy.source,
        "table": table.pk if table is not None else None,
        "table_name": table.name if table is not None else None,
        "game": row.game if row is not None else (table.game if table is not None else ""),
        "tiers": [tier.to_dict() for tier in policy.tiers],
        "notice": policy.notice,
        "set_by": row.set_by.get_username() if row is not None else None,
        "set_at": row.set_at if row is not None else None,
    }


def _row_policy(row: SignoffPolicy) -> Policy:
    scope = "table" if row.table_id else "game" if row.game else "house"
    return Policy(tiers_of(row.tiers), row.notice, scope)


class SignoffPolicyView(APIView):
    """Large-payout sign-off as data (any role reads; a floor manager sets, audited).

    A policy is tiers (each a threshold, a signing role and a count of signatures, lowest
    first) and a regulator-notice line, for one table, every table of a game, or the house
    (neither): a table follows its own, else its game's, else the house's, else the built-in
    default (Mississippi's: a floor manager above $1,199.99, a shift manager above $5,000,
    the regulator notified at $100,000). ``preset`` starts from a regulator's tiers
    (``nevada``: two floor managers from $1,200). Amounts in minor units."""

    write_roles = (FLOOR_MANAGER,)

    @extend_schema(responses={200: PolicyListSerializer})
    def get(self, request: Request) -> Response:
        rows = list(SignoffPolicy.objects.select_related("set_by", "table").order_by("id"))
        house_row = next((r for r in rows if not r.table_id and not r.game), None)
        house = _row_policy(house_row) if house_row else default_policy()
        tables = list(Table.objects.order_by("name"))
        in_force = policies_by_table(tables)
        own = {r.table_id: r for r in rows if r.table_id}
        games = {r.game: r for r in rows if r.game}
        return Response(
            PolicyListSerializer(
                {
                    "house": policy_data(house, row=house_row),
                    "set": [
                        policy_data(_row_policy(r), table=r.table, row=r)
                        for r in rows
                        if r.table_id or r.game
                    ],
                    "tables": [
                        policy_data(
                            in_force[t.pk],
                            table=t,
                            row=own.get(t.pk)
                            if in_force[t.pk].source == "table"
                            else games.get(t.game)
                            if in_force[t.pk].source == "game"
                            else house_row,
                        )
                        for t in tables
                    ],
                }
            ).data
        )

    @extend_schema(request=PolicySetSerializer, responses={200: PolicySerializer, **ERRORS})
    @idempotent
    def post(self, request: Request) -> Response:
        data = PolicySetSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        table = _table(given["table"])
        preset = presets().get(given.get("preset") or "")
        if "tiers" in given:
            tiers = [dict(tier) for tier in given["tiers"]]
        elif preset is not None:
            tiers = [tier.to_dict() for tier in preset.tiers]
        else:
            raise ApplicationError("give the tiers, or a preset to start from", path="tiers")
        if "notice" in given:
            notice = given["notice"]
        else:
            notice = preset.notice if preset is not None else default_policy().notice
        row = signoff_policy_set(
            user=request.user, tiers=tiers, notice=notice, table=table, game=given["game"]
        )
        row.refresh_from_db()
        return Response(PolicySerializer(policy_data(_row_policy(row), table=table, row=row)).data)


class SignoffPolicyClearView(APIView):
    """Drop a table's or a game's own sign-off policy: it follows its game's or the house's
    again (audited). 200 with whether there was one."""

    write_roles = (FLOOR_MANAGER,)

    @extend_schema(
        request=PolicyClearSerializer,
        responses={
            200: inline_serializer(
                "SignoffPolicyCleared",
                {"cleared": serializers.BooleanField(help_text="there was one to drop")},
            ),
            **ERRORS,
        },
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = PolicyClearSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        cleared = signoff_policy_clear(
            user=request.user, table=_table(given["table"]), game=given["game"]
        )
        return Response({"cleared": cleared})


def _table(pk: int | None) -> Table | None:
    if pk is None:
        return None
    table = Table.objects.filter(pk=pk).first()
    if table is None:
        raise ApplicationError(f"there is no table {pk}", path="table")
    return table
