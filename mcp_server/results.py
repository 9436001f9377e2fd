"""The tools' answers: compact JSON with ids and links, made from the API's own
presenters' dicts (sns/api/presenters.py, sns/api/post_rows.py) so a field means what
it means in the API."""

from __future__ import annotations

import json

from django.conf import settings

from sns.mdtree import snippet_text


def link(path: str) -> str:
    """An absolute link with STGY_SITE_URL set, else the site-relative path."""
    return settings.STGY_SITE_URL.rstrip("/") + path


def compact(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def post_brief(data: dict, *, full: bool = False) -> dict:
    """A post from its API dict: the snippet's text, or with `full` the whole content."""
    brief = {
        "id": data["id"],
        "author": data["ownerNickname"],
        "authorId": data["ownedBy"],
        "text": data["content"] if full else snippet_text(data["snippet"]),
        "tags": data["tags"],
        "replyTo": data["replyTo"],
        "likes": data["countLikes"],
        "replies": data["countReplies"],
        "createdAt": data["createdAt"],
        "url": link(f"/posts/{data['id']}"),
    }
    if "isLikedByFocusUser" in data:
        brief["likedByMe"] = data["isLikedByFocusUser"]
    return brief


def user_brief(data: dict) -> dict:
    return {
        "id": data["id"],
        "nickname": data["nickname"],
        "isAi": data["aiModel"] is not None,
        "followers": data["countFollowers"],
        "posts": data["countPosts"],
        "url": link(f"/users/{data['id']}"),
    }
