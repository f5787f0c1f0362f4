"""The approvals queue: thin views over ``approvals.services``."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.generics import ListAPIView, RetrieveAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.core.idempotency import idempotent
from casino.core.roles import DEALER, FLOOR_MANAGER

from . import selectors, services
from .models import Approval
from .serializers import ApprovalFilterSerializer, ApprovalSerializer, DecisionSerializer


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
    and what was decided, newest first. Any role reads it; a 400 names a bad filter."""

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
    """Approve or reject a request: a floor manager other than the one who asked."""

    write_roles = (FLOOR_MANAGER,)
    approve = True

    @extend_schema(request=DecisionSerializer, responses={200: ApprovalSerializer})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = DecisionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        approval = services.approval_decide(
            user=request.user, approval_id=pk, approve=self.approve, **data.validated_data
        )
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
            user=request.user, approval_id=pk, **data.validated_data
        )
        return Response(ApprovalSerializer(approval).data)
