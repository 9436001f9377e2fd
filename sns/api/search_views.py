"""Search, KWIC excerpts, counts and the nickname-prefix friend list (docs/api.md,
"Search"): parse input → sns.search → presenter."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from sns import selectors
from sns.core.errors import InvalidInput
from sns.core.ids import parse_id
from sns.geo.service import QUERY_HASH_HEADER
from sns.reads.access import access_admin
from sns.search import engine, excerpts
from sns.search.friends import friends_by_nickname_prefix
from sns.search.query import ParsedQuery, parse_query, search_owner

from . import schema, shapes
from .params import flag, int_value, optional_id, page_params
from .permissions import Public
from .presenters import post_json, user_json, user_lite_json

DEFAULT_SEARCH_LIMIT = 21


class _PostSearchResult(serializers.Serializer):
    tokens = serializers.ListField(child=serializers.CharField())
    phrases = serializers.ListField(child=serializers.CharField())
    result = shapes.Post(many=True)


class _UserSearchResult(serializers.Serializer):
    tokens = serializers.ListField(child=serializers.CharField())
    phrases = serializers.ListField(child=serializers.CharField())
    result = shapes.UserLite(many=True)


class _Kwic(serializers.Serializer):
    id = serializers.CharField(help_text="16 hex digits")
    kwic = serializers.JSONField(help_text="{version: 1, title, segments} (docs/api.md, KWIC)")


class _Count(serializers.Serializer):
    count = serializers.IntegerField()


QUERY_HASH = OpenApiParameter(
    QUERY_HASH_HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description="SHA-1 hex of the canonical query string (docs/api.md, Geo)",
)
_SEARCH_PARAMS = [
    schema.query(
        "query",
        {"type": "string", "pattern": r"\w"},
        required=True,
        description='words, "phrases", -exclusions',
    ),
    schema.query("locale", description="accepted; matching does not depend on it"),
    schema.query("offset", schema.INT64),
    schema.query("limit", schema.INT64),
]
_KWIC_PARAMS = [
    OpenApiParameter(
        "id",
        {"type": "array", "items": schema.HEX_ID, "minItems": 1, "maxItems": 100},
        OpenApiParameter.QUERY,
        required=True,
        explode=True,
    ),
    OpenApiParameter(
        "keyword",
        {
            "type": "array",
            "items": {"type": "string", "pattern": r"\S"},
            "minItems": 1,
            "maxItems": 32,
        },
        OpenApiParameter.QUERY,
        required=True,
        explode=True,
    ),
]


def _search_request(request, *, with_filters: bool) -> tuple[ParsedQuery, int, int]:
    raw = (request.query_params.get("query") or "").strip()
    if not raw:
        raise InvalidInput("query is required")
    parsed = parse_query(raw, with_filters=with_filters)
    if not parsed.terms:
        raise InvalidInput("search term is required")
    offset = int_value(request.query_params.get("offset"), 0, "offset")
    limit = int_value(request.query_params.get("limit"), 0, "limit") or DEFAULT_SEARCH_LIMIT
    if offset + limit > settings.STGY_SEARCH_LIMIT_MAX:
        raise InvalidInput("Search limit exceeded")
    return parsed, offset, limit


def _kwic_request(request) -> tuple[list[int], list[str]]:
    return excerpts.parse_kwic_request(
        request.query_params.getlist("id"), request.query_params.getlist("keyword")
    )


def _trimmed(request, name: str) -> str | None:
    value = (request.query_params.get(name) or "").strip()
    return value or None


class PostSearchView(APIView):
    @extend_schema(
        parameters=[*_SEARCH_PARAMS, schema.hex_id("ownedBy")],
        responses=_PostSearchResult,
        operation_id="posts_search",
    )
    def get(self, request):
        viewer = request.user
        parsed, offset, limit = _search_request(request, with_filters=True)
        owner = search_owner(parsed, request.query_params.get("ownedBy"), viewer.id)
        posts = engine.posts_search(
            viewer,
            parsed,
            owned_by=owner,
            published_only=parsed.published_only,
            offset=offset,
            limit=limit,
        )
        return Response(
            {
                "tokens": parsed.tokens,
                "phrases": parsed.phrases,
                "result": [post_json(p, viewer.id) for p in posts],
            }
        )


class UserSearchView(APIView):
    @extend_schema(
        parameters=_SEARCH_PARAMS, responses=_UserSearchResult, operation_id="users_search"
    )
    def get(self, request):
        parsed, offset, limit = _search_request(request, with_filters=False)
        users = engine.users_search(parsed, offset=offset, limit=limit)
        return Response(
            {
                "tokens": parsed.tokens,
                "phrases": parsed.phrases,
                "result": [user_lite_json(u) for u in users],
            }
        )


class PostKwicView(APIView):
    @extend_schema(parameters=_KWIC_PARAMS, responses=_Kwic(many=True), operation_id="posts_kwic")
    def get(self, request):
        ids, keywords = _kwic_request(request)
        return Response(excerpts.posts_kwic(request.user, ids, keywords))


class PostKwicPubView(APIView):
    permission_classes = [Public]

    @extend_schema(
        parameters=[*_KWIC_PARAMS, QUERY_HASH],
        responses={200: _Kwic(many=True), **schema.errors(403)},
        operation_id="posts_kwic_pub",
    )
    def get(self, request):
        excerpts.check_query_hash(
            request.META.get("QUERY_STRING", ""), request.headers.get(QUERY_HASH_HEADER)
        )
        ids, keywords = _kwic_request(request)
        return Response(excerpts.published_posts_kwic(request.user, ids, keywords))


class UserKwicView(APIView):
    @extend_schema(parameters=_KWIC_PARAMS, responses=_Kwic(many=True), operation_id="users_kwic")
    def get(self, request):
        ids, keywords = _kwic_request(request)
        return Response(excerpts.users_kwic(ids, keywords))


class PostsCountView(APIView):
    @extend_schema(
        parameters=[schema.query("query"), schema.hex_id("ownedBy"), schema.query("tag")]
        + [schema.REPLY_TO],
        responses={200: _Count, **schema.errors(403)},
        operation_id="posts_count",
    )
    def get(self, request):
        access_admin(request.user)
        reply_to = request.query_params.get("replyTo")
        if reply_to is not None:
            reply_to = reply_to.strip()
            if reply_to not in ("", "*"):
                reply_to = parse_id(reply_to, "replyTo")
        count = selectors.posts_count(
            query=_trimmed(request, "query"),
            owned_by=optional_id(request, "ownedBy"),
            tag=_trimmed(request, "tag"),
            reply_to=reply_to,
        )
        return Response({"count": count})


class UsersCountView(APIView):
    @extend_schema(
        parameters=[schema.query(n) for n in ("query", "nickname", "nicknamePrefix")],
        responses={200: _Count, **schema.errors(403)},
        operation_id="users_count",
    )
    def get(self, request):
        access_admin(request.user)
        count = selectors.users_count(
            query=_trimmed(request, "query"),
            nickname=_trimmed(request, "nickname"),
            nickname_prefix=_trimmed(request, "nicknamePrefix"),
        )
        return Response({"count": count})


class FriendsByNicknamePrefixView(APIView):
    @extend_schema(
        parameters=[
            schema.hex_id("focusUserId", "whose friends; default: the caller"),
            *schema.PAGE,
        ]
        + [schema.query("nicknamePrefix")]
        + [schema.query(n, OpenApiTypes.BOOL) for n in ("omitSelf", "omitOthers")],
        responses=OpenApiResponse(shapes.User(many=True)),
        operation_id="users_friends_by_nickname_prefix",
    )
    def get(self, request):
        focus = optional_id(request, "focusUserId")
        if focus is None:
            focus = request.user.id
        users = friends_by_nickname_prefix(
            focus_user_id=focus,
            prefix=request.query_params.get("nicknamePrefix") or "",
            page=page_params(request),
            omit_self=flag(request, "omitSelf", False),
            omit_others=flag(request, "omitOthers", False),
        )
        return Response([user_json(u) for u in users])
