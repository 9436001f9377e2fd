"""The shape of the synthetic community, drawn with numpy before any text exists:
who the users are, who posts when and in reply to what, who likes and follows whom.

All counters (post_count, reply_count, like_count, follower/followee counts) follow
from the plan, so the rows are written once with final values. Ids are the site's
64-bit ids, `(ms << 20) | (worker << 12) | seq`, with creation times spread over the
past months and a worker number of its own, so they never meet ids the site issues.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import vocab

GEN_WORKER = 255
DAY_MS = 86_400_000
USER_SPAN_DAYS = 30  # users join over the first month ...
POST_SPAN_DAYS = 150  # ... then post over the following five months
REPLY_SHARE = 0.25
JA_SHARE = 0.3
TIER_SHARES = (("advanced", 0.2), ("balanced", 0.5), ("basic", 0.3))
AI_FOLLOW_CAP = 30  # follow management keeps at most FOLLOWEES_LIMIT (30)
HUMAN_FOLLOW_CAP = 1000
BLOCK_SHARE = 0.003
AI_POST_IMPRESSIONS = 20
AI_PEER_IMPRESSIONS = 8


def ids_from_times(ms: np.ndarray) -> np.ndarray:
    """Sorted ms timestamps -> unique ids; rows sharing a millisecond get seq 0, 1, 2..."""
    ms = np.asarray(ms, dtype=np.int64)
    first = np.r_[True, ms[1:] != ms[:-1]]
    run_start = np.maximum.accumulate(np.where(first, np.arange(ms.size), 0))
    seq = np.arange(ms.size) - run_start
    if seq.size and seq.max() > 4095:
        raise ValueError("more than 4096 rows in one millisecond")
    return (ms << 20) | (GEN_WORKER << 12) | seq


@dataclass
class Plan:
    seed: int
    anchor_ms: int
    # users
    user_ids: np.ndarray
    user_ms: np.ndarray
    user_lang: np.ndarray  # 0 en, 1 ja
    user_ai: np.ndarray  # bool
    user_tier: np.ndarray  # index into TIER_SHARES, -1 for humans
    user_topics: list[list[int]]
    # posts (index order = time order)
    post_ids: np.ndarray
    post_ms: np.ndarray
    post_owner: np.ndarray  # user index
    post_parent: np.ndarray  # post index or -1
    post_topic: np.ndarray
    post_side_topic: np.ndarray
    post_lang: np.ndarray
    # relations (pairs of indices) and times
    like_pairs: np.ndarray  # (n, 2): post index, user index
    like_ms: np.ndarray
    follow_pairs: np.ndarray  # (n, 2): follower index, followee index
    follow_ms: np.ndarray
    block_pairs: np.ndarray
    # AI memory
    impression_pairs: np.ndarray  # (n, 2): AI user index, post index

    @property
    def users(self) -> int:
        return int(self.user_ids.size)

    @property
    def posts(self) -> int:
        return int(self.post_ids.size)

    def counters(self) -> dict[str, np.ndarray]:
        u, p = self.users, self.posts
        parents = self.post_parent[self.post_parent >= 0]
        return {
            "post_count": np.bincount(self.post_owner, minlength=u),
            "reply_count": np.bincount(parents, minlength=p),
            "like_count": np.bincount(self.like_pairs[:, 0], minlength=p),
            "followee_count": np.bincount(self.follow_pairs[:, 0], minlength=u),
            "follower_count": np.bincount(self.follow_pairs[:, 1], minlength=u),
        }


def _unique_pairs(a: np.ndarray, b: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    keys = np.unique(a.astype(np.int64) * width + b.astype(np.int64))
    return keys // width, keys % width


def make_plan(*, users: int, posts: int, seed: int, ai_share: float, anchor_ms: int) -> Plan:
    if users < 2:
        raise ValueError("at least 2 users")
    rng = np.random.default_rng(seed)
    n_topics = len(vocab.TOPICS)
    start = anchor_ms - (USER_SPAN_DAYS + POST_SPAN_DAYS) * DAY_MS

    # ---------------------------------------------------------------- users
    user_ms = np.sort(rng.integers(start, start + USER_SPAN_DAYS * DAY_MS, users))
    user_ms[0] = start - DAY_MS  # user 0 (the admin) is the oldest account
    user_ids = ids_from_times(np.sort(user_ms))
    user_lang = (rng.random(users) < JA_SHARE).astype(np.int8)
    user_lang[0] = 0
    n_ai = min(users - 1, max(1 if ai_share > 0 else 0, round(users * ai_share)))
    user_ai = np.zeros(users, dtype=bool)
    user_ai[1 + rng.choice(users - 1, n_ai, replace=False)] = True
    tier_p = np.array([s for _, s in TIER_SHARES])
    user_tier = np.where(user_ai, rng.choice(len(TIER_SHARES), users, p=tier_p), -1)
    topic_counts = rng.integers(1, 4, users)
    user_topics = [list(rng.choice(n_topics, k, replace=False)) for k in topic_counts]
    # Activity is heavy-tailed; AI users post a little more than the average human.
    activity = rng.lognormal(0.0, 1.2, users) * np.where(user_ai, 2.0, 1.0)
    activity[0] = 0.2

    # ---------------------------------------------------------------- posts
    post_start = start + USER_SPAN_DAYS * DAY_MS
    post_ms = np.sort(rng.integers(post_start, anchor_ms - 3_600_000, posts))
    post_ids = ids_from_times(post_ms)
    post_owner = rng.choice(users, posts, p=activity / activity.sum())
    is_reply = rng.random(posts) < REPLY_SHARE
    is_reply[0] = False
    back = 1 + np.minimum(rng.geometric(1 / 300, posts), np.arange(posts))
    post_parent = np.where(is_reply, np.arange(posts) - back, -1)
    post_parent[post_parent < 0] = -1
    # A reply to oneself is rare in practice; move it to the previous post.
    own = (post_parent >= 0) & (post_owner[np.maximum(post_parent, 0)] == post_owner)
    post_parent[own] = np.maximum(post_parent[own] - 1, -1)
    first_topic = np.array([t[0] for t in user_topics])
    own_topic = np.array([t[rng.integers(len(t))] for t in user_topics])[post_owner]
    post_topic = np.where(rng.random(posts) < 0.8, own_topic, rng.integers(0, n_topics, posts))
    follow_parent = (post_parent >= 0) & (rng.random(posts) < 0.7)
    post_topic[follow_parent] = post_topic[post_parent[follow_parent]]
    post_side_topic = np.where(rng.random(posts) < 0.5, first_topic[post_owner], rng.integers(0, n_topics, posts))
    post_lang = np.where(rng.random(posts) < 0.95, user_lang[post_owner], 1 - user_lang[post_owner]).astype(np.int8)

    # ---------------------------------------------------------------- likes
    wanted = np.minimum(np.floor(rng.lognormal(0.0, 1.3, posts)).astype(np.int64), min(users - 1, 500))
    like_post = np.repeat(np.arange(posts), wanted)
    like_user = rng.integers(0, users, like_post.size)
    like_post, like_user = _unique_pairs(like_post, like_user, users)
    delay = np.minimum(rng.exponential(DAY_MS, like_post.size).astype(np.int64), 30 * DAY_MS)
    like_ms = np.minimum(post_ms[like_post] + 1000 + delay, anchor_ms - 60_000)

    # ---------------------------------------------------------------- follows
    k = np.floor(rng.lognormal(2.8, 0.9, users)).astype(np.int64)
    k = np.minimum(k, np.where(user_ai, AI_FOLLOW_CAP, HUMAN_FOLLOW_CAP))
    k = np.minimum(k, users - 1)
    popularity = np.sqrt(activity) + 0.2
    follower = np.repeat(np.arange(users), k)
    followee = rng.choice(users, follower.size, p=popularity / popularity.sum())
    keep = follower != followee
    follower, followee = _unique_pairs(follower[keep], followee[keep], users)
    begin = np.maximum(user_ms[follower], user_ms[followee])
    follow_ms = begin + (rng.random(follower.size) * (anchor_ms - 60_000 - begin)).astype(np.int64)

    n_blocks = int(users * BLOCK_SHARE)
    blockers = rng.integers(1, users, n_blocks)
    blockees = rng.integers(1, users, n_blocks)
    keep = blockers != blockees
    blockers, blockees = _unique_pairs(blockers[keep], blockees[keep], users)

    # ---------------------------------------------------------------- AI memory
    ai_idx = np.flatnonzero(user_ai)
    per = min(AI_POST_IMPRESSIONS, posts)
    imp_user = np.repeat(ai_idx, per)
    imp_post = rng.integers(0, posts, imp_user.size)
    imp_user, imp_post = _unique_pairs(imp_user, imp_post, posts)
    not_own = post_owner[imp_post] != imp_user
    imp_user, imp_post = imp_user[not_own], imp_post[not_own]

    return Plan(
        seed=seed,
        anchor_ms=anchor_ms,
        user_ids=user_ids,
        user_ms=np.sort(user_ms),
        user_lang=user_lang,
        user_ai=user_ai,
        user_tier=user_tier,
        user_topics=[[int(t) for t in ts] for ts in user_topics],
        post_ids=post_ids,
        post_ms=post_ms,
        post_owner=post_owner,
        post_parent=post_parent,
        post_topic=post_topic,
        post_side_topic=post_side_topic,
        post_lang=post_lang,
        like_pairs=np.stack([like_post, like_user], axis=1),
        like_ms=like_ms,
        follow_pairs=np.stack([follower, followee], axis=1),
        follow_ms=follow_ms,
        block_pairs=np.stack([blockers, blockees], axis=1),
        impression_pairs=np.stack([imp_user, imp_post], axis=1),
    )
