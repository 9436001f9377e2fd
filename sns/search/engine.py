"""Matching search terms against posts and users (docs/api.md, "Search").

Every term is a case-insensitive substring. A term of three characters or more is
looked up in a trigram index — pg_trgm's GIN index on PostgreSQL, the FTS5 trigram
table `sns_post_fts` on SQLite (both made by migration 0008, kept in sync by the
database itself) — so English and Japanese alike need no word splitting. A term under
three characters (two kanji, "AI") has no trigram; when every wanted term is that
short, only the newest STGY_SEARCH_SHORT_TERM_SCAN posts are scanned. Results come
newest first, as the original's index returns them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.db.models import BooleanField, Q, QuerySet
from django.db.models.expressions import RawSQL

from sns.models import Post, User
from sns.selectors import post_queryset, user_queryset, viewable_q
from sns.selectors.publication import public_posts_q

from .query import ParsedQuery

TRIGRAM = 3
POST_FTS_TABLE = "sns_post_fts"


def _like_pattern(term: str) -> str:
    escaped = term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _fts_phrase(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def _column(model, field: str) -> str:
    qn = connection.ops.quote_name
    return f"{qn(model._meta.db_table)}.{qn(model._meta.get_field(field).column)}"


def _ilike(model, fields: tuple[str, ...], term: str) -> RawSQL:
    """`field ILIKE '%term%'` written out so that PostgreSQL uses the trigram index
    (Django's icontains wraps the column in UPPER(), which the index does not cover)."""
    sql = " OR ".join(f"{_column(model, f)} ILIKE %s" for f in fields)
    return RawSQL(f"({sql})", (_like_pattern(term),) * len(fields), output_field=BooleanField())


def _contains_any(fields: tuple[str, ...], term: str) -> Q:
    q = Q()
    for name in fields:
        q |= Q(**{f"{name}__icontains": term})
    return q


def _match(qs: QuerySet, model, fields: tuple[str, ...], parsed: ParsedQuery) -> QuerySet:
    postgres = connection.vendor == "postgresql"
    long_terms = [t for t in parsed.terms if len(t) >= TRIGRAM]
    for term in parsed.terms:
        if postgres and len(term) >= TRIGRAM:
            qs = qs.filter(_ilike(model, fields, term))
        elif not (model is Post and len(term) >= TRIGRAM):
            qs = qs.filter(_contains_any(fields, term))
    if model is Post and not postgres and long_terms:
        match = " AND ".join(_fts_phrase(t) for t in long_terms)
        qs = qs.filter(
            id__in=RawSQL(f"SELECT rowid FROM {POST_FTS_TABLE} WHERE {POST_FTS_TABLE} MATCH %s", (match,))
        )
    if model is Post and not long_terms:
        newest = Post.objects.order_by("-id").values("id")[: settings.STGY_SEARCH_SHORT_TERM_SCAN]
        qs = qs.filter(id__in=newest)
    for term in parsed.excluded:
        qs = qs.exclude(_contains_any(fields, term))
    return qs


def posts_search(
    viewer,
    parsed: ParsedQuery,
    *,
    owned_by: int | None,
    published_only: bool,
    offset: int,
    limit: int,
) -> list[Post]:
    """Posts matching `parsed` that `viewer` may see (sns/selectors/visibility.py), newest
    first, with the focus flags for the viewer."""
    qs = post_queryset(viewer.id).filter(viewable_q(viewer))
    if owned_by is not None:
        qs = qs.filter(owner_id=owned_by)
    if published_only:
        qs = qs.filter(public_posts_q())
    qs = _match(qs, Post, ("content",), parsed)
    return list(qs.order_by("-id")[offset : offset + limit])


def users_search(parsed: ParsedQuery, *, offset: int, limit: int) -> list[User]:
    """Users whose nickname or introduction holds every term, newest first."""
    qs = _match(user_queryset(), User, ("nickname", "introduction"), parsed)
    return list(qs.order_by("-id")[offset : offset + limit])
