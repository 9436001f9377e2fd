"""/notifications endpoints (docs/api.md §4)."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from sns import selectors, services
from sns.selectors.shares import SHARE_SLOTS_Q

from . import schema, shapes
from .params import BodySerializer, PassedBool, PassedText, body, optional_datetime
from .presenters import notification_json


class NotificationsFeedView(APIView):
    @extend_schema(
        parameters=[
            schema.query(
                "newerThan",
                OpenApiTypes.DATETIME,
                description="ISO date-time; 304 if nothing newer",
            )
        ],
        responses={200: shapes.many(shapes.Notification), 304: schema.NO_CONTENT},
    )
    def get(self, request):
        rows = selectors.notifications_feed(
            request.user,
            newer_than=optional_datetime(request, "newerThan"),
            shown=settings.STGY_NOTIFICATION_SHOWN_RECORDS,
            # Reposts and quotes are served by /notifications/shares (docs/shares.md).
            where=~SHARE_SLOTS_Q,
        )
        if rows is None:
            return Response(status=status.HTTP_304_NOT_MODIFIED)
        return Response([notification_json(n) for n in rows])


class NotificationMarkView(APIView):
    @extend_schema_serializer(component_name="NotificationMarkInput")
    class InputSerializer(BodySerializer):
        # Passed through as sent: the service checks the types and owns the message.
        schema_required = ("slot", "term", "isRead")
        slot = PassedText(default=None)
        term = PassedText(default=None)
        isRead = PassedBool(default=None, source="is_read")

    @extend_schema(request=InputSerializer, responses={204: schema.NO_CONTENT})
    def post(self, request):
        services.notification_mark(request.user, **body(request, self.InputSerializer))
        return Response(status=status.HTTP_204_NO_CONTENT)


class NotificationMarkAllView(APIView):
    @extend_schema_serializer(component_name="NotificationMarkAllInput")
    class InputSerializer(BodySerializer):
        schema_required = ("isRead",)
        isRead = PassedBool(default=None, source="is_read")

    @extend_schema(request=InputSerializer, responses={204: schema.NO_CONTENT})
    def post(self, request):
        services.notification_mark_all(request.user, **body(request, self.InputSerializer))
        return Response(status=status.HTTP_204_NO_CONTENT)
