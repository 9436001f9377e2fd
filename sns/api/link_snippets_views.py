"""POST /link-snippets/resolve (docs/api.md, "Link previews"); the rules are
sns/linksnippets/. Open to signed-out readers, as the original is: they get the cached
cards of external pages and public posts, but only a signed-in caller makes the site
fetch a page (401 otherwise)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from sns.core.errors import InvalidInput
from sns.core.textguard import refuse_invalid
from sns.linksnippets.service import link_snippet_resolve

from . import schema
from .params import BodySerializer, PassedText
from .permissions import Public


@extend_schema_serializer(component_name="LinkSnippetInput")
class ResolveInput(BodySerializer):
    schema_required = ("url",)
    url = PassedText(help_text="an absolute http(s) URL, or a path of this site (/posts/{id}, …)")


@extend_schema_serializer(component_name="LinkSnippet")
class LinkSnippetOutput(serializers.Serializer):
    url = serializers.CharField()
    status = serializers.ChoiceField(["ready", "unavailable", "fetch_failed", "pending"])
    title = serializers.CharField(allow_null=True)
    description = serializers.CharField(allow_null=True)
    siteName = serializers.CharField(allow_null=True)
    imageUrl = serializers.CharField(allow_null=True)
    fetchedAt = serializers.CharField(allow_null=True)
    expiresAt = serializers.CharField(allow_null=True)
    stale = serializers.BooleanField()
    refreshing = serializers.BooleanField()


class LinkSnippetResolveView(APIView):
    permission_classes = (Public,)

    @extend_schema(
        request=ResolveInput,
        responses={200: OpenApiResponse(LinkSnippetOutput, description="the card's state"),
                   **schema.errors(400, 401, 429)},
        operation_id="link_snippets_resolve",
    )
    def post(self, request):
        data = request.data if isinstance(request.data, dict) else {}
        url = data.get("url") if isinstance(data.get("url"), str) else ""
        if not url.strip():
            raise InvalidInput("url is required")
        refuse_invalid(url, "url")
        user = request.user if request.user is not None and request.user.is_authenticated else None
        origin = f"{request.scheme}://{request.get_host()}"
        return Response(link_snippet_resolve(
            url, viewer=user, client_key=BaseThrottle().get_ident(request) or "unknown",
            site_origin=origin))
