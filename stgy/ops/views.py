"""/health, /metrics and /metrics/aggregation (docs/operations.md, "Health, metrics and
database statistics"): thin views over stgy/ops/health.py, metrics.py and aggregation.py."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from sns.api import schema
from sns.api.permissions import Public
from sns.reads.access import access_admin

from . import aggregation, metrics
from .access import access_metrics
from .health import health

_PART = {"type": "string", "description": "ok, down, or local/inline (no Redis)"}
HEALTH = {
    "type": "object",
    "required": ["result", "degraded", "database", "cache", "broker", "llm"],
    "properties": {
        "result": {"type": "string", "enum": ["ok", "error"]},
        "error": {"type": "string"},
        "degraded": {"type": "array", "items": {"type": "string"}},
        "database": _PART,
        "cache": _PART,
        "broker": _PART,
        "llm": {
            "type": "object",
            "required": ["provider", "status"],
            "properties": {
                "provider": {"type": "string"},
                "status": {"type": "string", "enum": ["ok", "down", "recovering", "disabled"]},
                "breaker": {"type": "string"},
            },
        },
    },
}
TEXT = OpenApiResponse(response=OpenApiTypes.STR, description="Prometheus text exposition format")
BY_TARGET = OpenApiResponse(
    response={"type": "object", "additionalProperties": {"type": "string"}},
    description="one entry per backend in STGY_BACKEND_API_PRIVATE_URL_LIST ('local' when none)",
)


class HealthView(APIView):
    permission_classes = [Public]

    def perform_authentication(self, request):
        # No session lookup, not even for a caller with a cookie: the check must answer
        # (503) when the database is away.
        pass

    @extend_schema(
        responses={200: OpenApiResponse(HEALTH, "the site serves; `degraded` lists parts that are down"),
                   503: OpenApiResponse(HEALTH, "the database is unavailable")},
        operation_id="health",
    )
    def get(self, request):
        status, body = health()
        return Response(body, status=status)


class MetricsView(APIView):
    permission_classes = [Public]

    @extend_schema(responses={(200, "text/plain"): TEXT, **schema.errors(403)}, operation_id="metrics")
    def get(self, request):
        access_metrics(request)
        body, content_type = metrics.render()
        return HttpResponse(body, content_type=content_type)


class MetricsClearView(APIView):
    permission_classes = [Public]

    @extend_schema(request=None, responses={200: schema.OK}, operation_id="metrics_clear")
    def post(self, request):
        access_admin(request.user)
        metrics.reset()
        return Response({"result": "ok"})


class MetricsAggregationView(APIView):
    permission_classes = [Public]

    @extend_schema(responses={200: BY_TARGET, **schema.errors(403)}, operation_id="metrics_aggregation")
    def get(self, request):
        access_admin(request.user)
        return Response(aggregation.collect(request))


class MetricsAggregationClearView(APIView):
    permission_classes = [Public]

    @extend_schema(request=None, responses={200: BY_TARGET}, operation_id="metrics_aggregation_clear")
    def post(self, request):
        access_admin(request.user)
        results = aggregation.clear_all(request)
        metrics.reset()  # this process too, as the original did after answering
        return Response(results)
