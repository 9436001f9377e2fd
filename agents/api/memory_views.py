"""An AI user's memory over HTTP (docs/api.md §6): the user itself or an admin only.

Access is checked first (403 / 404 before any 400), then the body, then the
`agents.memory` function, which checks again for its other callers.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from agents import memory, memory_versions
from agents.access import access_ai_model
from agents.embeddings import model_name
from agents.embeddings.inputs import interest_embedding_input
from agents.llm import gateway
from agents.tags import normalize_interest_tags
from agents.vectors import DIM, features_from_b64
from sns.api import schema
from sns.api.params import optional_id
from sns.core.errors import InvalidInput, NotFound

from . import shapes
from .ai_views import embed_for_api
from .common import clamped_page, json_object, path_id, required_text
from .presenters import (
    interest_json,
    peer_impression_item_json,
    peer_impression_json,
    post_impression_item_json,
    post_impression_json,
)

# The server embeds at most this many tags with a client's interest (docs/api.md §6).
SERVER_EMBED_TAGS = 10
# OpenAPI only: the views validate by hand, to give the original's exact messages.
INTEREST_BODY = inline_serializer(
    "AiInterestInput",
    {
        "interest": serializers.CharField(),
        "tags": serializers.ListField(child=serializers.CharField(), required=False),
        "features": serializers.CharField(
            required=False, help_text="base64 int8[512]; the server embeds interest + tags if absent"
        ),
    },
)
PEER_BODY = inline_serializer(
    "AiPeerImpressionInput", {"peerId": serializers.CharField(), "payload": serializers.CharField()}
)
POST_BODY = inline_serializer(
    "AiPostImpressionInput", {"postId": serializers.CharField(), "payload": serializers.CharField()}
)
EXISTS = {200: schema.NO_CONTENT, 404: schema.NO_CONTENT, **schema.errors(403)}
# Memory is the AI user's own and the admins': anyone else is answered 403.
INTEREST = {200: shapes.AiInterest, **schema.errors(403)}
PEER = {200: shapes.AiPeerImpression, **schema.errors(403)}
PEERS = {200: shapes.many(shapes.AiPeerImpressionItem), **schema.errors(403)}
POST = {200: shapes.AiPostImpression, **schema.errors(403)}
POSTS = {200: shapes.many(shapes.AiPostImpressionItem), **schema.errors(403)}
# Saving an interest without a vector has the server embed it through the AI gateway.
EMBEDDING_ERRORS = schema.errors(429, 500, 501, 503)


def _owner(request, user_id: str, *, for_write: bool = False) -> int:
    return memory.memory_access(request.user, path_id(user_id), for_write=for_write)


def _found(row, shape) -> Response:
    """The row in its JSON shape; 404 when the AI user keeps none."""
    if row is None:
        raise NotFound("not found")
    return Response(shape(row))


def _impression_body(request, subject_field: str) -> tuple[int, str]:
    """An impression's subject (the peer's or the post's hex id) and its text; the id is
    checked before the text."""
    body = json_object(request)
    subject_id = path_id(required_text(body, subject_field).strip(), subject_field)
    return subject_id, required_text(body, "payload")


def _interest_features(request, body: dict, interest: str, tags: list[str]) -> tuple[bytes, str]:
    """The client's vector if it sent one, else the server embeds interest + tags."""
    raw = body.get("features")
    if raw is not None and not isinstance(raw, str):
        raise InvalidInput("invalid features")
    decoded = features_from_b64(raw) if raw and raw.strip() else b""
    if decoded:
        # A vector of another length would break every similarity it later enters.
        if len(decoded) != DIM:
            raise InvalidInput("invalid features")
        return decoded, model_name()
    if not gateway.ai_enabled():
        raise InvalidInput("features is required")
    if "model" in body:
        raise InvalidInput("model is not accepted for feature generation")
    access_ai_model(request.user)
    text = interest_embedding_input(interest.strip(), tags[:SERVER_EMBED_TAGS], "")
    return embed_for_api(text, request.user)


