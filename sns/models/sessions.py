"""The tombstones of sessions ended, and auth records outdated, while Redis was away
(docs/architecture.md §9, "A cached copy never outlives its row")."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class CacheTombstone(models.Model):
    """A delete the shared cache (Redis) missed while it was away, of a key whose stale
    copy would let a request in: a session that ended (a logout, a flush) or a user's
    auth record from before a password, admin or frozen change. The row outlives the
    process that could not reach Redis; every process deletes these keys from Redis,
    then the rows, before it first reads Redis and after each outage it saw
    (sns/auth/tombstones.py)."""

    # The key as the cache API is given it (no prefix or version).
    key = models.CharField(max_length=250, unique=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return f"tombstone of {self.key}"
