"""The one statement builder of post reads (docs/architecture.md §9): every timeline
tab, the post page, the API's hot reads and the AI timeline read posts through it.

* statement.py — the SELECT lists, the per-row facts, the neighbours and the filter
  vocabulary (owner, tag, reply_to, query, authors, after, the visibility rule),
  written once; followees.py — the followees' newest posts; dialect.py — the few
  places PostgreSQL and SQLite differ.
* execute.py — prepared once per connection on PostgreSQL (sns/internals/), plain on
  SQLite.
* tuples.py — plain rows for the API's JSON (sns/api/post_rows.py);
  instances.py and threads.py — model instances for the pages; ai_timeline.py — the
  AI users' reading list.

The ORM reads these replace are the tests' reference (tests/sns/reference_reads.py).
"""
