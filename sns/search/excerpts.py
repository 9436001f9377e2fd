"""The KWIC routes' reads: which posts or users the ids name (visible to the viewer,
or published for /posts/kwic-pub), in the order asked, each with its KWIC data."""

from __future__ import annotations

import hmac


from sns.core.errors import Forbidden, InvalidInput
from sns.geo.service import query_hash
from sns.core.ids import id_to_hex, parse_id
from sns.models import Post, User
from sns.selectors import viewable_q
from sns.selectors.publication import public_posts_q

from .kwic import MAX_IDS, MAX_KEYWORD_PSEUDO_TOKENS, MAX_KEYWORDS, post_kwic, pseudo_tokens, user_kwic


def parse_kwic_request(ids: list[str], keywords: list[str]) -> tuple[list[int], list[str]]:
    """Repeated `id` and `keyword` parameters, with the original's messages."""
    if not ids:
        raise InvalidInput("id is required")
    if len(ids) > MAX_IDS:
        raise InvalidInput("too many ids")
    if not keywords:
        raise InvalidInput("keyword is required")
    if len(keywords) > MAX_KEYWORDS:
        raise InvalidInput("too many keywords")
    parsed_ids = list(dict.fromkeys(parse_id(value, "id") for value in ids))
    words = [k.strip() for k in keywords]
    if any(not word for word in words):
        raise InvalidInput("invalid keyword")
    if any(pseudo_tokens(word) > MAX_KEYWORD_PSEUDO_TOKENS for word in words):
        raise InvalidInput("keyword is too long")
    return parsed_ids, words


def check_query_hash(query_string: str, header: str | None) -> None:
    """/posts/kwic-pub, like the original, wants X-STGY-QueryHash from every caller: the
    SHA-1 of the canonical query string (the one /geo checks, docs/api.md "Geo")."""
    if not header or not hmac.compare_digest(header.strip().lower(), query_hash(query_string)):
        raise Forbidden("invalid queryhash")


def _in_order(rows: dict, ids: list[int]):
    return [rows[i] for i in ids if i in rows]


def posts_kwic(viewer, ids: list[int], keywords: list[str]) -> list[dict]:
    rows = Post.objects.filter(id__in=ids).filter(viewable_q(viewer)).only("id", "content")
    return [
        {"id": id_to_hex(p.id), "kwic": post_kwic(p.content, keywords)}
        for p in _in_order({p.id: p for p in rows}, ids)
    ]


def published_posts_kwic(viewer, ids: list[int], keywords: list[str]) -> list[dict]:
    """Excerpts of the public posts among `ids` (the publication rule) that `viewer`, a
    User or an AnonymousUser, may see."""
    rows = Post.objects.filter(public_posts_q(), viewable_q(viewer), id__in=ids).only("id", "content")
    return [
        {"id": id_to_hex(p.id), "kwic": post_kwic(p.content, keywords)}
        for p in _in_order({p.id: p for p in rows}, ids)
    ]


def users_kwic(ids: list[int], keywords: list[str]) -> list[dict]:
    rows = User.objects.filter(id__in=ids).only("id", "nickname", "introduction")
    return [
        {"id": id_to_hex(u.id), "kwic": user_kwic(u.nickname, u.introduction, keywords)}
        for u in _in_order({u.id: u for u in rows}, ids)
    ]
