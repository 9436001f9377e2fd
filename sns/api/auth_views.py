"""POST/GET/DELETE /auth and POST /auth/switch-user (spec/api.md §1)."""

from __future__ import annotations

from django.contrib.auth import authenticate, login, logout
from django.contrib.sessions.backends.base import SessionBase
from django.utils.module_loading import import_string
from django.conf import settings
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from sns.access import access_admin
from sns.errors import InvalidInput, LoginRequired, NotFound
from sns.ids import parse_id
from sns.models import User

from .permissions import Public
from .presenters import session_info


class AuthView(APIView):
    permission_classes = [Public]
    throttle_scope = "login"

    def get_throttles(self):
        # Only the password check is rate-limited per client address.
        return [ScopedRateThrottle()] if self.request.method == "POST" else []

    class InputSerializer(serializers.Serializer):
        email = serializers.CharField(required=False, allow_blank=True)
        password = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)

    def post(self, request):
        data = self.InputSerializer(data=request.data if isinstance(request.data, dict) else {})
        data.is_valid(raise_exception=True)
        email = (data.validated_data.get("email") or "").strip().lower()
        password = data.validated_data.get("password") or ""
        if not email or not password:
            raise InvalidInput("email and password are needed")
        user = authenticate(request._request, email=email, password=password)
        if user is None:
            raise LoginRequired("authentication failed")
        login(request._request, user)
        return Response({"sessionId": request._request.session.session_key})

    def get(self, request):
        user = request.user
        if user is None or not user.is_authenticated:
            has_cookie = settings.SESSION_COOKIE_NAME in request.COOKIES
            raise LoginRequired("no matching session" if has_cookie else "no session ID")
        return Response(session_info(user, request._request.session))

    def delete(self, request):
        logout(request._request)
        return Response({"result": "ok"})


class SwitchUserView(APIView):
    """An admin gets a new session of another user; the admin's own session stays
    valid. The new session is returned and set as the cookie, as in the original."""

    permission_classes = [Public]

    class InputSerializer(serializers.Serializer):
        id = serializers.CharField(required=False, allow_blank=True)

    def post(self, request):
        user = request.user if request.user and request.user.is_authenticated else None
        access_admin(user)
        data = self.InputSerializer(data=request.data if isinstance(request.data, dict) else {})
        data.is_valid(raise_exception=True)
        raw = (data.validated_data.get("id") or "").strip()
        if not raw:
            raise InvalidInput("id is required")
        target = User.objects.filter(pk=parse_id(raw)).first()
        if target is None:
            raise NotFound("user not found")
        store: SessionBase = import_string(settings.SESSION_ENGINE + ".SessionStore")()
        # Same keys django.contrib.auth.login() writes, without replacing the admin's
        # session on this request.
        store["_auth_user_id"] = str(target.pk)
        store["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
        store["_auth_user_hash"] = target.get_session_auth_hash()
        store.create()
        response = Response({"sessionId": store.session_key})
        response.set_cookie(
            settings.SESSION_COOKIE_NAME,
            store.session_key,
            max_age=settings.SESSION_COOKIE_AGE,
            httponly=True,
            samesite=settings.SESSION_COOKIE_SAMESITE,
            secure=request.is_secure(),
        )
        return response
