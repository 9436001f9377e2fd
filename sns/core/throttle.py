"""Hourly write throttles per user (posts, likes, follows/blocks/profile updates).

A sliding one-hour window kept as sixty one-minute buckets in the cache (Redis in
production, process memory in the embedded mode). Admins are never throttled; AI
users are, exactly like humans.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

from .errors import Throttled

_WINDOW_MINUTES = 60


@dataclass(frozen=True)
class Limit:
    kind: str
    count_setting: str
    size_setting: str | None
    message: str


POSTS = Limit("posts", "STGY_HOURLY_POSTS_COUNT_LIMIT", "STGY_HOURLY_POSTS_SIZE_LIMIT", "too often posts")
LIKES = Limit("likes", "STGY_HOURLY_LIKES_COUNT_LIMIT", None, "too often likes")
# Reposts and bookmarks are our additions (docs/shares.md); quotes are posts.
REPOSTS = Limit("reposts", "STGY_HOURLY_REPOSTS_COUNT_LIMIT", None, "too often reposts")
BOOKMARKS = Limit("bookmarks", "STGY_HOURLY_BOOKMARKS_COUNT_LIMIT", None, "too often bookmarks")
REPORTS = Limit("reports", "STGY_HOURLY_REPORTS_COUNT_LIMIT", None, "too often reports")
USER_UPDATES = Limit(
    "user-updates",
    "STGY_HOURLY_USER_UPDATES_COUNT_LIMIT",
    "STGY_HOURLY_USER_UPDATES_SIZE_LIMIT",
    "too often updates",
)


def _keys(limit: Limit, user_id: int, minute: int) -> list[tuple[str, str]]:
    base = f"throttle:{limit.kind}:{user_id}"
    return [(f"{base}:n:{m}", f"{base}:s:{m}") for m in range(minute - _WINDOW_MINUTES + 1, minute + 1)]


def throttle_check(user, limit: Limit, size: int = 0, *, count: bool = True) -> None:
    """Raise Throttled if one more action of `size` would exceed the hourly limit,
    otherwise count it (unless `count` is False: a step before the action itself, like a
    track's presign, asks without using up the allowance). Check-then-count is not
    atomic across processes; a burst can overshoot by the number of concurrent writers, which is acceptable for a throttle."""
    if user.is_admin:
        return
    window = _Window(limit, user.id)
    window.refuse_if_over(1, size)
    if not count:
        return
    _count(window.count_key, 1)
    if size:
        _count(window.size_key, size)


class _Window:
    """A user's hourly window of one limit, read once: the actions and size it holds,
    and the current minute's buckets that new actions count into."""

    def __init__(self, limit: Limit, user_id: int) -> None:
        self.limit = limit
        keys = _keys(limit, user_id, int(time.time() // 60))
        # A limit without a size limit (likes) never reads its size buckets.
        wanted = [k for pair in keys for k in pair] if limit.size_setting else [n for n, _ in keys]
        counts = _read_counts(wanted)
        if limit.size_setting:
            self.done, self.size = sum(counts[0::2]), sum(counts[1::2])
        else:
            self.done, self.size = sum(counts), 0
        self.count_key, self.size_key = keys[-1]

    def refuse_if_over(self, actions: int, size: int = 0) -> None:
        """Throttled if `actions` more of `size` in all would exceed the limit."""
        limit = self.limit
        if self.done + actions > getattr(settings, limit.count_setting):
            raise Throttled(limit.message)
        if limit.size_setting and self.size + size > getattr(settings, limit.size_setting):
            raise Throttled(limit.message)


class Allowance:
    """One count-only limit's hourly window for a batch of actions of one user
    (likes_add, follows_add): `take()` decides exactly as `throttle_check` would for
    the next action, the ones taken before it included, but the window is read once,
    at the first `take()`, and `record()` counts every action taken in one write, where
    each check used to read the sixty buckets and write its own count. Used as a context
    manager it records on the way out."""

    def __init__(self, user, limit: Limit) -> None:
        self.user, self.limit = user, limit
        self.taken = 0
        self._window: _Window | None = None

    def take(self) -> None:
        """One more action of size 0 (a follow counts against the user-updates limit,
        whose size window it must still fit, as in `throttle_check`)."""
        if self.user.is_admin:
            return
        if self._window is None:
            self._window = _Window(self.limit, self.user.id)
        self._window.refuse_if_over(self.taken + 1)
        self.taken += 1

    def __enter__(self) -> Allowance:
        return self

    def __exit__(self, *exc) -> None:
        # What the checks took counts even if the batch's write then fails, as a single
        # action's check counts before its write.
        self.record()

    def record(self) -> None:
        if self.taken:
            _count(self._window.count_key, self.taken)
            self._window.done, self.taken = self._window.done + self.taken, 0


def throttle_record(user, limit: Limit) -> None:
    """Count one action already done (checked earlier with `count=False`)."""
    if not user.is_admin:
        _count(_keys(limit, user.id, int(time.time() // 60))[-1][0], 1)


def throttle_check_together(user, limits: list[Limit]) -> None:
    """Like `throttle_check` for several count-only limits of one action (a message
    counts against the sender's hourly total and against the pair's): nothing is
    counted unless every limit has room, so a refused action uses up none of them."""
    if user.is_admin:
        return
    minute = int(time.time() // 60)
    key_lists = [[n for n, _ in _keys(limit, user.id, minute)] for limit in limits]
    counts = _read_counts([k for keys in key_lists for k in keys])
    for i, (limit, keys) in enumerate(zip(limits, key_lists)):
        done = sum(counts[i * _WINDOW_MINUTES:(i + 1) * _WINDOW_MINUTES])
        if done + 1 > getattr(settings, limit.count_setting):
            raise Throttled(limit.message)
    for keys in key_lists:
        _count(keys[-1], 1)


def _read_counts(keys: list[str]) -> list[int]:
    """The buckets at `keys`, 0 where missing, in order."""
    read_counts = getattr(cache, "read_counts", None)
    if read_counts is not None:  # the site's Redis cache (stgy/cache.py): one MGET, keys made once
        return read_counts(keys)
    values = cache.get_many(keys)
    return [int(values.get(key, 0)) for key in keys]


def _count(key: str, amount: int) -> None:
    ttl = (_WINDOW_MINUTES + 1) * 60
    count_up = getattr(cache, "count_up", None)
    if count_up is not None:  # the site's Redis cache (stgy/cache.py): one round trip
        count_up(key, amount, ttl)
        return
    cache.add(key, 0, ttl)
    try:
        cache.incr(key, amount)
    except ValueError:
        # The bucket vanished between add and incr (evicted, expired, cache flushed):
        # start it again rather than fail the user's write.
        cache.set(key, amount, ttl)
