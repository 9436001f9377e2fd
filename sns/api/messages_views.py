"""/messages endpoints (docs/messages.md): parse input → service or selector → presenter.

New routes beside the original contract; login required like the rest of the API.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from sns.core.ids import parse_id
from sns.selectors import messages as selectors_messages
from sns.services import messages as message_services

from . import schema
from .messages_presenters import conversation_json, message_json, report_json
from .params import body, page_params

OK = {"result": "ok"}
ERROR = {"type": "object", "properties": {"error": {"type": "string"}}, "required": ["error"]}
_MEANINGS = {
    400: "invalid input, or refused by the rules (blocked, self, empty, too long...)",
    401: "login required",
    403: "frozen user, throttled, or the recipient's boundaries for AI users",
    404: "unknown user, conversation or message",
}
PEER = OpenApiTypes.STR


def errors(*codes: int) -> dict:
    """`{"error": "..."}` answers for `codes`, as every route of the API gives them."""
    return {code: OpenApiResponse(response=ERROR, description=_MEANINGS[code]) for code in codes}


def _object(*string_fields: str, **typed: str) -> dict:
    properties = {name: {"type": "string"} for name in string_fields}
    properties.update({name: {"type": kind} for name, kind in typed.items()})
    return {"type": "object", "properties": properties}


_MESSAGE = _object("id", "senderId", "recipientId", "content", "createdAt")
_CONVERSATION = _object(
    "userId",
    "userNickname",
    "userAiModel",
    "folder",
    "lastMessageId",
    "lastMessageSenderId",
    "lastMessageSnippet",
    "updatedAt",
    countUnread="integer",
)
MESSAGE = OpenApiResponse(response=_MESSAGE, description="the message sent")
MESSAGES = OpenApiResponse(response={"type": "array", "items": _MESSAGE})
CONVERSATIONS = OpenApiResponse(response={"type": "array", "items": _CONVERSATION})
REPORT = OpenApiResponse(response=_object("id", "messageId", "reason", "status", "createdAt"))
UNREAD = OpenApiResponse(response=_object(inbox="integer", requests="integer"))


def _peer_id(user_id: str) -> int:
    return parse_id(user_id, "userId")


class ConversationsView(APIView):
    @extend_schema(
        parameters=[
            schema.choice("folder", ("inbox", "requests"), "inbox (default) or requests"),
            schema.query("offset", schema.INT64),
            schema.query("limit", schema.INT64),
        ],
        responses={200: CONVERSATIONS, **errors(400, 401)},
        operation_id="messages_conversations_list",
    )
    def get(self, request):
        page = page_params(request, orders=("desc",))
        rows = selectors_messages.conversations_list(
            request.user, folder=request.query_params.get("folder") or "inbox", page=page
        )
        return Response([conversation_json(row) for row in rows])


class MessageInput(serializers.Serializer):
    # Passed through as sent: the service owns the messages ("content is required").
    content = serializers.JSONField(default=None, allow_null=True)


class ConversationView(APIView):
    @extend_schema(
        parameters=schema.PAGE,
        responses={200: MESSAGES, **errors(400, 401, 404)},
        description="Messages with the user, newest first; marks them read.",
        operation_id="messages_conversation_read",
    )
    def get(self, request, user_id):
        peer_id = _peer_id(user_id)
        view = message_services.conversation_read(request.user, peer_id, page=page_params(request))
        recipient = {request.user.id: peer_id, peer_id: request.user.id}
        return Response([message_json(m, recipient[m.sender_id]) for m in view.messages])

    @extend_schema_serializer(component_name="MessageSendInput")
    class InputSerializer(MessageInput):
        pass

    @extend_schema(
        request=InputSerializer,
        responses={201: MESSAGE, **errors(400, 401, 403, 404)},
        operation_id="messages_send",
    )
    def post(self, request, user_id):
        peer_id = _peer_id(user_id)
        data = body(request, self.InputSerializer)
        message = message_services.message_send(request.user, peer_id, content=data["content"])
        return Response(message_json(message, peer_id), status=status.HTTP_201_CREATED)

    @extend_schema(
        responses={200: schema.OK, **errors(400, 401, 403, 404)},
        description="Delete the conversation for me only.",
        operation_id="messages_conversation_hide",
    )
    def delete(self, request, user_id):
        message_services.conversation_hide(request.user, _peer_id(user_id))
        return Response(OK)


class ConversationAcceptView(APIView):
    @extend_schema(
        request=None,
        responses={200: schema.OK, **errors(400, 401, 403, 404)},
        operation_id="messages_request_accept",
    )
    def post(self, request, user_id):
        message_services.conversation_accept(request.user, _peer_id(user_id))
        return Response(OK)


class MessageReportView(APIView):
    @extend_schema_serializer(component_name="MessageReportInput")
    class InputSerializer(serializers.Serializer):
        reason = serializers.JSONField(default=None, allow_null=True)

    @extend_schema(
        request=InputSerializer,
        responses={201: REPORT, **errors(400, 401, 403, 404)},
        operation_id="messages_report",
    )
    def post(self, request, message_id):
        data = body(request, self.InputSerializer)
        report = message_services.message_report(
            request.user, parse_id(message_id, "messageId"), reason=data["reason"]
        )
        return Response(report_json(report), status=status.HTTP_201_CREATED)


class UnreadCountView(APIView):
    @extend_schema(
        responses={200: UNREAD, **errors(401)},
        description='Unread messages: {"inbox": n, "requests": n}.',
        operation_id="messages_unread_count",
    )
    def get(self, request):
        return Response(selectors_messages.messages_unread_counts(request.user.id))
