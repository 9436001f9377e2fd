"""Candidate retrieval by tag and the coarse score (docs/summaries-and-vectors.md §7.2–7.3).

A constant number of queries whatever the number of tags or posts: the newest N posts
per tag come from one window-function query per tag table.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from django.conf import settings
from django.db import connection
from django.db.models import F, Window
from django.db.models.functions import RowNumber

from sns.models import PostTag
from sns.reads.sql_statements import fetch, ids_in

from ..keyword_hash import fnv1a32, unpack_hashes
from ..models import AiPostTag
from .query import RecommendQuery

FROZEN_PENALTY = 0.1
BLOCKING_PENALTY = 0.1


@dataclass
class Candidate:
    post_id: int
    owner_id: int
    is_root: bool
    like_count: int
    penalty: float
    owner_followed: bool = False  # the requester follows the owner
    has_summary_row: bool = False
    hashes: bytes | None = None  # the summary row's keyword hashes
    matches: dict[str, int] = field(default_factory=dict)  # tag -> found in 1 or 2 tables
    coarse: float = 0.0


def _newest_per_tag(names: list[str], per_tag: int) -> Counter:
    """(tag, post id) -> number of tag tables (author tags, AI tags) holding the pair."""
    found: Counter = Counter()
    names = list(dict.fromkeys(names))
    if not names:
        return found
    if connection.vendor == "postgresql":
        # One LATERAL index scan of (name, post) per tag and table reads `per_tag`
        # entries; a window function would sort every post carrying a popular tag
        # (hundreds of milliseconds at a million posts). Both tables in one statement.
        qn = connection.ops.quote_name
        parts = []
        for model in (PostTag, AiPostTag):
            post_col = qn(model._meta.get_field("post").column)
            parts.append(
                f"SELECT k.name, t.post_id FROM unnest(%s::varchar[]) AS k(name) CROSS JOIN LATERAL "
                f"(SELECT {post_col} AS post_id FROM {qn(model._meta.db_table)} WHERE {qn('name')} = k.name "
                f"ORDER BY {post_col} DESC LIMIT %s) AS t"
            )
        with connection.cursor() as cursor:
            cursor.execute(" UNION ALL ".join(parts), [names, per_tag, names, per_tag])
            found.update((name, post_id) for name, post_id in cursor.fetchall())
        return found
    for model in (PostTag, AiPostTag):
        rows = (
            model.objects.filter(name__in=names)
            .annotate(rank=Window(RowNumber(), partition_by=[F("name")], order_by=F("post_id").desc()))
            .filter(rank__lte=per_tag)
            .values_list("name", "post_id")
        )
        found.update((name, post_id) for name, post_id in rows)
    return found


# The requester's facts about each owner: does the owner block them, do they follow the owner.
_REQUESTER_FACTS = (
    'EXISTS (SELECT 1 FROM "sns_block" b WHERE b."blocker_id" = p."owned_by" AND b."blockee_id" = %s), '
    'EXISTS (SELECT 1 FROM "sns_follow" f WHERE f."follower_id" = %s AND f."followee_id" = p."owned_by")'
)


@lru_cache(maxsize=8)
def _facts_sql(requester: bool, ids: str) -> str:
    return (
        'SELECT p."id", p."owned_by", p."reply_to", p."like_count", u."is_frozen", '
        f'{_REQUESTER_FACTS if requester else "FALSE, FALSE"}, s."post_id", s."hashes" '
        'FROM "sns_post" p JOIN "sns_user" u ON u."id" = p."owned_by" '
        f'LEFT JOIN "agents_postsummary" s ON s."post_id" = p."id" WHERE {ids}'
    )


def post_facts(post_ids, self_user_id: int | None) -> dict[int, Candidate]:
    """Owner, root flag, likes, the frozen / blocking-owner penalty, whether the
    requester follows the owner and the summary row's keyword hashes of each post,
    in one query."""
    if not post_ids:
        return {}
    where, params = ids_in('p."id"', list(post_ids))
    requester = self_user_id is not None
    rows = fetch(_facts_sql(requester, where), [*([self_user_id] * 2 * requester), *params])
    return {
        pid: Candidate(
            post_id=pid,
            owner_id=owner_id,
            is_root=reply_to is None,
            like_count=likes,
            penalty=(FROZEN_PENALTY if frozen else 1.0)
            * (BLOCKING_PENALTY if blocks_self else 1.0),
            owner_followed=bool(followed_owner),
            has_summary_row=summary_row is not None,
            hashes=bytes(hashes) if hashes else None,
        )
        for pid, owner_id, reply_to, likes, frozen, blocks_self, followed_owner, summary_row, hashes in rows
    }


def _attach(
    found: Counter, facts: dict[int, Candidate], self_user_id: int | None
) -> dict[int, Candidate]:
    out: dict[int, Candidate] = {}
    for (name, post_id), count in found.items():
        cand = facts.get(post_id)
        if cand is None or cand.owner_id == self_user_id:
            continue
        cand.matches[name] = count
        out[post_id] = cand
    return out


def _add_extra_tags(
    q: RecommendQuery, primary: dict[int, Candidate], tag_counts: dict[str, float]
) -> None:
    """Step 4: when the primary tags found too few posts, fill up with extra tags, but
    only with posts the primary tags did not find."""
    room = settings.STGY_AI_POST_RECOMMEND_VEC_CANDIDATES - len(primary)
    extra_names = sorted(set(q.extra_tags) - set(q.tags))
    if room <= 0 or not extra_names:
        return
    found = _newest_per_tag(extra_names, settings.STGY_AI_POST_RECOMMEND_TAG_CANDIDATES)
    new_ids = {pid for _, pid in found if pid not in primary}
    facts = post_facts(new_ids, q.self_user_id)
    records = sorted(found.items(), key=lambda item: (-item[0][1], item[0][0]))
    added: set[int] = set()
    for (name, post_id), count in records:
        cand = facts.get(post_id)
        if cand is None or cand.owner_id == q.self_user_id or post_id in primary:
            continue
        if post_id not in added and len(added) >= room:
            continue
        added.add(post_id)
        cand.matches[name] = count
    for post_id in added:
        primary[post_id] = facts[post_id]
    if added:
        for name in extra_names:
            tag_counts[name] = q.extra_tags[name]


def _stored_hashes(candidates: dict[int, Candidate], wanted: dict[int, float]) -> dict[int, Counter]:
    """Keyword-hash counts of every candidate with a summary row (absent = no row),
    only of the hashes the query weighs above 0 — the others add nothing to a score,
    and counting each candidate's every hash was most of this; the counted ones keep
    their order of first appearance, so the score's sum runs in the same order.
    `post_facts` read them with the candidates."""
    out: dict[int, Counter] = {}
    weighed = any(weight > 0 for weight in wanted.values())
    for post_id, cand in candidates.items():
        if not cand.has_summary_row:
            continue
        if not weighed:  # an AI user's query weighs no hash: every count would be empty
            out[post_id] = Counter()
            continue
        try:
            hashes = unpack_hashes(cand.hashes) if cand.hashes else []
        except ValueError:
            hashes = []
        out[post_id] = Counter([h for h in hashes if wanted.get(h, 0.0) > 0])
    return out


def coarse_candidates(q: RecommendQuery) -> tuple[list[Candidate], set[int]]:
    """Candidates sorted by coarse score (desc, ties newest first), and the ids of those
    that have a summary row."""
    if not q.tags:
        return [], set()
    tag_counts = dict(q.tags)
    found = _newest_per_tag(list(q.tags), settings.STGY_AI_POST_RECOMMEND_TAG_CANDIDATES)
    facts = post_facts({pid for _, pid in found}, q.self_user_id)
    candidates = _attach(found, facts, q.self_user_id)
    if q.extra_tags:
        _add_extra_tags(q, candidates, tag_counts)
    if not candidates:
        return [], set()
    newest = sorted(candidates.values(), key=lambda c: -c.post_id)
    n = len(newest)
    tag_score: dict[str, float] = {name: 0.0 for name in tag_counts}
    for k, cand in enumerate(newest):
        for name in cand.matches:
            if name in tag_score:
                tag_score[name] += n - k
    total = sum(tag_score.values())
    if total == 0:
        return [], set()
    idf = {name: math.log((total + 1) / (score + 1)) + 0.5 for name, score in tag_score.items()}
    hash_idf: dict[int, float] = {}
    for name, value in idf.items():
        h = fnv1a32(name)
        hash_idf[h] = max(hash_idf.get(h, value), value)
    fallback_idf = (sum(idf.values()) / len(idf)) / 2
    hashes = _stored_hashes(candidates, q.keyword_hashes)
    for k, cand in enumerate(newest):
        tag_part = 0.0
        for name, table_count in cand.matches.items():
            arg = table_count + tag_counts.get(name, 0.0)
            if arg > 0 and name in idf:
                tag_part += math.log(arg) * idf[name]
        kw_part = 0.0
        for h, count in hashes.get(cand.post_id, {}).items():
            param = q.keyword_hashes.get(h, 0.0)
            if param > 0:
                kw_part += math.log(count + param) * hash_idf.get(h, fallback_idf)
        social = 0.8
        if q.self_user_id is not None and cand.owner_followed:
            social = 0.9
        root = 1.0 if cand.is_root else 0.5
        cand.coarse = (tag_part + kw_part) * (3 * n - k) * root * social * cand.penalty
    ranked = sorted(newest, key=lambda c: (-c.coarse, -c.post_id))
    return ranked, set(hashes)
