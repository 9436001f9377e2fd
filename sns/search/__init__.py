"""Full-text search of posts and users, keyword-in-context excerpts, counts and the
nickname-prefix friend list (docs/api.md, "Search").

* `query.py` reads the query syntax (words, "quoted phrases", -exclusions, owner: and
  status: filters);
* `engine.py` finds the matches: a trigram index on PostgreSQL (pg_trgm), an FTS5
  trigram table on SQLite, a bounded substring scan for terms under three characters;
* `kwic.py` builds the original's KWIC data (highlighted excerpts);
* `friends.py` lists the focus user, their followees, then others by nickname prefix.
"""
