"""Build a synthetic community from a plan and load it.

Texts, summaries and hash-embedder vectors of posts are produced in worker processes,
chunk by chunk (each chunk seeded from the seed and its index, so the output does not
depend on the number of workers); the parent process streams the rows into the
database. Everything is written in one transaction: the database ends up with the
whole community or none of it.
"""

from __future__ import annotations

import multiprocessing
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone

import numpy as np
from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.db import connection, transaction

from sns.mdtree import make_snippet

from . import text, vocab
from .load import RowWriter, analyze, as_json
from .plan import TIER_SHARES, Plan, make_plan

CHUNK = 2000
BENCH_DOMAIN = "bench.stgy.local"
BENCH_PASSWORD = "bench-password"
LOCALES = ("en-US", "ja-JP")
TIMEZONES = ("America/New_York", "Asia/Tokyo")
LANGS = ("en", "ja")

SIZES = {
    "tiny": (50, 300),
    "small": (1_000, 10_000),
    "medium": (10_000, 100_000),
    "large": (20_000, 1_000_000),
}


def email_of(index: int, is_ai: bool) -> str:
    if index == 0:
        return f"admin@{BENCH_DOMAIN}"
    return f"{'ai' if is_ai else 'user'}{index}@{BENCH_DOMAIN}"


def _dt(ms: int) -> datetime:
    return datetime.fromtimestamp(int(ms) / 1000, tz=timezone.utc)


@dataclass
class Stats:
    rows: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)

    def add(self, name: str, count: int, seconds: float) -> None:
        self.rows[name] = self.rows.get(name, 0) + count
        self.seconds[name] = self.seconds.get(name, 0.0) + seconds


# --------------------------------------------------------------------------- posts


def _post_chunk(job: dict) -> dict:
    """Texts, tags, summaries and vectors of one chunk of posts (runs in a worker)."""
    from agents.embeddings.hash import HashEmbedder
    from agents.summaries.store import keyword_hashes
    from agents.tags import normalize_tag_list
    from agents.vectors import encode_features
    from sns.core.text import normalize_post_tags

    rng = random.Random(f"{job['seed']}:posts:{job['index']}")
    posts, post_tags, summaries, ai_tags, inputs = [], [], [], [], []
    for i in range(len(job["ids"])):
        lang = LANGS[job["lang"][i]]
        is_reply = job["parent"][i] is not None
        body = text.post_text(
            rng, lang=lang, topic=job["topic"][i], side_topic=job["side"][i], is_reply=is_reply
        )
        post_id, created = job["ids"][i], _dt(job["ms"][i])
        locale = None if job["lang"][i] == job["owner_lang"][i] else LOCALES[job["lang"][i]]
        posts.append((
            post_id, job["owner"][i], job["parent"][i], body.content, make_snippet(body.content),
            locale, True, True, None, None, job["likes"][i], job["replies"][i], None,
        ))
        for name in normalize_post_tags(body.author_tags, 5):
            post_tags.append((post_id, name, not is_reply))
        inputs.append(text.embedding_input(body, job["snippet_pt"]))
        summaries.append([post_id, created, body.summary, keyword_hashes(body.keywords), None,
                          HashEmbedder.name, created, 0, ""])
        for name in normalize_tag_list(body.ai_tags):
            ai_tags.append((post_id, name))
    matrix = HashEmbedder().embed(inputs)
    for row, vector in zip(summaries, matrix, strict=True):
        row[4] = encode_features(vector)
    return {"posts": posts, "post_tags": post_tags, "summaries": summaries, "ai_tags": ai_tags}


def _post_jobs(plan: Plan, counters: dict[str, np.ndarray], seed: int):
    user_ids = plan.user_ids.tolist()
    post_ids = plan.post_ids.tolist()
    for index, start in enumerate(range(0, plan.posts, CHUNK)):
        end = min(start + CHUNK, plan.posts)
        owners = plan.post_owner[start:end]
        parents = plan.post_parent[start:end]
        yield {
            "seed": seed,
            "index": index,
            "ids": post_ids[start:end],
            "ms": plan.post_ms[start:end].tolist(),
            "owner": [user_ids[o] for o in owners.tolist()],
            "owner_lang": plan.user_lang[owners].tolist(),
            "lang": plan.post_lang[start:end].tolist(),
            "topic": plan.post_topic[start:end].tolist(),
            "side": plan.post_side_topic[start:end].tolist(),
            "parent": [post_ids[p] if p >= 0 else None for p in parents.tolist()],
            "likes": counters["like_count"][start:end].tolist(),
            "replies": counters["reply_count"][start:end].tolist(),
            "snippet_pt": settings.STGY_AI_SUMMARY_SUMMARY_LENGTH,
        }


# --------------------------------------------------------------------------- users


