"""Running the post reads' statements: prepared once per connection on PostgreSQL
(sns/internals/prepared.py, with its switch back to Django's plain cursor), plain on
SQLite."""

from __future__ import annotations

from django.db import DEFAULT_DB_ALIAS, connections

from ...internals.prepared import fetch_all


def fetch(statement: str, params) -> list[tuple]:
    """The rows of a written read of the default database."""
    return fetch_all(connections[DEFAULT_DB_ALIAS], statement, params)
