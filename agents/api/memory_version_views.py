"""Versions of an AI user's memory over HTTP (docs/api.md §6, "Memory versions"):
the user itself and admins list them, admins restore one. Access is checked before the
version is looked up, so a non-admin learns nothing about which versions exist."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from agents import memory_history
from sns.api import schema
from sns.core.errors import InvalidInput

from . import shapes
from .common import clamped_page, path_id
from .presenters import (
    interest_json,
    interest_version_json,
    peer_impression_json,
    peer_impression_version_json,
)

LIST_ERRORS = schema.errors(403, 404)
RESTORE_ERRORS = schema.errors(403, 404)


def _version_id(value: str) -> int:
    if not value.isascii() or not value.isdigit() or len(value) > 18:
        raise InvalidInput("invalid versionId")
    return int(value)


class InterestVersionsView(APIView):
    @extend_schema(
        parameters=schema.PAGE, responses={200: shapes.many(shapes.AiInterestVersion), **LIST_ERRORS},
        operation_id="ai_user_interest_versions_list",
    )
    def get(self, request, user_id: str):
        rows = memory_history.interest_versions_list(request.user, user_id=path_id(user_id), page=clamped_page(request))
        return Response([interest_version_json(r) for r in rows])


class InterestVersionRestoreView(APIView):
    @extend_schema(
        request=None, responses={200: shapes.AiInterest, **RESTORE_ERRORS},
        operation_id="ai_user_interest_version_restore",
    )
    def post(self, request, user_id: str, version_id: str):
        row = memory_history.interest_version_restore(
            request.user, user_id=path_id(user_id), version_id=_version_id(version_id)
        )
        return Response(interest_json(row))


class PeerImpressionVersionsView(APIView):
    @extend_schema(
        parameters=schema.PAGE, responses={200: shapes.many(shapes.AiPeerImpressionVersion), **LIST_ERRORS},
        operation_id="ai_user_peer_impression_versions_list",
    )
    def get(self, request, user_id: str, peer_id: str):
        rows = memory_history.peer_impression_versions_list(
            request.user, user_id=path_id(user_id), peer_id=path_id(peer_id, "peerId"), page=clamped_page(request)
        )
        return Response([peer_impression_version_json(r) for r in rows])


class PeerImpressionVersionRestoreView(APIView):
    @extend_schema(
        request=None, responses={200: shapes.AiPeerImpression, **RESTORE_ERRORS},
        operation_id="ai_user_peer_impression_version_restore",
    )
    def post(self, request, user_id: str, peer_id: str, version_id: str):
        row = memory_history.peer_impression_version_restore(
            request.user, user_id=path_id(user_id), peer_id=path_id(peer_id, "peerId"),
            version_id=_version_id(version_id),
        )
        return Response(peer_impression_json(row))
