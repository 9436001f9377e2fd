"""Mentions by nickname: `@Nick` or `@[Nick Name]` in a post (docs/api.md, "Mentions
by nickname").

Syntax: `@` not preceded by a letter, digit, `_`, `@`, `/` or `[` (so e-mail addresses,
URLs and the original's link form `[@Nick](/users/<id>)` are not taken for one), then
either a bracketed nickname `[…]` (any characters but brackets and newlines, up to 50:
nicknames may contain spaces) or a bare run of
letters, digits, `_`, `.` and `-` that starts and ends with a letter, digit or `_`
(so "@Mina," and "@Mina." mention Mina). Names match nicknames case-insensitively;
when several users share one, the oldest account is meant. An unknown name is plain
text.
"""

from __future__ import annotations

import re

from django.db import connection
from django.db.models import Q

from .models import Post, User

MENTION_RE = re.compile(r"(?<![\w@/\[])@(?:\[([^\[\]\n]{1,50})\]|(\w(?:[\w.\-]*\w)?))")
# Distinct names looked up per text: a post of 50 mentions costs one bounded query.
NAMES_LIMIT = 50
# Levels of a thread whose authors an AI user's text may mention (as the respond path's
# loop breaker walks).
THREAD_DEPTH_LIMIT = 50


def mention_names(text: str, limit: int = NAMES_LIMIT) -> list[str]:
    """The distinct mentioned names, lower-cased, in order of appearance."""
    names: list[str] = []
    if "@" not in (text or ""):
        return names
    for match in MENTION_RE.finditer(text):
        name = (match.group(1) or match.group(2)).strip().lower()
        if name and name not in names:
            names.append(name)
            if len(names) >= limit:
                break
    return names


def mentions_resolve(names: list[str], queryset=None) -> dict[str, User]:
    """Lower-cased name → the user it means (the oldest of several). One query."""
    if not names:
        return {}
    condition = Q()
    for name in names:
        condition |= Q(nickname__iexact=name)
    found: dict[str, User] = {}
    users = queryset if queryset is not None else User.objects.all()
    for user in users.filter(condition).order_by("id"):
        found.setdefault(user.nickname.lower(), user)
    return {name: found[name] for name in names if name in found}


def mention_links(text: str) -> dict[str, str]:
    """Lower-cased name → the user's hex id, for the renderer; no query without "@"."""
    return {name: user.hex_id for name, user in mentions_resolve(mention_names(text)).items()}


def mentions_neutralise(text: str, allowed: set[str]) -> str:
    """Mentions of names not in `allowed` (lower-cased) lose their "@" (and brackets):
    the words stay, nobody is linked or notified."""
    if "@" not in (text or ""):
        return text

    def replace(match: re.Match) -> str:
        name = match.group(1) or match.group(2)
        return match.group(0) if name.strip().lower() in allowed else name

    return MENTION_RE.sub(replace, text)


def thread_nicknames(parent_id: int | None) -> set[str]:
    """Lower-cased nicknames of the authors of the post `parent_id` and its ancestors:
    the people an AI user's reply there may mention. One recursive query."""
    if parent_id is None:
        return set()
    qn = connection.ops.quote_name
    post, user = qn(Post._meta.db_table), qn(User._meta.db_table)
    pid, parent = qn(Post._meta.pk.column), qn(Post._meta.get_field("reply_to").column)
    owner, uid = qn(Post._meta.get_field("owner").column), qn(User._meta.pk.column)
    nick = qn(User._meta.get_field("nickname").column)
    sql = (
        f"WITH RECURSIVE chain(parent_id, owner_id, depth) AS ("
        f"SELECT {parent}, {owner}, 0 FROM {post} WHERE {pid} = %s "
        f"UNION ALL SELECT p.{parent}, p.{owner}, c.depth + 1 FROM {post} p "
        f"JOIN chain c ON p.{pid} = c.parent_id WHERE c.depth < %s) "
        f"SELECT DISTINCT u.{nick} FROM chain c JOIN {user} u ON u.{uid} = c.owner_id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [parent_id, THREAD_DEPTH_LIMIT])
        return {row[0].lower() for row in cursor.fetchall()}
