"""/media/{userId}/images and /media/{userId}/profiles/{slot} (docs/media.md §1): the
original's presigned-upload flow. The rules are sns/services/media.py."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
)
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from sns.core.ids import parse_id
from sns.services import media

from . import schema
from .params import BodySerializer, PassedText, body, int_value

PRESIGNED = OpenApiResponse(
    response=OpenApiTypes.OBJECT,
    description="{url, fields, objectKey, maxBytes, expiresInSec}: POST the fields and a `file` part to url",
)
MEDIA_OBJECT = OpenApiResponse(
    response=OpenApiTypes.OBJECT,
    description="{bucket, key, size, contentType, lastModified, metadata, publicUrl}",
)
BYTES = {(200, mime): OpenApiTypes.BINARY for mime in ("image/jpeg", "image/png", "image/webp")}
READ_ERRORS = schema.errors(400, 401, 403, 404)
WRITE_ERRORS = schema.errors(400, 401, 403, 404)


@extend_schema_field(OpenApiTypes.NUMBER)
class PassedNumber(serializers.JSONField):
    """A number in the schema, passed through as sent (the service says `invalid sizeBytes`)."""


@extend_schema_serializer(component_name="MediaPresignInput")
class PresignInput(BodySerializer):
    schema_required = ("filename", "sizeBytes")
    filename = PassedText(default="")
    sizeBytes = PassedNumber(default=0, source="size_bytes")


@extend_schema_serializer(component_name="MediaFinalizeInput")
class FinalizeInput(BodySerializer):
    schema_required = ("key",)
    key = PassedText(default="")


_URL_FIELDS = frozenset({"publicUrl", "previewUrl"})


def absolute_urls(request, answer):
    """The answer with its object URLs absolute. The local store's are paths
    (`/storage/...`, docs/media.md §2); a frontend on another origin (the original's, on
    its own port) would ask its own host for them, so they are made absolute on the
    origin the caller reached, as S3's always are."""
    if isinstance(answer, list):
        return [absolute_urls(request, item) for item in answer]
    if isinstance(answer, dict):
        return {name: request.build_absolute_uri(value)
                if name in _URL_FIELDS and isinstance(value, str) and value.startswith("/")
                and not value.startswith("//") else absolute_urls(request, value)
                for name, value in answer.items()}
    return answer


def _bytes(data: bytes, content_type: str) -> HttpResponse:
    response = HttpResponse(data, content_type=content_type)
    response["Content-Length"] = str(len(data))
    response["X-Content-Type-Options"] = "nosniff"
    return response


LIST_PARAMETERS = [schema.query("offset", schema.INT64), schema.query("limit", schema.INT64),
                   schema.query("after", description="a key of the list; needs offset=0")]


def list_params(request) -> tuple[int, int, str | None]:
    """offset, limit (default 100) and after of a masters listing (images, tracks)."""
    query = request.query_params
    offset = int_value(query.get("offset"), 0, "offset")
    limit = min(int_value(query.get("limit"), 100, "limit"), 65535)
    return offset, limit, (query.get("after") or "").strip() or None


class ImagesView(APIView):
    @extend_schema(parameters=LIST_PARAMETERS, responses={200: schema.LIST, **READ_ERRORS})
    def get(self, request, user_id):
        return Response(absolute_urls(request, media.image_list(request.user, parse_id(user_id),
                                                                 *list_params(request))))


class ImagesQuotaView(APIView):
    @extend_schema(
        parameters=[schema.query("yyyymm", description="month as six digits; default this month")],
        responses={200: OpenApiResponse(response=OpenApiTypes.OBJECT), **READ_ERRORS},
    )
    def get(self, request, user_id):
        yyyymm = (request.query_params.get("yyyymm") or "").strip() or None
        return Response(media.image_quota(request.user, parse_id(user_id), yyyymm))


class ImagesPresignedView(APIView):
    @extend_schema(request=PresignInput, responses={200: PRESIGNED, **WRITE_ERRORS})
    def post(self, request, user_id):
        data = body(request, PresignInput)
        return Response(media.image_presign(request.user, parse_id(user_id), data["filename"], data["size_bytes"],
                                            request.build_absolute_uri("/")))


class ImagesFinalizeView(APIView):
    @extend_schema(request=FinalizeInput, responses={200: MEDIA_OBJECT, **WRITE_ERRORS})
    def post(self, request, user_id):
        data = body(request, FinalizeInput)
        return Response(absolute_urls(request, media.image_finalize(request.user, parse_id(user_id),
                                                                     data["key"])))


@extend_schema_serializer(component_name="MediaImportInput")
class ImportInput(BodySerializer):
    schema_required = ("url",)
    url = PassedText(default="")


class ImagesImportView(APIView):
    @extend_schema(request=ImportInput, responses={**BYTES, **WRITE_ERRORS},
                   description="Admin only: the image at `url`, fetched by the server.")
    def post(self, request, user_id):
        data = body(request, ImportInput)
        payload, content_type = media.image_import(request.user, parse_id(user_id), data["url"],
                                                   request.get_host())
        response = _bytes(payload, content_type)
        response["Cache-Control"] = "no-store"
        return response


class ImageView(APIView):
    # Named: the generated id would collide with the list's (GET .../images).
    @extend_schema(operation_id="api_media_image_retrieve", responses={**BYTES, **READ_ERRORS})
    def get(self, request, user_id, rest):
        return _bytes(*media.image_bytes(request.user, parse_id(user_id), rest))

    @extend_schema(operation_id="api_media_image_destroy", responses={200: schema.OK, **WRITE_ERRORS})
    def delete(self, request, user_id, rest):
        media.image_delete(request.user, parse_id(user_id), rest)
        return Response({"result": "ok"})


class ProfilePresignedView(APIView):
    @extend_schema(request=PresignInput, responses={200: PRESIGNED, **WRITE_ERRORS})
    def post(self, request, user_id, slot):
        data = body(request, PresignInput)
        return Response(media.profile_presign(request.user, parse_id(user_id), slot, data["filename"],
                                              data["size_bytes"], request.build_absolute_uri("/")))


class ProfileFinalizeView(APIView):
    @extend_schema(request=FinalizeInput, responses={200: MEDIA_OBJECT, **WRITE_ERRORS})
    def post(self, request, user_id, slot):
        data = body(request, FinalizeInput)
        return Response(absolute_urls(request, media.profile_finalize(request.user, parse_id(user_id),
                                                                       slot, data["key"])))


class ProfileView(APIView):
    @extend_schema(responses={**BYTES, **READ_ERRORS})
    def get(self, request, user_id, slot):
        return _bytes(*media.profile_bytes(request.user, parse_id(user_id), slot))

    @extend_schema(responses={200: schema.OK, **WRITE_ERRORS})
    def delete(self, request, user_id, slot):
        media.profile_delete(request.user, parse_id(user_id), slot)
        return Response({"result": "ok"})
