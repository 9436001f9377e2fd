"""The search query syntax (docs/api.md, "Search").

Whitespace separates terms, all of which must occur; `"two words"` is one term (a
phrase); `-term` or `-"a phrase"` must not occur (ours: the original has no
exclusions). For posts, `owner:<hex id | me>` and `status:published` filter rather than
match, as in the original. Terms are matched as substrings after case folding, so
Japanese needs no word splitting.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from django.conf import settings

from sns.core.errors import InvalidInput
from sns.core.ids import parse_id

_TOKEN = re.compile(r'-?"[^"]*"|\S+')
# What a term is made of to count as one: a letter, digit or symbol, not just quotes
# and dashes.
_MEANINGFUL = re.compile(r"[^\s\"\-]")


@dataclass
class ParsedQuery:
    terms: list[str] = field(default_factory=list)
    excluded: list[str] = field(default_factory=list)
    owners: list[str] = field(default_factory=list)
    published_only: bool = False

    @property
    def tokens(self) -> list[str]:
        """The words of the wanted terms, folded, as the original's `tokens`."""
        return [word for term in self.terms for word in fold(term).split()]

    @property
    def phrases(self) -> list[str]:
        """The wanted terms as they were typed (a phrase stays whole): the keywords a
        client passes on to /kwic, as the original's `phrases`."""
        return list(self.terms)


def fold(text: str) -> str:
    """NFKC and lower case: what matching and highlighting compare."""
    return unicodedata.normalize("NFKC", text).lower()


def parse_query(raw: str, *, with_filters: bool) -> ParsedQuery:
    """Terms of `raw`; 400 with the original's texts for a bad filter and ours for a
    query over STGY_SEARCH_QUERY_MAX_LENGTH characters. More than
    STGY_SEARCH_MAX_TERMS terms: the rest are ignored, as the original truncates."""
    if len(raw) > settings.STGY_SEARCH_QUERY_MAX_LENGTH:
        raise InvalidInput("query is too long")
    parsed = ParsedQuery()
    for token in _TOKEN.findall(raw):
        negative = token.startswith("-")
        body = token[1:] if negative else token
        quoted = len(body) >= 2 and body.startswith('"') and body.endswith('"')
        if quoted:
            body = body[1:-1].strip()
        elif with_filters and not negative and _filter(parsed, body):
            continue
        if not _MEANINGFUL.search(body):
            continue
        if len(parsed.terms) + len(parsed.excluded) >= settings.STGY_SEARCH_MAX_TERMS:
            break
        (parsed.excluded if negative else parsed.terms).append(body)
    return parsed


def _filter(parsed: ParsedQuery, token: str) -> bool:
    if token.startswith("owner:"):
        owner = token[len("owner:") :]
        if not owner:
            raise InvalidInput("owner filter requires a user ID")
        parsed.owners.append(owner)
        return True
    if token.startswith("status:"):
        if token[len("status:") :] != "published":
            raise InvalidInput("invalid status filter")
        parsed.published_only = True
        return True
    return False


def search_owner(parsed: ParsedQuery, owned_by_param: str | None, viewer_id: int) -> int | None:
    """The one owner a post search is limited to, from `owner:` terms and the ownedBy
    parameter; the original's texts when they name different users or a bad id."""
    owners = set()
    for owner in parsed.owners:
        if owner == "me":
            owners.add(viewer_id)
            continue
        try:
            owners.add(parse_id(owner, "owner"))
        except InvalidInput:
            raise InvalidInput("invalid owner filter") from None
    if len(owners) > 1:
        raise InvalidInput("conflicting owner filters")
    from_param = None
    if owned_by_param is not None and owned_by_param.strip():
        from_param = parse_id(owned_by_param, "ownedBy")
    if owners and from_param is not None and from_param not in owners:
        raise InvalidInput("conflicting owner filters")
    return next(iter(owners), from_param)
