"""``POST /bare/``: the framework's floor, for the load test to compare settle with."""

from __future__ import annotations

from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.core.roles import DEALER, FLOOR_MANAGER

from .models import BareRow


class BareView(APIView):
    """Authenticated by token and role-checked as every API view is (the project's default
    authentication and permission classes); inserts one row and answers 201."""

    write_roles = (DEALER, FLOOR_MANAGER)

    def post(self, request: Request) -> Response:
        row = BareRow.objects.create(user_id=request.user.pk)
        return Response({"id": row.pk}, status=status.HTTP_201_CREATED)
