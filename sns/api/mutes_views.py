"""Mutes, beside the original contract (docs/mutes.md): /users/{id}/mute,
/users/{id}/mutees and /users/{id}/muted-words."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_serializer
from rest_framework.response import Response
from rest_framework.views import APIView

from sns import selectors
from sns.core.ids import parse_id
from sns.reads.access import access_user_self_or_admin
from sns.services import mutes as mute_services

from . import schema, shapes
from .params import BodySerializer, PassedStrings, body, optional_id, page_params
from .presenters import user_json

OK = {"result": "ok"}
WORDS = OpenApiResponse(response=OpenApiTypes.OBJECT, description='{"words": [...]}, lower-cased, sorted')


class UserMuteView(APIView):
    @extend_schema(request=None, responses=shapes.OK, description="Mute this user (docs/mutes.md).")
    def post(self, request, user_id):
        mute_services.mute_add(request.user, parse_id(user_id))
        return Response(OK)

    @extend_schema(responses={200: shapes.OK})
    def delete(self, request, user_id):
        mute_services.mute_remove(request.user, parse_id(user_id))
        return Response(OK)


class UserMuteesView(APIView):
    @extend_schema(
        parameters=[*schema.PAGE, schema.FOCUS],
        responses={200: shapes.many(shapes.User), **schema.errors(403)},
        description="The users this user muted, newest first: the user themself or an admin.",
    )
    def get(self, request, user_id):
        user = access_user_self_or_admin(request.user, parse_id(user_id))
        focus = optional_id(request, "focusUserId")
        users = selectors.user_mutees(user_id=user.id, page=page_params(request), focus_user_id=focus)
        return Response([user_json(u, focus) for u in users])


class UserMutedWordsView(APIView):
    @extend_schema_serializer(component_name="MutedWordsInput")
    class InputSerializer(BodySerializer):
        schema_required = ("words",)
        # Passed through as sent: the service owns the messages.
        words = PassedStrings(default=None, allow_null=True)

    @extend_schema(responses={200: WORDS, **schema.errors(403)})
    def get(self, request, user_id):
        user = access_user_self_or_admin(request.user, parse_id(user_id))
        return Response({"words": selectors.muted_words_get(user.id)})

    @extend_schema(request=InputSerializer, responses={200: WORDS})
    def put(self, request, user_id):
        data = body(request, self.InputSerializer)
        mute_services.muted_words_set(request.user, parse_id(user_id), data["words"])
        return Response({"words": selectors.muted_words_get(parse_id(user_id))})
