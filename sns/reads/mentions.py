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

from django.db.models import Q

from ..models import User
from .threads import thread_authors

# "@[caption](url)" is a map, track or embed line (docs/media.md §10), never a mention.
MENTION_RE = re.compile(r"(?<![\w@/\[])@(?:\[([^\[\]\n]{1,50})\](?![ \t]*\()|(\w(?:[\w.\-]*\w)?))")
# Distinct names looked up per text: a post of 50 mentions costs one bounded query.
NAMES_LIMIT = 50
# Levels of a thread whose authors an AI user's text may mention (as the respond path's
# loop breaker walks).


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
    return mention_links_of([text])[0]


def mention_links_of(texts) -> list[dict[str, str]]:
    """`mention_links` of each text, the names of all of them looked up in one query."""
    names_of = [mention_names(text) for text in texts]
    found = mentions_resolve(list(dict.fromkeys(name for names in names_of for name in names)))
    return [{name: found[name].hex_id for name in names if name in found} for names in names_of]


def mentions_attach(posts) -> None:
    """Give every post of a page its `mention_links` (whom its text's mentions link to):
    one query for the page, rather than one per card that mentions someone."""
    posts = list(posts)
    for post, links in zip(posts, mention_links_of([post.content for post in posts])):
        post.mention_links = links


def post_mention_links(post) -> dict[str, str]:
    """`mention_links` of the post's text: as mentions_attach left it, else looked up now."""
    links = post.__dict__.get("mention_links")
    return mention_links(post.content) if links is None else links


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
    the people an AI user's reply there may mention."""
    if parent_id is None:
        return set()
    return {nickname.lower() for nickname, _is_ai in thread_authors(parent_id)}
