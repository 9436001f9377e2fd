"""Public-site routes (docs/api.md §9, docs/publication.md): site settings, public
posts readable without login, and page-view rankings and stats."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from sns.core.errors import Forbidden, InvalidInput
from sns.core.ids import parse_id
from sns.models import User
from sns.selectors import Page
from sns.selectors import publication as pub
from sns.services import publication as pub_services

from . import schema, shapes
from .params import int_value
from .permissions import LoginRequired, Public
from .presenters import post_detail_json, post_json
from .publication_presenters import (
    PubConfigShape,
    PubRankEntryShape,
    PubStatsShape,
    pub_config_json,
    pub_ranking_json,
    pub_stats_json,
)

_SAFE = ("GET", "HEAD", "OPTIONS")
FINGERPRINT_HEADER = "HTTP_X_STGY_PUB_VIEW_FINGERPRINT"
SIGNATURE_HEADER = "HTTP_X_STGY_PUB_VIEW_SIGNATURE"


def _public_page(request, orders=("desc", "asc"), default_limit: int = 100) -> Page:
    """offset, limit (at most PUBLIC_POST_LIST_MAX_LIMIT, for anyone) and order."""
    query = request.query_params
    limit = min(int_value(query.get("limit"), default_limit, "limit"), pub.PUBLIC_POST_LIST_MAX_LIMIT)
    order = (query.get("order") or orders[0]).lower()
    if order not in orders:
        raise InvalidInput("invalid order")
    return Page(offset=int_value(query.get("offset"), 0, "offset"), limit=limit, order=order)


class PubConfigInput(serializers.Serializer):
    """For the document; the service reads the body itself to give the original's
    messages (`invalid designTheme`, `invalid sidebar count`)."""

    siteName = serializers.CharField(required=False, max_length=50, allow_blank=True)
    subtitle = serializers.CharField(required=False, max_length=50, allow_blank=True)
    author = serializers.CharField(required=False, max_length=50, allow_blank=True)
    introduction = serializers.CharField(required=False, max_length=1000, allow_blank=True)
    designTheme = serializers.RegexField(
        r"^[A-Za-z0-9_-]*$", required=False, max_length=50, allow_blank=True
    )
    showServiceHeader = serializers.BooleanField(required=False)
    showSiteName = serializers.BooleanField(required=False)
    showPagenation = serializers.BooleanField(required=False)
    showSideProfile = serializers.BooleanField(required=False)
    showSideRecent = serializers.IntegerField(required=False, min_value=-(2**31), max_value=2**31 - 1)
    showSidePopular = serializers.IntegerField(required=False, min_value=-(2**31), max_value=2**31 - 1)


class UserPubConfigView(APIView):
    def get_permissions(self):
        return [Public()] if self.request.method in _SAFE else [LoginRequired()]

    @extend_schema(responses=PubConfigShape, operation_id="users_pub_config_retrieve")
    def get(self, request, user_id):
        target = parse_id(user_id)
        locale = User.objects.filter(pk=target).values_list("locale", flat=True).first()
        return Response(pub_config_json(pub.pub_config_get(target), locale))

    @extend_schema(request=PubConfigInput, responses=PubConfigShape)
    def put(self, request, user_id):
        target = parse_id(user_id)
        if not isinstance(request.data, dict):
            raise InvalidInput("invalid body")
        config = pub_services.pub_config_update(request.user, target, dict(request.data))
        return Response(pub_config_json(config))


class UserPubRankingView(APIView):
    permission_classes = [Public]

    @extend_schema(
        parameters=[schema.query("limit", schema.INT64, "default 5, at most 20")],
        responses=PubRankEntryShape(many=True),
    )
    def get(self, request, user_id):
        owner = parse_id(user_id)
        limit = int_value(request.query_params.get("limit"), 5, "limit")
        entries = pub.pub_ranking(owner, min(limit, pub.PUB_SIDE_POSTS_MAX))
        return Response(pub_ranking_json(entries))


class UserPubStatsView(APIView):
    @extend_schema(responses={200: PubStatsShape, **schema.errors(403)})
    def get(self, request, user_id):
        owner = parse_id(user_id)
        if not (request.user.is_admin or request.user.id == owner):
            raise Forbidden("forbidden")
        return Response(pub_stats_json(pub.pub_stats(owner)))


class PubPostView(APIView):
    permission_classes = [Public]

    @extend_schema(
        parameters=[
            OpenApiParameter("x-stgy-pub-view-fingerprint", OpenApiTypes.STR, OpenApiParameter.HEADER),
            OpenApiParameter("x-stgy-pub-view-signature", OpenApiTypes.STR, OpenApiParameter.HEADER),
        ],
        responses=shapes.PostDetail,
    )
    def get(self, request, post_id):
        post = pub.public_post_get(parse_id(post_id), viewer=request.user)
        fingerprint = request.META.get(FINGERPRINT_HEADER, "")
        if pub_services.pub_view_signature_valid(post.id, fingerprint, request.META.get(SIGNATURE_HEADER, "")):
            pub_services.pub_view_record(post, fingerprint)
        return Response(post_detail_json(post, post.older_id, post.newer_id))


class PubPostsByUserView(APIView):
    permission_classes = [Public]

    @extend_schema(
        parameters=[schema.query("offset", schema.INT64), schema.query("limit", schema.INT64, "at most 1000")]
        + [schema.ORDER],
        responses=shapes.many(shapes.Post),
    )
    def get(self, request, user_id):
        posts = pub.public_posts_by_user(parse_id(user_id, "userId"), page=_public_page(request), viewer=request.user)
        return Response([post_json(p) for p in posts])


class PubPostsByIdsView(APIView):
    permission_classes = [Public]

    class InputSerializer(serializers.Serializer):
        ids = serializers.ListField(child=serializers.RegexField(schema.HEX_ID_PATTERN))

    @extend_schema(request=InputSerializer, responses=shapes.many(shapes.Post))
    def post(self, request):
        data = request.data if isinstance(request.data, dict) else {}
        ids = data.get("ids")
        if not isinstance(ids, list):
            raise InvalidInput("ids must be an array")
        wanted = ids[: pub.PUB_SIDE_POSTS_MAX]
        if any(not isinstance(i, str) for i in wanted):
            raise InvalidInput("invalid id")
        posts = pub.public_posts_by_ids([parse_id(i) for i in wanted], viewer=request.user)
        return Response([post_json(p) for p in posts])
