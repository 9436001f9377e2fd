"""AI models, AI users, the chat proxy and feature generation (docs/api.md §5–§6)."""

from __future__ import annotations

import logging

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from agents.access import access_ai_model, chat_tier
from agents.embeddings import UnsupportedEmbedder, embed_features
from agents.llm import gateway
from agents.vectors import features_to_b64
from sns.api import schema
from sns.api.params import optional_id
from sns.api.permissions import LoginRequired, Public
from sns.core.errors import InvalidInput, NotFound

from .common import (
    AiDisabled,
    AiUnavailable,
    InternalError,
    OverBudget,
    clamped_page,
    json_object,
    path_id,
)
from .presenters import ai_user_detail_json, ai_user_json
from .selectors import ai_user_get, ai_users_list

log = logging.getLogger(__name__)
ROLES = ("system", "user", "assistant")
# OpenAPI only: the views validate by hand, to give the original's exact messages.
CHAT_BODY = inline_serializer(
    "AiChatInput",
    {
        "messages": serializers.ListField(
            child=inline_serializer(
                "AiChatMessage",
                {
                    "role": serializers.ChoiceField(choices=sorted(ROLES)),
                    "content": schema.StorableText(),
                },
            ),
            min_length=1,
        ),
        "model": serializers.CharField(required=False, help_text="tier label; admins only"),
        "responseFormat": serializers.CharField(
            required=False, help_text='"json" for JSON-object mode'
        ),
    },
)
FEATURES_BODY = inline_serializer("AiFeaturesInput", {"input": schema.NonBlankText()})


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(response=schema.OBJECT, description=f'{{"error": "..."}}: {description}')


# What a call through the gateway can answer besides success.
AI_CALL_ERRORS = {
    400: _error("invalid body"),
    401: _error("not logged in"),
    403: _error("no model configured, or a model override by a non-admin"),
    500: _error("the model answered unusably"),
    501: _error("ai features are disabled"),
    503: _error("ai service is unavailable: the model is down, too slow or its breaker is open"),
}


class AiModelsView(APIView):
    @extend_schema(responses=schema.LIST, operation_id="ai_models_list")
    def get(self, request):
        return Response(gateway.tiers())


class AiModelView(APIView):
    @extend_schema(responses=schema.OBJECT, operation_id="ai_model_get")
    def get(self, request, label: str):
        for tier in gateway.tiers():
            if tier["label"] == label:
                return Response(tier)
        raise NotFound("not found")


class AiUsersView(APIView):
    @extend_schema(
        parameters=[*schema.PAGE, schema.AFTER], responses=schema.LIST, operation_id="ai_users_list"
    )
    def get(self, request):
        page = clamped_page(request)
        after = optional_id(request, "after")
        if after is not None and (page.order != "asc" or page.offset != 0):
            raise InvalidInput("after requires order=asc and offset=0")
        return Response([ai_user_json(u) for u in ai_users_list(page=page, after=after)])


class AiUserView(APIView):
    @extend_schema(responses=schema.OBJECT, operation_id="ai_user_get")
    def get(self, request, user_id: str):
        user = ai_user_get(path_id(user_id))
        return Response(ai_user_detail_json(user, request.user))


def _chat_tier(user, body: dict) -> str:
    """Whose tier a proxied chat uses: an admin may name one, everyone else uses their own."""
    raw = body.get("model")
    requested = raw.strip() if isinstance(raw, str) else ("" if raw is None else str(raw))
    return chat_tier(user, requested)


def _chat_messages(body: dict) -> list[dict[str, str]]:
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise InvalidInput("messages must be a non-empty array")
    out = []
    for i, message in enumerate(messages):
        if not isinstance(message, dict):
            raise InvalidInput(f"invalid messages[{i}]")
        if message.get("role") not in ROLES:
            raise InvalidInput(f"invalid messages[{i}].role")
        if not isinstance(message.get("content"), str):
            raise InvalidInput(f"invalid messages[{i}]")
        out.append({"role": message["role"], "content": message["content"]})
    return out


def llm_failure(exc: gateway.LlmError) -> Exception:
    """The API's answer to a gateway error: 501, 429 with the reason, 503 when the model
    is down or slower than the web time limit, or a bare 500."""
    if isinstance(exc, gateway.LlmDisabled):
        return AiDisabled()
    if isinstance(exc, gateway.BudgetExceeded):
        return OverBudget(exc.message)
    log.warning("AI call from the API failed: %s", exc)
    if isinstance(exc, (gateway.LlmUnavailable, gateway.LlmTransientError)):
        return AiUnavailable()
    return InternalError()


class AiChatView(APIView):
    """HEAD: is AI on (no login). POST: a thin proxy over `gateway.chat`."""

    def get_permissions(self):
        return [Public()] if self.request.method == "HEAD" else [LoginRequired()]

    @extend_schema(
        responses={
            200: schema.NO_CONTENT,
            501: OpenApiResponse(description="ai features are disabled"),
            503: OpenApiResponse(description="ai service is unavailable (circuit breaker open)"),
        },
        operation_id="ai_users_chat_available",
    )
    def head(self, request):
        if not gateway.ai_enabled():
            return Response(status=501)
        return Response(status=200 if gateway.accepting_calls() else 503)

    @extend_schema(
        request=CHAT_BODY,
        responses={200: schema.OBJECT, **AI_CALL_ERRORS, 429: _error("daily token budget used up")},
        operation_id="ai_users_chat",
    )
    def post(self, request):
        if not gateway.ai_enabled():
            raise AiDisabled()
        body = json_object(request)
        tier = _chat_tier(request.user, body)
        messages = _chat_messages(body)
        try:
            response = gateway.chat(
                messages=messages,
                tier=tier,
                task="chat",
                locale=request.user.locale or "en",
                json_mode=body.get("responseFormat") == "json",
                user_id=request.user.id,
                stage="api",
                # A person's own conversation with the model: not an AI user's prompt,
                # and not kept for admins to read (docs/prompts.md §5).
                trace=False,
            )
        except gateway.LlmError as exc:
            raise llm_failure(exc) from exc
        return Response({"message": {"content": response.content}})


class AiFeaturesView(APIView):
    @extend_schema(
        request=FEATURES_BODY,
        responses={200: schema.OBJECT, **AI_CALL_ERRORS},
        operation_id="ai_users_features",
    )
    def post(self, request):
        if not gateway.ai_enabled():
            raise AiDisabled()
        body = json_object(request)
        if "model" in body:
            raise InvalidInput("model is not accepted for feature generation")
        access_ai_model(request.user)
        text = body.get("input")
        if not isinstance(text, str) or not text.strip():
            raise InvalidInput("input is required")
        features, _model = embed_for_api(text, request.user)
        return Response({"features": features_to_b64(features)})


def embed_for_api(text: str, user) -> tuple[bytes, str]:
    try:
        return embed_features(text, user_id=user.id, stage="api")
    except UnsupportedEmbedder as exc:
        log.warning("feature generation refused: %s", exc)
        raise InvalidInput("unsupported service") from exc
    except gateway.LlmError as exc:
        raise llm_failure(exc) from exc
