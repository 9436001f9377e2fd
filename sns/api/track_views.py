"""/media/{userId}/tracks (docs/media.md §9): the original's presigned-upload flow for
FIT and TrackJSON files. The rules are sns/services/tracks.py; bodies and answers are
shaped like the images' (sns/api/media_views.py)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from sns.core.ids import parse_id
from sns.services import tracks

from . import schema
from .media_views import (
    LIST_PARAMETERS,
    PRESIGNED,
    READ_ERRORS,
    WRITE_ERRORS,
    FinalizeInput,
    PresignInput,
    _bytes,
    absolute_urls,
    list_params,
)
from .params import body

FINALIZED = OpenApiResponse(
    response=OpenApiTypes.OBJECT,
    description="{master, preview}: each {bucket, key, size, contentType, lastModified, metadata, "
                "publicUrl, previewKey, previewUrl}",
)
PROCESSING = OpenApiResponse(
    response=OpenApiTypes.OBJECT,
    description='{status: "processing", master, preview}: the file is still being parsed; the keys '
                "are the track's to be (sizes may be null). Ask GET .../tracks/finalize?key= later.",
)
TRACK_BYTES = {(200, mime): OpenApiTypes.BINARY for mime in ("application/octet-stream", "application/gzip")}


class TracksView(APIView):
    @extend_schema(parameters=LIST_PARAMETERS, responses={200: schema.LIST, **READ_ERRORS})
    def get(self, request, user_id):
        return Response(absolute_urls(request, tracks.track_list(request.user, parse_id(user_id),
                                                                 *list_params(request))))


class TracksQuotaView(APIView):
    @extend_schema(
        parameters=[schema.query("yyyymm", description="month as six digits; default this month")],
        responses={200: OpenApiResponse(response=OpenApiTypes.OBJECT), **READ_ERRORS},
    )
    def get(self, request, user_id):
        yyyymm = request.query_params.get("yyyymm") or None
        return Response(tracks.track_quota(request.user, parse_id(user_id), yyyymm))


class TracksPresignedView(APIView):
    @extend_schema(request=PresignInput, responses={200: PRESIGNED, **WRITE_ERRORS},
                   description="`filename` ends in .fit or .trjgz")
    def post(self, request, user_id):
        data = body(request, PresignInput)
        return Response(tracks.track_presign(request.user, parse_id(user_id), data["filename"],
                                             data["size_bytes"], request.build_absolute_uri("/")))


def _finalized(request, answer: dict) -> Response:
    """200 with the track, or 202 while its file is still being parsed (docs/media.md §9)."""
    return Response(absolute_urls(request, answer), status=202 if answer.get("status") == "processing" else 200)


class TracksFinalizeView(APIView):
    @extend_schema(request=FinalizeInput, responses={200: FINALIZED, 202: PROCESSING, **WRITE_ERRORS})
    def post(self, request, user_id):
        data = body(request, FinalizeInput)
        return _finalized(request, tracks.track_finalize(request.user, parse_id(user_id), data["key"]))

    @extend_schema(operation_id="api_media_tracks_finalize_state",
                   parameters=[schema.query("key", description="the objectKey that was finalized", required=True)],
                   responses={200: FINALIZED, 202: PROCESSING, **READ_ERRORS},
                   description="How a finalize that answered 202 ended: the track, still 202, or its 400.")
    def get(self, request, user_id):
        key = request.query_params.get("key") or ""
        return _finalized(request, tracks.track_finalize_state(request.user, parse_id(user_id), key))


class TrackView(APIView):
    @extend_schema(operation_id="api_media_track_retrieve", responses={**TRACK_BYTES, **READ_ERRORS})
    def get(self, request, user_id, rest):
        return _bytes(*tracks.track_bytes(request.user, parse_id(user_id), rest))

    @extend_schema(operation_id="api_media_track_destroy", responses={200: schema.OK, **WRITE_ERRORS})
    def delete(self, request, user_id, rest):
        tracks.track_delete(request.user, parse_id(user_id), rest)
        return Response({"result": "ok"})
