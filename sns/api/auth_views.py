"""POST/GET/DELETE /auth and POST /auth/switch-user (docs/api.md §1)."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from sns.auth.token import TokenGrant
from sns.core.errors import Forbidden, InvalidInput, LoginRequired
from sns.core.ids import parse_id
from sns.reads.access import access_admin
from sns.services.sessions import session_login, session_logout, session_switch_user

from . import schema, shapes
from .params import BodySerializer
from .permissions import Public
from .presenters import session_info


class LoginThrottle(ScopedRateThrottle):
    """Password attempts per client address, whether or not the caller already holds a
    session (DRF's scoped throttle would switch to a per-user bucket after the first
    success). Rates are read per request: DRF binds them when its module is imported,
    so a settings override would otherwise never take effect."""

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class AuthView(APIView):
    permission_classes = [Public]
    throttle_scope = "login"

    def get_throttles(self):
        # Only the password check is rate-limited per client address.
        return [LoginThrottle()] if self.request.method == "POST" else []

    @extend_schema_serializer(component_name="LoginInput")
    class InputSerializer(BodySerializer):
        schema_required = ("email", "password")
        email = serializers.CharField(required=False, allow_blank=True)
        password = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)

    @extend_schema(
        request=InputSerializer,
        responses={200: shapes.SessionId, **schema.errors(401, 429)},
    )
    def post(self, request):
        data = self.InputSerializer(data=request.data if isinstance(request.data, dict) else {})
        data.is_valid(raise_exception=True)
        email = (data.validated_data.get("email") or "").strip()
        password = data.validated_data.get("password") or ""
        if not email or not password:
            raise InvalidInput("email and password are needed")
        if session_login(request._request, email=email, password=password) is None:
            raise LoginRequired("authentication failed")
        return Response({"sessionId": request._request.session.session_key})

    @extend_schema(responses={200: shapes.Session, **schema.errors(401)})
    def get(self, request):
        user = request.user
        if user is None or not user.is_authenticated:
            has_cookie = settings.SESSION_COOKIE_NAME in request.COOKIES
            raise LoginRequired("no matching session" if has_cookie else "no session ID")
        return Response(session_info(user, request._request.session))

    @extend_schema(responses={200: shapes.OK})
    def delete(self, request):
        session_logout(request._request)
        return Response({"result": "ok"})


class SwitchUserView(APIView):
    """An admin gets a new session of another user; the admin's own session stays
    valid. The new session is returned and set as the cookie, as in the original."""

    permission_classes = [Public]

    @extend_schema_serializer(component_name="SwitchUserInput")
    class InputSerializer(BodySerializer):
        schema_required = ("id",)
        id = schema.HexIdText(required=False, allow_blank=True)

    @extend_schema(
        request=InputSerializer, responses={200: shapes.SessionId, **schema.errors(401, 404)}
    )
    def post(self, request):
        user = request.user if request.user and request.user.is_authenticated else None
        access_admin(user)
        if isinstance(request.auth, TokenGrant):
            raise Forbidden("not allowed with a token")  # a token acts as its own user only
        data = self.InputSerializer(data=request.data if isinstance(request.data, dict) else {})
        data.is_valid(raise_exception=True)
        raw = (data.validated_data.get("id") or "").strip()
        if not raw:
            raise InvalidInput("id is required")
        key = session_switch_user(request._request, user, parse_id(raw))
        return Response({"sessionId": key})
