"""JSON shapes of the AI API (docs/api.md §5–§6), field names as the original's."""

from __future__ import annotations

from agents.vectors import features_to_b64
from sns.api.presenters import iso
from sns.core.ids import id_to_hex
from sns.core.privacy import can_see_private, mask_email
from sns.reads.markdown import folded_plain_text

SNIPPET_CODE_POINTS = 150


def ai_user_json(user) -> dict:
    return {
        "id": id_to_hex(user.id),
        "nickname": user.nickname,
        "isAdmin": user.is_admin,
        "aiModel": user.ai_model,
    }


def ai_user_detail_json(user, viewer) -> dict:
    private = can_see_private(viewer, user.id)
    data = ai_user_json(user)
    data.update(
        {
            "email": user.email if private else mask_email(user.email),
            "createdAt": iso(user.created_at),
            "updatedAt": iso(user.updated_at),
            "introduction": user.introduction,
            "aiPersonality": (user.ai_personality or "") if private else "",
        }
    )
    return data


def interest_json(row) -> dict:
    return {
        "userId": id_to_hex(row.user_id),
        "updatedAt": iso(row.updated_at),
        "interest": row.interest,
        "features": features_to_b64(bytes(row.features or b"")),
        "tags": sorted(row.tags or []),
    }


def peer_impression_json(row) -> dict:
    return {
        "userId": id_to_hex(row.user_id),
        "peerId": id_to_hex(row.peer_id),
        "updatedAt": iso(row.updated_at),
        "payload": row.payload,
    }


def peer_impression_item_json(row) -> dict:
    data = peer_impression_json(row)
    data["peerNickname"] = row.peer.nickname if row.peer is not None else None
    return data


def post_impression_json(row) -> dict:
    return {
        "userId": id_to_hex(row.user_id),
        "peerId": id_to_hex(row.peer_id),
        "postId": id_to_hex(row.post_id),
        "updatedAt": iso(row.updated_at),
        "payload": row.payload,
    }


def post_snippet(content_markdown: str) -> str:
    """A one-line plain-text digest: at most 150 code points, "..." when cut."""
    text = " ".join(folded_plain_text(content_markdown or "").split())
    return text[:SNIPPET_CODE_POINTS] + "..." if len(text) > SNIPPET_CODE_POINTS else text


def post_impression_item_json(row) -> dict:
    data = post_impression_json(row)
    data["peerNickname"] = row.peer.nickname if row.peer is not None else None
    data["postSnippet"] = post_snippet(row.post.content) if row.post is not None else None
    return data


def version_source_json(row) -> dict:
    source = {"kind": row.source, "runId": row.run_id}
    if row.stage:
        source["stage"] = row.stage
    if row.restored_from is not None:
        source["restoredFrom"] = row.restored_from
    return source


def interest_version_json(row) -> dict:
    return {
        "versionId": row.pk,
        "createdAt": iso(row.created_at),
        "source": version_source_json(row),
        "interest": row.text,
        "tags": sorted(row.tags or []),
    }


def peer_impression_version_json(row) -> dict:
    return {
        "versionId": row.pk,
        "createdAt": iso(row.created_at),
        "source": version_source_json(row),
        "peerId": id_to_hex(row.peer_id),
        "payload": row.text,
    }
