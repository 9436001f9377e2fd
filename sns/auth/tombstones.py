"""Deletes of session and auth-record keys that Redis missed, kept in the database until
Redis has them (docs/architecture.md §9, "Authentication").

A logout during a Redis outage deletes the session row, but Redis keeps its copy of the
session (for up to the session's 7 days); the process that failed to delete it
remembers the key and deletes it when Redis answers again (stgy/cache.py). If that
process dies first, nothing would: the old cookie would be let in again, read from the
copy. So such a missed delete is also written here, a row per key, in the request that
ended the session; and every process, before it first reads Redis and after every
outage it saw, deletes the recorded keys from Redis and then the rows. The same holds
for a user's auth record (sns/auth/session.py), whose stale copy would keep the old
password's sessions alive after a password change.
"""

from __future__ import annotations

from django.contrib.sessions.backends.cached_db import KEY_PREFIX as SESSION_PREFIX
from django.db import transaction

from ..models.sessions import CacheTombstone
from .session import AUTH_RECORD_PREFIX

PREFIXES = (SESSION_PREFIX, AUTH_RECORD_PREFIX)
_BATCH = 1000


def tombstones_record(keys: list[str]) -> None:
    """Called by the cache for deletes it could not make (in the caller's transaction,
    if any: a rolled-back change leaves no tombstone, and needs none)."""
    CacheTombstone.objects.bulk_create(
        [CacheTombstone(key=key) for key in keys], ignore_conflicts=True
    )


def tombstones_apply(delete_many) -> int:
    """Delete every recorded key with `delete_many` (Redis, raising if it is away), then
    its row; returns how many were applied."""
    applied = 0
    while True:
        with transaction.atomic():  # a savepoint when the caller is in a transaction
            rows = list(CacheTombstone.objects.order_by("id").values_list("id", "key")[:_BATCH])
        if not rows:
            return applied
        delete_many([key for _, key in rows])
        CacheTombstone.objects.filter(id__in=[row_id for row_id, _ in rows]).delete()
        applied += len(rows)
        if len(rows) < _BATCH:
            return applied
