"""POST /posts/{postId}/report: report a post or a reply to the admins (docs/pages.md §3).

A route of ours beside the original contract (docs/differences.md); login required
like the rest of the API. Reports of messages are /messages/{messageId}/report.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from sns.core.ids import id_to_hex, parse_id
from sns.services import reports as report_services

from . import schema
from .params import body
from .presenters import iso

_REPORT = {
    "type": "object",
    "properties": {
        name: {"type": "string"}
        for name in ("id", "kind", "postId", "reason", "note", "status", "createdAt")
    },
}
REPORT = OpenApiResponse(response=_REPORT, description="the report, open")


def post_report_json(report) -> dict:
    return {
        "id": id_to_hex(report.id),
        "kind": report.kind,
        "postId": id_to_hex(report.post_id),
        "reason": report.reason,
        "note": report.note,
        "status": report.status,
        "createdAt": iso(report.created_at),
    }


class PostReportView(APIView):
    @extend_schema_serializer(component_name="PostReportInput")
    class InputSerializer(serializers.Serializer):
        # JSON fields, so the service owns every message ("reason must be one of ...").
        reason = serializers.JSONField(
            default=None,
            allow_null=True,
            help_text="one of: " + ", ".join(report_services.REASONS),
        )
        note = serializers.JSONField(
            default=None, allow_null=True, help_text="optional words for the admins"
        )

    @extend_schema(
        request=InputSerializer,
        responses={
            201: REPORT,
            **schema.errors(400, 401, 404),
            403: schema.error(403, "frozen user, or too many reports this hour"),
        },
        operation_id="posts_report",
        description="Report someone else's post or reply to the admins. One open report "
        "per reporter and post (400 `already reported`).",
    )
    def post(self, request, post_id):
        data = body(request, self.InputSerializer)
        report = report_services.post_report(
            request.user, parse_id(post_id, "postId"), reason=data["reason"], note=data["note"]
        )
        return Response(post_report_json(report), status=status.HTTP_201_CREATED)