def _user_rows(plan: Plan, counters: dict[str, np.ndarray], seed: int):
    rng = random.Random(f"{seed}:users")
    human_password = make_password(BENCH_PASSWORD)
    tiers = [name for name, _ in TIER_SHARES]
    for i in range(plan.users):
        lang = LANGS[plan.user_lang[i]]
        is_ai = bool(plan.user_ai[i])
        topics = plan.user_topics[i]
        intro = text.introduction(rng, lang=lang, topics=topics)
        personality = text.personality(rng, lang=lang, topics=topics) if is_ai else None
        password = "!" + "%032x" % rng.getrandbits(128) if is_ai else human_password
        yield (
            int(plan.user_ids[i]), password, None, email_of(i, is_ai),
            text.nickname(rng, lang=lang, index=i) if i else "Bench Admin",
            intro, make_snippet(intro), None, LOCALES[plan.user_lang[i]], TIMEZONES[plan.user_lang[i]],
            tiers[plan.user_tier[i]] if is_ai else None, personality, i == 0, False, False, None,
            int(counters["follower_count"][i]), int(counters["followee_count"][i]),
            int(counters["post_count"][i]), "allowed",
        )


USER_FIELDS = (
    "id", "password", "last_login", "email", "nickname", "introduction", "snippet", "avatar",
    "locale", "timezone", "ai_model", "ai_personality", "is_admin", "is_frozen", "block_strangers",
    "updated_at", "follower_count", "followee_count", "post_count", "ai_memory",
)
POST_FIELDS = (
    "id", "owner", "reply_to", "content", "snippet", "locale", "allow_likes", "allow_replies",
    "published_at", "updated_at", "like_count", "reply_count", "idempotency_key",
)
SUMMARY_FIELDS = (
    "post", "source_updated_at", "summary", "hashes", "features", "embedding_model", "summarized_at",
    "attempts", "last_error",
)


# --------------------------------------------------------------------------- AI memory


def _memory_rows(plan: Plan, seed: int):
    """Interests (text, tags, blended-space vector) and some read markers and
    impressions, as an AI user that has lived a few cycles would have."""
    from agents.embeddings import embed_texts
    from agents.embeddings.inputs import interest_embedding_input
    from agents.tags import normalize_interest_tags
    from agents.vectors import encode_features

    rng = random.Random(f"{seed}:memory")
    anchor = _dt(plan.anchor_ms - 3_600_000)
    ai_users = np.flatnonzero(plan.user_ai).tolist()
    interests, texts = [], []
    for i in ai_users:
        lang = LANGS[plan.user_lang[i]]
        body, tags = text.interest(rng, lang=lang, topics=plan.user_topics[i])
        tags = normalize_interest_tags(tags, 5)
        interests.append([int(plan.user_ids[i]), anchor, body, as_json(sorted(tags)), None])
        texts.append(interest_embedding_input(body, tags, ""))
    matrix, model = embed_texts(texts)
    for row, vector in zip(interests, matrix, strict=True):
        row[4] = encode_features(vector)
        row.append(model)

    post_impressions, peer_impressions = [], []
    peers_seen: dict[int, list[int]] = {}
    for user_index, post_index in plan.impression_pairs.tolist():
        lang = LANGS[plan.user_lang[user_index]]
        owner = int(plan.post_owner[post_index])
        topic = vocab.TOPICS[int(plan.post_topic[post_index])]
        label = topic[1] if lang == "en" else topic[2]
        like = rng.random() < 0.3
        payload = {
            "impression": (f"A post about {label.lower()}; worth remembering."
                           if lang == "en" else f"{label}の投稿。覚えておきたい。"),
            "tags": [f"{topic[0]}:{label}".lower()],
            "shouldLike": like,
            "shouldReply": like and rng.random() < 0.3,
        }
        post_impressions.append((
            int(plan.user_ids[user_index]), int(plan.user_ids[owner]), int(plan.post_ids[post_index]),
            anchor, as_json(payload),
        ))
        seen = peers_seen.setdefault(user_index, [])
        if owner not in seen and len(seen) < 8:
            seen.append(owner)
            peer = {
                "impression": "Writes steadily about familiar things." if lang == "en" else "身近な話題を丁寧に書く人。",
                "tags": [f"{topic[0]}:{label}".lower()],
                "shouldFollow": rng.random() < 0.3,
            }
            peer_impressions.append((int(plan.user_ids[user_index]), int(plan.user_ids[owner]), anchor, as_json(peer)))
    return interests, post_impressions, peer_impressions


# --------------------------------------------------------------------------- driver


def default_anchor_ms() -> int:
    """Today's midnight (UTC): ids are identical for runs on the same day."""
    now = int(time.time() * 1000)
    return now - now % 86_400_000


