"""Success bodies of the AI memory and post-summary routes as OpenAPI components,
mirroring agents/api/presenters.py and the summary packet field by field."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

from agents.relationships import LEVELS


def _id(**kwargs):
    return serializers.CharField(help_text="16 hex digits", **kwargs)


class AiInterest(serializers.Serializer):
    userId = _id()
    updatedAt = serializers.DateTimeField()
    interest = serializers.CharField()
    features = serializers.CharField(help_text="base64 int8[512]")
    tags = serializers.ListField(child=serializers.CharField())


class AiPeerImpression(serializers.Serializer):
    userId = _id()
    peerId = _id()
    updatedAt = serializers.DateTimeField()
    payload = serializers.CharField()


class AiPeerImpressionItem(AiPeerImpression):
    peerNickname = serializers.CharField(allow_null=True)


class AiPostImpression(AiPeerImpression):
    postId = _id()


class AiPostImpressionItem(AiPostImpression):
    peerNickname = serializers.CharField(allow_null=True)
    postSnippet = serializers.CharField(allow_null=True)


class AiMemoryVersionSource(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["cycle", "respond", "admin", "api", "restore", "exchange", "baseline"])
    runId = serializers.IntegerField(allow_null=True)
    stage = serializers.CharField(required=False)
    restoredFrom = serializers.IntegerField(required=False, help_text="the version a restore brought back")


class AiInterestVersion(serializers.Serializer):
    versionId = serializers.IntegerField()
    createdAt = serializers.DateTimeField()
    source = AiMemoryVersionSource()
    interest = serializers.CharField()
    tags = serializers.ListField(child=serializers.CharField())


class AiPeerImpressionVersion(serializers.Serializer):
    versionId = serializers.IntegerField()
    createdAt = serializers.DateTimeField()
    source = AiMemoryVersionSource()
    peerId = _id()
    payload = serializers.CharField()


class AiPostSummary(serializers.Serializer):
    postId = _id()
    sourceUpdatedAt = serializers.DateTimeField(allow_null=True)
    summary = serializers.CharField(allow_null=True)
    features = serializers.CharField(allow_null=True, help_text="base64 int8[512]")
    tags = serializers.ListField(child=serializers.CharField())
    keywordHashes = serializers.ListField(child=serializers.IntegerField())


class AiMemoryPost(serializers.Serializer):
    postId = _id()
    excerpt = serializers.CharField(help_text="the post's start as plain text, up to 150 code points")
    impression = serializers.CharField()
    tags = serializers.ListField(child=serializers.CharField())
    updatedAt = serializers.DateTimeField()


class AiMemoryPeerImpression(serializers.Serializer):
    impression = serializers.CharField()
    tags = serializers.ListField(child=serializers.CharField())
    updatedAt = serializers.DateTimeField()


class AiMemoryAiUser(serializers.Serializer):
    id = _id()
    nickname = serializers.CharField()


class AiMemoryOfPerson(serializers.Serializer):
    """What one AI user holds about a person (agents/api/person_memory_views.py)."""

    aiUser = AiMemoryAiUser()
    updatedAt = serializers.DateTimeField(help_text="its newest memory of the person")
    peerImpression = AiMemoryPeerImpression(allow_null=True)
    relationship = serializers.ChoiceField(
        choices=[name for _, name in reversed(LEVELS)], allow_null=True
    )
    postImpressions = AiMemoryPost(many=True, help_text="the newest 20")
    countPostImpressions = serializers.IntegerField()


class AiMemoryForgotten(serializers.Serializer):
    peerImpressions = serializers.IntegerField(help_text="impressions of the person deleted")
    postImpressions = serializers.IntegerField(help_text="impressions of their posts whose text was deleted")
    relationships = serializers.IntegerField(help_text="relationships deleted")


def many(serializer_class) -> OpenApiResponse:
    return OpenApiResponse(serializer_class(many=True))
