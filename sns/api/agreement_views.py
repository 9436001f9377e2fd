"""/agreement-terms and POST /users/agreement/{id}: versions of the terms of use, and a
user accepting the newest (docs/api.md, agreement terms)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from sns.selectors import agreements as selectors_agreements
from sns.reads.access import access_admin
from sns.core.errors import NotFound
from sns.core.ids import id_to_hex, parse_id
from sns.services import agreements

from . import schema
from .permissions import Public

TERM = OpenApiResponse(
    response={
        "type": "object",
        "required": ["id", "contents"],
        "properties": {
            "id": schema.HEX_ID,
            "contents": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["locale", "text"],
                    "properties": {"locale": {"type": "string"}, "text": {"type": "string"}},
                },
            },
        },
    },
    description="an agreement term",
)
CONTENTS_BODY = {
    "type": "array",
    "minItems": 1,
    "items": {
        "type": "object",
        "required": ["locale", "text"],
        "properties": {"locale": {"type": "string"}, "text": {"type": "string"}},
        "additionalProperties": False,
    },
}


def term_json(term) -> dict:
    return {"id": id_to_hex(term.id), "contents": term.contents_list()}


def _term(term_id: str):
    term = selectors_agreements.agreement_term_get(parse_id(term_id))
    if term is None:
        raise NotFound("not found")
    return term


class AgreementTermsView(APIView):
    permission_classes = [Public]

    @extend_schema(
        responses={200: OpenApiResponse(response={"type": "array", "items": schema.HEX_ID})},
        operation_id="agreement_terms_list",
    )
    def get(self, request):
        return Response([id_to_hex(i) for i in selectors_agreements.agreement_term_ids()])


class AgreementTermLatestView(APIView):
    permission_classes = [Public]

    @extend_schema(responses={200: TERM, **schema.errors(404)}, operation_id="agreement_term_latest")
    def get(self, request):
        term = selectors_agreements.agreement_latest()
        if term is None:
            raise NotFound("not found")
        return Response(term_json(term))


class AgreementTermView(APIView):
    """Anyone reads a term; admins write and delete them (403 `admin only` otherwise)."""

    permission_classes = [Public]

    @extend_schema(responses={200: TERM}, operation_id="agreement_term_get")
    def get(self, request, term_id):
        return Response(term_json(_term(term_id)))

    @extend_schema(
        request={"application/json": CONTENTS_BODY},
        responses={200: TERM, **schema.errors(403)},
        operation_id="agreement_term_put",
    )
    def post(self, request, term_id):
        access_admin(request.user)  # before the id, as the original answers a stranger
        term = agreements.agreement_term_put(request.user, parse_id(term_id), request.data)
        return Response(term_json(term))

    @extend_schema(responses={200: schema.OK, **schema.errors(403)}, operation_id="agreement_term_delete")
    def delete(self, request, term_id):
        access_admin(request.user)
        agreements.agreement_term_delete(request.user, parse_id(term_id))
        return Response({"result": "ok"})


class UserAgreementView(APIView):
    @extend_schema(
        request=None,
        responses={200: schema.OK, 409: schema.error(409, "agreement term is not latest")},
        operation_id="user_agreement_accept",
    )
    def post(self, request, term_id):
        agreements.agreement_accept(request.user, parse_id(term_id))
        return Response({"result": "ok"})
