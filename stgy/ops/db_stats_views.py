"""/db-stats routes for admins (docs/operations.md, "Database statistics"); the rules
are in stgy/ops/db_stats.py."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from sns.api import schema
from sns.api.params import int_value
from sns.api.permissions import Public
from sns.core.errors import DomainError, InvalidInput
from sns.reads.access import access_admin

from . import db_stats

ENABLED = OpenApiResponse(
    response={
        "type": "object",
        "required": ["result", "enabled"],
        "properties": {"result": {"type": "string"}, "enabled": {"type": "boolean"}},
    },
    description='{"result": "ok", "enabled": true|false}',
)
SLOW_QUERIES = OpenApiResponse(
    response={
        "type": "array",
        "items": {
            "type": "object",
            "required": ["id", "query", "calls", "totalExecTime"],
            "properties": {
                "id": {"type": "string", "description": "queryid as 16 hex digits"},
                "query": {"type": "string"},
                "calls": {"type": "number"},
                "totalExecTime": {"type": "number", "description": "milliseconds"},
            },
        },
    },
    description="statements by total execution time",
)
PLAN = OpenApiResponse(response={"type": "array", "items": {"type": "string"}}, description="EXPLAIN lines")
ADMIN_ERRORS = schema.errors(400, 403)


class DbStatsView(APIView):
    permission_classes = [Public]

    def head(self, request):
        # The original answers a stranger with a bare 403, as HEAD has no body.
        try:
            access_admin(request.user)
        except DomainError:
            return HttpResponse(status=403)
        enabled = db_stats.is_enabled()
        response = HttpResponse(status=200 if enabled else 204)
        response["x-db-stats-enabled"] = "1" if enabled else "0"
        return response


class _Switch(APIView):
    permission_classes = [Public]
    switch = staticmethod(db_stats.enable)

    def post(self, request):
        access_admin(request.user)
        self.switch()
        return Response({"result": "ok", "enabled": db_stats.is_enabled()})


class DbStatsEnableView(_Switch):
    switch = staticmethod(db_stats.enable)

    @extend_schema(request=None, responses={200: ENABLED, **ADMIN_ERRORS}, operation_id="db_stats_enable")
    def post(self, request):
        return super().post(request)


class DbStatsDisableView(_Switch):
    switch = staticmethod(db_stats.disable)

    @extend_schema(request=None, responses={200: ENABLED, **ADMIN_ERRORS}, operation_id="db_stats_disable")
    def post(self, request):
        return super().post(request)


class DbStatsClearView(APIView):
    permission_classes = [Public]

    @extend_schema(request=None, responses={200: schema.OK, **ADMIN_ERRORS}, operation_id="db_stats_clear")
    def post(self, request):
        access_admin(request.user)
        db_stats.clear()
        return Response({"result": "ok"})


class SlowQueriesView(APIView):
    permission_classes = [Public]

    @extend_schema(
        parameters=schema.PAGE,
        responses={200: SLOW_QUERIES, **ADMIN_ERRORS},
        operation_id="db_stats_slow_queries",
    )
    def get(self, request):
        access_admin(request.user)
        query = request.query_params
        order = (query.get("order") or "desc").lower()
        if order not in ("desc", "asc"):
            raise InvalidInput("invalid order")
        rows = db_stats.slow_queries(
            offset=int_value(query.get("offset"), 0, "offset"),
            limit=int_value(query.get("limit"), db_stats.DEFAULT_LIMIT, "limit"),
            order=order,
        )
        return Response([row.as_json() for row in rows])


class SlowQueryExplainView(APIView):
    permission_classes = [Public]

    @extend_schema(responses={200: PLAN, **ADMIN_ERRORS}, operation_id="db_stats_explain")
    def get(self, request, query_id: str):
        access_admin(request.user)
        return Response(db_stats.explain(query_id))
