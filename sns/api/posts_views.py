"""/posts endpoints (docs/api.md §3): parse input → service or selector → presenter.
Search, KWIC and counts are in search_views.py."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from sns import selectors, services
from sns.core.ids import parse_id
from sns.reads.access import access_admin
from sns.selectors.post_reads import tuples as post_rows

from . import schema, shapes
from .params import (
    BodySerializer,
    HexIdField,
    LocaleField,
    PassedStrings,
    PassedText,
    authors_param,
    body,
    cursor,
    flag,
    optional_id,
    optional_int,
    page_params,
    required_id,
)
from .post_rows import post_row_detail_json, post_row_json
from .presenters import post_json, post_lite_json, user_json

OK = {"result": "ok"}


def _detail(post_id: int, focus: int | None = None, viewer=None) -> dict:
    """A post as PostDetail; with a `viewer`, a post hidden from them is not found."""
    return post_row_detail_json(post_rows.post_row_get(post_id, focus_user_id=focus, viewer=viewer), focus)


def _reply_to_filter(request):
    """absent: all posts; "": root posts only; "*": replies only; an id: its replies."""
    value = request.query_params.get("replyTo")
    if value is None or value in ("", "*"):
        return value
    return parse_id(value, "replyTo")


# The three hot reads, shared by their DRF views and the API's lean path
# (sns/api/hot_reads.py): `request` is anything with `query_params` and `user`.


def posts_list_json(request) -> list[dict]:
    page = page_params(request)
    text = request.query_params.get("query")
    if text:
        access_admin(request.user)
    focus = optional_id(request, "focusUserId")
    rows = post_rows.post_rows_list(
        page=page,
        after=cursor(request, page),
        owned_by=optional_id(request, "ownedBy"),
        tag=request.query_params.get("tag"),
        reply_to=_reply_to_filter(request),
        query=text,
        focus_user_id=focus,
        viewer=request.user,
        authors=authors_param(request),
    )
    return [post_row_json(row, focus) for row in rows]


def posts_by_followees_json(request) -> list[dict]:
    focus = optional_id(request, "focusUserId")
    rows = post_rows.post_rows_by_followees(
        user_id=required_id(request, "userId"),
        page=page_params(request),
        include_self=flag(request, "includeSelf", False),
        include_replies=flag(request, "includeReplies", True),
        limit_per_user=optional_int(request, "limitPerUser"),
        focus_user_id=focus,
        viewer=request.user,
        authors=authors_param(request),
    )
    return [post_row_json(row, focus) for row in rows]


def post_detail_json_for(request, post_id: str) -> dict:
    return _detail(parse_id(post_id), optional_id(request, "focusUserId"), viewer=request.user)


class PostInput(BodySerializer):
    """Fields of a post body. `content` and `tags` are passed through as sent: the
    service owns their messages ("content is required", "tags is required and must
    be array")."""

    content = PassedText(required=False)
    tags = PassedStrings(required=False)
    locale = LocaleField(required=False, allow_blank=True, allow_null=True)
    replyTo = HexIdField(source="reply_to")
    allowLikes = serializers.BooleanField(required=False, source="allow_likes")
    allowReplies = serializers.BooleanField(required=False, source="allow_replies")
    publishedAt = serializers.DateTimeField(required=False, allow_null=True, source="published_at")
    ownedBy = HexIdField(source="owned_by")


class PostCreateInput(PostInput):
    schema_required = ("content", "tags")
    content = PassedText(default=None)
    tags = PassedStrings(default=None)
    id = HexIdField(strict=True, source="post_id")


class PostsView(APIView):
    @extend_schema(
        parameters=[*schema.PAGE, schema.FOCUS, schema.AFTER, schema.AUTHORS, schema.hex_id("ownedBy")]
        + [schema.query("query", description="full-text filter; admins only")]
        + [schema.query("tag")]
        + [schema.REPLY_TO],
        responses={200: shapes.many(shapes.Post), **schema.errors(403)},
        operation_id="posts_list",
    )
    def get(self, request):
        return Response(posts_list_json(request))

    @extend_schema(request=PostCreateInput, responses={201: shapes.PostDetail})
    def post(self, request):
        post = services.post_create(request.user, **body(request, PostCreateInput))
        return Response(_detail(post.id), status=status.HTTP_201_CREATED)


class PostView(APIView):
    @extend_schema(parameters=[schema.FOCUS], responses=shapes.PostDetail)
    def get(self, request, post_id):
        return Response(post_detail_json_for(request, post_id))

    @extend_schema(request=PostInput, responses=shapes.PostDetail)
    def put(self, request, post_id):
        post = services.post_update(request.user, parse_id(post_id), **body(request, PostInput))
        return Response(_detail(post.id))

    @extend_schema(responses={200: shapes.OK})
    def delete(self, request, post_id):
        services.post_delete(request.user, parse_id(post_id))
        return Response(OK)


class PostLiteView(APIView):
    @extend_schema(responses=shapes.PostLite)
    def get(self, request, post_id):
        return Response(post_lite_json(selectors.post_get(parse_id(post_id), viewer=request.user)))


class PostsByFolloweesView(APIView):
    @extend_schema(
        parameters=[schema.hex_id("userId", required=True), *schema.PAGE, schema.FOCUS, schema.AUTHORS]
        + [schema.query(n, OpenApiTypes.BOOL) for n in ("includeSelf", "includeReplies")]
        + [schema.query("limitPerUser", schema.INT64)],
        responses=shapes.many(shapes.Post),
    )
    def get(self, request):
        return Response(posts_by_followees_json(request))


class PostsLikedView(APIView):
    @extend_schema(
        parameters=[schema.hex_id("userId", required=True), *schema.PAGE, schema.FOCUS]
        + [schema.AFTER]
        + [schema.query("includeReplies", OpenApiTypes.BOOL)],
        responses=shapes.many(shapes.Post),
    )
    def get(self, request):
        page = page_params(request)
        focus = optional_id(request, "focusUserId")
        posts = selectors.posts_liked(
            user_id=required_id(request, "userId"),
            page=page,
            include_replies=flag(request, "includeReplies", True),
            after=cursor(request, page),
            focus_user_id=focus,
            viewer=request.user,
        )
        return Response([post_json(p, focus) for p in posts])


class PostLikeView(APIView):
    @extend_schema(request=None, responses=shapes.OK)
    def post(self, request, post_id):
        services.like_add(request.user, parse_id(post_id))
        return Response(OK)

    @extend_schema(responses={200: shapes.OK})
    def delete(self, request, post_id):
        services.like_remove(request.user, parse_id(post_id))
        return Response(OK)


class PostLikersView(APIView):
    @extend_schema(parameters=schema.PAGE, responses=shapes.many(shapes.User))
    def get(self, request, post_id):
        users = selectors.post_likers(post_id=parse_id(post_id), page=page_params(request), viewer=request.user)
        # user_json carries no email: likers are never exposed (docs/differences.md item 10).
        return Response([user_json(u) for u in users])
