"""`/ai-posts`: post summaries and recommendations (docs/api.md §7,
docs/summaries-and-vectors.md §7). One view per resource, each validate → selector → present."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from sns.api import schema
from sns.api import shapes as sns_shapes
from sns.api.params import flag, int_value, optional_datetime, page_params
from sns.api.presenters import iso, post_json
from sns.core.errors import Forbidden
from sns.core.ids import id_to_hex, parse_id
from sns.reads.access import access_user_self_or_admin

from ..keyword_hash import unpack_hashes
from ..recommend import (
    post_related_ids,
    posts_in_order,
    recommend_post_ids,
    recommend_query_from_body,
    user_recommended_ids,
    user_search_seeds,
)
from ..recommend.feeds import page_ids
from ..recommend.query import parse_features
from ..summaries.store import UNSET, summaries_list, summary_get, summary_is_ready, summary_put
from ..vectors import features_to_b64
from . import shapes
from .common import json_object

ADMIN_MAX_CLUSTERS = 100
USER_MAX_CLUSTERS = 10
# OpenAPI only: the views validate by hand, to give the original's exact messages.
_NUMBER = serializers.FloatField(required=False, allow_null=True)
RECOMMEND_BODY = inline_serializer(  # docs/summaries-and-vectors.md §7.1
    "AiRecommendInput",
    {
        "tags": serializers.ListField(
            child=inline_serializer(
                "AiRecommendTag",
                {"name": serializers.CharField(), "count": serializers.FloatField(min_value=0)},
            ),
            min_length=1,
            help_text="at least one",
        ),
        "keywordHashes": serializers.ListField(
            child=serializers.JSONField(), required=False, help_text="numbers or {hash, count}"
        ),
        "features": serializers.CharField(
            required=False, allow_null=True, help_text="base64 int8[512]"
        ),
        "seedPostIds": serializers.ListField(child=serializers.CharField(), required=False),
        "selfUserId": serializers.CharField(required=False, allow_null=True),
        "offset": _NUMBER,
        "limit": _NUMBER,
        "order": serializers.ChoiceField(
            choices=["desc", "asc"], required=False, help_text="desc (default) or asc"
        ),
        **{
            knob: serializers.FloatField(required=False, allow_null=True)
            for knob in (
                "ownerDecay",
                "promotionByLikesAlpha",
                "promotionForSeedPosts",
                "demotionForReplies",
                "demotionForDuplication",
            )
        },
    },
)
SUMMARY_BODY = inline_serializer(
    "AiPostSummaryInput",
    {
        "summary": serializers.CharField(required=False, allow_null=True),
        "tags": serializers.ListField(child=serializers.CharField(), required=False),
        "keywords": serializers.ListField(child=serializers.CharField(), required=False),
        "features": serializers.CharField(
            required=False, allow_null=True, help_text="base64 int8[512]"
        ),
    },
)
IDS = OpenApiResponse(response={"type": "array", "items": {"type": "string"}})
POSTS = sns_shapes.many(sns_shapes.Post)


def summary_packet(row) -> dict:
    """`AiPostSummary` of the original: AI tags sorted by name, hashes as numbers."""
    try:
        hashes = unpack_hashes(bytes(row.hashes)) if row.hashes else []
    except ValueError:
        hashes = []
    return {
        "postId": id_to_hex(row.post_id),
        "sourceUpdatedAt": iso(row.source_updated_at),
        "summary": row.summary,
        "features": features_to_b64(row.features) if row.features else None,
        "tags": row.ai_tag_names,
        "keywordHashes": hashes,
    }


class AiPostsView(APIView):
    @extend_schema(
        parameters=[
            *schema.PAGE,
            schema.query("nullOnly", OpenApiTypes.BOOL),
            schema.query("newerThan", OpenApiTypes.DATETIME),
        ],
        responses=shapes.many(shapes.AiPostSummary),
        operation_id="ai_posts_list",
    )
    def get(self, request):
        rows = summaries_list(
            page=page_params(request),
            null_only=flag(request, "nullOnly", False),
            newer_than=optional_datetime(request, "newerThan"),
        )
        return Response([summary_packet(row) for row in rows])


class AiPostView(APIView):
    @extend_schema(
        responses={200: schema.NO_CONTENT, 404: schema.NO_CONTENT}, operation_id="ai_post_ready"
    )
    def head(self, request, post_id: str):
        status = 200 if summary_is_ready(parse_id(post_id)) else 404
        return Response(status=status)

    @extend_schema(responses=shapes.AiPostSummary, operation_id="ai_post_get")
    def get(self, request, post_id: str):
        return Response(summary_packet(summary_get(parse_id(post_id))))

    @extend_schema(request=SUMMARY_BODY, responses=shapes.AiPostSummary, operation_id="ai_post_put")
    def put(self, request, post_id: str):
        if not request.user.is_admin:
            raise Forbidden("forbidden")
        body = json_object(request)
        fields = {key: body[key] for key in ("summary", "tags", "keywords") if key in body}
        if "features" in body:
            fields["features"] = parse_features(body["features"])
        for key in ("summary", "features", "tags", "keywords"):
            fields.setdefault(key, UNSET)
        row = summary_put(request.user, parse_id(post_id), **fields)
        return Response(summary_packet(row))


class SearchSeedView(APIView):
    @extend_schema(
        parameters=[
            schema.hex_id("userId", "admins only"),
            schema.query("numClusters", schema.INT64),
        ],
        responses={200: schema.LIST, **schema.errors(403)},
        operation_id="ai_posts_search_seed",
    )
    def get(self, request):
        query = request.query_params
        user_id = request.user.id
        if query.get("userId"):
            if not request.user.is_admin:
                raise Forbidden("forbidden")
            user_id = parse_id(query["userId"], "userId")
        name = "numClusters" if query.get("numClusters") not in (None, "") else "clusters"
        clusters = int_value(query.get(name), 1, name, minimum=1)
        clusters = min(clusters, ADMIN_MAX_CLUSTERS if request.user.is_admin else USER_MAX_CLUSTERS)
        return Response(user_search_seeds(user_id, clusters))


class RecommendationsView(APIView):
    @extend_schema(request=RECOMMEND_BODY, responses=IDS, operation_id="ai_posts_recommendations")
    def post(self, request):
        query = recommend_query_from_body(request.data, is_admin=request.user.is_admin)
        return Response([id_to_hex(pid) for pid in recommend_post_ids(query)])


class RecommendedPostsView(APIView):
    @extend_schema(
        request=RECOMMEND_BODY, responses=POSTS, operation_id="ai_posts_recommended_posts"
    )
    def post(self, request):
        query = recommend_query_from_body(request.data, is_admin=request.user.is_admin)
        posts = posts_in_order(recommend_post_ids(query), query.self_user_id, viewer=request.user)
        return Response([post_json(post, query.self_user_id) for post in posts])


class RecommendedPostsForUserView(APIView):
    @extend_schema(
        parameters=schema.PAGE,
        responses={200: POSTS, **schema.errors(403)},
        operation_id="ai_posts_for_user",
    )
    def get(self, request, user_id: str):
        user = access_user_self_or_admin(request.user, parse_id(user_id))
        page = page_params(request)
        ids = page_ids(
            user_recommended_ids(user.id), offset=page.offset, limit=page.limit, order=page.order
        )
        return Response(
            [post_json(post, user.id) for post in posts_in_order(ids, user.id, viewer=request.user)]
        )


class RelatedPostsView(APIView):
    @extend_schema(parameters=schema.PAGE, responses=POSTS, operation_id="ai_posts_for_post")
    def get(self, request, post_id: str):
        page = page_params(request)
        ids = post_related_ids(parse_id(post_id), request.user.id)
        ids = page_ids(ids, offset=page.offset, limit=page.limit, order=page.order)
        return Response(
            [
                post_json(post, request.user.id)
                for post in posts_in_order(ids, request.user.id, viewer=request.user)
            ]
        )
