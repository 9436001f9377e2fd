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

One switch takes every read back to the reference path: `STGY_PREPARED_READS=false`
(stgy/settings.py) runs the same SQL through Django's plain cursor.
`tests/sns/test_internals.py` pins the Django and psycopg versions this was verified
on, and checks that both positions of the switch give the same rows.
"""
