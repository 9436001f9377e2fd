"""Names for the ids a run record holds (docs/agent-cycle.md, "The run record"): the
activity and run pages show a nickname or a post's opening words where the record has
a hex id, with the id kept on hover. One query for the posts, one for the users."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models.functions import Substr

from sns.core.errors import InvalidInput
from sns.core.ids import id_to_hex, parse_id
from sns.models import Post, User
from sns.reads.markdown import to_plain_text

POST_KEYS = ("postId", "replyId")
USER_KEYS = ("ownerId", "userId")
KEYED_BY_POST = ("postDecisions",)
KEYED_BY_USER = ("peerDecisions",)
EXCERPT_CHARS = 60


@dataclass
class Names:
    posts: dict[str, dict[str, str]] = field(default_factory=dict)  # hex → {"excerpt", "author"}
    users: dict[str, str] = field(default_factory=dict)  # hex → nickname


def _collect(value: Any, posts: set[str], users: set[str]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in POST_KEYS and isinstance(item, str):
                posts.add(item)
            elif key in USER_KEYS and isinstance(item, str):
                users.add(item)
            elif key in KEYED_BY_POST and isinstance(item, dict):
                posts.update(k for k in item if isinstance(k, str))
            elif key in KEYED_BY_USER and isinstance(item, dict):
                users.update(k for k in item if isinstance(k, str))
            _collect(item, posts, users)
    elif isinstance(value, list):
        for item in value:
            _collect(item, posts, users)


def _ids(hexes: set[str]) -> list[int]:
    ids = []
    for hex_id in hexes:
        try:
            ids.append(parse_id(hex_id))
        except InvalidInput:  # a malformed id in an old record is shown as it is
            continue
    return ids


def names_for(*records: Any) -> Names:
    posts, users = set(), set()
    for record in records:
        _collect(record, posts, users)
    names = Names()
    rows = (
        Post.objects.filter(id__in=_ids(posts))
        .annotate(head=Substr("content", 1, 400))
        .values_list("id", "head", "owner__nickname")
    )
    for post_id, head, author in rows:
        text = " ".join(to_plain_text(head or "").split())
        excerpt = text if len(text) <= EXCERPT_CHARS else text[: EXCERPT_CHARS - 1] + "…"
        names.posts[id_to_hex(post_id)] = {"excerpt": excerpt, "author": author}
    for user_id, nickname in User.objects.filter(id__in=_ids(users)).values_list("id", "nickname"):
        names.users[id_to_hex(user_id)] = nickname
    return names
