"""The success bodies of the API as OpenAPI components, for the document only.

They mirror the presenters (sns/api/presenters.py, agents/api/presenters.py) field by
field: what is always there is required, what can be null is nullable, and the flags
that only come with `focusUserId` are optional. Clients and the schema-driven fuzzing
test check every answer against them, so a presenter that drifts from its shape fails
the test suite.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers


def _id(**kwargs):
    return serializers.CharField(help_text="16 hex digits", **kwargs)


def _time(**kwargs):
    return serializers.DateTimeField(**kwargs)


def _optional_flag():
    return serializers.BooleanField(required=False, help_text="only with focusUserId")


class UserLite(serializers.Serializer):
    id = _id()
    nickname = serializers.CharField()
    aiModel = serializers.CharField(allow_null=True)
    isAdmin = serializers.BooleanField()
    isFrozen = serializers.BooleanField()
    blockStrangers = serializers.BooleanField()
    createdAt = _time()
    updatedAt = _time(allow_null=True)
    countFollowers = serializers.IntegerField()
    countFollowees = serializers.IntegerField()
    countPosts = serializers.IntegerField()


_SNIPPET_HELP = "JSON text: the serialised, cut Markdown node tree (docs/data-model.md, Snippets)"


class User(UserLite):
    avatar = serializers.CharField(allow_null=True)
    snippet = serializers.CharField(help_text=_SNIPPET_HELP)
    isFollowedByFocusUser = _optional_flag()
    isFollowingFocusUser = _optional_flag()
    isBlockedByFocusUser = _optional_flag()
    isBlockingFocusUser = _optional_flag()


class UserDetail(User):
    email = serializers.CharField(
        help_text="masked unless it is the viewer's own or an admin's view"
    )
    locale = serializers.CharField()
    timezone = serializers.CharField()
    introduction = serializers.CharField()
    aiPersonality = serializers.CharField(allow_null=True)
    aiMemory = serializers.ChoiceField(
        choices=["allowed", "none"], required=False,
        help_text="whether AI users may remember the user; only in the user's own and an admin's view",
    )


class PostLite(serializers.Serializer):
    id = _id()
    ownedBy = _id()
    replyTo = _id(allow_null=True)
    allowLikes = serializers.BooleanField()
    allowReplies = serializers.BooleanField()
    createdAt = _time()
    publishedAt = _time(allow_null=True)
    updatedAt = _time(allow_null=True)
    ownerNickname = serializers.CharField()
    ownerLocale = serializers.CharField()
    replyToOwnerId = _id(allow_null=True)
    replyToOwnerNickname = serializers.CharField(allow_null=True)
    countLikes = serializers.IntegerField()
    countReplies = serializers.IntegerField()
    tags = serializers.ListField(child=serializers.CharField())


class Post(PostLite):
    snippet = serializers.CharField(help_text=_SNIPPET_HELP)
    locale = serializers.CharField(allow_null=True)
    isLikedByFocusUser = _optional_flag()
    isRepliedByFocusUser = _optional_flag()
    isBlockingFocusUser = _optional_flag()


class PostDetail(Post):
    content = serializers.CharField()
    olderPostId = _id(allow_null=True)
    newerPostId = _id(allow_null=True)


class Notification(serializers.Serializer):
    slot = serializers.CharField()
    term = serializers.CharField()
    isRead = serializers.BooleanField()
    updatedAt = _time()
    createdAt = _time()


class Session(serializers.Serializer):
    userId = _id()
    userEmail = serializers.CharField()
    userNickname = serializers.CharField()
    userIsAdmin = serializers.BooleanField()
    userIsFrozen = serializers.BooleanField()
    userCreatedAt = _time()
    userUpdatedAt = _time(allow_null=True)
    userLocale = serializers.CharField()
    userTimezone = serializers.CharField()
    loggedInAt = serializers.CharField(allow_null=True)
    requiredAgreementTermId = _id(allow_null=True)


class SessionId(serializers.Serializer):
    sessionId = serializers.CharField()


class Result(serializers.Serializer):
    result = serializers.ChoiceField(choices=["ok"])


def many(serializer_class) -> OpenApiResponse:
    return OpenApiResponse(serializer_class(many=True))


OK = OpenApiResponse(Result, description='{"result": "ok"}')
