"""/users endpoints (docs/api.md §2): parse input → service or selector → presenter."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from sns import selectors, services
from sns.core.ids import parse_id
from sns.reads.access import access_admin
from sns.services.sessions import session_password_change

from . import schema, shapes
from .params import (
    BodySerializer,
    HexIdField,
    StringField,
    body,
    cursor,
    optional_id,
    page_params,
)
from .presenters import user_detail_json, user_json, user_lite_json

OK = {"result": "ok"}


def _text(described: dict | None = None, **kwargs):
    """A string field that leaves blank and too-long checks to the services, so
    their messages reach the client; `described` is what the document says of it."""
    # A class per description: DRF deep-copies field instances, annotations and all lost.
    kind = StringField
    if described:
        kind = extend_schema_field(described)(type("Text", (StringField,), {}))
    return kind(required=False, allow_blank=True, trim_whitespace=False, **kwargs)


# What the services accept, for the document.
EMAIL = {"type": "string", "format": "email", "maxLength": 100}
NICKNAME = {"type": "string", "maxLength": 50}
AVATAR = {"type": "string", "maxLength": 100, "nullable": True}
AI_MODEL = {"type": "string", "enum": ["advanced", "balanced", "basic"], "nullable": True}
AI_MEMORY = {"type": "string", "enum": ["allowed", "none"]}


class UsersView(APIView):
    @extend_schema_serializer(component_name="UserCreateInput")
    class InputSerializer(BodySerializer):
        schema_required = ("email", "nickname", "password")
        id = HexIdField(strict=True, source="user_id")
        email = _text(EMAIL, default=None, allow_null=True)
        nickname = _text(NICKNAME, default=None, allow_null=True)
        password = _text(default=None, allow_null=True)
        isAdmin = serializers.BooleanField(required=False, source="is_admin")
        blockStrangers = serializers.BooleanField(required=False, source="block_strangers")
        locale = _text(allow_null=True)
        timezone = _text(allow_null=True, source="timezone_name")
        introduction = _text(allow_null=True)
        avatar = _text(AVATAR, allow_null=True)
        aiModel = _text(AI_MODEL, allow_null=True, source="ai_model")
        aiPersonality = _text(allow_null=True, source="ai_personality")

    @extend_schema(
        parameters=[*schema.PAGE, schema.FOCUS, schema.AFTER]
        + [schema.query("query", description="full-text filter; admins only")]
        + [schema.query(n) for n in ("nickname", "nicknamePrefix")],
        responses={200: shapes.many(shapes.User), **schema.errors(403)},
        operation_id="users_list",
    )
    def get(self, request):
        page = page_params(request, orders=("desc", "asc", "social"))
        text = request.query_params.get("query")
        if text:
            access_admin(request.user)
        focus = optional_id(request, "focusUserId")
        users = selectors.users_list(
            page=page,
            query=text,
            nickname=request.query_params.get("nickname"),
            nickname_prefix=request.query_params.get("nicknamePrefix"),
            after=cursor(request, page),
            focus_user_id=focus,
        )
        return Response([user_json(u, focus) for u in users])

    @extend_schema(request=InputSerializer, responses={201: shapes.User})
    def post(self, request):
        data = body(request, self.InputSerializer)
        user = services.user_create(request.user, **data)
        return Response(user_json(user), status=status.HTTP_201_CREATED)


class UserView(APIView):
    @extend_schema_serializer(component_name="UserUpdateInput")
    class InputSerializer(BodySerializer):
        email = _text(EMAIL)
        nickname = _text(NICKNAME)
        introduction = _text()
        avatar = _text(AVATAR, allow_null=True)
        locale = _text()
        timezone = _text(source="timezone_name")
        blockStrangers = serializers.BooleanField(required=False, source="block_strangers")
        aiPersonality = _text(allow_null=True, source="ai_personality")
        isAdmin = serializers.BooleanField(required=False, source="is_admin")
        isFrozen = serializers.BooleanField(required=False, source="is_frozen")
        aiModel = _text(AI_MODEL, allow_null=True, source="ai_model")
        # Ours: whether AI users may remember the user (docs/what-ai-users-know.md).
        aiMemory = _text(AI_MEMORY, source="ai_memory")

    @extend_schema(parameters=[schema.FOCUS], responses=shapes.UserDetail)
    def get(self, request, user_id):
        focus = optional_id(request, "focusUserId")
        user = selectors.user_get(parse_id(user_id), focus_user_id=focus)
        return Response(user_detail_json(user, request.user, focus))

    @extend_schema(request=InputSerializer, responses=shapes.User)
    def put(self, request, user_id):
        target_id = parse_id(user_id)
        user = services.user_update(request.user, target_id, **body(request, self.InputSerializer))
        return Response(user_json(user))

    @extend_schema(responses={200: shapes.OK})
    def delete(self, request, user_id):
        services.user_delete(request.user, parse_id(user_id))
        return Response(OK)


class UserLiteView(APIView):
    @extend_schema(responses=shapes.UserLite)
    def get(self, request, user_id):
        return Response(user_lite_json(selectors.user_get(parse_id(user_id))))


class UserPasswordView(APIView):
    @extend_schema_serializer(component_name="UserPasswordInput")
    class InputSerializer(BodySerializer):
        schema_required = ("password",)
        password = _text(default=None, allow_null=True)
        # Ours: one's own password needs it, unless the session logged in recently
        # (docs/accounts.md §6); the original's frontend sends `password` alone.
        currentPassword = _text(default=None, allow_null=True, source="current_password")

    @extend_schema(request=InputSerializer, responses=shapes.OK)
    def put(self, request, user_id):
        data = body(request, self.InputSerializer)
        session_password_change(
            request._request,
            request.user,
            parse_id(user_id),
            data["password"],
            current_password=data["current_password"],
        )
        return Response(OK)


class UserFollowView(APIView):
    @extend_schema(request=None, responses=shapes.OK)
    def post(self, request, user_id):
        services.follow_add(request.user, parse_id(user_id))
        return Response(OK)

    @extend_schema(responses={200: shapes.OK})
    def delete(self, request, user_id):
        services.follow_remove(request.user, parse_id(user_id))
        return Response(OK)


class UserBlockView(APIView):
    @extend_schema(request=None, responses=shapes.OK)
    def post(self, request, user_id):
        services.block_add(request.user, parse_id(user_id))
        return Response(OK)

    @extend_schema(responses={200: shapes.OK})
    def delete(self, request, user_id):
        services.block_remove(request.user, parse_id(user_id))
        return Response(OK)


class UserFolloweesView(APIView):
    @extend_schema(
        parameters=[*schema.PAGE, schema.FOCUS, schema.AFTER], responses=shapes.many(shapes.User)
    )
    def get(self, request, user_id):
        page = page_params(request)
        focus = optional_id(request, "focusUserId")
        users = selectors.user_followees(
            user_id=parse_id(user_id), page=page, focus_user_id=focus, after=cursor(request, page)
        )
        return Response([user_json(u, focus) for u in users])


class UserFollowersView(APIView):
    @extend_schema(parameters=[*schema.PAGE, schema.FOCUS], responses=shapes.many(shapes.User))
    def get(self, request, user_id):
        page = page_params(request)
        focus = optional_id(request, "focusUserId")
        users = selectors.user_followers(user_id=parse_id(user_id), page=page, focus_user_id=focus)
        return Response([user_json(u, focus) for u in users])


class UserBlockeesView(APIView):
    @extend_schema(
        parameters=[*schema.PAGE, schema.FOCUS, schema.AFTER], responses=shapes.many(shapes.User)
    )
    def get(self, request, user_id):
        page = page_params(request)
        focus = optional_id(request, "focusUserId")
        users = selectors.user_blockees(
            user_id=parse_id(user_id), page=page, focus_user_id=focus, after=cursor(request, page)
        )
        return Response([user_json(u, focus) for u in users])
