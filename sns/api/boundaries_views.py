"""/users/{id}/ai-boundaries and /users/{id}/ai-stops (docs/messages.md): a person's
switches for AI users and their "stop" records. The person themself or an admin."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
)
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from sns.core.errors import InvalidInput
from sns.core.ids import parse_id
from sns.reads.access import access_user_self_or_admin
from sns.selectors import boundaries as selectors_boundaries
from sns.services import boundaries as boundary_services

from . import schema
from .messages_presenters import boundaries_json, stop_json
from .messages_views import OK, errors
from .params import BodySerializer, HexIdField, body

BOUNDARIES = OpenApiResponse(
    response=OpenApiTypes.OBJECT,
    description="allowReplies, allowMentions, allowMessages, quietHoursStart, quietHoursEnd (HH:MM in the "
    "account's time zone, or null), timezone",
)
DURATIONS = ("48h", "forever")


class AiBoundariesView(APIView):
    @extend_schema_serializer(component_name="AiBoundariesInput")
    class InputSerializer(serializers.Serializer):
        # Passed through as sent: the service refuses anything but true/false.
        allowReplies = serializers.JSONField(required=False, source="allow_replies")
        allowMentions = serializers.JSONField(required=False, source="allow_mentions")
        allowMessages = serializers.JSONField(required=False, source="allow_messages")
        # "HH:MM" or null, in the person's account time zone; checked by the service.
        quietHoursStart = serializers.JSONField(
            required=False, allow_null=True, source="quiet_start"
        )
        quietHoursEnd = serializers.JSONField(required=False, allow_null=True, source="quiet_end")

    @extend_schema(responses={200: BOUNDARIES, **errors(400, 401, 403, 404)})
    def get(self, request, user_id):
        user = access_user_self_or_admin(request.user, parse_id(user_id))
        return Response(boundaries_json(selectors_boundaries.ai_boundaries_get(user.id), user))

    @extend_schema(
        request=InputSerializer, responses={200: BOUNDARIES, **errors(400, 401, 403, 404)}
    )
    def put(self, request, user_id):
        data = body(request, self.InputSerializer)
        user = access_user_self_or_admin(request.user, parse_id(user_id))
        result = boundary_services.ai_boundaries_update(request.user, user.id, **data)
        return Response(boundaries_json(result, user))


@extend_schema_field({"type": "string", "enum": list(DURATIONS), "default": "48h"})
class _Duration(serializers.CharField):
    """The view checks it and says "duration must be 48h or forever"."""


class AiStopsView(APIView):
    @extend_schema_serializer(component_name="AiStopInput")
    class InputSerializer(BodySerializer):
        schema_required = ("aiUserId",)
        aiUserId = HexIdField(source="ai_user_id")
        duration = _Duration(required=False, default="48h")

    @extend_schema(responses={200: schema.LIST, **errors(400, 401, 403, 404)})
    def get(self, request, user_id):
        person = access_user_self_or_admin(request.user, parse_id(user_id))
        return Response([stop_json(s) for s in selectors_boundaries.ai_stops_list(person.id)])

    @extend_schema(
        request=InputSerializer,
        responses={
            201: OpenApiResponse(response=OpenApiTypes.OBJECT),
            **errors(400, 401, 403, 404),
        },
        description='Stop one AI user for 48 hours ("48h", the default) or "forever".',
    )
    def post(self, request, user_id):
        data = body(request, self.InputSerializer)
        if data.get("ai_user_id") is None:
            raise InvalidInput("aiUserId is required")
        if data["duration"] not in DURATIONS:
            raise InvalidInput("duration must be 48h or forever")
        stop = boundary_services.ai_stop_add(
            request.user,
            data["ai_user_id"],
            forever=data["duration"] == "forever",
            person_id=parse_id(user_id),
        )
        return Response(stop_json(stop), status=status.HTTP_201_CREATED)


class AiStopView(APIView):
    @extend_schema(responses={200: schema.OK, **errors(400, 401, 403, 404)})
    def delete(self, request, user_id, ai_user_id):
        boundary_services.ai_stop_remove(
            request.user, parse_id(ai_user_id, "aiUserId"), person_id=parse_id(user_id)
        )
        return Response(OK)
