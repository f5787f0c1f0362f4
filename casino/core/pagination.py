"""Every list endpoint's pages: ``?limit=`` and ``?offset=``, both bounded.

A page holds 50 results unless ``limit`` asks for another size, and never more than
:data:`MAX_PAGE_SIZE` (a larger ``limit`` gets that many). An ``offset`` beyond
:data:`MAX_OFFSET` is taken as that (past the last result: an empty page), so no page query
can overflow the database. A ``limit`` or ``offset`` that is not a number is ignored, as DRF
does.
"""

from __future__ import annotations

import contextlib
from typing import Any

from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 200
#: Far beyond any table's row count, far inside any database's integers.
MAX_OFFSET = 10**9


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    default_limit = DEFAULT_PAGE_SIZE
    max_limit = MAX_PAGE_SIZE

    def get_offset(self, request: Request) -> int:
        with contextlib.suppress(KeyError, ValueError):
            offset = int(request.query_params[self.offset_query_param])
            return min(max(offset, 0), MAX_OFFSET)
        return 0

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.limit_query_param:
                parameter["description"] = (
                    f"Number of results per page ({DEFAULT_PAGE_SIZE} unless given, at most "
                    f"{MAX_PAGE_SIZE})."
                )
        return parameters