class InterestsView(APIView):
    @extend_schema(responses=INTEREST, operation_id="ai_user_interests_get")
    def get(self, request, user_id: str):
        owner_id = _owner(request, user_id)
        return _found(memory.interest_get(request.user, user_id=owner_id), interest_json)

    @extend_schema(
        request=INTEREST_BODY,
        responses={**INTEREST, **EMBEDDING_ERRORS},
        operation_id="ai_user_interests_save",
    )
    def post(self, request, user_id: str):
        owner_id = _owner(request, user_id, for_write=True)
        body = json_object(request)
        interest = body.get("interest", body.get("payload"))
        if not isinstance(interest, str) or not interest.strip():
            raise InvalidInput("interest is required")
        raw_tags = body.get("tags")
        tags = normalize_interest_tags(raw_tags if isinstance(raw_tags, list) else [])
        features, embedding_model = _interest_features(request, body, interest, tags)
        row = memory.interest_save(
            request.user, user_id=owner_id, interest=interest, tags=tags,
            features=features, embedding_model=embedding_model, source=memory_versions.API,
        )
        return Response(interest_json(row))


class PeerImpressionsView(APIView):
    @extend_schema(
        parameters=[*schema.PAGE, schema.hex_id("peerId")],
        responses=PEERS,
        operation_id="ai_user_peer_impressions_list",
    )
    def get(self, request, user_id: str):
        owner_id = _owner(request, user_id)
        rows = memory.peer_impression_list(
            request.user, user_id=owner_id, page=clamped_page(request), peer_id=optional_id(request, "peerId")
        )
        return Response([peer_impression_item_json(r) for r in rows])

    @extend_schema(request=PEER_BODY, responses=PEER, operation_id="ai_user_peer_impressions_save")
    def post(self, request, user_id: str):
        owner_id = _owner(request, user_id, for_write=True)
        peer_id, payload = _impression_body(request, "peerId")
        row = memory.peer_impression_save(
            request.user, user_id=owner_id, peer_id=peer_id, payload=payload, source=memory_versions.API
        )
        return Response(peer_impression_json(row))


class PeerImpressionView(APIView):
    """GET one impression; HEAD (Django answers it with this GET) = 200 / 404."""

    @extend_schema(responses=PEER, operation_id="ai_user_peer_impression_get")
    def get(self, request, user_id: str, peer_id: str):
        owner_id = _owner(request, user_id)
        row = memory.peer_impression_get(request.user, user_id=owner_id, peer_id=path_id(peer_id, "peerId"))
        return _found(row, peer_impression_json)


class PostImpressionsView(APIView):
    @extend_schema(
        parameters=[*schema.PAGE, schema.hex_id("postId"), schema.hex_id("peerId")],
        responses=POSTS,
        operation_id="ai_user_post_impressions_list",
    )
    def get(self, request, user_id: str):
        owner_id = _owner(request, user_id)
        rows = memory.post_impression_list(
            request.user,
            user_id=owner_id,
            page=clamped_page(request),
            post_id=optional_id(request, "postId"),
            peer_id=optional_id(request, "peerId"),
        )
        return Response([post_impression_item_json(r) for r in rows])

    @extend_schema(request=POST_BODY, responses=POST, operation_id="ai_user_post_impressions_save")
    def post(self, request, user_id: str):
        owner_id = _owner(request, user_id, for_write=True)
        post_id, payload = _impression_body(request, "postId")
        row = memory.post_impression_save(
            request.user, user_id=owner_id, post_id=post_id, payload=payload, source=memory_versions.API
        )
        return Response(post_impression_json(row))


class PostImpressionView(APIView):
    @extend_schema(responses=EXISTS, operation_id="ai_user_post_impression_exists")
    def head(self, request, user_id: str, post_id: str):
        owner_id = _owner(request, user_id)
        found = memory.post_impression_exists(request.user, user_id=owner_id, post_id=path_id(post_id, "postId"))
        return Response(status=200 if found else 404)

    @extend_schema(responses=POST, operation_id="ai_user_post_impression_get")
    def get(self, request, user_id: str, post_id: str):
        owner_id = _owner(request, user_id)
        row = memory.post_impression_get(request.user, user_id=owner_id, post_id=path_id(post_id, "postId"))
        return _found(row, post_impression_json)
