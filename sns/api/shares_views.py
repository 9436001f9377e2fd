"""Reposts, quotes and bookmarks (docs/shares.md): new routes beside the original
contract, whose routes keep their shape. Parse input → service or selector → presenter."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from sns import selectors, services
from sns.selectors import shares as selectors_shares
from sns.core.ids import id_to_hex, parse_id

from . import schema, shapes
from .params import optional_datetime
from .params import BodySerializer, LocaleField, PassedStrings, PassedText, body, page_params
from .presenters import notification_json, post_detail_json, post_json, user_json

OK = {"result": "ok"}


class Shares(serializers.Serializer):
    countReposts = serializers.IntegerField()
    countQuotes = serializers.IntegerField()
    isRepostedByMe = serializers.BooleanField()
    isBookmarkedByMe = serializers.BooleanField()
    quotedPostId = serializers.CharField(allow_null=True, help_text="the post this one quotes, if any")
    quotedPostAvailable = serializers.BooleanField(help_text="false when the quoted post is deleted or hidden from me")
    quotedPost = shapes.Post(allow_null=True)


class QuoteDetail(shapes.PostDetail):
    quotedPostId = serializers.CharField()


SHARES = OpenApiResponse(Shares, description="the post's shares, for me")


def _post_id(post_id: str) -> int:
    return parse_id(post_id)


class PostRepostView(APIView):
    @extend_schema(request=None, responses={200: shapes.OK, **schema.errors(404)}, operation_id="posts_repost")
    def post(self, request, post_id):
        services.repost_add(request.user, _post_id(post_id))
        return Response(OK)

    @extend_schema(responses={200: shapes.OK, **schema.errors(404)}, operation_id="posts_repost_remove")
    def delete(self, request, post_id):
        services.repost_remove(request.user, _post_id(post_id))
        return Response(OK)


class PostRepostersView(APIView):
    @extend_schema(parameters=schema.PAGE, responses=shapes.many(shapes.User), operation_id="posts_reposters")
    def get(self, request, post_id):
        users = selectors_shares.post_reposters(post_id=_post_id(post_id), page=page_params(request))
        return Response([user_json(u) for u in users])


class PostQuoteView(APIView):
    @extend_schema_serializer(component_name="QuoteInput")
    class InputSerializer(BodySerializer):
        # Passed through as sent: post_create owns the messages ("content is required").
        schema_required = ("content",)
        content = PassedText(default=None)
        tags = PassedStrings(required=False)
        locale = LocaleField(required=False, allow_blank=True, allow_null=True)
        allowLikes = serializers.BooleanField(required=False, source="allow_likes")
        allowReplies = serializers.BooleanField(required=False, source="allow_replies")

    @extend_schema(
        request=InputSerializer,
        responses={201: QuoteDetail, **schema.errors(404)},
        description="Write a new post that quotes this one (its allowReplies governs).",
        operation_id="posts_quote",
    )
    def post(self, request, post_id):
        quoted_id = _post_id(post_id)
        post = services.quote_create(request.user, quoted_id, **body(request, self.InputSerializer))
        post = selectors.post_get(post.id, with_neighbours=True)
        data = post_detail_json(post, *selectors.post_neighbours(post))
        data["quotedPostId"] = id_to_hex(quoted_id)
        return Response(data, status=status.HTTP_201_CREATED)


class PostSharesView(APIView):
    @extend_schema(responses={200: SHARES}, operation_id="posts_shares")
    def get(self, request, post_id):
        viewer = request.user
        post = selectors.post_get(_post_id(post_id))
        facts = selectors_shares.share_facts(viewer, [post.id])[post.id]
        quoted = selectors_shares.visible_posts(viewer, [facts.quoted_id]).get(facts.quoted_id)
        return Response(
            {
                "countReposts": facts.reposts,
                "countQuotes": facts.quotes,
                "isRepostedByMe": facts.reposted,
                "isBookmarkedByMe": facts.bookmarked,
                "quotedPostId": id_to_hex(facts.quoted_id) if facts.quoted_id is not None else None,
                "quotedPostAvailable": quoted is not None,
                "quotedPost": post_json(quoted) if quoted is not None else None,
            }
        )


class PostBookmarkView(APIView):
    @extend_schema(request=None, responses={200: shapes.OK, **schema.errors(404)}, operation_id="posts_bookmark")
    def post(self, request, post_id):
        services.bookmark_add(request.user, _post_id(post_id))
        return Response(OK)

    @extend_schema(responses={200: shapes.OK, **schema.errors(404)}, operation_id="posts_bookmark_remove")
    def delete(self, request, post_id):
        services.bookmark_remove(request.user, _post_id(post_id))
        return Response(OK)


class BookmarksView(APIView):
    @extend_schema(
        parameters=schema.PAGE,
        responses=shapes.many(shapes.Post),
        description="My bookmarked posts, newest bookmark first (nobody else's can be read).",
        operation_id="bookmarks_list",
    )
    def get(self, request):
        viewer = request.user
        posts = selectors_shares.bookmarks_list(viewer, page=page_params(request))
        return Response([post_json(p, viewer.id) for p in posts])


class NotificationsSharesView(APIView):
    @extend_schema(
        parameters=[schema.query("newerThan", OpenApiTypes.DATETIME, description="ISO date-time; 304 if nothing newer")],
        responses={200: shapes.many(shapes.Notification), 304: schema.NO_CONTENT},
        description="Repost and quote notifications, in the shape of /notifications/feed, which leaves them out.",
        operation_id="notifications_shares",
    )
    def get(self, request):
        rows = selectors.notifications_feed(
            request.user,
            newer_than=optional_datetime(request, "newerThan"),
            shown=settings.STGY_NOTIFICATION_SHOWN_RECORDS,
            where=selectors_shares.SHARE_SLOTS_Q,
        )
        if rows is None:
            return Response(status=status.HTTP_304_NOT_MODIFIED)
        return Response([notification_json(n) for n in rows])
