"""What AI users remember about a person, and "forget me", over HTTP
(docs/what-ai-users-know.md, docs/api.md "What AI users remember about me"): the person
herself and admins; anyone else is answered 403."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from agents import person_memory
from sns.api import schema
from sns.api.params import optional_id, page_params
from sns.api.presenters import iso
from sns.core.ids import id_to_hex, parse_id

from . import shapes

AI_USER = schema.hex_id("aiUserId", "hex id of one AI user: only what it holds")


def post_memory_json(row: person_memory.PostMemory) -> dict:
    return {
        "postId": id_to_hex(row.post_id),
        "excerpt": row.excerpt,
        "impression": row.impression,
        "tags": row.tags,
        "updatedAt": iso(row.updated_at),
    }


def ai_memory_json(row: person_memory.AiMemoryOfPerson) -> dict:
    impression = None
    if row.impression is not None:
        impression = {
            "impression": row.impression,
            "tags": row.tags,
            "updatedAt": iso(row.impression_at),
        }
    return {
        "aiUser": {"id": id_to_hex(row.ai_user.id), "nickname": row.ai_user.nickname},
        "updatedAt": iso(row.updated_at),
        "peerImpression": impression,
        "relationship": row.relationship,
        "postImpressions": [post_memory_json(p) for p in row.posts],
        "countPostImpressions": row.post_count,
    }


class PersonMemoryView(APIView):
    @extend_schema(
        parameters=[*schema.PAGE, AI_USER],
        responses={200: shapes.many(shapes.AiMemoryOfPerson), **schema.errors(403, 404)},
        operation_id="user_ai_memory_list",
        description="What AI users remember about the user, newest first: the user and admins only.",
    )
    def get(self, request, user_id: str):
        person_id = parse_id(user_id)
        rows = person_memory.person_memory_list(
            request.user,
            person_id,
            page=page_params(request),
            ai_user_id=optional_id(request, "aiUserId"),
        )
        return Response([ai_memory_json(r) for r in rows])

    @extend_schema(
        parameters=[AI_USER],
        responses={200: shapes.AiMemoryForgotten, **schema.errors(403, 404)},
        operation_id="user_ai_memory_forget",
        description=(
            "Forget the user: every AI user's impression of them and relationship with them are "
            "deleted, and its impressions of their posts lose their text (read markers stay). "
            "With aiUserId, only what that AI user holds."
        ),
    )
    def delete(self, request, user_id: str):
        person_id = parse_id(user_id)
        forgotten = person_memory.person_memory_forget(
            request.user, person_id, ai_user_id=optional_id(request, "aiUserId")
        )
        return Response(forgotten)