def generate(
    *,
    users: int,
    posts: int,
    seed: int = 1,
    ai_share: float = 0.1,
    anchor_ms: int | None = None,
    workers: int = 0,
    progress: Callable[[str, int], Callable[[int], None]] | None = None,
) -> Stats:
    """Write a community of `users` users and `posts` posts into the default database
    (which must hold no users). `progress(label, total)` returns an `advance(n)`."""
    from agents.models import AiPostTag, Interest, PeerImpression, PostImpression, PostSummary
    from sns.models import Block, Follow, Like, Post, PostTag, User

    def stage(label: str, total: int):
        return progress(label, total) if progress else (lambda n: None)

    stats = Stats()
    started = time.monotonic()
    plan = make_plan(users=users, posts=posts, seed=seed, ai_share=ai_share, anchor_ms=anchor_ms or default_anchor_ms())
    counters = plan.counters()
    stats.add("plan", 0, time.monotonic() - started)
    user_ids = plan.user_ids.tolist()
    post_ids = plan.post_ids.tolist()

    pool = None
    if workers > 0:
        connection.close()  # children must not share the parent's database socket
        pool = multiprocessing.get_context("fork").Pool(workers)
    writer = RowWriter()
    try:
        with transaction.atomic():
            t = time.monotonic()
            advance = stage("users", plan.users)
            n = writer.write(User, USER_FIELDS, _counted(_user_rows(plan, counters, seed), advance))
            stats.add("users", n, time.monotonic() - t)

            t = time.monotonic()
            advance = stage("posts", plan.posts)
            jobs = _post_jobs(plan, counters, seed)
            results = pool.imap(_post_chunk, jobs) if pool else map(_post_chunk, jobs)
            for chunk in results:
                writer.write(Post, POST_FIELDS, chunk["posts"])
                writer.write(PostTag, ("post", "name", "is_root"), chunk["post_tags"])
                writer.write(PostSummary, SUMMARY_FIELDS, chunk["summaries"])
                writer.write(AiPostTag, ("post", "name"), chunk["ai_tags"])
                stats.add("posts", len(chunk["posts"]), 0)
                stats.add("post tags", len(chunk["post_tags"]), 0)
                stats.add("summaries", len(chunk["summaries"]), 0)
                stats.add("AI tags", len(chunk["ai_tags"]), 0)
                advance(len(chunk["posts"]))
            stats.seconds["posts"] = time.monotonic() - t

            t = time.monotonic()
            likes = plan.like_pairs.tolist()
            advance = stage("likes", len(likes))
            rows = (
                (post_ids[p], user_ids[u], _dt(ms)) for (p, u), ms in zip(likes, plan.like_ms.tolist(), strict=True)
            )
            stats.add("likes", writer.write(Like, ("post", "user", "created_at"), _counted(rows, advance)), time.monotonic() - t)

            t = time.monotonic()
            follows = plan.follow_pairs.tolist()
            advance = stage("follows", len(follows))
            rows = (
                (user_ids[a], user_ids[b], _dt(ms)) for (a, b), ms in zip(follows, plan.follow_ms.tolist(), strict=True)
            )
            stats.add("follows", writer.write(Follow, ("follower", "followee", "created_at"), _counted(rows, advance)), time.monotonic() - t)
            block_time = _dt(plan.anchor_ms - 86_400_000)
            rows = [(user_ids[a], user_ids[b], block_time) for a, b in plan.block_pairs.tolist()]
            stats.add("blocks", writer.write(Block, ("blocker", "blockee", "created_at"), rows), 0)

            t = time.monotonic()
            interests, post_imps, peer_imps = _memory_rows(plan, seed)
            writer.write(
                Interest,
                ("user", "updated_at", "interest", "tags", "features", "embedding_model", "hold_interest", "hold_impressions"),
                [[*row, False, False] for row in interests],
            )
            writer.write(PostImpression, ("user", "peer", "post", "updated_at", "payload"), post_imps)
            writer.write(PeerImpression, ("user", "peer", "updated_at", "payload"), peer_imps)
            stats.add("interests", len(interests), time.monotonic() - t)
            stats.add("post impressions", len(post_imps), 0)
            stats.add("peer impressions", len(peer_imps), 0)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    t = time.monotonic()
    analyze()
    stats.add("analyze", 0, time.monotonic() - t)
    stats.seconds["total"] = time.monotonic() - started
    return stats


def _counted(rows, advance, every: int = 5000):
    n = 0
    for row in rows:
        yield row
        n += 1
        if n % every == 0:
            advance(every)
    if n % every or n == 0:
        advance(n % every)


def check_embedder() -> None:
    """Vectors are made with the hash embedder; a site on another embedder would
    ignore them (vectors of different models are never compared)."""
    provider = (settings.STGY_EMBEDDING_PROVIDER or "hash").strip().lower()
    if provider != "hash":
        raise RuntimeError(f"the generator writes hash-v1 vectors but STGY_EMBEDDING_PROVIDER is {provider!r}")
