"""Personal access tokens, beside the original contract (docs/api.md, "Personal access
tokens"): GET/POST /users/{id}/tokens and DELETE /users/{id}/tokens/{tokenId}. Managed
with a session only: a token cannot make, list or revoke tokens."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from sns.auth.token import TokenGrant
from sns.core.errors import Forbidden
from sns.core.ids import id_to_hex, parse_id
from sns.core.isotime import iso
from sns.selectors.tokens import user_tokens
from sns.services.tokens import token_create, token_revoke

from . import schema, shapes
from .params import BodySerializer, PassedStrings, PassedText, body

OK = {"result": "ok"}


class Token(serializers.Serializer):
    id = serializers.CharField(help_text="16 hex digits")
    name = serializers.CharField()
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=["read", "write"]))
    createdAt = serializers.DateTimeField()
    lastUsedAt = serializers.DateTimeField(allow_null=True)


class NewToken(Token):
    token = serializers.CharField(help_text="the secret, shown only in this answer")


def token_json(token) -> dict:
    return {
        "id": id_to_hex(token.id),
        "name": token.name,
        "scopes": token.scopes,
        "createdAt": iso(token.created_at),
        "lastUsedAt": iso(token.last_used_at),
    }


def refuse_token(request) -> None:
    """Tokens are managed with a session: a stolen token must not mint or hide others."""
    if isinstance(request.auth, TokenGrant):
        raise Forbidden("not allowed with a token")


class UserTokensView(APIView):
    @extend_schema_serializer(component_name="TokenInput")
    class InputSerializer(BodySerializer):
        schema_required = ("name",)
        # Passed through as sent: the service owns the messages.
        name = PassedText(required=False, default=None, allow_null=True)
        scopes = PassedStrings(required=False, default=None, allow_null=True)

    @extend_schema(
        responses={200: Token(many=True), **schema.errors(403)},
        description="The user's personal access tokens, newest first (never their secrets): "
        "the user themself or an admin, with a session.",
    )
    def get(self, request, user_id):
        refuse_token(request)
        return Response([token_json(t) for t in user_tokens(request.user, parse_id(user_id))])

    @extend_schema(
        request=InputSerializer,
        responses={201: NewToken, **schema.errors(403)},
        description='A new token of one\'s own: `scopes` ["read"] (the default) or ["read", '
        '"write"]. The secret is in this answer only.',
    )
    def post(self, request, user_id):
        refuse_token(request)
        data = body(request, self.InputSerializer)
        token, secret = token_create(
            request.user, parse_id(user_id), name=data.get("name"), scopes=data.get("scopes")
        )
        return Response({**token_json(token), "token": secret}, status=status.HTTP_201_CREATED)


class UserTokenView(APIView):
    @extend_schema(
        responses={200: shapes.OK, **schema.errors(403)},
        description="Revoke the token: it answers 401 from its next request on.",
    )
    def delete(self, request, user_id, token_id):
        refuse_token(request)
        token_revoke(request.user, parse_id(user_id), parse_id(token_id, "tokenId"))
        return Response(OK)
