"""The only place in the code that reaches below Django's and psycopg's public
surface. Everything else uses the framework's own mechanisms.

What is here, and why:

* `prepared.py`: a cursor whose statements PostgreSQL prepares once per connection.
  Django binds parameters on the client, which cannot be prepared; planning the post
  reads' per-row subqueries cost PostgreSQL two to five times running them
  (docs/architecture.md §9, "The pages' reads"). The cursor is psycopg's public
  server-binding `Cursor` with `prepare=True`, wrapped by Django's own cursor wrappers
  (query logging and counting, execute wrappers, error translation); what is not
  public is turning on preparation on the connection Django opened with it off.

* `model_rows.py`: model instances from the rows of a written statement. Its `maker`
  fills a new instance's `__dict__` and `_state` as `Model.from_db` would, without
  `Model.__init__`, which was the largest single cost of a home view's reads.

One switch takes both back to the reference path: `STGY_FRAMEWORK_INTERNALS=false`
(stgy/settings/data.py) runs the same SQL through Django's plain cursor and makes every
instance with `Model.from_db`.
`tests/sns/test_internals.py` pins the Django and psycopg versions this was verified
on, and checks that both positions of the switch give the same rows.
"""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings


@lru_cache(maxsize=1)
def internals_on() -> bool:
    """STGY_FRAMEWORK_INTERNALS, read once per process (`internals_on.cache_clear()`
    after changing the setting)."""
    return bool(settings.STGY_FRAMEWORK_INTERNALS)
