"""Sign-up, e-mail change and password reset by mailed code (docs/accounts.md,
docs/api.md §2): POST /signup/start|verify, /users/{id}/email/start|verify and
/users/password/reset/start|verify. Presence checks and their messages are the
original's; every rule is sns.services.accounts'."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_serializer, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from sns.core.errors import InvalidInput
from sns.core.ids import id_to_hex, parse_id
from sns.core.mail_limits import client_of
from sns.core.textguard import refuse_invalid
from sns.services import accounts
from sns.services.sessions import session_is_actors, session_logged_in_at

from . import shapes
from .params import BodySerializer, LocaleField, StringField, body
from .permissions import Public

OK = {"result": "ok"}


def _text(**kwargs):
    return StringField(
        required=False,
        allow_blank=True,
        allow_null=True,
        trim_whitespace=False,
        default=None,
        **kwargs,
    )


def _needed(data: dict, names: tuple[str, ...], message: str) -> None:
    # As the original: absent, null or "" is missing; spaces are for the rules to judge.
    if any(not data.get(name) for name in names):
        raise InvalidInput(message)
    for name, value in data.items():
        if isinstance(value, str):
            refuse_invalid(value, name)


class SignupStartView(APIView):
    permission_classes = [Public]

    @extend_schema_serializer(component_name="SignupStartInput")
    class InputSerializer(BodySerializer):
        schema_required = ("email", "password")
        email = _text()
        password = _text()
        locale = LocaleField(
            required=False, allow_blank=True, allow_null=True, trim_whitespace=False, default=None
        )
        timezone = _text()

    @extend_schema(
        request=InputSerializer,
        responses={201: inline_serializer("SignupId", {"signupId": serializers.UUIDField()})},
        operation_id="signup_start",
    )
    def post(self, request):
        data = body(request, self.InputSerializer)
        _needed(data, ("email", "password"), "email and password are needed")
        row = accounts.signup_start(
            email=data["email"],
            password=data["password"],
            locale=data.get("locale"),
            timezone_name=data.get("timezone"),
            client=client_of(request),
        )
        return Response({"signupId": str(row.id)}, status=status.HTTP_201_CREATED)


class SignupVerifyView(APIView):
    permission_classes = [Public]

    @extend_schema_serializer(component_name="SignupVerifyInput")
    class InputSerializer(BodySerializer):
        schema_required = ("signupId", "verificationCode")
        signupId = _text()
        verificationCode = _text()

    @extend_schema(
        request=InputSerializer,
        responses={201: inline_serializer("SignupUserId", {"userId": serializers.CharField()})},
        operation_id="signup_verify",
    )
    def post(self, request):
        data = body(request, self.InputSerializer)
        _needed(data, ("signupId", "verificationCode"), "signupId and verificationCode are needed")
        user = accounts.signup_verify(data["signupId"], data["verificationCode"])
        return Response({"userId": id_to_hex(user.id)}, status=status.HTTP_201_CREATED)


class EmailStartView(APIView):
    @extend_schema_serializer(component_name="EmailChangeStartInput")
    class InputSerializer(BodySerializer):
        schema_required = ("email",)
        email = _text()
        # Ours: moving one's own account needs it, unless the session logged in
        # recently (docs/accounts.md §2); the original's frontend sends `email` alone.
        currentPassword = _text()

    @extend_schema(
        request=InputSerializer,
        responses={
            201: inline_serializer("UpdateEmailId", {"updateEmailId": serializers.UUIDField()})
        },
        operation_id="users_email_start",
    )
    def post(self, request, user_id):
        target_id = parse_id(user_id)
        data = body(request, self.InputSerializer)
        _needed(data, ("email",), "email required")
        row = accounts.email_change_start(
            request.user,
            target_id,
            data["email"],
            client=client_of(request),
            current_password=data["currentPassword"],
            logged_in_at=(
                session_logged_in_at(request.session)
                if session_is_actors(request._request, request.user)
                else None
            ),
        )
        return Response({"updateEmailId": str(row.id)}, status=status.HTTP_201_CREATED)


class EmailVerifyView(APIView):
    @extend_schema_serializer(component_name="EmailChangeVerifyInput")
    class InputSerializer(BodySerializer):
        schema_required = ("updateEmailId", "verificationCode")
        updateEmailId = _text()
        verificationCode = _text()

    @extend_schema(request=InputSerializer, responses=shapes.OK, operation_id="users_email_verify")
    def post(self, request, user_id):
        target_id = parse_id(user_id)
        data = body(request, self.InputSerializer)
        _needed(
            data,
            ("updateEmailId", "verificationCode"),
            "updateEmailId and verificationCode are needed",
        )
        accounts.email_change_verify(
            request.user, target_id, data["updateEmailId"], data["verificationCode"]
        )
        return Response(OK)


class PasswordResetStartView(APIView):
    permission_classes = [Public]

    @extend_schema_serializer(component_name="PasswordResetStartInput")
    class InputSerializer(BodySerializer):
        schema_required = ("email",)
        email = _text()

    @extend_schema(
        request=InputSerializer,
        responses={
            201: inline_serializer(
                "PasswordResetTicket",
                {"resetPasswordId": serializers.UUIDField(), "webCode": serializers.CharField()},
            )
        },
        operation_id="users_password_reset_start",
    )
    def post(self, request):
        data = body(request, self.InputSerializer)
        _needed(data, ("email",), "email required")
        row, web_code = accounts.password_reset_start(data["email"], client=client_of(request))
        return Response(
            {"resetPasswordId": str(row.id), "webCode": web_code}, status=status.HTTP_201_CREATED
        )


class PasswordResetVerifyView(APIView):
    permission_classes = [Public]

    @extend_schema_serializer(component_name="PasswordResetVerifyInput")
    class InputSerializer(BodySerializer):
        schema_required = ("email", "resetPasswordId", "webCode", "mailCode", "newPassword")
        email = _text()
        resetPasswordId = _text()
        webCode = _text()
        mailCode = _text()
        newPassword = _text()

    @extend_schema(
        request=InputSerializer,
        responses=shapes.OK,
        operation_id="users_password_reset_verify",
    )
    def post(self, request):
        data = body(request, self.InputSerializer)
        _needed(
            data,
            ("email", "resetPasswordId", "webCode", "mailCode", "newPassword"),
            "email, resetPasswordId, webCode, mailCode, newPassword are required",
        )
        accounts.password_reset_verify(
            email=data["email"],
            reset_password_id=data["resetPasswordId"],
            web_code=data["webCode"],
            mail_code=data["mailCode"],
            new_password=data["newPassword"],
        )
        return Response(OK)
